// The config loader with --set overrides. The input is a config's JSON text, optionally followed
// by a line "--set" and one KEY=VALUE override a line, as gpusim run --set passes them.
#include <stdexcept>
#include <string>
#include <vector>

#include "fuzz_common.h"
#include "gpu/gpu_config.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace gpusim;
    const std::string_view input = fuzz_text(data, size);
    const size_t split = input.find("\n--set\n");
    const std::string_view json = input.substr(0, split);
    std::vector<std::string> sets;
    if (split != std::string_view::npos) {
        std::string_view rest = input.substr(split + 7);
        while (!rest.empty()) {
            const size_t eol = rest.find('\n');
            sets.emplace_back(rest.substr(0, eol));
            rest = eol == std::string_view::npos ? std::string_view() : rest.substr(eol + 1);
        }
    }
    try {
        parse_config("fuzz.json", json, parse_overrides(sets));
    } catch (const std::runtime_error&) {
    }
    return 0;
}
