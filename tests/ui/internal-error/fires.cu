// The test hook kills the worker checking this file: the run reports it and exits 2.
// bankcheck-ui: env BANKCHECK_TEST_CRASH={path}
__global__ void copy(float* out) {
    __shared__ float s[32];
    out[threadIdx.x] = s[threadIdx.x];
}
