// The hook names another file: this one is checked as usual, with no internal error.
// bankcheck-ui: env BANKCHECK_TEST_CRASH=internal-error/other.cu
__global__ void copy(float* out) {
    __shared__ float s[32];
    out[threadIdx.x] = s[threadIdx.x];
}
