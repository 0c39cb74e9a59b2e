// Memory-mapped registers of the GPU front end (32-bit, little-endian). docs/registers.md
// describes the programming sequences the runtime uses.
#pragma once

#include <cstdint>

namespace gpusim::reg {

enum : uint32_t {
    kId = 0x00,           // RO  0x47505553 ("GPUS")
    kStatus = 0x04,       // RO  bit0 kernel running, bit1 copy running, bit2 kernel fault, bit3 DMA fault, bit4 launch rejected,
                          //     bit5 work pending in some channel
    kIrq = 0x08,          // RW1C bit0 kernel done, bit1 DMA done, bit2 fault
    kControl = 0x0C,      // WO  bit0 clear faults
    kDmaSrcLo = 0x10, kDmaSrcHi = 0x14, kDmaDstLo = 0x18, kDmaDstHi = 0x1C,
    kDmaSizeLo = 0x20, kDmaSizeHi = 0x24,
    kDmaCmd = 0x28,       // WO  bits 7:0 kind (1 H2D, 2 D2H, 3 D2D, 4 fill), bits 15:8 fill byte, bit 16 staged
                          //     (host side is a bounce buffer); queues the descriptor on the selected channel
    kMapBaseLo = 0x30, kMapBaseHi = 0x34, kMapSizeLo = 0x38, kMapSizeHi = 0x3C,
    kMapCmd = 0x40,       // WO  1 map, 2 unmap the range in the device page table
    kDmaRows = 0x44,      // RW  rows of the next DMA command (0 or 1: a 1D copy of kDmaSize bytes; more: a 2D copy of
                          //     rows of kDmaSize bytes); kDmaCmd takes it and the pitches and clears them
    kDmaSrcPitch = 0x48, kDmaDstPitch = 0x4C,   // RW  bytes between the starts of a 2D copy's rows
    kKernel = 0x50,       // RW  program-store handle of the kernel to launch
    kGridX = 0x54, kGridY = 0x58, kGridZ = 0x5C,
    kBlockX = 0x60, kBlockY = 0x64, kBlockZ = 0x68,
    kDynShared = 0x6C,
    kParamData = 0x70,    // WO  appends one 32-bit word to the parameter block being assembled
    kParamSize = 0x78,    // RW  size in bytes of the next launch's parameter block; writing it starts a new block
    kLaunch = 0x7C,       // WO  1 queues the launch described above on the selected channel
    kCyclesLo = 0x80, kCyclesHi = 0x84,        // RO  cycles of the last launch
    kWarpInstLo = 0x88, kWarpInstHi = 0x8C,    // RO  warp instructions of the last launch
    kThreadInstLo = 0x90, kThreadInstHi = 0x94,
    kPmEventBase = 0xA0,  // RO  pmevent counter k of the last launch: lo at 0xA0 + 8k, hi at 0xA4 + 8k (k < 8)
    kChannel = 0xC0,      // RW  channel (hardware work queue) that commands go to and that 0xC8/0xCC describe
    kChanFlags = 0xC4,    // WO  flags of the selected channel: bit0 not ordered against channel 0 (non-blocking),
                          //     bits 15:8 priority (0 lowest, up to chip.stream_priorities - 1)
    kChanSubmitted = 0xC8,  // RO  commands queued on the selected channel so far (32-bit, wraps)
    kChanCompleted = 0xCC,  // RO  commands of the selected channel completed so far
    kSemAddrLo = 0xD0, kSemAddrHi = 0xD4,        // host address of a 16-byte semaphore {payload, time ns}
    kSemPayloadLo = 0xD8, kSemPayloadHi = 0xDC,
    kSemCmd = 0xE0,       // WO  1 release (write payload and the time), 2 acquire (wait for payload >= value)
    kFaultCode = 0xE4,    // RO  what the sticky fault is (FaultCode)
    kChannels = 0xE8,     // RO  number of channels
    kCopyEngines = 0xEC,  // RO  number of copy engines
    kDoorbell = 0xF0,     // WO  any value: the host wrote a semaphore; waiting acquires look at it again
    kEnvRegBase = 0x100,  // RW  %envreg<k> of the next launch at 0x100 + 4k (k < 32); LAUNCH takes them and clears them
    kEnd = 0x180,
};

enum : uint32_t {
    kStatusKernelBusy = 1u << 0,
    kStatusDmaBusy = 1u << 1,
    kStatusKernelFault = 1u << 2,
    kStatusDmaFault = 1u << 3,
    kStatusLaunchRejected = 1u << 4,
    kStatusPending = 1u << 5,
};

// Why the GPU stopped accepting work, until the host writes kControl bit 0.
enum FaultCode : uint32_t {
    kFaultNone = 0,
    kFaultLaunchRejected = 1,   // bad launch configuration or parameter block
    kFaultMemory = 2,           // a kernel's memory access faulted
    kFaultAssert = 3,           // a device-side assert failed
    kFaultTrap = 4,             // a kernel executed trap
    kFaultExec = 5,             // any other kernel fault
    kFaultDma = 6,              // a copy touched an address outside device memory or the host windows
    kFaultTimeout = 7,          // a kernel ran past sim.max_cycles (the watchdog)
    kFaultMisaligned = 8,       // a kernel's access was not aligned to its size
};

enum : uint32_t { kIrqKernelDone = 1u << 0, kIrqDmaDone = 1u << 1, kIrqFault = 1u << 2 };

constexpr uint32_t kIdValue = 0x47505553;

} // namespace gpusim::reg
