// Testbench of the Pipe unit (rtl_models/alu/pipe): exact fractional occupancy, copies per
// scheduler, and the cycles a warp instruction holds the pipe.
#define BOOST_TEST_MODULE pipe
#include <boost/test/unit_test.hpp>

#include "alu/pipe.h"
#include "common/addresses.h"

using namespace gpusim;
using gpusim::test::strided;

BOOST_AUTO_TEST_CASE(pipe_occupancy_is_exact_for_fractional_rates) {
    PipeConfig wide{192, false, false};
    Pipe kepler("alu_k", wide, 4);
    int taken = 0;
    while (kepler.free_at(0, 10)) { kepler.accept(0, 10, 1200); ++taken; }   // 160 lanes' worth
    BOOST_TEST(taken == 5);
    PipeConfig half{16, true, false};
    Pipe fermi("alu_f", half, 2);
    BOOST_TEST(fermi.accept(1, 0, 1000) == 2u);
    BOOST_TEST(!fermi.free_at(1, 1));
    BOOST_TEST(fermi.free_at(1, 2));
    BOOST_TEST(fermi.free_at(0, 0));                           // the other scheduler's half is free
    PipeConfig sfu{2, false, false};
    Pipe g80("sfu_g", sfu, 1);
    BOOST_TEST(g80.accept(0, 0, 1000) == 16u);
}
