// Turns parsed PTX kernels into executable KernelImages: operands resolved to register rows,
// immediates and symbol addresses, every instruction bound to its execution function, and every
// branch given its reconvergence point. Anything the model cannot execute is rejected here.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "ptx/ast.h"
#include "isa/isa.h"
#include "loader/load_hoisting.h"

namespace gpusim::loader {

// Device addresses of the module's variables (.global/.const), indexed like Module::globals;
// entries for .shared variables are unused.
using VariableAddresses = std::vector<uint64_t>;

// How a config wants its kernels laid out (sm.* keys that the loader serves).
struct DecodeOptions {
    bool hoist_loads = false;   // sm.hoist_loads: loads as early as ptxas issues them (load_hoisting.h)
    ScheduleLatencies latencies;   // what that scheduling ranks instructions by
    bool aggregate_atomics = false;   // sm.aggregate_atomics: warp-uniform atomic adds as one lane's (atomic_aggregation.h)
};

// Decodes one entry function. Throws ptx::PtxError naming the first unsupported or malformed
// instruction; when `errors` is given, collects every problem there instead and returns what it can.
std::shared_ptr<KernelImage> decode_kernel(const ptx::Module& mod, const ptx::Function& fn,
                                           const VariableAddresses& addresses,
                                           std::vector<ptx::PtxError>* errors = nullptr, const DecodeOptions& options = {});

// The module index of the definition of function `name` (the declaration with a body, else the
// first declaration); its device address is memory_map::function_address of that index.
uint32_t function_definition(const ptx::Module& mod, const std::string& name);

// Every problem in every entry of the module (empty when the model can run all of it).
std::vector<ptx::PtxError> check_module(const ptx::Module& mod);

} // namespace gpusim::loader
