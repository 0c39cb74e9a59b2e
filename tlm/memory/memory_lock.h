// The lock of the chip's memory map while SMs run on host threads: held where a region is asked
// for, a page comes into being or is mapped (Sm::get_dmi, the device heap's first malloc, the
// L2 moving a managed page to the device), or an access goes through a socket (Sm::transport).
#pragma once

#include <mutex>

namespace gpusim {

inline std::mutex& memory_map_lock() {
    static std::mutex lock;
    return lock;
}

} // namespace gpusim
