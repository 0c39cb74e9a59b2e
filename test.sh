#!/usr/bin/env bash
# Runs every test (unit tests, module testbenches, regression kernels).
#   ./test.sh             the release build made by setup.sh
#   ./test.sh --sanitize  a separate AddressSanitizer + UndefinedBehaviorSanitizer build
#   ./test.sh --fuzz      the libFuzzer harnesses (clang), each for GPUSIM_FUZZ_SECONDS (60)
set -euo pipefail
cd "$(dirname "$0")"

dir=build
flags=(-DCMAKE_BUILD_TYPE=Release -DGPUSIM_WERROR=ON)
case "${1:-}" in
  --sanitize)
    dir=build-sanitize
    flags=(-DCMAKE_BUILD_TYPE=Debug -DGPUSIM_WERROR=ON -DGPUSIM_SANITIZE=ON) ;;
  --fuzz)
    dir=build-fuzz
    flags=(-DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGPUSIM_WERROR=ON -DGPUSIM_FUZZ=ON
           "-DGPUSIM_FUZZ_SECONDS=${GPUSIM_FUZZ_SECONDS:-60}") ;;
  "") ;;
  *) echo "test.sh: unknown option $1 (expected --sanitize or --fuzz)" >&2; exit 2 ;;
esac
if [ "${1:-}" = "--fuzz" ] || [ ! -f "$dir/CMakeCache.txt" ]; then cmake -S . -B "$dir" "${flags[@]}"; fi
cmake --build "$dir" -j2
export ASAN_OPTIONS=detect_leaks=1:detect_stack_use_after_return=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
ctest --test-dir "$dir" --output-on-failure -j2
