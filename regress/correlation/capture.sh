#!/usr/bin/env bash
# Measures every kernel launch of the corpus on a real GPU with Nsight Compute: the GPC cycles of
# each launch (gpc__cycles_elapsed.max), the warp instructions the SASS executed, the registers
# ptxas gave each thread and the clock the GPU ran at. Run on the GPU machine (through the device
# tool) from the repository root, with the programs built as regress/apps.cmake builds them
# (compute_75 PTX, so that the chip JIT-compiles the PTX the model runs):
#   regress/correlation/capture.sh BIN_DIR OUT_DIR [RUNS] [LAUNCH_CAP]
# Writes OUT_DIR/NAME.RUN.csv (ncu's raw output), OUT_DIR/gpu.txt and OUT_DIR/exit_codes.txt;
# regress/tools/correlate.py reduce turns them into regress/correlation/h100.json.
# ncu's defaults are kept on purpose: clock control "base" (the clock is recorded per launch) and
# one pass per launch; --cache-control none keeps the caches between launches as in a plain run.
set -u
bin=$1
out=$2
runs=${3:-3}
cap=${4:-40}
metrics=gpc__cycles_elapsed.max,gpc__cycles_elapsed.avg.per_second,smsp__inst_executed.sum,launch__registers_per_thread,gpu__time_duration.sum,launch__grid_size,launch__block_size
mkdir -p "$out"
: > "$out/exit_codes.txt"
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv > "$out/gpu.txt" 2>&1
ncu --version >> "$out/gpu.txt" 2>&1
for b in "$bin"/*; do
  n=$(basename "$b")
  [ -f "$b" ] && [ -x "$b" ] || continue
  for r in $(seq 1 "$runs"); do
    timeout 300 ncu --csv --print-units base --print-kernel-base mangled --cache-control none \
      --launch-count "$cap" --metrics "$metrics" --log-file "$out/$n.$r.csv" "$b" > /dev/null 2> "$out/$n.$r.err"
    echo "$n $r $?" >> "$out/exit_codes.txt"
  done
done
cat "$out/exit_codes.txt"
