// Launch manifests: a JSON description of a PTX module, device buffers, kernel launches and the
// outputs to write or compare. The format of the regression suite and of external harnesses.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "memory/huge_pages.h"
#include "runtime/compare.h"
#include "runtime/runtime.h"
#include "runtime/texture_spec.h"

namespace gpusim {

struct BufferSpec {
    std::string name;
    uint64_t bytes = 0;
    nlohmann::json init;          // null: zero-filled
};

struct ArgSpec {
    std::string buffer;           // set for a buffer argument (its device address)
    std::string texture;          // set for a texture or surface argument (its handle)
    std::string type;             // u32 s32 u64 s64 f32 f64 for scalars
    nlohmann::json value;
};

struct FileRef {
    std::string buffer;
    std::string file;             // resolved against the manifest's folder
    Tolerance tolerance;          // expect only
};

struct LaunchSpec {
    std::string kernel;
    Dim3 grid, block;
    uint32_t shared_bytes = 0;
    std::vector<ArgSpec> args;
    std::vector<FileRef> outputs;
    std::vector<FileRef> expect;
};

struct Manifest {
    std::string path;
    std::string dir;
    std::string module;           // resolved path
    std::string config = "fermi-gf100";
    std::vector<BufferSpec> buffers;
    std::vector<TextureSpec> textures;
    std::vector<LaunchSpec> launches;
};

// Reads and validates a manifest; throws std::runtime_error naming the file and the bad entry.
Manifest load_manifest(const std::string& path);
// The same for a manifest's text; `path` places its relative paths and names it in errors.
Manifest parse_manifest(const std::string& path, std::string_view text);
// Every file a manifest's run reads, resolved: its PTX module, the files its buffers start from,
// and the references its launches compare with.
std::vector<std::string> input_files(const Manifest& m);

// One launch of a manifest: its kernel, what it cost, and the comparisons it failed. A launch
// that was started but did not finish (it faulted) has finished == false.
struct LaunchOutcome {
    std::string kernel;
    bool finished = false;
    LaunchStats stats;
    std::vector<std::string> failures;
};

struct ManifestOutcome {
    bool passed = true;
    std::vector<std::string> failures;     // one line per mismatch or error
    std::vector<std::string> failed_kernels;  // the kernel of each failure, in the same order
    LaunchStats totals;
    size_t launches = 0;
    std::vector<LaunchOutcome> per_launch;   // the launches started, in order
    // With run_manifest's `digests`, each buffer's contents after the last launch, as a 64-bit FNV-1a
    // digest in hex: two runs left the same memory when their digests agree (the stats file
    // records them).
    std::map<std::string, std::string> digests;
};

// Runs every launch of the manifest on `rt`; mismatches are reported in the outcome, while
// errors (bad PTX, faults, bad arguments) throw. With `dump_dir`, a buffer that differs from its
// reference is also written there as <kernel>.<buffer>.bin, for analysis.
ManifestOutcome run_manifest(Runtime& rt, const Manifest& m, const std::string& dump_dir = "");
// The same, filling `out` as it goes: a caller that catches the error still has the launches
// before it (a JUnit report names the one that failed). `digests`: also digest every buffer at the
// end (a pass over all of them, which only a stats file needs).
void run_manifest(Runtime& rt, const Manifest& m, ManifestOutcome& out, const std::string& dump_dir = "", bool digests = false);

// Builds the initial bytes of a buffer from its init spec.
HostBytes initial_contents(const Manifest& m, const BufferSpec& b);


} // namespace gpusim
