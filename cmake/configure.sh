#!/usr/bin/env bash
# Configures a build folder with Ninja, from the repository root:
#   cmake/configure.sh DIR [cmake options...]
# A folder configured before with another generator (Unix Makefiles, before) or another compiler
# is configured afresh: CMake cannot switch either in place.
set -euo pipefail
dir=$1
shift
cache="$dir/CMakeCache.txt"
if [ -f "$cache" ]; then
  cxx=$(printf '%s\n' "$@" | sed -n 's/^-DCMAKE_CXX_COMPILER=//p')
  if ! grep -q '^CMAKE_GENERATOR:INTERNAL=Ninja$' "$cache" ||
     { [ -n "$cxx" ] && ! grep -q "^CMAKE_CXX_COMPILER:[A-Z]*=.*$cxx\$" "$cache"; }; then
    rm -rf "$cache" "$dir/CMakeFiles"
  fi
fi
cmake -S . -B "$dir" -G Ninja "$@"
