import sys,os; sys.path.insert(0,os.path.dirname(os.path.abspath(__file__)))
from vd import *
C = np.float64(np.uint32(0x3e22f983).view(np.float32))
def rzf(v):
    f = v.astype(np.float32); over = np.abs(f.astype(np.float64)) > np.abs(v)
    u = f.view(np.uint32).copy(); u[over] -= 1; return u
def rz_r(x):
    with np.errstate(all='ignore'):
        return rzf(f32(np.asarray(x,np.uint32)).astype(np.float64)*C)
