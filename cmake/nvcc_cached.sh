#!/usr/bin/env bash
# Builds a CUDA program with nvcc, or takes it from a cache of earlier builds:
#   cmake/nvcc_cached.sh CACHE_DIR OUTPUT DEPENDENCY... -- NVCC COMMAND...
# The key is a hash of the nvcc and host-compiler versions, the command (the output's path left
# out) and the dependencies' contents. The release and sanitizer builds thus compile each program
# once between them: what nvcc makes does not depend on how gpusim is built (the program loads
# libcudart.so at run time), and nvcc took a fifth of each build's time.
# Entries unused for 30 days are removed.
set -euo pipefail
cache=$1
out=$2
shift 2
deps=()
while [ "$1" != "--" ]; do
  deps+=("$1")
  shift
done
shift
key=$({
  "$1" --version
  gcc --version 2>/dev/null | head -n 1 || true
  printf '%s\n' "${@//"$out"/OUTPUT}"
  cat "${deps[@]}"
} | sha256sum | cut -d' ' -f1)
entry="$cache/$key"
if [ -f "$entry" ]; then
  touch "$entry"
  cp "$entry" "$out"
  chmod 755 "$out"
  exit 0
fi
"$@"
# A cache that cannot be written (no home folder, a read-only one) only costs the reuse.
mkdir -p "$cache" 2> /dev/null && tmp=$(mktemp "$cache/.tmp.XXXXXX" 2> /dev/null) || exit 0
cp "$out" "$tmp" && chmod 755 "$tmp" && mv "$tmp" "$entry" || rm -f "$tmp"
find "$cache" -type f -mtime +30 -delete 2> /dev/null || true
