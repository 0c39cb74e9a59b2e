#include "loader/load_hoisting.h"

#include <algorithm>
#include <queue>
#include <stdexcept>
#include <string>
#include <utility>

#include "loader/row_reads.h"

namespace gpusim::loader {

namespace {

// A weak load that may move (after the run's earlier stores that may reach its bytes): `ld.` of
// global, shared, local, constant, parameter or generic memory, not strong (.volatile, .relaxed,
// .acquire set kOrderStrong), not ordered with other SMs.
bool movable_load(const KernelImage& img, const Inst& in) {
    if (in.op_class != OpClass::Memory || (in.dest_flags & (kMemStore | kMemAtomic | kOrdered | kMatrixRows))) return false;
    if ((in.aux & kOrderStrong) || img.text[in.text_index].compare(0, 3, "ld.") != 0) return false;
    switch (in.space) {
    case MemSpace::Global:
    case MemSpace::Shared:
    case MemSpace::Local:
    case MemSpace::Const:
    case MemSpace::Param:
    case MemSpace::Generic: return true;
    default: return false;
    }
}

// A weak store that may move within the order its space imposes: `st.` of global, shared, local
// or generic memory, not strong (.volatile, .relaxed, .release), not ordered with other SMs.
bool movable_store(const KernelImage& img, const Inst& in) {
    if (in.op_class != OpClass::Memory || !(in.dest_flags & kMemStore) || (in.dest_flags & (kMemAtomic | kOrdered | kMatrixRows)))
        return false;
    if ((in.aux & kOrderStrong) || img.text[in.text_index].compare(0, 3, "st.") != 0) return false;
    switch (in.space) {
    case MemSpace::Global:
    case MemSpace::Shared:
    case MemSpace::Local:
    case MemSpace::Generic: return true;
    default: return false;
    }
}

bool schedulable(const KernelImage& img, const Inst& in) {
    return register_arithmetic(in) || movable_load(img, in) || movable_store(img, in);
}

// Whether two accesses of these spaces may reach the same bytes (a generic address may be any).
bool may_alias(MemSpace a, MemSpace b) { return a == b || a == MemSpace::Generic || b == MemSpace::Generic; }

uint32_t latency_of(const Inst& in, const ScheduleLatencies& lat) {
    if (in.op_class != OpClass::Memory || (in.dest_flags & kMemStore)) return lat.arithmetic;
    switch (in.space) {
    case MemSpace::Shared: return lat.shared;
    case MemSpace::Const:
    case MemSpace::Param: return lat.constant;
    default: return lat.global;
    }
}

// Per key (register row, then predicate): the run's last instruction that wrote it, and those
// that read it since. Kept across runs; a run resets the keys it touched.
struct KeyUses {
    std::vector<int64_t> writer;
    std::vector<std::vector<uint32_t>> readers;
    std::vector<int64_t> touched;
};

// Reorders code[first, end) (schedulable instructions of one basic block) by list scheduling.
void schedule_run(KernelImage& img, std::vector<Flow>& flow, uint32_t first, uint32_t end, const ScheduleLatencies& lat,
                  KeyUses& uses) {
    const uint32_t n = end > first ? end - first : 0;
    if (n < 2) return;
    struct Edge { uint32_t to, latency; };
    std::vector<std::vector<Edge>> succ(n);
    std::vector<uint32_t> waiting(n, 0), latency(n);
    std::vector<int64_t>& writer = uses.writer;
    std::vector<std::vector<uint32_t>>& readers = uses.readers;
    auto edge = [&](uint32_t from, uint32_t to, uint32_t cycles) {
        succ[from].push_back({to, cycles});
        ++waiting[to];
    };
    // Memory order: a store stays after the earlier accesses that may reach its bytes, and a load
    // after the earlier stores that may; loads pass each other.
    std::vector<uint32_t> accesses;
    for (uint32_t j = 0; j < n; ++j) {
        const Inst& in = img.code[first + j];
        latency[j] = latency_of(in, lat);
        if (in.op_class == OpClass::Memory) {
            const bool store = in.dest_flags & kMemStore;
            for (uint32_t i : accesses) {
                const Inst& earlier = img.code[first + i];
                if ((store || (earlier.dest_flags & kMemStore)) && may_alias(earlier.space, in.space)) edge(i, j, 0);
            }
            accesses.push_back(j);
        }
        for_each_key_read(img, in, [&](int64_t k) {
            if (writer[k] >= 0) edge(uint32_t(writer[k]), j, latency[writer[k]]);
            readers[k].push_back(j);
            uses.touched.push_back(k);
        });
        for_each_key_def(img, in, [&](int64_t k) {
            if (writer[k] >= 0 && uint32_t(writer[k]) != j) edge(uint32_t(writer[k]), j, 0);
            for (uint32_t r : readers[k])
                if (r != j) edge(r, j, 0);
            readers[k].clear();
            writer[k] = j;
            uses.touched.push_back(k);
        });
    }
    for (int64_t k : uses.touched) {
        writer[k] = -1;
        readers[k].clear();
    }
    uses.touched.clear();
    // The longest latency path from each instruction to the run's end.
    std::vector<uint64_t> height(n);
    for (uint32_t j = n; j-- > 0;) {
        height[j] = latency[j];
        for (const Edge& e : succ[j]) height[j] = std::max(height[j], e.latency + height[e.to]);
    }
    // Highest first; ties in the PTX's order.
    auto later = [&](uint32_t a, uint32_t b) { return height[a] != height[b] ? height[a] < height[b] : a > b; };
    std::priority_queue<uint32_t, std::vector<uint32_t>, decltype(later)> ready(later);
    for (uint32_t j = 0; j < n; ++j)
        if (!waiting[j]) ready.push(j);
    std::vector<Inst> code;
    std::vector<Flow> flows;
    code.reserve(n);
    flows.reserve(n);
    while (!ready.empty()) {
        const uint32_t j = ready.top();
        ready.pop();
        code.push_back(img.code[first + j]);
        flows.push_back(flow[first + j]);
        for (const Edge& e : succ[j])
            if (--waiting[e.to] == 0) ready.push(e.to);
    }
    if (code.size() != n) throw std::logic_error("load scheduling: a cycle in a basic block's dependences");
    std::copy(code.begin(), code.end(), img.code.begin() + first);
    std::copy(flows.begin(), flows.end(), flow.begin() + first);
}

} // namespace

void hoist_loads(KernelImage& img, std::vector<Flow>& flow, const ScheduleLatencies& lat) {
    if (img.functions.size() != 1 || !img.calls.empty() || flow.size() > img.code.size()) return;
    const ControlFlowGraph cfg(flow);
    KeyUses uses;
    uses.writer.assign(size_t(img.num_regs) + img.num_preds, -1);
    uses.readers.resize(uses.writer.size());
    for (const BasicBlock& b : cfg.blocks()) {
        uint32_t run = b.first;
        for (uint32_t i = b.first; i <= b.last + 1; ++i) {
            if (i <= b.last && schedulable(img, img.code[i])) continue;
            schedule_run(img, flow, run, i, lat, uses);
            run = i + 1;
        }
    }
}

} // namespace gpusim::loader
