// Registration of the program's fatbinaries, kernels and variables (the calls nvcc generates),
// and kernel launches: <<<>>>, cudaLaunchKernel, and the legacy configure/setup/launch path.
#include <cstring>

#include <fmt/format.h>

#include "cudart/api.h"

using namespace gpusim;
using namespace gpusim::cudart;

namespace {
Dim3 dim(dim3 d) { return Dim3{d.x, d.y, d.z}; }

// The kernel's arguments from the array of pointers the stub passes, one per parameter.
std::vector<KernelArg> arguments(const KernelInfo& k, void** args) {
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

cudaError_t launch(const void* func, dim3 grid, dim3 block, void** args, size_t shared, cudaStream_t s) {
    return guard([&](Context& c) {
        const KernelInfo& k = c.kernel(func);
        c.rt().launch_async(k, dim(grid), dim(block), uint32_t(shared), arguments(k, args), c.stream(s));
    });
}
} // namespace

CUDART_API void** __cudaRegisterFatBinary(void* wrapper) { return Context::get().register_fatbin(wrapper); }

CUDART_API void __cudaRegisterFatBinaryEnd(void**) {}

CUDART_API void __cudaUnregisterFatBinary(void**) {}

CUDART_API char __cudaInitModule(void**) { return 1; }

CUDART_API void __cudaRegisterFunction(void** module, const char* host_fun, char*, const char* device_name, int, void*,
                                       void*, void*, void*, int*) {
    Context::get().register_function(module, host_fun, device_name);
}

CUDART_API void __cudaRegisterVar(void** module, char* host_var, char*, const char* device_name, int, size_t, int, int) {
    Context::get().register_var(module, host_var, device_name);
}

CUDART_API unsigned __cudaPushCallConfiguration(dim3 grid, dim3 block, size_t shared, cudaStream_t stream) {
    Context::get().configs.push_back({grid, block, shared, stream});
    return 0;
}

CUDART_API cudaError_t __cudaPopCallConfiguration(dim3* grid, dim3* block, size_t* shared, void* stream) {
    Context& c = Context::get();
    if (c.configs.empty()) return c.last_error = cudaError_t(Error::MissingConfiguration);
    const CallConfig cc = c.configs.back();
    c.configs.pop_back();
    *grid = cc.grid;
    *block = cc.block;
    *shared = cc.shared;
    *static_cast<cudaStream_t*>(stream) = cc.stream;
    return 0;
}

// The kernel handle is the host stub's address, which is what the program registered.
CUDART_API cudaError_t __cudaGetKernel(cudaKernel_t* kernel, const void* func) {
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

// The legacy path (CUDA before 10): configure, set up each argument at its offset, launch.
CUDART_API cudaError_t cudaConfigureCall(dim3 grid, dim3 block, size_t shared, cudaStream_t s) {
    Context& c = Context::get();
    c.configs.push_back({grid, block, shared, s});
    c.legacy_args.clear();
    c.legacy_offsets.clear();
    return 0;
}

CUDART_API cudaError_t cudaSetupArgument(const void* arg, size_t size, size_t offset) {
    return guard([&](Context& c) {
        require(arg, "cudaSetupArgument: null argument");
        KernelArg a;
        a.bytes.assign(static_cast<const uint8_t*>(arg), static_cast<const uint8_t*>(arg) + size);
        a.type = fmt::format("{} bytes at offset {}", size, offset);
        c.legacy_args.push_back(std::move(a));
        c.legacy_offsets.push_back(offset);
    });
}

CUDART_API cudaError_t cudaLaunch(const void* func) {
    return guard([&](Context& c) {
        require(!c.configs.empty(), "cudaLaunch without cudaConfigureCall", Error::MissingConfiguration);
        const CallConfig cc = c.configs.back();
        c.configs.pop_back();
        const KernelInfo& k = c.kernel(func);
        const KernelImage& img = *k.image;
        std::vector<KernelArg> args = std::move(c.legacy_args);
        require(args.size() == img.param_offsets.size(),
                fmt::format("cudaLaunch: kernel '{}' takes {} arguments, {} were set up", k.name, img.param_offsets.size(),
                            args.size()).c_str());
        for (size_t i = 0; i < args.size(); ++i)
            require(c.legacy_offsets[i] == img.param_offsets[i],
                    fmt::format("cudaLaunch: argument {} of '{}' set up at offset {}, the kernel has it at {}", i, k.name,
                                c.legacy_offsets[i], img.param_offsets[i]).c_str());
        c.legacy_offsets.clear();
        c.rt().launch_async(k, dim(cc.grid), dim(cc.block), uint32_t(cc.shared), args, c.stream(cc.stream));
    });
}

// libsystemc's main() calls sc_main; a program using this library has its own main, so this is
// never called, but the dynamic linker must find it.
extern "C" __attribute__((visibility("default"))) int sc_main(int, char**) {
    std::fprintf(stderr, "gpusim: sc_main called in libcudart\n");
    return 1;
}
