// The parts of the config reference (docs/config.md) and the config's schema.
#pragma once

namespace gpusim {

class ConfigSchema;

// Adds the reference's parts, in order, with their prose (config_outline.cpp).
void declare_outline(ConfigSchema& schema);

// Every key of a config: the chip's own and each unit's, composed once (gpu_keys.cpp).
const ConfigSchema& config_schema();

} // namespace gpusim
