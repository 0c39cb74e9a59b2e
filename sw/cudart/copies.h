// Copies and fills as the runtime's API functions and graph nodes perform them: the direction of
// a cudaMemcpyDefault copy found from the addresses, 2D copies as one linear copy per row, 3D copies
// between pitched pointers, and fills of 1-, 2- or 4-byte elements.
#pragma once

#include "cudart/api.h"

namespace gpusim::cudart {

// One linear copy queued on stream s; `sync` waits for it as cudaMemcpy does.
void copy(Runtime& rt, void* dst, const void* src, size_t n, cudaMemcpyKind kind, StreamId s, bool sync);
void copy_2d(Runtime& rt, void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height,
             cudaMemcpyKind kind, StreamId s, bool sync);
void copy_3d(Runtime& rt, const cudaMemcpy3DParms* p, StreamId s, bool sync);
// The asynchronous API forms: queued on stream s, or recorded as a memcpy node when s is capturing.
void copy_async(Context& c, void* dst, const void* src, size_t n, cudaMemcpyKind kind, cudaStream_t s);
void copy_2d_async(Context& c, void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height,
                   cudaMemcpyKind kind, cudaStream_t s);
// height rows of width elements of element_size bytes (1, 2 or 4), each set to value. Byte
// patterns go to the copy engines' fill; others are staged through host memory.
void fill_2d(Runtime& rt, void* dst, size_t pitch, unsigned value, unsigned element_size, size_t width, size_t height,
             StreamId s);

} // namespace gpusim::cudart
