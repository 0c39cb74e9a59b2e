// Reads back a VCD file as SystemC's writer makes it, for the waveform's tests: each signal's
// changes in time order, named by its scopes below SystemC's root scope ("top.gpu.sm_0.issued").
#pragma once

#include <cstdint>
#include <fstream>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace gpusim::test {

struct VcdFile {
    std::map<std::string, std::vector<std::pair<uint64_t, uint64_t>>> changes;   // (time, value)
    uint64_t end = 0;            // the last time stamp
    std::string timescale;       // "1 ps"
};

inline VcdFile read_vcd(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw std::runtime_error("cannot open " + path);
    VcdFile vcd;
    std::map<std::string, std::string> names;   // id code -> name
    std::vector<std::string> scope;
    std::string w;
    uint64_t now = 0;
    bool body = false;
    // A value at the current time replaces one written earlier at the same time.
    auto change = [&](const std::string& id, uint64_t value) {
        auto& c = vcd.changes[names.at(id)];
        if (!c.empty() && c.back().first == now) c.back().second = value;
        else c.push_back({now, value});
    };
    while (in >> w) {
        if (w == "$comment") {
            while (in >> w && w != "$end") {}
        } else if (!body && w == "$scope") {
            std::string kind, name;
            in >> kind >> name;
            scope.push_back(name);
        } else if (!body && w == "$upscope") {
            scope.pop_back();
        } else if (!body && w == "$var") {
            std::string type, bits, id, name;
            in >> type >> bits >> id >> name;
            for (size_t k = scope.size(); k-- > 1;) name = scope[k] + "." + name;
            names[id] = name;
            vcd.changes[name];
        } else if (!body && w == "$timescale") {
            in >> vcd.timescale;
            if (vcd.timescale.find_first_not_of("0123456789") == std::string::npos) {
                std::string unit;
                in >> unit;
                vcd.timescale += " " + unit;
            }
        } else if (w == "$enddefinitions") {
            body = true;
        } else if (body && w[0] == '#') {
            now = std::stoull(w.substr(1));
            vcd.end = std::max(vcd.end, now);
        } else if (body && w[0] == 'b') {
            std::string id;
            in >> id;
            change(id, std::stoull(w.substr(1), nullptr, 2));
        } else if (body && (w[0] == '0' || w[0] == '1') && w.size() > 1) {
            change(w.substr(1), uint64_t(w[0] - '0'));
        }
    }
    return vcd;
}

} // namespace gpusim::test
