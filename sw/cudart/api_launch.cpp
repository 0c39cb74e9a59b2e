// Registration of the program's fatbinaries, kernels and variables (the calls nvcc generates),
// and kernel launches: <<<>>>, cudaLaunchKernel, and the legacy configure/setup/launch path.
#include <cstring>

#include <fmt/format.h>

#include "cudart/api.h"

using namespace gpusim;
using namespace gpusim::cudart;

std::vector<KernelArg> gpusim::cudart::kernel_arguments(const KernelInfo& k, void** args) {
    const KernelImage& img = *k.image;
    std::vector<KernelArg> out(img.param_sizes.size());
    require(out.empty() || args, "kernel launch: null argument array");
    for (size_t i = 0; i < out.size(); ++i) {
        out[i].bytes.resize(img.param_sizes[i]);
        std::memcpy(out[i].bytes.data(), args[i], img.param_sizes[i]);
        out[i].type = k.params[i].type;
    }
    return out;
}

namespace {
Dim3 dim(dim3 d) { return Dim3{d.x, d.y, d.z}; }

// `api` names the entry point that launches (for a timeline), as in every helper that guards.
cudaError_t launch(const void* func, dim3 grid, dim3 block, void** args, size_t shared, cudaStream_t s,
                   bool cooperative = false, const char* api = __builtin_FUNCTION()) {
    return guard([&](Context& c) {
        const KernelInfo& k = c.kernel(func);
        if (GraphNode* n = c.capture_node(s, cudaGraphNodeTypeKernel)) {
            require(!cooperative, "a cooperative launch cannot be captured into a graph", Error::StreamCaptureUnsupported);
            n->set_kernel(c, cudaKernelNodeParams{const_cast<void*>(func), grid, block, unsigned(shared), args, nullptr});
            return;
        }
        c.rt().launch_async(k, dim(grid), dim(block), uint32_t(shared), kernel_arguments(k, args), c.stream(s), cooperative);
    }, api);
}

// cudaLaunchKernelEx's attributes: cooperative launches are modelled; priorities, carveouts and
// memory-sync domains are hints the model has no use for; clusters (compute capability 9.0) must
// be of one block.
cudaError_t launch_ex(const cudaLaunchConfig_t* config, const void* func, void** args, const char* api = __builtin_FUNCTION()) {
    if (!config) return guard([](Context&) { throw RuntimeError("cudaLaunchKernelExC: null configuration"); }, api);
    bool cooperative = false;
    for (unsigned k = 0; k < config->numAttrs; ++k) {
        const cudaLaunchAttribute& a = config->attrs[k];
        if (a.id == cudaLaunchAttributeCooperative) cooperative = a.val.cooperative != 0;
        const bool cluster = a.id == cudaLaunchAttributeClusterDimension || a.id == cudaLaunchAttributePreferredClusterDimension;
        if (cluster && a.val.clusterDim.x * a.val.clusterDim.y * a.val.clusterDim.z > 1)
            return guard([](Context&) {
                throw RuntimeError("cudaLaunchKernelExC: thread-block clusters need compute capability 9.0", Error::NotSupported);
            }, api);
    }
    return launch(func, config->gridDim, config->blockDim, args, config->dynamicSmemBytes, config->stream, cooperative, api);
}
} // namespace

CUDART_API void** __cudaRegisterFatBinary(void* wrapper) { return Context::get().register_fatbin(wrapper); }

CUDART_API void __cudaRegisterFatBinaryEnd(void**) {}

CUDART_API void __cudaUnregisterFatBinary(void**) {}

CUDART_API void __cudaRegisterFunction(void** module, const char* host_fun, char*, const char* device_name, int, void*,
                                       void*, void*, void*, int*) {
    Context::get().register_function(module, host_fun, device_name);
}

CUDART_API void __cudaRegisterVar(void** module, char* host_var, char*, const char* device_name, int, size_t, int, int) {
    Context::get().register_var(module, host_var, device_name);
}

