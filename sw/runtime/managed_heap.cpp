#include "runtime/managed_heap.h"

#include <csignal>
#include <cstring>

#include <fmt/format.h>
#include <sys/mman.h>
#include <unistd.h>

#include "protocol/memory_map.h"
#include "runtime/errors.h"

namespace gpusim {

namespace {
// The process's one heap of managed memory, for the fault handler; and the handler it replaced.
ManagedPages* g_pages = nullptr;
struct sigaction g_previous;

// A fault on a managed page the device holds: the page comes back to the host and the access is
// retried. Any other fault goes to the handler that was there before (or the default action).
void on_fault(int sig, siginfo_t* info, void* context) {
    const auto addr = reinterpret_cast<uint64_t>(info->si_addr);
    if (g_pages && memory_map::in_managed_window(addr) && g_pages->host_touch(addr)) return;
    if (g_previous.sa_flags & SA_SIGINFO) {
        g_previous.sa_sigaction(sig, info, context);
    } else if (g_previous.sa_handler != SIG_DFL && g_previous.sa_handler != SIG_IGN) {
        g_previous.sa_handler(sig);
    } else {
        signal(sig, SIG_DFL);   // returning re-runs the access, which now ends the process as it would have
    }
}

void install_fault_handler() {
    struct sigaction sa;
    std::memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_fault;
    sa.sa_flags = SA_SIGINFO | SA_NODEFER;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGSEGV, &sa, &g_previous);
}

void protect(uint64_t page, uint64_t bytes, bool accessible) {
    mprotect(reinterpret_cast<void*>(page), bytes, accessible ? PROT_READ | PROT_WRITE : PROT_NONE);
}
} // namespace

ManagedHeap::ManagedHeap(ManagedPages& pages) : m_pages(pages), m_next(memory_map::kManagedBase) {
    m_pages.set_protect(protect);
    g_pages = &m_pages;
    install_fault_handler();
}

ManagedHeap::~ManagedHeap() {
    sigaction(SIGSEGV, &g_previous, nullptr);
    g_pages = nullptr;
    while (!m_blocks.empty()) free(m_blocks.begin()->first);
}

ManagedHeap::Block& ManagedHeap::allocate(uint64_t bytes) {
    const uint64_t page = m_pages.page_bytes();
    const uint64_t size = (std::max<uint64_t>(bytes, 1) + page - 1) / page * page;
    if (m_next + size > memory_map::kManagedBase + memory_map::kManagedWindowSize)
        throw RuntimeError(fmt::format("managed memory: {} bytes do not fit in the managed window", bytes), Error::MemoryAllocation);
    const int fd = memfd_create("gpusim-managed", 0);
    if (fd < 0 || ftruncate(fd, off_t(size)) != 0) {
        if (fd >= 0) close(fd);
        throw RuntimeError(fmt::format("managed memory: cannot create {} bytes of shared memory", size), Error::MemoryAllocation);
    }
    void* program = mmap(reinterpret_cast<void*>(m_next), size, PROT_NONE, MAP_SHARED | MAP_FIXED_NOREPLACE, fd, 0);
    void* alias = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (program != reinterpret_cast<void*>(m_next) || alias == MAP_FAILED) {
        if (program != MAP_FAILED) munmap(program, size);
        if (alias != MAP_FAILED) munmap(alias, size);
        close(fd);
        throw RuntimeError(fmt::format("managed memory: the address range 0x{:x}+{} is taken in this process", m_next, size),
                           Error::MemoryAllocation);
    }
    Block b;
    b.base = m_next;
    b.bytes = size;
    b.alias = static_cast<uint8_t*>(alias);
    b.fd = fd;
    m_next += size + page;   // a guard page between blocks
    m_pages.add(b.base, b.bytes);
    return m_blocks[b.base] = b;
}

void ManagedHeap::free(uint64_t base) {
    auto it = m_blocks.find(base);
    if (it == m_blocks.end()) return;
    const Block& b = it->second;
    m_pages.remove(b.base);
    munmap(reinterpret_cast<void*>(b.base), b.bytes);
    munmap(b.alias, b.bytes);
    close(b.fd);
    m_blocks.erase(it);
}

ManagedHeap::Block* ManagedHeap::find(uint64_t addr) {
    auto it = m_blocks.upper_bound(addr);
    if (it == m_blocks.begin()) return nullptr;
    --it;
    return addr - it->first < it->second.bytes ? &it->second : nullptr;
}

} // namespace gpusim
