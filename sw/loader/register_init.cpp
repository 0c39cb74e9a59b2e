#include "loader/register_init.h"

#include <algorithm>

#include "loader/row_reads.h"

namespace gpusim::loader {

namespace {

// Rows as a bit set.
class RowSet {
public:
    explicit RowSet(uint32_t rows, bool all = false) : m_words((rows + 63) / 64, all ? ~0ull : 0) {}
    bool has(Row r) const { return (m_words[size_t(r) / 64] >> (r % 64)) & 1; }
    void add(Row r) { m_words[size_t(r) / 64] |= 1ull << (r % 64); }
    void intersect(const RowSet& o) {
        for (size_t k = 0; k < m_words.size(); ++k) m_words[k] &= o.m_words[k];
    }
    bool operator!=(const RowSet& o) const { return m_words != o.m_words; }

private:
    std::vector<uint64_t> m_words;
};

// The rows an instruction writes whole for every thread that executes it. A guarded instruction
// may not execute; a barrier reduction writes when the barrier opens; texture results and
// partial (video) writes are not counted: leaving a row out only clears more.
template <class F>
void for_each_write(const Inst& in, F&& write) {
    if (in.guard >= 0 || in.space == MemSpace::Texture || in.op_class == OpClass::Barrier ||
        in.op_class == OpClass::Video || in.op_class == OpClass::VideoAbsdiff)
        return;
    if (in.d >= 0) write(in.d);
    if (in.dest_flags & kDestVec)
        for (Row r : in.vec)
            if (r >= 0) write(r);
}

} // namespace

void find_rows_to_zero(KernelImage& img, const std::vector<Flow>& flow) {
    img.zero_all_rows = true;
    img.zero_rows.clear();
    if (img.functions.size() != 1 || !img.calls.empty() || flow.size() > img.code.size()) return;
    const ControlFlowGraph cfg(flow);
    const auto& blocks = cfg.blocks();
    const uint32_t rows = img.num_regs;
    std::vector<std::vector<uint32_t>> preds(blocks.size());
    for (uint32_t b = 0; b < blocks.size(); ++b)
        for (uint32_t s : blocks[b].succs)
            if (s != ControlFlowGraph::kExitBlock) preds[s].push_back(b);

    // At the entry only the special rows are written; elsewhere start from "everything" and
    // intersect until nothing changes.
    RowSet entry(rows);
    for (const auto& [sr, row] : img.special_rows) entry.add(row);
    std::vector<RowSet> out(blocks.size(), RowSet(rows, true));
    auto in_of = [&](uint32_t b) {
        RowSet in = blocks[b].first == 0 ? entry : RowSet(rows, true);
        for (uint32_t p : preds[b]) in.intersect(out[p]);
        return in;
    };
    std::vector<Row> cross_lane;
    for (bool changed = true; changed;) {
        changed = false;
        for (uint32_t b = 0; b < blocks.size(); ++b) {
            RowSet cur = in_of(b);
            for (uint32_t i = blocks[b].first; i <= blocks[b].last; ++i) for_each_write(img.code[i], [&](Row r) { cur.add(r); });
            if (cur != out[b]) out[b] = cur, changed = true;
        }
    }
    // A read of a row not written on every path to it needs the row cleared.
    std::vector<bool> zero(rows, false);
    for (uint32_t b = 0; b < blocks.size(); ++b) {
        RowSet cur = in_of(b);
        for (uint32_t i = blocks[b].first; i <= blocks[b].last; ++i) {
            const Inst& in = img.code[i];
            for_each_read(img, in, [&](Row r) { if (!cur.has(r)) zero[size_t(r)] = true; }, cross_lane);
            for_each_write(in, [&](Row r) { cur.add(r); });
        }
    }
    for (Row r : cross_lane) zero[size_t(r)] = true;
    for (uint32_t r = 0; r < rows; ++r)
        if (zero[r]) img.zero_rows.push_back(Row(r));
    img.zero_all_rows = false;
}

} // namespace gpusim::loader
