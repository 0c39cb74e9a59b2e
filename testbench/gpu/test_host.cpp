// The host-side plumbing of the simulation: the pool of host threads (HostThreads) and the memory
// that holds the warps' registers (RegisterArena).
#define BOOST_TEST_MODULE host
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <thread>
#include <vector>

#include <sched.h>
#include <sys/mman.h>
#include <unistd.h>

#include "gpu/host_threads.h"
#include "sm/register_arena.h"

using namespace gpusim;

namespace {

// How many times each job ran, for `n` jobs run through run_homed with the given homes.
std::vector<int> runs_of(HostThreads& pool, size_t n, const std::function<size_t(size_t)>& home) {
    std::vector<std::atomic<int>> runs(n);
    pool.run_homed(n, home, [&](size_t k) { runs[k].fetch_add(1); });
    std::vector<int> out;
    for (auto& r : runs) out.push_back(r.load());
    return out;
}

} // namespace

BOOST_AUTO_TEST_CASE(every_homed_job_runs_once) {
    HostThreads pool(3);
    for (size_t n : {0u, 1u, 2u, 7u, 60u, 241u}) {
        const std::vector<int> once(n, 1);
        // Spread over the threads, all on the caller's, all on one worker, homes beyond the pool.
        BOOST_TEST(runs_of(pool, n, [](size_t k) { return k % 3; }) == once, "n " << n);
        BOOST_TEST(runs_of(pool, n, [](size_t) { return 0; }) == once, "n " << n);
        BOOST_TEST(runs_of(pool, n, [](size_t) { return 2; }) == once, "n " << n);
        BOOST_TEST(runs_of(pool, n, [](size_t k) { return 7 * k + 5; }) == once, "n " << n);
    }
}

BOOST_AUTO_TEST_CASE(plain_and_homed_runs_alternate) {
    HostThreads pool(2);
    std::atomic<uint64_t> sum{0};
    for (int round = 0; round < 50; ++round) {
        pool.run(100, [&](size_t k) { sum.fetch_add(k); });
        pool.run_homed(100, [](size_t k) { return k / 50; }, [&](size_t k) { sum.fetch_add(k); });
    }
    BOOST_TEST(sum.load() == uint64_t(100) * 4950);
}

BOOST_AUTO_TEST_CASE(one_thread_runs_in_order_on_the_caller) {
    HostThreads pool(1);
    std::vector<size_t> order;
    const auto caller = std::this_thread::get_id();
    bool elsewhere = false;
    pool.run_homed(10, [](size_t k) { return 9 - k; }, [&](size_t k) {
        order.push_back(k);
        elsewhere |= std::this_thread::get_id() != caller;
    });
    BOOST_TEST(order == std::vector<size_t>({0, 1, 2, 3, 4, 5, 6, 7, 8, 9}), boost::test_tools::per_element());
    BOOST_TEST(!elsewhere);
}

BOOST_AUTO_TEST_CASE(a_worker_helps_when_its_home_list_is_empty) {
    // Every job's home is the caller's thread, and the first job waits until some other thread has
    // run a job: only a worker that takes jobs from the caller's list lets it go on.
    HostThreads pool(2);
    std::atomic<int> done_elsewhere{0};
    const auto caller = std::this_thread::get_id();
    pool.run_homed(4, [](size_t) { return 0; }, [&](size_t k) {
        if (std::this_thread::get_id() != caller) done_elsewhere.fetch_add(1);
        else if (k == 0) {
            const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(30);
            while (done_elsewhere.load() == 0 && std::chrono::steady_clock::now() < give_up) std::this_thread::yield();
        }
    });
    BOOST_TEST(done_elsewhere.load() >= 1);
}

namespace {

// How many CPUs the pool's worker may run on: job 1 runs on the worker (the caller holds job 0
// until it has), and reads its own affinity.
int worker_cpus(HostThreads& pool) {
    std::atomic<int> count{-1};
    pool.run_homed(2, [](size_t k) { return k; }, [&](size_t k) {
        if (k == 1) {
            cpu_set_t set;
            count.store(sched_getaffinity(0, sizeof(set), &set) == 0 ? CPU_COUNT(&set) : 0);
            return;
        }
        const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(30);
        while (count.load() < 0 && std::chrono::steady_clock::now() < give_up) std::this_thread::yield();
    });
    return count.load();
}

} // namespace

