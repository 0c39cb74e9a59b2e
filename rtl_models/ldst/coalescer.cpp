#include "ldst/coalescer.h"

#include <algorithm>

#include "isa/exec_context.h"
#include <stdexcept>

#include <fmt/format.h>

namespace gpusim {
namespace {

// One transaction per distinct `seg`-aligned segment of the group (`seg` a power of two).
void per_segment(const uint64_t* addr, LaneMask group, uint32_t width, uint32_t seg, std::vector<Transaction>& out) {
    const size_t start = out.size();
    const uint64_t align = ~(uint64_t(seg) - 1);
    for_lanes(group, [&](int l) {
        for (uint64_t a = addr[l] & align; a < addr[l] + width; a += seg) {
            // Neighbouring lanes mostly share a segment: the newest transaction is checked first.
            if (out.size() > start && out.back().address == a) continue;
            bool seen = false;
            for (size_t k = start; k < out.size(); ++k) seen |= out[k].address == a;
            if (!seen) out.push_back({a, seg});
        }
    });
}

// cc 1.2/1.3: shrink each 128- or 64-byte segment to the half (and quarter) that holds every access.
void shrink(const uint64_t* addr, LaneMask group, uint32_t width, Transaction& t) {
    uint64_t lo = UINT64_MAX, hi = 0;
    for_lanes(group, [&](int l) {
        if (addr[l] + width <= t.address || addr[l] >= t.address + t.bytes) return;
        lo = std::min(lo, addr[l]);
        hi = std::max(hi, addr[l] + width);
    });
    while (t.bytes > 32) {
        uint32_t half = t.bytes / 2;
        if (hi <= t.address + half) { t.bytes = half; continue; }
        if (lo >= t.address + half) { t.address += half; t.bytes = half; continue; }
        break;
    }
}

// cc 1.0/1.1: the k-th thread of the half-warp must access the k-th word of one aligned segment.
bool strictly_coalesced(const uint64_t* addr, LaneMask group, uint32_t first, uint32_t width) {
    if (width != 4 && width != 8 && width != 16) return false;
    uint64_t span = uint64_t(width) * 16;
    int lead = __builtin_ctz(group);
    uint64_t base = addr[lead] - uint64_t(uint32_t(lead) - first) * width;
    if (base % span) return false;
    bool ok = true;
    for_lanes(group, [&](int l) { ok &= addr[l] == base + uint64_t(uint32_t(l) - first) * width; });
    return ok;
}

} // namespace

CoalescingRule coalescing_rule(const std::string& name) {
    if (name == "cc10") return CoalescingRule::Cc10;
    if (name == "cc12") return CoalescingRule::Cc12;
    if (name == "cc20") return CoalescingRule::Cc20;
    if (name == "cc35") return CoalescingRule::Cc35;
    if (name == "cc90") return CoalescingRule::Cc90;
    throw std::runtime_error(fmt::format("unknown coalescing rule '{}' (expected cc10, cc12, cc20, cc35 or cc90)", name));
}

uint32_t lines_touched(const std::vector<Transaction>& txns, uint32_t line) {
    uint64_t seen[kWarpSize * 4];   // a warp's 16-byte accesses across line boundaries touch at most 2 lines a lane
    uint32_t n = 0;
    for (const Transaction& t : txns) {
        const uint64_t l = t.address / line;
        bool known = false;
        for (uint32_t k = n; k-- > 0 && !known;) known = seen[k] == l;
        if (!known && n < sizeof seen / sizeof seen[0]) seen[n++] = l;
    }
    return n;
}

uint32_t coalesce(CoalescingRule rule, const uint64_t* addr, LaneMask mask, uint32_t width, bool cached,
              std::vector<Transaction>& out) {
    uint32_t group = 32;
    if (rule == CoalescingRule::Cc10 || rule == CoalescingRule::Cc12) group = 16;
    if (rule == CoalescingRule::Cc20) group = width >= 16 ? 8 : width == 8 ? 16 : 32;
    uint32_t groups = 0;
    for (uint32_t first = 0; first < 32; first += group) {
        LaneMask g = mask & lane_group(first, group);
        if (!g) continue;
        ++groups;
        switch (rule) {
        case CoalescingRule::Cc10:
            if (strictly_coalesced(addr, g, first, width)) {
                per_segment(addr, g, width, width == 4 ? 64 : 128, out);
            } else {
                for_lanes(g, [&](int l) { out.push_back({addr[l] / 32 * 32, 32}); });
            }
            break;
        case CoalescingRule::Cc12: {
            size_t start = out.size();
            per_segment(addr, g, width, width == 1 ? 32 : width == 2 ? 64 : 128, out);
            for (size_t k = start; k < out.size(); ++k) shrink(addr, g, width, out[k]);
            break;
        }
        case CoalescingRule::Cc20: per_segment(addr, g, width, cached ? 128 : 32, out); break;
        case CoalescingRule::Cc35:
        case CoalescingRule::Cc90: per_segment(addr, g, width, 32, out); break;
        }
    }
    return groups;
}

} // namespace gpusim
