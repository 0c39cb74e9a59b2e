#!/usr/bin/env bash
# Regenerates <family>.ptx for every golden family (committed) and builds the capture programs
# into build-golden/ (not committed). Needs nvcc; run from anywhere. Usage: build_captures.sh [family...]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out="$root/build-golden"
families=("$@")
if [ ${#families[@]} -eq 0 ]; then
  for d in "$here"/*/; do
    f=$(basename "$d")
    [ -f "$d/$f.cu" ] && families+=("$f")
  done
fi
mkdir -p "$out"
for f in "${families[@]}"; do
  src="$here/$f/$f.cu"
  # compute_75 unless the family names a newer target in its arch file (forms of sm_80 and later).
  arch=compute_75
  [ -f "$here/$f/arch" ] && arch=$(cat "$here/$f/arch")
  nvcc -ptx -arch="$arch" -I"$here/harness" -o "$here/$f/$f.ptx" "$src"
  nvcc -O2 -arch="$arch" -I"$here/harness" -o "$out/capture_$f" "$src" -lcuda
  echo "built $f"
done
