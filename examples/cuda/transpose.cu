// Matrix transpose through a shared tile, in three versions: a naive tile whose
// column read is 32-way conflicting, the classic padded tile, and an XOR swizzle.
#include <cuda_runtime.h>

#define TILE_DIM 32
#define BLOCK_ROWS 8

__global__ void transpose_naive_tile(float* odata, const float* idata, int width) {
    __shared__ float tile[TILE_DIM][TILE_DIM];
    int x = blockIdx.x * TILE_DIM + threadIdx.x;
    int y = blockIdx.y * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        tile[threadIdx.y + j][threadIdx.x] = idata[(y + j) * width + x];
    __syncthreads();
    x = blockIdx.y * TILE_DIM + threadIdx.x;
    y = blockIdx.x * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        odata[(y + j) * width + x] = tile[threadIdx.x][threadIdx.y + j];
}

__global__ void transpose_padded(float* odata, const float* idata, int width) {
    __shared__ float tile[TILE_DIM][TILE_DIM + 1];
    int x = blockIdx.x * TILE_DIM + threadIdx.x;
    int y = blockIdx.y * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        tile[threadIdx.y + j][threadIdx.x] = idata[(y + j) * width + x];
    __syncthreads();
    x = blockIdx.y * TILE_DIM + threadIdx.x;
    y = blockIdx.x * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        odata[(y + j) * width + x] = tile[threadIdx.x][threadIdx.y + j];
}

__global__ void transpose_swizzled(float* odata, const float* idata, int width) {
    __shared__ float tile[TILE_DIM][TILE_DIM];
    int x = blockIdx.x * TILE_DIM + threadIdx.x;
    int y = blockIdx.y * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
        int row = threadIdx.y + j;
        tile[row][threadIdx.x ^ row] = idata[(y + j) * width + x];
    }
    __syncthreads();
    x = blockIdx.y * TILE_DIM + threadIdx.x;
    y = blockIdx.x * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
        int col = threadIdx.y + j;
        odata[(y + j) * width + x] = tile[threadIdx.x][col ^ threadIdx.x];
    }
}

void transpose(float* out, const float* in, int width) {
    dim3 grid(width / TILE_DIM, width / TILE_DIM);
    dim3 threads(TILE_DIM, BLOCK_ROWS);
    transpose_naive_tile<<<grid, threads>>>(out, in, width);
    transpose_padded<<<grid, threads>>>(out, in, width);
    transpose_swizzled<<<grid, threads>>>(out, in, width);
}
