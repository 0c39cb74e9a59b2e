// 2D copies and fills: one descriptor of many rows for a copy engine (docs/host_link.md#copies).
// Rows or pitches beyond the registers' 32 bits go as one 1D copy per row.
#include <cstdint>
#include <cstring>
#include <limits>

#include "runtime/platform.h"
#include "runtime/runtime.h"

namespace gpusim {

namespace {
constexpr uint64_t kMax32 = std::numeric_limits<uint32_t>::max();

// The bytes from the first row's start to the last row's end.
uint64_t span(uint64_t pitch, uint64_t width, uint64_t height) { return (height - 1) * pitch + width; }
} // namespace

bool CopyRows::fit() const { return count <= kMax32 && src_pitch <= kMax32 && dst_pitch <= kMax32; }

void Runtime::check_rows(DevicePtr p, uint64_t pitch, uint64_t width, uint64_t height, const char* what) const {
    for (uint64_t r = 0; r < height; ++r) check_range(p + r * pitch, width, what);
}

void Runtime::copy_rows_to_device(DevicePtr dst, uint64_t dpitch, const void* src, uint64_t spitch, uint64_t width,
                                  uint64_t height, StreamId s, bool caller_waits) {
    check_fault();
    if (!width || !height) return;
    const auto* rows = static_cast<const uint8_t*>(src);
    const CopyRows shape{height, spitch, dpitch};
    if (height == 1 || !shape.fit()) {
        for (uint64_t r = 0; r < height; ++r) copy_to_device(dst + r * dpitch, rows + r * spitch, width, s, caller_waits);
        return;
    }
    check_rows(dst, dpitch, width, height, "copy to device");
    const uint64_t bytes = span(spitch, width, height);
    const uint64_t host = reinterpret_cast<uint64_t>(src);
    if (is_pinned(src, bytes)) return queue_copy(kH2D, host, dst, width, s, false, 0, shape);
    if (caller_waits && in_place_possible(src, bytes)) return copy_in_place(kH2D, host, dst, src, width, s, shape);
    // Pageable: the rows are taken now, packed into one bounce buffer (one row where it repeats).
    stream(s);   // a stream that does not exist fails here, before the bounce buffer's window opens
    const uint64_t packed_pitch = spitch ? width : 0, packed = spitch ? width * height : width;
    HostBytes bounce(packed);
    for (uint64_t r = 0; r < (spitch ? height : 1); ++r) std::memcpy(bounce.data() + r * width, rows + r * spitch, width);
    m_platform->host_memory.add_window(bounce.data(), packed, true);   // the engines' alone
    queue_copy(kH2D, reinterpret_cast<uint64_t>(bounce.data()), dst, width, s, true, 0, CopyRows{height, packed_pitch, dpitch});
    m_retiring.push_back({stream(s).channel, stream(s).last, std::move(bounce)});
}

void Runtime::copy_rows_to_host(void* dst, uint64_t dpitch, DevicePtr src, uint64_t spitch, uint64_t width, uint64_t height,
                                StreamId s) {
    check_fault();
    if (!width || !height) return;
    auto* rows = static_cast<uint8_t*>(dst);
    const CopyRows shape{height, spitch, dpitch};
    if (height == 1 || !shape.fit()) {
        for (uint64_t r = 0; r < height; ++r) copy_to_host(rows + r * dpitch, src + r * spitch, width, s);
        return;
    }
    check_rows(src, spitch, width, height, "copy to host");
    const uint64_t bytes = span(dpitch, width, height);
    const uint64_t host = reinterpret_cast<uint64_t>(dst);
    if (is_pinned(dst, bytes)) return queue_copy(kD2H, src, host, width, s, false, 0, shape);
    // A pageable download waits for its completion: in place where it can, else through one
    // packed bounce buffer.
    if (in_place_possible(dst, bytes)) return copy_in_place(kD2H, src, host, dst, width, s, shape);
    HostBytes bounce(width * height);
    copy_in_place(kD2H, src, reinterpret_cast<uint64_t>(bounce.data()), bounce.data(), width, s, CopyRows{height, spitch, width});
    for (uint64_t r = 0; r < height; ++r) std::memcpy(rows + r * dpitch, bounce.data() + r * width, width);
}

void Runtime::copy_rows_device(DevicePtr dst, uint64_t dpitch, DevicePtr src, uint64_t spitch, uint64_t width,
                               uint64_t height, StreamId s) {
    check_fault();
    if (!width || !height) return;
    const CopyRows shape{height, spitch, dpitch};
    if (height == 1 || !shape.fit()) {
        for (uint64_t r = 0; r < height; ++r) copy_device(dst + r * dpitch, src + r * spitch, width, s);
        return;
    }
    check_rows(src, spitch, width, height, "device copy source");
    check_rows(dst, dpitch, width, height, "device copy destination");
    queue_copy(kD2D, src, dst, width, s, false, 0, shape);
}

void Runtime::fill_rows(DevicePtr dst, uint64_t pitch, uint8_t value, uint64_t width, uint64_t height, StreamId s) {
    check_fault();
    if (!width || !height) return;
    const CopyRows shape{height, 0, pitch};
    if (height == 1 || !shape.fit()) {
        for (uint64_t r = 0; r < height; ++r) fill(dst + r * pitch, value, width, s);
        return;
    }
    check_rows(dst, pitch, width, height, "memset");
    queue_copy(kFill, 0, dst, width, s, false, value, shape);
}

} // namespace gpusim
