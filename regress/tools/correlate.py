#!/usr/bin/env python3
"""The correlator: each kernel's cycles on the model beside the cycles the real chip took.

    correlate.py reduce CAPTURE_DIR [--out regress/correlation/h100.json]
    correlate.py run [--build build] [--config hopper-h100] [--programs a,b] [--report DIR]
                     [--max-mae 0.5] [--check regress/correlation/ci.json] [--jobs 2]

`reduce` turns what regress/correlation/capture.sh wrote on the GPU machine (Nsight Compute's CSV
of every launch, a few runs of each program) into the golden file: for every program, its launches
in order with the cycles of each run (gpc__cycles_elapsed.max), the SASS warp instructions, the
registers per thread, the clock and the duration.

`run` runs each program of the golden file, as built in BUILD/regress/correlation or
BUILD/regress/apps, on the replacement
libcudart in timing mode with GPUSIM_STATS, and matches its launches with the chip's: a kernel's
cycles are summed over the launches the capture holds (the capture takes a program's first
LAUNCH_CAP launches; the model's first launches of each kernel, as many as the chip's, are taken).
It prints each kernel's cycles on both and the error, then the mean absolute error (MAE, the mean
of |model - chip| / chip over kernels) and Pearson's r of the cycles, for every kernel, for the
kernels of the chip's 5 us and more (shorter ones are mostly launch overhead), for the tuned part
and for the held-back part (regress/correlation/heldback.txt), and writes a log-log scatter plot
and an HTML page into --report. --max-mae fails the run when the MAE over every kernel passes it;
--check FILE takes the programs and that bound from a file ({"programs": [...], "max_mae": x}),
as ctest's timing.correlation.h100 does.
docs/correlation.md explains the method.
"""
import argparse
import base64
import csv
import concurrent.futures
import glob
import io
import json
import math
import re
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
CORR = os.path.join(ROOT, "regress", "correlation")
SHORT_NS = 5000  # kernels shorter than this on the chip are mostly launch overhead

METRICS = {
    "gpc__cycles_elapsed.max": "cycles",
    "gpc__cycles_elapsed.avg.per_second": "clock_hz",
    "smsp__inst_executed.sum": "warp_instructions",
    "launch__registers_per_thread": "registers",
    "gpu__time_duration.sum": "ns",
    "launch__grid_size": "grid_size",
    "launch__block_size": "block_size",
}


def number(text):
    return float(text.replace(",", ""))


def read_ncu_csv(path):
    """The launches of one ncu run, in launch order: {kernel, grid, block, metric name: value}."""
    with open(path, newline="") as f:
        lines = [l for l in f if l.startswith('"')]
    launches = {}
    for row in csv.DictReader(lines):
        i = int(row["ID"])
        l = launches.setdefault(i, {"kernel": row["Kernel Name"], "grid": row["Grid Size"], "block": row["Block Size"]})
        key = METRICS.get(row["Metric Name"])
        if key:
            l[key] = number(row["Metric Value"])
    return [launches[i] for i in sorted(launches)]


