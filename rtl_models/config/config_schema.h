// The config's keys, each declared once, in code, next to the unit that reads it: its name, type,
// unit, default (or that a config must state it), range and meaning. The unit declares its keys on
// a ConfigSection of its own config struct; the chip (gpu/gpu_config.cpp) composes the sections
// into one ConfigSchema, which validates a config file, fills the structs from it, and gives the
// reference (docs/config.md, `gpusim config --doc`) its rows.
#pragma once

#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace gpusim {

struct ConfigKey {
    enum class Type : uint8_t { Bool, Integer, Number, String, IntegerArray };

    std::string name;              // dotted path: "smem.banks"
    Type type = Type::Integer;
    unsigned bits = 32;            // Integer and IntegerArray: the field's width
    size_t length = 0;             // IntegerArray: how many elements
    std::string unit;              // "cycles", "bytes" ...; "" for a name or a flag
    std::string meaning;           // what it does and where it is used (markdown)
    nlohmann::json fallback;       // the default; null: every config states it (or its base does)
    double min = -std::numeric_limits<double>::infinity();
    double max = std::numeric_limits<double>::infinity();
    bool min_open = false;         // min is excluded (> min)
    bool power_of_two = false;
    bool sourced = true;           // a value of the hardware, whose source each config gives (not a name)
    std::vector<std::string> choices;   // String: the values it takes (empty: any)
    size_t section = 0;            // index into ConfigSchema::sections()
    // Stores a checked value into the config being filled (`root`: the chip's config struct).
    std::function<void(void* root, const nlohmann::json& value)> store;

    bool required() const { return fallback.is_null(); }
    // The JSON type a value must have, in words ("number", "string", "boolean", "array").
    const char* json_kind() const;
    // The range in words for the reference: "≥ 1", "1 to 64", "lrr, gto or two_level"; "" for any.
    std::string range() const;
    // What is wrong with `v` as this key's value, or "" when nothing is.
    std::string problem(const nlohmann::json& v) const;
};

// The value at a dotted path of a nested document ("smem.banks"), or null; and its setting, which
// makes the objects on the way, or returns false where something else is in the way ("smem": 1).
const nlohmann::json* config_value(const nlohmann::json& doc, const std::string& path);
bool set_config_value(nlohmann::json& doc, const std::string& path, const nlohmann::json& value);

// A part of the reference: a title, prose before its table, and, for keys that come in groups
// (ops.<class>.pipe, .interval, .latency), a row per group whose cell `compact` writes.
struct ConfigSectionDoc {
    std::string title;             // "Shared memory (`smem.*`)"
    std::string prose;             // markdown before the table (may be empty)
    std::string after;             // markdown after the table and its sources (may be empty)
    std::string group_label;       // "Class": a row per group of keys prefix.<group>.<field>
    std::function<std::string(const nlohmann::json& group)> compact;   // a group's values as one cell
};

class ConfigSchema {
public:
    // Adds a part of the reference, named `id`; the parts appear in the order they are added.
    void section(const std::string& id, ConfigSectionDoc doc);
    // The keys declared next belong to part `id` (the composer chooses, before a unit declares).
    void use(const std::string& id);
    ConfigKey& add(ConfigKey key);
    // A check across keys, after each key passed its own: adds what is wrong to `problems`.
    void check(std::function<void(const void* root, std::vector<std::string>& problems)> f) { m_checks.push_back(std::move(f)); }

    const std::vector<ConfigKey>& keys() const { return m_keys; }
    const std::vector<ConfigSectionDoc>& sections() const { return m_sections; }
    const ConfigKey* find(const std::string& name) const;
    // Whether `prefix` ("smem", "ops.sfu") starts any key's name.
    bool is_prefix(const std::string& prefix) const;

    // Fills `root` from the resolved document `doc` (nested objects, defaults not yet applied):
    // every key is checked, defaults fill what is missing, then the cross-key checks run.
    // Returns every problem found; `doc` receives the defaults it lacked.
    std::vector<std::string> fill(nlohmann::json& doc, void* root) const;

private:
    std::vector<ConfigKey> m_keys;
    std::vector<ConfigSectionDoc> m_sections;
    std::vector<std::string> m_section_ids;
    size_t m_current = 0;
    std::vector<std::function<void(const void*, std::vector<std::string>&)>> m_checks;
};

