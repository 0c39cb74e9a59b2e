// The fatbinary nvcc embeds in a host program: a wrapper pointing at a container of entries
// (PTX text, or cubins for real architectures). We take the PTX entries, decompressing those
// CUDA 13 compresses with zstd. docs/cudart.md describes the layout.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace gpusim::fatbin {

struct PtxEntry {
    uint32_t arch = 0;       // the compute capability the PTX targets, e.g. 75
    std::string text;
};

class FatbinError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// The PTX entries of the fatbinary that a __cudaRegisterFatBinary argument (the wrapper) points
// to. Throws FatbinError for a layout it does not recognise.
std::vector<PtxEntry> ptx_entries(const void* wrapper);

// The same for a container given as bytes (a .fatbin file), for tests and tools.
std::vector<PtxEntry> ptx_entries_of_container(const uint8_t* data, size_t size);

} // namespace gpusim::fatbin
