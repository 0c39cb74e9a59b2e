// The runtime API and the manifest runner over one elaborated GPU model: copies, launches,
// reference comparison, and a clear error for every kind of bad manifest.
#define BOOST_TEST_MODULE runtime
#define BOOST_TEST_NO_MAIN
#define BOOST_TEST_ALTERNATIVE_INIT_API
#include <boost/test/unit_test.hpp>
#include <systemc>

#include <filesystem>
#include <cstring>
#include <fstream>
#include <iterator>

#include "runtime/manifest.h"

using namespace gpusim;
namespace fs = std::filesystem;

namespace {

Runtime* rt = nullptr;
const std::string kSrc = GPUSIM_SOURCE_DIR;

fs::path scratch() {
    static fs::path dir = [] {
        fs::path d = fs::temp_directory_path() / ("gpusim_test_runtime_" + std::to_string(::getpid()));
        fs::create_directories(d);
        fs::copy_file(kSrc + "/regress/kernels/vadd/vadd.ptx", d / "vadd.ptx", fs::copy_options::overwrite_existing);
        return d;
    }();
    return dir;
}

std::string write(const std::string& name, const std::string& text) {
    fs::path p = scratch() / name;
    std::ofstream(p) << text;
    return p.string();
}

// A vadd manifest with `launch` as its launch object and `extra_buffers` after the standard ones.
std::string vadd_manifest(const std::string& name, const std::string& launch, const std::string& a_init = R"({"fill": 1})") {
    return write(name, R"({"module": "vadd.ptx", "buffers": [
        {"name": "a", "bytes": 1024, "init": )" + a_init + R"(},
        {"name": "b", "bytes": 1024, "init": {"iota": {"type": "f32", "start": 0, "step": 1}}},
        {"name": "d", "bytes": 1024}],
      "launches": [)" + launch + "]}");
}

std::string error_of(const std::string& manifest) {
    try {
        run_manifest(*rt, load_manifest(manifest));
    } catch (const std::exception& e) {
        return e.what();
    }
    return "";
}

} // namespace

BOOST_AUTO_TEST_CASE(memcpy_round_trip_and_memset) {
    DevicePtr p = rt->malloc(10000);
    std::vector<uint8_t> in(10000), out(10000);
    for (size_t i = 0; i < in.size(); ++i) in[i] = uint8_t(i * 13);
    rt->memcpy_to_device(p, in.data(), in.size());
    rt->memcpy_to_host(out.data(), p, out.size());
    BOOST_TEST(in == out);
    rt->memset(p + 100, 0xEE, 50);
    rt->memcpy_to_host(out.data(), p, out.size());
    BOOST_TEST(out[99] == in[99]);
    BOOST_TEST(out[100] == 0xEE);
    BOOST_TEST(out[149] == 0xEE);
    BOOST_TEST(out[150] == in[150]);
    rt->free(p);
    BOOST_CHECK_THROW(rt->memcpy_to_host(out.data(), p, 16), RuntimeError);
    BOOST_CHECK_THROW(rt->free(p), RuntimeError);
}

BOOST_AUTO_TEST_CASE(bundled_vadd_manifest_passes) {
    ManifestOutcome r = run_manifest(*rt, load_manifest(kSrc + "/regress/kernels/vadd/manifest.json"));
    BOOST_TEST(r.passed);
    BOOST_TEST(r.launches == 1u);
    BOOST_TEST(r.totals.warp_instructions > 0u);
    BOOST_TEST(r.totals.cycles > 0u);
}

BOOST_AUTO_TEST_CASE(mismatch_names_first_differing_word) {
    // d = a + b = 1.0 (fill 0x01 bytes is 2.37e-38, so a ~ 0) ... compute the real values instead:
    std::vector<uint8_t> ref(1024, 0);
    for (uint32_t i = 0; i < 256; ++i) {
        float a, b = float(i), d;
        uint32_t bits = 0x01010101;
        std::memcpy(&a, &bits, 4);
        d = a + b;
        std::memcpy(&ref[4 * i], &d, 4);
    }
    float wrong = 1234.0f;
    std::memcpy(&ref[4 * 17], &wrong, 4);
    std::ofstream(scratch() / "ref.bin", std::ios::binary).write(reinterpret_cast<char*>(ref.data()), 1024);
    std::string m = vadd_manifest("mismatch.json", R"({"kernel": "vadd", "grid": [2], "block": [128],
        "args": [{"buffer": "a"}, {"buffer": "b"}, {"buffer": "d"}, {"u32": 256}],
        "expect": [{"buffer": "d", "file": "ref.bin"}]})");
    ManifestOutcome r = run_manifest(*rt, load_manifest(m));
    BOOST_TEST(!r.passed);
    BOOST_REQUIRE_EQUAL(r.failures.size(), 1u);
    BOOST_TEST(r.failures[0].find("1 of 256 words differ; first at word 17 (byte 68): expected 0x449a4000, got 0x41880000") !=
               std::string::npos, r.failures[0]);
}

