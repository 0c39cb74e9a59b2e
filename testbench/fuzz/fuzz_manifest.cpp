// The manifest loader: parse and validate a manifest, then build each buffer's initial contents
// (the generators) as gpusim run does once the device has allocated the buffer.
#include <stdexcept>

#include "fuzz_common.h"
#include "runtime/manifest.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace gpusim;
    try {
        // A path in a folder that does not exist: file references in the input cannot reach the
        // host's files (they fail to open, which is bad input like any other).
        const Manifest m = parse_manifest("/nonexistent/fuzz/manifest.json", fuzz_text(data, size));
        // The runtime refuses a buffer larger than the device's memory before it builds the
        // contents; sizes up to 1 MiB exercise every generator.
        for (const auto& b : m.buffers)
            if (b.bytes <= (1u << 20)) initial_contents(m, b);
    } catch (const std::runtime_error&) {
    }
    return 0;
}
