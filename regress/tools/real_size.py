#!/usr/bin/env python3
"""The issue-39 measurement: the programs of regress/real_size at their default sizes, on the
model's libcudart (functional mode, kepler-gk110 unless --config), each against what the H200
printed (real_size/expected/NAME.out) and the 60-second target. Outside CI: a run takes minutes.

    regress/tools/real_size.py [--build build] [--config kepler-gk110] [--mode functional] [NAME ...]
"""
import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent / "real_size"


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--build", default="build")
    p.add_argument("--config", default="kepler-gk110")
    p.add_argument("--mode", default="functional")
    p.add_argument("--timeout", type=float, default=3600)
    p.add_argument("names", nargs="*")
    a = p.parse_args()
    build = Path(a.build).resolve()
    names = a.names or sorted(f.stem for f in HERE.glob("*.cu"))
    env = dict(os.environ, LD_LIBRARY_PATH=str(build / "cudart"), GPUSIM_CONFIG=a.config, GPUSIM_MODE=a.mode)
    failed = 0
    print(f"{'program':<22} {'seconds':>9}  {'within 60 s':<12} output")
    for name in names:
        start = time.monotonic()
        try:
            r = subprocess.run([str(build / "regress" / "real_size" / name)], env=env, capture_output=True, text=True,
                               timeout=a.timeout)
            seconds = time.monotonic() - start
            same = r.returncode == 0 and r.stdout == (HERE / "expected" / f"{name}.out").read_text()
            verdict = "as on the H200" if same else f"DIFFERS (exit {r.returncode})"
        except subprocess.TimeoutExpired:
            seconds, same, verdict = time.monotonic() - start, False, f"stopped after {a.timeout:.0f} s"
        failed += not same
        print(f"{name:<22} {seconds:>9.1f}  {'yes' if seconds <= 60 else 'no':<12} {verdict}", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
