#include "check/race_check.h"

#include <fmt/format.h>

#include "check/allocation_map.h"
#include "isa/isa.h"
#include "isa/reports.h"

namespace gpusim {

namespace {
bool writes(RaceCheck::Kind k) { return k == RaceCheck::Kind::Write || k == RaceCheck::Kind::Atomic; }

const char* hazard_name(RaceCheck::Kind earlier, RaceCheck::Kind now) {
    if (!writes(earlier)) return "write-after-read";
    return writes(now) ? "write-after-write" : "read-after-write";
}

const char* kind_name(RaceCheck::Kind k) {
    switch (k) {
    case RaceCheck::Kind::Read:
    case RaceCheck::Kind::StrongRead: return "read";
    case RaceCheck::Kind::Write: return "write";
    case RaceCheck::Kind::Atomic: return "atomic";
    }
    return "?";
}

std::string coords(uint64_t linear, const Dim3& d) {
    return fmt::format("({},{},{})", linear % d.x, (linear / d.x) % d.y, linear / (uint64_t(d.x) * d.y));
}
} // namespace

void RaceCheck::begin_launch(const LaunchInfo& launch) {
    m_launch = launch;
    m_blocks.clear();
    m_fences.clear();
    m_last_page_key = UINT64_MAX;
    m_last_page = nullptr;
    m_global.clear();
    m_shadow_full = false;
}

void RaceCheck::begin_cta(uint32_t sm, uint32_t slot, uint64_t block, uint32_t shared_bytes) {
    BlockState& b = state(sm, slot);
    b.block = block;
    b.epoch = 1;
    b.fences = 0;
    b.shared.assign(shared_bytes, Cell{});
}

void RaceCheck::barrier(uint32_t sm, uint32_t slot) { ++state(sm, slot).epoch; }

void RaceCheck::fence(uint32_t sm, uint32_t slot) { count_fence(state(sm, slot)); }

uint32_t RaceCheck::fences_of(uint64_t block) const {
    auto it = m_fences.find(block);
    return it == m_fences.end() ? 0 : it->second;
}

// Two accesses conflict when one is a plain write, unless both are plain writes and the later one
// left the bytes as the earlier one made them.
bool RaceCheck::conflicts(const Site& earlier, const Site& now) {
    if (earlier.kind == Kind::Write && now.kind == Kind::Write) return !now.unchanged;
    return earlier.kind == Kind::Write || now.kind == Kind::Write;
}

// The instruction's qualifiers make a plain access strong; a release also orders the block's
// earlier accesses before it, as a fence does.
RaceCheck::Site RaceCheck::site_of(uint32_t sm, uint32_t slot, const Access& a) {
    BlockState& b = state(sm, slot);
    const uint8_t order = m_launch.kernel->code[a.pc].aux;
    if (order & kOrderRelease) count_fence(b);
    Kind k = a.kind;
    if (order & kOrderStrong) k = writes(k) ? Kind::Atomic : Kind::StrongRead;
    return Site{b.block, a.thread, a.pc, b.fences, k, a.unchanged};
}

// Keeps the last write, the last read, and a read from another warp (or block) than the last.
void RaceCheck::record(Cell& c, const Site& now, bool same_group) {
    if (writes(now.kind)) {
        c.writer = now;
        return;
    }
    if (c.reader.valid() && !same_group) c.other_reader = c.reader;
    c.reader = now;
}

void RaceCheck::shared_access(uint32_t sm, uint32_t slot, const Access& access, uint64_t addr, uint32_t size) {
    const Site now = site_of(sm, slot, access);
    BlockState& b = state(sm, slot);
    const uint32_t warp = now.thread / kWarpSize;
    bool reported = false;
    for (uint64_t a = addr; a < addr + size && a < b.shared.size(); ++a) {
        Cell& c = b.shared[a];
        if (c.read_epoch != b.epoch) c.reader = c.other_reader = Site{};
        if (c.write_epoch != b.epoch) c.writer = Site{};
        if (!reported) reported = check_shared(c, now, addr, size, b.block);
        const bool same = c.reader.valid() && c.reader.thread / kWarpSize == warp;
        record(c, now, same);
        (writes(now.kind) ? c.write_epoch : c.read_epoch) = b.epoch;
    }
}

bool RaceCheck::check_shared(Cell& c, const Site& now, uint64_t addr, uint32_t size, uint64_t block) {
    const uint32_t warp = now.thread / kWarpSize;
    if (c.writer.valid() && c.writer.thread / kWarpSize != warp && conflicts(c.writer, now)) {
        report(false, c.writer, now, addr, size, block);
        return true;
    }
    if (now.kind != Kind::Write) return false;   // only a plain write races with an earlier read
    for (const Site* r : {&c.reader, &c.other_reader})
        if (r->valid() && r->thread / kWarpSize != warp) {
            report(false, *r, now, addr, size, block);
            return true;
        }
    return false;
}

RaceCheck::Cell* RaceCheck::global_cell(uint64_t addr) {
    const uint64_t mask = (uint64_t(1) << kPageBits) - 1;
    if (addr >> kPageBits == m_last_page_key) return m_last_page + (addr & mask);
    auto it = m_global.find(addr >> kPageBits);
    if (it == m_global.end()) {
        if (m_global.size() >= m_shadow_pages) {
            if (!m_shadow_full)
                reports::post(sc_core::SC_WARNING, reports::kRacecheck,
                              fmt::format("racecheck: the global shadow is full ({} MiB of host memory, sim.racecheck_shadow_mib); "
                                          "global memory first touched from here on is not checked",
                                          (m_shadow_pages * kShadowPageBytes) >> 20));
            m_shadow_full = true;
            return nullptr;
        }
        it = m_global.emplace(addr >> kPageBits, std::make_unique<Cell[]>(size_t(1) << kPageBits)).first;
    }
    m_last_page_key = addr >> kPageBits;
    m_last_page = it->second.get();
    return m_last_page + (addr & mask);
}

void RaceCheck::global_access(uint32_t sm, uint32_t slot, const Access& access, uint64_t addr, uint32_t size) {
    const Site now = site_of(sm, slot, access);
    const uint64_t block = now.block;
    bool reported = false;
    for (uint64_t a = addr; a < addr + size; ++a) {
        Cell* c = global_cell(a);
        if (!c) continue;
        if (!reported) reported = check_global(*c, now, addr, size);
        record(*c, now, c->reader.valid() && c->reader.block == block);
    }
}

// An access by another block is ordered before this one when that block fenced after it.
bool RaceCheck::ordered_global(const Site& earlier) const { return fences_of(earlier.block) > earlier.fences; }

bool RaceCheck::check_global(Cell& c, const Site& now, uint64_t addr, uint32_t size) {
    if (c.writer.valid() && c.writer.block != now.block && conflicts(c.writer, now) && !ordered_global(c.writer)) {
        report(true, c.writer, now, addr, size, now.block);
        return true;
    }
    if (now.kind != Kind::Write) return false;
    for (const Site* r : {&c.reader, &c.other_reader})
        if (r->valid() && r->block != now.block && !ordered_global(*r)) {
            report(true, *r, now, addr, size, now.block);
            return true;
        }
    return false;
}

std::string RaceCheck::site_text(bool global, const Site& s) const {
    const KernelImage& img = *m_launch.kernel;
    const Inst& in = img.code[s.pc];
    const std::string who = global ? fmt::format("block {} thread {}", coords(s.block, m_launch.grid), coords(s.thread, m_launch.block))
                                   : fmt::format("thread {} (warp {})", coords(s.thread, m_launch.block), s.thread / kWarpSize);
    return fmt::format("{:<6} by {}: '{}' at {}:{}", kind_name(s.kind), who, img.text[in.text_index], img.module_file, in.source_line);
}

void RaceCheck::report(bool global, const Site& earlier, const Site& now, uint64_t addr, uint32_t size, uint64_t block) {
    const char* hazard = hazard_name(earlier.kind, now.kind);
    if (!m_seen.insert({m_launch.kernel->name, hazard, earlier.pc, now.pc}).second) return;
    ++m_hazards;
    std::string where;
    if (global) {
        const std::string in = m_allocations ? m_allocations->locate(addr) : "";
        where = fmt::format("global-memory {} hazard in kernel '{}': {} bytes at 0x{:x}{}", hazard, m_launch.kernel->name, size,
                            addr, in.empty() ? "" : " (" + in + ")");
    } else {
        where = fmt::format("shared-memory {} hazard in kernel '{}', block {}: {} bytes at shared address 0x{:x}", hazard,
                            m_launch.kernel->name, coords(block, m_launch.grid), size, addr);
    }
    const std::string text = fmt::format("racecheck: {}\n  {}\n  {}\n  {}", where, site_text(global, earlier), site_text(global, now),
                                         global ? "the blocks do not synchronise: no fence of gpu scope after the first access"
                                                : "no barrier between them");
    reports::post(sc_core::SC_WARNING, reports::kRacecheck, text);
    if (m_reports.size() < kMaxKept) m_reports.push_back(text);
}

} // namespace gpusim
