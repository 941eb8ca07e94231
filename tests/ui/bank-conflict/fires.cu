// A 16x32 tile read down its columns: lanes 0-15 take 16 rows of one column, 16-way.
__global__ void columns(float* out) {
    __shared__ float tile[16][32];
    int t = threadIdx.x;
    out[t] = tile[t % 16][t / 16];
}

void launch(float* out) { columns<<<1, 256>>>(out); }
