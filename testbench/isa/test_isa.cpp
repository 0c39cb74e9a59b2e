// Testbench of the base room (rtl_models/isa): the operation registry's choice among units, the
// timing classes of instructions, the lane helpers of the execution core, the memory view's
// direct-access cache, and a launch's geometry.
#define BOOST_TEST_MODULE isa
#include <boost/test/unit_test.hpp>

#include <cstring>
#include <thread>
#include <vector>

#include "isa/exec_context.h"
#include "isa/lane_addresses.h"
#include "isa/launch.h"
#include "isa/memory_view.h"
#include "isa/op_class.h"
#include "isa/op_registry.h"
#include "isa/reports.h"

using namespace gpusim;

namespace {

void dummy_fn(ExecContext&, Warp&, const Inst&, LaneMask) {}
void other_fn(ExecContext&, Warp&, const Inst&, LaneMask) {}

// Recognisers of made-up units: "foo" takes foo.u32 and refuses foo.sat; "bar" takes bar and
// refuses every .sat form, even of opcodes that are not its own.
OpChoice foo_unit(const OpSpec& s) {
    OpChoice c;
    if (s.opcode != "foo") return c;
    if (s.has("sat")) c.error = "'foo': .sat does not apply";
    else c.fn = dummy_fn, c.layout = Layout::D_A_B;
    return c;
}
OpChoice bar_unit(const OpSpec& s) {
    OpChoice c;
    if (s.has("sat")) c.error = "bar refuses every .sat";
    else if (s.opcode == "bar") c.fn = other_fn;
    return c;
}
OpChoice greedy_unit(const OpSpec& s) {
    OpChoice c;
    if (s.opcode == "foo") c.fn = other_fn;
    return c;
}

} // namespace

BOOST_AUTO_TEST_CASE(the_registry_gives_each_instruction_to_the_unit_that_takes_it) {
    OpRegistry r;
    r.add("bar", bar_unit);
    r.add("foo", foo_unit);
    BOOST_TEST(r.size() == 2u);
    OpChoice c = r.select(OpSpec{"foo", {"u32"}});
    BOOST_TEST((c.fn == dummy_fn));
    BOOST_TEST((c.layout == Layout::D_A_B));
    BOOST_TEST((r.select(OpSpec{"bar", {}}).fn == other_fn));
    // Nobody takes it: the first refusal in the order of registration.
    BOOST_TEST(r.select(OpSpec{"foo", {"sat"}}).error == "bar refuses every .sat");
    // Nobody knows it.
    OpChoice none = r.select(OpSpec{"baz", {"b32", "x"}});
    BOOST_TEST(!none.fn);
    BOOST_TEST(none.error == "unsupported instruction 'baz.b32.x'");
}

BOOST_AUTO_TEST_CASE(a_taker_wins_over_a_refusal_whatever_the_order) {
    for (bool bar_first : {true, false}) {
        OpRegistry r;
        if (bar_first) r.add("bar", bar_unit);
        r.add("foo", foo_unit);
        if (!bar_first) r.add("bar", bar_unit);
        // bar refuses the .sat form of its own opcode only; foo takes foo.u32 in either order.
        BOOST_TEST((r.select(OpSpec{"foo", {"u32"}}).fn == dummy_fn));
    }
}

BOOST_AUTO_TEST_CASE(two_units_that_take_one_form_are_a_defect) {
    OpRegistry r;
    r.add("foo", foo_unit);
    r.add("greedy", greedy_unit);
    const OpChoice c = r.select(OpSpec{"foo", {"u32"}});
    BOOST_TEST(!c.fn);
    BOOST_TEST(c.error == "'foo.u32' is taken by two units, foo and greedy (a defect of the model)");
    BOOST_TEST(!r.select(OpSpec{"bar", {}}).fn);   // what only one knows is not affected
}

BOOST_AUTO_TEST_CASE(an_op_spec_names_its_types_and_modifiers) {
    OpSpec s{"cvt", {"rn", "f32", "s64"}};
    BOOST_TEST(s.type(0) == "f32");
    BOOST_TEST(s.type(1) == "s64");
    BOOST_TEST(s.type(2) == "");
    BOOST_TEST(s.has("rn"));
    BOOST_TEST(!s.has("rz"));
    BOOST_TEST(s.full_name() == "cvt.rn.f32.s64");
}

