#include "runtime/texture_spec.h"
#include "runtime/runtime.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include <unistd.h>

#include <fmt/format.h>

#include "gpu/launch_limits.h"
#include "gpu/registers.h"
#include "sm/sm_core.h"
#include "memory/sparse_store.h"
#include "protocol/memory_map.h"
#include "loader/contraction.h"
#include "loader/loader.h"
#include "ptx/parser.h"
#include "runtime/platform.h"

namespace gpusim {

namespace {
constexpr uint64_t kPage = SparseStore::kPageSize;
constexpr uint64_t kGridWorkspaceBytes = 8;   // cooperative_groups' {wsSize, barrier}
constexpr uint64_t kPinnedInHugePages = uint64_t(1) << 20;   // cudaMallocHost from this size up
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

// What the load scheduling of sm.hoist_loads ranks instructions by: the config's latencies, as
// ptxas's machine model knows the chip's (a global load counts as an L1 hit, all it can know).
loader::ScheduleLatencies schedule_latencies(const TimingConfig& t) {
    loader::ScheduleLatencies lat;
    const uint32_t issue = t.ops[int(OpClass::Memory)].latency;
    lat.arithmetic = t.ops[int(OpClass::Fp32)].latency;
    lat.shared = issue + t.smem.latency;
    lat.global = issue + (t.ldst.l1.bytes ? t.ldst.l1.latency : t.ldst.min_request_latency);
    lat.constant = issue + t.ccache.cache.latency;
    return lat;
}

HeapLayout heap_layout(const GpuConfig& cfg) {
    HeapLayout h;
    h.page = kPage;
    h.chunk = cfg.allocation_chunk_bytes;
    h.align = cfg.allocation_align_bytes;
    h.mapped_before = cfg.heap_mapped_before_bytes;
    h.mapped_after = cfg.heap_mapped_after_bytes;
    return h;
}
} // namespace

Runtime::Runtime(const GpuConfig& cfg, const VcdOptions& vcd)
    : m_cfg(cfg), m_heap(memory_map::kHeapBase, heap_layout(cfg)), m_module_next(memory_map::kModuleDataBase),
      m_const_next(memory_map::kConstBase) {
    if (!vcd.path.empty() && !m_cfg.sm.timing.enabled)
        throw RuntimeError(fmt::format("{}: a waveform records the timing model's signals: run in timing mode "
                                       "(--mode timing, GPUSIM_MODE=timing)", vcd.path), Error::InitializationError);
    m_platform = std::make_unique<Platform>("top", m_cfg, vcd);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);  // finish elaboration and initialise every process
    HostPort& cpu = m_platform->cpu;
    if (cpu.read32(reg::kId) != reg::kIdValue) throw RuntimeError("GPU register block did not identify itself", Error::InitializationError);
    m_channels = cpu.read32(reg::kChannels);
    m_submitted.assign(m_channels, 0);
    m_streams[0] = Stream{};
}

Runtime::~Runtime() {
    for (auto& [base, info] : m_pinned) {
        if (!info.owned) continue;
        if (info.bytes >= kPinnedInHugePages) unmap_huge(reinterpret_cast<void*>(base), info.bytes);
        else std::free(reinterpret_cast<void*>(base));
    }
}

double Runtime::now_ns() const { return sc_core::sc_time_stamp().to_seconds() * 1e9; }

nlohmann::json Runtime::unit_stats() const { return m_platform->gpu.report(); }
void Runtime::enable_profiling() { m_platform->gpu.enable_profiling(); }
void Runtime::enable_trace(const std::string& path, uint64_t interval_cycles) { m_platform->gpu.enable_trace(path, interval_cycles); }
void Runtime::finish_trace() { m_platform->gpu.finish_trace(); }
void Runtime::finish_waveform() { m_platform->finish_waveform(); }

void Runtime::enable_progress_if_wanted() {
    const char* want = std::getenv("GPUSIM_PROGRESS");
    const bool on = want ? std::string(want) == "1" : isatty(2) != 0;
    if (on) m_platform->gpu.enable_progress();
}

Runtime::HostSpan::HostSpan(Runtime& rt, std::string name) : m_rt(rt), m_name(std::move(name)) {
    if (m_rt.m_platform->gpu.timeline()) m_start = m_rt.now_ns();
}

