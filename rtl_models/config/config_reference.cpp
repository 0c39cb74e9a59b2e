#include "config/config_reference.h"

#include <algorithm>
#include <cctype>
#include <map>

#include <fmt/format.h>

#include "config/config_schema.h"

namespace gpusim {

namespace {

using nlohmann::json;

// Text for a table cell: no line breaks, pipes escaped.
std::string cell(std::string s) {
    for (size_t i = 0; (i = s.find('|', i)) != std::string::npos; i += 2) s.replace(i, 1, "\\|");
    std::replace(s.begin(), s.end(), '\n', ' ');
    return s;
}

std::string value_text(const json& v) {
    if (v.is_null()) return "—";
    if (v.is_string()) return v.get<std::string>().empty() ? "\"\"" : v.get<std::string>();
    if (v.is_array()) {
        std::string s = "[";
        for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + value_text(v[i]);
        return s + "]";
    }
    return v.dump();
}

// The source of `name` in a config: its own, else that of the nearest group above it; `origin`
// receives the key or group the text is given for.
std::string source_of(const json& sources, std::string name, std::string& origin) {
    for (;;) {
        if (sources.contains(name) && sources[name].is_string()) {
            origin = name;
            return sources[name].get<std::string>();
        }
        const size_t dot = name.rfind('.');
        if (dot == std::string::npos) return "";
        name.erase(dot);
    }
}

std::string column_list(const std::vector<std::string>& titles) {
    std::string s;
    for (size_t i = 0; i < titles.size(); ++i) s += (i ? ", " : "") + titles[i];
    return s;
}

// "- `key`: text" when every config gives one text; else each text with the configs that give it,
// and the configs that give none (for a key without a default).
std::string source_line(const std::string& label, const std::vector<std::string>& texts, const std::vector<ConfigColumn>& columns,
                        bool required) {
    std::vector<std::pair<std::string, std::vector<std::string>>> groups;   // text -> configs, in column order
    std::vector<std::string> missing;
    for (size_t c = 0; c < columns.size(); ++c) {
        if (texts[c].empty()) {
            missing.push_back(columns[c].title);
            continue;
        }
        auto it = std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.first == texts[c]; });
        if (it == groups.end()) groups.push_back({texts[c], {columns[c].title}});
        else it->second.push_back(columns[c].title);
    }
    if (groups.empty()) return required ? fmt::format("- {}: no source recorded.\n", label) : "";
    if (groups.size() == 1 && missing.empty()) return fmt::format("- {}: {}\n", label, groups[0].first);
    std::string s = fmt::format("- {}:\n", label);
    for (const auto& g : groups) s += fmt::format("  - {}: {}\n", column_list(g.second), g.first);
    if (required && !missing.empty()) s += fmt::format("  - {}: no source recorded.\n", column_list(missing));
    return s;
}

std::string range_cell(const ConfigKey& k) {
    std::string r = k.range();
    if (!k.required()) r += (r.empty() ? "" : "; ") + std::string("default ") + value_text(k.fallback);
    return r.empty() ? "—" : r;
}

std::string plain_part(const std::vector<const ConfigKey*>& keys, const std::vector<ConfigColumn>& columns) {
    std::string head = "| Key | Unit | Range |", rule = "|---|---|---|";
    for (const ConfigColumn& c : columns) head += " " + c.title + " |", rule += "---|";
    std::string out = head + " Meaning |\n" + rule + "---|\n";
    std::string sources;
    std::vector<std::string> groups_listed;
    for (const ConfigKey* k : keys) {
        std::string row = fmt::format("| `{}` | {} | {} |", k->name, cell(k->unit.empty() ? "—" : k->unit), cell(range_cell(*k)));
        std::vector<std::string> texts;
        std::string origin, group;   // a source every config gives for one group of keys is listed once for the group
        bool one_group = true;
        for (const ConfigColumn& c : columns) {
            const json* v = config_value(c.values, k->name);
            row += " " + cell(value_text(v ? *v : json())) + " |";
            texts.push_back(source_of(c.sources, k->name, origin));
            if (texts.back().empty() || origin == k->name || (!group.empty() && group != origin)) one_group = false;
            group = origin;
        }
        out += row + " " + cell(k->meaning) + " |\n";
        if (!k->sourced) continue;
        if (!one_group) sources += source_line("`" + k->name + "`", texts, columns, k->required());
        else if (std::find(groups_listed.begin(), groups_listed.end(), group) == groups_listed.end()) {
            groups_listed.push_back(group);
            sources += source_line("`" + group + ".*`", texts, columns, k->required());
        }
    }
    if (!sources.empty()) out += "\nSources:\n\n" + sources;
    return out;
}