BOOST_AUTO_TEST_CASE(instructions_fall_into_their_timing_classes) {
    auto cls = [](std::string op, std::vector<std::string> mods) { return classify_op(OpSpec{std::move(op), std::move(mods)}); };
    BOOST_TEST(int(cls("add", {"s32"})) == int(OpClass::IntAdd));
    BOOST_TEST(int(cls("add", {"u64"})) == int(OpClass::Int64));
    BOOST_TEST(int(cls("mul", {"lo", "s32"})) == int(OpClass::IntMul));
    BOOST_TEST(int(cls("mul", {"lo", "s64"})) == int(OpClass::Int64Mul));
    BOOST_TEST(int(cls("div", {"u32"})) == int(OpClass::Int64Mul));
    BOOST_TEST(int(cls("mul24", {"lo", "u32"})) == int(OpClass::IntMul24));
    BOOST_TEST(int(cls("fma", {"rn", "f32"})) == int(OpClass::Fp32));
    BOOST_TEST(int(cls("fma", {"rn", "f64"})) == int(OpClass::Fp64));
    BOOST_TEST(int(cls("div", {"rn", "f64"})) == int(OpClass::Fp64Ieee));
    BOOST_TEST(int(cls("div", {"full", "f32"})) == int(OpClass::Fp32DivFull));
    BOOST_TEST(int(cls("div", {"approx", "f32"})) == int(OpClass::Fp32DivApprox));
    BOOST_TEST(int(cls("sqrt", {"approx", "f32"})) == int(OpClass::SfuSqrt));
    BOOST_TEST(int(cls("sin", {"approx", "f32"})) == int(OpClass::SfuTrig));
    BOOST_TEST(int(cls("ex2", {"approx", "f16"})) == int(OpClass::SfuTrig));
    BOOST_TEST(int(cls("add", {"f16x2"})) == int(OpClass::Fp16));
    BOOST_TEST(int(cls("cvt", {"rn", "f32", "s16"})) == int(OpClass::ConvNarrow));
    BOOST_TEST(int(cls("cvt", {"rn", "f64", "f32"})) == int(OpClass::Conv64));
    BOOST_TEST(int(cls("ld", {"global", "u32"})) == int(OpClass::Memory));
    BOOST_TEST(int(cls("tex", {"2d", "v4", "f32", "f32"})) == int(OpClass::Memory));
    BOOST_TEST(int(cls("bar", {"sync"})) == int(OpClass::Barrier));
    BOOST_TEST(int(cls("shfl", {"sync", "idx", "b32"})) == int(OpClass::Warp));
    BOOST_TEST(int(cls("vabsdiff4", {"u32", "u32", "u32"})) == int(OpClass::VideoAbsdiff));
    BOOST_TEST(int(cls("vadd", {"u32", "u32", "u32"})) == int(OpClass::Video));
}

BOOST_AUTO_TEST_CASE(classes_and_pipes_have_their_config_names) {
    BOOST_TEST(op_class_name(OpClass::IntAdd) == std::string("int_add"));
    BOOST_TEST(op_class_name(OpClass::SfuTrig) == std::string("sfu_trig"));
    BOOST_TEST(op_class_name(OpClass::Misc) == std::string("misc"));
    BOOST_TEST(pipe_name(PipeKind::Alu) == std::string("alu"));
    BOOST_TEST(pipe_name(PipeKind::Ctrl) == std::string("ctrl"));
    for (int k = 0; k < kOpClasses; ++k)   // every class has a distinct key
        for (int j = 0; j < k; ++j) BOOST_TEST(std::string(op_class_name(OpClass(k))) != op_class_name(OpClass(j)));
}

BOOST_AUTO_TEST_CASE(lane_helpers_count_group_and_visit_lanes) {
    BOOST_TEST(lane_count(0) == 0u);
    BOOST_TEST(lane_count(0xFFFFFFFFu) == 32u);
    BOOST_TEST(lane_count(0x80000001u) == 2u);
    BOOST_TEST(lane_group(16, 16) == 0xFFFF0000u);
    BOOST_TEST(lane_group(0, 32) == 0xFFFFFFFFu);
    BOOST_TEST(lane_group(8, 4) == 0x00000F00u);
    std::vector<int> seen;
    for_lanes(0x80000005u, [&](int l) { seen.push_back(l); });
    BOOST_TEST((seen == std::vector<int>{0, 2, 31}));
    seen.clear();
    for_lanes(0xFFFFFFFFu, [&](int l) { seen.push_back(l); });
    BOOST_TEST(seen.size() == 32u);
    // The full-warp path packs 32 conditions; a partial mask keeps only its lanes.
    BOOST_TEST(lane_mask(0xFFFFFFFFu, [](int l) { return l % 3 == 0; }) == 0x49249249u);
    BOOST_TEST(lane_mask(0x0000FFFFu, [](int l) { return l % 3 == 0; }) == 0x00009249u);
}

