// The SM's operations (rtl_models/sm/operations.cpp): every unit's recogniser together. No form is
// taken by two units, whatever modifiers a program puts on it (the PTX parser takes any), and the
// forms that two units could each claim go to the one that executed them before the registry.
#define BOOST_TEST_MODULE operations
#include <boost/test/unit_test.hpp>

#include <iterator>
#include <string>
#include <vector>

#include "alu/alu_ops.h"
#include "sfu/sfu_ops.h"
#include "sm/operations.h"

using namespace gpusim;

BOOST_AUTO_TEST_CASE(no_form_is_taken_by_two_units) {
    const char* const opcodes[] = {"add", "sub", "mul", "mad", "fma", "div", "rem", "min", "max", "neg", "abs", "rcp", "sqrt",
                                   "rsqrt", "ex2", "lg2", "sin", "cos", "tanh", "mov", "selp", "setp", "set", "cvt", "and", "or",
                                   "xor", "not", "shl", "shr", "shf", "bfe", "bfi", "prmt", "lop3", "popc", "clz", "brev",
                                   "bfind", "mul24", "mad24", "sad", "addc", "subc", "madc", "dp4a", "dp2a", "testp",
                                   "copysign", "vadd", "vsub", "vmin", "vmax", "vabsdiff", "vadd2", "vadd4", "vset", "ld", "st",
                                   "atom", "red", "vote", "shfl", "match", "bra", "ret", "bar", "membar", "fns", "cnot"};
    const char* const types[] = {"", "u16", "s16", "u32", "s32", "b32", "u64", "s64", "b64", "f16", "f16x2", "bf16", "bf16x2",
                                 "f32", "f64", "pred"};
    const char* const mods[] = {"", "approx", "full", "rn", "rz", "rm", "rp", "ftz", "sat", "hi", "lo", "wide", "cc", "relu",
                                "global", "shared", "sync", "and"};
    size_t forms = 0, taken = 0;
    for (const char* op : opcodes)
        for (const char* t : types)
            for (const char* m1 : mods)
                for (const char* m2 : mods) {
                    OpSpec s{op, {}};
                    for (const char* m : {m1, m2})
                        if (*m) s.mods.push_back(m);
                    if (*t) s.mods.push_back(t);
                    const OpChoice c = sm_operations().select(s);
                    ++forms;
                    taken += c.fn != nullptr;
                    BOOST_TEST(c.error.find("taken by two units") == std::string::npos, c.error);
                }
    BOOST_TEST(forms == std::size(opcodes) * std::size(types) * std::size(mods) * std::size(mods));
    BOOST_TEST(taken > 1000u);   // the search reaches the units' forms, not only refusals
}

BOOST_AUTO_TEST_CASE(a_rounded_approximation_goes_to_the_float_unit) {
    // Malformed in PTX (a function is .approx or rounded), accepted before the registry by the
    // float unit, which came first: it still is.
    for (const auto& mods : std::vector<std::vector<std::string>>{{"approx", "rn", "f32"}, {"approx", "rz", "f32"}, {"full", "rn", "f32"}}) {
        for (const char* op : {"rcp", "sqrt", "div"}) {
            const OpSpec s{op, mods};
            const OpChoice all = sm_operations().select(s);
            const OpChoice alu = select_alu_op(s);
            BOOST_TEST(!select_sfu_op(s).fn, s.full_name());
            BOOST_TEST((all.fn == alu.fn), s.full_name());
        }
    }
}
