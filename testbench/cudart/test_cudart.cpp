// The replacement libcudart's pieces that need no program around them: the fatbinary reader
// (on a fatbinary nvcc 13 wrote, committed with its source) and device printf's formatting.
#define BOOST_TEST_MODULE cudart
#include <boost/test/unit_test.hpp>

#include <cstring>
#include <fstream>
#include <iterator>
#include <vector>

#include "cudart/fatbinary.h"
#include "sm/device_printf.h"

using namespace gpusim;

namespace {
std::vector<uint8_t> read_file(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

// An argument buffer laid out as vprintf's: each value at the next offset aligned to its size.
struct ArgBuffer {
    std::vector<uint8_t> bytes;
    template <class T>
    ArgBuffer& add(T v) {
        size_t at = (bytes.size() + sizeof(T) - 1) / sizeof(T) * sizeof(T);
        bytes.resize(at + sizeof(T));
        std::memcpy(bytes.data() + at, &v, sizeof(T));
        return *this;
    }
    PrintfSource source() const {
        PrintfSource s;
        s.arg = [this](uint64_t off, void* out, size_t n) { std::memcpy(out, bytes.data() + off, n); };
        s.string = [](uint64_t a) { return a == 0x1000 ? std::string("text") : std::string("?"); };
        return s;
    }
};
} // namespace

BOOST_AUTO_TEST_CASE(reads_the_zstd_compressed_ptx_of_an_nvcc_13_fatbinary) {
    auto data = read_file(GPUSIM_SOURCE_DIR "/testbench/cudart/tiny.fatbin");
    BOOST_REQUIRE(data.size() > 64u);
    auto entries = fatbin::ptx_entries_of_container(data.data(), data.size());
    BOOST_REQUIRE(entries.size() == 1u);
    BOOST_TEST(entries[0].arch == 75u);
    BOOST_TEST(entries[0].text.find(".target sm_75") != std::string::npos);
    BOOST_TEST(entries[0].text.find(".visible .entry _Z4tinyPi(") != std::string::npos);
    BOOST_TEST(entries[0].text.back() != '\0');
}

BOOST_AUTO_TEST_CASE(rejects_what_is_not_a_fatbinary) {
    auto data = read_file(GPUSIM_SOURCE_DIR "/testbench/cudart/tiny.fatbin");
    auto bad = data;
    bad[0] ^= 0xFF;
    BOOST_CHECK_THROW(fatbin::ptx_entries_of_container(bad.data(), bad.size()), fatbin::FatbinError);
    BOOST_CHECK_THROW(fatbin::ptx_entries_of_container(data.data(), 40), fatbin::FatbinError);
    uint32_t wrapper[6] = {0x12345678, 1, 0, 0, 0, 0};
    BOOST_CHECK_THROW(fatbin::ptx_entries(wrapper), fatbin::FatbinError);
}

BOOST_AUTO_TEST_CASE(device_printf_reads_arguments_at_their_aligned_offsets) {
    ArgBuffer b;
    b.add(int32_t(-7)).add(3.5).add(uint32_t(255)).add(int64_t(1) << 40).add(uint64_t(0x1000)).add(int32_t('z'));
    BOOST_TEST(format_device_printf("%d %.2f %x %lld %s %c", b.source()) == "-7 3.50 ff 1099511627776 text z");
}

BOOST_AUTO_TEST_CASE(device_printf_keeps_flags_widths_and_percent_signs) {
    ArgBuffer b;
    b.add(int32_t(42)).add(1.0e-3).add(uint32_t(7));
    BOOST_TEST(format_device_printf("[%-5d|%10.3e|%05u] 100%%", b.source()) == "[42   | 1.000e-03|00007] 100%");
}
