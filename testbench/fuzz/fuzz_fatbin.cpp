// The fatbinary parser of the replacement libcudart: the PTX entries of a container as nvcc
// writes it into a program (zstd-compressed or plain), then each entry through the PTX parser, as
// the library does when the program registers it.
#include "cudart/fatbinary.h"
#include "fuzz_common.h"
#include "ptx/parser.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace gpusim;
    try {
        for (const auto& e : fatbin::ptx_entries_of_container(data, size)) {
            try {
                ptx::parse("fatbin.ptx", e.text);
            } catch (const ptx::PtxError&) {
            }
        }
    } catch (const fatbin::FatbinError&) {
    }
    return 0;
}
