#!/usr/bin/env python3
"""Plots of a gpusim sweep (gpusim sweep runs this with the results folder; docs/sweeps.md).

For each metric: with one parameter, the metric against it, one line per workload; with two, a
heatmap per workload (first parameter across, second up); with more, the metric against the first
parameter, one line per workload and combination of the others. Writes plots/<name>.png and .svg.
"""
import json
import os
import re
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

plt.rcParams["svg.hashsalt"] = "gpusim"   # the same results give the same SVG


def ordered(values):
    """Distinct values in their order of appearance; numerically sorted when all are numbers."""
    seen = []
    for v in values:
        if v not in seen:
            seen.append(v)
    try:
        return sorted(seen, key=float)
    except ValueError:
        return seen


def slug(text):
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", text)


def save(fig, folder, name):
    for ext in ("png", "svg"):
        fig.savefig(os.path.join(folder, f"{name}.{ext}"), dpi=110, bbox_inches="tight", metadata={"Date": None} if ext == "svg" else None)
    plt.close(fig)
    print(f"plot: {name}.png, {name}.svg")


def line_plot(doc, metric, folder):
    params = doc["parameters"]
    first = params[0]
    xs = ordered([r["parameters"][first] for r in doc["rows"]])
    fig, ax = plt.subplots(figsize=(6.4, 4))
    groups = {}
    for r in doc["rows"]:
        others = ", ".join(f"{p}={r['parameters'][p]}" for p in params[1:])
        label = r["workload"] + (f" ({others})" if others else "")
        groups.setdefault(label, {})[r["parameters"][first]] = r["metrics"][metric]
    for label, values in groups.items():
        ys = [values.get(x) for x in xs]
        ax.plot(range(len(xs)), [float("nan") if y is None else y for y in ys], marker="o", label=label)
    ax.set_xticks(range(len(xs)))
    ax.set_xticklabels(xs)
    ax.set_xlabel(first)
    ax.set_ylabel(metric)
    ax.set_title(f"{metric} ({doc['mode']}, {os.path.basename(doc['config'])})")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize="small")
    save(fig, folder, slug(metric))


def heatmaps(doc, metric, folder):
    a, b = doc["parameters"]
    xs = ordered([r["parameters"][a] for r in doc["rows"]])
    ys = ordered([r["parameters"][b] for r in doc["rows"]])
    for workload in doc["workloads"]:
        grid = [[float("nan")] * len(xs) for _ in ys]
        for r in doc["rows"]:
            v = r["metrics"][metric]
            if r["workload"] == workload and v is not None:
                grid[ys.index(r["parameters"][b])][xs.index(r["parameters"][a])] = v
        fig, ax = plt.subplots(figsize=(1.2 * len(xs) + 2.5, 0.8 * len(ys) + 1.8))
        image = ax.imshow(grid, origin="lower", cmap="viridis", aspect="auto")
        fig.colorbar(image, ax=ax, label=metric)
        known = [v for row in grid for v in row if v == v]
        middle = (min(known) + max(known)) / 2 if known else 0
        for i in range(len(ys)):
            for j in range(len(xs)):
                v = grid[i][j]
                if v == v:   # not NaN: the point ran
                    ax.text(j, i, f"{v:.6g}", ha="center", va="center", fontsize="small",
                            color="black" if v > middle else "white")
        ax.set_xticks(range(len(xs)))
        ax.set_xticklabels(xs)
        ax.set_yticks(range(len(ys)))
        ax.set_yticklabels(ys)
        ax.set_xlabel(a)
        ax.set_ylabel(b)
        ax.set_title(f"{workload}: {metric}")
        save(fig, folder, slug(f"{metric}-{workload}"))


def main():
    folder = sys.argv[1]
    with open(os.path.join(folder, "results.json")) as f:
        doc = json.load(f)
    plots = os.path.join(folder, "plots")
    os.makedirs(plots, exist_ok=True)
    for m in doc["metrics"]:
        if len(doc["parameters"]) == 2:
            heatmaps(doc, m["name"], plots)
        else:
            line_plot(doc, m["name"], plots)


if __name__ == "__main__":
    main()
