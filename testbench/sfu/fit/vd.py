import numpy as np, os, glob
D = os.environ.get('SFU_CAPTURES', 'captures')  # the folder sfu_capture wrote fit.list into
def decode(path):
    b = np.frombuffer(open(path, 'rb').read(), dtype=np.uint8)
    ends = np.nonzero(b < 128)[0]
    starts = np.concatenate(([0], ends[:-1] + 1))
    lens = ends - starts + 1
    vals = np.zeros(len(ends), dtype=np.uint64)
    for k in range(int(lens.max())):
        m = lens > k
        vals[m] |= (b[starts[m] + k].astype(np.uint64) & 127) << np.uint64(7 * k)
    d = (vals >> np.uint64(1)).astype(np.int64) ^ -(vals & np.uint64(1)).astype(np.int64)
    return np.cumsum(d).astype(np.uint32)
def load(op, kind, base, stride, seed, n):
    p = glob.glob(f"{D}/{op}.{kind}.{base:08x}.{stride:x}.{seed:x}.{n}.vd")
    assert len(p) == 1, (op, p)
    return decode(p[0])
def mix(z):
    z = (z + np.uint64(0x9E3779B97F4A7C15))
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))
def rnd32(h):
    mode = (h >> np.uint64(62)).astype(np.uint32); lo = (h & np.uint64(0xFFFFFFFF)).astype(np.uint32)
    mant = lo & np.uint32(0x7FFFFF); sign = lo & np.uint32(0x80000000)
    e2 = ((h >> np.uint64(40)) % np.uint64(61)).astype(np.int64) - 30
    e3 = ((h >> np.uint64(40)) % np.uint64(12)).astype(np.int64) - 3
    e = np.where(mode == 2, e2, e3)
    v = sign | ((e + 127).astype(np.uint32) << np.uint32(23)) | mant
    return np.where(mode < 2, lo, v).astype(np.uint32)
def rand_inputs(seed, n, kind=1):
    i = np.arange(n, dtype=np.uint64)
    with np.errstate(over='ignore'):
        ha = mix(np.uint64(seed) ^ (i * np.uint64(2)))
        if kind == 2: return (ha & np.uint64(0xFFFFFFFF)).astype(np.uint32)
        a = rnd32(ha)
        if kind == 3: return a, rnd32(mix(np.uint64(seed) ^ (i * np.uint64(2) + np.uint64(1))))
        return a
def sweep(base, stride, n): return (np.uint32(base) + np.arange(n, dtype=np.uint64).astype(np.uint32) * np.uint32(stride)).astype(np.uint32)
f32 = lambda u: u.view(np.float32)
