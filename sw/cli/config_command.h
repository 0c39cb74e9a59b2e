// `gpusim config`: the config reference (--doc, the text of docs/config.md) and a config as the
// model resolves it (--show NAME, with any --set applied).
#pragma once

#include <string>
#include <vector>

namespace gpusim {

// Prints the reference, or the resolved config `show` (JSON); returns the exit code.
int config_command(bool doc, const std::string& show, const std::vector<std::string>& sets);

} // namespace gpusim