BOOST_AUTO_TEST_CASE(tolerance_compare_accepts_bounded_errors_only) {
    auto f32 = [](std::initializer_list<uint32_t> w) {
        std::vector<uint8_t> v(w.size() * 4);
        std::memcpy(v.data(), std::data(w), v.size());
        return v;
    };
    Tolerance ulp2;
    ulp2.type = Tolerance::Type::F32;
    ulp2.ulp = 2;
    // 1.0 vs 1.0+2ulp passes, +3ulp fails; two different NaNs pass; inf vs FLT_MAX fails.
    BOOST_TEST(compare_buffers(f32({0x3F800000, 0x7FC00000}), f32({0x3F800002, 0x7FFFFFFF}), ulp2) == "");
    std::string r = compare_buffers(f32({0x3F800000, 0x7F800000}), f32({0x3F800003, 0x7F800000}), ulp2);
    BOOST_TEST(r.find("1 of 2 32-bit elements differ beyond f32 ulp 2; first at element 0") != std::string::npos, r);
    BOOST_TEST(compare_buffers(f32({0x7F800000}), f32({0x7F7FFFFF}), ulp2) != "");
    Tolerance abs;
    abs.type = Tolerance::Type::F32;
    abs.abs = 1e-3;
    BOOST_TEST(compare_buffers(f32({0x00000000}), f32({0x3A000000}), abs) == "");  // 4.9e-4
    BOOST_TEST(compare_buffers(f32({0x00000000}), f32({0x3B000000}), abs) != "");  // 2e-3
    BOOST_TEST(compare_buffers(f32({1, 2}), f32({1, 3})).find("1 of 2 words differ; first at word 1") != std::string::npos);
    const std::string launch = R"({"kernel": "vadd", "grid": [1], "block": [32], "args": [{"buffer": "a"}, {"buffer": "b"}, {"buffer": "d"}, {"u32": 256}], )";
    BOOST_TEST(error_of(vadd_manifest("t1.json", launch + R"("expect": [{"buffer": "d", "file": "x.bin", "tolerance": {"type": "f16", "ulp": 1}}]})"))
                   .find("launches[0].expect[0].tolerance.type: expected \"f32\" or \"f64\"") != std::string::npos);
    BOOST_TEST(error_of(vadd_manifest("t2.json", launch + R"("expect": [{"buffer": "d", "file": "x.bin", "tolerance": {"type": "f32"}}]})"))
                   .find("needs at least one bound: ulp, abs or rel") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(bad_manifests_get_clear_errors) {
    const std::string args4 = R"("args": [{"buffer": "a"}, {"buffer": "b"}, {"buffer": "d"}, {"u32": 256}])";
    auto m = [&](const std::string& name, const std::string& launch, const std::string& init = R"({"fill": 1})") {
        return error_of(vadd_manifest(name, launch, init));
    };
    BOOST_TEST(m("e1.json", R"({"kernel": "vsub", "grid": [1], "block": [32], )" + args4 + "}")
                   .find("launches[0]: module has no kernel \"vsub\" (it has: vadd)") != std::string::npos);
    BOOST_TEST(m("e2.json", R"({"kernel": "vadd", "grid": [1], "block": [32], "args": [{"buffer": "a"}]})")
                   .find("kernel 'vadd' takes 4 arguments, 1 given") != std::string::npos);
    BOOST_TEST(m("e3.json", R"({"kernel": "vadd", "grid": [1], "block": [32], "args": [{"buffer": "a"}, {"buffer": "b"}, {"buffer": "d"}, {"u64": 256}]})")
                   .find("argument 3 of kernel 'vadd' is 4 bytes (.u32 vadd_param_3), but 8 bytes were given as u64") != std::string::npos);
    BOOST_TEST(m("e4.json", R"({"kernel": "vadd", "grid": [1], "block": [32], "args": [{"buffer": "zz"}]})")
                   .find("launches[0].args[0]: unknown buffer \"zz\"") != std::string::npos);
    BOOST_TEST(m("e5.json", R"({"kernel": "vadd", "grid": [0], "block": [32], )" + args4 + "}")
                   .find("launches[0].grid: expected an array of 1 to 3 positive integers") != std::string::npos);
    BOOST_TEST(m("e6.json", R"({"kernel": "vadd", "grid": [1], "block": [32], "colour": 1, )" + args4 + "}")
                   .find("unknown key \"colour\"") != std::string::npos);
    BOOST_TEST(m("e7.json", R"({"kernel": "vadd", "grid": [1], "block": [2048], )" + args4 + "}")
                   .find("block (2048,1,1): more than 1024 threads per block") != std::string::npos);
    write("small.bin", "abc");
    BOOST_TEST(m("e8.json", R"({"kernel": "vadd", "grid": [1], "block": [32], )" + args4 + "}", R"({"file": {"file": "small.bin"}})")
                   .find("\"small.bin\" holds 3 bytes from offset 0, the buffer needs 1024") != std::string::npos);
    BOOST_TEST(m("e9.json", R"({"kernel": "vadd", "grid": [1], "block": [32], )" + args4 + "}", R"({"file": "missing.bin"})")
                   .find("cannot open") != std::string::npos);
    BOOST_TEST(error_of(write("e10.json", R"({"module": "nope.ptx", "buffers": [], "launches": [{"kernel": "k", "grid": [1], "block": [1], "args": []}]})"))
                   .find("nope.ptx: error: cannot open PTX file") != std::string::npos);
    BOOST_TEST(error_of(write("e11.json", "{ not json")).find("invalid JSON") != std::string::npos);
    BOOST_TEST(m("e12.json", R"({"kernel": "vadd", "grid": [1], "block": [32], )" + args4 + "}", R"({"file": "small.bin", "offset": "x"})")
                   .find("\"offset\" must be a byte count") != std::string::npos);
}

// Module variables no GPU of the config could hold are refused at load, naming the declaration
// and the limit.
BOOST_AUTO_TEST_CASE(oversized_declarations_are_refused_at_load) {
    const std::string head = ".version 7.5\n.target sm_75\n.address_size 64\n";
    const std::string body = ".visible .entry k()\n{\n  ret;\n}\n";
    auto load_error = [&](const std::string& decl) {
        try {
            rt->load_module_text(head + decl + "\n" + body, "big.ptx");
        } catch (const std::exception& e) {
            return std::string(e.what());
        }
        return std::string();
    };
    BOOST_TEST(load_error(".shared .b8 s[4000000000];") ==
               "big.ptx:4:1: error: shared variable 's' needs 4000000000 bytes; a block has at most 49152 (chip.max_shared_per_block)");
    BOOST_TEST(load_error(".const .b8 c[40000];\n.const .b8 c2[40000];") ==
               "big.ptx:5:1: error: with 'c2' the module's constant variables need 80000 bytes; constant memory holds 65536 (cuda.constant_bytes)");
    BOOST_TEST(load_error(".global .b8 g[4000000000];") ==
               "big.ptx:4:1: error: with 'g' the module's global variables need 4000000000 bytes; device memory holds 1610612736 (memory.size_bytes)");
    BOOST_TEST(load_error(".visible .entry j()\n{\n  .shared .b8 t[50000];\n  ret;\n}").find("shared variable 't' needs 50000 bytes") != std::string::npos);
    BOOST_TEST(load_error(".const .b8 c[65536];").empty());
}

// The flat spelling of a file initializer, and outputs written next to a manifest in the working
// folder (both refused before: "expected one of fill, file, random, iota" and a filesystem error).
BOOST_AUTO_TEST_CASE(flat_file_initializer_and_bare_output_names) {
    std::string bytes(1100, '\0');
    for (size_t k = 0; k < bytes.size(); ++k) bytes[k] = char(k);
    write("in.bin", bytes);
    const std::string path = vadd_manifest("flat.json", R"({"kernel": "vadd", "grid": [1], "block": [32],
        "args": [{"buffer": "a"}, {"buffer": "b"}, {"buffer": "d"}, {"u32": 0}], "outputs": [{"buffer": "a", "file": "a.bin"}]})",
                                           R"({"file": "in.bin", "offset": 76})");
    const fs::path cwd = fs::current_path();
    fs::current_path(scratch());
    const std::string error = error_of("flat.json");
    fs::current_path(cwd);
    BOOST_TEST(error.empty(), error);
    std::ifstream out(scratch() / "a.bin", std::ios::binary);
    std::string got((std::istreambuf_iterator<char>(out)), std::istreambuf_iterator<char>());
    BOOST_TEST(got == bytes.substr(76, 1024));
}

