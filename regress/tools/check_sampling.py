#!/usr/bin/env python3
"""Kernel sampling against full timing simulation (regress.sampling, apps.*.sampling): a many-launch
manifest (gpusim run) or CUDA program (through the model's libcudart) run in timing mode with
sim.sampling off, and on with one and with two host threads. The sampled runs must leave the same
buffers (a program: print the same), project some launches (and mark them), agree with each other
exactly, and give total cycles within the tolerance of the full run.

    check_sampling.py TOLERANCE manifest GPUSIM MANIFEST
    check_sampling.py TOLERANCE app CUDART_DIR PROGRAM [CONFIG]"""
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path


def run_manifest(gpusim, manifest, out, sets):
    args = [gpusim, "run", "--mode", "timing", "--stats", str(out), "--no-summary"]
    for s in sets:
        args += ["--set", s]
    subprocess.run(args + [manifest], check=True, stdout=subprocess.DEVNULL)
    doc = json.loads(out.read_text())
    return doc, doc["buffers"]


def run_app(cudart, program, config, out, sets):
    env = dict(os.environ, LD_LIBRARY_PATH=cudart, GPUSIM_CONFIG=config, GPUSIM_MODE="timing",
               GPUSIM_SET=",".join(sets), GPUSIM_STATS=str(out))
    printed = subprocess.run([program], check=True, env=env, capture_output=True, text=True).stdout
    return json.loads(out.read_text()), printed


def main():
    tolerance, kind = float(sys.argv[1]), sys.argv[2]
    if kind == "manifest":
        run = lambda out, sets: run_manifest(sys.argv[3], sys.argv[4], out, sets)
    else:
        config = sys.argv[5] if len(sys.argv) > 5 else "fermi-gf100"
        run = lambda out, sets: run_app(sys.argv[3], sys.argv[4], config, out, sets)
    with tempfile.TemporaryDirectory() as tmp:
        t = Path(tmp)
        full, full_result = run(t / "full.json", ["sim.sampling=off", "sim.threads=1"])
        one, one_result = run(t / "one.json", ["sim.sampling=on", "sim.threads=1"])
        two, _ = run(t / "two.json", ["sim.sampling=on", "sim.threads=2"])
    failures = []
    if "sampling" in full:
        failures.append("a run without sampling wrote a sampling report")
    s = one["sampling"]
    if one_result != full_result:
        failures.append("the sampled run left other buffers or printed something else")
    projected = sum(1 for k in one["kernels"] if k.get("projected"))
    if projected == 0 or projected != s["projected_launches"]:
        failures.append(f"{projected} launches marked projected, the report says {s['projected_launches']}")
    if s["detailed_launches"] + s["projected_launches"] != len(full["kernels"]):
        failures.append("the report does not count every launch")
    if s["cycles"] != one["totals"]["cycles"]:
        failures.append(f"the report's cycles {s['cycles']} are not the totals' {one['totals']['cycles']}")
    for key in ("sampling", "totals", "kernels"):
        a, b = one[key], two[key]
        if key == "totals":
            a = {k: v for k, v in a.items() if k != "host_seconds"}
            b = {k: v for k, v in b.items() if k != "host_seconds"}
        if a != b:
            failures.append(f"'{key}' differs between one and two host threads")
    sampled, exact = one["totals"]["cycles"], full["totals"]["cycles"]
    error = (sampled - exact) / exact
    if abs(error) > tolerance:
        failures.append(f"sampled cycles {sampled} are {error:+.2%} off the full run's {exact}")
    # The interval is the sampling's (the spread of a group's detailed launches), not the
    # projection's systematic error (caches not warmed, launches of a group that differ in ways
    # their detailed ones do not show): it holds the estimate, not always the full run's cycles.
    lo_hi = s["cycles_95"]
    if lo_hi is not None and not (lo_hi[0] <= sampled <= lo_hi[1]):
        failures.append(f"the estimate {sampled} lies outside its own interval {lo_hi}")
    print(f"full {exact} cycles, sampled {sampled} ({error:+.3%}), {s['detailed_launches']} detailed and "
          f"{s['projected_launches']} projected launches, detailed share {s['detailed_share']:.3f}, interval {lo_hi}")
    for f in failures:
        print("FAIL:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
