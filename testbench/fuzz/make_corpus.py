#!/usr/bin/env python3
"""Writes the fuzz harnesses' seed corpora (testbench/fuzz/corpus/NAME) from the project's own
PTX, manifests, configs and fatbinaries. Run it from anywhere; it rewrites the corpus folders.
PTX modules larger than the harness's input limit are split into one module per function (the
module header, its variables, and that function), so that every instruction family is seeded.
With --merge BUILD (a GPUSIM_FUZZ build folder), each corpus is then cut down to the seeds that
add coverage (libFuzzer's -merge=1), as the committed corpora were."""
import glob
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
OUT = os.path.join(ROOT, "testbench", "fuzz", "corpus")
MAX_LEN = 65536  # libFuzzer's -max_len in testbench/fuzz/CMakeLists.txt


def write(kind, data):
    if isinstance(data, str):
        data = data.encode()
    if len(data) > MAX_LEN:
        return
    name = hashlib.sha1(data).hexdigest()[:16]
    with open(os.path.join(OUT, kind, name), "wb") as f:
        f.write(data)


FUNCTION = re.compile(r"^(?:\.visible |\.weak |\.extern )?\.(?:entry|func)\b", re.M)


def split_ptx(text):
    """The module's header and variables, then each function (declarations and bodies) in turn."""
    starts = [m.start() for m in FUNCTION.finditer(text)]
    if not starts:
        return [text]
    header = text[: starts[0]]
    ends = starts[1:] + [len(text)]
    return [header + text[s:e] for s, e in zip(starts, ends)]


def ptx_seeds():
    for path in sorted(glob.glob(os.path.join(ROOT, "regress", "**", "*.ptx"), recursive=True)):
        text = open(path, encoding="utf-8", errors="replace").read()
        if len(text.encode()) <= MAX_LEN:
            write("ptx", text)
        else:
            for part in split_ptx(text):
                write("ptx", part)


def manifest_seeds():
    for path in sorted(glob.glob(os.path.join(ROOT, "regress", "**", "*.json"), recursive=True)):
        text = open(path, encoding="utf-8").read()
        if '"launches"' in text:
            write("manifest", text)


def config_seeds():
    overrides = ["sm.warp_schedulers=4", "smem.banks=48", "sim.mode=timing", "sim.memcheck=true",
                 "l1.bytes=0", "chip.num_sms=1", "memory.coalescing=cc12", "pipes.alu.lanes=16"]
    for k, path in enumerate(sorted(glob.glob(os.path.join(ROOT, "rtl_models", "configs", "*.json")))):
        text = open(path, encoding="utf-8").read()
        write("config", text)
        write("config", text + "\n--set\n" + "\n".join(overrides[k::2]))


def fatbin_seeds():
    write("fatbin", open(os.path.join(ROOT, "testbench", "cudart", "tiny.fatbin"), "rb").read())
    # More containers from our own sources, plain and compressed, when nvcc is here.
    if not shutil.which("nvcc"):
        return
    tmp = os.path.join(OUT, "..", "tmp.fatbin")
    for src in ["regress/checks/races.cu", "regress/checks/faults.cu"]:
        for extra in [[], ["--no-compress"], ["-gencode", "arch=compute_80,code=compute_80"]]:
            cmd = ["nvcc", "-fatbin", "-gencode", "arch=compute_75,code=compute_75", *extra,
                   "-o", tmp, os.path.join(ROOT, src)]
            subprocess.run(cmd, check=True)
            write("fatbin", open(tmp, "rb").read())
    os.remove(tmp)


def merge(build, kind):
    """Keeps only the seeds of `kind` that add coverage to the harness built in `build`."""
    harness = os.path.join(build, "testbench", "fuzz", "fuzz_" + kind)
    folder = os.path.join(OUT, kind)
    with tempfile.TemporaryDirectory() as kept:
        env = dict(os.environ, ASAN_OPTIONS="detect_leaks=1:allocator_may_return_null=1")
        subprocess.run([harness, "-merge=1", f"-max_len={MAX_LEN}", kept, folder], check=True, env=env,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        shutil.rmtree(folder)
        shutil.copytree(kept, folder)


if __name__ == "__main__":
    for kind in ["ptx", "manifest", "config", "fatbin"]:
        shutil.rmtree(os.path.join(OUT, kind), ignore_errors=True)
        os.makedirs(os.path.join(OUT, kind))
    ptx_seeds()
    manifest_seeds()
    config_seeds()
    fatbin_seeds()
    if len(sys.argv) == 3 and sys.argv[1] == "--merge":
        for kind in ["ptx", "manifest", "config", "fatbin"]:
            merge(os.path.abspath(sys.argv[2]), kind)
    for kind in ["ptx", "manifest", "config", "fatbin"]:
        files = os.listdir(os.path.join(OUT, kind))
        size = sum(os.path.getsize(os.path.join(OUT, kind, f)) for f in files)
        print(f"{kind}: {len(files)} seeds, {size} bytes")
