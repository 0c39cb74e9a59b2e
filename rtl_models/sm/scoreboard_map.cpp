#include "sm/scoreboard_map.h"

#include "sm/call_ops.h"

namespace gpusim {

void ScoreboardMap::build(const KernelImage& kernel, bool drain_stores) {
    m_kernel = &kernel;
    m_preds = kernel.num_regs;
    m_memory = kernel.num_regs + kernel.num_preds;
    m_first.clear();
    m_entries.clear();
    m_all_rows.clear();
    const ExecFn call = call_fn(), ret = ret_fn(), sys = syscall_fn(), exit = exit_fn();
    // The kernel's own body comes first; its functions follow (where a `ret` returns, not exits).
    const size_t body_end = kernel.functions.size() > 1 ? kernel.functions[1].entry_pc : kernel.code.size();
    auto add_row = [&](Row r) {
        if (r >= 0) m_entries.push_back(row(r));
    };
    for (const Inst& in : kernel.code) {
        m_first.push_back(uint32_t(m_entries.size()));
        for (Row r : {in.d, in.a, in.b, in.c, in.vec[0], in.vec[1], in.vec[2], in.vec[3]}) add_row(r);
        for (int16_t p : {in.guard, in.pd, in.pa, in.pb, in.pc})
            if (p >= 0) m_entries.push_back(pred(p));
        const bool exits = in.fn == exit || (in.fn == ret && size_t(&in - kernel.code.data()) < body_end);
        if (in.op_class == OpClass::Fence || (drain_stores && exits)) m_entries.push_back(m_memory);
        // Texture and surface instructions read more rows than Inst names: all their coordinates,
        // the sampler, and a store's values.
        if (in.space == MemSpace::Texture) {
            const TexOperands& o = kernel.tex_operands.at(in.target);
            for (Row r : o.coord) add_row(r);
            add_row(o.sampler);
            for (Row r : o.value) add_row(r);
        }
        // Matrix instructions read and write register lists (mma: up to 28 rows).
        if (in.dest_flags & kMatrixRows) {
            const MatrixOperands& o = kernel.matrix_operands.at(in.target);
            for (const auto* list : {&o.a, &o.b, &o.c, &o.d})
                for (Row r : *list) add_row(r);
        }
        m_all_rows.push_back(in.op_class == OpClass::Branch && (in.fn == call || in.fn == ret || in.fn == sys));
    }
    m_first.push_back(uint32_t(m_entries.size()));
}

} // namespace gpusim
