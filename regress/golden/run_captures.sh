#!/usr/bin/env bash
# Runs on the machine with the GPU, from the repository root: every capture program built by
# build_captures.sh writes in/, ref/ and manifest.json into its family folder, then the captured
# folders are copied under $OUT (set by the device tool) so they come back. Usage: run_captures.sh [family...]
set -euo pipefail
families=("$@")
if [ ${#families[@]} -eq 0 ]; then
  for b in build-golden/capture_*; do families+=("${b#build-golden/capture_}"); done
fi
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader || true
status=0
for f in "${families[@]}"; do
  if ! timeout 120 "build-golden/capture_$f" "regress/golden/$f"; then
    echo "capture of $f failed"; status=1; continue
  fi
  if [ -n "${OUT:-}" ]; then
    mkdir -p "$OUT/$f"
    cp -r "regress/golden/$f/in" "regress/golden/$f/ref" "regress/golden/$f/manifest.json" "$OUT/$f/"
  fi
done
exit $status
