# exact per-segment solve of quarter-wave table F (MUFU.SIN) as quadratic: acc = K + C1*d + C2*(fsq(d)>>19), unit 2^-37-j
from tanhlib import fsq
import numpy as np, json
F=np.load('sin_F.npy').astype(np.uint32); Fv=F.view(np.float32).astype(np.float64)
Q=1<<23; nb=6; W=Q>>nb
res=[]
for si in range(64):
    u=np.arange(si*W,(si+1)*W); d=(u-si*W).astype(np.int64); s=fsq(d,T=19)>>19
    ok=None
    for j in (0,1,2,3):
        Y=(Fv[u]*2.0**(37+j)).astype(np.int64)
        ex=np.floor(np.log2(np.maximum(Fv[u],2.0**-60))).astype(np.int64)
        U=np.int64(1)<<np.maximum(ex-23+37+j,0)
        A=np.stack([np.ones(len(d)),d.astype(float),s.astype(float)],1)
        c,*_=np.linalg.lstsq(A[::4],Y[::4].astype(float),rcond=None)
        best=None
        for C1 in range(round(c[1])-3,round(c[1])+4):
            for C2 in range(round(c[2])-3,round(c[2])+4):
                L=C1*d+C2*s; lo=int(np.max(Y-L)); hi=int(np.min(Y+U-L))
                if best is None or hi-lo>best[0]: best=(hi-lo,C1,C2,lo)
        if best[0]>0: ok=(j,)+best; break
    if ok is None:
        L=best[1]*d+best[2]*s; lo=Y-L; hi=Y+U-L
        ks=np.unique(lo)[::50]; sat=[int(np.sum((lo<=k)&(hi>k))) for k in ks]
        print('seg',si,'NO exact fit; best (j=3) C1 C2',best[1:3],'max matched',max(sat),'/',len(d)); res.append(dict(seg=si,exact=False))
    else:
        j,sl,C1,C2,K=ok; res.append(dict(seg=si,j=j,C1=C1,C2=C2,K=K,exact=True))
        print('seg %d j %d C1 %d C2 %d K %d (0x%x) slack %d'%(si,j,C1,C2,K,K,sl))
json.dump(res,open('sin_table.json','w'))
