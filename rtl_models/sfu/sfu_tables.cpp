#include "sfu/sfu_tables.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include <zstd.h>

#include "sfu/embedded_files.h"

namespace gpusim {
namespace {

struct TableInfo {
    const char* file;
    uint32_t entries;
};

constexpr uint32_t k23 = 1u << 23, k24 = 1u << 24, k16 = 1u << 16;
const TableInfo kTables[] = {
    {"rcp.vd.zst", k23},     {"rsqrt.vd.zst", k24},   {"sqrt.vd.zst", k24},    {"ex2_pos.vd.zst", k23},
    {"ex2_neg.vd.zst", k23}, {"lg2_e0.vd.zst", k23},  {"lg2_em1.vd.zst", k23}, {"lg2_em2.vd.zst", k23},
    {"tanh_f16.vd.zst", k16}, {"tanh_bf16.vd.zst", k16}, {"ex2_f16.vd.zst", k16}, {"ex2_bf16.vd.zst", k16},
};
static_assert(sizeof(kTables) / sizeof(kTables[0]) == size_t(SfuTable::Count), "one entry per table");

[[noreturn]] void fail(const char* file, const std::string& what) {
    throw std::logic_error(std::string("SFU table ") + file + ": " + what + " (a broken build)");
}

const EmbeddedFile& find_file(const char* name) {
    for (size_t k = 0; k < embedded_file_count; ++k)
        if (std::strcmp(embedded_files[k].name, name) == 0) return embedded_files[k];
    fail(name, "not built in");
}

// A table is stored as the differences between successive entries (the first from 0), each as a
// zigzag LEB128 varint, compressed with zstd: the entries of a sweep change slowly.
std::vector<uint32_t> unpack(const TableInfo& info) {
    const EmbeddedFile& f = find_file(info.file);
    std::vector<uint8_t> raw;
    std::unique_ptr<ZSTD_DCtx, size_t (*)(ZSTD_DCtx*)> ctx(ZSTD_createDCtx(), ZSTD_freeDCtx);
    ZSTD_inBuffer in{f.data, f.size, 0};
    std::vector<uint8_t> chunk(ZSTD_DStreamOutSize());
    size_t left = 1;
    while (in.pos < in.size || left != 0) {
        ZSTD_outBuffer out{chunk.data(), chunk.size(), 0};
        const size_t before = in.pos;
        left = ZSTD_decompressStream(ctx.get(), &out, &in);
        if (ZSTD_isError(left)) fail(info.file, ZSTD_getErrorName(left));
        raw.insert(raw.end(), chunk.data(), chunk.data() + out.pos);
        if (out.pos == 0 && in.pos == before && left != 0) fail(info.file, "truncated zstd frame");
    }
    std::vector<uint32_t> out(info.entries);
    uint32_t value = 0;
    size_t count = 0;
    const uint8_t* p = raw.data();
    const uint8_t* const end = p + raw.size();
    while (p < end) {
        uint64_t z = *p++;
        if (z & 0x80) {  // most differences fit one byte
            z &= 0x7F;
            for (int shift = 7;; shift += 7) {
                if (p >= end || shift > 35) fail(info.file, "truncated varint");
                const uint8_t b = *p++;
                z |= uint64_t(b & 0x7F) << shift;
                if (!(b & 0x80)) break;
            }
        }
        if (count == info.entries) fail(info.file, "has more than " + std::to_string(info.entries) + " entries");
        value += uint32_t(z >> 1) ^ (0u - uint32_t(z & 1));
        out[count++] = value;
    }
    out.resize(count);
    if (out.size() != info.entries) fail(info.file, "has " + std::to_string(out.size()) + " entries, expected " + std::to_string(info.entries));
    return out;
}

struct Slot {
    std::once_flag once;
    std::unique_ptr<PackedSfuTable> table;
    std::string error;  // why unpacking failed; thrown outside call_once, which some C++ runtimes
                        // cannot leave by an exception without hanging the next caller
};

Slot g_slots[size_t(SfuTable::Count)];

} // namespace

PackedSfuTable::PackedSfuTable(const std::vector<uint32_t>& entries) {
    m_blocks.resize((entries.size() + kBlock - 1) / kBlock);
    for (size_t b = 0; b < m_blocks.size(); ++b) {
        const size_t at = b * kBlock, n = std::min<size_t>(kBlock, entries.size() - at);
        int64_t lo = INT64_MAX, hi = INT64_MIN;
        for (size_t k = 1; k < n; ++k) {
            const int64_t step = int64_t(entries[at + k]) - int64_t(entries[at + k - 1]);
            lo = std::min(lo, step);
            hi = std::max(hi, step);
        }
        Block& block = m_blocks[b];
        if (n == kBlock && hi - lo <= 1 && lo > INT32_MIN && lo < INT32_MAX) {
            block.first = entries[at];
            block.step = int32_t(lo);
            for (size_t k = 1; k < n; ++k)
                if (int64_t(entries[at + k]) - int64_t(entries[at + k - 1]) != lo) block.mask |= uint64_t(1) << (k - 1);
        } else {
            block.first = uint32_t(m_kept.size());
            block.step = kKept;
            m_kept.insert(m_kept.end(), entries.begin() + long(at), entries.begin() + long(at + n));
            m_kept.resize(m_kept.size() + kBlock - n);   // a short last block reads within its own
        }
    }
}

std::atomic<const PackedSfuTable*> g_sfu_tables[size_t(SfuTable::Count)];

const PackedSfuTable& unpack_sfu_table(SfuTable t) {
    Slot& s = g_slots[size_t(t)];
    std::call_once(s.once, [&] {
        try {
            s.table = std::make_unique<PackedSfuTable>(unpack(kTables[size_t(t)]));
            g_sfu_tables[size_t(t)].store(s.table.get(), std::memory_order_release);
        } catch (const std::exception& e) {
            s.error = e.what();
        }
    });
    if (!s.error.empty()) throw std::logic_error(s.error);
    return *s.table;
}

std::vector<uint32_t> sfu_table_entries(SfuTable t) { return unpack(kTables[size_t(t)]); }

uint32_t sfu_table_size(SfuTable t) { return kTables[size_t(t)].entries; }

} // namespace gpusim
