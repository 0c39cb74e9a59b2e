// Shared-memory warp accesses for the bank rules' testbenches: the four generations' bank
// geometries, and constrained-random warps that reach every rule (strides, broadcasts, bytes and
// wide words, partial masks, dense conflicts in a small window).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "smem/shared_memory.h"

namespace gpusim::test {

struct SmemGeneration {
    std::string name;
    SharedMemoryConfig cfg;
};

// Tesla (cc 1.x): 16 banks, half-warps, one broadcast word per pass, wide accesses split; Fermi:
// 32 banks of 4 bytes; Kepler: 32 banks of 8 bytes (the bank rules of docs/config.md).
inline SharedMemoryConfig tesla_smem() {
    SharedMemoryConfig c;
    c.banks = 16;
    c.max_group_threads = 16;
    c.single_broadcast = true;
    c.split_wide = true;
    return c;
}
inline SharedMemoryConfig fermi_smem() { return SharedMemoryConfig{}; }
inline SharedMemoryConfig kepler_smem() {
    SharedMemoryConfig c;
    c.bank_width_bytes = 8;
    return c;
}
inline std::vector<SmemGeneration> smem_generations() {
    return {{"tesla", tesla_smem()}, {"fermi", fermi_smem()}, {"kepler", kepler_smem()}};
}
// The generations, and the other combinations the RTL arbiter's inputs allow (cc 1.x's rules
// come with 4-byte banks only), so that no input is tested in one setting alone.
inline std::vector<SmemGeneration> smem_geometries() {
    std::vector<SmemGeneration> g = smem_generations();
    SharedMemoryConfig c = fermi_smem();
    c.banks = 16;
    g.push_back({"banks16_full_warp", c});
    c = kepler_smem();
    c.max_group_threads = 16;
    g.push_back({"banks32_8byte_half_warp", c});
    c.banks = 16;
    g.push_back({"banks16_8byte_half_warp", c});
    c = tesla_smem();
    c.split_wide = false;
    g.push_back({"broadcast_unsplit", c});
    c = fermi_smem();
    c.split_wide = true;
    g.push_back({"split_full_warp", c});
    return g;
}

struct SmemAccess {
    std::array<uint64_t, 32> addr{};
    uint32_t mask = 0;
    uint32_t width = 4;   // bytes per lane: 1, 2, 4, 8 or 16
};

// Aligned addresses inside a 48 KiB shared window.
class SmemTraffic {
public:
    explicit SmemTraffic(uint64_t seed) : m_rng(seed) {}

    SmemAccess next() {
        SmemAccess a;
        static constexpr uint32_t kWidths[] = {1, 2, 4, 4, 4, 8, 8, 16};
        a.width = kWidths[pick(8)];
        a.mask = random_mask();
        const uint64_t window = 48 * 1024 / a.width;   // in elements
        const uint64_t base = pick(uint32_t(window / 2));
        switch (pick(6)) {
        case 0: {   // a stride, in elements, often a power of two or one off it
            static constexpr uint32_t kStrides[] = {0, 1, 2, 3, 4, 5, 8, 15, 16, 17, 31, 32, 33, 64};
            const uint64_t stride = kStrides[pick(14)];
            for (int l = 0; l < 32; ++l) a.addr[l] = ((base + l * stride) % window) * a.width;
            break;
        }
        case 1:     // dense: a small window, so lanes collide and broadcast
            for (auto& x : a.addr) x = (base + pick(64)) % window * a.width;
            break;
        case 2: {   // a few distinct addresses, shared by many lanes
            uint64_t few[4];
            for (auto& f : few) f = pick(uint32_t(window));
            for (auto& x : a.addr) x = few[pick(4)] * a.width;
            break;
        }
        case 3: {   // a permutation of consecutive elements
            for (int l = 0; l < 32; ++l) a.addr[l] = (base + l) % window * a.width;
            std::shuffle(a.addr.begin(), a.addr.end(), m_rng);
            break;
        }
        default:    // anywhere in the window
            for (auto& x : a.addr) x = pick(uint32_t(window)) * a.width;
            break;
        }
        return a;
    }

private:
    std::mt19937_64 m_rng;

    uint32_t pick(uint32_t n) { return uint32_t(m_rng() % n); }
    uint32_t random_mask() {
        switch (pick(8)) {
        case 0: return uint32_t(m_rng());
        case 1: return 0x0000FFFFu << (16 * pick(2));
        case 2: return 1u << pick(32);
        case 3: return pick(64) == 0 ? 0u : uint32_t(m_rng()) & uint32_t(m_rng());
        default: return ~0u;
        }
    }
};

} // namespace gpusim::test
