// A loop whose variable doubles up to a bound known only at run time: its counter is
// only ever a shift amount, and a shift by 63 or more is out of range, so the counter's
// values 0..62 are all there are: the factor is exact, not "at least". The merge step of
// a merge sort reads pairs of runs; the conflict needs the loop to run (`n` > 1).
__global__ void merge_runs(unsigned* keys, unsigned n) {
    __shared__ unsigned s_key[1024];
    s_key[threadIdx.x] = keys[threadIdx.x];
    for (unsigned stride = 1; stride < n; stride <<= 1) {
        unsigned lpos = threadIdx.x & (stride - 1);
        unsigned* base = s_key + 2 * (threadIdx.x - lpos);
        __syncthreads();
        // stride 1: words 2 * t, lanes 16 apart meet; wider strides do no worse.
        keys[threadIdx.x] = base[lpos];
    }
}

void launch(unsigned* keys, unsigned n) {
    merge_runs<<<1, 512>>>(keys, n);
}