BOOST_AUTO_TEST_CASE(register_slots_hold_values_zero_or_sign_extended) {
    BOOST_TEST(get<float>(put(1.5f)) == 1.5f);
    BOOST_TEST(get<double>(put(-2.25)) == -2.25);
    BOOST_TEST(put(int8_t(-1)) == 0xFFu);                       // narrower values zero-extended
    BOOST_TEST(put(true) == 1u);
    BOOST_TEST(extend_to_register(0x80, 1, true, 4) == 0xFFFFFF80u);
    BOOST_TEST(extend_to_register(0x80, 1, true, 8) == 0xFFFFFFFFFFFFFF80u);
    BOOST_TEST(extend_to_register(0x80, 1, false, 4) == 0x80u);
    BOOST_TEST(extend_to_register(0x7F, 1, true, 4) == 0x7Fu);
    BOOST_TEST(extend_to_register(0x8000, 2, true, 0) == 0x8000u);   // register size unknown
}

BOOST_AUTO_TEST_CASE(a_32_bit_address_wraps_as_the_address_adder_does) {
    Inst in;
    in.offset = 8;
    BOOST_TEST(effective_address(0xFFFFFFFCu, in) == 0x100000004ull);
    in.dest_flags = kAddr32;
    BOOST_TEST(effective_address(0xFFFFFFFCu, in) == 4u);
    in.offset = -8;
    BOOST_TEST(effective_address(4, in) == 0xFFFFFFFCu);
}

BOOST_AUTO_TEST_CASE(distinct_addresses_count_their_lanes) {
    uint64_t addr[kWarpSize] = {};
    for (int l = 0; l < kWarpSize; ++l) addr[l] = 0x100 + 4 * (l % 4);
    AddressUse use[kWarpSize];
    BOOST_TEST(distinct_addresses(addr, 0xFFFFFFFFu, use) == 4u);
    BOOST_TEST(use[0].addr == 0x100u);
    BOOST_TEST(use[0].lanes == 8u);
    BOOST_TEST(use[3].addr == 0x10Cu);
    BOOST_TEST(deepest_address(addr, 0x00000011u) == 2u);   // lanes 0 and 4 name one word
    BOOST_TEST(deepest_address(addr, 0) == 0u);
}

namespace {

// A backend with one region of 4 KiB at 0x10000, readable and writable, and counters of what it was asked.
struct Region : MemoryBackend {
    std::vector<uint8_t> bytes = std::vector<uint8_t>(4096, 0);
    int dmi_asked = 0, transported = 0;
    bool writable = true;
    bool get_dmi(uint64_t addr, bool, uint64_t& start, uint64_t& end, uint8_t*& ptr, bool& w) override {
        ++dmi_asked;
        if (addr < 0x10000 || addr >= 0x11000) return false;
        start = 0x10000, end = 0x10FFF, ptr = bytes.data(), w = writable;
        return true;
    }
    bool transport(bool, uint64_t addr, uint8_t*, uint32_t) override {
        ++transported;
        return addr >= 0x20000 && addr < 0x21000;
    }
};

} // namespace

BOOST_AUTO_TEST_CASE(the_memory_view_caches_granted_regions) {
    Region backend;
    MemoryView view(&backend);
    uint8_t* p = view.direct(0x10010, 4, true);
    BOOST_TEST(p == backend.bytes.data() + 0x10);
    BOOST_TEST(view.direct(0x10020, 4, false) == backend.bytes.data() + 0x20);
    BOOST_TEST(backend.dmi_asked == 1);                         // the second access hit the cache
    BOOST_TEST(view.region(0x10000, 0x10FFF, false) == backend.bytes.data());
    BOOST_TEST(!view.region(0x10000, 0x11000, false));           // one byte past the region
    view.invalidate(0x10000, 0x10001);
    BOOST_TEST(!view.region(0x10000, 0x10003, false));
    BOOST_TEST(view.direct(0x20000, 4, false) == nullptr);      // no DMI there: b_transport
    uint8_t word[4];
    view.slow(false, 0x20000, word, 4);
    BOOST_TEST(backend.transported == 1);
}

