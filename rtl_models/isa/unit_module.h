// Common base of the SM's units: each is an sc_module whose work the SM's one process calls
// directly (no processes of its own), and which reports its statistics under its hierarchical name.
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>
#include <systemc>

namespace gpusim {

class UnitModule : public sc_core::sc_module {
public:
    // Writes the unit's statistics: {"name": {"value": v, "unit": "...", "description": "..."}}.
    virtual void report(nlohmann::json& out) const = 0;

protected:
    explicit UnitModule(const sc_core::sc_module_name& name) : sc_module(name) {}

    static void stat(nlohmann::json& out, const char* key, double value, const char* unit, const char* what) {
        out[key] = {{"value", value}, {"unit", unit}, {"description", what}};
    }
    // A property rather than a count (lanes, copies): a difference of two reports keeps it.
    static void constant(nlohmann::json& out, const char* key, double value, const char* unit, const char* what) {
        out[key] = {{"value", value}, {"unit", unit}, {"description", what}, {"constant", true}};
    }
};

// A unit's instance name: `base` inside a module under construction (gpu.sm0.smem); a unique
// top-level name where a test builds an SM core on its own.
inline const char* unit_name(const char* base) {
    return sc_core::sc_get_curr_simcontext()->hierarchy_curr() ? base : sc_core::sc_gen_unique_name(base);
}

} // namespace gpusim
