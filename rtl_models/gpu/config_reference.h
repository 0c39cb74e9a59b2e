// The config reference, docs/config.md: `gpusim config --doc` prints it (config_reference.cpp).
#pragma once

#include <string>

namespace gpusim {

std::string config_reference();

} // namespace gpusim
