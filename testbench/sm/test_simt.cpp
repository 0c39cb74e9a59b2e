// SIMT execution on SmCore without a simulation: divergence, loops with break/continue, exits,
// barriers and faults, each checked against the same computation in C++.
#define BOOST_TEST_MODULE simt
#include <boost/test/unit_test.hpp>

#include <cstring>

#include "loader/cfg.h"
#include "loader/loader.h"
#include "ptx/parser.h"
#include "sm/sm_core.h"
#include "common/run_kernel.h"

using namespace gpusim;

namespace {

using test::TestMemory;

TestMemory run(const std::string& body, uint32_t block, uint32_t grid = 1) { return test::run_kernel(body, block, grid); }

// out[tid] = f(tid) with nested if/else on bits of tid.
const char* kNested = R"(
.visible .entry k(.param .u64 out)
{
    .reg .pred %p<4>;
    .reg .b32 %r<8>;
    .reg .b64 %rd<4>;
    ld.param.u64 %rd1, [out];
    mov.u32 %r1, %tid.x;
    mov.u32 %r2, 0;
    and.b32 %r3, %r1, 1;
    setp.eq.u32 %p1, %r3, 0;
    @%p1 bra EVEN;
    and.b32 %r4, %r1, 2;
    setp.eq.u32 %p2, %r4, 0;
    @%p2 bra ODD_LOW;
    add.u32 %r2, %r2, 100;
    bra ODD_JOIN;
ODD_LOW:
    add.u32 %r2, %r2, 200;
ODD_JOIN:
    add.u32 %r2, %r2, 1;
    bra JOIN;
EVEN:
    and.b32 %r5, %r1, 4;
    setp.ne.u32 %p3, %r5, 0;
    @%p3 add.u32 %r2, %r2, 1000;
    add.u32 %r2, %r2, 2;
JOIN:
    add.u32 %r2, %r2, %r1;
    mul.wide.u32 %rd2, %r1, 4;
    add.s64 %rd3, %rd1, %rd2;
    st.global.u32 [%rd3], %r2;
    ret;
})";

} // namespace

BOOST_AUTO_TEST_CASE(nested_divergence_reconverges) {
    TestMemory mem = run(kNested, 64);
    for (uint32_t t = 0; t < 64; ++t) {
        uint32_t want = (t & 1) ? ((t & 2) ? 101 : 201) : ((t & 4) ? 1002 : 2);
        BOOST_TEST(mem.u32(t) == want + t, "thread " << t);
    }
}

BOOST_AUTO_TEST_CASE(loop_with_break_and_continue) {
    // for (i = 0; i < tid; ++i) { if (i % 3 == 0) continue; if (i > 20) break; sum += i; }
    TestMemory mem = run(R"(
.visible .entry k(.param .u64 out)
{
    .reg .pred %p<4>;
    .reg .b32 %r<8>;
    .reg .b64 %rd<4>;
    ld.param.u64 %rd1, [out];
    mov.u32 %r1, %tid.x;
    mov.u32 %r2, 0;
    mov.u32 %r3, 0;
LOOP:
    setp.ge.u32 %p1, %r3, %r1;
    @%p1 bra DONE;
    rem.u32 %r4, %r3, 3;
    setp.eq.u32 %p2, %r4, 0;
    @%p2 bra NEXT;
    setp.gt.u32 %p3, %r3, 20;
    @%p3 bra DONE;
    add.u32 %r2, %r2, %r3;
NEXT:
    add.u32 %r3, %r3, 1;
    bra LOOP;
DONE:
    mul.wide.u32 %rd2, %r1, 4;
    add.s64 %rd3, %rd1, %rd2;
    st.global.u32 [%rd3], %r2;
    ret;
})", 64);
    for (uint32_t t = 0; t < 64; ++t) {
        uint32_t sum = 0;
        for (uint32_t i = 0; i < t; ++i) {
            if (i % 3 == 0) continue;
            if (i > 20) break;
            sum += i;
        }
        BOOST_TEST(mem.u32(t) == sum, "thread " << t);
    }
}

