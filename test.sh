#!/usr/bin/env bash
# Runs every test (unit tests, module testbenches, regression kernels).
#   ./test.sh             the release build made by setup.sh
#   ./test.sh --sanitize  a separate AddressSanitizer + UndefinedBehaviorSanitizer build
set -euo pipefail
cd "$(dirname "$0")"

dir=build
flags=(-DCMAKE_BUILD_TYPE=Release -DGPUSIM_WERROR=ON)
if [ "${1:-}" = "--sanitize" ]; then
  dir=build-sanitize
  flags=(-DCMAKE_BUILD_TYPE=Debug -DGPUSIM_WERROR=ON -DGPUSIM_SANITIZE=ON)
fi
[ -f "$dir/CMakeCache.txt" ] || cmake -S . -B "$dir" "${flags[@]}"
cmake --build "$dir" -j2
export ASAN_OPTIONS=detect_leaks=1:detect_stack_use_after_return=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
ctest --test-dir "$dir" --output-on-failure -j2