// Builds a declared key fluently: .at_least(1).or_default(64).
class KeyBuilder {
public:
    explicit KeyBuilder(ConfigKey& k) : m_key(k) {}
    KeyBuilder& or_default(nlohmann::json v) { m_key.fallback = std::move(v); return *this; }
    KeyBuilder& at_least(double v) { m_key.min = v; return *this; }
    KeyBuilder& above(double v) { m_key.min = v; m_key.min_open = true; return *this; }
    KeyBuilder& at_most(double v) { m_key.max = v; return *this; }
    KeyBuilder& within(double lo, double hi) { m_key.min = lo; m_key.max = hi; return *this; }
    KeyBuilder& one_of(std::vector<std::string> v) { m_key.choices = std::move(v); return *this; }
    KeyBuilder& power_of_two() { m_key.power_of_two = true; return *this; }
    // A name or free text of the config, not a value of the hardware: it needs no source.
    KeyBuilder& unsourced() { m_key.sourced = false; return *this; }

private:
    ConfigKey& m_key;
};

// The keys of one unit's config struct T, under a prefix ("smem"). `access` finds the unit's
// struct in the chip's config.
template <class T>
class ConfigSection {
public:
    using Access = std::function<T&(void* root)>;
    ConfigSection(ConfigSchema& schema, std::string prefix, Access access)
        : m_schema(schema), m_prefix(std::move(prefix)), m_access(std::move(access)) {}

    const std::string& prefix() const { return m_prefix; }
    ConfigSchema& schema() const { return m_schema; }

    // A key stored in a member of T as it is.
    template <class M>
    KeyBuilder key(const std::string& name, M T::*member, std::string unit, std::string meaning) {
        ConfigKey k = make<M>(name, std::move(unit), std::move(meaning));
        Access access = m_access;
        k.store = [access, member](void* root, const nlohmann::json& v) { access(root).*member = v.get<M>(); };
        return KeyBuilder(m_schema.add(std::move(k)));
    }
    // A key of JSON type V turned into T's fields by `convert` ("timing" sets TimingConfig::enabled).
    template <class V>
    KeyBuilder converted(const std::string& name, std::function<void(T&, const V&)> convert, std::string unit, std::string meaning) {
        ConfigKey k = make<V>(name, std::move(unit), std::move(meaning));
        Access access = m_access;
        k.store = [access, convert](void* root, const nlohmann::json& v) { convert(access(root), v.get<V>()); };
        return KeyBuilder(m_schema.add(std::move(k)));
    }
    // The keys of a member struct, under the same prefix (a cache's bytes, line_bytes ... in
    // `ccache`) or another (the LD/ST unit's L1 under `l1`).
    template <class S>
    ConfigSection<S> part(S T::*member) const { return part(member, m_prefix); }
    template <class S>
    ConfigSection<S> part(S T::*member, std::string prefix) const {
        Access access = m_access;
        return ConfigSection<S>(m_schema, std::move(prefix), [access, member](void* root) -> S& { return access(root).*member; });
    }
    // A check across this unit's keys.
    void check(std::function<void(const T&, std::vector<std::string>&)> f) {
        Access access = m_access;
        m_schema.check([access, f](const void* root, std::vector<std::string>& p) { f(access(const_cast<void*>(root)), p); });
    }

private:
    ConfigSchema& m_schema;
    std::string m_prefix;
    Access m_access;

    template <class M>
    ConfigKey make(const std::string& name, std::string unit, std::string meaning) const {
        ConfigKey k;
        k.name = m_prefix.empty() ? name : m_prefix + "." + name;
        k.unit = std::move(unit);
        k.meaning = std::move(meaning);
        if constexpr (std::is_same_v<M, bool>) {
            k.type = ConfigKey::Type::Bool;
        } else if constexpr (std::is_integral_v<M>) {
            k.type = ConfigKey::Type::Integer;
            k.bits = sizeof(M) * 8;
            k.min = 0;
        } else if constexpr (std::is_floating_point_v<M>) {
            k.type = ConfigKey::Type::Number;
        } else if constexpr (std::is_same_v<M, std::string>) {
            k.type = ConfigKey::Type::String;
        } else {
            static_assert(std::tuple_size<M>::value > 0, "a config key is a bool, an integer, a number, a string or an array of integers");
            k.type = ConfigKey::Type::IntegerArray;
            k.length = std::tuple_size<M>::value;
            k.bits = sizeof(typename M::value_type) * 8;
            k.min = 0;
        }
        return k;
    }
};

} // namespace gpusim
