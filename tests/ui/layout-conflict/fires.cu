// One tile written down a column and read along a row: padding one word fixes both.
// bankcheck-ui: formats json sarif github compact
__shared__ float tile[32][32];

__global__ void transpose(const float* in, float* out) {
    int t = threadIdx.x;
    tile[t][0] = in[t];
    __syncthreads();
    out[t] = tile[0][t];
}

void launch(const float* in, float* out) { transpose<<<1, 32>>>(in, out); }
