// Calls on SmCore: both parameter conventions, recursion with live registers, calls and returns
// under divergence, indirect calls to different functions in one warp, frames of recursive
// activations, brx.idx jump tables, pmevent counters, and the faults of each.
#define BOOST_TEST_MODULE calls
#include <boost/test/unit_test.hpp>

#include "common/run_kernel.h"

using namespace gpusim;
using test::run_kernel;
using test::TestMemory;

namespace {

// Stores %r9 of each thread to out[tid]; the kernel body goes between the two halves.
std::string kernel(const std::string& decls, const std::string& body) {
    return decls + R"(
.visible .entry k(.param .u64 out)
{
    .reg .pred %p<4>;
    .reg .b32 %r<10>;
    .reg .b64 %rd<10>;
    mov.u32 %r1, %tid.x;
)" + body + R"(
    ld.param.u64 %rd1, [out];
    mul.wide.u32 %rd2, %r1, 4;
    add.u64 %rd3, %rd1, %rd2;
    st.global.u32 [%rd3], %r9;
    ret;
}
)";
}

std::string fault_of(const std::string& ptx, uint32_t block, const SmConfig& cfg = SmConfig{}) {
    try {
        run_kernel(ptx, block, 1, nullptr, cfg);
    } catch (const KernelFault& f) {
        return f.what();
    }
    return "";
}

// %r9 = (*%rd7)(%r1), an indirect call with a prototype.
const char* kCallThroughRd7 = R"(
    {
    .param .b32 a0;
    .param .b32 r0;
    st.param.b32 [a0], %r1;
    proto: .callprototype (.param .b32 _) _ (.param .b32 _);
    call (r0), %rd7, (a0), proto;
    ld.param.b32 %r9, [r0];
    }
)";

uint32_t fib(uint32_t n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

const char* kFib = R"(
.func (.param .b32 rv) fib (.param .b32 n)
{
    .reg .pred %p;
    .reg .b32 %r<5>;
    ld.param.u32 %r1, [n];
    setp.lt.u32 %p, %r1, 2;
    @%p bra DONE;
    add.u32 %r2, %r1, -1;
    {
    .param .b32 a0;
    .param .b32 r0;
    st.param.b32 [a0], %r2;
    call.uni (r0), fib, (a0);
    ld.param.b32 %r3, [r0];
    }
    add.u32 %r2, %r1, -2;
    {
    .param .b32 a0;
    .param .b32 r0;
    st.param.b32 [a0], %r2;
    call.uni (r0), fib, (a0);
    ld.param.b32 %r4, [r0];
    }
    add.u32 %r1, %r3, %r4;
DONE:
    st.param.b32 [rv], %r1;
    ret;
}
)";

} // namespace

