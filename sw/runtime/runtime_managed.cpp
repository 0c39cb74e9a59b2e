// Managed memory: allocation, prefetches in stream order, and the host's page migrations.
#include <fmt/format.h>

#include "protocol/memory_map.h"
#include "runtime/platform.h"
#include "runtime/runtime.h"

namespace gpusim {

const ManagedHeap::Block& Runtime::map_managed(uint64_t bytes) {
    check_fault();
    if (!m_managed) m_managed = std::make_unique<ManagedHeap>(m_platform->gpu.managed());
    ManagedHeap::Block& b = m_managed->allocate(bytes);
    m_platform->gpu.dram().attach(b.base, b.bytes, b.alias);
    m_platform->host_memory.add_window(b.alias, b.bytes);
    return b;
}

DevicePtr Runtime::malloc_managed(uint64_t bytes, const std::string& where) {
    const ManagedHeap::Block& b = map_managed(bytes);
    allocations().add(b.base, std::max<uint64_t>(bytes, 1), b.bytes, where.empty() ? origin("cudaMallocManaged") : where);
    return b.base;
}

ManagedHeap::Block* Runtime::managed_block(DevicePtr p) {
    return m_managed && memory_map::in_managed_window(p) ? m_managed->find(p) : nullptr;
}

// The link carries the pages: a copy between the page's device side and its host side (the same
// memory, which both views share, so the data is already where it goes).
void Runtime::queue_migration(const ManagedHeap::Block& b, uint64_t base, uint64_t bytes, bool to_device, StreamId s) {
    const auto host = reinterpret_cast<uint64_t>(b.alias + (base - b.base));
    if (to_device) queue_copy(1, host, base, bytes, s, false);
    else queue_copy(2, base, host, bytes, s, false);
}

void Runtime::prefetch(DevicePtr p, uint64_t bytes, bool to_device, StreamId s) {
    check_fault();
    ManagedHeap::Block* b = managed_block(p);
    if (!b || p + bytes > b->base + b->bytes)
        throw RuntimeError(fmt::format("prefetch of 0x{:x}+{}: not managed memory", p, bytes), Error::InvalidValue);
    ManagedPages& pages = m_platform->gpu.managed();
    const uint64_t page = pages.page_bytes();
    const uint64_t first = p / page * page, end = (p + bytes + page - 1) / page * page;
    const ManagedPages::Where to = to_device ? ManagedPages::Where::Device : ManagedPages::Where::Host;
    // The pages not at the destination now move as runs of consecutive pages.
    for (uint64_t a = first; a < end;) {
        if (pages.where(a) == to || pages.where(a) == ManagedPages::Where::Untouched) { a += page; continue; }
        uint64_t run = a;
        while (run < end && pages.where(run) != to && pages.where(run) != ManagedPages::Where::Untouched) run += page;
        queue_migration(*b, a, run - a, to_device, s);
        a = run;
    }
    b->last_prefetch = to_device ? 0 : -1;
    // When the stream gets there, the pages are where they were sent.
    launch_host_function(s, [this, first, end, to_device](Error) {
        m_platform->gpu.managed().prefetch(first, end - first, to_device);
        if (!to_device) m_platform->gpu.dram().revoke(first, end - 1);
    }, false);
}

void Runtime::service_managed() {
    if (!m_managed) return;
    std::vector<uint64_t> pages = m_platform->gpu.managed().take_host_migrations();
    if (pages.empty()) return;
    const uint64_t size = m_platform->gpu.managed().page_bytes();
    if (!m_migration_stream) m_migration_stream = create_stream(true);
    for (uint64_t page : pages) {
        m_platform->gpu.dram().revoke(page, page + size - 1);
        if (const ManagedHeap::Block* b = m_managed->find(page)) queue_migration(*b, page, size, false, m_migration_stream);
    }
}

} // namespace gpusim
