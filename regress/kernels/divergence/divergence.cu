// Control-flow stress test: a bounded Collatz walk per thread with data-dependent
// trip counts, if/else inside the loop, continue, break, and early returns.
// Threads whose input is a multiple of 13 return without writing (out keeps its initial bytes).
extern "C" __global__ void divergence(const unsigned* in, unsigned* out, unsigned n, unsigned max_iter)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;

    unsigned x = in[i];
    if (x % 13u == 0u)
        return;                         // early return, no store

    unsigned steps = 0, acc = 0;
    for (unsigned it = 0; it < max_iter; ++it) {
        if (x == 1u)
            break;
        if (x & 1u) {
            x = 3u * x + 1u;
            acc += x;
        } else {
            x >>= 1;
            if ((x & 3u) == 0u)
                continue;               // skip the step count
            acc ^= x << (it & 7u);
        }
        ++steps;
    }

    out[i] = (x == 1u) ? acc * 31u + steps : ~steps;
}