BOOST_AUTO_TEST_CASE(early_exit_then_barrier_and_shared_memory) {
    // Threads with tid % 4 == 3 exit early; the rest write tid to shared, sync, and read a neighbour.
    TestMemory mem = run(R"(
.shared .align 4 .b8 buf[512];
.visible .entry k(.param .u64 out)
{
    .reg .pred %p<3>;
    .reg .b32 %r<10>;
    .reg .b64 %rd<4>;
    ld.param.u64 %rd1, [out];
    mov.u32 %r1, %tid.x;
    and.b32 %r2, %r1, 3;
    setp.eq.u32 %p1, %r2, 3;
    @%p1 bra OUT;
    mov.u32 %r3, buf;
    shl.b32 %r4, %r1, 2;
    add.u32 %r5, %r3, %r4;
    st.shared.u32 [%r5], %r1;
    bar.sync 0;
    xor.b32 %r6, %r1, 1;
    shl.b32 %r7, %r6, 2;
    add.u32 %r8, %r3, %r7;
    ld.shared.u32 %r9, [%r8];
    mul.wide.u32 %rd2, %r1, 4;
    add.s64 %rd3, %rd1, %rd2;
    st.global.u32 [%rd3], %r9;
OUT:
    ret;
})", 128);
    for (uint32_t t = 0; t < 128; ++t) {
        uint32_t want = ((t & 3) == 3 || ((t ^ 1) & 3) == 3) ? 0 : (t ^ 1);
        BOOST_TEST(mem.u32(t) == want, "thread " << t);
    }
}

BOOST_AUTO_TEST_CASE(whole_warps_exiting_before_a_barrier_do_not_deadlock) {
    TestMemory mem = run(R"(
.visible .entry k(.param .u64 out)
{
    .reg .pred %p<2>;
    .reg .b32 %r<4>;
    .reg .b64 %rd<4>;
    ld.param.u64 %rd1, [out];
    mov.u32 %r1, %tid.x;
    setp.ge.u32 %p1, %r1, 64;
    @%p1 bra OUT;
    bar.sync 0;
    mul.wide.u32 %rd2, %r1, 4;
    add.s64 %rd3, %rd1, %rd2;
    st.global.u32 [%rd3], 7;
OUT:
    ret;
})", 128);
    for (uint32_t t = 0; t < 128; ++t) BOOST_TEST(mem.u32(t) == (t < 64 ? 7u : 0u));
}

BOOST_AUTO_TEST_CASE(out_of_range_access_faults_with_block_thread_and_instruction) {
    const char* k = R"(
.visible .entry k(.param .u64 out)
{
    .reg .b32 %r<3>;
    .reg .b64 %rd<4>;
    ld.param.u64 %rd1, [out];
    mov.u32 %r1, %tid.x;
    mul.wide.u32 %rd2, %r1, 65536;
    add.s64 %rd3, %rd1, %rd2;
    st.global.u32 [%rd3], %r1;
    ret;
})";
    try {
        run(k, 32, 2);
        BOOST_FAIL("expected a fault");
    } catch (const KernelFault& f) {
        BOOST_TEST(std::string(f.what()) ==
                   "kernel 'k' faulted: block (0,0,0) thread (1,0,0) (warp 0, lane 1): 'st.global.u32' at k.ptx:13: global write of 4 bytes "
                   "at address 0x11000 (address is not mapped): a null pointer, or an offset from one");
    }
}

BOOST_AUTO_TEST_CASE(post_dominators_of_a_diamond_and_a_loop) {
    using loader::Flow;
    // 0: bra.cond 3 | 1: x | 2: bra 4 | 3: y | 4: z (join) | 5: bra.cond 4 (loop) | 6: exit
    std::vector<Flow> f(7);
    f[0] = {Flow::Kind::Branch, true, 3, {}};
    f[2] = {Flow::Kind::Branch, false, 4, {}};
    f[5] = {Flow::Kind::Branch, true, 4, {}};
    f[6] = {Flow::Kind::Exit, false, 0, {}};
    loader::ControlFlowGraph g(f);
    BOOST_TEST(g.reconvergence_pc(g.block_of(0), 999) == 4u);
    BOOST_TEST(g.reconvergence_pc(g.block_of(5), 999) == 6u);
    // A branch whose one side exits only reconverges at the exit.
    std::vector<Flow> h(4);
    h[0] = {Flow::Kind::Branch, true, 2, {}};
    h[1] = {Flow::Kind::Exit, false, 0, {}};
    h[3] = {Flow::Kind::Exit, false, 0, {}};
    loader::ControlFlowGraph g2(h);
    BOOST_TEST(g2.reconvergence_pc(g2.block_of(0), 999) == 999u);
}

