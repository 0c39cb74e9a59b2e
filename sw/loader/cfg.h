// Control-flow graph of a kernel body and the immediate post-dominator of every branch, which is
// where the SIMT stack reconverges the threads that the branch split.
#pragma once

#include <cstdint>
#include <vector>

namespace gpusim::loader {

// What an instruction does to control flow.
struct Flow {
    enum class Kind : uint8_t { Next, Branch, Multi, Exit } kind = Kind::Next;
    bool conditional = false;   // guarded: may also fall through
    uint32_t target = 0;        // Branch target instruction
    std::vector<uint32_t> targets;  // Multi (brx.idx): every target instruction
};

struct BasicBlock {
    uint32_t first = 0;         // first instruction
    uint32_t last = 0;          // last instruction (inclusive)
    std::vector<uint32_t> succs;    // block indices; kExitBlock for the virtual exit
};

class ControlFlowGraph {
public:
    static constexpr uint32_t kExitBlock = UINT32_MAX;

    explicit ControlFlowGraph(const std::vector<Flow>& flow);

    const std::vector<BasicBlock>& blocks() const { return m_blocks; }
    uint32_t block_of(uint32_t inst) const { return m_block_of[inst]; }

    // Immediate post-dominator block of `block`, or kExitBlock when only the exit post-dominates it
    // (or it cannot reach the exit at all).
    uint32_t ipdom(uint32_t block) const { return m_ipdom[block]; }

    // Reconvergence instruction for the branch ending `block`; `exit_pc` when it is the exit.
    uint32_t reconvergence_pc(uint32_t block, uint32_t exit_pc) const;

private:
    std::vector<BasicBlock> m_blocks;
    std::vector<uint32_t> m_block_of;
    std::vector<uint32_t> m_ipdom;

    void build_blocks(const std::vector<Flow>& flow);
    void compute_post_dominators();
};

} // namespace gpusim::loader
