#!/usr/bin/env bash
# Captures what the corpus prints on a real GPU (NVIDIA's driver and CUDA 13 runtime): runs every
# program built in BIN_DIR (as regress/apps.cmake builds them) and writes NAME.out, NAME.err and
# the exit codes into OUT_DIR. The .out files become regress/apps/expected/. Run it from the
# repository root on the GPU machine; regress/apps/README.md says how the committed ones were made.
#   regress/apps/capture.sh BIN_DIR OUT_DIR
set -u
bin=$1
out=$2
mkdir -p "$out"
: > "$out/exit_codes.txt"
for b in "$bin"/*; do
  n=$(basename "$b")
  [ -f "$b" ] && [ -x "$b" ] || continue
  timeout 120 "$b" > "$out/$n.out" 2> "$out/$n.err"
  echo "$n $?" >> "$out/exit_codes.txt"
done
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$out/gpu.txt" 2>&1
cat "$out/exit_codes.txt"
