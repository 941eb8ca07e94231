// A helper that returns early under a run-time condition: the value is undecided for the reason of the side bankcheck cannot follow (a binary search over data), not for the early return.
// bankcheck-ui: args --select undecided-access
__device__ unsigned search(const unsigned* data, unsigned val, unsigned len) {
    if (len == 0) {
        return 0;
    }
    unsigned pos = 0;
    for (unsigned stride = len; stride > 0; stride >>= 1) {
        unsigned next = min(pos + stride, len);
        if (data[next - 1] <= val) {
            pos = next;
        }
    }
    return pos;
}

// bankcheck: block(32)
__global__ void merge(const unsigned* keys, unsigned n) {
    __shared__ unsigned sorted[64];
    sorted[threadIdx.x] = keys[threadIdx.x];
    __syncthreads();
    unsigned p = search(sorted, keys[threadIdx.x], n);
    sorted[p + 32] = keys[threadIdx.x];
}
