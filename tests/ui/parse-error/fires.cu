// A kernel whose parameter list is never closed: its shared-memory code cannot be read.
__global__ void broken(float* out {
    __shared__ float s[32];
    out[threadIdx.x] = s[threadIdx.x];
}
