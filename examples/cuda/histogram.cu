// A per-block histogram with shared atomics: lanes that hit the same bin serialise.
#define BINS 64

__global__ void __launch_bounds__(256) histogram(const unsigned char* data, unsigned int* bins, int n) {
    __shared__ unsigned int local[BINS];
    __shared__ double weights[BINS];
    int t = threadIdx.x;
    if (t < BINS) {
        local[t] = 0;
        weights[t] = 0.0;
    }
    __syncthreads();
    atomicAdd(&local[t % 4], 1u);
    atomicAdd(&local[t % BINS], 1u);
    __syncthreads();
    if (t < BINS) atomicAdd(&bins[t], local[t]);
}
