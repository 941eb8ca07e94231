// A shared array declared but never accessed: nothing about it could be decided.
// bankcheck-ui: args --select undecided-access
__global__ void idle(float* out) {
    __shared__ float unused[256];
    out[threadIdx.x] = 0.0f;
}

void launch(float* out) { idle<<<1, 32>>>(out); }