// set turns a comparison of any source type into a value: all ones for .u32/.s32, 1.0f for .f32,
// and one 16-bit result per half for .f16x2 sources; .and combines with a predicate first.
BOOST_AUTO_TEST_CASE(set_writes_each_destination_type) {
    TestMemory mem = run(R"(
.visible .entry k(.param .u64 out)
{
    .reg .pred %p1;
    .reg .b32 %r<12>;
    .reg .f32 %f1;
    .reg .b64 %rd<4>;
    ld.param.u64 %rd1, [out];
    mov.u32 %r1, %tid.x;
    cvt.rn.f32.u32 %f1, %r1;
    set.lt.u32.s32 %r2, %r1, 5;
    set.gt.f32.f32 %r3, %f1, 0f40400000;
    setp.ne.u32 %p1, %r1, 7;
    set.ge.and.s32.u32 %r4, %r1, 6, %p1;
    // f16x2: low half 1.0 (0x3C00), high half tid as f16 compared with 2.0 (0x4000)
    cvt.rn.f16.f32 %r5, %f1;
    shl.b32 %r5, %r5, 16;
    or.b32 %r5, %r5, 0x3C00;
    set.le.u32.f16x2 %r6, %r5, 0x40004000;
    set.le.f16x2.f16x2 %r7, %r5, 0x40004000;
    mul.wide.u32 %rd2, %r1, 20;
    add.u64 %rd3, %rd1, %rd2;
    st.global.v4.u32 [%rd3], {%r2, %r3, %r4, %r6};
    st.global.u32 [%rd3+16], %r7;
    ret;
})", 32);
    for (uint32_t t = 0; t < 32; ++t) {
        BOOST_TEST(mem.u32(5 * t) == (t < 5 ? 0xFFFFFFFFu : 0u), "thread " << t);
        BOOST_TEST(mem.u32(5 * t + 1) == (t > 3 ? 0x3F800000u : 0u), "thread " << t);
        BOOST_TEST(mem.u32(5 * t + 2) == (t >= 6 && t != 7 ? 0xFFFFFFFFu : 0u), "thread " << t);
        BOOST_TEST(mem.u32(5 * t + 3) == (t <= 2 ? 0xFFFFFFFFu : 0x0000FFFFu), "thread " << t);
        BOOST_TEST(mem.u32(5 * t + 4) == (t <= 2 ? 0x3C003C00u : 0x00003C00u), "thread " << t);
    }
}

// What nvcc emits for real programs: WARP_SZ for warpSize; a 32-bit shared address with a negative
// intermediate (thread 0's %r6 is 0 - 64, which only [%r6+64] wrapping modulo 2^32 brings back to
// 0, as Rodinia's needle relies on); %clock advancing with the work in functional mode; nanosleep
// (cuda::barrier's back-off), which may sleep for no time at all; griddepcontrol (sm_90's
// cudaGridDependencySynchronize and cudaTriggerProgrammaticLaunchCompletion), which has nothing to
// wait for or release when grids run one after the other.
BOOST_AUTO_TEST_CASE(warp_sz_wrapping_shared_addresses_and_a_moving_functional_clock) {
    TestMemory mem = run(R"(
.visible .entry k(.param .u64 out)
{
    .reg .b32 %r<12>;
    .reg .b64 %rd<4>;
    .shared .align 4 .b8 buf[256];
    ld.param.u64 %rd1, [out];
    mov.u32 %r1, %tid.x;
    mov.u32 %r2, WARP_SZ;
    mov.u32 %r3, buf;
    shl.b32 %r4, %r1, 2;
    add.u32 %r5, %r3, %r4;
    st.shared.u32 [%r5], %r1;
    nanosleep.u32 100;
    griddepcontrol.wait;
    griddepcontrol.launch_dependents;
    bar.sync 0;
    sub.u32 %r6, %r5, 64;
    ld.shared.u32 %r7, [%r6+64];
    mov.u32 %r8, %clock;
    add.u32 %r9, %r1, 1;
    add.u32 %r9, %r9, 1;
    add.u32 %r9, %r9, 1;
    mov.u32 %r10, %clock;
    sub.u32 %r10, %r10, %r8;
    mul.wide.u32 %rd2, %r1, 12;
    add.u64 %rd3, %rd1, %rd2;
    st.global.v2.u32 [%rd3], {%r2, %r7};
    st.global.u32 [%rd3+8], %r10;
    ret;
})", 64);
    for (uint32_t t = 0; t < 64; ++t) {
        BOOST_TEST(mem.u32(3 * t) == 32u, "thread " << t);
        BOOST_TEST(mem.u32(3 * t + 1) == t, "thread " << t);
        BOOST_TEST(mem.u32(3 * t + 2) >= 1u, "thread " << t);   // four instructions issued between the reads
        BOOST_TEST(mem.u32(3 * t + 2) < 100u, "thread " << t);
    }
}