Runtime::HostSpan::~HostSpan() {
    if (m_start < 0) return;
    if (TraceRecorder* t = m_rt.m_platform->gpu.timeline()) t->span(TraceRecorder::kHost, 0, m_name, "api", m_start, m_rt.now_ns());
}
const std::vector<KernelProfile>& Runtime::kernel_profiles() const { return m_platform->gpu.kernel_profiles(); }

nlohmann::json Runtime::sampling_report() const { return m_platform->gpu.sampling_report(); }

uint64_t Runtime::race_hazards() const {
    const RaceCheck* r = m_platform->gpu.racecheck();
    return r ? r->hazards() : 0;
}

DevicePtr Runtime::map_region(DevicePtr base, uint64_t bytes) {
    HostPort& cpu = m_platform->cpu;
    cpu.write64(reg::kMapBaseLo, base);
    cpu.write64(reg::kMapSizeLo, bytes);
    cpu.write32(reg::kMapCmd, 1);
    return base;
}

void Runtime::peek(void* dst, DevicePtr src, uint64_t bytes) {
    synchronize();
    m_platform->gpu.dram().store().read(src, static_cast<uint8_t*>(dst), bytes);
}

AllocationMap& Runtime::allocations() { return m_platform->gpu.allocations(); }

void Runtime::name_allocation(DevicePtr p, const std::string& name) { allocations().name(p, name); }

DevicePtr Runtime::malloc(uint64_t bytes, const char* api) {
    if (bytes == 0) bytes = 1;
    const uint64_t used = bytes_allocated();
    if (used + m_heap.reserved(bytes) > m_cfg.memory_bytes)
        throw RuntimeError(fmt::format("out of device memory: {} bytes requested, {} of {} in use", bytes, used, m_cfg.memory_bytes),
                           Error::MemoryAllocation);
    const DeviceHeap::Placement at = m_heap.place(bytes);
    for (const auto& [base, size] : at.unmap) unmap_region(base, size);
    for (const auto& [base, size] : at.map) {
        map_region(base, size);
        if (m_cfg.allocation_chunk_bytes) allocations().add_heap_range(base, size);
    }
    m_allocations[at.addr] = at.reserved;
    allocations().add(at.addr, bytes, at.reserved, origin(api));
    return at.addr;
}

void Runtime::free(DevicePtr p) {
    if (ManagedHeap::Block* b = managed_block(p)) {
        if (b->base != p) throw RuntimeError(fmt::format("free of 0x{:x}, inside managed memory at 0x{:x}", p, b->base), Error::InvalidDevicePointer);
        synchronize();
        m_platform->gpu.dram().unmap(b->base, b->bytes);
        allocations().remove(b->base);
        m_platform->host_memory.remove_window(b->alias);
        m_managed->free(p);
        return;
    }
    if (!m_allocations.count(p))
        throw RuntimeError(fmt::format("free of 0x{:x}, which is not an allocation", p), Error::InvalidDevicePointer);
    synchronize();   // as cudaFree: work still using the memory completes first
    unmap_allocation(p);
}

void Runtime::unmap_region(DevicePtr base, uint64_t bytes) {
    allocations().remove_heap_range(base);
    HostPort& cpu = m_platform->cpu;
    cpu.write64(reg::kMapBaseLo, base);
    cpu.write64(reg::kMapSizeLo, bytes);
    cpu.write32(reg::kMapCmd, 2);
}

void Runtime::unmap_allocation(DevicePtr p) {
    auto it = m_allocations.find(p);
    if (it == m_allocations.end()) return;   // freed already (a device reset)
    for (const auto& [base, size] : m_heap.release(p)) unmap_region(base, size);
    m_allocations.erase(it);
    allocations().remove(p);
}

void Runtime::free_after(DevicePtr p, StreamId s) {
    if (!m_allocations.count(p))
        throw RuntimeError(fmt::format("free of 0x{:x}, which is not an allocation", p), Error::InvalidDevicePointer);
    const Stream& st = stream(s);
    m_pending_frees.push_back({st.channel, st.last, p});
    retire();
}

