#!/usr/bin/env python3
"""Holds the includes of tlm/, rtl_models/ and sw/ against the folders' declared order.

    check_layers.py SOURCE_DIR LAYERS_FILE

LAYERS_FILE (build/layers.txt, written by cmake/libraries.cmake) lists the folders from the bottom
up, each with the folders its library links: "rtl_models/smem rtl_models/isa". The check fails when
  - a file includes a folder its own folder does not declare (an include that runs back up, or
    sideways past the declarations, and any circle);
  - a folder declares a folder it includes nothing of (it links only what it includes);
  - a folder is declared after one that stands on it, or twice;
  - a folder of sources is not declared;
  - an include is not written from the include path ("isa/isa.h", not "../isa/isa.h" or a path
    relative to the including file), or two roots hold a folder of one name (an include would be
    ambiguous);
  - a declared folder has no testbench of its name (testbench/UNIT, testbench/tlm/UNIT).
"""
import os
import re
import sys

ROOTS = ["rtl_models", "tlm", "sw"]
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')
# Folders whose code is not C++ of the model: data and generated tables.
NOT_CODE = {"rtl_models/configs"}


def main():
    src, layers_file = sys.argv[1], sys.argv[2]
    order, declared = [], {}
    problems = []
    for line in open(layers_file):
        parts = line.split()
        if not parts:
            continue
        folder, deps = parts[0], parts[1:]
        if folder in declared:
            problems.append(f"{folder} is declared twice")
        for d in deps:
            if d not in declared:
                problems.append(f"{folder} stands on {d}, which is declared after it")
        declared[folder] = set(deps)
        order.append(folder)

    names = {}
    for root in ROOTS:
        for d in sorted(os.listdir(os.path.join(src, root))):
            if not os.path.isdir(os.path.join(src, root, d)):
                continue
            folder = f"{root}/{d}"
            if d in names:
                problems.append(f"{names[d]} and {folder} share a name: an include of {d}/ would be ambiguous")
            names[d] = folder
            has_code = any(f.endswith((".h", ".cpp")) for f in os.listdir(os.path.join(src, folder)))
            if has_code and folder not in declared and folder not in NOT_CODE:
                problems.append(f"{folder} holds sources but is not declared in cmake/libraries.cmake")
        for f in os.listdir(os.path.join(src, root)):
            if f.endswith((".h", ".cpp")):
                problems.append(f"{root}/{f} sits outside any folder")

    included = {folder: set() for folder in declared}
    edges = 0
    for folder in order:
        for name in sorted(os.listdir(os.path.join(src, folder))):
            if not name.endswith((".h", ".cpp")):
                continue
            path = os.path.join(src, folder, name)
            for n, line in enumerate(open(path, errors="replace"), 1):
                m = INCLUDE.match(line)
                if not m:
                    continue
                target = m.group(1)
                where = f"{folder}/{name}:{n}"
                if "/" not in target:
                    # Generated or external headers (Verilator's) only: no file of the repository.
                    if any(os.path.exists(os.path.join(src, r, target)) for r in ROOTS) or \
                            os.path.exists(os.path.join(src, folder, target)):
                        problems.append(f'{where}: "{target}" is written relative to the file; write it from the include path')
                    continue
                if target.startswith("."):
                    problems.append(f'{where}: "{target}" is a relative path; write it from the include path')
                    continue
                top = target.split("/")[0]
                if top not in names or not os.path.exists(os.path.join(src, names[top], *target.split("/")[1:])):
                    problems.append(f'{where}: "{target}" is not a file of the include path')
                    continue
                to = names[top]
                if to == folder:
                    continue
                edges += 1
                included[folder].add(to)
                if to not in declared[folder]:
                    direction = "back up" if to in declared and order.index(to) > order.index(folder) else "past its declaration"
                    problems.append(f'{where}: includes "{target}" of {to}, which {folder} does not stand on ({direction})')
    for folder in order:
        for d in sorted(declared[folder] - included[folder]):
            problems.append(f"{folder} links {d} but includes nothing of it")

    for folder in order:
        root, unit = folder.split("/", 1)
        bench = os.path.join(src, "testbench", unit) if root != "tlm" else os.path.join(src, "testbench", "tlm", unit)
        if not os.path.isdir(bench) or not any(f.endswith(".cpp") for f in os.listdir(bench)):
            problems.append(f"{folder} has no testbench ({os.path.relpath(bench, src)})")

    for p in problems:
        print(p)
    if problems:
        sys.exit(f"check_layers: {len(problems)} problems")
    print(f"check_layers: {len(order)} folders, {edges} includes across folders, all downward")


if __name__ == "__main__":
    main()
