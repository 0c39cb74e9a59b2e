#include "cudart/copies.h"

#include "cudart/arrays.h"

#include <cstring>
#include <vector>

namespace gpusim::cudart {

namespace {
cudaMemcpyKind resolve(Runtime& rt, void* dst, const void* src, size_t n, cudaMemcpyKind kind) {
    if (kind != cudaMemcpyDefault) {
        require(kind >= cudaMemcpyHostToHost && kind <= cudaMemcpyDefault, "invalid copy direction", Error::InvalidMemcpyDirection);
        return kind;
    }
    const bool d = rt.is_device(dev(dst), n ? n : 1), s = rt.is_device(dev(src), n ? n : 1);
    return cudaMemcpyKind(int(s ? (d ? cudaMemcpyDeviceToDevice : cudaMemcpyDeviceToHost)
                                : (d ? cudaMemcpyHostToDevice : cudaMemcpyHostToHost)));
}

} // namespace

void copy(Runtime& rt, void* dst, const void* src, size_t n, cudaMemcpyKind kind, StreamId s, bool sync) {
    switch (resolve(rt, dst, src, n, kind)) {
    case cudaMemcpyHostToHost:
        rt.synchronize(s);
        if (n) std::memmove(dst, src, n);
        return;
    case cudaMemcpyHostToDevice: rt.copy_to_device(dev(dst), src, n, s, sync); break;
    case cudaMemcpyDeviceToHost: rt.copy_to_host(dst, dev(src), n, s); break;
    case cudaMemcpyDeviceToDevice: rt.copy_device(dev(dst), dev(src), n, s); break;
    default: break;
    }
    if (sync) rt.synchronize(s);
}

// Rows as one descriptor (Runtime::copy_rows_*); host to host row by row.
void copy_rows(Runtime& rt, void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height,
               cudaMemcpyKind kind, StreamId s, bool sync) {
    if (!width || !height) return;   // an empty copy moves nothing, however many rows it names
    switch (resolve(rt, dst, src, width, kind)) {
    case cudaMemcpyHostToDevice: rt.copy_rows_to_device(dev(dst), dpitch, src, spitch, width, height, s, sync); break;
    case cudaMemcpyDeviceToHost: rt.copy_rows_to_host(dst, dpitch, dev(src), spitch, width, height, s); break;
    case cudaMemcpyDeviceToDevice: rt.copy_rows_device(dev(dst), dpitch, dev(src), spitch, width, height, s); break;
    default:
        for (size_t r = 0; r < height; ++r)
            copy(rt, static_cast<char*>(dst) + r * dpitch, static_cast<const char*>(src) + r * spitch, width, kind, s, false);
    }
}

void copy_2d(Runtime& rt, void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height,
             cudaMemcpyKind kind, StreamId s, bool sync) {
    require(width <= dpitch && width <= spitch, "2D copy wider than its pitch", Error::InvalidPitchValue);
    copy_rows(rt, dst, dpitch, src, spitch, width, height, kind, s, sync);
    if (sync) rt.synchronize(s);
}

void copy_async(Context& c, void* dst, const void* src, size_t n, cudaMemcpyKind kind, cudaStream_t s) {
    if (GraphNode* node = c.capture_node(s, cudaGraphNodeTypeMemcpy)) {
        node->is_1d = true;
        node->dst = dst;
        node->src = src;
        node->bytes = n;
        node->kind = kind;
        return;
    }
    copy(c.rt(), dst, src, n, kind, c.stream(s), false);
}

void copy_2d_async(Context& c, void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height,
                   cudaMemcpyKind kind, cudaStream_t s) {
    if (GraphNode* node = c.capture_node(s, cudaGraphNodeTypeMemcpy)) {
        cudaMemcpy3DParms& q = node->copy3d;
        q = cudaMemcpy3DParms{};
        q.srcPtr = cudaPitchedPtr{const_cast<void*>(src), spitch, width, height};
        q.dstPtr = cudaPitchedPtr{dst, dpitch, width, height};
        q.extent = cudaExtent{width, height, 1};
        q.kind = kind;
        return;
    }
    copy_2d(c.rt(), dst, dpitch, src, spitch, width, height, kind, c.stream(s), false);
}

void copy_3d(Runtime& rt, const cudaMemcpy3DParms* p, StreamId s, bool sync) {
    require(p, "cudaMemcpy3D: null parameters");
    require(!(p->srcArray && (p->srcPtr.ptr)) && !(p->dstArray && p->dstPtr.ptr), "cudaMemcpy3D: an array and a pointer on one side");
    // An array side is its pitched memory; with an array in the copy, x positions and the width
    // count its elements (a pointer side's x counts bytes).
    cudaPitchedPtr sp = p->srcPtr, dp = p->dstPtr;
    cudaPos spos = p->srcPos, dpos = p->dstPos;
    size_t elem = 1;
    if (p->srcArray) {
        const cudaArray* a = array_of(p->srcArray);
        sp = pitched(a);
        elem = a->texel_bytes;
        spos.x *= elem;
    }
    if (p->dstArray) {
        const cudaArray* a = array_of(p->dstArray);
        require(!p->srcArray || a->texel_bytes == elem, "cudaMemcpy3D: arrays of different element sizes");
        dp = pitched(a);
        elem = a->texel_bytes;
        dpos.x *= elem;
    }
    auto inside = [&](cudaArray_const_t arr, const cudaPos& pos) {
        if (!arr) return;
        const cudaArray* a = array_of(arr);
        const bool fits = pos.x <= a->pitch && p->extent.width <= (a->pitch - pos.x) / elem && pos.y <= a->height &&
                          p->extent.height <= a->height - pos.y && pos.z <= a->slices && p->extent.depth <= a->slices - pos.z;
        require(fits, "cudaMemcpy3D: the copy leaves the array");
    };
    // An array side is device memory: a kind that says otherwise is refused.
    require(!(p->srcArray && (p->kind == cudaMemcpyHostToDevice || p->kind == cudaMemcpyHostToHost)) &&
                !(p->dstArray && (p->kind == cudaMemcpyDeviceToHost || p->kind == cudaMemcpyHostToHost)),
            "cudaMemcpy3D: the copy kind contradicts an array side (arrays are device memory)", Error::InvalidMemcpyDirection);
    inside(p->srcArray, spos);
    inside(p->dstArray, dpos);
    const size_t w = p->extent.width * elem, h = p->extent.height, d = p->extent.depth;
    // Each slice is one 2D copy.
    for (size_t z = 0; w && h && z < d; ++z) {
        const size_t so = ((spos.z + z) * sp.ysize + spos.y) * sp.pitch + spos.x;
        const size_t dof = ((dpos.z + z) * dp.ysize + dpos.y) * dp.pitch + dpos.x;
        copy_rows(rt, static_cast<char*>(dp.ptr) + dof, dp.pitch, static_cast<const char*>(sp.ptr) + so, sp.pitch, w, h,
                  p->kind, s, sync);
    }
    if (sync) rt.synchronize(s);
}

void fill_2d(Runtime& rt, void* dst, size_t pitch, unsigned value, unsigned element_size, size_t width, size_t height,
             StreamId s) {
    require(element_size == 1 || element_size == 2 || element_size == 4, "memset: the element size must be 1, 2 or 4");
    const size_t row = width * element_size;
    require(height <= 1 || row <= pitch, "memset: the row is wider than its pitch", Error::InvalidPitchValue);
    if (row == 0 || height == 0) return;   // nothing to set, however many rows it names
    uint8_t bytes[4];
    std::memcpy(bytes, &value, 4);
    bool uniform = true;
    for (unsigned k = 1; k < element_size; ++k) uniform &= bytes[k] == bytes[0];
    if (uniform) return rt.fill_rows(dev(dst), pitch, bytes[0], row, height, s);
    // Wider elements: one row of the pattern, staged at the call like a pageable upload and repeated.
    std::vector<uint8_t> pattern(row);
    for (size_t k = 0; k < row; ++k) pattern[k] = bytes[k % element_size];
    rt.copy_rows_to_device(dev(dst), pitch, pattern.data(), 0, row, height, s);
}

} // namespace gpusim::cudart
