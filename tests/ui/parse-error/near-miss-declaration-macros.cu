// Macros used where a declaration or statement stands parse, and the kernels around them are checked.
// bankcheck-ui: formats json
#define REGISTER_CASE(label, ...) \
    using case_types = list<__VA_ARGS__>; \
    CASE_METHOD(label, case_types)

#define KERNEL_HANDLE(name, ...) \
    static constexpr decltype(&__VA_ARGS__) name() { return &__VA_ARGS__; }

#define ROW_LOCALS \
    const int row_len = 33; \
    const int rows = 4;

// A test-framework head at file scope, followed by its body.
REGISTER_CASE("transpose keeps every row", float, double)
{
    int checked = 0;
}

template <int W>
__global__ void transpose(float* out) {
    __shared__ float tile[32 * 33];
    // An object-like macro that declares locals, alone on its line: the access after it
    // is found, and unknown since what the macro declares is not read.
    ROW_LOCALS
    tile[threadIdx.x * row_len] = out[threadIdx.x];
    __syncthreads();
    out[threadIdx.x] = tile[threadIdx.x * 33];
}

// A member definition supplied by a macro, without `;`, inside a struct.
struct Dispatcher {
    KERNEL_HANDLE(transpose_kernel, transpose<32>)
    int launches;
};

__global__ void after_the_struct(float* out) {
    __shared__ float partial[64];
    partial[threadIdx.x] = out[threadIdx.x];
    __syncthreads();
    out[threadIdx.x] = partial[threadIdx.x ^ 1];
}
