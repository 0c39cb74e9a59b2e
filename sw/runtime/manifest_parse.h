// Helpers of the manifest parser (manifest.cpp, texture_spec.cpp): errors name the file, the
// entry and what is wrong with it.
#pragma once

#include <algorithm>
#include <stdexcept>
#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace gpusim::manifest_parse {

using nlohmann::json;

[[noreturn]] inline void bad(const std::string& path, const std::string& where, const std::string& what) {
    throw std::runtime_error(fmt::format("{}: error: {}: {}", path, where, what));
}

inline const json& field(const std::string& path, const std::string& where, const json& obj, const char* key) {
    if (!obj.is_object() || !obj.contains(key)) bad(path, where, fmt::format("missing \"{}\"", key));
    return obj[key];
}

inline void only_keys(const std::string& path, const std::string& where, const json& obj, std::initializer_list<const char*> keys) {
    if (!obj.is_object()) bad(path, where, "expected an object");
    for (auto& item : obj.items()) {
        const std::string& k = item.key();
        if (std::none_of(keys.begin(), keys.end(), [&](const char* a) { return k == a; }))
            bad(path, where, fmt::format("unknown key \"{}\"", k));
    }
}

} // namespace gpusim::manifest_parse
