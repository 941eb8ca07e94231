// A stride known only at run time: 32-way when it is a multiple of 32, clean when odd.
__global__ void strided(float* out, int stride) {
    __shared__ float s[4096];
    out[threadIdx.x] = s[threadIdx.x * stride];
}

void launch(float* out, int stride) { strided<<<1, 128>>>(out, stride); }