uint64_t Runtime::allocation_size(DevicePtr p) const {
    auto it = m_allocations.find(p);
    return it == m_allocations.end() ? 0 : it->second;
}

uint64_t Runtime::bytes_allocated() const {
    uint64_t used = 0;
    for (const auto& [b, s] : m_allocations) used += s;
    return used;
}

uint64_t Runtime::heap_size() const { return m_platform->gpu.device_runtime().heap_size(); }
bool Runtime::heap_in_use() const { return m_platform->gpu.device_runtime().heap_in_use(); }
void Runtime::set_heap_size(uint64_t bytes) {
    synchronize();
    m_platform->gpu.device_runtime().set_heap_size(bytes);
}

bool Runtime::is_device(DevicePtr p, uint64_t bytes) const { return m_platform->gpu.dram().is_mapped(p, bytes); }

void Runtime::check_range(DevicePtr p, uint64_t bytes, const char* what) const {
    if (!is_device(p, bytes))
        throw RuntimeError(fmt::format("{}: device range 0x{:x}+{} is not allocated", what, p, bytes), Error::InvalidValue);
}

void* Runtime::malloc_host(uint64_t bytes, uint32_t flags) {
    const uint64_t size = round_up(std::max<uint64_t>(bytes, 1), 4096);
    void* p = nullptr;
    try {
        // Large buffers in huge pages: cheap to touch for the first time (tlm/memory/huge_pages.h).
        p = size >= kPinnedInHugePages ? map_huge(size) : std::aligned_alloc(4096, size);
    } catch (const std::bad_alloc&) {
    }
    if (!p) throw RuntimeError(fmt::format("cannot allocate {} bytes of pinned host memory", bytes), Error::MemoryAllocation);
    m_pinned[reinterpret_cast<uintptr_t>(p)] = Pinned{size, true, flags};
    m_platform->host_memory.add_window(p, size);
    allocations().add(reinterpret_cast<uint64_t>(p), std::max<uint64_t>(bytes, 1), size, origin("cudaHostAlloc"));
    return p;
}

void Runtime::free_host(void* p) {
    auto it = m_pinned.find(reinterpret_cast<uintptr_t>(p));
    if (it == m_pinned.end() || !it->second.owned)
        throw RuntimeError("free of host memory that cudaMallocHost did not allocate", Error::InvalidValue);
    synchronize();
    m_platform->host_memory.remove_window(p);
    allocations().remove(reinterpret_cast<uint64_t>(p));
    if (it->second.bytes >= kPinnedInHugePages) unmap_huge(p, it->second.bytes);
    else std::free(p);
    m_pinned.erase(it);
}

void Runtime::register_host(void* p, uint64_t bytes, uint32_t flags) {
    if (!p || !bytes) throw RuntimeError("host register of an empty range", Error::InvalidValue);
    if (is_pinned(p, 1)) throw RuntimeError("host memory is already registered", Error::HostMemoryAlreadyRegistered);
    m_pinned[reinterpret_cast<uintptr_t>(p)] = Pinned{bytes, false, flags};
    m_platform->host_memory.add_window(p, bytes);
    allocations().add(reinterpret_cast<uint64_t>(p), bytes, bytes, origin("cudaHostRegister"));
}

void Runtime::unregister_host(void* p) {
    auto it = m_pinned.find(reinterpret_cast<uintptr_t>(p));
    if (it == m_pinned.end() || it->second.owned)
        throw RuntimeError("host unregister of memory that was not registered", Error::HostMemoryNotRegistered);
    synchronize();
    m_platform->host_memory.remove_window(p);
    allocations().remove(reinterpret_cast<uint64_t>(p));
    m_pinned.erase(it);
}

bool Runtime::is_pinned(const void* p, uint64_t bytes) const {
    return m_platform->host_memory.contains(reinterpret_cast<uint64_t>(p), bytes);
}

uint32_t Runtime::host_flags(const void* p) const {
    auto it = m_pinned.upper_bound(reinterpret_cast<uintptr_t>(p));
    if (it != m_pinned.begin()) {
        --it;
        if (reinterpret_cast<uintptr_t>(p) < it->first + it->second.bytes) return it->second.flags;
    }
    throw RuntimeError(fmt::format("{} is not page-locked host memory", p), Error::InvalidValue);
}

