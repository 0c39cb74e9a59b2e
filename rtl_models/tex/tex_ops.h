// The texture unit's instructions as the SM executes them (tex_ops.cpp), and what the timing
// model needs to price them: the device addresses of the texels or surface elements a warp reads.
#pragma once

#include <cstdint>
#include <string>

#include "isa/exec_context.h"

namespace gpusim {

// txq and suq attributes, in the order TexOperands::component stores them.
enum class TexQuery : uint8_t {
    Width, Height, Depth, ChannelDataType, ChannelOrder, NormalizedCoords, FilterMode, AddrMode0, AddrMode1,
    AddrMode2, ArraySize, MipmapLevels, Samples
};

ExecFn texture_fn(TexOperands::Op op);

// Device addresses of the texels (or surface elements) the warp's lanes in `m` touch, at most
// `cap` of them; returns how many.
uint32_t texture_footprint(ExecContext& c, Warp& w, const Inst& in, LaneMask m, uint64_t* out, uint32_t cap);

} // namespace gpusim