BOOST_AUTO_TEST_CASE(special_registers_the_model_cannot_answer_are_named) {
    const std::string cluster = R"(
.visible .entry k(.param .u64 out)
{
    .reg .b32 %r<2>;
    mov.u32 %r1, %clusterid.x;
    ret;
})";
    try {
        run(cluster, 32);
        BOOST_FAIL("a cluster register was accepted");
    } catch (const ptx::PtxError& e) {
        BOOST_TEST(std::string(e.what()).find("'%clusterid.x' is not supported: it belongs to thread-block clusters") !=
                   std::string::npos, e.what());
    }
    // %envreg<k> is what the launch provides: 0 when it provides nothing.
    TestMemory mem = run(R"(
.visible .entry k(.param .u64 out)
{
    .reg .b32 %r<3>;
    .reg .b64 %rd<2>;
    ld.param.u64 %rd1, [out];
    mov.u32 %r1, %envreg5;
    add.u32 %r2, %r1, 7;
    st.global.u32 [%rd1], %r2;
    ret;
})", 1);
    BOOST_TEST(mem.u32(0) == 7u);
}

// Only the registers a thread may read before writing them start at zero: written on one path
// only, written under a guard, read by a shuffle (another lane's value) or never written.
// Everything written on every path before its reads is left as the warp slot held it.
BOOST_AUTO_TEST_CASE(only_registers_read_before_written_are_cleared) {
    const std::string src = std::string(test::kPtxHeader) + R"(
.visible .entry k(.param .u64 out)
{
    .reg .pred %p<3>;
    .reg .b32 %r<10>;
    .reg .b64 %rd<3>;
    ld.param.u64 %rd1, [out];
    mov.u32 %r1, %tid.x;
    setp.eq.u32 %p1, %r1, 0;
    @%p1 bra SKIP;
    mov.u32 %r2, 5;
SKIP:
    add.u32 %r3, %r2, %r1;
    @%p1 mov.u32 %r4, 1;
    add.u32 %r5, %r4, %r3;
    shfl.sync.idx.b32 %r6, %r5, 0, 31, -1;
    add.u32 %r7, %r8, %r6;
    mul.wide.u32 %rd2, %r1, 4;
    add.s64 %rd2, %rd2, %rd1;
    st.global.u32 [%rd2], %r7;
    ret;
})";
    ptx::Module m = ptx::parse("k.ptx", src);
    auto img = loader::decode_kernel(m, m.functions[0], {});
    BOOST_REQUIRE(!img->zero_all_rows);
    // The decoder gives each PTX register its own row, in declaration order: %r0.. then %rd0...
    const Row r0 = img->functions[0].first_row;
    auto cleared = [&](int reg) { return std::count(img->zero_rows.begin(), img->zero_rows.end(), r0 + reg) == 1; };
    BOOST_TEST(cleared(2));    // written on the fall-through path only
    BOOST_TEST(cleared(4));    // written under a guard
    BOOST_TEST(cleared(5));    // a shuffle reads it from another lane
    BOOST_TEST(cleared(8));    // never written
    for (int reg : {1, 3, 6, 7}) BOOST_TEST(!cleared(reg), "%r" << reg << " is written before every read");
    // And the kernel computes with zeros there: r7 = shfl(r5 of lane 0) = r4 + r3 of lane 0 = 1 + (0 + 0).
    TestMemory mem = run(src.substr(std::string(test::kPtxHeader).size()), 32);
    for (uint32_t t = 0; t < 32; ++t) BOOST_TEST(mem.u32(t) == 1u, "lane " << t);
}