Runtime::MemoryKind Runtime::memory_kind(const void* p) const {
    const auto a = reinterpret_cast<uint64_t>(p);
    if (m_managed && memory_map::in_managed_window(a) && m_managed->find(a)) return MemoryKind::Managed;
    if (is_device(a, 1)) return MemoryKind::Device;
    return is_pinned(p, 1) ? MemoryKind::Host : MemoryKind::Unregistered;
}

const ModuleHandle& Runtime::load_module(const std::string& path) { return load_parsed(ptx::parse_file(path), path); }

const ModuleHandle& Runtime::load_module_text(const std::string& text, const std::string& name) {
    return load_parsed(ptx::parse(name, text), name);
}

namespace {

// Declarations no GPU of the config could hold are refused at load, as ptxas refuses them, naming
// the declaration and the limit (the sizes a kernel actually uses are checked again at launch).
void check_declared_sizes(const ptx::Module& mod, const std::string& path, const GpuConfig& cfg) {
    auto shared_fits = [&](const ptx::Variable& v) {
        if (v.space == ptx::Space::Shared && v.size_bytes() > cfg.max_shared_per_block)
            throw ptx::PtxError(path, v.loc, fmt::format("shared variable '{}' needs {} bytes; a block has at most {} (chip.max_shared_per_block)",
                                                         v.name, v.size_bytes(), cfg.max_shared_per_block));
    };
    uint64_t constant = 0, global = 0;
    for (const auto& v : mod.globals) {
        shared_fits(v);
        if (v.is_extern) continue;
        if (v.space == ptx::Space::Const && (constant += v.size_bytes()) > cfg.cuda.constant_bytes)
            throw ptx::PtxError(path, v.loc, fmt::format("with '{}' the module's constant variables need {} bytes; constant memory holds {} (cuda.constant_bytes)",
                                                         v.name, constant, cfg.cuda.constant_bytes));
        if (v.space == ptx::Space::Global && (global += v.size_bytes()) > cfg.memory_bytes)
            throw ptx::PtxError(path, v.loc, fmt::format("with '{}' the module's global variables need {} bytes; device memory holds {} (memory.size_bytes)",
                                                         v.name, global, cfg.memory_bytes));
    }
    for (const auto& fn : mod.functions)
        for (const auto& v : fn.vars) shared_fits(v);
}




} // namespace

// __managed__ variables live in managed memory, at one address for the program and the GPU: one
// allocation each, or (memory.managed_variable_slot_bytes) the module's together, each at the
// start of its slot, as the driver packs them.
void Runtime::place_managed(const ptx::Module& mod, const std::string& path, loader::VariableAddresses& addr, ModuleHandle& handle) {
    const uint64_t slot = m_cfg.managed_variable_slot_bytes;
    std::vector<size_t> vars;
    std::vector<uint64_t> offset(mod.globals.size(), 0);
    uint64_t packed = 0;
    for (size_t k = 0; k < mod.globals.size(); ++k) {
        const auto& v = mod.globals[k];
        if (!v.is_managed) continue;
        if (v.is_extern) throw ptx::PtxError(path, v.loc, fmt::format("extern variable '{}' cannot be resolved", v.name));
        const std::string origin = fmt::format("variable '{}' of {}", v.name, path);
        handle.symbols[v.name] = {0, v.size_bytes()};
        if (!slot) {
            addr[k] = malloc_managed(v.size_bytes(), origin);
            m_module_managed.insert(addr[k]);
            handle.symbols[v.name].first = addr[k];
            continue;
        }
        vars.push_back(k);
        offset[k] = round_up(packed, std::max<uint64_t>(v.align, 1));
        packed = round_up(offset[k] + std::max<uint64_t>(v.size_bytes(), 1), slot);
    }
    if (vars.empty()) return;
    const ManagedHeap::Block& b = map_managed(packed);
    m_module_managed.insert(b.base);
    for (size_t n = 0; n < vars.size(); ++n) {
        const auto& v = mod.globals[vars[n]];
        const uint64_t end = n + 1 < vars.size() ? offset[vars[n + 1]] : b.bytes;
        addr[vars[n]] = b.base + offset[vars[n]];
        handle.symbols[v.name].first = addr[vars[n]];
        allocations().add(addr[vars[n]], std::max<uint64_t>(v.size_bytes(), 1), end - offset[vars[n]],
                          fmt::format("variable '{}' of {}", v.name, path));
    }
}

