#include "runtime/runtime.h"

#include <cstring>

#include <fmt/format.h>

#include "../../rtl_models/gpu/registers.h"
#include "../../tlm/memory/sparse_store.h"
#include "../../tlm/memory_map.h"
#include "loader/loader.h"
#include "ptx/parser.h"
#include "runtime/platform.h"

namespace gpusim {

namespace {
constexpr uint64_t kPage = SparseStore::kPageSize;
uint64_t round_up(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }

// The address an initializer names: a module variable of the .global or .const space, or a
// device function (a function pointer table).
uint64_t symbol_address(const ptx::Module& mod, const loader::VariableAddresses& addr, const ptx::Variable::AddressInit& ai,
                        const std::string& path) {
    for (size_t k = 0; k < mod.globals.size(); ++k) {
        const auto& g = mod.globals[k];
        if (g.name != ai.symbol) continue;
        if (g.space == ptx::Space::Shared) break;
        return addr[k];
    }
    if (mod.find_function(ai.symbol)) return memory_map::function_address(loader::function_definition(mod, ai.symbol));
    throw ptx::PtxError(path, ai.loc, fmt::format("initializer names '{}', which is not a .global or .const variable "
                                                  "or a function", ai.symbol));
}
} // namespace

Runtime::Runtime(const GpuConfig& cfg)
    : m_cfg(cfg), m_heap_next(memory_map::kHeapBase), m_module_next(memory_map::kModuleDataBase),
      m_const_next(memory_map::kConstBase) {
    m_platform = std::make_unique<Platform>("top", m_cfg);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);  // finish elaboration and initialise every process
    if (m_platform->cpu.read32(reg::kId) != reg::kIdValue) throw RuntimeError("GPU register block did not identify itself");
}

Runtime::~Runtime() = default;

double Runtime::now_ns() const { return sc_core::sc_time_stamp().to_seconds() * 1e9; }

nlohmann::json Runtime::unit_stats() const { return m_platform->gpu.report(); }

DevicePtr Runtime::map_region(DevicePtr base, uint64_t bytes) {
    HostPort& cpu = m_platform->cpu;
    cpu.write64(reg::kMapBaseLo, base);
    cpu.write64(reg::kMapSizeLo, bytes);
    cpu.write32(reg::kMapCmd, 1);
    return base;
}

DevicePtr Runtime::malloc(uint64_t bytes) {
    if (bytes == 0) bytes = 1;
    uint64_t size = round_up(bytes, kPage);
    uint64_t used = 0;
    for (auto& [b, s] : m_allocations) used += s;
    if (used + size > m_cfg.memory_bytes)
        throw RuntimeError(fmt::format("out of device memory: {} bytes requested, {} of {} in use", bytes, used, m_cfg.memory_bytes));
    DevicePtr p = map_region(m_heap_next, size);
    m_allocations[p] = size;
    m_heap_next += size + kPage;  // a guard page between allocations
    return p;
}

void Runtime::free(DevicePtr p) {
    auto it = m_allocations.find(p);
    if (it == m_allocations.end()) throw RuntimeError(fmt::format("free of 0x{:x}, which is not an allocation", p));
    HostPort& cpu = m_platform->cpu;
    cpu.write64(reg::kMapBaseLo, p);
    cpu.write64(reg::kMapSizeLo, it->second);
    cpu.write32(reg::kMapCmd, 2);
    m_allocations.erase(it);
}

uint64_t Runtime::allocation_size(DevicePtr p) const {
    auto it = m_allocations.find(p);
    return it == m_allocations.end() ? 0 : it->second;
}

void Runtime::check_range(DevicePtr p, uint64_t bytes, const char* what) const {
    if (!m_platform->gpu.dram().is_mapped(p, bytes))
        throw RuntimeError(fmt::format("{}: device range 0x{:x}+{} is not allocated", what, p, bytes));
}

void Runtime::wait_idle() {
    sc_core::sc_start();  // runs until every process waits: copies and launches are complete
    HostPort& cpu = m_platform->cpu;
    cpu.write32(reg::kIrq, cpu.read32(reg::kIrq));
}

void Runtime::run_dma(uint32_t kind, uint64_t src, uint64_t dst, uint64_t bytes, uint8_t fill) {
    if (bytes == 0) return;
    HostPort& cpu = m_platform->cpu;
    cpu.write64(reg::kDmaSrcLo, src);
    cpu.write64(reg::kDmaDstLo, dst);
    cpu.write64(reg::kDmaSizeLo, bytes);
    cpu.write32(reg::kDmaCmd, kind | (uint32_t(fill) << 8));
    wait_idle();
    if (cpu.read32(reg::kStatus) & reg::kStatusDmaFault) {
        cpu.write32(reg::kControl, 1);
        throw RuntimeError("copy engine reported an address error");
    }
}

void Runtime::memcpy_to_device(DevicePtr dst, const void* src, uint64_t bytes) {
    check_range(dst, bytes, "memcpy to device");
    m_platform->host_memory.store().write(kStagingBase, static_cast<const uint8_t*>(src), bytes);
    run_dma(1, kStagingBase, dst, bytes);
}

void Runtime::memcpy_to_host(void* dst, DevicePtr src, uint64_t bytes) {
    check_range(src, bytes, "memcpy to host");
    run_dma(2, src, kStagingBase, bytes);
    m_platform->host_memory.store().read(kStagingBase, static_cast<uint8_t*>(dst), bytes);
}

void Runtime::memcpy_device(DevicePtr dst, DevicePtr src, uint64_t bytes) {
    check_range(src, bytes, "device copy source");
    check_range(dst, bytes, "device copy destination");
    run_dma(3, src, dst, bytes);
}

