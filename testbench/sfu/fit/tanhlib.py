import sys, os; sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from vd import *
def fsq(d, T=19, nb=17):
    """folded truncated squarer: keep partial-product bits of weight >= 2^T"""
    d = np.asarray(d, dtype=np.int64); s = np.zeros_like(d)
    b = [(d >> i) & 1 for i in range(nb)]
    for i in range(nb):
        if 2 * i >= T: s += b[i] << (2 * i)
        for j in range(i + 1, nb):
            if i + j + 1 >= T: s += (b[i] & b[j]) << (i + j + 1)
    return s
