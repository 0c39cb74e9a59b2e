#!/usr/bin/env python3
"""The statistics lock: every statistic of a set of runs, kept so that a change that should not
alter behaviour (a move of code, a speed-up) can prove that it did not.

    stats_lock.py capture --set kernels --out regress/stats_lock/kernels.json
    stats_lock.py check   --set kernels --lock regress/stats_lock/kernels.json

A run is one workload on one config in one mode. Its record is every number of the statistics
document (`gpusim run --stats`, or GPUSIM_STATS of a CUDA program) by its dotted path, without
the host's seconds, the config echo and the names in it (paths, kernel names), plus the buffer
digests and, for a CUDA program, a digest of what it printed. The lock keeps the totals, each kernel's cycles and the digests in the
clear and a SHA-1 of the whole record; `--full` keeps every statistic, so that a check against
such a lock (made at the earlier commit) names each one that differs. Sets:
  kernels  the regression kernels and the bench workloads (regress/kernels, regress/bench), run
           by `gpusim run`: quick enough for CI (regress.stats_lock.*)
  long     the bench workloads too slow for CI in timing mode (bench_divergence)
  apps     the corpus (regress/apps) and the CUDA programs (regress/cuda), run unchanged on the
           replacement libcudart; needs the programs nvcc built (build/regress/apps, .../cuda)
The lock is model output, not hardware data: recapture it on purpose, with the reason in the
commit, when a change is meant to move the numbers (regress/README.md).
"""
import argparse
import concurrent.futures
import hashlib
import json
import os
import subprocess
import sys
import tempfile

CONFIGS = ["tesla-g80", "tesla-gt200", "fermi-gf100", "kepler-gk110"]
MODES = ["functional", "timing"]
HERE = os.path.dirname(os.path.abspath(__file__))
REGRESS = os.path.dirname(HERE)
# Programs whose printout is a host measurement, or that need a capability the older configs lack,
# still run: their statistics are locked; only their exit status is not required to be 0.
APP_ENV = {"device_select": {"GPUSIM_SET": "chip.compute_capability=7.5"}}


def flatten(node, prefix, out):
    """Every number of a statistics document by its dotted path; a {"value": v, ...} leaf is v."""
    if isinstance(node, dict):
        if "value" in node and not isinstance(node["value"], (dict, list)):
            out[prefix] = node["value"]
            return
        for k, v in node.items():
            flatten(v, f"{prefix}.{k}" if prefix else k, out)
    elif isinstance(node, list):
        for i, v in enumerate(node):
            flatten(v, f"{prefix}[{i}]", out)
    elif isinstance(node, (int, float, bool)) or node is None:
        out[prefix] = node
    elif isinstance(node, str) and prefix.startswith("buffers."):
        # Of the texts only the buffer digests are behaviour: the others are names, some of which
        # depend on where the project is checked out (a manifest's path; the hash nvcc puts in the
        # names of a source's anonymous namespace).
        out[prefix] = node


def record(stats_path, printed=None):
    with open(stats_path) as f:
        doc = json.load(f)
    doc.pop("config", None)
    doc.get("totals", {}).pop("host_seconds", None)
    out = {}
    flatten(doc, "", out)
    if printed is not None:
        out["stdout.sha1"] = hashlib.sha1(printed).hexdigest()[:16]
    return out


# Bench workloads that take long in timing mode (bench_divergence: 20 s on the 2-core machine):
# the set "long", outside CI's lock.
LONG = {"bench/bench_divergence"}


def headline(key):
    """The numbers a lock keeps in the clear; the rest it keeps as one digest per run."""
    return key.startswith(("totals.", "buffers.", "stdout", "exit")) or (key.startswith("kernels[") and key.endswith("].cycles"))


def condense(rec):
    text = json.dumps(rec, sort_keys=True, separators=(",", ":")).encode()
    out = {k: v for k, v in rec.items() if headline(k)}
    out["digest"] = hashlib.sha1(text).hexdigest()
    return out


def kernel_workloads(long):
    names = []
    for d in sorted(os.listdir(os.path.join(REGRESS, "kernels"))):
        path = os.path.join(REGRESS, "kernels", d, "manifest.json")
        if os.path.exists(path):
            names.append(("kernels/" + d, path))
    for f in sorted(os.listdir(os.path.join(REGRESS, "bench"))):
        if f.endswith(".json"):
            names.append(("bench/" + f[:-5], os.path.join(REGRESS, "bench", f)))
    return [w for w in names if (w[0] in LONG) == long]


def app_workloads(build):
    names = []
    for sub in ["apps", "cuda"]:
        d = os.path.join(build, "regress", sub)
        if not os.path.isdir(d):
            continue
        for f in sorted(os.listdir(d)):
            p = os.path.join(d, f)
            if os.path.isfile(p) and os.access(p, os.X_OK):
                names.append((f"{sub}/{f}", p))
    if not names:
        sys.exit(f"stats_lock: no CUDA programs under {build}/regress (built only where nvcc is present)")
    return names


