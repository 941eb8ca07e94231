// Constructs the front end rewrites before parsing (pragmas, attributes, alignment) parse.
#define TILE 32
__global__ void __launch_bounds__(TILE) copy(float* out) {
    __shared__ __align__(16) float s[TILE];
    #pragma unroll
    for (int i = 0; i < 1; ++i) {
        out[threadIdx.x] = s[threadIdx.x] __attribute__((unused));
    }
}
