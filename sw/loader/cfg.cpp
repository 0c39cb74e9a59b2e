#include "loader/cfg.h"

#include <algorithm>

namespace gpusim::loader {

ControlFlowGraph::ControlFlowGraph(const std::vector<Flow>& flow) {
    build_blocks(flow);
    compute_post_dominators();
}

void ControlFlowGraph::build_blocks(const std::vector<Flow>& flow) {
    const uint32_t n = static_cast<uint32_t>(flow.size());
    std::vector<bool> leader(n + 1, false);
    if (n) leader[0] = true;
    for (uint32_t i = 0; i < n; ++i) {
        if (flow[i].kind == Flow::Kind::Next) continue;
        if (flow[i].kind == Flow::Kind::Branch && flow[i].target < n) leader[flow[i].target] = true;
        for (uint32_t t : flow[i].targets)
            if (t < n) leader[t] = true;
        leader[i + 1] = true;
    }
    m_block_of.assign(n, 0);
    for (uint32_t i = 0; i < n; ++i) {
        if (leader[i]) m_blocks.push_back({i, i, {}});
        m_blocks.back().last = i;
        m_block_of[i] = static_cast<uint32_t>(m_blocks.size() - 1);
    }
    for (auto& b : m_blocks) {
        const Flow& f = flow[b.last];
        auto fall = [&]() { b.succs.push_back(b.last + 1 < n ? m_block_of[b.last + 1] : kExitBlock); };
        switch (f.kind) {
        case Flow::Kind::Next: fall(); break;
        case Flow::Kind::Branch:
            b.succs.push_back(f.target < n ? m_block_of[f.target] : kExitBlock);
            if (f.conditional) fall();
            break;
        case Flow::Kind::Multi:
            for (uint32_t t : f.targets) b.succs.push_back(t < n ? m_block_of[t] : kExitBlock);
            if (f.conditional) fall();
            break;
        case Flow::Kind::Exit:
            b.succs.push_back(kExitBlock);
            if (f.conditional) fall();
            break;
        }
        std::sort(b.succs.begin(), b.succs.end());
        b.succs.erase(std::unique(b.succs.begin(), b.succs.end()), b.succs.end());
    }
}

// Cooper, Harvey and Kennedy's iterative dominator algorithm on the reverse graph, rooted at the
// virtual exit (numbered as block `nb`).
void ControlFlowGraph::compute_post_dominators() {
    const uint32_t nb = static_cast<uint32_t>(m_blocks.size());
    const uint32_t exit = nb;
    const uint32_t undef = UINT32_MAX;
    auto node = [&](uint32_t b) { return b == kExitBlock ? exit : b; };

    // Predecessors in the reverse graph are the successors in the forward one.
    std::vector<std::vector<uint32_t>> rev_succ(nb + 1);  // reverse-graph successors: forward preds
    for (uint32_t b = 0; b < nb; ++b)
        for (uint32_t s : m_blocks[b].succs) rev_succ[node(s)].push_back(b);

    // Postorder of the reverse graph from the exit.
    std::vector<uint32_t> order;
    std::vector<uint8_t> state(nb + 1, 0);
    std::vector<std::pair<uint32_t, size_t>> stack{{exit, 0}};
    state[exit] = 1;
    while (!stack.empty()) {
        auto& [v, k] = stack.back();
        if (k < rev_succ[v].size()) {
            uint32_t w = rev_succ[v][k++];
            if (!state[w]) { state[w] = 1; stack.push_back({w, 0}); }
        } else {
            order.push_back(v);
            stack.pop_back();
        }
    }
    std::vector<uint32_t> po_num(nb + 1, undef);
    for (uint32_t i = 0; i < order.size(); ++i) po_num[order[i]] = i;

    std::vector<uint32_t> idom(nb + 1, undef);
    idom[exit] = exit;
    auto intersect = [&](uint32_t a, uint32_t b) {
        while (a != b) {
            while (po_num[a] < po_num[b]) a = idom[a];
            while (po_num[b] < po_num[a]) b = idom[b];
        }
        return a;
    };
    for (bool changed = true; changed;) {
        changed = false;
        for (auto it = order.rbegin(); it != order.rend(); ++it) {
            uint32_t v = *it;
            if (v == exit) continue;
            uint32_t nd = undef;
            for (uint32_t s : m_blocks[v].succs) {  // reverse-graph predecessors
                uint32_t p = node(s);
                if (idom[p] == undef) continue;
                nd = nd == undef ? p : intersect(p, nd);
            }
            if (nd != undef && idom[v] != nd) { idom[v] = nd; changed = true; }
        }
    }
    m_ipdom.assign(nb, kExitBlock);
    for (uint32_t b = 0; b < nb; ++b)
        if (idom[b] != undef && idom[b] != exit) m_ipdom[b] = idom[b];
}

uint32_t ControlFlowGraph::reconvergence_pc(uint32_t block, uint32_t exit_pc) const {
    uint32_t p = m_ipdom[block];
    return p == kExitBlock ? exit_pc : m_blocks[p].first;
}

} // namespace gpusim::loader