const ModuleHandle& Runtime::load_parsed(ptx::Module mod, const std::string& path) {
    check_declared_sizes(mod, path, m_cfg);
    if (m_cfg.sm.contraction == "ptxas") loader::contract(mod);
    auto handle = std::make_unique<ModuleHandle>();
    handle->path = path;
    loader::VariableAddresses addr(mod.globals.size(), 0);
    // .global variables go to the module-data window, .const ones to the constant window (so
    // isspacep.const can tell them apart); each module's part of a window is one mapped range.
    auto place = [&](ptx::Space space, DevicePtr& next) {
        const DevicePtr start = next;
        for (size_t k = 0; k < mod.globals.size(); ++k) {
            const auto& v = mod.globals[k];
            if (v.space != space || v.is_managed) continue;
            if (v.is_extern) throw ptx::PtxError(path, v.loc, fmt::format("extern variable '{}' cannot be resolved", v.name));
            next = round_up(next, std::max<uint64_t>(v.align, 1));
            addr[k] = next;
            next += std::max<uint64_t>(v.size_bytes(), 1);
            handle->symbols[v.name] = {addr[k], v.size_bytes()};
            allocations().add(addr[k], std::max<uint64_t>(v.size_bytes(), 1), 0, fmt::format("variable '{}' of {}", v.name, path));
        }
        next = round_up(next, kPage);
        if (next > start) map_region(start, next - start);
    };
    place(ptx::Space::Global, m_module_next);
    place(ptx::Space::Const, m_const_next);
    place_managed(mod, path, addr, *handle);
    for (size_t k = 0; k < mod.globals.size(); ++k) {
        const auto& v = mod.globals[k];
        if (v.space == ptx::Space::Shared || v.size_bytes() == 0) continue;
        std::vector<uint8_t> bytes = v.init;
        bytes.resize(v.size_bytes(), 0);
        for (const auto& ai : v.address_inits) {
            uint64_t value = symbol_address(mod, addr, ai, path) + uint64_t(ai.addend);
            std::memcpy(bytes.data() + ai.offset, &value, 8);
        }
        if (!v.opaque_init.empty()) {
            // An initialized .texref/.samplerref starts with a handle to its sampler state.
            const tex::Header h = reference_sampler(v, path);
            const uint64_t at = malloc(sizeof h, "sampler state");
            memcpy_to_device(at, &h, sizeof h);
            std::memcpy(bytes.data(), &at, 8);
        }
        memcpy_to_device(addr[k], bytes.data(), bytes.size());
    }
    for (const auto& fn : mod.functions) {
        if (!fn.is_entry || !fn.has_body) continue;
        KernelInfo k;
        k.name = fn.name;
        loader::DecodeOptions options;
        options.hoist_loads = m_cfg.sm.hoist_loads;
        options.latencies = schedule_latencies(m_cfg.sm.timing);
        options.aggregate_atomics = m_cfg.sm.aggregate_atomics;
        k.image = loader::decode_kernel(mod, fn, addr, nullptr, options);
        k.handle = m_platform->gpu.programs().add(k.image);
        k.params = fn.params;
        handle->kernels[fn.name] = std::move(k);
    }
    m_modules.push_back(std::move(handle));
    return *m_modules.back();
}