// A part whose keys come in groups prefix.<group>.<field>: a row per group, its cell written by
// the part's `compact`, then the fields' own rows.
std::string grouped_part(const ConfigSectionDoc& doc, const std::vector<const ConfigKey*>& keys,
                         const std::vector<ConfigColumn>& columns) {
    std::vector<std::string> groups;
    std::map<std::string, std::vector<const ConfigKey*>> fields_of;
    for (const ConfigKey* k : keys) {
        const std::string group = k->name.substr(0, k->name.rfind('.'));
        if (!fields_of.count(group)) groups.push_back(group);
        fields_of[group].push_back(k);
    }
    std::string head = "| " + doc.group_label + " |", rule = "|---|";
    for (const ConfigColumn& c : columns) head += " " + c.title + " |", rule += "---|";
    std::string out = head + "\n" + rule + "\n", sources;
    for (const std::string& g : groups) {
        bool required = false;
        const std::string name = g.substr(g.rfind('.') + 1);
        std::string row = fmt::format("| `{}` |", name);
        std::vector<std::string> texts;
        for (const ConfigColumn& c : columns) {
            const json* v = config_value(c.values, g);
            row += " " + cell(v ? doc.compact(*v) : "—") + " |";
            std::string origin;
            texts.push_back(source_of(c.sources, g, origin));
        }
        for (const ConfigKey* k : fields_of[g]) required = required || k->required();
        out += row + "\n";
        sources += source_line("`" + name + "`", texts, columns, required);
    }
    // The fields, once for every group.
    const std::string first = groups.front();
    std::string label = doc.group_label;
    for (char& ch : label) ch = char(std::tolower(static_cast<unsigned char>(ch)));
    const std::string generic = first.substr(0, first.rfind('.') + 1) + "<" + label + ">";
    out += "\n| Key | Unit | Range | Meaning |\n|---|---|---|---|\n";
    for (const ConfigKey* k : fields_of[first])
        out += fmt::format("| `{}.{}` | {} | {} | {} |\n", generic, k->name.substr(first.size() + 1), cell(k->unit.empty() ? "—" : k->unit),
                           cell(range_cell(*k)), cell(k->meaning));
    if (!sources.empty()) out += "\nSources:\n\n" + sources;
    return out;
}

} // namespace

std::string reference_tables(const ConfigSchema& schema, const std::vector<ConfigColumn>& columns, int level) {
    std::string out;
    const std::string hashes(size_t(level), '#');
    for (size_t s = 0; s < schema.sections().size(); ++s) {
        const ConfigSectionDoc& doc = schema.sections()[s];
        std::vector<const ConfigKey*> keys;
        for (const ConfigKey& k : schema.keys())
            if (k.section == s) keys.push_back(&k);
        if (keys.empty()) continue;
        out += fmt::format("{} {}\n\n", hashes, doc.title);
        if (!doc.prose.empty()) out += doc.prose + "\n\n";
        out += doc.compact ? grouped_part(doc, keys, columns) : plain_part(keys, columns);
        if (!doc.after.empty()) out += "\n" + doc.after + "\n";
        out += "\n";
    }
    return out;
}

} // namespace gpusim
