// The PTX front end and the loader: parse a module, then link and decode every function of it as
// `gpusim check` does, and every entry again as the runtime loads it (with variable addresses).
#include <stdexcept>

#include "fuzz_common.h"
#include "loader/loader.h"
#include "ptx/parser.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace gpusim;
    try {
        const ptx::Module mod = ptx::parse("fuzz.ptx", fuzz_text(data, size));
        loader::check_module(mod);
        loader::VariableAddresses addresses(mod.globals.size());
        for (size_t k = 0; k < addresses.size(); ++k) addresses[k] = 0x10000000 + 0x1000 * k;
        for (const auto& fn : mod.functions)
            if (fn.is_entry && fn.has_body) loader::decode_kernel(mod, fn, addresses);
    } catch (const ptx::PtxError&) {
    }
    return 0;
}
