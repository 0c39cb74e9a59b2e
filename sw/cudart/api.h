// Shared by the API sources: the export macro and the guard that turns the model's exceptions
// into CUDA error codes with CUDA's last-error and sticky-error semantics.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <optional>

#include "cudart/context.h"
#include "ptx/diagnostics.h"

// Every entry point the library exports; CMake also reads these to know which of CUDA 13's
// functions are implemented (the others become cudaErrorNotSupported stubs).
#define CUDART_API extern "C" __attribute__((visibility("default")))

namespace gpusim::cudart {

inline cudaError_t fail(Context& c, Error code, const char* what, bool sticky) {
    static const bool verbose = std::getenv("GPUSIM_VERBOSE") != nullptr;
    // Kernel faults, a model that cannot start (a bad GPUSIM_CONFIG) and a program whose kernels
    // cannot be loaded (PTX the model rejects) are always explained.
    const bool always = code == Error::InitializationError || code == Error::InvalidPtx || code == Error::InvalidKernelImage ||
                        code == Error::NoKernelImageForDevice;
    if (sticky || verbose || always) std::fprintf(stderr, "gpusim: %s\n", what);
    Context::last_error() = cudaError_t(code);
    if (sticky) c.sticky = cudaError_t(code);
    return cudaError_t(code);
}

// CUDA forbids API calls inside a host function (a stream callback): they return
// cudaErrorNotPermitted, explained once.
cudaError_t not_permitted_in_host_function();

// Runs one API call's body under the library's lock. A sticky error from an earlier kernel is
// returned instead. `api` is the calling entry point (the span's name on a timeline).
template <class F>
cudaError_t guard(F&& body, const char* api = __builtin_FUNCTION()) {
    if (HostThread::inside()) return not_permitted_in_host_function();
    Context& c = Context::get();
    std::lock_guard<std::recursive_mutex> lock(c.lock());
    c.touch();
    if (c.sticky) return Context::last_error() = c.sticky;
    try {
        std::optional<Runtime::HostSpan> span;
        if (c.started()) {
            while (*api == '_') ++api;   // __cudaLaunchKernel, the <<<>>> stub's entry, shows as cudaLaunchKernel
            span.emplace(c.rt(), api);
            c.rt().service_managed();
        }
        body(c);
        return 0;
    } catch (const RuntimeError& e) {
        return fail(c, e.code(), e.what(), e.sticky());
    } catch (const ptx::PtxError& e) {
        return fail(c, Error::InvalidPtx, e.what(), false);
    } catch (const std::exception& e) {
        return fail(c, Error::Unknown, e.what(), false);
    }
}

inline void require(bool ok, const char* what, Error code = Error::InvalidValue) {
    if (!ok) throw RuntimeError(what, code);
}

// A kernel's arguments from the array of pointers a launch passes, one per parameter.
std::vector<KernelArg> kernel_arguments(const KernelInfo& k, void** args);

} // namespace gpusim::cudart
