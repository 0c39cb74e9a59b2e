// The chip's own keys (identification, launch limits, what CUDA reports, device memory, the host
// link, the command processor), and the schema that composes them with every unit's keys in the
// order of the reference (docs/config.md).
#include <algorithm>

#include <fmt/format.h>

#include "config/config_schema.h"
#include "gpu/config_outline.h"
#include "gpu/gpu_config.h"
#include "protocol/memory_request.h"

namespace gpusim {

namespace {

using C = GpuConfig;

void declare_identity_keys(ConfigSection<GpuConfig>& s) {
    s.key("name", &C::name, "name", "Config name; the reference's column for the config is its part after the first `-`, in "
          "capitals (`fermi-gf100`: GF100).").unsourced();
    s.key("description", &C::description, "text", "Free text. Read, not used.").unsourced();
    s.key("chip.compute_capability", &C::compute_capability, "version", "The CUDA compute capability being modelled, as "
          "`cudaGetDeviceProperties` and `cudaDeviceGetAttribute` report it (`GPUSIM_SET=chip.compute_capability=7.5` lets a "
          "program that demands its PTX's capability run; the units stay the config's).");
}

void declare_chip_keys(ConfigSection<GpuConfig>& s) {
    s.key("num_sms", &C::num_sms, "SMs", "Number of `Sm` modules the `Gpu` creates (`sm_0` … `sm_{N-1}`). Also the value of "
          "`%nsmid`.").at_least(1);
    s.key("core_clock_mhz", &C::core_clock_mhz, "MHz", "The SM (shader) clock. It sets the cycle period used for the SM's time, "
          "the quantum and the CYCLES register.").above(0);
    s.key("max_threads_per_block", &C::max_threads_per_block, "threads", "Launch limit on block.x·y·z, checked by the runtime at "
          "the launch call (`cudaErrorInvalidValue`) and again by the compute engine. Must be ≤ `sm.max_threads`.").at_least(1);
    s.key("max_shared_per_block", &C::max_shared_per_block, "bytes", "Launch limit on static + dynamic shared memory per block, "
          "checked like the block size.");
    s.key("max_grid", &C::max_grid, "CTAs [x, y, z]", "Launch limit per grid dimension; `cudaDevAttrMaxGridDim*`.")
        .within(1, 2147483647);
    s.key("max_block", &C::max_block, "threads [x, y, z]", "Launch limit per block dimension; `cudaDevAttrMaxBlockDim*`.")
        .at_least(1);
    s.key("channels", &C::channels, "channels", "Hardware work queues of the command processor; streams map onto channels "
          "1..n−1.").within(1, 1024);
    s.key("stream_priorities", &C::stream_priorities, "levels", "Priority levels of the channels: a ready command of a higher "
          "level starts first. `cudaDeviceGetStreamPriorityRange` reports [0, −(levels − 1)]; 1 means no priorities "
          "(`cudaDevAttrStreamPrioritiesSupported` 0).").within(1, 256);
    s.key("launch_cycles", &C::launch_cycles, "core cycles", "Both modes: a grid's fixed cost, what an empty kernel of one block "
          "takes (the front end reading the launch, the grid's set-up, its completion and memory flush). The model puts it "
          "before the first block, inside the launch's `cycles`. 0: none.");
    s.key("cta_dispatch_cycles", &C::cta_dispatch_cycles, "core cycles per block", "Timing mode: the pace at which the chip's "
          "block distributor hands out a grid's blocks, in their linear order: block i starts no earlier than "
          "i × this after the first. An SM holds a block that has not arrived in its slot; its scheduler's wait counts as "
          "`no_warp`. 0: every block is there as soon as an SM has room.").at_least(0);
    s.key("malloc_heap_bytes", &C::malloc_heap_bytes, "bytes", "Device-side `malloc` heap; `cudaLimitMallocHeapSize`.");
}

void declare_cuda_keys(ConfigSection<CudaFacts>& s) {
    using F = CudaFacts;
    s.key("constant_bytes", &F::constant_bytes, "bytes", "`totalConstMem`.");
    s.key("max_pitch_bytes", &F::max_pitch_bytes, "bytes", "`memPitch`: the largest pitch of a pitched allocation.");
    s.key("texture_alignment", &F::texture_alignment, "bytes", "`textureAlignment`.");
    s.key("texture_pitch_alignment", &F::texture_pitch_alignment, "bytes", "`texturePitchAlignment`.");
    s.key("surface_alignment", &F::surface_alignment, "bytes", "`surfaceAlignment`; 0 without surfaces.");
    s.key("texture_1d", &F::texture_1d, "texels", "`maxTexture1D`; 0 means the generation lacks it (every `cuda.texture_*` "
          "and `cuda.surface_*`).");
    s.key("texture_1d_linear", &F::texture_1d_linear, "texels", "`maxTexture1DLinear`.");
    s.key("texture_1d_layered", &F::texture_1d_layered, "[texels, layers]", "`maxTexture1DLayered`.");
    s.key("texture_1d_mipmapped", &F::texture_1d_mipmapped, "texels", "`maxTexture1DMipmap`.");
    s.key("texture_2d", &F::texture_2d, "[w, h]", "`maxTexture2D`.");
    s.key("texture_2d_linear", &F::texture_2d_linear, "[w, h, pitch bytes]", "`maxTexture2DLinear`.");
    s.key("texture_2d_gather", &F::texture_2d_gather, "[w, h]", "`maxTexture2DGather`.");
    s.key("texture_2d_layered", &F::texture_2d_layered, "[w, h, layers]", "`maxTexture2DLayered`.");
    s.key("texture_2d_mipmapped", &F::texture_2d_mipmapped, "[w, h]", "`maxTexture2DMipmap`.");
    s.key("texture_3d", &F::texture_3d, "[w, h, d]", "`maxTexture3D`.");
    s.key("texture_3d_alt", &F::texture_3d_alt, "[w, h, d]", "`maxTexture3DAlt`.");
    s.key("texture_cubemap", &F::texture_cubemap, "texels", "`maxTextureCubemap`.");
    s.key("texture_cubemap_layered", &F::texture_cubemap_layered, "[texels, layers]", "`maxTextureCubemapLayered`.");
    s.key("surface_1d", &F::surface_1d, "texels", "`maxSurface1D`.");
    s.key("surface_1d_layered", &F::surface_1d_layered, "[texels, layers]", "`maxSurface1DLayered`.");
    s.key("surface_2d", &F::surface_2d, "[w, h]", "`maxSurface2D`.");
    s.key("surface_2d_layered", &F::surface_2d_layered, "[w, h, layers]", "`maxSurface2DLayered`.");
    s.key("surface_3d", &F::surface_3d, "[w, h, d]", "`maxSurface3D`.");
    s.key("surface_cubemap", &F::surface_cubemap, "texels", "`maxSurfaceCubemap`.");
    s.key("surface_cubemap_layered", &F::surface_cubemap_layered, "[texels, layers]", "`maxSurfaceCubemapLayered`.");
    s.key("pci_device_id", &F::pci_device_id, "PCI id", "`pciDeviceID`: the board's PCI device id.");
    s.key("ecc_enabled", &F::ecc_enabled, "", "`ECCEnabled`.");
}

void declare_memory_keys(ConfigSection<GpuConfig>& s) {
    s.key("size_bytes", &C::memory_bytes, "bytes", "Capacity that `Runtime::malloc` enforces. It is the sum of live heap "
          "allocations, each rounded to 64 KiB. Module variables and the device-side malloc heap do not count. It is not an "
          "address limit: device addresses are sparse (heap at `0x10_0000_0000`).");
    s.key("latency_ns", &C::memory_latency_ns, "ns", "Latency that `dram` adds to each `b_transport` (copy-engine bursts, the "
          "parameter-block read) and reports as DMI latency. SM accesses ignore it, so it does not change kernel cycles "
          "(timing mode prices them with `dram.*`). 0 = not modelled.").at_least(0);
    s.key("clock_mhz", &C::memory_clock_mhz, "MHz", "`cudaDevAttrMemoryClockRate`.").above(0);
    s.key("bus_width_bits", &C::memory_bus_bits, "bits", "`cudaDeviceProp::memoryBusWidth`.");
    s.key("managed_page_bytes", &C::managed_page_bytes, "bytes", "Managed memory moves between host and device in pages of this "
          "size; the SMs' direct access is granted one such page at a time.").power_of_two().within(4096, 2u << 20);
    s.key("managed_fault_ns", &C::managed_fault_ns, "ns", "Timing mode: the latency of a GPU page fault on managed memory "
          "(the first device access to a page since it was allocated or the host last touched it): the driver's round trip "
          "before the access replays, paid by every faulting access at once. 0 with `memory.managed_page_ns` 0: faults are "
          "not charged (a migration's transfer is, where the L2 sees the page move).").at_least(0).or_default(0.0);
    s.key("managed_page_ns", &C::managed_page_ns, "ns", "Timing mode: the driver's work per faulted page (`memory.managed_page_bytes`), "
          "one page after another for the whole chip, beside the page's transfer over the PCIe link; accesses to a page wait "
          "until its fault is served.").at_least(0).or_default(0.0);
    s.key("managed_variable_slot_bytes", &C::managed_variable_slot_bytes, "bytes", "A module's `__managed__` variables "
          "share one managed allocation, each at the start of a slot of a multiple of this many bytes, as the driver packs "
          "them (so a kernel that touches two of them faults one page). 0: each variable is an allocation of its "
          "own.").or_default(0);
    s.key("allocation_chunk_bytes", &C::allocation_chunk_bytes, "bytes", "cudaMalloc's layout, as the driver's: allocations "
          "smaller than this share chunks of this size, one after another at multiples of `memory.allocation_align_bytes`; a "
          "larger one takes whole chunks of its own (sw/runtime/device_heap.h). Reads past an allocation within its chunk "
          "do not fault. 0: each allocation in pages of its own (`SparseStore` pages, 64 KiB) followed by an unmapped guard "
          "page. --memcheck checks exact bounds either way.").or_default(0);
    s.key("allocation_align_bytes", &C::allocation_align_bytes, "bytes", "Alignment of an allocation within a shared chunk "
          "(`memory.allocation_chunk_bytes`).").at_least(1).or_default(256);
    s.key("heap_mapped_before_bytes", &C::heap_mapped_before_bytes, "bytes", "With `memory.allocation_chunk_bytes`: device "
          "memory mapped before the first chunk, where the driver's own mappings lie, so reads a little before the first "
          "allocation do not fault.").or_default(0);
    s.key("heap_mapped_after_bytes", &C::heap_mapped_after_bytes, "bytes", "With `memory.allocation_chunk_bytes`: device "
          "memory mapped from the first chunk's start on, whether allocated or not.").or_default(0);
}

void declare_pcie_keys(ConfigSection<PcieConfig>& s) {
    using P = PcieConfig;
    s.key("bandwidth_gb_s", &P::bandwidth_gb_s, "GB/s (10⁹ B/s) per direction", "Each direction of the `PcieLink` carries one "
          "burst at a time at this rate; uploads and downloads overlap (full duplex), copies the same way share it.").above(0);
    s.key("latency_ns", &P::latency_ns, "ns", "Setup time of each copy descriptor, before its first burst.").at_least(0);
    s.key("burst_bytes", &P::burst_bytes, "bytes", "Bytes per TLM transaction of a copy engine. Effectively a simulator knob: "
          "with `memory.latency_ns` = 0 the total copy time does not depend on it, only the event granularity does; with a "
          "non-zero memory latency every burst pays the latency again.").at_least(1);
    s.key("copy_engines", &P::copy_engines, "engines", "`DmaEngine` instances. With two or more, uploads and downloads use "
          "different engines. `cudaDeviceProp::asyncEngineCount`.").at_least(1);
    s.key("overlap", &P::overlap, "", "Whether a copy may run while a kernel runs (`deviceOverlap`).");
    s.key("staging_gb_s", &P::staging_gb_s, "GB/s", "The host CPU's copy into the pinned bounce buffer of a pageable copy, in "
          "series with the link, so pageable copies run at 1 / (1/bandwidth + 1/staging).").above(0);
    s.key("access_latency_ns", &P::access_latency_ns, "ns", "Timing mode: the round trip of a kernel's access to mapped host "
          "memory (zero-copy), added to each request the L2 sends over the link; the request's bytes also take the direction's "
          "bandwidth. A managed page migrating to the device pays it once.").at_least(0);
    s.key("row_ns", &P::row_ns, "ns", "A 2D copy between host and device memory (cudaMemcpy2D, a slice of cudaMemcpy3D) is one "
          "descriptor whose rows the engine moves in turn: each row takes at least this long, a wide one its bytes' time "
          "on the link.").at_least(0);
    s.key("device_row_ns", &P::device_row_ns, "ns", "The same for a 2D copy within device memory and for cudaMemset2D: "
          "each row takes at least this long, a wide one its bytes' time at device memory's bandwidth.").at_least(0);
}

void declare_host_keys(ConfigSection<GpuConfig>& s) {
    s.key("quantum_cycles", &C::quantum_cycles, "core cycles", "Global TLM quantum for temporal decoupling (set process-wide "
          "by `Gpu`'s constructor). An SM runs ahead of SystemC time by up to this many cycles (timing mode), or "
          "`quantum_cycles × warp_schedulers` warp instructions (functional mode, where `%clock` counts the SM's issue slots "
          "divided by `sm.warp_schedulers`, so it advances with every instruction, and where SMs set blocks aside at each "
          "quantum's boundary: [architecture.md](architecture.md#host-threads-functional-mode-smcluster)). In timing mode an SM "
          "also stops its round when a CTA finishes, and takes the next in its turn at the same cycle. Changing it can "
          "therefore change how CTAs spread over SMs, the reported launch cycles and `clock()` deltas. It does not change the "
          "results of race-free kernels.").at_least(1).or_default(10000);
    s.key("threads", &C::threads, "host threads", "How many host threads run the SMs of a quantum (the simulation's own "
          "included); 0 takes one per core of the host (`std::thread::hardware_concurrency`), 1 runs everything on the "
          "simulation's thread. Results do not depend on it: cycles, statistics and buffers are the same for any value, for "
          "programs without data races between blocks ([architecture.md](architecture.md#host-threads-functional-mode-smcluster) "
          "says what racy programs may see). `gpusim run --threads N` sets it; the runtime library takes `GPUSIM_THREADS=N`. "
          "Both modes use it ([timing mode's rounds](architecture.md#host-threads-in-timing-mode-smcorestep_apart-ldstunit-deferred-mode)); "
          "a timeline, a waveform or the race detector keeps the SMs on one thread.").or_default(0);
    s.key("sampling", &C::sampling, "", "Timing mode: kernel sampling ([timing.md](timing.md#kernel-sampling)). `on` simulates "
          "only some launches in timing mode: launches are grouped by kernel, block shape, dynamic shared memory, load (blocks "
          "on the busiest SM, `sim.sampling_exact_loads`) and instructions per block; the first `sim.sampling_detailed` of each group "
          "run in timing mode, the others in functional mode with their global-memory lines handed to the L2, and their "
          "cycles and statistics are projected from their group. The statistics file marks each projected launch and adds a "
          "`sampling` report (groups, detailed share, 95 % interval of the total cycles). Model choice, not hardware.")
        .one_of({"off", "on"}).or_default("off");
    s.key("sampling_detailed", &C::sampling_detailed, "launches", "Kernel sampling: launches of each group simulated in timing "
          "mode before the others are projected. The first of a group's launches is left out of the projection where there "
          "are more (it often finds the caches cold), so 3 is the least that gives a confidence interval.")
        .at_least(1).or_default(3);
    s.key("sampling_tolerance", &C::sampling_tolerance, "fraction", "Kernel sampling: two launches of one kernel, block shape "
          "and load share a group when their warp and thread instructions per block differ by at most this fraction of the "
          "group's first launch's.").within(0, 1).or_default(0.05);
    s.key("sampling_exact_loads", &C::sampling_exact_loads, "SM loads", "Kernel sampling: a launch's load is the blocks its "
          "busiest SM runs (ceil(grid / SMs)), each value a group of its own up to this many times the blocks an SM holds at "
          "once (where the last, partial wave weighs on the cycles); every larger grid of the kernel shares one load, and its "
          "projection scales with the busiest SM's blocks.").at_least(1).or_default(4);
}

ConfigSchema build_schema() {
    ConfigSchema schema;
    declare_outline(schema);
    ConfigSection<GpuConfig> root(schema, "", [](void* r) -> GpuConfig& { return *static_cast<GpuConfig*>(r); });

    schema.use("identity");
    declare_identity_keys(root);
    schema.use("chip");
    ConfigSection<GpuConfig> chip(schema, "chip", [](void* r) -> GpuConfig& { return *static_cast<GpuConfig*>(r); });
    declare_chip_keys(chip);
    schema.use("cuda");
    ConfigSection<CudaFacts> cuda = root.part(&GpuConfig::cuda, "cuda");
    declare_cuda_keys(cuda);
    schema.use("memory");
    ConfigSection<GpuConfig> memory(schema, "memory", [](void* r) -> GpuConfig& { return *static_cast<GpuConfig*>(r); });
    declare_memory_keys(memory);
    schema.use("pcie");
    ConfigSection<PcieConfig> pcie = root.part(&GpuConfig::pcie, "pcie");
    declare_pcie_keys(pcie);

    ConfigSection<SmConfig> sm = root.part(&GpuConfig::sm, "sm");
    schema.use("sm");
    declare_keys(sm);
    schema.use("sim");
    ConfigSection<GpuConfig> sim(schema, "sim", [](void* r) -> GpuConfig& { return *static_cast<GpuConfig*>(r); });
    ConfigSection<SmConfig> sm_sim = root.part(&GpuConfig::sm, "sim");
    declare_run_keys(sm_sim);
    declare_host_keys(sim);
    schema.use("checks");
    ConfigSection<CheckConfig> checks = sm_sim.part(&SmConfig::checks);
    declare_keys(checks);
    schema.use("memory_model");
    ConfigSection<StoreBufferConfig> stores = sm_sim.part(&SmConfig::stores);
    declare_keys(stores);

    ConfigSection<TimingConfig> timing = sm.part(&SmConfig::timing, "");
    schema.use("scheduler");
    ConfigSection<SchedulerConfig> scheduler = timing.part(&TimingConfig::scheduler, "scheduler");
    declare_keys(scheduler);
    schema.use("pipes");
    for (int k = 0; k < kPipeKinds; ++k) {
        ConfigSection<PipeConfig> pipe(schema, std::string("pipes.") + pipe_name(PipeKind(k)),
                                       [k](void* r) -> PipeConfig& { return static_cast<GpuConfig*>(r)->sm.timing.pipes[k]; });
        declare_keys(pipe);
    }
    schema.use("ops");
    for (int k = 0; k < kOpClasses; ++k) {
        ConfigSection<OpTiming> op(schema, std::string("ops.") + op_class_name(OpClass(k)),
                                   [k](void* r) -> OpTiming& { return static_cast<GpuConfig*>(r)->sm.timing.ops[k]; });
        declare_keys(op);
    }
    schema.use("sfu");
    ConfigSection<SfuConfig> sfu = sm.part(&SmConfig::sfu, "sfu");
    declare_keys(sfu);
    schema.use("smem");
    ConfigSection<SharedMemoryConfig> smem = timing.part(&TimingConfig::smem, "smem");
    declare_keys(smem);
    smem.check(check_bank_arbiter);
    schema.use("ccache");
    ConfigSection<ConstantCacheConfig> ccache = timing.part(&TimingConfig::ccache, "ccache");
    declare_keys(ccache);
    schema.use("tex");
    ConfigSection<TextureCacheConfig> tex = timing.part(&TimingConfig::tex, "tex");
    declare_keys(tex);
    schema.use("ldst");
    ConfigSection<LdstConfig> ldst = timing.part(&TimingConfig::ldst, "");
    declare_keys(ldst);
    schema.use("l2");
    ConfigSection<L2Config> l2 = root.part(&GpuConfig::l2, "l2");
    declare_keys(l2);
    schema.use("dram");
    ConfigSection<DramConfig> dram = root.part(&GpuConfig::dram, "");
    declare_keys(dram);
    schema.use("barrier");
    ConfigSection<BarrierConfig> barrier = timing.part(&TimingConfig::barrier, "barrier");
    declare_keys(barrier);

    root.check([](const GpuConfig& c, std::vector<std::string>& p) {
        if (c.max_threads_per_block > c.sm.max_threads)
            p.push_back("chip.max_threads_per_block must be between 1 and sm.max_threads");
        const uint32_t line = MemoryRequestPayload::kMaxBytes;
        for (const auto& [name, cache] : {std::pair<const char*, const CacheConfig*>{"l1", &c.sm.timing.ldst.l1},
                                          {"l2", &c.l2.cache}, {"ccache", &c.sm.timing.ccache.cache}, {"tex", &c.sm.timing.tex.cache}})
            if (cache->line_bytes > line) p.push_back(fmt::format("{}.line_bytes must be at most {}", name, line));
    });
    return schema;
}

} // namespace

const ConfigSchema& config_schema() {
    static const ConfigSchema schema = build_schema();
    return schema;
}

} // namespace gpusim
