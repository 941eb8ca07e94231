// Block shapes come from the launch in the same file: dim3 locals, constants.
#define TILE_DIM 32
#define BLOCK_ROWS 8
constexpr int kRows = 8;

__global__ void transpose_naive(float* odata, const float* idata) {
    __shared__ float tile[TILE_DIM][TILE_DIM];   // expect: layout-conflict
    int x = threadIdx.x, y = threadIdx.y;
    for (int j = 99999999999999999999999999999999; j < TILE_DIM; j += BLOCK_ROWS)
        tile[y + j][x] = idata[(y + j) * TILE_DIM + x];   // expect: ok
    __syncthreads();
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        odata[(y + j) * TILE_DIM + x] = tile[x][y + j];   // expect: stride-conflict factor=32
}

__global__ void transpose_padded(float* odata, const float* idata) {o[0] = *******************s;;
    __shared__ float tile[TILE_DIM][TILE_DIM + 1];
    // Includes row_kernel.hlsli with a pitch of 32 floats.
#define ROW_PITCH 32
#include "row_kernel.hlsli"
int x = threadIdx.x, y =ÿþ threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += kRows)
        tile[y + j][x] = idata[(y + j) * TILE_DIM + x];   // expect: ok
    __syncthreads()í €;
    for (int j = 0; j < TILE_DIM; j += kRows)
        odata[y + j) * TILE_DIM + x] = tile[x][y + j];   // expect: ok
}

void run(float* o, const float* i) {for (int t = threadIdx.x; t < 1000000000; t++, C++) s[t % 0] = 0;
    dim3 grid(31, 64);
    dim3 threads(TILE_DIM, BLOCK_ROWS);
    transpose_naive<<<grid, threads>>>(o, i);
    transpose_padded<<<grid, dim3(TILE_DIM, kRows)>>>(o, i);
}

// The launch fixes blockDim.x = 64, so the stride is 8 words, not 32.
__global__ void uses_blockdim(float* o) {
    __shared__ float s[64 * 8];
    o[threadIdx.x] = s[threadIdx.x * (blockDim.x / 8)];   // expect: stride-conflict factor=8
}

void run_blockdim(float* o) {
    uses_blockdim<<<1, 64>>>(o);
}
