#include "memory/managed_pages.h"

namespace gpusim {

void ManagedPages::add(uint64_t base, uint64_t bytes) {
    Range r;
    r.bytes = bytes;
    r.pages.assign((bytes + m_page - 1) / m_page, Where::Untouched);
    r.faults.assign(r.pages.size(), Fault::None);
    m_ranges[base] = std::move(r);
}

void ManagedPages::remove(uint64_t base) { m_ranges.erase(base); }

const ManagedPages::Range* ManagedPages::range_of(uint64_t addr, size_t& page) const {
    auto it = m_ranges.upper_bound(addr);
    if (it == m_ranges.begin()) return nullptr;
    --it;
    if (addr - it->first >= it->second.bytes) return nullptr;
    page = size_t((addr - it->first) / m_page);
    return &it->second;
}

const ManagedPages::Where* ManagedPages::find(uint64_t addr) const {
    size_t k = 0;
    const Range* r = range_of(addr, k);
    return r ? &r->pages[k] : nullptr;
}

ManagedPages::Where* ManagedPages::slot(uint64_t addr) { return const_cast<Where*>(find(addr)); }

ManagedPages::Fault* ManagedPages::fault_slot(uint64_t addr) {
    size_t k = 0;
    const Range* r = range_of(addr, k);
    return r ? const_cast<Fault*>(&r->faults[k]) : nullptr;
}

bool ManagedPages::device_fault(uint64_t addr, Fault& fault) {
    size_t k = 0;
    Range* r = const_cast<Range*>(range_of(addr, k));
    if (!r) return false;
    if (r->pages[k] != Where::Device) {
        const bool migrates = r->pages[k] == Where::Host;
        ++(migrates ? m_to_device : m_first_touch_device);
        r->pages[k] = Where::Device;
        r->faults[k] = migrates ? Fault::Migration : Fault::FirstTouch;
        move(addr / m_page * m_page, Where::Device);
    }
    fault = r->faults[k];
    r->faults[k] = Fault::None;
    return true;
}

ManagedPages::Fault ManagedPages::take_fault(uint64_t addr) {
    Fault* f = fault_slot(addr);
    if (!f) return Fault::None;
    const Fault taken = *f;
    *f = Fault::None;
    return taken;
}

ManagedPages::Where ManagedPages::where(uint64_t addr) const {
    const Where* w = find(addr);
    return w ? *w : Where::Untouched;
}

void ManagedPages::move(uint64_t page, Where to) {
    if (m_protect) m_protect(page, m_page, to != Where::Device);
}

bool ManagedPages::device_touch(uint64_t addr) {
    Where* w = slot(addr);
    if (!w || *w == Where::Device) return false;
    const bool migrates = *w == Where::Host;
    ++(migrates ? m_to_device : m_first_touch_device);
    *w = Where::Device;
    *fault_slot(addr) = migrates ? Fault::Migration : Fault::FirstTouch;
    move(addr / m_page * m_page, Where::Device);
    return migrates;
}

bool ManagedPages::host_touch(uint64_t addr) {
    Where* w = slot(addr);
    if (!w) return false;
    const bool migrates = *w == Where::Device;
    ++(migrates ? m_to_host : m_first_touch_host);
    *w = Where::Host;
    const uint64_t page = addr / m_page * m_page;
    move(page, Where::Host);
    if (migrates) {
        if (m_pending_count < kPendingSlots) m_pending[m_pending_count++] = page;
        else m_pending_overflow = true;
    }
    return true;
}

uint64_t ManagedPages::prefetch(uint64_t base, uint64_t bytes, bool to_device) {
    uint64_t moved = 0;
    const Where to = to_device ? Where::Device : Where::Host;
    for (uint64_t a = base / m_page * m_page; a < base + bytes; a += m_page) {
        Where* w = slot(a);
        if (!w || *w == to) continue;
        if (*w != Where::Untouched) {
            ++moved;
            ++(to_device ? m_prefetched_to_device : m_prefetched_to_host);
        }
        *w = to;
        *fault_slot(a) = Fault::None;
        move(a, to);
    }
    return moved;
}

std::vector<uint64_t> ManagedPages::take_host_migrations() {
    std::vector<uint64_t> out(m_pending, m_pending + m_pending_count);
    m_pending_count = 0;
    if (m_pending_overflow) {
        // More than the ring holds: every host-resident page may have been taken back.
        for (auto& [base, r] : m_ranges)
            for (size_t k = 0; k < r.pages.size(); ++k)
                if (r.pages[k] == Where::Host) out.push_back(base + k * m_page);
        m_pending_overflow = false;
    }
    return out;
}

void ManagedPages::report(nlohmann::json& out) const {
    auto stat = [&](const char* key, uint64_t pages, const char* what) {
        out[key] = {{"value", double(pages)}, {"unit", "pages"}, {"description", what}};
    };
    stat("migrations_to_device", m_to_device, "pages the device touched while the host held them, moved over the PCIe link");
    stat("migrations_to_host", m_to_host, "pages the host touched while the device held them, moved back");
    stat("prefetched_to_device", m_prefetched_to_device, "pages cudaMemPrefetchAsync moved to the device");
    stat("prefetched_to_host", m_prefetched_to_host, "pages cudaMemPrefetchAsync moved to the host");
    stat("first_touch_device", m_first_touch_device, "pages the device touched first (populated there, nothing moved)");
    stat("first_touch_host", m_first_touch_host, "pages the host touched first");
}

} // namespace gpusim