// The checks the GPU would make, made here so the launch call itself reports them (as CUDA does;
// CUDA 13 reports a bad grid, block or shared memory size as cudaErrorInvalidValue, measured on
// an H200 by regress/cuda/errors.cu).
void Runtime::check_launch(const KernelInfo& kernel, Dim3 grid, Dim3 block, uint32_t dynamic_shared,
                           const std::vector<KernelArg>& args) const {
    const KernelImage& img = *kernel.image;
    if (args.size() != img.param_offsets.size())
        throw RuntimeError(fmt::format("kernel '{}' takes {} arguments, {} given", kernel.name, img.param_offsets.size(), args.size()));
    for (size_t k = 0; k < args.size(); ++k)
        if (args[k].bytes.size() != img.param_sizes[k])
            throw RuntimeError(fmt::format("argument {} of kernel '{}' is {} bytes (.{} {}), but {} bytes were given as {}",
                                           k, kernel.name, img.param_sizes[k], kernel.params[k].type, kernel.params[k].name,
                                           args[k].bytes.size(), args[k].type));
    const LaunchProblem p = check_launch_limits(m_cfg, kernel.image, grid, block, dynamic_shared);
    if (p.kind == LaunchProblem::Kind::Configuration)
        throw RuntimeError(fmt::format("launch of '{}' with grid ({},{},{}) and block ({},{},{}): {}", kernel.name, grid.x,
                                       grid.y, grid.z, block.x, block.y, block.z, p.why), Error::InvalidValue);
    if (p.kind == LaunchProblem::Kind::Resources)
        throw RuntimeError(fmt::format("launch of '{}': {}", kernel.name, p.why), Error::LaunchOutOfResources);
}

uint32_t Runtime::blocks_per_sm(const KernelInfo& kernel, Dim3 block, uint32_t dynamic_shared) const {
    LaunchInfo probe;
    probe.kernel = kernel.image;
    probe.block = block;
    probe.dynamic_shared = dynamic_shared;
    return SmCore::occupancy_limit(m_cfg.sm, probe);
}

uint32_t Runtime::registers_per_thread(const KernelInfo& kernel) const {
    return SmCore::registers_per_thread(m_cfg.sm, *kernel.image);
}

void Runtime::launch_async(const KernelInfo& kernel, Dim3 grid, Dim3 block, uint32_t dynamic_shared,
                           const std::vector<KernelArg>& args, StreamId s, bool cooperative) {
    check_fault();
    check_launch(kernel, grid, block, dynamic_shared, args);
    EnvRegs envreg{};
    if (cooperative) {
        const uint64_t fits = uint64_t(blocks_per_sm(kernel, block, dynamic_shared)) * m_cfg.num_sms;
        if (grid.count() > fits)
            throw RuntimeError(fmt::format("cooperative launch of '{}' with {} blocks: at most {} can be resident at once "
                                           "({} SMs)", kernel.name, grid.count(), fits, m_cfg.num_sms),
                               Error::CooperativeLaunchTooLarge);
        // One workspace serves every cooperative launch (kernels run one at a time); it starts
        // each launch cleared, in stream order.
        if (!m_grid_workspace) m_grid_workspace = malloc(kGridWorkspaceBytes, "grid.sync workspace");
        fill(m_grid_workspace, 0, kGridWorkspaceBytes, s);
        envreg[1] = uint32_t(m_grid_workspace >> 32);
        envreg[2] = uint32_t(m_grid_workspace);
    }
    const KernelImage& img = *kernel.image;
    std::vector<uint8_t> params(round_up(img.param_bytes, 4), 0);
    for (size_t k = 0; k < args.size(); ++k)
        std::memcpy(params.data() + img.param_offsets[k], args[k].bytes.data(), args[k].bytes.size());
    Stream& st = stream(s);
    select(st.channel);
    HostPort& cpu = m_platform->cpu;
    cpu.write32(reg::kKernel, kernel.handle);
    cpu.write32(reg::kGridX, grid.x);
    cpu.write32(reg::kGridY, grid.y);
    cpu.write32(reg::kGridZ, grid.z);
    cpu.write32(reg::kBlockX, block.x);
    cpu.write32(reg::kBlockY, block.y);
    cpu.write32(reg::kBlockZ, block.z);
    cpu.write32(reg::kDynShared, dynamic_shared);
    for (int k = 0; k < kEnvRegs; ++k)
        if (envreg[size_t(k)]) cpu.write32(reg::kEnvRegBase + 4 * uint32_t(k), envreg[size_t(k)]);
    cpu.write32(reg::kParamSize, img.param_bytes);
    for (size_t k = 0; k < params.size(); k += 4) {
        uint32_t w;
        std::memcpy(&w, params.data() + k, 4);
        cpu.write32(reg::kParamData, w);
    }
    cpu.write32(reg::kLaunch, 1);
    submitted(s);
}

