#include "config/config_schema.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

namespace gpusim {

namespace {

using nlohmann::json;

std::string number_text(double v) { return json(v).dump(); }

std::string bound_text(double v) {
    if (v == std::floor(v) && std::fabs(v) < 1e15) return fmt::format("{}", int64_t(v));
    return number_text(v);
}

// "a", "a" or "b", "a", "b" or "c"
std::string choice_list(const std::vector<std::string>& c, bool quoted) {
    std::string out;
    for (size_t i = 0; i < c.size(); ++i) {
        if (i) out += i + 1 == c.size() ? " or " : ", ";
        out += quoted ? "\"" + c[i] + "\"" : c[i];
    }
    return out;
}

// A non-negative integer no larger than `top` (a parsed value is unsigned; a default written in
// code may be signed).
bool fits(const json& v, uint64_t top) {
    if (v.is_number_unsigned()) return v.get<uint64_t>() <= top;
    return v.is_number_integer() && v.get<int64_t>() >= 0 && uint64_t(v.get<int64_t>()) <= top;
}

} // namespace

const json* config_value(const json& doc, const std::string& path) {
    const json* node = &doc;
    size_t start = 0;
    for (;;) {
        const size_t dot = path.find('.', start);
        const std::string part = path.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
        if (!node->is_object() || !node->contains(part)) return nullptr;
        node = &(*node)[part];
        if (dot == std::string::npos) return node;
        start = dot + 1;
    }
}

bool set_config_value(json& doc, const std::string& path, const json& v) {
    json* node = &doc;
    size_t start = 0;
    for (;;) {
        if (node->is_null()) *node = json::object();
        if (!node->is_object()) return false;
        const size_t dot = path.find('.', start);
        if (dot == std::string::npos) {
            (*node)[path.substr(start)] = v;
            return true;
        }
        node = &(*node)[path.substr(start, dot - start)];
        start = dot + 1;
    }
}

const char* ConfigKey::json_kind() const {
    switch (type) {
    case Type::Bool: return "boolean";
    case Type::Integer:
    case Type::Number: return "number";
    case Type::String: return "string";
    case Type::IntegerArray: return "array";
    }
    return "?";
}

std::string ConfigKey::range() const {
    if (!choices.empty()) return choice_list(choices, false);
    std::string r;
    const bool low = std::isfinite(min) && !(min == 0 && !min_open && (type == Type::Integer || type == Type::IntegerArray));
    if (low && std::isfinite(max)) r = fmt::format("{} to {}", bound_text(min), bound_text(max));
    else if (low) r = fmt::format("{} {}", min_open ? ">" : "≥", bound_text(min));
    else if (std::isfinite(max)) r = fmt::format("≤ {}", bound_text(max));
    if (power_of_two) r = r.empty() ? "a power of two" : "a power of two, " + r;
    return r;
}

std::string ConfigKey::problem(const json& v) const {
    switch (type) {
    case Type::Bool:
        if (!v.is_boolean()) return fmt::format("key '{}' has the wrong type ({})", name, v.type_name());
        return "";
    case Type::String:
        if (!v.is_string()) return fmt::format("key '{}' has the wrong type ({})", name, v.type_name());
        if (!choices.empty() && std::find(choices.begin(), choices.end(), v.get<std::string>()) == choices.end())
            return fmt::format("{} must be {}, got {}", name, choice_list(choices, true), v.dump());
        return "";
    case Type::IntegerArray: {
        const uint64_t top = bits >= 64 ? UINT64_MAX : (uint64_t(1) << bits) - 1;
        const bool ok = v.is_array() && v.size() == length && std::all_of(v.begin(), v.end(), [&](const json& e) { return fits(e, top); });
        if (!ok)
            return fmt::format("key '{}' must be an array of {} non-negative integers that fit {} bits, got {}", name, length, bits,
                               v.dump());
        for (const json& e : v)
            if (double(e.get<uint64_t>()) < min || double(e.get<uint64_t>()) > max)
                return fmt::format("{} must be {} in each element, got {}", name, range(), v.dump());
        return "";
    }
    case Type::Integer: {
        const uint64_t top = bits >= 64 ? UINT64_MAX : (uint64_t(1) << bits) - 1;
        if (!fits(v, top))
            return fmt::format("key '{}' must be a non-negative integer that fits {} bits, got {}", name, bits, v.dump());
        const uint64_t x = v.get<uint64_t>();
        if (power_of_two && (x == 0 || (x & (x - 1))))
            return fmt::format("{} must be {}, got {}", name, range(), v.dump());
        if (double(x) < min || (min_open && double(x) <= min) || double(x) > max)
            return fmt::format("{} must be {}, got {}", name, range(), v.dump());
        return "";
    }
    case Type::Number: {
        if (!v.is_number()) return fmt::format("key '{}' has the wrong type ({})", name, v.type_name());
        const double x = v.get<double>();
        if (std::isnan(x) || x < min || (min_open && x <= min) || x > max)
            return fmt::format("{} must be {}, got {}", name, range(), v.dump());
        return "";
    }
    }
    return "";
}

void ConfigSchema::section(const std::string& id, ConfigSectionDoc doc) {
    if (std::find(m_section_ids.begin(), m_section_ids.end(), id) != m_section_ids.end())
        throw std::logic_error("config reference part '" + id + "' is added twice");
    m_section_ids.push_back(id);
    m_sections.push_back(std::move(doc));
}

void ConfigSchema::use(const std::string& id) {
    auto it = std::find(m_section_ids.begin(), m_section_ids.end(), id);
    if (it == m_section_ids.end()) throw std::logic_error("config reference part '" + id + "' is not declared");
    m_current = size_t(it - m_section_ids.begin());
}

ConfigKey& ConfigSchema::add(ConfigKey key) {
    if (find(key.name)) throw std::logic_error("config key '" + key.name + "' is declared twice");
    key.section = m_current;
    m_keys.push_back(std::move(key));
    return m_keys.back();
}

const ConfigKey* ConfigSchema::find(const std::string& name) const {
    for (const ConfigKey& k : m_keys)
        if (k.name == name) return &k;
    return nullptr;
}

bool ConfigSchema::is_prefix(const std::string& prefix) const {
    const std::string p = prefix + ".";
    return std::any_of(m_keys.begin(), m_keys.end(), [&](const ConfigKey& k) { return k.name.compare(0, p.size(), p) == 0; });
}

std::vector<std::string> ConfigSchema::fill(json& doc, void* root) const {
    std::vector<std::string> problems;
    for (const ConfigKey& k : m_keys) {
        const json* v = config_value(doc, k.name);
        if (!v) {
            if (k.required()) {
                problems.push_back(fmt::format("missing key '{}'", k.name));
                continue;
            }
            if (!set_config_value(doc, k.name, k.fallback)) {
                problems.push_back(fmt::format("key '{}' is not an object of keys", k.name.substr(0, k.name.rfind('.'))));
                continue;
            }
            v = config_value(doc, k.name);
        }
        std::string p = k.problem(*v);
        if (!p.empty()) problems.push_back(std::move(p));
        else k.store(root, *v);
    }
    // Every key of the document must be declared.
    std::function<void(const json&, const std::string&)> unknown = [&](const json& node, const std::string& prefix) {
        for (auto it = node.begin(); it != node.end(); ++it) {
            const std::string path = prefix.empty() ? it.key() : prefix + "." + it.key();
            if (find(path)) continue;
            if (it->is_object() && is_prefix(path)) unknown(*it, path);
            else problems.push_back(fmt::format("unknown key '{}'", path));
        }
    };
    if (doc.is_object()) unknown(doc, "");
    for (const auto& c : m_checks) c(root, problems);
    return problems;
}

} // namespace gpusim