def reduce_capture(args):
    programs = {}
    for first in sorted(glob.glob(os.path.join(args.capture, "*.1.csv"))):
        name = os.path.basename(first)[: -len(".1.csv")]
        runs = [read_ncu_csv(p) for p in sorted(glob.glob(os.path.join(args.capture, f"{name}.*.csv")))]
        runs = [r for r in runs if r]
        if not runs:
            continue
        base = runs[0]
        if any([l["kernel"] for l in r] != [l["kernel"] for l in base] for r in runs):
            print(f"{name}: the runs launched different kernels; only the first run is kept", file=sys.stderr)
            runs = [base]
        launches = []
        for i, l in enumerate(base):
            launches.append({
                "kernel": l["kernel"], "grid": l["grid"], "block": l["block"],
                "cycles": [int(r[i]["cycles"]) for r in runs],
                "warp_instructions": int(l.get("warp_instructions", 0)),
                "registers": int(l.get("registers", 0)),
                "clock_mhz": round(statistics.median(r[i]["clock_hz"] for r in runs) / 1e6, 1),
                "ns": int(statistics.median(r[i]["ns"] for r in runs)),
            })
        programs[name] = launches
    gpu = open(os.path.join(args.capture, "gpu.txt")).read().splitlines()
    doc = {
        "description": "Cycles of every kernel launch of the corpus on a real GPU (regress/correlation/README.md)",
        "gpu": gpu,
        "runs": max(len(l["cycles"]) for p in programs.values() for l in p),
        "launch_cap": args.launch_cap,
        "programs": programs,
    }
    with open(args.out, "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    kernels = {(p, l["kernel"]) for p, ls in programs.items() for l in ls}
    print(f"{args.out}: {len(programs)} programs, {sum(len(v) for v in programs.values())} launches, {len(kernels)} kernels")


def kernel_key(name):
    """A mangled kernel name without the hash nvcc gives an anonymous namespace, which changes
    with the source file's text (a header it includes, a line elsewhere), so that a kernel keeps
    its golden data across edits that do not touch it."""
    return re.sub(r"_GLOBAL__N__[0-9a-f]{8}_", "_GLOBAL__N__________", name)


def chip_kernels(golden):
    """Per (program, kernel): launches, cycles summed (median of runs, least, most), duration, SASS count."""
    out = {}
    for prog, launches in golden["programs"].items():
        for l in launches:
            k = out.setdefault((prog, kernel_key(l["kernel"])), {"launches": 0, "cycles": 0, "lo": 0, "hi": 0, "ns": 0, "sass": 0})
            k["launches"] += 1
            k["cycles"] += statistics.median(l["cycles"])
            k["lo"] += min(l["cycles"])
            k["hi"] += max(l["cycles"])
            k["ns"] += l["ns"]
            k["sass"] += l["warp_instructions"]
    return out


def run_program(build, config, prog, sets):
    """The model's launches of one program: [(kernel, cycles, warp instructions)] in launch order."""
    binary = os.path.join(build, "regress", "correlation", prog)
    if not os.path.exists(binary):
        binary = os.path.join(build, "regress", "apps", prog)
    if not os.path.exists(binary):
        return prog, None, ["not built (cmake --build BUILD --target correlation_corpus)"]
    with tempfile.TemporaryDirectory() as tmp:
        stats = os.path.join(tmp, "stats.json")
        env = dict(os.environ, LD_LIBRARY_PATH=os.path.join(build, "cudart"), GPUSIM_CONFIG=config,
                   GPUSIM_MODE="timing", GPUSIM_STATS=stats, GPUSIM_PROGRESS="0")
        if sets:
            env["GPUSIM_SET"] = sets
        p = subprocess.run([binary], env=env, cwd=tmp, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if not os.path.exists(stats):
            return prog, None, p.stderr.strip().splitlines()[-1:] or [f"exit {p.returncode}"]
        doc = json.load(open(stats))
    kernels = sorted(doc.get("kernels", []), key=lambda k: k.get("start_ns", 0))
    return prog, [(kernel_key(k["kernel"]), k["cycles"], k["warp_instructions"]) for k in kernels], None


def model_kernels(model_launches, chip):
    """Per (program, kernel): the model's cycles over as many of its first launches as the chip's."""
    out = {}
    for prog, launches in model_launches.items():
        taken = {}
        for name, cycles, winst in launches:
            want = chip.get((prog, name), {}).get("launches", 0)
            t = taken.setdefault(name, {"launches": 0, "cycles": 0, "winst": 0})
            if t["launches"] < want:
                t["launches"] += 1
                t["cycles"] += cycles
                t["winst"] += winst
        for name, t in taken.items():
            out[(prog, name)] = t
    return out


def mae(pairs):
    return sum(abs(m - c) / c for c, m in pairs) / len(pairs) if pairs else float("nan")


def pearson(pairs):
    if len(pairs) < 2:
        return float("nan")
    xs, ys = [c for c, _ in pairs], [m for _, m in pairs]
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys))
    sxx = sum((x - mx) ** 2 for x in xs)
    syy = sum((y - my) ** 2 for y in ys)
    return sxy / math.sqrt(sxx * syy) if sxx > 0 and syy > 0 else float("nan")


def demangle(names):
    tool = shutil.which("c++filt")
    if not tool:
        return {n: n for n in names}
    out = subprocess.run([tool], input="\n".join(names), capture_output=True, text=True).stdout.splitlines()
    return {n: (d.split("(")[0] if d else n) for n, d in zip(names, out)}


