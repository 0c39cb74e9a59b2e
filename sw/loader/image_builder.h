// What the decoding of one kernel image shares between its functions: the image being built, the
// immediate pool, special-register rows, constant predicates and the static shared-memory layout.
// linker.cpp decides which functions an image holds; decoder.cpp decodes each into it.
#pragma once

#include <map>
#include <memory>
#include <vector>

#include "loader/cfg.h"
#include "loader/loader.h"

namespace gpusim::loader {

// v rounded up to a multiple of a (a = 0: v).
inline uint64_t align_up(uint64_t v, uint64_t a) { return a ? (v + a - 1) / a * a : v; }

struct ImageBuilder {
    ImageBuilder(const ptx::Module& m, const VariableAddresses& a, std::vector<ptx::PtxError>* e)
        : mod(m), addr(a), errors(e), img(std::make_shared<KernelImage>()) {}

    const ptx::Module& mod;
    const VariableAddresses& addr;
    std::vector<ptx::PtxError>* errors;      // collect problems here instead of throwing, when set
    std::shared_ptr<KernelImage> img;
    std::vector<uint32_t> linked;            // module function indices; [0] is the kernel
    uint32_t next_row = 0;
    std::map<int, uint64_t> shared_offset;   // module .shared variable -> offset
    std::map<std::pair<uint32_t, int>, uint64_t> fn_shared_offset;  // (module function, variable) -> offset
    uint32_t kernel_words = 0, function_words = 0;  // 32-bit registers: the kernel's, the largest function's
    std::vector<uint8_t> row_words;          // each register row's width in 32-bit words
    std::vector<Flow> kernel_flow;           // the kernel body's control flow, instruction by instruction

    Row pool_row(uint64_t value, int width_class = 0);
    Row special_row(SpecialReg sr);
    int constant_pred(bool value);

private:
    std::map<std::pair<uint64_t, int>, Row> m_pool_index;
    int m_true_pred = -1, m_false_pred = -1;
};

// Decodes function `linked[index]` of the image and appends its code: registers, frame layout,
// instructions with branch targets and reconvergence points, and its call sites.
void decode_function(ImageBuilder& b, uint32_t index);

} // namespace gpusim::loader
