// What the device-side runtime functions a kernel may call (vprintf, malloc, free, and the
// assert handler) need from the chip: the device heap and the output buffer that the host
// prints at its next synchronization, as CUDA's printf FIFO is flushed.
#pragma once

#include <cstdint>
#include <string>

namespace gpusim {

class DeviceServices {
public:
    virtual ~DeviceServices() = default;
    // Device address of `bytes` from the device heap (16-byte aligned), or 0 when it is full.
    virtual uint64_t heap_alloc(uint64_t bytes) = 0;
    // False when `addr` is not an allocation of the device heap.
    virtual bool heap_free(uint64_t addr) = 0;
    virtual void print(const std::string& text, bool to_stderr) = 0;
};

} // namespace gpusim