def summary_rows(rows, heldback):
    parts = [
        ("every kernel", rows),
        ("chip >= 5 us", [r for r in rows if not r["short"]]),
        ("chip < 5 us", [r for r in rows if r["short"]]),
        ("tuned", [r for r in rows if r["key"] not in heldback]),
        ("held back", [r for r in rows if r["key"] in heldback]),
    ]
    out = []
    for label, part in parts:
        pairs = [(r["chip"], r["model"]) for r in part]
        out.append((label, len(part), mae(pairs), pearson(pairs)))
    return out


def scatter_png(rows, heldback, path, title):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(6.4, 6.0), dpi=110)
    for held, colour, label in ((False, "tab:blue", "tuned"), (True, "tab:orange", "held back")):
        pts = [r for r in rows if (r["key"] in heldback) == held]
        ax.scatter([r["chip"] for r in pts], [r["model"] for r in pts], s=14, c=colour, label=label, alpha=0.8,
                   marker="o")
    lo = min(min(r["chip"], r["model"]) for r in rows) / 1.5
    hi = max(max(r["chip"], r["model"]) for r in rows) * 1.5
    ax.plot([lo, hi], [lo, hi], "k-", lw=0.8)
    ax.plot([lo, hi], [lo * 1.15, hi * 1.15], "k:", lw=0.6)
    ax.plot([lo, hi], [lo / 1.15, hi / 1.15], "k:", lw=0.6)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlim(lo, hi)
    ax.set_ylim(lo, hi)
    ax.set_xlabel("chip cycles (Nsight Compute, gpc__cycles_elapsed.max)")
    ax.set_ylabel("model cycles (timing mode)")
    ax.set_title(title, fontsize=9)
    ax.legend(loc="upper left", fontsize=8)
    ax.grid(True, which="both", lw=0.3, alpha=0.5)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def write_report(report, rows, summary, heldback, title, failures):
    os.makedirs(report, exist_ok=True)
    png = os.path.join(report, "correlation.png")
    scatter_png(rows, heldback, png, title)
    data = base64.b64encode(open(png, "rb").read()).decode()
    h = io.StringIO()
    h.write(f"<!doctype html><html><head><meta charset='utf-8'><title>{title.splitlines()[0]}</title><style>"
            "body{font-family:sans-serif;margin:2em}table{border-collapse:collapse;font-size:13px}"
            "td,th{border:1px solid #ccc;padding:2px 6px;text-align:right}td.l{text-align:left}"
            ".bad{background:#fdd}.ok{background:#dfd}</style></head><body>")
    h.write(f"<h1>{'<br>'.join(title.splitlines())}</h1><img src='data:image/png;base64,{data}'><h2>Summary</h2><table>"
            "<tr><th>part</th><th>kernels</th><th>MAE</th><th>Pearson r</th></tr>")
    for label, n, e, r in summary:
        h.write(f"<tr><td class=l>{label}</td><td>{n}</td><td>{e:.1%}</td><td>{r:.3f}</td></tr>")
    h.write("</table><h2>Kernels</h2><table><tr><th>program</th><th>kernel</th><th>part</th><th>launches</th>"
            "<th>chip cycles</th><th>spread</th><th>model cycles</th><th>error</th><th>chip us</th>"
            "<th>SASS warp inst</th><th>model warp inst</th></tr>")
    for r in rows:
        cls = "ok" if abs(r["error"]) <= 0.15 else "bad"
        h.write(f"<tr><td class=l>{r['program']}</td><td class=l>{r['name']}</td>"
                f"<td class=l>{'held back' if r['key'] in heldback else 'tuned'}</td><td>{r['launches']}</td>"
                f"<td>{r['chip']:.0f}</td><td>{r['spread']:.1%}</td><td>{r['model']:.0f}</td>"
                f"<td class={cls}>{r['error']:+.1%}</td><td>{r['ns'] / 1000:.1f}</td><td>{r['sass']}</td><td>{r['winst']}</td></tr>")
    h.write("</table>")
    if failures:
        h.write("<h2>Programs that did not run</h2><ul>")
        for prog, why in failures:
            h.write(f"<li>{prog}: {' '.join(why)}</li>")
        h.write("</ul>")
    h.write("</body></html>\n")
    with open(os.path.join(report, "correlation.html"), "w") as f:
        f.write(h.getvalue())


def read_heldback(path):
    keys = set()
    for line in open(path):
        line = line.split("#")[0].strip()
        if line:
            keys.add(line)
    return keys