namespace {

// Regions of 64 KiB, one at each multiple of `stride`: buffers as the driver's layout places them.
struct Strided : MemoryBackend {
    uint64_t stride;
    std::vector<uint8_t> bytes = std::vector<uint8_t>(65536, 0);
    int dmi_asked = 0;
    explicit Strided(uint64_t s) : stride(s) {}
    bool get_dmi(uint64_t addr, bool, uint64_t& start, uint64_t& end, uint8_t*& ptr, bool& w) override {
        ++dmi_asked;
        start = addr / stride * stride, end = start + 0xFFFF, ptr = bytes.data(), w = true;
        return addr <= end;
    }
    bool transport(bool, uint64_t, uint8_t*, uint32_t) override { return false; }
};

} // namespace

// A warp that reads two buffers and writes a third at the same offset, buffers a power of two
// apart: each keeps its own cache entry, so only the first access of each asks for DMI.
BOOST_AUTO_TEST_CASE(buffers_a_power_of_two_apart_keep_their_own_dmi_entries) {
    for (uint64_t stride : {2ull << 20, 4ull << 20, 16ull << 20, 256ull << 20}) {
        Strided backend(stride);
        MemoryView view(&backend);
        const uint64_t base = 0x7f0000000000ull;
        for (int round = 0; round < 8; ++round)
            for (uint64_t k = 0; k < 3; ++k) view.direct(base + k * stride + 4 * round, 4, k == 2);
        BOOST_TEST(backend.dmi_asked == 3, "stride " << (stride >> 20) << " MiB");
    }
}

BOOST_AUTO_TEST_CASE(the_memory_view_reports_faults_with_their_reason) {
    Region backend;
    MemoryView view(&backend);
    BOOST_CHECK_EXCEPTION(view.direct(0x10002, 4, false), AccessFault, [](const AccessFault& f) {
        return f.misaligned() && f.address == 0x10002u && f.size == 4u && !f.write;
    });
    uint8_t word[4];
    BOOST_CHECK_EXCEPTION(view.slow(true, 0x30000, word, 4), AccessFault, [](const AccessFault& f) {
        return !f.misaligned() && std::string(f.reason) == "address is not mapped" && f.write;
    });
    MemoryView unattached;
    BOOST_CHECK_EXCEPTION(unattached.direct(0x10000, 4, false), AccessFault, [](const AccessFault& f) {
        return std::string(f.reason) == "no memory attached";
    });
    backend.writable = false;   // a read-only grant is no use to a store
    MemoryView readonly(&backend);
    BOOST_TEST(readonly.direct(0x10000, 4, true) == nullptr);
}

BOOST_AUTO_TEST_CASE(a_launch_rounds_its_shared_memory_to_the_dynamic_alignment) {
    auto k = std::make_shared<KernelImage>();
    k->static_shared_bytes = 100;
    k->dynamic_shared_align = 16;
    LaunchInfo l;
    l.kernel = k;
    l.block = {48, 2, 1};
    BOOST_TEST(l.threads_per_cta() == 96u);
    BOOST_TEST(l.warps_per_cta() == 3u);
    BOOST_TEST(l.shared_per_cta() == 100u);       // no dynamic part: no rounding
    l.dynamic_shared = 8;
    BOOST_TEST(l.shared_per_cta() == 112u + 8u);  // 100 rounded to 16, then the dynamic bytes
    Dim3 g{3, 4, 5};
    BOOST_TEST(g.count() == 60u);
}

namespace {
std::vector<std::string> g_delivered;
void remember(const sc_core::sc_report& r, const sc_core::sc_actions&) { g_delivered.push_back(r.get_msg()); }
} // namespace

BOOST_AUTO_TEST_CASE(a_report_from_a_worker_waits_for_the_simulation_thread) {
    sc_core::sc_report_handler::set_handler(remember);
    reports::post(sc_core::SC_WARNING, reports::kRacecheck, "at once");
    BOOST_TEST(g_delivered.size() == 1u);
    std::thread worker([] {
        reports::mark_worker_thread();
        reports::post(sc_core::SC_WARNING, reports::kRacecheck, "first");
        reports::post(sc_core::SC_ERROR, reports::kLdst, "second");
    });
    worker.join();
    BOOST_TEST(g_delivered.size() == 1u);          // kept
    reports::deliver();
    BOOST_TEST((g_delivered == std::vector<std::string>{"at once", "first", "second"}));
    reports::deliver();                              // nothing twice
    BOOST_TEST(g_delivered.size() == 3u);
    BOOST_TEST(reports::is_model_type("gpusim/dma"));
    BOOST_TEST(!reports::is_model_type("SystemC/dma"));
    sc_core::sc_report_handler::set_handler(sc_core::sc_report_handler::default_handler);
}
