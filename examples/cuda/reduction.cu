// Block reductions: interleaved addressing (strided, conflicting) versus sequential
// addressing (conflict-free).
#define BLOCK 256

__global__ void reduce_interleaved(const float* in, float* out) {
    __shared__ float sdata[BLOCK];
    unsigned int tid = threadIdx.x;
    sdata[tid] = in[blockIdx.x * BLOCK + tid];
    __syncthreads();
    for (unsigned int s = 1; s < BLOCK; s *= 2) {
        int index = 2 * s * tid;
        if (index < BLOCK)
            sdata[index] += sdata[index + s];
        __syncthreads();
    }
    if (tid == 0) out[blockIdx.x] = sdata[0];
}

__global__ void reduce_sequential(const float* in, float* out) {
    __shared__ float sdata[BLOCK];
    unsigned int tid = threadIdx.x;
    sdata[tid] = in[blockIdx.x * BLOCK + tid];
    __syncthreads();
    for (unsigned int s = BLOCK / 2; s > 0; s >>= 1) {
        if (tid < s)
            sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0) out[blockIdx.x] = sdata[0];
}

void reduce(const float* in, float* out, int blocks) {
    reduce_interleaved<<<blocks, BLOCK>>>(in, out);
    reduce_sequential<<<blocks, BLOCK>>>(in, out);
}
