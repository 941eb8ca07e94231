// An index read from memory but the same for the whole warp: a broadcast, decided.
// bankcheck-ui: args --select undecided-access
__global__ void gather(float* out, const int* idx) {
    __shared__ float s[1024];
    out[threadIdx.x] = s[threadIdx.x + 32 * idx[blockIdx.x]];
}

void launch(float* out, const int* idx) { gather<<<1, 32>>>(out, idx); }
