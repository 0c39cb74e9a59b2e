#include "cudart/fatbinary.h"

#include <cstring>
#include <memory>
#include <vector>

#include <fmt/format.h>
#include <zstd.h>

namespace gpusim::fatbin {

namespace {
constexpr uint32_t kWrapperMagic = 0x466243b1;     // __fatBinC_Wrapper_t::magic
constexpr uint32_t kContainerMagic = 0xba55ed50;
constexpr uint16_t kKindPtx = 1;
constexpr uint64_t kFlagZstd = 0x8000;             // entry payload compressed with zstd
constexpr uint64_t kFlagLz4 = 0x2000;              // older toolkits' LZ4 compression
// The largest PTX text the library takes from one entry: far above what nvcc writes for any real
// program, low enough that a corrupt size cannot exhaust the host's memory.
constexpr size_t kMaxPtxBytes = size_t(1) << 30;

struct Wrapper {            // what the host object holds in .nvFatBinSegment
    uint32_t magic;
    uint32_t version;
    const uint8_t* data;
    void* prelinked;
};

struct ContainerHeader {    // at the start of .nv_fatbin data
    uint32_t magic;
    uint16_t version;
    uint16_t header_size;
    uint64_t body_size;     // bytes of entries after the header
};

struct EntryHeader {
    uint16_t kind;
    uint16_t version;
    uint32_t header_size;
    uint64_t padded_size;   // bytes from the end of this header to the next entry
    uint32_t payload_size;  // bytes of (possibly compressed) payload
    uint32_t reserved0;
    uint16_t ptx_minor, ptx_major;
    uint32_t arch;
    uint32_t options_offset;
    uint32_t options_size;
    uint64_t flags;
    uint64_t reserved1;
    uint64_t uncompressed_size;
};

template <class T>
T read_at(const uint8_t* base, size_t size, size_t at, const char* what) {
    if (at + sizeof(T) > size) throw FatbinError(fmt::format("fatbinary: {} at byte {} runs past the end ({} bytes)", what, at, size));
    T v;
    std::memcpy(&v, base + at, sizeof(T));
    return v;
}

// The sizes in a frame's header are the program's word, not a fact: the text is decompressed in
// steps and grows only with what the frame really holds, up to kMaxPtxBytes.
std::string decompress(const uint8_t* p, size_t bytes) {
    std::unique_ptr<ZSTD_DCtx, size_t (*)(ZSTD_DCtx*)> ctx(ZSTD_createDCtx(), ZSTD_freeDCtx);
    if (!ctx) throw FatbinError("fatbinary: zstd: cannot create a decompression context");
    ZSTD_inBuffer in{p, bytes, 0};
    std::string out;
    std::vector<char> step(ZSTD_DStreamOutSize());
    for (;;) {
        ZSTD_outBuffer o{step.data(), step.size(), 0};
        const size_t r = ZSTD_decompressStream(ctx.get(), &o, &in);
        if (ZSTD_isError(r)) throw FatbinError(fmt::format("fatbinary: zstd: {}", ZSTD_getErrorName(r)));
        out.append(step.data(), o.pos);
        if (out.size() > kMaxPtxBytes)
            throw FatbinError(fmt::format("fatbinary: a PTX entry decompresses to more than {} bytes", kMaxPtxBytes));
        if (r == 0) return out;                                   // the frame is complete
        if (in.pos == in.size && o.pos < o.size) throw FatbinError("fatbinary: zstd: the compressed PTX is truncated");
    }
}

std::string payload_text(const uint8_t* p, const EntryHeader& e) {
    std::string out;
    if (e.flags & kFlagZstd) {
        out = decompress(p, e.payload_size);
    } else if (e.flags & kFlagLz4) {
        throw FatbinError("fatbinary: the PTX is LZ4-compressed (a toolkit older than CUDA 13); rebuild with CUDA 13");
    } else {
        out.assign(reinterpret_cast<const char*>(p), e.payload_size);
    }
    while (!out.empty() && out.back() == '\0') out.pop_back();
    return out;
}
} // namespace

std::vector<PtxEntry> ptx_entries_of_container(const uint8_t* data, size_t size) {
    const auto h = read_at<ContainerHeader>(data, size, 0, "container header");
    if (h.magic != kContainerMagic) throw FatbinError(fmt::format("fatbinary: container magic 0x{:08x}, expected 0x{:08x}", h.magic, kContainerMagic));
    std::vector<PtxEntry> out;
    const size_t end = std::min<size_t>(size, size_t(h.header_size) + h.body_size);
    for (size_t at = h.header_size; at < end;) {
        const auto e = read_at<EntryHeader>(data, end, at, "entry header");
        if (e.header_size < sizeof(EntryHeader) || at + e.header_size + e.payload_size > end)
            throw FatbinError(fmt::format("fatbinary: entry at byte {} has a bad size", at));
        if (e.kind == kKindPtx) out.push_back({e.arch, payload_text(data + at + e.header_size, e)});
        // A padded size past the end (or one that would wrap the offset) ends the walk.
        const size_t rest = end - at - e.header_size;
        at = e.padded_size >= rest ? end : at + e.header_size + size_t(e.padded_size);
    }
    return out;
}

std::vector<PtxEntry> ptx_entries(const void* wrapper) {
    if (!wrapper) throw FatbinError("fatbinary: the program registered a null fatbinary");
    Wrapper w;
    std::memcpy(&w, wrapper, sizeof w);
    if (w.magic != kWrapperMagic) throw FatbinError(fmt::format("fatbinary: wrapper magic 0x{:08x}, expected 0x{:08x}", w.magic, kWrapperMagic));
    if (!w.data) throw FatbinError("fatbinary: the wrapper holds no data");
    ContainerHeader h;
    std::memcpy(&h, w.data, sizeof h);
    if (h.magic != kContainerMagic) throw FatbinError(fmt::format("fatbinary: container magic 0x{:08x}, expected 0x{:08x}", h.magic, kContainerMagic));
    return ptx_entries_of_container(w.data, size_t(h.header_size) + h.body_size);
}

} // namespace gpusim::fatbin
