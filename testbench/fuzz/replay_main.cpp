// Replays inputs through a fuzz harness without libFuzzer: every file named on the command line,
// or every file in a folder named there. The normal and sanitizer builds run the committed seeds
// and the inputs of past findings (regressions/) this way, so a fixed crash stays fixed in CI
// builds that have no clang.
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

#include <systemc>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace {
void replay(const std::filesystem::path& file) {
    std::ifstream in(file, std::ios::binary);
    std::vector<uint8_t> data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    LLVMFuzzerTestOneInput(data.data(), data.size());
}
} // namespace

int sc_main(int argc, char** argv) {
    size_t count = 0;
    for (int k = 1; k < argc; ++k) {
        const std::filesystem::path p(argv[k]);
        if (std::filesystem::is_directory(p)) {
            for (const auto& e : std::filesystem::directory_iterator(p))
                if (e.is_regular_file()) replay(e.path()), ++count;
        } else {
            replay(p), ++count;
        }
    }
    std::printf("replayed %zu inputs without a finding\n", count);
    return count ? 0 : 1;
}