void Runtime::memset(DevicePtr dst, uint8_t value, uint64_t bytes) {
    check_range(dst, bytes, "memset");
    run_dma(4, 0, dst, bytes, value);
}

const ModuleHandle& Runtime::load_module(const std::string& path) {
    ptx::Module mod = ptx::parse_file(path);
    auto handle = std::make_unique<ModuleHandle>();
    handle->path = path;
    loader::VariableAddresses addr(mod.globals.size(), 0);
    // .global variables go to the module-data window, .const ones to the constant window (so
    // isspacep.const can tell them apart); each module's part of a window is one mapped range.
    auto place = [&](ptx::Space space, DevicePtr& next) {
        const DevicePtr start = next;
        for (size_t k = 0; k < mod.globals.size(); ++k) {
            const auto& v = mod.globals[k];
            if (v.space != space) continue;
            if (v.is_extern) throw ptx::PtxError(path, v.loc, fmt::format("extern variable '{}' cannot be resolved", v.name));
            next = round_up(next, std::max<uint64_t>(v.align, 1));
            addr[k] = next;
            next += std::max<uint64_t>(v.size_bytes(), 1);
            handle->symbols[v.name] = {addr[k], v.size_bytes()};
        }
        next = round_up(next, kPage);
        if (next > start) map_region(start, next - start);
    };
    place(ptx::Space::Global, m_module_next);
    place(ptx::Space::Const, m_const_next);
    for (size_t k = 0; k < mod.globals.size(); ++k) {
        const auto& v = mod.globals[k];
        if (v.space == ptx::Space::Shared || v.size_bytes() == 0) continue;
        std::vector<uint8_t> bytes = v.init;
        bytes.resize(v.size_bytes(), 0);
        for (const auto& ai : v.address_inits) {
            uint64_t value = symbol_address(mod, addr, ai, path) + uint64_t(ai.addend);
            std::memcpy(bytes.data() + ai.offset, &value, 8);
        }
        memcpy_to_device(addr[k], bytes.data(), bytes.size());
    }
    for (const auto& fn : mod.functions) {
        if (!fn.is_entry || !fn.has_body) continue;
        KernelInfo k;
        k.name = fn.name;
        k.image = loader::decode_kernel(mod, fn, addr);
        k.handle = m_platform->gpu.programs().add(k.image);
        k.params = fn.params;
        handle->kernels[fn.name] = std::move(k);
    }
    m_modules.push_back(std::move(handle));
    return *m_modules.back();
}

LaunchStats Runtime::launch(const KernelInfo& kernel, Dim3 grid, Dim3 block, uint32_t dynamic_shared,
                            const std::vector<KernelArg>& args) {
    const KernelImage& img = *kernel.image;
    if (args.size() != img.param_offsets.size())
        throw RuntimeError(fmt::format("kernel '{}' takes {} arguments, {} given", kernel.name, img.param_offsets.size(), args.size()));
    std::vector<uint8_t> params(img.param_bytes, 0);
    for (size_t k = 0; k < args.size(); ++k) {
        if (args[k].bytes.size() != img.param_sizes[k])
            throw RuntimeError(fmt::format("argument {} of kernel '{}' is {} bytes (.{} {}), but {} bytes were given as {}",
                                           k, kernel.name, img.param_sizes[k], kernel.params[k].type, kernel.params[k].name,
                                           args[k].bytes.size(), args[k].type));
        std::memcpy(params.data() + img.param_offsets[k], args[k].bytes.data(), args[k].bytes.size());
    }
    // The parameter block travels to device memory like any other copy.
    DevicePtr pblock = 0;
    if (!params.empty()) {
        pblock = malloc(params.size());
        memcpy_to_device(pblock, params.data(), params.size());
    }
    HostPort& cpu = m_platform->cpu;
    cpu.write32(reg::kKernel, kernel.handle);
    cpu.write32(reg::kGridX, grid.x);
    cpu.write32(reg::kGridY, grid.y);
    cpu.write32(reg::kGridZ, grid.z);
    cpu.write32(reg::kBlockX, block.x);
    cpu.write32(reg::kBlockY, block.y);
    cpu.write32(reg::kBlockZ, block.z);
    cpu.write32(reg::kDynShared, dynamic_shared);
    cpu.write64(reg::kParamLo, pblock);
    cpu.write32(reg::kParamSize, uint32_t(params.size()));
    auto t0 = std::chrono::steady_clock::now();
    cpu.write32(reg::kLaunch, 1);
    wait_idle();
    auto t1 = std::chrono::steady_clock::now();
    if (pblock) free(pblock);
    uint32_t status = cpu.read32(reg::kStatus);
    if (status & (reg::kStatusKernelFault | reg::kStatusLaunchRejected)) {
        std::string msg = m_platform->gpu.front_end().fault_message();
        cpu.write32(reg::kControl, 1);
        throw RuntimeError(msg);
    }
    LaunchStats s;
    s.cycles = uint64_t(cpu.read32(reg::kCyclesLo)) | (uint64_t(cpu.read32(reg::kCyclesHi)) << 32);
    s.warp_instructions = uint64_t(cpu.read32(reg::kWarpInstLo)) | (uint64_t(cpu.read32(reg::kWarpInstHi)) << 32);
    s.thread_instructions = uint64_t(cpu.read32(reg::kThreadInstLo)) | (uint64_t(cpu.read32(reg::kThreadInstHi)) << 32);
    for (uint32_t k = 0; k < 8; ++k)
        s.pm_events[k] = uint64_t(cpu.read32(reg::kPmEventBase + 8 * k)) | (uint64_t(cpu.read32(reg::kPmEventBase + 8 * k + 4)) << 32);
    s.host_seconds = std::chrono::duration<double>(t1 - t0).count();
    return s;
}

} // namespace gpusim