def run_one(args, kind, name, path, config, mode, tmp):
    stats = os.path.join(tmp, f"{name.replace('/', '_')}.{config}.{mode}.json")
    if kind != "apps":
        cmd = [args.gpusim, "run", "--config", config, "--mode", mode, "--no-summary", "--stats", stats, path]
        env = dict(os.environ)
        proc = subprocess.run(cmd, capture_output=True, env=env, timeout=args.timeout)
        if proc.returncode != 0:
            return None, f"{' '.join(cmd)} exited with {proc.returncode}:\n{proc.stdout.decode()}{proc.stderr.decode()}"
        return record(stats), None
    env = dict(os.environ, LD_LIBRARY_PATH=args.cudart, GPUSIM_STATS=stats, GPUSIM_CONFIG=config, GPUSIM_MODE=mode)
    env.update(APP_ENV.get(os.path.basename(path), {}))
    proc = subprocess.run([path], capture_output=True, env=env, timeout=args.timeout, cwd=os.path.dirname(path))
    if not os.path.exists(stats):
        return {"exit": proc.returncode, "stdout.sha1": hashlib.sha1(proc.stdout).hexdigest()[:16]}, None
    rec = record(stats, proc.stdout)
    rec["exit"] = proc.returncode
    return rec, None


def collect(args):
    build = args.build
    work = app_workloads(build) if args.set == "apps" else kernel_workloads(args.set == "long")
    if args.only:
        work = [w for w in work if any(o in w[0] for o in args.only)]
    configs = args.configs or CONFIGS
    modes = args.modes or MODES
    jobs = [(name, path, c, m) for name, path in work for c in configs for m in modes]
    result, errors = {}, []
    args.expected = {f"{n} {c} {m}" for n, _, c, m in jobs}
    with tempfile.TemporaryDirectory() as tmp, concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        futs = {pool.submit(run_one, args, args.set, n, p, c, m, tmp): (n, c, m) for n, p, c, m in jobs}
        for fut in concurrent.futures.as_completed(futs):
            n, c, m = futs[fut]
            rec, err = fut.result()
            if err:
                errors.append(err)
            else:
                result[f"{n} {c} {m}"] = rec if args.full else condense(rec)
    return dict(sorted(result.items())), errors


def compare(lock, now, limit=40):
    diffs = []
    for run in sorted(set(lock) | set(now)):
        if run not in now:
            diffs.append(f"{run}: not run now")
            continue
        if run not in lock:
            diffs.append(f"{run}: not in the lock")
            continue
        a, b = lock[run], now[run]
        for key in sorted(set(a) | set(b)):
            if a.get(key, "<absent>") != b.get(key, "<absent>"):
                diffs.append(f"{run}: {key}: lock {a.get(key, '<absent>')}, now {b.get(key, '<absent>')}")
    for d in diffs[:limit]:
        print(d)
    if len(diffs) > limit:
        print(f"... and {len(diffs) - limit} more differences")
    return len(diffs)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("action", choices=["capture", "check"])
    p.add_argument("--set", choices=["kernels", "long", "apps"], default="kernels")
    p.add_argument("--build", default=os.path.join(os.path.dirname(REGRESS), "build"))
    p.add_argument("--gpusim", default=None)
    p.add_argument("--cudart", default=None)
    p.add_argument("--out", help="capture: the lock file to write (.json)")
    p.add_argument("--lock", help="check: the lock file to compare with")
    p.add_argument("--configs", nargs="*")
    p.add_argument("--modes", nargs="*")
    p.add_argument("--only", nargs="*", help="workloads whose name contains one of these")
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--timeout", type=int, default=900)
    p.add_argument("--full", action="store_true",
                   help="keep every statistic in the clear (to find what differs), not a digest of the rest")
    args = p.parse_args()
    args.gpusim = args.gpusim or os.path.join(args.build, "gpusim")
    args.cudart = args.cudart or os.path.join(args.build, "cudart")
    now, errors = collect(args)
    for e in errors:
        print(e, file=sys.stderr)
    if args.action == "capture":
        if errors:
            sys.exit(f"stats_lock: {len(errors)} runs failed; nothing written")
        # One run per line, so that a change of the lock reads as a diff of the runs it moved.
        with open(args.out, "w") as f:
            f.write("{\n" + ",\n".join(f"{json.dumps(k)}: {json.dumps(v, sort_keys=True)}" for k, v in now.items()) + "\n}\n")
        print(f"stats_lock: {len(now)} runs written to {args.out}")
        return
    with open(args.lock) as f:
        lock = json.load(f)
    lock = {k: v for k, v in lock.items() if k in args.expected}   # a subset (--configs, --modes, --only)
    if not args.full:
        for run, rec in lock.items():
            if "digest" not in rec:      # a full lock checked against condensed records
                lock[run] = condense(rec)
    elif any("digest" in rec for rec in lock.values()):
        sys.exit("stats_lock: --full needs a lock captured with --full")
    n = compare(lock, now)
    if n or errors:
        sys.exit(f"stats_lock: {n} differences from {args.lock}, {len(errors)} failed runs")
    print(f"stats_lock: {len(now)} runs identical to {args.lock}")


if __name__ == "__main__":
    main()
