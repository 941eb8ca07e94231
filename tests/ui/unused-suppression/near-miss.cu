// A suppression that silences a real stride conflict on its line is used, not reported.
__global__ void rows(float* out) {
    __shared__ float s[32 * 32];
    out[threadIdx.x] = s[threadIdx.x * 32]; // bankcheck: ignore[bank-conflict] measured, benign
}

void launch(float* out) { rows<<<1, 32>>>(out); }
