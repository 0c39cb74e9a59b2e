// JUnit XML for `gpusim run --junit FILE`: one test suite per manifest and one test case per launch,
// so that users' own regressions show up in their CI as ours do (docs/manifest.md).
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace gpusim {

// What one manifest's run became, as a child process hands it to the parent:
//   {"suite", "manifest", "config", "mode", "exit", "error", "hazards",
//    "launches": [{"kernel", "finished", "cycles", "warp_instructions", "seconds", "failures": [...],
//                  "known": "why the difference is expected" (only for a known difference)}]}
// `exit` is gpusim run's exit code for the manifest; `error` the message of an error that ended it.
using JunitRecord = nlohmann::json;

// The document for all manifests, in order.
std::string junit_xml(const std::vector<JunitRecord>& manifests);

// Text made safe for an XML attribute or element: markup escaped, characters XML 1.0 cannot hold dropped.
std::string xml_escape(const std::string& text);

} // namespace gpusim
