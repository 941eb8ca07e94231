// The test hook kills the worker checking this file: the run reports it and exits 2.
// bankcheck-ui: env BANKCHECK_TEST_CRASH={path}
// bankcheck-ui: known-failure a crashed file is also warned about as "neither CUDA nor HLSL"
__global__ void copy(float* out) {
    __shared__ float s[32];
    out[threadIdx.x] = s[threadIdx.x];
}
