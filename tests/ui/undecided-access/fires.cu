// A data-dependent index: which banks the lanes reach depends on memory bankcheck cannot see.
// bankcheck-ui: args --select undecided-access
__global__ void gather(float* out, const int* idx) {
    __shared__ float s[1024];
    out[threadIdx.x] = s[idx[threadIdx.x]];
}

void launch(float* out, const int* idx) { gather<<<1, 32>>>(out, idx); }
