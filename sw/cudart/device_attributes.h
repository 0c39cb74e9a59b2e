// What the device tells a program about itself: every cudaDeviceAttr of CUDA 13 answered from
// the config, and cudaDeviceProp filled from the same answers so that the two always agree.
#pragma once

#include "gpu/gpu_config.h"
#include "cudart/cuda_abi.h"

namespace gpusim::cudart {

// The attribute's value; false for a number CUDA 13 does not define (cudaErrorInvalidValue).
bool device_attribute(const GpuConfig& c, int attr, int& value);

void device_properties(const GpuConfig& c, cudaDeviceProp& p);

} // namespace gpusim::cudart
