// Byte storage for a full 64-bit address space, allocated a page at a time on first use.
#pragma once

#include <cstdint>
#include <memory>
#include <unordered_map>

namespace gpusim {

class SparseStore {
public:
    static constexpr uint64_t kPageBits = 16;
    static constexpr uint64_t kPageSize = uint64_t(1) << kPageBits;

    explicit SparseStore(uint8_t fill = 0) : m_fill(fill) {}

    // Host pointer of the page holding `addr`, allocating it when `create` is set.
    uint8_t* page(uint64_t addr, bool create) {
        uint64_t key = addr >> kPageBits;
        auto it = m_pages.find(key);
        if (it != m_pages.end()) return it->second.ptr;
        if (!create) return nullptr;
        Page p;
        p.owned = std::make_unique<uint8_t[]>(kPageSize);
        std::fill(p.owned.get(), p.owned.get() + kPageSize, m_fill);
        p.ptr = p.owned.get();
        return m_pages.emplace(key, std::move(p)).first->second.ptr;
    }

    // Backs the page holding `addr` with memory the caller owns (kPageSize bytes at `host`), as
    // managed memory's pages are the host's own.
    void attach(uint64_t addr, uint8_t* host) {
        Page p;
        p.ptr = host;
        m_pages[addr >> kPageBits] = std::move(p);
    }

    void release(uint64_t addr) { m_pages.erase(addr >> kPageBits); }

    // Copies across page boundaries; reads of untouched pages see the fill byte.
    void read(uint64_t addr, uint8_t* out, uint64_t len) {
        while (len) {
            uint64_t off = addr & (kPageSize - 1), n = std::min(len, kPageSize - off);
            if (uint8_t* p = page(addr, false)) std::copy(p + off, p + off + n, out);
            else std::fill(out, out + n, m_fill);
            addr += n; out += n; len -= n;
        }
    }

    void write(uint64_t addr, const uint8_t* in, uint64_t len) {
        while (len) {
            uint64_t off = addr & (kPageSize - 1), n = std::min(len, kPageSize - off);
            std::copy(in, in + n, page(addr, true) + off);
            addr += n; in += n; len -= n;
        }
    }

    size_t pages() const { return m_pages.size(); }

private:
    struct Page {
        std::unique_ptr<uint8_t[]> owned;   // null for an attached page
        uint8_t* ptr = nullptr;
    };
    uint8_t m_fill;
    std::unordered_map<uint64_t, Page> m_pages;
};

} // namespace gpusim
