// A value stepped in a loop that runs a number of times known only at run time.
// bankcheck-ui: args --select undecided-access
__global__ void scan(unsigned short *out, int n) {
    __shared__ unsigned short s[1024];
    unsigned int offset = 1;
    for (int d = n >> 1; d > 0; d >>= 1) {
        if (threadIdx.x < d) {
            s[offset * (2 * threadIdx.x + 2) - 1] += s[offset * (2 * threadIdx.x + 1) - 1];
        }
        offset <<= 1;
    }
    // `offset` is `1 << trips` of the loop above, a count that depends on `n`.
    for (int d = 2; d < n; d <<= 1) {
        offset >>= 1;
        if (threadIdx.x < d - 1) {
            s[offset * (threadIdx.x + 1) - 1 + (offset >> 1)] += s[offset * (threadIdx.x + 1) - 1];
        }
    }
    out[threadIdx.x] = s[threadIdx.x];
}

void launch(unsigned short *out, int n) { scan<<<1, 512>>>(out, n); }
