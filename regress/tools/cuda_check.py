#!/usr/bin/env python3
"""Cross-check regression manifests on a real NVIDIA GPU (CUDA driver API via ctypes).

usage: cuda_check.py MANIFEST.json [...]

Builds every buffer exactly like sw/runtime/generators.h (a Python port of it),
JIT-loads the manifest's PTX, runs the launches and compares each "expect" file
byte for byte. Only needs python3 and libcuda; meant to validate the committed
refs (and the refgen arithmetic) against hardware, not to model Fermi.
"""
import ctypes, json, os, struct, sys

M64 = (1 << 64) - 1


def splitmix64(x):
    x = (x + 0x9E3779B97F4A7C15) & M64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & M64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & M64
    return x ^ (x >> 31)


def random_bits(seed, i):
    return splitmix64(splitmix64(seed) ^ i)


def c_u32(x):  # C++ uint32_t(double) for in-range values
    return int(x) & 0xFFFFFFFF


def gen_random(nbytes, t, seed, lo, hi):
    out = bytearray(nbytes)
    esz = 1 if t == "u8" else 4
    for i in range(nbytes // esz):
        r = random_bits(seed, i)
        if t in ("u8", "u32"):
            l, h = c_u32(lo), c_u32(hi)
            v = l + r % (h - l + 1)
            if t == "u8":
                out[i] = v & 0xFF
            else:
                struct.pack_into("<I", out, 4 * i, v & 0xFFFFFFFF)
        elif t == "s32":
            l, h = int(lo), int(hi)
            struct.pack_into("<i", out, 4 * i, l + r % (h - l + 1))
        else:
            unit = float(r >> 40) / float(1 << 24)
            struct.pack_into("<f", out, 4 * i, lo + (hi - lo) * unit)
    return out


def gen_iota(nbytes, t, start, step):
    out = bytearray(nbytes)
    esz = 1 if t == "u8" else 4
    for i in range(nbytes // esz):
        x = start + step * float(i)
        if t == "u8":
            out[i] = int(x) & 0xFF
        elif t == "u32":
            struct.pack_into("<I", out, 4 * i, int(x) & 0xFFFFFFFF)
        elif t == "s32":
            struct.pack_into("<i", out, 4 * i, int(x))
        else:
            struct.pack_into("<f", out, 4 * i, x)
    return out


def init_buffer(b, base):
    n, init = b["bytes"], b["init"]
    if "fill" in init:
        return bytearray([init["fill"]]) * n
    if "random" in init:
        r = init["random"]
        return gen_random(n, r["type"], r["seed"], float(r["min"]), float(r["max"]))
    if "iota" in init:
        r = init["iota"]
        return gen_iota(n, r["type"], float(r["start"]), float(r["step"]))
    if "file" in init:
        with open(os.path.join(base, init["file"]), "rb") as f:
            f.seek(init.get("offset", 0))
            data = f.read(n)
        return bytearray(data) + bytearray(n - len(data))
    raise ValueError("unknown init %r" % init)


cu = ctypes.CDLL("libcuda.so.1")


def ck(rc, what):
    if rc != 0:
        s = ctypes.c_char_p()
        cu.cuGetErrorString(rc, ctypes.byref(s))
        raise RuntimeError("%s failed: %d %s" % (what, rc, s.value))


def run_manifest(path):
    base = os.path.dirname(os.path.abspath(path))
    with open(path) as f:
        m = json.load(f)
    with open(os.path.join(base, m["module"]), "rb") as f:
        ptx = f.read() + b"\0"
    mod = ctypes.c_void_p()
    ck(cu.cuModuleLoadData(ctypes.byref(mod), ptx), "cuModuleLoadData")
    host, dev = {}, {}
    for b in m["buffers"]:
        host[b["name"]] = init_buffer(b, base)
        p = ctypes.c_uint64()
        ck(cu.cuMemAlloc_v2(ctypes.byref(p), ctypes.c_size_t(b["bytes"])), "cuMemAlloc")
        data = (ctypes.c_char * b["bytes"]).from_buffer(host[b["name"]])
        ck(cu.cuMemcpyHtoD_v2(p, data, ctypes.c_size_t(b["bytes"])), "cuMemcpyHtoD")
        dev[b["name"]] = p
    ok = True
    for L in m["launches"]:
        fn = ctypes.c_void_p()
        ck(cu.cuModuleGetFunction(ctypes.byref(fn), mod, L["kernel"].encode()), "cuModuleGetFunction")
        keep = []
        for a in L["args"]:
            (k, v), = a.items()
            ctor = {"buffer": ctypes.c_uint64, "u32": ctypes.c_uint32, "s32": ctypes.c_int32,
                    "u64": ctypes.c_uint64, "s64": ctypes.c_int64, "f32": ctypes.c_float,
                    "f64": ctypes.c_double}[k]
            keep.append(ctor(dev[v].value if k == "buffer" else v))
        argv = (ctypes.c_void_p * len(keep))(*[ctypes.cast(ctypes.pointer(x), ctypes.c_void_p) for x in keep])
        g, bl = L["grid"], L["block"]
        ck(cu.cuLaunchKernel(fn, g[0], g[1], g[2], bl[0], bl[1], bl[2], L.get("shared_bytes", 0),
                             None, argv, None), "cuLaunchKernel")
        ck(cu.cuCtxSynchronize(), "cuCtxSynchronize")
        for e in L.get("expect", []):
            name = e["buffer"]
            n = len(host[name])
            got = bytearray(n)
            ck(cu.cuMemcpyDtoH_v2((ctypes.c_char * n).from_buffer(got), dev[name], ctypes.c_size_t(n)), "cuMemcpyDtoH")
            with open(os.path.join(base, e["file"]), "rb") as f:
                want = f.read()
            if bytes(got) == want:
                print("  PASS %s %s (%d bytes)" % (L["kernel"], name, n))
            else:
                bad = [i for i in range(min(n, len(want))) if got[i] != want[i]]
                print("  FAIL %s %s: size %d vs %d, %d bytes differ, first at %s"
                      % (L["kernel"], name, n, len(want), len(bad), bad[:8]))
                ok = False
    for p in dev.values():
        cu.cuMemFree_v2(p)
    cu.cuModuleUnload(mod)
    return ok


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    ck(cu.cuInit(0), "cuInit")
    d = ctypes.c_int()
    ck(cu.cuDeviceGet(ctypes.byref(d), 0), "cuDeviceGet")
    ctx = ctypes.c_void_p()
    ck(cu.cuDevicePrimaryCtxRetain(ctypes.byref(ctx), d), "cuDevicePrimaryCtxRetain")
    ck(cu.cuCtxSetCurrent(ctx), "cuCtxSetCurrent")
    ok = True
    for p in sys.argv[1:]:
        print(p)
        ok = run_manifest(p) and ok
    print("ALL PASS" if ok else "SOME FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
