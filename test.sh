#!/usr/bin/env bash
# Runs every test (unit tests, module testbenches, regression kernels).
#   ./test.sh             the release build made by setup.sh
#   ./test.sh --sanitize  a separate AddressSanitizer + UndefinedBehaviorSanitizer build (clang),
#                         which also holds the libFuzzer harnesses
#   ./test.sh --fuzz      the libFuzzer harnesses of that build, each for GPUSIM_FUZZ_SECONDS (60)
# Each leaves a JUnit report of its tests in <build folder>/junit.xml (junit-fuzz.xml for --fuzz).
set -euo pipefail
cd "$(dirname "$0")"

dir=build
flags=(-DCMAKE_BUILD_TYPE=Release -DGPUSIM_WERROR=ON)
tests=()
report=junit.xml
case "${1:-}" in
  --sanitize|--fuzz)
    dir=build-sanitize
    if ! command -v clang++ > /dev/null; then
      echo "test.sh: $1 builds with clang++, which is not installed (setup.sh installs it)" >&2
      exit 2
    fi
    # One build serves both: the sanitizers on everything, and the fuzz harnesses, whose libFuzzer
    # comes with clang. -O1: the tests run three times as fast as unoptimised; line tables only:
    # what reports need, without the variables' locations. Asserts stay on.
    flags=(-DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=Debug "-DCMAKE_CXX_FLAGS_DEBUG=-O1 -gline-tables-only"
           -DGPUSIM_WERROR=ON -DGPUSIM_SANITIZE=ON -DGPUSIM_FUZZ=ON "-DGPUSIM_FUZZ_SECONDS=${GPUSIM_FUZZ_SECONDS:-60}"
           -DGPUSIM_WITH_RTL=OFF)
    # Without the RTL twin: its co-simulation and RTL-in-the-loop checks run in the release build,
    # and under ASan most of its build is Verilator's runtime and generated code, not ours.
    # ASan in the SystemC parts too needs SystemC with POSIX-thread coroutines (docs/sanitizers.md).
    if bash cmake/systemc_pthreads.sh "$dir/systemc-pthreads"; then
      export PKG_CONFIG_PATH="$PWD/$dir/systemc-pthreads/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
      flags+=(-DGPUSIM_ASAN_SYSTEMC=ON)
    else
      echo "test.sh: could not build SystemC with POSIX-thread coroutines; ASan covers the plain C++ core only" >&2
      flags+=(-DGPUSIM_ASAN_SYSTEMC=OFF)
    fi
    if [ "$1" = --fuzz ]; then
      tests=(-L fuzz)
      report=junit-fuzz.xml
    else
      tests=(-LE fuzz)
    fi ;;
  "") ;;
  *) echo "test.sh: unknown option $1 (expected --sanitize or --fuzz)" >&2; exit 2 ;;
esac
if [ -n "${1:-}" ] || [ ! -f "$dir/CMakeCache.txt" ]; then bash cmake/configure.sh "$dir" "${flags[@]}"; fi
cmake --build "$dir" -j2
export ASAN_OPTIONS=detect_leaks=1:detect_stack_use_after_return=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
# JUnit XML of the suite for CI dashboards: build/junit.xml, build-sanitize/junit.xml ...
ctest --test-dir "$dir" --output-on-failure -j2 --output-junit "$report" "${tests[@]}"
