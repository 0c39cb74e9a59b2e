// Textures and surfaces of a launch manifest: an object over one of the manifest's buffers, with
// its format, shape and sampler state, passed to kernels as a handle argument or bound to a
// module-scope .texref, .samplerref or .surfref (docs/manifest.md, "Textures").
#pragma once

#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "ptx/ast.h"
#include "runtime/runtime.h"
#include "tex/texture_header.h"

namespace gpusim {

struct TextureSpec {
    std::string name;
    std::string buffer;           // the buffer whose memory the texels are
    std::string bind;             // a module variable that receives the handle ("" when none)
    tex::Header header;           // complete but for the buffer's address
    uint64_t bytes = 0;           // of the buffer the texels need
};

// Parses manifest entry `where` of `path`; `buffer_bytes` gives each buffer's size.
TextureSpec parse_texture(const std::string& path, const std::string& where, const nlohmann::json& j,
                          const std::map<std::string, uint64_t>& buffer_bytes);

// Writes the object's header into device memory over the buffer at `buffer` and binds it to
// its module variable; returns the handle. Throws std::runtime_error naming the manifest entry.
uint64_t create_texture(Runtime& rt, const TextureSpec& spec, DevicePtr buffer, const ModuleHandle& mod,
                        const std::string& manifest_path);

// The sampler state a .texref or .samplerref initializer gives (PTX's filter_mode, addr_mode_0..2,
// normalized_coords and force_unnormalized_coords); throws ptx::PtxError at a bad field.
tex::Header reference_sampler(const ptx::Variable& v, const std::string& file);

} // namespace gpusim
