#include "loader/register_pressure.h"

#include <algorithm>

#include "loader/row_reads.h"

namespace gpusim::loader {

namespace {

// Rows as a bit set, with the sum of their widths kept alongside.
class LiveSet {
public:
    explicit LiveSet(uint32_t rows) : m_words((rows + 63) / 64, 0) {}
    bool has(Row r) const { return (m_words[size_t(r) / 64] >> (r % 64)) & 1; }
    void add(Row r) { m_words[size_t(r) / 64] |= 1ull << (r % 64); }
    void remove(Row r) { m_words[size_t(r) / 64] &= ~(1ull << (r % 64)); }
    bool merge(const LiveSet& o) {   // true when something was added
        bool grew = false;
        for (size_t k = 0; k < m_words.size(); ++k) {
            const uint64_t before = m_words[k];
            m_words[k] |= o.m_words[k];
            grew |= m_words[k] != before;
        }
        return grew;
    }
    template <class F>
    void for_each(F&& f) const {
        for (size_t k = 0; k < m_words.size(); ++k)
            for (uint64_t w = m_words[k]; w; w &= w - 1) f(Row(k * 64 + size_t(__builtin_ctzll(w))));
    }

private:
    std::vector<uint64_t> m_words;
};

bool is_register(Row r, uint32_t rows) { return r >= 0 && uint32_t(r) < rows; }

// A guarded write (for_each_def) may not happen, so it does not end the old value's life; it is
// still counted as occupying its register at the instruction.

} // namespace

uint32_t most_live_words(const KernelImage& img, const std::vector<Flow>& flow, const std::vector<uint8_t>& row_words) {
    if (img.functions.size() != 1 || !img.calls.empty() || flow.size() > img.code.size()) return 0;
    const ControlFlowGraph cfg(flow);
    const auto& blocks = cfg.blocks();
    const uint32_t rows = img.num_regs;
    auto width = [&](Row r) { return size_t(r) < row_words.size() ? uint32_t(row_words[size_t(r)]) : 1u; };
    std::vector<Row> cross_lane;
    // What an instruction reads: its own sources and, for warp instructions, the other lanes'.
    auto uses = [&](const Inst& in, auto&& use) {
        cross_lane.clear();
        for_each_read(img, in, [&](Row r) { if (is_register(r, rows)) use(r); }, cross_lane);
        for (Row r : cross_lane)
            if (is_register(r, rows)) use(r);
    };
    // Backward: live-in of a block from the live-out, instruction by instruction.
    auto transfer = [&](uint32_t b, LiveSet live) {
        for (uint32_t i = blocks[b].last + 1; i-- > blocks[b].first;) {
            const Inst& in = img.code[i];
            if (in.guard < 0) for_each_def(img, in, [&](Row r) { if (is_register(r, rows)) live.remove(r); });
            uses(in, [&](Row r) { live.add(r); });
        }
        return live;
    };
    std::vector<LiveSet> live_in(blocks.size(), LiveSet(rows));
    auto live_out = [&](uint32_t b) {
        LiveSet out(rows);
        for (uint32_t s : blocks[b].succs)
            if (s != ControlFlowGraph::kExitBlock) out.merge(live_in[s]);
        return out;
    };
    for (bool changed = true; changed;) {
        changed = false;
        for (uint32_t b = uint32_t(blocks.size()); b-- > 0;) changed |= live_in[b].merge(transfer(b, live_out(b)));
    }
    // The demand at an instruction: what stays live past it, plus what it writes.
    uint32_t most = 0;
    for (uint32_t b = 0; b < blocks.size(); ++b) {
        LiveSet live = live_out(b);
        for (uint32_t i = blocks[b].last + 1; i-- > blocks[b].first;) {
            const Inst& in = img.code[i];
            LiveSet at = live;
            for_each_def(img, in, [&](Row r) { if (is_register(r, rows)) at.add(r); });
            uint32_t words = 0;
            at.for_each([&](Row r) { words += width(r); });
            most = std::max(most, words);
            if (in.guard < 0) for_each_def(img, in, [&](Row r) { if (is_register(r, rows)) live.remove(r); });
            uses(in, [&](Row r) { live.add(r); });
        }
    }
    return most;
}

} // namespace gpusim::loader