BOOST_AUTO_TEST_CASE(spread_keeps_the_workers_off_the_callers_cpu_for_a_while) {
    cpu_set_t mine;
    BOOST_REQUIRE(sched_getaffinity(0, sizeof(mine), &mine) == 0);
    const int allowed = CPU_COUNT(&mine);
    // Some containers forbid changing affinity; the pool then leaves it as it is.
    const bool settable = sched_setaffinity(0, sizeof(mine), &mine) == 0;
    HostThreads pool(2);
    BOOST_TEST(worker_cpus(pool) == allowed);
    {
        const HostThreads::Spread spread(pool, true);
        // One CPU fewer, unless the process has only one.
        BOOST_TEST(worker_cpus(pool) == (allowed > 1 && settable ? allowed - 1 : allowed));
    }
    BOOST_TEST(worker_cpus(pool) == allowed);
    {
        const HostThreads::Spread off(pool, false);
        BOOST_TEST(worker_cpus(pool) == allowed);
    }
}

BOOST_AUTO_TEST_CASE(register_arena_grows_and_keeps_its_memory) {
    RegisterArena arena;
    BOOST_TEST(arena.capacity_words() == 0u);
    uint64_t* a = arena.reserve(1000);
    BOOST_TEST(arena.capacity_words() >= 1000u);
    BOOST_TEST(reinterpret_cast<uintptr_t>(a) % (size_t(2) << 20) == 0u);   // whole huge pages
    for (size_t k = 0; k < arena.capacity_words(); ++k) a[k] = k;
    // Less than the capacity: the same memory, as it was left.
    BOOST_TEST(arena.reserve(10) == a);
    BOOST_TEST(a[999] == 999u);
    // More: at least double, every word writable.
    const size_t before = arena.capacity_words();
    uint64_t* b = arena.reserve(before + 1);
    BOOST_TEST(arena.capacity_words() >= 2 * before);
    for (size_t k = 0; k < arena.capacity_words(); ++k) b[k] = ~k;
    BOOST_TEST(b[arena.capacity_words() - 1] == ~(arena.capacity_words() - 1));
}

BOOST_AUTO_TEST_CASE(register_arena_touch_pages_in_every_page) {
    RegisterArena arena;
    uint64_t* a = arena.reserve(3 * (size_t(1) << 18));   // 6 MiB: three huge pages
    BOOST_TEST(RegisterArena::pieces(arena.capacity_words()) == 3u);
    BOOST_TEST(RegisterArena::pieces(1) == 1u);
    BOOST_TEST(RegisterArena::pieces(size_t(1) << 18) == 1u);
    BOOST_TEST(RegisterArena::pieces((size_t(1) << 18) + 1) == 2u);
    const size_t page = size_t(sysconf(_SC_PAGESIZE));
    const size_t pages = arena.capacity_words() * sizeof(uint64_t) / page;
    const auto resident = [&] {
        std::vector<unsigned char> in(pages);
        BOOST_REQUIRE(mincore(a, pages * page, in.data()) == 0);
        return size_t(std::count_if(in.begin(), in.end(), [](unsigned char c) { return c & 1; }));
    };
    arena.touch(1);
    const size_t after_one = resident();
    BOOST_TEST(after_one >= pages / 3);       // the whole second piece
    BOOST_TEST(after_one < pages);
    arena.touch(0);
    arena.touch(2);
    BOOST_TEST(resident() == pages);
}

BOOST_AUTO_TEST_CASE(register_shares_are_whole_host_pages) {
    BOOST_TEST(RegisterArena::share_words(0) == 0u);
    BOOST_TEST(RegisterArena::share_words(1) == 512u);
    BOOST_TEST(RegisterArena::share_words(512) == 512u);
    BOOST_TEST(RegisterArena::share_words(513) == 1024u);
}