LaunchStats Runtime::launch(const KernelInfo& kernel, Dim3 grid, Dim3 block, uint32_t dynamic_shared,
                            const std::vector<KernelArg>& args) {
    synchronize();
    auto t0 = std::chrono::steady_clock::now();
    launch_async(kernel, grid, block, dynamic_shared, args, 0);
    synchronize(0);
    auto t1 = std::chrono::steady_clock::now();
    HostPort& cpu = m_platform->cpu;
    LaunchStats s;
    s.cycles = uint64_t(cpu.read32(reg::kCyclesLo)) | (uint64_t(cpu.read32(reg::kCyclesHi)) << 32);
    s.warp_instructions = uint64_t(cpu.read32(reg::kWarpInstLo)) | (uint64_t(cpu.read32(reg::kWarpInstHi)) << 32);
    s.thread_instructions = uint64_t(cpu.read32(reg::kThreadInstLo)) | (uint64_t(cpu.read32(reg::kThreadInstHi)) << 32);
    for (uint32_t k = 0; k < 8; ++k)
        s.pm_events[k] = uint64_t(cpu.read32(reg::kPmEventBase + 8 * k)) | (uint64_t(cpu.read32(reg::kPmEventBase + 8 * k + 4)) << 32);
    s.host_seconds = std::chrono::duration<double>(t1 - t0).count();
    return s;
}

void Runtime::configure_call(Dim3 grid, Dim3 block, uint32_t dynamic_shared, StreamId s) {
    stream(s);
    m_configured.push_back(Configured{grid, block, dynamic_shared, s, {}, {}});
}

void Runtime::setup_argument(const void* arg, uint64_t size, uint64_t offset) {
    if (m_configured.empty()) throw RuntimeError("setup_argument without configure_call", Error::MissingConfiguration);
    Configured& c = m_configured.back();
    if (c.params.size() < offset + size) {
        c.params.resize(offset + size, 0);
        c.set.resize(offset + size, false);
    }
    std::memcpy(c.params.data() + offset, arg, size);
    std::fill(c.set.begin() + long(offset), c.set.begin() + long(offset + size), true);
}

void Runtime::launch_configured(const KernelInfo& kernel) {
    if (m_configured.empty()) throw RuntimeError("launch without configure_call", Error::MissingConfiguration);
    Configured c = std::move(m_configured.back());
    m_configured.pop_back();
    const KernelImage& img = *kernel.image;
    std::vector<KernelArg> args(img.param_offsets.size());
    for (size_t k = 0; k < args.size(); ++k) {
        const uint64_t at = img.param_offsets[k], n = img.param_sizes[k];
        if (at + n > c.params.size() || !std::all_of(c.set.begin() + long(at), c.set.begin() + long(at + n), [](bool b) { return b; }))
            throw RuntimeError(fmt::format("launch of '{}': argument {} (bytes {}..{}) was not set up", kernel.name, k, at, at + n - 1));
        args[k].bytes.assign(c.params.begin() + long(at), c.params.begin() + long(at + n));
        args[k].type = kernel.params[k].type;
    }
    launch_async(kernel, c.grid, c.block, c.shared, args, c.stream);
}

void Runtime::reset() {
    try {
        synchronize();
    } catch (const RuntimeError&) {
        // the fault being reset away
    }
    m_platform->cpu.write32(reg::kControl, 1);
    while (!m_allocations.empty()) free(m_allocations.begin()->first);
    std::vector<DevicePtr> managed;
    if (m_managed)
        for (auto& [base, b] : m_managed->blocks()) managed.push_back(base);
    for (DevicePtr b : managed)
        if (!m_module_managed.count(b)) free(b);   // __managed__ variables stay with their modules
    for (auto it = m_pinned.begin(); it != m_pinned.end();) {
        m_platform->host_memory.remove_window(reinterpret_cast<void*>(it->first));
        allocations().remove(it->first);
        if (it->second.owned) std::free(reinterpret_cast<void*>(it->first));
        it = m_pinned.erase(it);
    }
    for (auto& [id, ev] : m_events) m_platform->host_memory.remove_window(ev.slot.get());
    m_events.clear();
    m_configured.clear();
    m_pending_frees.clear();
    m_grid_workspace = 0;
    m_streams.clear();
    m_streams[0] = Stream{};
}

} // namespace gpusim
