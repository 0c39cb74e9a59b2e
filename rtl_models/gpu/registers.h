// Memory-mapped registers of the GPU front end (32-bit, little-endian). docs/registers.md
// describes the programming sequences the runtime uses.
#pragma once

#include <cstdint>

namespace gpusim::reg {

enum : uint32_t {
    kId = 0x00,           // RO  0x47505553 ("GPUS")
    kStatus = 0x04,       // RO  bit0 kernel running, bit1 DMA busy, bit2 kernel fault, bit3 DMA fault, bit4 launch rejected
    kIrq = 0x08,          // RW1C bit0 kernel done, bit1 DMA done, bit2 fault
    kControl = 0x0C,      // WO  bit0 clear faults
    kDmaSrcLo = 0x10, kDmaSrcHi = 0x14, kDmaDstLo = 0x18, kDmaDstHi = 0x1C,
    kDmaSizeLo = 0x20, kDmaSizeHi = 0x24,
    kDmaCmd = 0x28,       // WO  bits 7:0 kind (1 H2D, 2 D2H, 3 D2D, 4 fill), bits 15:8 fill byte; queues the descriptor
    kMapBaseLo = 0x30, kMapBaseHi = 0x34, kMapSizeLo = 0x38, kMapSizeHi = 0x3C,
    kMapCmd = 0x40,       // WO  1 map, 2 unmap the range in the device page table
    kKernel = 0x50,       // RW  program-store handle of the kernel to launch
    kGridX = 0x54, kGridY = 0x58, kGridZ = 0x5C,
    kBlockX = 0x60, kBlockY = 0x64, kBlockZ = 0x68,
    kDynShared = 0x6C,
    kParamLo = 0x70, kParamHi = 0x74, kParamSize = 0x78,
    kLaunch = 0x7C,       // WO  1 starts the launch described above
    kCyclesLo = 0x80, kCyclesHi = 0x84,        // RO  cycles of the last launch
    kWarpInstLo = 0x88, kWarpInstHi = 0x8C,    // RO  warp instructions of the last launch
    kThreadInstLo = 0x90, kThreadInstHi = 0x94,
    kPmEventBase = 0xA0,  // RO  pmevent counter k of the last launch: lo at 0xA0 + 8k, hi at 0xA4 + 8k (k < 8)
    kEnd = 0x100,
};

enum : uint32_t {
    kStatusKernelBusy = 1u << 0,
    kStatusDmaBusy = 1u << 1,
    kStatusKernelFault = 1u << 2,
    kStatusDmaFault = 1u << 3,
    kStatusLaunchRejected = 1u << 4,
};

enum : uint32_t { kIrqKernelDone = 1u << 0, kIrqDmaDone = 1u << 1, kIrqFault = 1u << 2 };

constexpr uint32_t kIdValue = 0x47505553;

} // namespace gpusim::reg