BOOST_AUTO_TEST_CASE(register_parameters_and_immediate_arguments) {
    TestMemory mem = run_kernel(kernel(R"(
.func (.reg .u32 %res) mix (.reg .u32 %x, .reg .u32 %y)
{
    mad.lo.u32 %res, %x, 3, %y;
    ret;
}
)", "    call (%r9), mix, (%r1, 100);\n"), 64);
    for (uint32_t t = 0; t < 64; ++t) BOOST_TEST(mem.u32(t) == 3 * t + 100, "thread " << t);
}

// Every thread recurses to its own depth; %r3 lives across the second call of each activation.
BOOST_AUTO_TEST_CASE(divergent_recursion_keeps_each_activation_registers) {
    TestMemory mem = run_kernel(kernel(kFib, R"(
    rem.u32 %r2, %r1, 13;
    {
    .param .b32 a0;
    .param .b32 r0;
    st.param.b32 [a0], %r2;
    call.uni (r0), fib, (a0);
    ld.param.b32 %r9, [r0];
    }
)"), 64);
    for (uint32_t t = 0; t < 64; ++t) BOOST_TEST(mem.u32(t) == fib(t % 13), "thread " << t);
}

// Only odd threads call; inside, threads above 20 return early through a guarded ret.
BOOST_AUTO_TEST_CASE(guarded_call_and_early_return) {
    TestMemory mem = run_kernel(kernel(R"(
.func (.param .b32 rv) twice_small (.param .b32 x)
{
    .reg .pred %p;
    .reg .b32 %r<3>;
    ld.param.u32 %r1, [x];
    setp.gt.u32 %p, %r1, 20;
    mov.u32 %r2, 1000;
    st.param.b32 [rv], %r2;
    @%p ret;
    shl.b32 %r2, %r1, 1;
    st.param.b32 [rv], %r2;
    ret;
}
)", R"(
    mov.u32 %r9, 7;
    and.b32 %r2, %r1, 1;
    setp.eq.u32 %p1, %r2, 1;
    {
    .param .b32 a0;
    .param .b32 r0;
    st.param.b32 [a0], %r1;
    @%p1 call.uni (r0), twice_small, (a0);
    @%p1 ld.param.b32 %r9, [r0];
    }
)"), 64);
    for (uint32_t t = 0; t < 64; ++t) {
        uint32_t want = t % 2 == 0 ? 7 : t > 20 ? 1000 : 2 * t;
        BOOST_TEST(mem.u32(t) == want, "thread " << t);
    }
}

// One call instruction reaches three functions in one warp; each group runs in turn.
BOOST_AUTO_TEST_CASE(indirect_calls_with_different_targets) {
    const char* funcs = R"(
.func (.param .b32 rv) inc (.param .b32 x) { .reg .b32 %v; ld.param.u32 %v, [x]; add.u32 %v, %v, 1; st.param.b32 [rv], %v; ret; }
.func (.param .b32 rv) dbl (.param .b32 x) { .reg .b32 %v; ld.param.u32 %v, [x]; shl.b32 %v, %v, 1; st.param.b32 [rv], %v; ret; }
.func (.param .b32 rv) neg (.param .b32 x) { .reg .b32 %v; ld.param.u32 %v, [x]; neg.s32 %v, %v; st.param.b32 [rv], %v; ret; }
)";
    TestMemory mem = run_kernel(kernel(funcs, R"(
    mov.u64 %rd4, inc;
    mov.u64 %rd5, dbl;
    mov.u64 %rd6, neg;
    rem.u32 %r2, %r1, 3;
    setp.eq.u32 %p1, %r2, 0;
    setp.eq.u32 %p2, %r2, 2;
    selp.b64 %rd7, %rd4, %rd5, %p1;
    @%p2 mov.u64 %rd7, %rd6;
)" + std::string(kCallThroughRd7)), 64);
    for (uint32_t t = 0; t < 64; ++t) {
        uint32_t want = t % 3 == 0 ? t + 1 : t % 3 == 1 ? 2 * t : uint32_t(-int32_t(t));
        BOOST_TEST(mem.u32(t) == want, "thread " << t);
    }
}

BOOST_AUTO_TEST_CASE(indirect_call_to_a_non_function_faults) {
    std::string f = fault_of(kernel(R"(
.func (.param .b32 rv) inc (.param .b32 x) { .reg .b32 %v; ld.param.u32 %v, [x]; st.param.b32 [rv], %v; ret; }
)", R"(
    mov.u64 %rd7, 0x1234;
)" + std::string(kCallThroughRd7)), 32);
    BOOST_TEST(f.find("address 0x1234, which is not a device function") != std::string::npos, f);
    BOOST_TEST(f.find("thread (0,0,0)") != std::string::npos, f);
}

// Each activation has its own frame: a child writes its parent's local variable through a pointer.
BOOST_AUTO_TEST_CASE(recursive_frames_are_distinct) {
    TestMemory mem = run_kernel(kernel(R"(
.func (.param .b32 rv) walk (.param .b32 n, .param .b64 parent)
{
    .local .align 4 .b8 slot[4];
    .reg .pred %p<3>;
    .reg .b32 %r<6>;
    .reg .b64 %rd<4>;
    ld.param.u32 %r1, [n];
    ld.param.u64 %rd1, [parent];
    mov.u64 %rd2, slot;
    st.local.u32 [%rd2], %r1;
    setp.ne.u64 %p1, %rd1, 0;
    @!%p1 bra NOPARENT;
    ld.local.u32 %r3, [%rd1];
    add.u32 %r3, %r3, 100;
    st.local.u32 [%rd1], %r3;
NOPARENT:
    mov.u32 %r5, 0;
    setp.eq.u32 %p2, %r1, 0;
    @%p2 bra OUT;
    add.u32 %r2, %r1, -1;
    {
    .param .b32 a0;
    .param .b64 a1;
    .param .b32 r0;
    st.param.b32 [a0], %r2;
    st.param.b64 [a1], %rd2;
    call.uni (r0), walk, (a0, a1);
    ld.param.b32 %r5, [r0];
    }
OUT:
    ld.local.u32 %r4, [%rd2];
    add.u32 %r4, %r4, %r5;
    st.param.b32 [rv], %r4;
    ret;
}
)", R"(
    rem.u32 %r2, %r1, 6;
    {
    .param .b32 a0;
    .param .b64 a1;
    .param .b32 r0;
    st.param.b32 [a0], %r2;
    st.param.b64 [a1], 0;
    call.uni (r0), walk, (a0, a1);
    ld.param.b32 %r9, [r0];
    }
)"), 64);
    for (uint32_t t = 0; t < 64; ++t) {
        uint32_t want = 0;
        for (uint32_t k = 1; k <= t % 6; ++k) want += k + 100;
        BOOST_TEST(mem.u32(t) == want, "thread " << t);
    }
}

BOOST_AUTO_TEST_CASE(unbounded_recursion_overflows_the_configured_stack) {
    const std::string ptx = kernel(R"(
.func down (.param .b32 n)
{
    .reg .b32 %r<3>;
    ld.param.u32 %r1, [n];
    add.u32 %r2, %r1, 1;
    {
    .param .b32 a0;
    st.param.b32 [a0], %r2;
    call.uni down, (a0);
    }
    ret;
}
)", R"(
    mov.u32 %r9, 0;
    {
    .param .b32 a0;
    st.param.b32 [a0], %r1;
    call.uni down, (a0);
    }
)");
    SmConfig cfg;
    cfg.stack_bytes = 256;
    std::string f = fault_of(ptx, 32, cfg);
    // Each activation of `down` takes 16 bytes above its caller: 256 bytes hold 16 of them.
    BOOST_TEST(f.find("stack overflow calling 'down' at call depth 17") != std::string::npos, f);
    BOOST_TEST(f.find("in function 'down'") != std::string::npos, f);
}

// Threads 0-47 jump through the table by tid & 3; threads 48-63 have a false guard and fall through.
BOOST_AUTO_TEST_CASE(brx_idx_divergent_targets_and_fall_through) {
    TestMemory mem = run_kernel(kernel("", R"(
    and.b32 %r2, %r1, 3;
    setp.lt.u32 %p1, %r1, 48;
    {
    tab: .branchtargets L0, L1, L2, L3;
    @%p1 brx.idx %r2, tab;
    }
    mov.u32 %r3, 99;
    bra.uni J;
L0: mov.u32 %r3, 10;
    bra.uni J;
L1: mov.u32 %r3, 11;
    bra.uni J;
L2: mov.u32 %r3, 12;
    bra.uni J;
L3: mov.u32 %r3, 13;
J:  add.u32 %r9, %r3, %r1;
)"), 64);
    for (uint32_t t = 0; t < 64; ++t) {
        uint32_t want = (t < 48 ? 10 + (t & 3) : 99) + t;
        BOOST_TEST(mem.u32(t) == want, "thread " << t);
    }
}

BOOST_AUTO_TEST_CASE(brx_idx_out_of_range_faults) {
    std::string f = fault_of(kernel("", R"(
    and.b32 %r2, %r1, 7;
    tab: .branchtargets L0, L1;
    brx.idx %r2, tab;
L0: mov.u32 %r9, 1;
L1: mov.u32 %r9, 2;
)"), 32);
    BOOST_TEST(f.find("brx.idx index 2 is outside its table of 2 targets") != std::string::npos, f);
    BOOST_TEST(f.find("thread (2,0,0)") != std::string::npos, f);
}

BOOST_AUTO_TEST_CASE(trap_faults_the_kernel) {
    std::string f = fault_of(kernel("", "    mov.u32 %r9, 0;\n    setp.eq.u32 %p1, %r1, 5;\n    @%p1 trap;\n"), 32);
    BOOST_TEST(f.find("thread (5,0,0) (warp 0, lane 5): 'trap' at k.ptx") != std::string::npos, f);
    BOOST_TEST(f.find("trap instruction executed") != std::string::npos, f);
}

// Counters count warps: warp 0 triggers 0, 1 and 7; warp 1 only 1.
BOOST_AUTO_TEST_CASE(pmevent_counts_once_per_warp) {
    SmStats st;
    run_kernel(kernel("", R"(
    mov.u32 %r9, 0;
    pmevent 1;
    setp.lt.u32 %p1, %r1, 16;
    @%p1 pmevent.mask 0x81;
)"), 64, 1, &st);
    BOOST_TEST(st.pm_events[0] == 1u);
    BOOST_TEST(st.pm_events[1] == 2u);
    BOOST_TEST(st.pm_events[7] == 1u);
    BOOST_TEST(st.pm_events[2] == 0u);
}

BOOST_AUTO_TEST_CASE(load_time_errors_name_the_problem) {
    auto errors_of = [](const std::string& body) {
        ptx::Module m = ptx::parse("k.ptx", std::string(test::kPtxHeader) + body);
        std::string all;
        for (const auto& e : loader::check_module(m)) all += std::string(e.what()) + "\n";
        return all;
    };
    std::string e = errors_of(kernel("", "    mov.u32 %r9, 0;\n    pmevent 9;\n"));
    BOOST_TEST(e.find("pmevent counters 8-15 are reserved") != std::string::npos, e);
    e = errors_of(kernel(".extern .func ext (.param .b32 x);\n", "    mov.u32 %r9, 0;\n    { .param .b32 a0; st.param.b32 [a0], %r1; call.uni ext, (a0); }\n"));
    BOOST_TEST(e.find("call to 'ext', which has no body in this module") != std::string::npos, e);
    e = errors_of(kernel(kFib, "    mov.u32 %r9, 0;\n    { .param .b64 a0; .param .b32 r0; st.param.b64 [a0], %rd1; call.uni (r0), fib, (a0); }\n"));
    BOOST_TEST(e.find("argument 0 of the call is 8 bytes but 'fib' expects 4") != std::string::npos, e);
    // A function no kernel calls is still checked.
    e = errors_of(kernel(".func lonely () { .reg .b32 %x; frobnicate.b32 %x, %x; ret; }\n", "    mov.u32 %r9, 0;\n"));
    BOOST_TEST(e.find("frobnicate") != std::string::npos, e);
}
