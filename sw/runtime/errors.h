// Errors of the runtime, numbered as CUDA numbers them (cudaError_t), so the C++ API and the
// replacement libcudart report the same thing.
#pragma once

#include <stdexcept>
#include <string>

namespace gpusim {

enum class Error : int {
    Success = 0,
    InvalidValue = 1,
    MemoryAllocation = 2,
    InitializationError = 3,
    InvalidConfiguration = 9,
    InvalidPitchValue = 12,
    InvalidTexture = 18,
    InvalidChannelDescriptor = 20,
    InvalidFilterSetting = 26,
    InvalidNormSetting = 27,
    InvalidSurface = 37,
    InvalidSymbol = 13,
    InvalidHostPointer = 16,
    InvalidDevicePointer = 17,
    InvalidMemcpyDirection = 21,
    MissingConfiguration = 52,
    InvalidDeviceFunction = 98,
    NoDevice = 100,
    InvalidDevice = 101,
    InvalidKernelImage = 200,
    NoKernelImageForDevice = 209,
    PeerAccessUnsupported = 217,
    InvalidPtx = 218,
    OperatingSystem = 304,
    InvalidResourceHandle = 400,
    IllegalState = 401,
    SymbolNotFound = 500,
    NotReady = 600,
    IllegalAddress = 700,
    LaunchOutOfResources = 701,
    LaunchTimeout = 702,
    PeerAccessAlreadyEnabled = 704,
    PeerAccessNotEnabled = 705,
    Assert = 710,
    HostMemoryAlreadyRegistered = 712,
    HostMemoryNotRegistered = 713,
    IllegalInstruction = 715,
    MisalignedAddress = 716,
    LaunchFailure = 719,
    CooperativeLaunchTooLarge = 720,
    NotPermitted = 800,
    NotSupported = 801,
    StreamCaptureUnsupported = 900,
    StreamCaptureInvalidated = 901,
    StreamCaptureMerge = 902,
    StreamCaptureUnmatched = 903,
    StreamCaptureUnjoined = 904,
    StreamCaptureIsolation = 905,
    StreamCaptureImplicit = 906,
    CapturedEvent = 907,
    StreamCaptureWrongThread = 908,
    GraphExecUpdateFailure = 910,
    Unknown = 999,
};

// Any failure of a runtime call: bad arguments, a rejected launch, a faulting kernel.
class RuntimeError : public std::runtime_error {
public:
    explicit RuntimeError(const std::string& what, Error code = Error::InvalidValue) : std::runtime_error(what), m_code(code) {}
    Error code() const { return m_code; }
    // Whether the error leaves the device unusable until it is reset (CUDA's sticky errors).
    bool sticky() const {
        return m_code == Error::IllegalAddress || m_code == Error::Assert || m_code == Error::LaunchFailure ||
               m_code == Error::IllegalInstruction || m_code == Error::LaunchTimeout || m_code == Error::MisalignedAddress;
    }

private:
    Error m_code;
};

} // namespace gpusim