def correlate(args):
    if args.check:
        check = json.load(open(args.check))
        args.programs = ",".join(check["programs"])
        args.max_mae = check["max_mae"]
    golden = json.load(open(args.golden))
    heldback_programs = read_heldback(args.heldback)
    chip = chip_kernels(golden)
    programs = sorted(golden["programs"])
    if args.programs:
        wanted = args.programs.split(",")
        unknown = [p for p in wanted if p not in golden["programs"]]
        if unknown:
            sys.exit(f"correlate: not in {args.golden}: {', '.join(unknown)}")
        programs = wanted
    model_launches, failures = {}, []
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for prog, launches, why in pool.map(lambda p: run_program(args.build, args.config, p, args.set), programs):
            if launches is None:
                failures.append((prog, why))
            else:
                model_launches[prog] = launches
    model = model_kernels(model_launches, chip)
    names = demangle(sorted({k for _, k in chip}))
    rows = []
    for key in sorted(chip):
        prog, kernel = key
        if prog not in model_launches:
            continue
        c, m = chip[key], model.get(key)
        if not m or m["launches"] != c["launches"]:
            failures.append((prog, [f"{names[kernel]}: {m['launches'] if m else 0} launches on the model, {c['launches']} on the chip"]))
            continue
        rows.append({
            "key": prog, "program": prog, "kernel": kernel, "name": names[kernel], "launches": c["launches"],
            "chip": c["cycles"], "model": m["cycles"], "error": (m["cycles"] - c["cycles"]) / c["cycles"],
            "spread": (c["hi"] - c["lo"]) / c["cycles"], "ns": c["ns"], "short": c["ns"] / c["launches"] < SHORT_NS,
            "sass": c["sass"], "winst": m["winst"],
        })
    heldback = heldback_programs
    print(f"{'program':<20} {'kernel':<44} {'n':>3} {'chip':>10} {'model':>10} {'error':>8}  part")
    for r in rows:
        part = ("held back" if r["key"] in heldback else "tuned") + (", < 5 us" if r["short"] else "")
        print(f"{r['program'][:20]:<20} {r['name'][:44]:<44} {r['launches']:>3} {r['chip']:>10.0f} {r['model']:>10.0f} "
              f"{r['error']:>+8.1%}  {part}")
    for prog, why in failures:
        print(f"not compared: {prog}: {' '.join(why)}")
    summary = summary_rows(rows, heldback)
    print()
    for label, n, e, r in summary:
        print(f"{label:<14} {n:>4} kernels  MAE {e:7.1%}  r {r:6.3f}")
    if args.report and rows:
        card = golden["gpu"][1].split(",")[0] if len(golden["gpu"]) > 1 else "the chip"
        title = f"{args.config} (timing mode) against {card}\n{len(rows)} kernels, MAE {summary[0][2]:.1%}, r {summary[0][3]:.3f}"
        write_report(args.report, rows, summary, heldback, title, failures)
        print(f"report: {os.path.join(args.report, 'correlation.html')}")
    if failures and args.strict:
        return 1
    if args.max_mae is not None and not summary[0][2] <= args.max_mae:
        print(f"FAIL: MAE {summary[0][2]:.1%} over every kernel passes the bound {args.max_mae:.1%}")
        return 1
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("reduce", help="ncu captures -> golden JSON")
    r.add_argument("capture")
    r.add_argument("--out", default=os.path.join(CORR, "h100.json"))
    r.add_argument("--launch-cap", type=int, default=40)
    c = sub.add_parser("run", help="run the corpus on the model and compare")
    c.add_argument("--build", default=os.path.join(ROOT, "build"))
    c.add_argument("--config", default="hopper-h100")
    c.add_argument("--set", default="", help="GPUSIM_SET overrides for every run")
    c.add_argument("--golden", default=os.path.join(CORR, "h100.json"))
    c.add_argument("--heldback", default=os.path.join(CORR, "heldback.txt"))
    c.add_argument("--programs", default="", help="comma-separated subset")
    c.add_argument("--report", default="", help="folder for correlation.png and correlation.html")
    c.add_argument("--max-mae", type=float, default=None)
    c.add_argument("--check", default="", help="JSON file with the programs to run and the MAE bound")
    c.add_argument("--strict", action="store_true", help="fail when a program or kernel cannot be compared")
    c.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    if args.cmd == "reduce":
        reduce_capture(args)
        return 0
    return correlate(args)


if __name__ == "__main__":
    sys.exit(main())