// cp.async of 16 bytes with src-size = tid: the bytes past it arrive as zeros; a src-size above
// the copy size is a fault that names the sizes.
const char* kCpAsync = R"(
.shared .align 16 .b8 buf[512];
.visible .entry k(.param .u64 out)
{
    .reg .b32 %r<12>;
    .reg .b64 %rd<8>;
    ld.param.u64 %rd1, [out];
    mov.u32 %r1, %tid.x;
    mul.wide.u32 %rd2, %r1, 16;
    add.s64 %rd3, %rd1, %rd2;
    add.s64 %rd3, %rd3, 4096;
    mov.u32 %r2, 0x04030201;
    st.global.v4.u32 [%rd3], {%r2, %r2, %r2, %r2};
    mov.u32 %r3, buf;
    shl.b32 %r4, %r1, 4;
    add.u32 %r5, %r3, %r4;
    cp.async.cg.shared.global [%r5], [%rd3], 16, %r1;
    cp.async.commit_group;
    cp.async.wait_group 0;
    ld.shared.v4.u32 {%r6, %r7, %r8, %r9}, [%r5];
    add.s64 %rd4, %rd1, %rd2;
    st.global.v4.u32 [%rd4], {%r6, %r7, %r8, %r9};
    ret;
})";

BOOST_AUTO_TEST_CASE(cp_async_zero_fills_past_its_source_size) {
    TestMemory mem = run(kCpAsync, 17);
    for (uint32_t t = 0; t < 17; ++t)
        for (uint32_t k = 0; k < 16; ++k) BOOST_TEST(mem.bytes[16 * t + k] == (k < t ? k % 4 + 1 : 0), "thread " << t << " byte " << k);
    try {
        run(kCpAsync, 18);
        BOOST_FAIL("expected a fault");
    } catch (const KernelFault& f) {
        BOOST_TEST(std::string(f.what()).find("thread (17,0,0)") != std::string::npos, f.what());
        BOOST_TEST(std::string(f.what()).find("cp.async source size 17 is larger than its copy size 16") != std::string::npos, f.what());
    }
}

BOOST_AUTO_TEST_CASE(an_mbarrier_outside_shared_memory_faults) {
    try {
        run(R"(
.visible .entry k(.param .u64 out)
{
    .reg .b64 %rd<2>;
    ld.param.u64 %rd1, [out];
    mbarrier.init.b64 [%rd1], 1;
    ret;
})", 32);
        BOOST_FAIL("expected a fault");
    } catch (const KernelFault& f) {
        BOOST_TEST(std::string(f.what()).find("an mbarrier object must be in shared memory") != std::string::npos, f.what());
    }
}

// Warp 1 waits on the phase that warp 0's arrivals complete: the spinning try_wait lets the other
// warp run, and the data warp 0 stored before arriving is what warp 1 reads after the phase.
BOOST_AUTO_TEST_CASE(mbarrier_phases_hand_data_between_warps) {
    TestMemory mem = run(R"(
.shared .align 8 .b64 bar;
.shared .align 4 .b8 data[128];
.visible .entry k(.param .u64 out)
{
    .reg .pred %p<4>;
    .reg .b32 %r<12>;
    .reg .b64 %rd<6>;
    ld.param.u64 %rd1, [out];
    mov.u32 %r1, %tid.x;
    mov.u32 %r2, bar;
    setp.ne.u32 %p1, %r1, 0;
    @%p1 bra SYNC;
    mbarrier.init.shared.b64 [%r2], 32;
SYNC:
    bar.sync 0;
    and.b32 %r3, %r1, 31;
    mov.u32 %r4, data;
    shl.b32 %r5, %r3, 2;
    add.u32 %r6, %r4, %r5;
    setp.ge.u32 %p2, %r1, 32;
    @%p2 bra CONSUMER;
    mul.lo.u32 %r7, %r1, 7;
    st.shared.u32 [%r6], %r7;
    mbarrier.arrive.shared.b64 %rd2, [%r2];
    mbarrier.pending_count.b64 %r8, %rd2;
    bra.uni STORE;
CONSUMER:
    mbarrier.try_wait.parity.shared.b64 %p3, [%r2], 0;
    @!%p3 bra CONSUMER;
    xor.b32 %r9, %r5, 4;
    add.u32 %r10, %r4, %r9;
    ld.shared.u32 %r8, [%r10];
STORE:
    mul.wide.u32 %rd3, %r1, 4;
    add.s64 %rd4, %rd1, %rd3;
    st.global.u32 [%rd4], %r8;
    ret;
})", 64);
    for (uint32_t t = 0; t < 32; ++t) BOOST_TEST(mem.u32(t) == 32 - t, "thread " << t);   // pending before each arrival
    for (uint32_t t = 32; t < 64; ++t) BOOST_TEST(mem.u32(t) == ((t - 32) ^ 1) * 7, "thread " << t);
}