// The textures section names what is wrong with an entry, and where.
BOOST_AUTO_TEST_CASE(bad_textures_get_clear_errors) {
    auto t = [&](const std::string& name, const std::string& texture) {
        return error_of(write(name, R"({"module": "vadd.ptx", "buffers": [{"name": "a", "bytes": 256}],
          "textures": [)" + texture + R"(],
          "launches": [{"kernel": "vadd", "grid": [1], "block": [1], "args": [{"texture": "x"}]}]})"));
    };
    BOOST_TEST(t("t1.json", R"({"name": "x", "buffer": "a", "format": "u8x3", "width": 4})")
                   .find("textures[0]: format \"u8x3\": expected u8, s16, f32") != std::string::npos);
    BOOST_TEST(t("t2.json", R"({"name": "x", "buffer": "a", "format": "f32", "width": 16, "height": 16})")
                   .find("textures[0]: the texels need 1024 bytes but buffer \"a\" holds 256") != std::string::npos);
    BOOST_TEST(t("t3.json", R"({"name": "x", "buffer": "a", "format": "u8", "width": 4, "filter": "linear"})")
                   .find("linear filtering needs float channels or \"read\": \"normalized\"") != std::string::npos);
    BOOST_TEST(t("t4.json", R"({"name": "x", "buffer": "zz", "format": "u8", "width": 4})")
                   .find("textures[0]: unknown buffer \"zz\"") != std::string::npos);
    BOOST_TEST(t("t5.json", R"({"name": "x", "buffer": "a", "format": "u8", "width": 4, "address": "repeat"})")
                   .find("address mode \"repeat\": expected wrap, clamp, mirror or border") != std::string::npos);
    BOOST_TEST(t("t6.json", R"({"name": "x", "buffer": "a", "format": "f32", "width": 4, "bind": "nosuch"})")
                   .find("the module has no .texref, .samplerref or .surfref \"nosuch\"") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(buffer_too_small_for_the_kernel_faults_with_thread_named) {
    // 32768 elements over 1024-byte buffers: the first access past their 64 KiB page faults. Every
    // thread of block 64 reads past it; which warp the SM runs first decides the thread named.
    std::string m = vadd_manifest("small_buf.json", R"({"kernel": "vadd", "grid": [128], "block": [256],
        "args": [{"buffer": "a"}, {"buffer": "b"}, {"buffer": "d"}, {"u32": 32768}]})");
    std::string e = error_of(m);
    BOOST_TEST(e.find("launches[0] (vadd): kernel 'vadd' faulted: block (64,0,0) thread (") != std::string::npos, e);
    BOOST_TEST(e.find("kernel 'vadd' faulted: block (") != std::string::npos, e);
    BOOST_TEST(e.find("(address is not mapped)") != std::string::npos, e);
    BOOST_TEST(e.find("'ld.global.f32' at ") != std::string::npos, e);
}

// A misaligned access is CUDA's cudaErrorMisalignedAddress, not an illegal address; a fault in
// unmapped memory names the nearest allocation and the call that made it.
BOOST_AUTO_TEST_CASE(misaligned_and_unmapped_faults_are_told_apart) {
    const std::string ptx = R"(.version 7.0
.target sm_75
.address_size 64
.visible .entry poke(.param .u64 p, .param .u64 off)
{
    .reg .b64 %rd<4>;
    .reg .b32 %r<2>;
    ld.param.u64 %rd1, [p];
    ld.param.u64 %rd2, [off];
    add.s64 %rd3, %rd1, %rd2;
    mov.u32 %r1, 7;
    st.global.u32 [%rd3], %r1;
    ret;
}
)";
    const ModuleHandle& m = rt->load_module_text(ptx, "poke.ptx");
    const KernelInfo& k = m.kernels.at("poke");
    const DevicePtr buf = rt->malloc(256);
    auto launch = [&](DevicePtr p, uint64_t offset) -> std::pair<Error, std::string> {
        try {
            rt->launch(k, Dim3{1, 1, 1}, Dim3{1, 1, 1}, 0, {KernelArg::of<uint64_t>(p, "u64"), KernelArg::of<uint64_t>(offset, "u64")});
        } catch (const RuntimeError& e) {
            rt->reset();
            return {e.code(), e.what()};
        }
        return {Error::Success, ""};
    };
    auto [code, what] = launch(buf, 2);
    BOOST_TEST(int(code) == int(Error::MisalignedAddress));
    BOOST_TEST(what.find("global write of 4 bytes at address") != std::string::npos, what);
    BOOST_TEST(what.find("(misaligned address)") != std::string::npos, what);
    BOOST_TEST(what.find("thread (0,0,0) (warp 0, lane 0): 'st.global.u32' at poke.ptx:12") != std::string::npos, what);
    const DevicePtr again = rt->malloc(256);   // the reset freed buf: a new one, further on
    const DevicePtr far = again + (2u << 20);
    std::tie(code, what) = launch(far, 0);
    BOOST_TEST(int(code) == int(Error::IllegalAddress));
    BOOST_TEST(what.find(fmt::format("(address is not mapped): {} bytes past the end of cudaMalloc #", far - again - 256)) != std::string::npos, what);
    BOOST_TEST(what.find(" (256 bytes)") != std::string::npos, what);
}

int sc_main(int argc, char** argv) {
    Runtime runtime(load_config("fermi-gf100"));
    rt = &runtime;
    int rc = boost::unit_test::unit_test_main(&init_unit_test, argc, argv);
    fs::remove_all(scratch());
    return rc;
}
