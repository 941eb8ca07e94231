// No launch fixes the block shape: every candidate shape gives the same 32-way conflict, stated once as an assumption.
__global__ void transpose_read(float* out) {
    __shared__ float tile[32][32];
    out[threadIdx.x] = tile[threadIdx.x][0];
}