CUDART_API unsigned __cudaPushCallConfiguration(dim3 grid, dim3 block, size_t shared, cudaStream_t stream) {
    Context::configs().push_back({grid, block, shared, stream});
    return 0;
}

CUDART_API cudaError_t __cudaPopCallConfiguration(dim3* grid, dim3* block, size_t* shared, void* stream) {
    std::vector<CallConfig>& configs = Context::configs();
    if (configs.empty()) return Context::last_error() = cudaError_t(Error::MissingConfiguration);
    if (!grid || !block || !shared || !stream) return Context::last_error() = cudaError_t(Error::InvalidValue);
    const CallConfig cc = configs.back();
    configs.pop_back();
    *grid = cc.grid;
    *block = cc.block;
    *shared = cc.shared;
    *static_cast<cudaStream_t*>(stream) = cc.stream;
    return 0;
}

// The kernel handle is the host stub's address, which is what the program registered.
CUDART_API cudaError_t __cudaGetKernel(cudaKernel_t* kernel, const void* func) {
    if (!kernel) return Context::last_error() = cudaError_t(Error::InvalidValue);
    *kernel = reinterpret_cast<cudaKernel_t>(const_cast<void*>(func));
    return 0;
}

CUDART_API cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 grid, dim3 block, void** args, size_t shared,
                                          cudaStream_t s) {
    return launch(kernel, grid, block, args, shared, s);
}

CUDART_API cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 grid, dim3 block, void** args, size_t shared,
                                               cudaStream_t s) {
    return launch(kernel, grid, block, args, shared, s);
}

CUDART_API cudaError_t cudaLaunchKernel(const void* func, dim3 grid, dim3 block, void** args, size_t shared, cudaStream_t s) {
    return launch(func, grid, block, args, shared, s);
}

CUDART_API cudaError_t cudaLaunchKernel_ptsz(const void* func, dim3 grid, dim3 block, void** args, size_t shared, cudaStream_t s) {
    return launch(func, grid, block, args, shared, s);
}

CUDART_API cudaError_t cudaLaunchCooperativeKernel(const void* func, dim3 grid, dim3 block, void** args, size_t shared,
                                                   cudaStream_t s) {
    return launch(func, grid, block, args, shared, s, true);
}

CUDART_API cudaError_t cudaLaunchCooperativeKernel_ptsz(const void* func, dim3 grid, dim3 block, void** args, size_t shared,
                                                        cudaStream_t s) {
    return launch(func, grid, block, args, shared, s, true);
}

CUDART_API cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t* config, const void* func, void** args) {
    return launch_ex(config, func, args);
}

CUDART_API cudaError_t cudaLaunchKernelExC_ptsz(const cudaLaunchConfig_t* config, const void* func, void** args) {
    return launch_ex(config, func, args);
}

// The legacy path (CUDA before 10): configure, set up each argument at its offset, launch.
// Not part of CUDA 13's exports; declared in gpusim_legacy.h for programs that still use it.
CUDART_API cudaError_t cudaConfigureCall(dim3 grid, dim3 block, size_t shared, cudaStream_t s) {
    return guard([&](Context& c) { c.rt().configure_call(dim(grid), dim(block), uint32_t(shared), c.stream(s)); });
}

CUDART_API cudaError_t cudaSetupArgument(const void* arg, size_t size, size_t offset) {
    return guard([&](Context& c) {
        require(arg, "cudaSetupArgument: null argument");
        c.rt().setup_argument(arg, size, offset);
    });
}

CUDART_API cudaError_t cudaLaunch(const void* func) {
    return guard([&](Context& c) { c.rt().launch_configured(c.kernel(func)); });
}

// libsystemc's main() calls sc_main; a program using this library has its own main, so this is
// never called, but the dynamic linker must find it.
extern "C" __attribute__((visibility("default"))) int sc_main(int, char**) {
    std::fprintf(stderr, "gpusim: sc_main called in libcudart\n");
    return 1;
}
