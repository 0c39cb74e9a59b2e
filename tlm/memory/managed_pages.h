// Managed (unified) memory's pages as the GPU and the host use them: where each page is (not yet
// touched, on the host, on the device), the migrations that first touches cause, and their
// counts. The device's accesses come through the memory target (and in timing mode first through
// the L2, which prices a migration on the PCIe link); the host's come from the runtime, which
// keeps the host's view of a page inaccessible while the device holds it and hears of the host's
// first touch through the fault it takes.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <vector>

#include <nlohmann/json.hpp>

namespace gpusim {

class ManagedPages {
public:
    enum class Where : uint8_t { Untouched, Host, Device };
    // Makes the host's view of [page, page + bytes) accessible or not (the runtime's mprotect).
    using Protect = std::function<void(uint64_t page, uint64_t bytes, bool accessible)>;

    explicit ManagedPages(uint64_t page_bytes) : m_page(page_bytes) {}

    uint64_t page_bytes() const { return m_page; }
    void set_protect(Protect p) { m_protect = std::move(p); }

    // An allocation of managed memory, page-aligned; its pages start untouched.
    void add(uint64_t base, uint64_t bytes);
    void remove(uint64_t base);
    bool contains(uint64_t addr) const { return find(addr) != nullptr; }
    Where where(uint64_t addr) const;

    // The device touches the page holding addr: it moves to the device. True when its data had to
    // come from the host (a migration the PCIe link carries).
    bool device_touch(uint64_t addr);
    // The host touches the page (its view faulted): it moves to the host. True when its data had
    // to come from the device. Safe in a signal handler: no allocation, no locks.
    bool host_touch(uint64_t addr);
    // A device touch that found the page away from the device leaves a fault for the timing model
    // to charge once (the functional path may have moved the page first): take_fault returns it
    // and clears it. A prefetch leaves none (the copy engine carries it).
    enum class Fault : uint8_t { None, FirstTouch, Migration };
    Fault take_fault(uint64_t addr);
    // device_touch and take_fault in one lookup, for the timing model's every request: false when
    // addr is not managed memory.
    bool device_fault(uint64_t addr, Fault& fault);
    // cudaMemPrefetchAsync: every page of the range moves; returns how many had to.
    uint64_t prefetch(uint64_t base, uint64_t bytes, bool to_device);
    // Pages the host took back since the last call (their device copies are stale).
    std::vector<uint64_t> take_host_migrations();

    void report(nlohmann::json& out) const;

private:
    struct Range {
        uint64_t bytes = 0;
        std::vector<Where> pages;
        std::vector<Fault> faults;   // per page: the fault not yet taken by the timing model
    };
    uint64_t m_page;
    Protect m_protect;
    std::map<uint64_t, Range> m_ranges;
    // Filled in the signal handler: a fixed ring, drained by take_host_migrations.
    static constexpr size_t kPendingSlots = 4096;
    uint64_t m_pending[kPendingSlots] = {};
    size_t m_pending_count = 0;
    bool m_pending_overflow = false;
    uint64_t m_first_touch_device = 0, m_first_touch_host = 0;
    uint64_t m_to_device = 0, m_to_host = 0, m_prefetched_to_device = 0, m_prefetched_to_host = 0;

    // The range holding addr and the index of its page there, or nullptr.
    const Range* range_of(uint64_t addr, size_t& page) const;
    const Where* find(uint64_t addr) const;
    Where* slot(uint64_t addr);
    Fault* fault_slot(uint64_t addr);
    void move(uint64_t page, Where to);
};

} // namespace gpusim
