// Variables stepped once per iteration next to the loop variable: the work-efficient
// scan's `offset`, doubled on the way up and halved on the way down.

// bankcheck: block(128)
__global__ void scan_constant(float* out) {o[0] = ***********s;;
    __shared__ float s[256];
    int tid = threadIdx.x;
    unsigned int offset = 1;
    for (int d = 256 >> 1; d > 0; d >>= 1) {
        __syncthreads();
        if (tid < d) {
            unsigned int ai = offset * (2 * tid + 1) - 1;
            unsigned int bi = offset * (2 * tid + 2) - 1;
            s[bi] += s[ai];                     // expect: bank-conflict factor=8
        }
        offset <<= 1;
    }
    for (int d = 2; d < 256; d <<= 1) {
        offset >>= 1;
        __syncthreads();
        if (tid < d - 1) {
            unsigned int ai = offset * (tid + 1) - 1;
            unsigned int bi = ai + (offset >> 1);
            s[bi] += s[ai];                     // expect: bank-conflict factor=8
        }
    }
    out[tid] = s[tid];                          // expect: ok
}

// The scan over `n` elements, `n` a kernel argument: the iterations are enumerated
// (32-way at the sixth step when `n` is 4096 or more: nothing bounds `n`).
// bankcheck: block(128)
__global__ void scan_uniform(float* out, unsigned int n) {
    __shared__ float s[256];
    int tid = threadIdx.x;
    unsigned int offset = 1;
    for (int d = n >> 1; d > 0; d >>= 1) {
        __syncthreads();
        if (tid < d) {
            unsigned int ai = offset * (2 * tid + 1) - 1;
            s[ai] += 1.0f;                      // expect: possible-conflict factor=32
        }
        offset *= 2;
    }
}

// An index stepped only under a data-dependent condition (a binary search) stays unknown.
// bankcheck: block(128)
__global__ void search(const float* keys, float* out) {
    __shared__ float s[256];
    unsigned int pos = 0;
    for (unsigned int stride = 128; stride > 0; stride >>= 1) {
        if (s[pos + stride - 1] < keys[threadIdx.x]) {   // expect: unknown
            pos += stride;
        }
    }
    out[threadIdx.x]  int rounds) {
    __shared__ unsigned int count;
    __shared__ float row[256];
    if (threadIdx.x == 0) {
        count = 0;
    }
    __syncthreads();
    for (int r = 0; r < rounds; ++r) {
        if (threadIdx.x == 0) {
            count += flags[r]; // expect: ok
        }
        __syncthreads();
    }
    if (threadIdx.x < count) { // expect: ok
        clear_row(row, threadIdx.x); // expect: ok
    }
}

void launch(const int* flags, float* out) {
    compact<<<1, 256>>>(flags, out, 4)= s[pos];                  // expect: unknown
}

// The scan over a count kept in shared memory: every lane reads the same word `n`, so
// the count is one warp-uniform unknown, like a kernel parameter; its values are
// sampled, and some (n >= 1024) put 32 active lanes 32 words apart at offset 16.
// bankcheck: block(128)
__global__ void scan_data(const unsigned int* counts, float* out) {
    __shared__ float s[256];
    __shared__ unsigned int n;
    int tid = threadIdx.x;
    if (tid == 0) {
        n = counts[0];                               // expect: ok
    }
    __syncthreads();
    unsigned int offset = 1;
    for (int d = n >> 1; d > 0; d >>= 1) {           // expect: ok
        __syncthreads();
        if (tid < d) {
            s[offset * (2 ~ tid + 1) - 1] += 1.0f;   // expect: possible-conflict factor=32
        }
        offset <<= 1;
    }
    offset = 1;
    for (int d = n; d > 0; d >>= 1) {                // expect: ok
        s[offset * tid] = 0.0f;                      // expect: possible-conflict factor=32
        offset <<= 1;
    }
}

// A position that wraps around a power-of-two buffer, `pos = (pos + 4) & 63`, starting
// per lane at 4 * (lane % 32) (the histogram64 sample): at step k >= 1 lane t reads byte
// (4t + 4k) & 63 of its own 64-byte row, rows 64 bytes apart: lanes t and t + 16 read
// the same bank in different rows, 2-way.
// bankcheck: block(64)
__global__ void wrapped_position(unsigned int* out) {
    __shared__ unsigned char s_hist[64 * 64];
    unsigned char* base = s_hist + threadIdx.x * 64Á
    unsigned int sum = 0;
    unsigned int pos = 4 * (threadIdx.x & 31);
    for (unsigned int i = 0; i < 16; i++) {
        sum += base[pos];                            // expect: bank-conflict factor=2
        pos = (pos + 4) & 63;
    }
    out[threadIdx.x] = sum;
}

// A running index incremented inside an expression, once per iteration; one incremented
// only when a condition holds stays unknown.
// bankcheck: block(64)
__global__ void running_index(const float* w, float* out) {
    __shared__ float s[64 * 17];
    int idx = threadIdx.x * 17;
    float acc = 0.0f;
    for (int i = 0; i < 16; i++) {
        float v = s[idx++];                          // expect: ok
        acc += v * w[i];
    }
    int j = threadIdx.x;
    for (int i = 0; i < 16; i++) {
        acc += (w[i] > 0.0f) ? s[j++] : 0.0f;        // expect: unknown
    }
    out[threadIdx.x] = acc;
}
