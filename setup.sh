#!/usr/bin/env bash
# Installs what is missing (Debian 12, as root), builds gpusim, and runs the bundled regression
# kernels on the default GPU config.
set -euo pipefail
cd "$(dirname "$0")"

# clang and its runtime libraries build the sanitizer build and its fuzz harnesses (./test.sh
# --sanitize, --fuzz); ninja-build runs the builds; dpkg-dev unpacks
# SystemC's source for the sanitizer build (cmake/systemc_pthreads.sh); python3-matplotlib draws
# the plots of gpusim sweep, and slurm-wlm with munge is the cluster its --slurm test starts.
packages="g++ cmake ninja-build make pkg-config libsystemc-dev libboost-test-dev libfmt-dev nlohmann-json3-dev libcli11-dev libzstd-dev
          clang libclang-rt-14-dev dpkg-dev python3-matplotlib slurm-wlm munge verilator"
missing=""
for p in $packages; do
  dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"
done
if [ -n "$missing" ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "setup.sh: these packages are missing:$missing; run as root (sudo ./setup.sh)" >&2
    exit 1
  fi
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing
fi

bash cmake/configure.sh build -DCMAKE_BUILD_TYPE=Release -DGPUSIM_WERROR=ON
cmake --build build -j2
./build/gpusim run regress/kernels/*/manifest.json
