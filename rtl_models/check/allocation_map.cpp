#include "check/allocation_map.h"

#include <fmt/format.h>

#include "isa/memory_view.h"

namespace gpusim {

namespace {
std::string size_text(uint64_t bytes) {
    constexpr uint64_t kKiB = 1024, kMiB = kKiB * 1024, kGiB = kMiB * 1024;
    if (bytes >= kGiB && bytes % kGiB == 0) return fmt::format("{} GiB", bytes / kGiB);
    if (bytes >= kMiB && bytes % kMiB == 0) return fmt::format("{} MiB", bytes / kMiB);
    if (bytes >= kKiB && bytes % kKiB == 0) return fmt::format("{} KiB", bytes / kKiB);
    return fmt::format("{} byte{}", bytes, bytes == 1 ? "" : "s");
}
} // namespace

void AllocationMap::add(uint64_t base, uint64_t bytes, uint64_t mapped, std::string origin) {
    m_by_base[base] = Allocation{base, bytes, mapped < bytes ? bytes : mapped, std::move(origin), {}};
    m_last = nullptr;
}

void AllocationMap::remove(uint64_t base) {
    m_by_base.erase(base);
    m_last = nullptr;
}

void AllocationMap::name(uint64_t base, const std::string& name) {
    if (auto it = m_by_base.find(base); it != m_by_base.end()) it->second.name = name;
}

const AllocationMap::Allocation* AllocationMap::find(uint64_t base) const {
    auto it = m_by_base.find(base);
    return it == m_by_base.end() ? nullptr : &it->second;
}

const AllocationMap::Allocation* AllocationMap::containing(uint64_t addr) const {
    auto it = m_by_base.upper_bound(addr);
    if (it == m_by_base.begin()) return nullptr;
    --it;
    return addr < it->second.base + it->second.mapped ? &it->second : nullptr;
}

bool AllocationMap::in_heap_range(uint64_t addr) const {
    auto it = m_heap_ranges.upper_bound(addr);
    if (it == m_heap_ranges.begin()) return false;
    --it;
    return addr < it->first + it->second;
}

std::string AllocationMap::describe(const Allocation& a) {
    if (a.name.empty()) return fmt::format("{} ({})", a.origin, size_text(a.bytes));
    return fmt::format("buffer '{}' ({}, {})", a.name, size_text(a.bytes), a.origin);
}

std::string AllocationMap::locate(uint64_t addr) const {
    if (m_by_base.empty()) return "";
    // The allocations on either side of the address; the nearer one names it.
    auto after = m_by_base.upper_bound(addr);
    const Allocation* below = after == m_by_base.begin() ? nullptr : &std::prev(after)->second;
    const Allocation* above = after == m_by_base.end() ? nullptr : &after->second;
    if (below && addr < below->base + below->bytes)
        return fmt::format("at offset {} of {}", addr - below->base, describe(*below));
    const uint64_t past = below ? addr - (below->base + below->bytes) : UINT64_MAX;
    const uint64_t before = above ? above->base - addr : UINT64_MAX;
    if (past <= before) return fmt::format("{} bytes past the end of {}", past, describe(*below));
    return fmt::format("{} bytes before {}", before, describe(*above));
}

void AllocationMap::out_of_bounds(uint64_t addr, uint32_t size, bool write) {
    throw AccessFault{addr, size, write, "outside its allocation, found by memcheck"};
}

} // namespace gpusim
