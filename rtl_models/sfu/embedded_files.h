// Files built into the simulator (cmake/embed_files.cmake writes their contents as arrays).
#pragma once

#include <cstddef>

namespace gpusim {

struct EmbeddedFile {
    const char* name;
    const unsigned char* data;
    std::size_t size;
};

extern const EmbeddedFile embedded_files[];
extern const std::size_t embedded_file_count;

} // namespace gpusim
