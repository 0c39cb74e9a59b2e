// The keys' part of the config reference: for each part of the schema, its prose, a table of its
// keys (unit, range or default, each config's value, meaning) and where each config's values come
// from. gpu/config_reference.cpp puts the prose around it (docs/config.md).
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace gpusim {

class ConfigSchema;

// One config as the reference shows it: its column's title, its resolved values (nested, every
// key present) and its sources ({"key or key prefix": "text"}).
struct ConfigColumn {
    std::string title;
    nlohmann::json values;
    nlohmann::json sources;
};

// The markdown of every part, each under a heading of `level` #s.
std::string reference_tables(const ConfigSchema& schema, const std::vector<ConfigColumn>& columns, int level);

} // namespace gpusim
