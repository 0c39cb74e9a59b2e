// Host memory for warp registers: one anonymous mapping that a chip's SMs share out at each
// launch (SmCluster) and keep from launch to launch.
//
// Why not a vector per warp: a launch's first blocks then page in their registers one 4 KiB
// page at a time, about a microsecond of the host kernel's time per page on a virtual machine,
// and a later kernel with more registers per warp reallocates them all and pages them in again;
// on the peer workload that was about 1,470 page faults, a tenth of a functional run. The arena
// grows only when a launch needs more than any before it, and asks for transparent huge pages
// (MADV_HUGEPAGE), so that a few 2 MiB pages hold every SM's registers and the TLB covers them.
#pragma once

#include <cstddef>
#include <cstdint>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#endif

namespace gpusim {

class RegisterArena {
public:
    RegisterArena() = default;
    ~RegisterArena();
    RegisterArena(const RegisterArena&) = delete;
    RegisterArena& operator=(const RegisterArena&) = delete;

    // Room for at least `words` 64-bit words (their values unspecified); pointers from an earlier
    // call are invalid once it grows. Throws std::bad_alloc when the host has no memory left.
    uint64_t* reserve(size_t words);
    size_t capacity_words() const { return m_bytes / sizeof(uint64_t); }

    // The host zeroes each page at its first touch, a 2 MiB huge page taking about 0.2 ms; SMs
    // that first touch the same huge page wait for one another. So the part of a grown arena
    // that a launch asks for is touched before the SMs run, piece by piece (a huge page each),
    // on every host thread at once: pieces(words) of them cover the first `words` words.
    static size_t pieces(size_t words) { return (words * sizeof(uint64_t) + kHugePage - 1) / kHugePage; }
    void touch(size_t piece);

    static constexpr size_t kSmallPage = 4096;   // the host's page (the least it maps)
    // What each SM's share is rounded up to, so that SMs on different host threads never write
    // the same host page (or cache line).
    static constexpr size_t kShareAlign = kSmallPage / sizeof(uint64_t);
    static size_t share_words(size_t words) { return (words + kShareAlign - 1) / kShareAlign * kShareAlign; }

    // ASan builds keep a poisoned row after each warp's rows, so that a row past a kernel's last
    // is still caught, as it was with a heap vector per warp. hide() poisons `words` words at `at`
    // and expose() makes them usable again; elsewhere both do nothing.
#if defined(__SANITIZE_ADDRESS__)
    static constexpr size_t kGuardWords = 32;
    static void hide(uint64_t* at, size_t words) { ASAN_POISON_MEMORY_REGION(at, words * sizeof(uint64_t)); }
    static void expose(uint64_t* at, size_t words) { ASAN_UNPOISON_MEMORY_REGION(at, words * sizeof(uint64_t)); }
#else
    static constexpr size_t kGuardWords = 0;
    static void hide(uint64_t*, size_t) {}
    static void expose(uint64_t*, size_t) {}
#endif

private:
    static constexpr size_t kHugePage = size_t(2) << 20;
    void* m_base = nullptr;
    size_t m_bytes = 0;

    void release();
};

} // namespace gpusim
