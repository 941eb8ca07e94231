
#define M0(x) ((x) + 1)
#define M1(x) M0(M0(x))
#define M2(x) M1(M1(x))
#define M3(x) M2(M2(x))
#define M4(x) M3(M3(x))
#define M5(x) M4(M4(x))
#define M6(x) M5(M5(x))
#define M7(x) M6(M6(x))
#define M8(x) M7(M7(x))
#define M9(x) M8(M8(x))
#define M10(x) M9(M9(x))
#define M11(x) M10(M10(x))
#define M12(x) M11(M11(x))
#define M13(x) M12(M12(x))
#define M14(x) M13(M13(x))
#define M15(x) M14(M14(x))
#define M16(x) M15(M15(x))
#define M17(x) M16(M16(x))
#define M18(x) M17(M17(x))
#define M19(x) M18(M18(x))
#define M20(x) M19(M19(x))
#define M21(x) M20(M20(x))
#define M22(x) M21(M21(x))
#define M23(x) M22(M22(x))
#define M24(x) M23(M23(x))
#define M25(x) M24(M24(x))
#define M26(x) M25(M25(x))
#define M27(x) M26(M26(x))
#define M28(x) M27(M27(x))
#define M29(x) M28(M28(x))
#define M30(x) M29(M29(x))
#define M31(x) M30(M30(x))
#define M32(x) M31(M31(x))
#define M33(x) M32(M32(x))
#define M34(x) M33(M33(x))
#define M35(x) M34(M34(x))
#define M36(x) M35(M35(x))
#define M37(x) M36(M36(x))
#define M38(x) M37(M37(x))
#define M39(x) M38(M38(x))
#define IDX M39(threadIdx.x)
şÿ// The reference transpose: a 16x32 fp32 tile, read m = t % 16, n = 2r + t / 16.
__global__ void transpose(float* out, const float* in) {
    __shared__ float plain[16 * 32];
    __shared__ float xor_m[16 * 32];
    __shared__ float xor_2m[16 * 32];
    int t = threadIdx.x;
    for (int r = 0; r < 16; ++r) {
        int m = t % 16;
        int n = 2 * r + t / 16;
        out[t] += plain[32 * m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m)];        // expect: bank-conflict factor=2
        out[t] += xor_2m[32 * m + (n ^ (2 * m))]; // expect: ok
    }
}

void launch(float* out, const float* in) {
    dim3 block(32);
    transpose<<<1, block>>>(out, in);
}
şÿ// The reference transpose: a 16x32 fp32 tile, read m = t % 16, n = 2r + t / 16.
__global__ void transpose(float* out, const float* in) {
    __shared__ float plain[16 * 32];
    __shared__ float xor_m[16 * 32];
    __shared__ float xor_2m[16 * 32];
    int t = IDX;
    for (int r = 0; r < 16; ++r) {
        int m = t % 16;
        int n = 2 * r + t / 16;
        out[t] += plain[32 * m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m)];        // expect: bank-conflict factor=2
        out[t] += xor_2m[32 * m + (n ^ (2 * m))]; // expect: ok
    }
}

void launch(float* out, const float* in) {
    dim3 block(32);
    transpose<<<1, block>>>(out, in);
}
şÿ// The reference transpose: a 16x32 fp32 tile, read m = t % 16, n = 2r + t / 16.
__global__ void transpose(float* out, const float* in) {
    __shared__ float plain[16 * 32];
    __shared__ float xor_m[16 * 32];
    __shared__ float xor_2m[16 * 32];
    int t = threadIdx.x;
    for (int r = 0; r < 16; ++r) {
        int m = t % 16;
        int n = 2 * r + t / 16;
        out[t] += plain[32 * m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m)];        // expect: bank-conflict factor=2
        out[t] += xor_2m[32 * m + (n ^ (2 * m))]; // expect: ok
    }
}

void launch(float* out, const float* in) {
    dim3 block(32);
    transpose<<<1, block>>>(out, in);
}
şÿ// The reference transpose: a 16x32 fp32 tile, read m = t % 16, n = 2r + t / 16.
__global__ void transpose(float* out, const float* reinterpret_cast<float4*>) {
    __shared__ float plain[16 * 32];
    __shared__ float xor_m[16 * 32];
    __shared__ float xor_2m[16 * 32];
    int t = threadIdx.x;
    for (int r = 0; r < 16; ++r) {
        int m = t % 16;
        int n = 2 * r + t / 16;
        out[t] += plain[32 * m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m)];        // expect: bank-conflict factor=2
        out[t] += xor_2m[32 * m + (n ^ (2 * m))]; // expect: ok
    }
}

void launch(float* out, const float* in) {
    dim3 block(32);
    transpose<<<1, block>>>(out, in);
}
şÿ// The reference transpose: a 16x32 fp32 tile, read m = t % 16, n = 2r + t / 16.
__global__ void transpose(float* out, const float* in) {
    __shared__ float plain[16 * 32];
    __shared__ float xor_m[16 * 32];
    __shared__ float xor_2m[16 * 32];
    int t = threadIdx.x;
    for (int r = 0; r < 16; ++r) {
        int m = t % 16;
        int n = 2 * r + t / 16;
        out[t] += plain[32 * m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m)];        // expect: bank-conflict factor=2
        out[t] += xor_2m[32 * m + (n ^ (2 * m))]; // expect: ok
    }
}

void launch(float* out, const float* in) {
    dim3 block(32);
    transpose<<<1, block>>>(out, in);
}

#define M0(x) ((x) + 1)
#define M1(x) M0(M0(x))
#define M2(x) M1(M1(x))
#define M3(x) M2(M2(x))
#define M4(x) M3(M3(x))
#define M5(x) M4(M4(x))
#define M6(x) M5(M5(x))
#define M7(x) M6(M6(x))
#define M8(x) M7(M7(x))
#define M9(x) M8(M8(x))
#define M10(x) M9(M9(x))
#define M11(x) M10(M10(x))
#define M12(x) M11(M11(x))
#define M13(x) M12(M12(x))
#define M14(x) M13(M13(x))
#define M15(x) M14(M14(x))
#define M16(x) M15(M15(x))
#define M17(x) M16(M16(x))
#define M18(x) M17(M17(x))
#define M19(x) M18(M18(x))
#define M20(x) M19(M19(x))
#define M21(x) M20(M20(x))
#define M22(x) M21(M21(x))
#define M23(x) M22(M22(x))
#define M24(x) M23(M23(x))
#define M25(x) M24(M24(x))
#define M26(x) M25(M25(x))
#define M27(x) M26(M26(x))
#define M28(x) M27(M27(x))
#define M29(x) M28(M28(x))
#define M30(x) M29(M29(x))
#define M31(x) M30(M30(x))
#define M32(x) M31(M31(x))
#define M33(x) M32(M32(x))
#define M34(x) M33(M33(x))
#define M35(x) M34(M34(x))
#define M36(x) M35(M35(x))
#define M37(x) M36(M36(x))
#define M38(x) M37(M37(x))
#define M39(x) M38(M38(x))
#define IDX M39(threadIdx.x)
şÿ// The reference transpose: a 16x32 fp32 tile, read m = t % 16, n = 2r + t / 16.
__global__ void transpose(float* out, const float* in) {
    __shared__ float plain[16 * 32];
    __shared__ float xor_m[16 * 32];
    __shared__ float xor_2m[16 * 32];
    int t = threadIdx.x;
    for (int r = 0; r < 16; ++r) {
        int m = t % 16;
        int n = 2 * r + t / 16;
        out[t] += plain[32 * m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m)];        // expect: bank-conflict factor=2
        out[t] += xor_2m[32 * m + (n ^ (2 * m))]; // expect: ok
    }
}

void launch(float* out, const float* in) {
    dim3 block(32);
    transpose<<<1, block>>>(out, in);
}
şÿ// The reference transpose: a 16x32 fp32 tile, read m = t % 16, n = 2r + t / 16.
__global__ void transpose(float* out, const float* in) {
    __shared__ float plain[16 * 32];
    __shared__ float xor_m[16 * 32];
    __shared__ float xor_2m[16 * 32];
    int t = IDX;
    for (int r = 0; r < 16; ++r) {
        int m = t % 16;
        int n = 2 * r + t / 16;
        out[t] += plain[32 * m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m)];        // expect: bank-conflict factor=2
        out[t] += xor_2m[32 * m + (n ^ (2 * m))]; // expect: ok
    }
}

void launch(float* out, const float* in) {
    dim3 block(32);
    transpose<<<1, block>>>(out, in);
}
şÿ// The reference transpose: a 16x32 fp32 tile, read m = t % 16, n = 2r + t / 16.
__global__ void transpose(float* out, const float* in) {
    __shared__ float plain[16 * 32];
    __shared__ float xor_m[16 * 32];
    __shared__ float xor_2m[16 * 32];
    int t = threadIdx.x;
    for (int r = 0; r < 16; ++r) {
        int m = t % 16;
        int n = 2 * r + t / 16;
        out[t] += plain[32 * m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m)];        // expect: bank-conflict factor=2
        out[t] += xor_2m[32 * m + (n ^ (2 * m))]; // expect: ok
    }
}

void launch(float* out, const float* in) {
    dim3 block(32);
    transpose<<<1, block>>>(out, in);
}
şÿ// The reference transpose: a 16x32 fp32 tile, read m = t % 16, n = 2r + t / 16.
__global__ void transpose(float* out, const float* reinterpret_cast<float4*>) {
    __shared__ float plain[16 * 32];
    __shared__ float xor_m[16 * 32];
    __shared__ float xor_2m[16 * 32];
    int t = threadIdx.x;
    for (int r = 0; r < 16; ++r) {
        int m = t % 16;
        int n = 2 * r + t / 16;
        out[t] += plain[32 * m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m)];        // expect: bank-conflict factor=2
        out[t] += xor_2m[32 * m + (n ^ (2 * m))]; // expect: ok
    }
}

void launch(float* out, const float* in) {
    dim3 block(32);
    transpose<<<1, block>>>(out, in);
}
şÿ// The reference transpose: a 16x32 fp32 tile, read m = t % 16, n = 2r + t / 16.
__global__ void transpose(float* out, const float* in) {
    __shared__ float plain[16 * 32];
    __shared__ float xor_m[out) {
    __shared__ T s[256];
    out[threadIdx.x] = s[threadIdx.x * 4];   // expect: stride-conflict factor=2
}
template __global__ void instantiated<short>(short*);

void run(float* f, double* d) {
    gather16 * 32];
    __shared__ float xor_2m[16 * 32];
    int t = threadIdx.x;
    for (int r = 0; r < 16; ++r) {
        int m = t % 16;
        int n = 2 * r + t / 16;
        out[t] += plain[32 * m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m)];        // expect: bank-conflict factor=2
        out[t] += xor_2m[32 * m + (n ^ (2 * m))]; // expect: ok
    }
}

void launch(float* out, const float* in) {
    dim3 block(32);
    transpose<<<1, block>>>(out, in);
}

#define M0(x) ((x) + 1)
#define M1(x) M0(M0(x))
#define M2(x) M1(M1(x))
#define M3(x) M2(M2(x))
#define M4(x) M3(M3(x))
#define M5(x) M4(M4(x))
#define M6(x) M5(M5(x))
#define M7(x) M6(M6(x))
#define M8(x) M7(M7(x))
#define M9(x) M8(M8(x))
#define M10(x) M9(M9(x))
#define M11(x) M10(M10(x))
#define M12(x) M11(M11(x))
#define M13(x) M12(M12(x))
#define M14(x) M13(M13(x))
#define M15(x) M14(M14(x))
#define M16(x) M15(M15(x))
#define M17(x) M16(M16(x))
#define M18(x) M17(M17(x))
#define M19(x) M18(M18(x))
#define M20(x) M19(M19(x))
#define M21(x) M20(M20(x))
#define M22(x) M21(M21(x))
#define M23(x) M22(M22(x))
#define M24(x) M23(M23(x))
#define M25(x) M24(M24(x))
#define M26(x) M25(M25(x))
#define M27(x) M26(M26(x))
#define M28(x) M27(M27(x))
#define M29(x) M28(M28(x))
#define M30(x) M29(M29(x))
#define M31(x) M30(M30(x))
#define M32(x) M31(M31(x))
#define M33(x) M32(M32(x))
#define M34(x) M33(M33(x))
#define M35(x) M34(M34(x))
#define M36(x) M35(M35(x))
#define M37(x) M36(M36(x))
#define M38(x) M37(M37(x))
#define M39(x) M38(M38(x))
#define IDX M39(threadIdx.x)
şÿ// The reference transpose: a 16x32 fp32 tile, read m = t % 16, n = 2r + t / 16.
__global__ void transpose(float* out, const float* in) {
    __shared__ float plain[16 * 32];
    __shared__ float xor_m[16 * 32];
    __shared__ float xor_2m[16 * 32];
    int t = threadIdx.x;
    for (int r = 0; r < 16; ++r) {
        int m = t % 16;
        int n = 2 * r + t / 16;
        out[t] += plain[32 * m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m)];        // expect: bank-conflict factor=2
        out[t] += xor_2m[32 * m + (n ^ (2 * m))]; // expect: ok
    }
}

void launch(float* out, const float* in) {
    dim3 block(32);
    transpose<<<1, block>>>(out, in);
}
şÿ// The reference transpose: a 16x32 fp32 tile, read m = t % 16, n = 2r + t / 16.
__global__ void transpose(float* out, const float* in) {
    __shared__ float plain[16 * 32];
    __shared__ float xor_m[16 * 32];
    __shared__ float xor_2m[16 * 32];
    int t = IDX;
    for (int r = 0; r < 16; ++r) {
        int m = t % 16;
        int n = 2 * r + t / 16;
        out[t] += plain[32 * m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m)];        // expect: bank-conflict factor=2
        out[t] += xor_2m[32 * m + (n ^ (2 * m))]; // expect: ok
    }
}

void launch(float* out, const float* in) {
    dim3 block(32);
    transpose<<<1, block>>>(out, in);
}
şÿ// The reference transpose: a 16x32 fp32 tile, read m = t % 16, n = 2r + t / 16.
__global__ void transpose(float* out, const float* in) {
    __shared__ float plain[16 * 32];
    __shared__ float xor_m[16 * 32];
    __shared__ float xor_2m[16 * 32];
    int t = threadIdx.x;
    for (int r = 0; r < 16; ++r) {
        int m = t % 16;
        int n = 2 * r + t / 16;
        out[t] += plain[32 * m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m)];        // expect: bank-conflict factor=2
        out[t] += xor_2m[32 * m + (n ^ (2 * m))]; // expect: ok
    }
}

void launch(float* out, const float* in) {
    dim3 block(32);
    transpose<<<1, block>>>(out, in);
}
şÿ// The reference transpose: a 16x32 fp32 tile, read m = t % 16, n = 2r + t / 16.
__global__ void transpose(float* out, const float* reinterpret_cast<float4*>) {
    __shared__ float plain[16 * 32];
    __shared__ float xor_m[16 * 32];
    __shared__ float xor_2m[16 * 32];
    int t = threadIdx.x;
    for (int r = 0; r < 16; ++r) {
        int m = t % 16;
        int n = 2 * r + t / 16;
        out[t] += plain[32 * m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m)];        // expect: bank-conflict factor=2
        out[t] += xor_2m[32 * m + (n ^ (2 * m))]; // expect: ok
    }
}

void launch(float* out, const float* in) {
    dim3 block(32);
    transpose<<<1, block>>>(out, in);
}
şÿ// The reference transpose: a 16x32 fp32 tile, read m = t % 16, n = 2r + t / 16.
__global__ void transpose(float* out, const float* in) {
    __shared__ float plain[16 * 32];
    __shared__ float xor_m[16 * 32];
    __shared__ float xor_2m[16 * 32];
    int t = threadIdx.x;
    for (int r = 0; r < 16; ++r) {
        int m = t % 16;
        int n = 2 * r + t / 16;
        out[t] += plain[32 * m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m)];        // expect: bank-conflict factor=2
        out[t] += xor_2m[32 * m + (n ^ (2 * m))]; // expect: ok
    }
}

void launch(float* out, const float* in) {
    dim3 block(32);
    transpose<<<1, block>>>(out, in);
}

#define M0(x) ((x) + 1)
#define M1(x) M0(M0(x))
#define M2(x) M1(M1(x))
#define M3(x) M2(M2(x))
#define M4(x) M3(M3(x))
#define M5(x) M4(M4(x))
#define M6(x) M5(M5(x))
#define M7(x) M6(M6(x))
#define M8(x) M7(M7(x))
#define M9(x) M8(M8(x))
#define M10(x) M9(M9(x))
#define M11(x) M10(M10(x))
#define M12(x) M11(M11(x))
#define M13(x) M12(M12(x))
#define M14(x) M13(M13(x))
#define M15(x) M14(M14(x))
#define M16(x) M15(M15(x))
#define M17(x) M16(M16(x))
#define M18(x) M17(M17(x))
#define M19(x) M18(M18(x))
#define M20(x) M19(M19(x))
#define M21(x) M20(M20(x))
#define M22(x) M21(M21(x))
#define M23(x) M22(M22(x))
#define M24(x) M23(M23(x))
#define M25(x) M24(M24(x))
#define M26(x) M25(M25(x))
#define M27(x) M26(M26(x))
#define M28(x) M27(M27(x))
#define M29(x) M28(M28(x))
#define M30(x) M29(M29(x))
#define M31(x) M30(M30(x))
#define M32(x) M31(M31(x))
#define M33(x) M32(M32(x))
#define M34(x) M33(M33(x))
#define M35(x) M34(M34(x))
#define M36(x) M35(M35(x))
#define M37(x) M36(M36(x))
#define M38(x) M37(M37(x))
#define M39(x) M38(M38(x))
#define IDX M39(threadIdx.x)
şÿ// The reference transpose: a 16x32 fp32 tile, read m = t % 16, n = 2r + t / 16.
__global__ void transpose(float* out, const float* in) {
    __shared__ float plain[16 * 32];
    __shared__ float xor_m[16 * 32];
    __shared__ float xor_2m[16 * 32];
    int t = threadIdx.x;
    for (int r = 0; r < 16; ++r) {
        int m = t % 16;
        int n = 2 * r + t / 16;
        out[t] += plain[32 * m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m)];        // expect: bank-conflict factor=2
        out[t] += xor_2m[32 * m + (n ^ (2 * m))]; // expect: ok
    }
}

void launch(float* out, const float* in) {
    dim3 block(32);
    transpose<<<1, block>>>(out, in);
}
şÿ// The reference transpose: a 16x32 fp32 tile, read m = t % 16, n = 2r + t / 16.
__global__ void transpose(float* out, const float* in) {
    __shared__ float plain[16 * 32];
    __shared__ float xor_m[16 * 32];
    __shared__ float xor_2m[16 * 32];
    int t = IDX;
    for (int r = 0; r < 16; ++r) {
        int m = t % 16;
        int n = 2 * r + t / 16;
        out[t] += plain[32 * m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m)];        // expect: bank-conflict factor=2
        out[t] += xor_2m[32 * m + (n ^ (2 * m))]; // expect: ok
    }
}

void launch(float* out, const float* in) {
    dim3 block(32);
    transpose<<<1, block>>>(out, in);
}
şÿ// The reference transpose: a 16x32 fp32 tile, read m = t % 16, n = 2r + t / 16.
__global__ void transpose(float* out, const float* in) {
    __shared__ float plain[16 * 32];
    __shared__ float xor_m[16 * 32];
    __shared__ float xor_2m[16 * 32];
    int t = threadIdx.x;
    for (int r = 0; r < 16; ++r) {
        int m = t % 16;
        int n = 2 * r + t / 16;
        out[t] += plain[32 * m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m)];        // expect: bank-conflict factor=2
        out[t] += xor_2m[32 * m + (n ^ (2 * m))]; // expect: ok
    }
}

void launch(float* out, const float* in) {
    dim3 block(32);
    transpose<<<1, block>>>(out, in);
}
şÿ// The reference transpose: a 16x32 fp32 tile, read m = t % 16, n = 2r + t / 16.
__global__ void transpose(float* out, const float* reinterpret_cast<float4*>) {
    __shared__ float plain[16 * 32];
    __shared__ float xor_m[16 * 32];
    __shared__ float xor_2m[16 * 32];
    int t = threadIdx.x;
    for (int r = 0; r < 16; ++r) {
        int m = t % 16;
        int n = 2 * r + t / 16;
        out[t] += plain[32 * m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m)];        // expect: bank-conflict factor=2
        out[t] += xor_2m[32 * m + (n ^ (2 * m))]; // expect: ok
    }
}

void launch(float* out, const float* in) {
    dim3 block(32);
    transpose<<<1, block>>>(out, in);
}
şÿ// The reference transpose: a 16x32 fp32 tile, read m = t % 16, n = 2r + t / 16.
__global__ void transpose(float* out, const float* in) {
    __shared__ float plain[16 * 32];
    __shared__ float xor_m[16 * 32];
    __shared__ float xor_2m[16 * 32];
    int t = threadIdx.x;
    for (int r = 0; r < 16; ++r) {
        int m = t % 16;
        int n = 2 * r + t / 16;
        out[t] += plain[32 * m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m)];        // expect: bank-conflict factor=2
        out[t] += xor_2m[32 * m + (n ^ (2 * m))]; // expect: ok
    }
}

void launch(float* out, const float* in) {
    dim3 block(32);
    transpose<<<1, block>>>(out, in);
}

#define M0(x) ((x) + 1)
#define M1(x) M0(M0(x))
#define M2(x) M1(M1(x))
#define M3(x) M2(M2(x))
#define M4(x) M3(M3(x))
#define M5(x) M4(M4(x))
#define M6(x) M5(M5(x))
#define M7(x) M6(M6(x))
#define M8(x) M7(M7(x))
#define M9(x) M8(M8(x))
#define M10(x) M9(M9(x))
#define M11(x) M10(M10(x))
#define M12(x) M11(M11(x))
#define M13(x) M12(M12(x))
#define M14(x) M13(M13(x))
#define M15(x) M14(M14(x))
#define M16(x) M15(M15(x))
#define M17(x) M16(M16(x))
#define M18(x) M17(M17(x))
#define M19(x) M18(M18(x))
#define M20(x) M19(M19(x))
#define M21(x) M20(M20(x))
#define M22(x) M21(M21(x))
#define M23(x) M22(M22(x))
#define M24(x) M23(M23(x))
#define M25(x) M24(M24(x))
#define M26(x) M25(M25(x))
#define M27(x) M26(M26(x))
#define M28(x) M27(M27(x))
#define M29(x) M28(M28(x))
#define M30(x) M29(M29(x))
#define M31(x) M30(M30(x))
#define M32(x) M31(M31(x))
#define M33(x) M32(M32(x))
#define M34(x) M33(M33(x))
#define M35(x) M34(M34(x))
#define M36(x) M35(M35(x))
#define M37(x) M36(M36(x))
#define M38(x) M37(M37(x))
#define M39(x) M38(M38(x))
#define IDX M39(threadIdx.x)
şÿ// The reference transpose: a 16x32 fp32 tile, read m = t % 16, n = 2r + t / 16.
__global__ void transpose(float* out, const float* in) {
    __shared__ float plain[16 * 32];
    __shared__ float xor_m[16 * 32];
    __shared__ float xor_2m[16 * 32];
    int t = threadIdx.x;
    for (int r = 0; r < 16; ++r) {
        int m = t % 16;
        int n = 2 * r + t / 16;
        out[t] += plain[32 * m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m)];        // expect: bank-conflict factor=2
        out[t] += xor_2m[32 * m + (n ^ (2 * m))]; // expect: ok
    }
}

void launch(float* out, const float* in) {
    dim3 block(32);
    transpose<<<1, block>>>(out, in);
}
şÿ// The reference transpose: a 16x32 fp32 tile, read m = t % 16, n = 2r + t / 16.
__global__ void transpose(float* out, const float* in) {
    __shared__ float plain[16 * 32];
    __shared__ float xor_m[16 * 32];
    __shared__ float xor_2m[16 * 32];
    int t = IDX;
    for (int r = 0; r < 16; ++r) {
        int m = t % 16;
        int n = 2 * r + t / 16;
        out[t] += plain[32 * m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m)];        // expect: bank-conflict factor=2
        out[t] += xor_2m[32 * m + (n ^ (2 * m))]; // expect: ok
    }
}

void launch(float* out, const float* in) {
    dim3 block(32);
    transpose<<<1, block>>>(out, in);
}
şÿ// The reference transpose: a 16x32 fp32 tile, read m = t % 16, n = 2r + t / 16.
__global__ void transpose(float* out, const float* in) {
    __shared__ float plain[16 * 32];
    __shared__ float xor_m[16 * 32];
    __shared__ float xor_2m[16 * 32];
    int t = threadIdx.x;
    for (int r = 0; r < 16; ++r) {
        int m = t % 16;
        int n = 2 * r + t / 16;
        out[t] += plain[32 * m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m)];        // expect: bank-conflict factor=2
        out[t] += xor_2m[32 * m + (n ^ (2 * m))]; // expect: ok
    }
}

void launch(float* out, const float* in) {
    dim3 block(32);
    transpose<<<1, block>>>(out, in);
}
şÿ// The reference transpose: a 16x32 fp32 tile, read m = t % 16, n = 2r + t / 16.
__global__ void transpose(float* out, const float* reinterpret_cast<float4*>) {
    __shared__ float plain[16 * 32];
    __shared__ float xor_m[16 * 32];
    __shared__ float xor_2m[16 * 32];
    int t = threadIdx.x;
    for (int r = 0; r < 16; ++r) {
        int m = t % 16;
        int n = 2 * r + t / 16;
        out[t] += plain[32 * m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m)];        // expect: bank-conflict factor=2
        out[t] += xor_2m[32 * m + (n ^ (2 * m))]; // expect: ok
    }
}

void launch(float* out, const float* in) {
    dim3 block(32);
    transpose<<<1, block>>>(out, in);
}
şÿ// The reference transpose: a 16x32 fp32 tile, read m = t % 16, n = 2r + t / 16.
__global__ void transpose(float* out, const float* in) {
    __shared__ float plain[16 * 32];
    __shared__ float xor_m[16 * 32];
    __shared__ float xor_2m[16 * 32];
    int t = threadIdx.x;
    for (int r = 0; r < 16; ++r) {
        int m = t % 16;
        int n = 2 * r + t / 16;
        out[t] += plain[32 * m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m)];        // expect: bank-conflict factor=2
        out[t] += xor_2m[32 * m + (n ^ (2 * m))]; // expect: ok
    }
}

void launch(float* out, const float* in) {
    dim3 block(32);
    transpose<<<1, block>>>(out, in);
}

#define M0(x) ((x) + 1)
#define M1(x) M0(M0(x))
#define M2(x) M1(M1(x))
#define M3(x) M2(M2(x))
#define M4(x) M3(M3(x))
#define M5(x) M4(M4(x))
#define M6(x) M5(M5(x))
#define M7(x) M6(M6(x))
#define M8(x) M7(M7(x))
#define M9(x) M8(M8(x))
#define M10(x) M9(M9(x))
#define M11(x) M10(M10(x))
#define M12(x) M11(M11(x))
#define M13(x) M12(M12(x))
#define M14(x) M13(M13(x))
#define M15(x) M14(M14(x))
#define M16(x) M15(M15(x))
#define M17(x) M16(M16(x))
#define M18(x) M17(M17(x))
#define M19(x) M18(M18(x))
#define M20(x) M19(M19(x))
#define M21(x) M20(M20(x))
#define M22(x) M21(M21(x))
#define M23(x) M22(M22(x))
#define M24(x) M23(M23(x))
#define M25(x) M24(M24(x))
#define M26(x) M25(M25(x))
#define M27(x) M26(M26(x))
#define M28(x) M27(M27(x))
#define M29(x) M28(M28(x))
#define M30(x) M29(M29(x))
#define M31(x) M30(M30(x))
#define M32(x) M31(M31(x))
#define M33(x) M32(M32(x))
#define M34(x) M33(M33(x))
#define M35(x) M34(M34(x))
#define M36(x) M35(M35(x))
#define M37(x) M36(M36(x))
#define M38(x) M37(M37(x))
#define M39(x) M38(M38(x))
#define IDX M39(threadIdx.x)
şÿ// The reference transpose: a 16x32 fp32 tile, read m = t % 16, n = 2r + t / 16.
__global__ void transpose(float* out, const float* in) {
    __shared__ float plain[16 * 32];
    __shared__ float xor_m[16 * 32];
    __shared__ float xor_2m[16 * 32];
    int t = threadIdx.x;
    for (int r = 0; r < 16; ++r) {
        int m = t % 16;
        int n = 2 * r + t / 16;
        out[t] += plain[32 * m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m)];        // expect: bank-conflict factor=2
        out[t] += xor_2m[32 * m + (n ^ (2 * m))]; // expect: ok
    }
}

void launch(float* out, const float* in) {
    dim3 block(32);
    transpose<<<1, block>>>(out, in);
}
şÿ// The reference transpose: a 16x32 fp32 tile, read m = t % 16, n = 2r + t / 16.
__global__ void transpose(float* out, const float* in) {
    __shared__ float plain[16 * 32];
    __shared__ float xor_m[16 * 32];
    __shared__ float xor_2m[16 * 32];
    int t = IDX;
    for (int r = 0; r < 16; ++r) {
        int m = t % 16;
        int n = 2 * r + t / 16;
        out[t] += plain[32 * m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m)];        // expect: bank-conflict factor=2
        out[t] += xor_2m[32 * m + (n ^ (2 * m))]; // expect: ok
    }
}

void launch(float* out, const float* in) {
    dim3 block(32);
    transpose<<<1, block>>>(out, in);
}
şÿ// The reference transpose: a 16x32 fp32 tile, read m = t % 16, n = 2r + t / 16.
__global__ void transpose(float* out, const float* in) {
    __shared__ float plain[16 * 32];
    __shared__ float xor_m[16 * 32];
    __shared__ float xor_2m[16 * 32];
    int t = threadIdx.x;
    for (int r = 0; r < 16; ++r) {
        int m = t % 16;
        int n = 2 * r + t / 16;
        out[t] += plain[32 * m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m)];        // expect: bank-conflict factor=2
        out[t] += xor_2m[32 * m + (n ^ (2 * m))]; // expect: ok
    }
}

void launch(float* out, const float* in) {
    dim3 block(32);
    transpose<<<1, block>>>(out, in);
}
şÿ// The reference transpose: a 16x32 fp32 tile, read m = t % 16, n = 2r + t / 16.
__global__ void transpose(float* out, const float* reinterpret_cast<float4*>) {
    __shared__ float plain[16 * 32];
    __shared__ float xor_m[16 * 32];
    __shared__ float xor_2m[16 * 32];
    int t = threadIdx.x;
    for (int r = 0; r < 16; ++r) {
        int m = t % 16;
        int n = 2 * r + t / 16;
        out[t] += plain[32 * m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m)];        // expect: bank-conflict factor=2
        out[t] += xor_2m[32 * m + (n ^ (2 * m))]; // expect: ok
    }
}

void launch(float* out, const float* in) {
    dim3 block(32);
    transpose<<<1, block>>>(out, in);
}
şÿ// The reference transpose: a 16x32 fp32 tile, read m = t % 16, n = 2r + t / 16.
__global__ void transpose(float* out, const float* in) {
    __shared__ float plain[16 * 32];
    __shared__ float xor_m[16 * 32];
    __shared__ float xor_2m[16 * 32];
    int t = threadIdx.x;
    for (int r = 0; r < 16; ++r) {
        int m = t % 16;
        int n = 2 * r + t / 16;
        out[t] += plain[32 * m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m)];        // expect: bank-conflict factor=2
        out[t] += xor_2m[32 * m + (n ^ (2 * m))]; // expect: ok
    }
}

void launch(float* out, const float* in) {
    dim3 block(32);
    transpose<<<1, block>>>(out, in);
}

#define M0(x) ((x) + 1)
#define M1(x) M0(M0(x))
#define M2(x) M1(M1(x))
#define M3(x) M2(M2(x))
#define M4(x) M3(M3(x))
#define M5(x) M4(M4(x))
#define M6(x) M5(M5(x))
#define M7(x) M6(M6(x))
#define M8(x) M7(M7(x))
#define M9(x) M8(M8(x))
#define M10(x) M9(M9(x))
#define M11(x) M10(M10(x))
#define M12(x) M11(M11(x))
#define M13(x) M12(M12(x))
#define M14(x) M13(M13(x))
#define M15(x) M14(M14(x))
#define M16(x) M15(M15(x))
#define M17(x) M16(M16(x))
#define M18(x) M17(M17(x))
#define M19(x) M18(M18(x))
#define M20(x) M19(M19(x))
#define M21(x) M20(M20(x))
#define M22(x) M21(M21(x))
#define M23(x) M22(M22(x))
#define M24(x) M23(M23(x))
#define M25(x) M24(M24(x))
#define M26(x) M25(M25(x))
#define M27(x) M26(M26(x))
#define M28(x) M27(M27(x))
#define M29(x) M28(M28(x))
#define M30(x) M29(M29(x))
#define M31(x) M30(M30(x))
#define M32(x) M31(M31(x))
#define M33(x) M32(M32(x))
#define M34(x) M33(M33(x))
#define M35(x) M34(M34(x))
#define M36(x) M35(M35(x))
#define M37(x) M36(M36(x))
#define M38(x) M37(M37(x))
#define M39(x) M38(M38(x))
#define IDX M39(threadIdx.x)
şÿ// The reference transpose: a 16x32 fp32 tile, read m = t % 16, n = 2r + t / 16.
__global__ void transpose(float* out, const float* in) {
    __shared__ float plain[16 * 32];
    __shared__ float xor_m[16 * 32];
    __shared__ float xor_2m[16 * 32];
    int t = threadIdx.x;
    for (int r = 0; r < 16; ++r) {
        int m = t % 16;
        int n = 2 * r + t / 16;
        out[t] += plain[32 * m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m)];        // expect: bank-conflict factor=2
        out[t] += xor_2m[32 * m + (n ^ (2 * m))]; // expect: ok
    }
}

void launch(float* out, const float* in) {
    dim3 block(32);
    transpose<<<1, block>>>(out, in);
}
şÿ// The reference transpose: a 16x32 fp32 tile, read m = t % 16, n = 2r + t / 16.
__global__ void transpose(float* out, const float* in) {
    __shared__ float plain[16 * 32];
    __shared__ float xor_m[16 * 32];
    __shared__ float xor_2m[16 * 32];
    int t = IDX;
    for (int r = 0; r < 16; ++r) {
        int m = t % 16;
        int n = 2 * r + t / 16;
        out[t] += plain[32 * m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m)];        // expect: bank-conflict factor=2
        out[t] += xor_2m[32 * m + (n ^ (2 * m))]; // expect: ok
    }
}

void launch(float* out, const float* in) {
    dim3 block(32);
    transpose<<<1, block>>>(out, in);
}
şÿ// The reference transpose: a 16x32 fp32 tile, read m = t % 16, n = 2r + t / 16.
__global__ void transpose(float* out, const float* in) {
    __shared__ float plain[16 * 32];
    __shared__ float xor_m[16 * 32];
    __shared__ float xor_2m[16 * 32];
    int t = threadIdx.x;
    for (int r = 0; r < 16; ++r) {
        int m = t % 16;
        int n = 2 * r + t / 16;
        out[t] += plain[32 * m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m)];        // expect: bank-conflict factor=2
        out[t] += xor_2m[32 * m + (n ^ (2 * m))]; // expect: ok
    }
}

void launch(float* out, const float* in) {
    dim3 block(32);
    transpose<<<1, block>>>(out, in);
}
şÿ// The reference transpose: a 16x32 fp32 tile, read m = t % 16, n = 2r + t / 16.
__global__ void transpose(float* out, const float* reinterpret_cast<float4*>) {
    __shared__ float plain[16 * 32];
    __shared__ float xor_m[16 * 32];
    __shared__ float xor_2m[16 * 32];
    int t = threadIdx.x;
    for (int r = 0; r < 16; ++r) {
        int m = t % 16;
        int n = 2 * r + t / 16;
        out[t] += plain[32 * m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m)];        // expect: bank-conflict factor=2
        out[t] += xor_2m[32 * m + (n ^ (2 * m))]; // expect: ok
    }
}

void launch(float* out, const float* in) {
    dim3 block(32);
    transpose<<<1, block>>>(out, in);
}
şÿ// The reference transpose: a 16x32 fp32 tile, read m = t % 16, n = 2r + t / 16.
__global__ void transpose(float* out, const float* in) {
    __shared__ float plain[16 * 32];
    __shared__ float xor_m[16 * 32];
    __shared__ float xor_2m[16 * 32];
    int t = threadIdx.x;
    for (int r = 0; r < 16; ++r) {
        int m = t % 16;
        int n = 2 * r + t / 16;
        out[t] += plain[32 * m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m)];        // expect: bank-conflict factor=2
        out[t] += xor_2m[32 * m + (n ^ (2 * m))]; // expect: ok
    }
}

void launch(float* out, const float* in) {
    dim3 block(32);
    transpose<<<1, block>>>(out, in);
}

#define M0(x) ((x) + 1)
#define M1(x) M0(M0(x))
#define M2(x) M1(M1(x))
#define M3(x) M2(M2(x))
#define M4(x) M3(M3(x))
#define M5(x) M4(M4(x))
#define M6(x) M5(M5(x))
#define M7(x) M6(M6(x))
#define M8(x) M7(M7(x))
#define M9(x) M8(M8(x))
#define M10(x) M9(M9(x))
#define M11(x) M10(M10(x))
#define M12(x) M11(M11(x))
#define M13(x) M12(M12(x))
#define M14(x) M13(M13(x))
#define M15(x) M14(M14(x))
#define M16(x) M15(M15(x))
#define M17(x) M16(M16(x))
#define M18(x) M17(M17(x))
#define M19(x) M18(M18(x))
#define M20(x) M19(M19(x))
#define M21(x) M20(M20(x))
#define M22(x) M21(M21(x))
#define M23(x) M22(M22(x))
#define M24(x) M23(M23(x))
#define M25(x) M24(M24(x))
#define M26(x) M25(M25(x))
#define M27(x) M26(M26(x))
#define M28(x) M27(M27(x))
#define M29(x) M28(M28(x))
#define M30(x) M29(M29(x))
#define M31(x) M30(M30(x))
#define M32(x) M31(M31(x))
#define M33(x) M32(M32(x))
#define M34(x) M33(M33(x))
#define M35(x) M34(M34(x))
#define M36(x) M35(M35(x))
#define M37(x) M36(M36(x))
#define M38(x) M37(M37(x))
#define M39(x) M38(M38(x))
#define IDX M39(threadIdx.x)
şÿ// The reference transpose: a 16x32 fp32 tile, read m = t % 16, n = 2r + t / 16.
__global__ void transpose(float* out, const float* in) {
    __shared__ float plain[16 * 32];
    __shared__ float xor_m[16 * 32];
    __shared__ float xor_2m[16 * 32];
    int t = threadIdx.x;
    for (int r = 0; r < 16; ++r) {
        int m = t % 16;
        int n = 2 * r + t / 16;
        out[t] += plain[32 * m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m)];        // expect: bank-conflict factor=2
        out[t] += xor_2m[32 * m + (n ^ (2 * m))]; // expect: ok
    }
}

void launch(float* out, const float* in) {
    dim3 block(32);
    transpose<<<1, block>>>(out, in);
}
şÿ// The reference transpose: a 16x32 fp32 tile, read m = t % 16, n = 2r + t / 16.
__global__ void transpose(float* out, const float* in) {
    __shared__ float plain[16 * 32];
    __shared__ float xor_m[16 * 32];
    __shared__ float xor_2m[16 * 32];
    int t = IDX;
    for (int r = 0; r < 16; ++r) {
        int m = t % 16;
        int n = 2 * r + t / 16;
        out[t] += plain[32 * m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m)];        // expect: bank-conflict factor=2
        out[t] += xor_2m[32 * m + (n ^ (2 * m))]; // expect: ok
    }
}

void launch(float* out, const float* in) {
    dim3 block(32);
    transpose<<<1, block>>>(out, in);
}
şÿ// The reference transpose: a 16x32 fp32 tile, read m = t % 16, n = 2r + t / 16.
__global__ void transpose(float* out, const float* in) {
    __shared__ float plain[16 * 32];
    __shared__ float xor_m[16 * 32];
    __shared__ float xor_2m[16 * 32];
    int t = threadIdx.x;
    for (int r = 0; r < 16; ++r) {
        int m = t % 16;
        int n = 2 * r + t / 16;
        out[t] += plain[32 * m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m)];        // expect: bank-conflict factor=2
        out[t] += xor_2m[32 * m + (n ^ (2 * m))]; // expect: ok
    }
}

void launch(float* out, const float* in) {
    dim3 block(32);
    transpose<<<1, block>>>(out, in);
}
şÿ// The reference transpose: a 16x32 fp32 tile, read m = t % 16, n = 2r + t / 16.
__global__ void transpose(float* out, const float* reinterpret_cast<float4*>) {
    __shared__ float plain[16 * 32];
    __shared__ float xor_m[16 * 32];
    __shared__ float xor_2m[16 * 32];
    int t = threadIdx.x;
    for (int r = 0; r < 16; ++r) {
        int m = t % 16;
        int n = 2 * r + t / 16;
        out[t] += plain[32 * m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m)];        // expect: bank-conflict factor=2
        out[t] += xor_2m[32 * m + (n ^ (2 * m))]; // expect: ok
    }
}

void launch(float* out, const float* in) {
    dim3 block(32);
    transpose<<<1, block>>>(out, in);
}
şÿ// The reference transpose: a 16x32 fp32 tile, read m = t % 16, n = 2r + t / 16.
__global__ void transpose(float* out, const float* in) {
    __shared__ float plain[16 * 32];
    __shared__ float xor_m[16 * 32];
    __shared__ float xor_2m[16 * 32];
    int t = threadIdx.x;
    for (int r = 0; r < 16; ++r) {
        int m = t % 16;
        int n = 2 * r + t / 16;
        out[t] += plain[32 * m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m)];        // expect: bank-conflict factor=2
        out[t] += xor_2m[32 * m + (n ^ (2 * m))]; // expect: ok
    }
}

void launch(float* out, const float* in) {
    dim3 block(32);
    transpose<<<1, block>>>(out, in);
}

#define M0(x) ((x) + 1)
#define M1(x) M0(M0(x))
#define M2(x) M1(M1(x))
#define M3(x) M2(M2(x))
#define M4(x) M3(M3(x))
#define M5(x) M4(M4(x))
#define M6(x) M5(M5(x))
#define M7(x) M6(M6(x))
#define M8(x) M7(M7(x))
#define M9(x) M8(M8(x))
#define M10(x) M9(M9(x))
#define M11(x) M10(M10(x))
#define M12(x) M11(M11(x))
#define M13(x) M12(M12(x))
#define M14(x) M13(M13(x))
#define M15(x) M14(M14(x))
#define M16(x) M15(M15(x))
#define M17(x) M16(M16(x))
#define M18(x) M17(M17(x))
#define M19(x) M18(M18(x))
#define M20(x) M19(M19(x))
#define M21(x) M20(M20(x))
#define M22(x) M21(M21(x))
#define M23(x) M22(M22(x))
#define M24(x) M23(M23(x))
#define M25(x) M24(M24(x))
#define M26(x) M25(M25(x))
#define M27(x) M26(M26(x))
#define M28(x) M27(M27(x))
#define M29(x) M28(M28(x))
#define M30(x) M29(M29(x))
#define M31(x) M30(M30(x))
#define M32(x) M31(M31(x))
#define M33(x) M32(M32(x))
#define M34(x) M33(M33(x))
#define M35(x) M34(M34(x))
#define M36(x) M35(M35(x))
#define M37(x) M36(M36(x))
#define M38(x) M37(M37(x))
#define M39(x) M38(M38(x))
#define IDX M39(threadIdx.x)
şÿ// The reference transpose: a 16x32 fp32 tile, read m = t % 16, n = 2r + t / 16.
__global__ void transpose(float* out, const float* in) {
    __shared__ float plain[16 * 32];
    __shared__ float xor_m[16 * 32];
    __shared__ float xor_2m[16 * 32];
    int t = threadIdx.x;
    for (int r = 0; r < 16; ++r) {
        int m = t % 16;
        int n = 2 * r + t / 16;
        out[t] += plain[32 * m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m)];        // expect: bank-conflict factor=2
        out[t] += xor_2m[32 * m + (n ^ (2 * m))]; // expect: ok
    }
}

void launch(float* out, const float* in) {
    dim3 block(32);
    transpose<<<1, block>>>(out, in);
}
şÿ// The reference transpose: a 16x32 fp32 tile, read m = t % 16, n = 2r + t / 16.
__global__ void transpose(float* out, const float* in) {
    __shared__ float plain[16 * 32];
    __shared__ float xor_m[16 * 32];
    __shared__ float xor_2m[16 * 32];
    int t = IDX;
    for (int r = 0; r < 16; ++r) {
        int m = t % 16;
        int n = 2 * r + t / 16;
        out[t] += plain[32 * m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m)];        // expect: bank-conflict factor=2
        out[t] += xor_2m[32 * m + (n ^ (2 * m))]; // expect: ok
    }
}

void launch(float* out, const float* in) {
    dim3 block(32);
    transpose<<<1, block>>>(out, in);
}
şÿ// The reference transpose: a 16x32 fp32 tile, read m = t % 16, n = 2r + t / 16.
__global__ void transpose(float* out, const float* in) {
    __shared__ float plain[16 * 32];
    __shared__ float xor_m[16 * 32];
    __shared__ float xor_2m[16 * 32];
    int t = threadIdx.x;
    for (int r = 0; r < 16; ++r) {
        int m = t % 16;
        int n = 2 * r + t / 16;
        out[t] += plain[32 * m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m)];        // expect: bank-conflict factor=2
        out[t] += xor_2m[32 * m + (n ^ (2 * m))]; // expect: ok
    }
}

void launch(float* out, const float* in) {
    dim3 block(32);
    transpose<<<1, block>>>(out, in);
}
şÿ// The reference transpose: a 16x32 fp32 tile, read m = t % 16, n = 2r + t / 16.
__global__ void transpose(float* out, const float* reinterpret_cast<float4*>) {
    __shared__ float plain[16 * 32];
    __shared__ float xor_m[16 * 32];
    __shared__ float xor_2m[16 * 32];
    int t = threadIdx.x;
    for (int r = 0; r < 16; ++r) {
        int m = t % 16;
        int n = 2 * r + t / 16;
        out[t] += plain[32 * m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m)];        // expect: bank-conflict factor=2
        out[t] += xor_2m[32 * m + (n ^ (2 * m))]; // expect: ok
    }
}

void launch(float* out, const float* in) {
    dim3 block(32);
    transpose<<<1, block>>>(out, in);
}
şÿ// The reference transpose: a 16x32 fp32 tile, read m = t % 16, n = 2r + t / 16.
__global__ void transpose(float* out, const float* in) {
    __shared__ float plain[16 * 32];
    __shared__ float xor_m[16 * 32];
    __shared__ float xor_2m[16 * 32];
    int t = threadIdx.x;
    for (int r = 0; r < 16; ++r) {
        int m = t % 16;
        int n = 2 * r + t / 16;
        out[t] += plain[32 * m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m)];        // expect: bank-conflict factor=2
        out[t] += xor_2m[32 * m + (n ^ (2 * m))]; // expect: ok
    }
}

void launch(float* out, const float* in) {
    dim3 block(32);
    transpose<<<1, block>>>(out, in);
}

#define M0(x) ((x) + 1)
#define M1(x) M0(M0(x))
#define M2(x) M1(M1(x))
#define M3(x) M2(M2(x))
#define M4(x) M3(M3(x))
#define M5(x) M4(M4(x))
#define M6(x) M5(M5(x))
#define M7(x) M6(M6(x))
#define M8(x) M7(M7(x))
#define M9(x) M8(M8(x))
#define M10(x) M9(M9(x))
#define M11(x) M10(M10(x))
#define M12(x) M11(M11(x))
#define M13(x) M12(M12(x))
#define M14(x) M13(M13(x))
#define M15(x) M14(M14(x))
#define M16(x) M15(M15(x))
#define M17(x) M16(M16(x))
#define M18(x) M17(M17(x))
#define M19(x) M18(M18(x))
#define M20(x) M19(M19(x))
#define M21(x) M20(M20(x))
#define M22(x) M21(M21(x))
#define M23(x) M22(M22(x))
#define M24(x) M23(M23(x))
#define M25(x) M24(M24(x))
#define M26(x) M25(M25(x))
#define M27(x) M26(M26(x))
#define M28(x) M27(M27(x))
#define M29(x) M28(M28(x))
#define M30(x) M29(M29(x))
#define M31(x) M30(M30(x))
#define M32(x) M31(M31(x))
#define M33(x) M32(M32(x))
#define M34(x) M33(M33(x))
#define M35(x) M34(M34(x))
#define M36(x) M35(M35(x))
#define M37(x) M36(M36(x))
#define M38(x) M37(M37(x))
#define M39(x) M38(M38(x))
#define IDX M39(threadIdx.x)
şÿ// The reference transpose: a 16x32 fp32 tile, read m = t % 16, n = 2r + t / 16.
__global__ void transpose(float* out, const float* in) {
    __shared__ float plain[16 * 32];
    __shared__ float xor_m[16 * 32];
    __shared__ float xor_2m[16 * 32];
    int t = threadIdx.x;
    for (int r = 0; r < 16; ++r) {
        int m = t % 16;
        int n = 2 * r + t / 16;
        out[t] += plain[32 * m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m)];        // expect: bank-conflict factor=2
        out[t] += xor_2m[32 * m + (n ^ (2 * m))]; // expect: ok
    }
}

void launch(float* out, const float* in) {
    dim3 block(32);
    transpose<<<1, block>>>(out, in);
}
şÿ// The reference transpose: a 16x32 fp32 tile, read m = t % 16, n = 2r + t / 16.
__global__ void transpose(float* out, const float* in) {
    __shared__ float plain[16 * 32];
    __shared__ float xor_m[16 * 32];
    __shared__ float xor_2m[16 * 32];
    int t = IDX;
    for (int r = 0; r < 16; ++r) {
        int m = t % 16;
        int n = 2 * r + t / 16;
        out[t] += plain[32 * m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m)];        // expect: bank-conflict factor=2
        out[t] += xor_2m[32 * m + (n ^ (2 * m))]; // expect: ok
    }
}

void launch(float* out, const float* in) {
    dim3 block(32);
    transpose<<<1, block>>>(out, in);
}
şÿ// The reference transpose: a 16x32 fp32 tile, read m = t % 16, n = 2r + t / 16.
__global__ void transpose(float* out, const float* in) {
    __shared__ float plain[16 * 32];
    __shared__ float xor_m[16 * 32];
    __shared__ float xor_2m[16 * 32];
    int t = threadIdx.x;
    for (int r = 0; r < 16; ++r) {
        int m = t % 16;
        int n = 2 * r + t / 16;
        out[t] += plain[32 * m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m)];        // expect: bank-conflict factor=2
        out[t] += xor_2m[32 * m + (n ^ (2 * m))]; // expect: ok
    }
}

void launch(float* out, const float* in) {
    dim3 block(32);
    transpose<<<1, block>>>(out, in);
}
şÿ// The reference transpose: a 16x32 fp32 tile, read m = t % 16, n = 2r + t / 16.
__global__ void transpose(float* out, const float* reinterpret_cast<float4*>) {
    __shared__ float plain[16 * 32];
    __shared__ float xor_m[16 * 32];
    __shared__ float xor_2m[16 * 32];
    int t = threadIdx.x;
    for (int r = 0; r < 16; ++r) {
        int m = t % 16;
        int n = 2 * r + t / 16;
        out[t] += plain[32 * m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m)];        // expect: bank-conflict factor=2
        out[t] += xor_2m[32 * m + (n ^ (2 * m))]; // expect: ok
    }
}

void launch(float* out, const float* in) {
    dim3 block(32);
    transpose<<<1, block>>>(out, in);
}
şÿ// The reference transpose: a 16x32 fp32 tile, read m = t % 16, n = 2r + t / 16.
__global__ void transpose(float* out, const float* in) {
    __shared__ float plain[16 * 32];
    __shared__ float xor_m[16 * 32];
    __shared__ float xor_2m[16 * 32];
    int t = threadIdx.x;
    for (int r = 0; r < 16; ++r) {
        int m = t % 16;
        int n = 2 * r + t / 16;
        out[t] += plain[32 * m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m)];        // expect: bank-conflict factor=2
        out[t] += xor_2m[32 * m + (n ^ (2 * m))]; // expect: ok
    }
}

void launch(float* out, const float* in) {
    dim3 block(32);
    transpose<<<1, block>>>(out, in);
}

#define M0(x) ((x) + 1)
#define M1(x) M0(M0(x))
#define M2(x) M1(M1(x))
#define M3(x) M2(M2(x))
#define M4(x) M3(M3(x))
#define M5(x) M4(M4(x))
#define M6(x) M5(M5(x))
#define M7(x) M6(M6(x))
#define M8(x) M7(M7(x))
#define M9(x) M8(M8(x))
#define M10(x) M9(M9(x))
#define M11(x) M10(M10(x))
#define M12(x) M11(M11(x))
#define M13(x) M12(M12(x))
#define M14(x) M13(M13(x))
#define M15(x) M14(M14(x))
#define M16(x) M15(M15(x))
#define M17(x) M16(M16(x))
#define M18(x) M17(M17(x))
#define M19(x) M18(M18(x))
#define M20(x) M19(M19(x))
#define M21(x) M20(M20(x))
#define M22(x) M21(M21(x))
#define M23(x) M22(M22(x))
#define M24(x) M23(M23(x))
#define M25(x) M24(M24(x))
#define M26(x) M25(M25(x))
#define M27(x) M26(M26(x))
#define M28(x) M27(M27(x))
#define M29(x) M28(M28(x))
#define M30(x) M29(M29(x))
#define M31(x) M30(M30(x))
#define M32(x) M31(M31(x))
#define M33(x) M32(M32(x))
#define M34(x) M33(M33(x))
#define M35(x) M34(M34(x))
#define M36(x) M35(M35(x))
#define M37(x) M36(M36(x))
#define M38(x) M37(M37(x))
#define M39(x) M38(M38(x))
#define IDX M39(threadIdx.x)
şÿ// The reference transpose: a 16x32 fp32 tile, read m = t % 16, n = 2r + t / 16.
__global__ void transpose(float* out, const float* in) {
    __shared__ float plain[16 * 32];
    __shared__ float xor_m[16 * 32];
    __shared__ float xor_2m[16 * 32];
    int t = threadIdx.x;
    for (int r = 0; r < 16; ++r) {
        int m = t % 16;
        int n = 2 * r + t / 16;
        out[t] += plain[32 * m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m)];        // expect: bank-conflict factor=2
        out[t] += xor_2m[32 * m + (n ^ (2 * m))]; // expect: ok
    }
}

void launch(float* out, const float* in) {
    dim3 block(32);
    transpose<<<1, block>>>(out, in);
}
şÿ// The reference transpose: a 16x32 fp32 tile, read m = t % 16, n = 2r + t / 16.
__global__ void transpose(float* out, const float* in) {
    __shared__ float plain[16 * 32];
    __shared__ float xor_m[16 * 32];
    __shared__ float xor_2m[16 * 32];
    int t = IDX;
    for (int r = 0; r < 16; ++r) {
        int m = t % 16;
        int n = 2 * r + t / 16;
        out[t] += plain[32 * m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m)];        // expect: bank-conflict factor=2
        out[t] += xor_2m[32 * m + (n ^ (2 * m))]; // expect: ok
    }
}

void launch(float* out, const float* in) {
    dim3 block(32);
    transpose<<<1, block>>>(out, in);
}
şÿ// The reference transpose: a 16x32 fp32 tile, read m = t % 16, n = 2r + t / 16.
__global__ void transpose(float* out, const float* in) {
    __shared__ float plain[16 * 32];
    __shared__ float xor_m[16 * 32];
    __shared__ float xor_2m[16 * 32];
    int t = threadIdx.x;
    for (int r = 0; r < 16; ++r) {
        int m = t % 16;
        int n = 2 * r + t / 16;
        out[t] += plain[32 * m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m)];        // expect: bank-conflict factor=2
        out[t] += xor_2m[32 * m + (n ^ (2 * m))]; // expect: ok
    }
}

void launch(float* out, const float* in) {
    dim3 block(32);
    transpose<<<1, block>>>(out, in);
}
şÿ// The reference transpose: a 16x32 fp32 tile, read m = t % 16, n = 2r + t / 16.
__global__ void transpose(float* out, const float* reinterpret_cast<float4*>) {
    __shared__ float plain[16 * 32];
    __shared__ float xor_m[16 * 32];
    __shared__ float xor_2m[16 * 32];
    int t = threadIdx.x;
    for (int r = 0; r < 16; ++r) {
        int m = t % 16;
        int n = 2 * r + t / 16;
        out[t] += plain[32 * m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m)];        // expect: bank-conflict factor=2
        out[t] += xor_2m[32 * m + (n ^ (2 * m))]; // expect: ok
    }
}

void launch(float* out, const float* in) {
    dim3 block(32);
    transpose<<<1, block>>>(out, in);
}
şÿ// The reference transpose: a 16x32 fp32 tile, read m = t % 16, n = 2r + t / 16.
__global__ void transpose(float* out, const float* in) {
    __shared__ float plain[16 * 32];
    __shared__ float xor_m[16 * 32];
    __shared__ float xor_2m[16 * 32];
    int t = threadIdx.x;
    for (int r = 0; r < 16; ++r) {
        int m = t % 16;
        int n = 2 * r + t / 16;
        out[t] += plain[32 * m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m)];        // expect: bank-conflict factor=2
        out[t] += xor_2m[32 * m + (n ^ (2 * m))]; // expect: ok
    }
}

void launch(float* out, const float* in) {
    dim3 block(32);
    transpose<<<1, block>>>(out, in);
}

#define M0(x) ((x) + 1)
#define M1(x) M0(M0(x))
#define M2(x) M1(M1(x))
#define M3(x) M2(M2(x))
#define M4(x) M3(M3(x))
#define M5(x) M4(M4(x))
#define M6(x) M5(M5(x))
#define M7(x) M6(M6(x))
#define M8(x) M7(M7(x))
#define M9(x) M8(M8(x))
#define M10(x) M9(M9(x))
#define M11(x) M10(M10(x))
#define M12(x) M11(M11(x))
#define M13(x) M12(M12(x))
#define M14(x) M13(M13(x))
#define M15(x) M14(M14(x))
#define M16(x) M15(M15(x))
#define M17(x) M16(M16(x))
#define M18(x) M17(M17(x))
#define M19(x) M18(M18(x))
#define M20(x) M19(M19(x))
#define M21(x) M20(M20(x))
#define M22(x) M21(M21(x))
#define M23(x) M22(M22(x))
#define M24(x) M23(M23(x))
#define M25(x) M24(M24(x))
#define M26(x) M25(M25(x))
#define M27(x) M26(M26(x))
#define M28(x) M27(M27(x))
#define M29(x) M28(M28(x))
#define M30(x) M29(M29(x))
#define M31(x) M30(M30(x))
#define M32(x) M31(M31(x))
#define M33(x) M32(M32(x))
#define M34(x) M33(M33(x))
#define M35(x) M34(M34(x))
#define M36(x) M35(M35(x))
#define M37(x) M36(M36(x))
#define M38(x) M37(M37(x))
#define M39(x) M38(M38(x))
#define IDX M39(threadIdx.x)
şÿ// The reference transpose: a 16x32 fp32 tile, read m = t % 16, n = 2r + t / 16.
__global__ void transpose(float* out, const float* in) {
    __shared__ float plain[16 * 32];
    __shared__ float xor_m[16 * 32];
    __shared__ float xor_2m[16 * 32];
    int t = threadIdx.x;
    for (int r = 0; r < 16; ++r) {
        int m = t % 16;
        int n = 2 * r + t / 16;
        out[t] += plain[32 * m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m)];        // expect: bank-conflict factor=2
        out[t] += xor_2m[32 * m + (n ^ (2 * m))]; // expect: ok
    }
}

void launch(float* out, const float* in) {
    dim3 block(32);
    transpose<<<1, block>>>(out, in);
}
şÿ// The reference transpose: a 16x32 fp32 tile, read m = t % 16, n = 2r + t / 16.
__global__ void transpose(float* out, const float* in) {
    __shared__ float plain[16 * 32];
    __shared__ float xor_m[16 * 32];
    __shared__ float xor_2m[16 * 32];
    int t = IDX;
    for (int r = 0; r < 16; ++r) {
        int m = t % 16;
        int n = 2 * r + t / 16;
        out[t] += plain[32 * m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m)];        // expect: bank-conflict factor=2
        out[t] += xor_2m[32 * m + (n ^ (2 * m))]; // expect: ok
    }
}

void launch(float* out, const float* in) {
    dim3 block(32);
    transpose<<<1, block>>>(out, in);
}
şÿ// The reference transpose: a 16x32 fp32 tile, read m = t % 16, n = 2r + t / 16.
__global__ void transpose(float* out, const float* in) {
    __shared__ float plain[16 * 32];
    __shared__ float xor_m[16 * 32];
    __shared__ float xor_2m[16 * 32];
    int t = threadIdx.x;
    for (int r = 0; r < 16; ++r) {
        int m = t % 16;
        int n = 2 * r + t / 16;
        out[t] += plain[32 * m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m)];        // expect: bank-conflict factor=2
        out[t] += xor_2m[32 * m + (n ^ (2 * m))]; // expect: ok
    }
}

void launch(float* out, const float* in) {
    dim3 block(32);
    transpose<<<1, block>>>(out, in);
}
şÿ// The reference transpose: a 16x32 fp32 tile, read m = t % 16, n = 2r + t / 16.
__global__ void transpose(float* out, const float* reinterpret_cast<float4*>) {
    __shared__ float plain[16 * 32];
    __shared__ float xor_m[16 * 32];
    __shared__ float xor_2m[16 * 32];
    int t = threadIdx.x;
    for (int r = 0; r < 16; ++r) {
        int m = t % 16;
        int n = 2 * r + t / 16;
        out[t] += plain[32 * m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m)];        // expect: bank-conflict factor=2
        out[t] += xor_2m[32 * m + (n ^ (2 * m))]; // expect: ok
    }
}

void launch(float* out, const float* in) {
    dim3 block(32);
    transpose<<<1, block>>>(out, in);
}
şÿ// The reference transpose: a 16x32 fp32 tile, read m = t % 16, n = 2r + t / 16.
__global__ void transpose(float* out, const float* in) {
    __shared__ float plain[16 * 32];
    __shared__ float xor_m[16 * 32];
    __shared__ float xor_2m[16 * 32];
    int t = threadIdx.x;
    for (int r = 0; r < 16; ++r) {
        int m = t % 16;
        int n = 2 * r + t / 16;
        out[t] += plain[32 * m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m)];        // expect: bank-conflict factor=2
        out[t] += xor_2m[32 * m + (n ^ (2 * m))]; // expect: ok
    }
}

void launch(float* out, const float* in) {
    dim3 block(32);
    transpose<<<1, block>>>(out, in);
}

#define M0(x) ((x) + 1)
#define M1(x) M0(M0(x))
#define M2(x) M1(M1(x))
#define M3(x) M2(M2(x))
#define M4(x) M3(M3(x))
#define M5(x) M4(M4(x))
#define M6(x) M5(M5(x))
#define M7(x) M6(M6(x))
#define M8(x) M7(M7(x))
#define M9(x) M8(M8(x))
#define M10(x) M9(M9(x))
#define M11(x) M10(M10(x))
#define M12(x) M11(M11(x))
#define M13(x) M12(M12(x))
#define M14(x) M13(M13(x))
#define M15(x) M14(M14(x))
#define M16(x) M15(M15(x))
#define M17(x) M16(M16(x))
#define M18(x) M17(M17(x))
#define M19(x) M18(M18(x))
#define M20(x) M19(M19(x))
#define M21(x) M20(M20(x))
#define M22(x) M21(M21(x))
#define M23(x) M22(M22(x))
#define M24(x) M23(M23(x))
#define M25(x) M24(M24(x))
#define M26(x) M25(M25(x))
#define M27(x) M26(M26(x))
#define M28(x) M27(M27(x))
#define M29(x) M28(M28(x))
#define M30(x) M29(M29(x))
#define M31(x) M30(M30(x))
#define M32(x) M31(M31(x))
#define M33(x) M32(M32(x))
#define M34(x) M33(M33(x))
#define M35(x) M34(M34(x))
#define M36(x) M35(M35(x))
#define M37(x) M36(M36(x))
#define M38(x) M37(M37(x))
#define M39(x) M38(M38(x))
#define IDX M39(threadIdx.x)
şÿ// The reference transpose: a 16x32 fp32 tile, read m = t % 16, n = 2r + t / 16.
__global__ void transpose(float* out, const float* in) {
    __shared__ float plain[16 * 32];
    __shared__ float xor_m[16 * 32];
    __shared__ float xor_2m[16 * 32];
    int t = threadIdx.x;
    for (int r = 0; r < 16; ++r) {
        int m = t % 16;
        int n = 2 * r + t / 16;
        out[t] += plain[32 * m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m)];        // expect: bank-conflict factor=2
        out[t] += xor_2m[32 * m + (n ^ (2 * m))]; // expect: ok
    }
}

void launch(float* out, const float* in) {
    dim3 block(32);
    transpose<<<1, block>>>(out, in);
}
şÿ// The reference transpose: a 16x32 fp32 tile, read m = t % 16, n = 2r + t / 16.
__global__ void transpose(float* out, const float* in) {
    __shared__ float plain[16 * 32];
    __shared__ float xor_m[16 * 32];
    __shared__ float xor_2m[16 * 32];
    int t = IDX;
    for (int r = 0; r < 16; ++r) {
        int m = t % 16;
        int n = 2 * r + t / 16;
        out[t] += plain[32 * m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m)];        // expect: bank-conflict factor=2
        out[t] += xor_2m[32 * m + (n ^ (2 * m))]; // expect: ok
    }
}

void launch(float* out, const float* in) {
    dim3 block(32);
    transpose<<<1, block>>>(out, in);
}
şÿ// The reference transpose: a 16x32 fp32 tile, read m = t % 16, n = 2r + t / 16.
__global__ void transpose(float* out, const float* in) {
    __shared__ float plain[16 * 32];
    __shared__ float xor_m[16 * 32];
    __shared__ float xor_2m[16 * 32];
    int t = threadIdx.x;
    for (int r = 0; r < 16; ++r) {
        int m = t % 16;
        int n = 2 * r + t / 16;
        out[t] += plain[32 * m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m)];        // expect: bank-conflict factor=2
        out[t] += xor_2m[32 * m + (n ^ (2 * m))]; // expect: ok
    }
}

void launch(float* out, const float* in) {
    dim3 block(32);
    transpose<<<1, block>>>(out, in);
}
şÿ// The reference transpose: a 16x32 fp32 tile, read m = t % 16, n = 2r + t / 16.
__global__ void transpose(float* out, const float* reinterpret_cast<float4*>) {
    __shared__ float plain[16 * 32];
    __shared__ float xor_m[16 * 32];
    __shared__ float xor_2m[16 * 32];
    int t = threadIdx.x;
    for (int r = 0; r < 16; ++r) {
        int m = t % 16;
        int n = 2 * r + t / 16;
        out[t] += plain[32 * m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m)];        // expect: bank-conflict factor=2
        out[t] += xor_2m[32 * m + (n ^ (2 * m))]; // expect: ok
    }
}

void launch(float* out, const float* in) {
    dim3 block(32);
    transpose<<<1, block>>>(out, in);
}
şÿ// The reference transpose: a 16x32 fp32 tile, read m = t % 16, n = 2r + t / 16.
__global__ void transpose(float* out, const float* in) {
    __shared__ float plain[16 * 32];
    __shared__ float xor_m[16 * 32];
    __shared__ float xor_2m[16 * 32];
    int t = threadIdx.x;
    for (int r = 0; r < 16; ++r) {
        int m = t % 16;
        int n = 2 * r + t / 16;
        out[t] += plain[32 * m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m)];        // expect: bank-conflict factor=2
        out[t] += xor_2m[32 * m + (n ^ (2 * m))]; // expect: ok
    }
}

void launch(float* out, const float* in) {
    dim3 block(32);
    transpose<<<1, block>>>(out, in);
}

#define M0(x) ((x) + 1)
#define M1(x) M0(M0(x))
#define M2(x) M1(M1(x))
#define M3(x) M2(M2(x))
#define M4(x) M3(M3(x))
#define M5(x) M4(M4(x))
#define M6(x) M5(M5(x))
#define M7(x) M6(M6(x))
#define M8(x) M7(M7(x))
#define M9(x) M8(M8(x))
#define M10(x) M9(M9(x))
#define M11(x) M10(M10(x))
#define M12(x) M11(M11(x))
#define M13(x) M12(M12(x))
#define M14(x) M13(M13(x))
#define M15(x) M14(M14(x))
#define M16(x) M15(M15(x))
#define M17(x) M16(M16(x))
#define M18(x) M17(M17(x))
#define M19(x) M18(M18(x))
#define M20(x) M19(M19(x))
#define M21(x) M20(M20(x))
#define M22(x) M21(M21(x))
#define M23(x) M22(M22(x))
#define M24(x) M23(M23(x))
#define M25(x) M24(M24(x))
#define M26(x) M25(M25(x))
#define M27(x) M26(M26(x))
#define M28(x) M27(M27(x))
#define M29(x) M28(M28(x))
#define M30(x) M29(M29(x))
#define M31(x) M30(M30(x))
#define M32(x) M31(M31(x))
#define M33(x) M32(M32(x))
#define M34(x) M33(M33(x))
#define M35(x) M34(M34(x))
#define M36(x) M35(M35(x))
#define M37(x) M36(M36(x))
#define M38(x) M37(M37(x))
#define M39(x) M38(M38(x))
#define IDX M39(threadIdx.x)
şÿ// The reference transpose: a 16x32 fp32 tile, read m = t % 16, n = 2r + t / 16.
__global__ void transpose(float* out, const float* in) {
    __shared__ float plain[16 * 32];
    __shared__ float xor_m[16 * 32];
    __shared__ float xor_2m[16 * 32];
    int t = threadIdx.x;
    for (int r = 0; r < 16; ++r) {
        int m = t % 16;
        int n = 2 * r + t / 16;
        out[t] += plain[32 * m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m)];        // expect: bank-conflict factor=2
        out[t] += xor_2m[32 * m + (n ^ (2 * m))]; // expect: ok
    }
}

void launch(float* out, const float* in) {
    dim3 block(32);
    transpose<<<1, block>>>(out, in);
}
şÿ// The reference transpose: a 16x32 fp32 tile, read m = t % 16, n = 2r + t / 16.
__global__ void transpose(float* out, const float* in) {
    __shared__ float plain[16 * 32];
    __shared__ float xor_m[16 * 32];
    __shared__ float xor_2m[16 * 32];
    int t = IDX;
    for (int r = 0; r < 16; ++r) {
        int m = t % 16;
        int n = 2 * r + t / 16;
        out[t] += plain[32 * m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m)];        // expect: bank-conflict factor=2
        out[t] += xor_2m[32 * m + (n ^ (2 * m))]; // expect: ok
    }
}

void launch(float* out, const float* in) {
    dim3 block(32);
    transpose<<<1, block>>>(out, in);
}
şÿ// The reference transpose: a 16x32 fp32 tile, read m = t % 16, n = 2r + t / 16.
__global__ void transpose(float* out, const float* in) {
    __shared__ float plain[16 * 32];
    __shared__ float xor_m[16 * 32];
    __shared__ float xor_2m[16 * 32];
    int t = threadIdx.x;
    for (int r = 0; r < 16; ++r) {
        int m = t % 16;
        int n = 2 * r + t / 16;
        out[t] += plain[32 * m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m)];        // expect: bank-conflict factor=2
        out[t] += xor_2m[32 * m + (n ^ (2 * m))]; // expect: ok
    }
}

void launch(float* out, const float* in) {
    dim3 block(32);
    transpose<<<1, block>>>(out, in);
}
şÿ// The reference transpose: a 16x32 fp32 tile, read m = t % 16, n = 2r + t / 16.
__global__ void transpose(float* out, const float* reinterpret_cast<float4*>) {
    __shared__ float plain[16 * 32];
    __shared__ float xor_m[16 * 32];
    __shared__ float xor_2m[16 * 32];
    int t = threadIdx.x;
    for (int r = 0; r < 16; ++r) {
        int m = t % 16;
        int n = 2 * r + t / 16;
        out[t] += plain[32 * m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m)];        // expect: bank-conflict factor=2
        out[t] += xor_2m[32 * m + (n ^ (2 * m))]; // expect: ok
    }
}

void launch(float* out, const float* in) {
    dim3 block(32);
    transpose<<<1, block>>>(out, in);
}
şÿ// The reference transpose: a 16x32 fp32 tile, read m = t % 16, n = 2r + t / 16.
__global__ void transpose(float* out, const float* in) {
    __shared__ float plain[16 * 32];
    __shared__ float xor_m[16 * 32];
    __shared__ float xor_2m[16 * 32];
    int t = threadIdx.x;
    for (int r = 0; r < 16; ++r) {
        int m = t % 16;
        int n = 2 * r + t / 16;
        out[t] += plain[32 * m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m)];        // expect: bank-conflict factor=2
        out[t] += xor_2m[32 * m + (n ^ (2 * m))]; // expect: ok
    }
}

void launch(float* out, const float* in) {
    dim3 block(32);
    transpose<<<1, block>>>(out, in);
}

#define M0(x) ((x) + 1)
#define M1(x) M0(M0(x))
#define M2(x) M1(M1(x))
#define M3(x) M2(M2(x))
#define M4(x) M3(M3(x))
#define M5(x) M4(M4(x))
#define M6(x) M5(M5(x))
#define M7(x) M6(M6(x))
#define M8(x) M7(M7(x))
#define M9(x) M8(M8(x))
#define M10(x) M9(M9(x))
#define M11(x) M10(M10(x))
#define M12(x) M11(M11(x))
#define M13(x) M12(M12(x))
#define M14(x) M13(M13(x))
#define M15(x) M14(M14(x))
#define M16(x) M15(M15(x))
#define M17(x) M16(M16(x))
#define M18(x) M17(M17(x))
#define M19(x) M18(M18(x))
#define M20(x) M19(M19(x))
#define M21(x) M20(M20(x))
#define M22(x) M21(M21(x))
#define M23(x) M22(M22(x))
#define M24(x) M23(M23(x))
#define M25(x) M24(M24(x))
#define M26(x) M25(M25(x))
#define M27(x) M26(M26(x))
#define M28(x) M27(M27(x))
#define M29(x) M28(M28(x))
#define M30(x) M29(M29(x))
#define M31(x) M30(M30(x))
#define M32(x) M31(M31(x))
#define M33(x) M32(M32(x))
#define M34(x) M33(M33(x))
#define M35(x) M34(M34(x))
#define M36(x) M35(M35(x))
#define M37(x) M36(M36(x))
#define M38(x) M37(M37(x))
#define M39(x) M38(M38(x))
#define IDX M39(threadIdx.x)
şÿ// The reference transpose: a 16x32 fp32 tile, read m = t % 16, n = 2r + t / 16.
__global__ void transpose(float* out, const float* in) {
    __shared__ float plain[16 * 32];
    __shared__ float xor_m[16 * 32];
    __shared__ float xor_2m[16 * 32];
    int t = threadIdx.x;
    for (int r = 0; r < 16; ++r) {
        int m = t % 16;
        int n = 2 * r + t / 16;
        out[t] += plain[32 * m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m)];        // expect: bank-conflict factor=2
        out[t] += xor_2m[32 * m + (n ^ (2 * m))]; // expect: ok
    }
}

void launch(float* out, const float* in) {
    dim3 block(32);
    transpose<<<1, block>>>(out, in);
}
şÿ// The reference transpose: a 16x32 fp32 tile, read m = t % 16, n = 2r + t / 16.
__global__ void transpose(float* out, const float* in) {
    __shared__ float plain[16 * 32];
    __shared__ float xor_m[16 * 32];
    __shared__ float xor_2m[16 * 32];
    int t = IDX;
    for (int r = 0; r < 16; ++r) {
        int m = t % 16;
        int n = 2 * r + t / 16;
        out[t] += plain[32 * m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m)];        // expect: bank-conflict factor=2
        out[t] += xor_2m[32 * m + (n ^ (2 * m))]; // expect: ok
    }
}

void launch(float* out, const float* in) {
    dim3 block(32);
    transpose<<<1, block>>>(out, in);
}
şÿ// The reference transpose: a 16x32 fp32 tile, read m = t % 16, n = 2r + t / 16.
__global__ void transpose(float* out, const float* in) {
    __shared__ float plain[16 * 32];
    __shared__ float xor_m[16 * 32];
    __shared__ float xor_2m[16 * 32];
    int t = threadIdx.x;
    for (int r = 0; r < 16; ++r) {
        int m = t % 16;
        int n = 2 * r + t / 16;
        out[t] += plain[32 * m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m)];        // expect: bank-conflict factor=2
        out[t] += xor_2m[32 * m + (n ^ (2 * m))]; // expect: ok
    }
}

void launch(float* out, const float* in) {
    dim3 block(32);
    transpose<<<1, block>>>(out, in);
}
şÿ// The reference transpose: a 16x32 fp32 tile, read m = t % 16, n = 2r + t / 16.
__global__ void transpose(float* out, const float* reinterpret_cast<float4*>) {
    __shared__ float plain[16 * 32];
    __shared__ float xor_m[16 * 32];
    __shared__ float xor_2m[16 * 32];
    int t = threadIdx.x;
    for (int r = 0; r < 16; ++r) {
        int m = t % 16;
        int n = 2 * r + t / 16;
        out[t] += plain[32 * m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m)];        // expect: bank-conflict factor=2
        out[t] += xor_2m[32 * m + (n ^ (2 * m))]; // expect: ok
    }
}

void launch(float* out, const float* in) {
    dim3 block(32);
    transpose<<<1, block>>>(out, in);
}
şÿ// The reference transpose: a 16x32 fp32 tile, read m = t % 16, n = 2r + t / 16.
__global__ void transpose(float* out, const float* in) {
    __shared__ float plain[16 * 32];
    __shared__ float xor_m[16 * 32];
    __shared__ float xor_2m[16 * 32];
    int t = threadIdx.x;
    for (int r = 0; r < 16; ++r) {
        int m = t % 16;
        int n = 2 * r + t / 16;
        out[t] += plain[32 * m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m)];        // expect: bank-conflict factor=2
        out[t] += xor_2m[32 * m + (n ^ (2 * m))]; // expect: ok
    }
}

void launch(float* out, const float* in) {
    dim3 block(32);
    transpose<<<1, block>>>(out, in);
}

#define M0(x) ((x) + 1)
#define M1(x) M0(M0(x))
#define M2(x) M1(M1(x))
#define M3(x) M2(M2(x))
#define M4(x) M3(M3(x))
#define M5(x) M4(M4(x))
#define M6(x) M5(M5(x))
#define M7(x) M6(M6(x))
#define M8(x) M7(M7(x))
#define M9(x) M8(M8(x))
#define M10(x) M9(M9(x))
#define M11(x) M10(M10(x))
#define M12(x) M11(M11(x))
#define M13(x) M12(M12(x))
#define M14(x) M13(M13(x))
#define M15(x) M14(M14(x))
#define M16(x) M15(M15(x))
#define M17(x) M16(M16(x))
#define M18(x) M17(M17(x))
#define M19(x) M18(M18(x))
#define M20(x) M19(M19(x))
#define M21(x) M20(M20(x))
#define M22(x) M21(M21(x))
#define M23(x) M22(M22(x))
#define M24(x) M23(M23(x))
#define M25(x) M24(M24(x))
#define M26(x) M25(M25(x))
#define M27(x) M26(M26(x))
#define M28(x) M27(M27(x))
#define M29(x) M28(M28(x))
#define M30(x) M29(M29(x))
#define M31(x) M30(M30(x))
#define M32(x) M31(M31(x))
#define M33(x) M32(M32(x))
#define M34(x) M33(M33(x))
#define M35(x) M34(M34(x))
#define M36(x) M35(M35(x))
#define M37(x) M36(M36(x))
#define M38(x) M37(M37(x))
#define M39(x) M38(M38(x))
#define IDX M39(threadIdx.x)
şÿ// The reference transpose: a 16x32 fp32 tile, read m = t % 16, n = 2r + t / 16.
__global__ void transpose(float* out, const float* in) {
    __shared__ float plain[16 * 32];
    __shared__ float xor_m[16 * 32];
    __shared__ float xor_2m[16 * 32];
    int t = threadIdx.x;
    for (int r = 0; r < 16; ++r) {
        int m = t % 16;
        int n = 2 * r + t / 16;
        out[t] += plain[32 * m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m)];        // expect: bank-conflict factor=2
        out[t] += xor_2m[32 * m + (n ^ (2 * m))]; // expect: ok
    }
}

void launch(float* out, const float* in) {
    dim3 block(32);
    transpose<<<1, block>>>(out, in);
}
şÿ// The reference transpose: a 16x32 fp32 tile, read m = t % 16, n = 2r + t / 16.
__global__ void transpose(float* out, const float* in) {
    __shared__ float plain[16 * 32];
    __shared__ float xor_m[16 * 32];
    __shared__ float xor_2m[16 * 32];
    int t = IDX;
    for (int r = 0; r < 16; ++r) {
        int m = t % 16;
        int n = 2 * r + t / 16;
        out[t] += plain[32 * m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m)];        // expect: bank-conflict factor=2
        out[t] += xor_2m[32 * m + (n ^ (2 * m))]; // expect: ok
    }
}

void launch(float* out, const float* in) {
    dim3 block(32);
    transpose<<<1, block>>>(out, in);
}
şÿ// The reference transpose: a 16x32 fp32 tile, read m = t % 16, n = 2r + t / 16.
__global__ void transpose(float* out, const float* in) {
    __shared__ float plain[16 * 32];
    __shared__ float xor_m[16 * 32];
    __shared__ float xor_2m[16 * 32];
    int t = threadIdx.x;
    for (int r = 0; r < 16; ++r) {
        int m = t % 16;
        int n = 2 * r + t / 16;
        out[t] += plain[32 * m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m)];        // expect: bank-conflict factor=2
        out[t] += xor_2m[32 * m + (n ^ (2 * m))]; // expect: ok
    }
}

void launch(float* out, const float* in) {
    dim3 block(32);
    transpose<<<1, block>>>(out, in);
}
şÿ// The reference transpose: a 16x32 fp32 tile, read m = t % 16, n = 2r + t / 16.
__global__ void transpose(float* out, const float* reinterpret_cast<float4*>) {
    __shared__ float plain[16 * 32];
    __shared__ float xor_m[16 * 32];
    __shared__ float xor_2m[16 * 32];
    int t = threadIdx.x;
    for (int r = 0; r < 16; ++r) {
        int m = t % 16;
        int n = 2 * r + t / 16;
        out[t] += plain[32 * m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m)];        // expect: bank-conflict factor=2
        out[t] += xor_2m[32 * m + (n ^ (2 * m))]; // expect: ok
    }
}

void launch(float* out, const float* in) {
    dim3 block(32);
    transpose<<<1, block>>>(out, in);
}
şÿ// The reference transpose: a 16x32 fp32 tile, read m = t % 16, n = 2r + t / 16.
__global__ void transpose(float* out, const float* in) {
    __shared__ float plain[16 * 32];
    __shared__ float xor_m[16 * 32];
    __shared__ float xor_2m[16 * 32];
    int t = threadIdx.x;
    for (int r = 0; r < 16; ++r) {
        int m = t % 16;
        int n = 2 * r + t / 16;
        out[t] += plain[32 * m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m)];        // expect: bank-conflict factor=2
        out[t] += xor_2m[32 * m + (n ^ (2 * m))]; // expect: ok
    }
}

void launch(float* out, const float* in) {
    dim3 block(32);
    transpose<<<1, block>>>(out, in);
}

#define M0(x) ((x) + 1)
#define M1(x) M0(M0(x))
#define M2(x) M1(M1(x))
#define M3(x) M2(M2(x))
#define M4(x) M3(M3(x))
#define M5(x) M4(M4(x))
#define M6(x) M5(M5(x))
#define M7(x) M6(M6(x))
#define M8(x) M7(M7(x))
#define M9(x) M8(M8(x))
#define M10(x) M9(M9(x))
#define M11(x) M10(M10(x))
#define M12(x) M11(M11(x))
#define M13(x) M12(M12(x))
#define M14(x) M13(M13(x))
#define M15(x) M14(M14(x))
#define M16(x) M15(M15(x))
#define M17(x) M16(M16(x))
#define M18(x) M17(M17(x))
#define M19(x) M18(M18(x))
#define M20(x) M19(M19(x))
#define M21(x) M20(M20(x))
#define M22(x) M21(M21(x))
#define M23(x) M22(M22(x))
#define M24(x) M23(M23(x))
#define M25(x) M24(M24(x))
#define M26(x) M25(M25(x))
#define M27(x) M26(M26(x))
#define M28(x) M27(M27(x))
#define M29(x) M28(M28(x))
#define M30(x) M29(M29(x))
#define M31(x) M30(M30(x))
#define M32(x) M31(M31(x))
#define M33(x) M32(M32(x))
#define M34(x) M33(M33(x))
#define M35(x) M34(M34(x))
#define M36(x) M35(M35(x))
#define M37(x) M36(M36(x))
#define M38(x) M37(M37(x))
#define M39(x) M38(M38(x))
#define IDX M39(threadIdx.x)
şÿ// The reference transpose: a 16x32 fp32 tile, read m = t % 16, n = 2r + t / 16.
__global__ void transpose(float* out, const float* in) {
    __shared__ float plain[16 * 32];
    __shared__ float xor_m[16 * 32];
    __shared__ float xor_2m[16 * 32];
    int t = threadIdx.x;
    for (int r = 0; r < 16; ++r) {
        int m = t % 16;
        int n = 2 * r + t / 16;
        out[t] += plain[32 * m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m)];        // expect: bank-conflict factor=2
        out[t] += xor_2m[32 * m + (n ^ (2 * m))]; // expect: ok
    }
}

void launch(float* out, const float* in) {
    dim3 block(32);
    transpose<<<1, block>>>(out, in);
}
şÿ// The reference transpose: a 16x32 fp32 tile, read m = t % 16, n = 2r + t / 16.
__global__ void transpose(float* out, const float* in) {
    __shared__ float plain[16 * 32];
    __shared__ float xor_m[16 * 32];
    __shared__ float xor_2m[16 * 32];
    int t = IDX;
    for (int r = 0; r < 16; ++r) {
        int m = t % 16;
        int n = 2 * r + t / 16;
        out[t] += plain[32 * m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m)];        // expect: bank-conflict factor=2
        out[t] += xor_2m[32 * m + (n ^ (2 * m))]; // expect: ok
    }
}

void launch(float* out, const float* in) {
    dim3 block(32);
    transpose<<<1, block>>>(out, in);
}
şÿ// The reference transpose: a 16x32 fp32 tile, read m = t % 16, n = 2r + t / 16.
__global__ void transpose(float* out, const float* in) {
    __shared__ float plain[16 * 32];
    __shared__ float xor_m[16 * 32];
    __shared__ float xor_2m[16 * 32];
    int t = threadIdx.x;
    for (int r = 0; r < 16; ++r) {
        int m = t % 16;
        int n = 2 * r + t / 16;
        out[t] += plain[32 * m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m)];        // expect: bank-conflict factor=2
        out[t] += xor_2m[32 * m + (n ^ (2 * m))]; // expect: ok
    }
}

void launch(float* out, const float* in) {
    dim3 block(32);
    transpose<<<1, block>>>(out, in);
}
şÿ// The reference transpose: a 16x32 fp32 tile, read m = t % 16, n = 2r + t / 16.
__global__ void transpose(float* out, const float* reinterpret_cast<float4*>) {
    __shared__ float plain[16 * 32];
    __shared__ float xor_m[16 * 32];
    __shared__ float xor_2m[16 * 32];
    int t = threadIdx.x;
    for (int r = 0; r < 16; ++r) {
        int m = t % 16;
        int n = 2 * r + t / 16;
        out[t] += plain[32 * m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m)];        // expect: bank-conflict factor=2
        out[t] += xor_2m[32 * m + (n ^ (2 * m))]; // expect: ok
    }
}

void launch(float* out, const float* in) {
    dim3 block(32);
    transpose<<<1, block>>>(out, in);
}
şÿ// The reference transpose: a 16x32 fp32 tile, read m = t % 16, n = 2r + t / 16.
__global__ void transpose(float* out, const float* in) {
    __shared__ float plain[16 * 32];
    __shared__ float xor_m[16 * 32];
    __shared__ float xor_2m[16 * 32];
    int t = threadIdx.x;
    for (int r = 0; r < 16; ++r) {
        int m = t % 16;
        int n = 2 * r + t / 16;
        out[t] += plain[32 * m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m)];        // expect: bank-conflict factor=2
        out[t] += xor_2m[32 * m + (n ^ (2 * m))]; // expect: ok
    }
}

void launch(float* out, const float* in) {
    dim3 block(32);
    transpose<<<1, block>>>(out, in);
}

#define M0(x) ((x) + 1)
#define M1(x) M0(M0(x))
#define M2(x) M1(M1(x))
#define M3(x) M2(M2(x))
#define M4(x) M3(M3(x))
#define M5(x) M4(M4(x))
#define M6(x) M5(M5(x))
#define M7(x) M6(M6(x))
#define M8(x) M7(M7(x))
#define M9(x) M8(M8(x))
#define M10(x) M9(M9(x))
#define M11(x) M10(M10(x))
#define M12(x) M11(M11(x))
#define M13(x) M12(M12(x))
#define M14(x) M13(M13(x))
#define M15(x) M14(M14(x))
#define M16(x) M15(M15(x))
#define M17(x) M16(M16(x))
#define M18(x) M17(M17(x))
#define M19(x) M18(M18(x))
#define M20(x) M19(M19(x))
#define M21(x) M20(M20(x))
#define M22(x) M21(M21(x))
#define M23(x) M22(M22(x))
#define M24(x) M23(M23(x))
#define M25(x) M24(M24(x))
#define M26(x) M25(M25(x))
#define M27(x) M26(M26(x))
#define M28(x) M27(M27(x))
#define M29(x) M28(M28(x))
#define M30(x) M29(M29(x))
#define M31(x) M30(M30(x))
#define M32(x) M31(M31(x))
#define M33(x) M32(M32(x))
#define M34(x) M33(M33(x))
#define M35(x) M34(M34(x))
#define M36(x) M35(M35(x))
#define M37(x) M36(M36(x))
#define M38(x) M37(M37(x))
#define M39(x) M38(M38(x))
#define IDX M39(threadIdx.x)
şÿ// The reference transpose: a 16x32 fp32 tile, read m = t % 16, n = 2r + t / 16.
__global__ void transpose(float* out, const float* in) {
    __shared__ float plain[16 * 32];
    __shared__ float xor_m[16 * 32];
    __shared__ float xor_2m[16 * 32];
    int t = threadIdx.x;
    for (int r = 0; r < 16; ++r) {
        int m = t % 16;
        int n = 2 * r + t / 16;
        out[t] += plain[32 * m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m)];        // expect: bank-conflict factor=2
        out[t] += xor_2m[32 * m + (n ^ (2 * m))]; // expect: ok
    }
}

void launch(float* out, const float* in) {
    dim3 block(32);
    transpose<<<1, block>>>(out, in);
}
şÿ// The reference transpose: a 16x32 fp32 tile, read m = t % 16, n = 2r + t / 16.
__global__ void transpose(float* out, const float* in) {
    __shared__ float plain[16 * 32];
    __shared__ float xor_m[16 * 32];
    __shared__ float xor_2m[16 * 32];
    int t = IDX;
    for (int r = 0; r < 16; ++r) {
        int m = t % 16;
        int n = 2 * r + t / 16;
        out[t] += plain[32 * m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m)];        // expect: bank-conflict factor=2
        out[t] += xor_2m[32 * m + (n ^ (2 * m))]; // expect: ok
    }
}

void launch(float* out, const float* in) {
    dim3 block(32);
    transpose<<<1, block>>>(out, in);
}
şÿ// The reference transpose: a 16x32 fp32 tile, read m = t % 16, n = 2r + t / 16.
__global__ void transpose(float* out, const float* in) {
    __shared__ float plain[16 * 32];
    __shared__ float xor_m[16 * 32];
    __shared__ float xor_2m[16 * 32];
    int t = threadIdx.x;
    for (int r = 0; r < 16; ++r) {
        int m = t % 16;
        int n = 2 * r + t / 16;
        out[t] += plain[32 * m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m)];        // expect: bank-conflict factor=2
        out[t] += xor_2m[32 * m + (n ^ (2 * m))]; // expect: ok
    }
}

void launch(float* out, const float* in) {
    dim3 block(32);
    transpose<<<1, block>>>(out, in);
}
şÿ// The reference transpose: a 16x32 fp32 tile, read m = t % 16, n = 2r + t / 16.
__global__ void transpose(float* out, const float* reinterpret_cast<float4*>) {
    __shared__ float plain[16 * 32];
    __shared__ float xor_m[16 * 32];
    __shared__ float xor_2m[16 * 32];
    int t = threadIdx.x;
    for (int r = 0; r < 16; ++r) {
        int m = t % 16;
        int n = 2 * r + t / 16;
        out[t] += plain[32 * m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m)];        // expect: bank-conflict factor=2
        out[t] += xor_2m[32 * m + (n ^ (2 * m))]; // expect: ok
    }
}

void launch(float* out, const float* in) {
    dim3 block(32);
    transpose<<<1, block>>>(out, in);
}
şÿ// The reference transpose: a 16x32 fp32 tile, read m = t % 16, n = 2r + t / 16.
__global__ void transpose(float* out, const float* in) {
    __shared__ float plain[16 * 32];
    __shared__ float xor_m[16 * 32];
    __shared__ float xor_2m[16 * 32];
    int t = threadIdx.x;
    for (int r = 0; r < 16; ++r) {
        int m = t % 16;
        int n = 2 * r + t / 16;
        out[t] += plain[32 * m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m)];        // expect: bank-conflict factor=2
        out[t] += xor_2m[32 * m + (n ^ (2 * m))]; // expect: ok
    }
}

void launch(float* out, const float* in) {
    dim3 block(32);
    transpose<<<1, block>>>(out, in);
}

#define M0(x) ((x) + 1)
#define M1(x) M0(M0(x))
#define M2(x) M1(M1(x))
#define M3(x) M2(M2(x))
#define M4(x) M3(M3(x))
#define M5(x) M4(M4(x))
#define M6(x) M5(M5(x))
#define M7(x) M6(M6(x))
#define M8(x) M7(M7(x))
#define M9(x) M8(M8(x))
#define M10(x) M9(M9(x))
#define M11(x) M10(M10(x))
#define M12(x) M11(M11(x))
#define M13(x) M12(M12(x))
#define M14(x) M13(M13(x))
#define M15(x) M14(M14(x))
#define M16(x) M15(M15(x))
#define M17(x) M16(M16(x))
#define M18(x) M17(M17(x))
#define M19(x) M18(M18(x))
#define M20(x) M19(M19(x))
#define M21(x) M20(M20(x))
#define M22(x) M21(M21(x))
#define M23(x) M22(M22(x))
#define M24(x) M23(M23(x))
#define M25(x) M24(M24(x))
#define M26(x) M25(M25(x))
#define M27(x) M26(M26(x))
#define M28(x) M27(M27(x))
#define M29(x) M28(M28(x))
#define M30(x) M29(M29(x))
#define M31(x) M30(M30(x))
#define M32(x) M31(M31(x))
#define M33(x) M32(M32(x))
#define M34(x) M33(M33(x))
#define M35(x) M34(M34(x))
#define M36(x) M35(M35(x))
#define M37(x) M36(M36(x))
#define M38(x) M37(M37(x))
#define M39(x) M38(M38(x))
#define IDX M39(threadIdx.x)
şÿ// The reference transpose: a 16x32 fp32 tile, read m = t % 16, n = 2r + t / 16.
__global__ void transpose(float* out, const float* in) {
    __shared__ float plain[16 * 32];
    __shared__ float xor_m[16 * 32];
    __shared__ float xor_2m[16 * 32];
    int t = threadIdx.x;
    for (int r = 0; r < 16; ++r) {
        int m = t % 16;
        int n = 2 * r + t / 16;
        out[t] += plain[32 * m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m)];        // expect: bank-conflict factor=2
        out[t] += xor_2m[32 * m + (n ^ (2 * m))]; // expect: ok
    }
}

void launch(float* out, const float* in) {
    dim3 block(32);
    transpose<<<1, block>>>(out, in);
}
şÿ// The reference transpose: a 16x32 fp32 tile, read m = t % 16, n = 2r + t / 16.
__global__ void transpose(float* out, const float* in) {
    __shared__ float plain[16 * 32];
    __shared__ float xor_m[16 * 32];
    __shared__ float xor_2m[16 * 32];
    int t = IDX;
    for (int r = 0; r < 16; ++r) {
        int m = t % 16;
        int n = 2 * r + t / 16;
        out[t] += plain[32 * m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m)];        // expect: bank-conflict factor=2
        out[t] += xor_2m[32 * m + (n ^ (2 * m))]; // expect: ok
    }
}

void launch(float* out, const float* in) {
    dim3 block(32);
    transpose<<<1, block>>>(out, in);
}
şÿ// The reference transpose: a 16x32 fp32 tile, read m = t % 16, n = 2r + t / 16.
__global__ void transpose(float* out, const float* in) {
    __shared__ float plain[16 * 32];
    __shared__ float xor_m[16 * 32];
    __shared__ float xor_2m[16 * 32];
    int t = threadIdx.x;
    for (int r = 0; r < 16; ++r) {
        int m = t % 16;
        int n = 2 * r + t / 16;
        out[t] += plain[32 * m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m)];        // expect: bank-conflict factor=2
        out[t] += xor_2m[32 * m + (n ^ (2 * m))]; // expect: ok
    }
}

void launch(float* out, const float* in) {
    dim3 block(32);
    transpose<<<1, block>>>(out, in);
}
şÿ// The reference transpose: a 16x32 fp32 tile, read m = t % 16, n = 2r + t / 16.
__global__ void transpose(float* out, const float* reinterpret_cast<float4*>) {
    __shared__ float plain[16 * 32];
    __shared__ float xor_m[16 * 32];
    __shared__ float xor_2m[16 * 32];
    int t = threadIdx.x;
    for (int r = 0; r < 16; ++r) {
        int m = t % 16;
        int n = 2 * r + t / 16;
        out[t] += plain[32 * m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m)];        // expect: bank-conflict factor=2
        out[t] += xor_2m[32 * m + (n ^ (2 * m))]; // expect: ok
    }
}

void launch(float* out, const float* in) {
    dim3 block(32);
    transpose<<<1, block>>>(out, in);
}
şÿ// The reference transpose: a 16x32 fp32 tile, read m = t % 16, n = 2r + t / 16.
__global__ void transpose(float* out, const float* in) {
    __shared__ float plain[16 * 32];
    __shared__ float xor_m[16 * 32];
    __shared__ float xor_2m[16 * 32];
    int t = threadIdx.x;
    for (int r = 0; r < 16; ++r) {
        int m = t % 16;
        int n = 2 * r + t / 16;
        out[t] += plain[32 * m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m)];        // expect: bank-conflict factor=2
        out[t] += xor_2m[32 * m + (n ^ (2 * m))]; // expect: ok
    }
}

void launch(float* out, const float* in) {
    dim3 block(32);
    transpose<<<1, block>>>(out, in);
}

#define M0(x) ((x) + 1)
#define M1(x) M0(M0(x))
#define M2(x) M1(M1(x))
#define M3(x) M2(M2(x))
#define M4(x) M3(M3(x))
#define M5(x) M4(M4(x))
#define M6(x) M5(M5(x))
#define M7(x) M6(M6(x))
#define M8(x) M7(M7(x))
#define M9(x) M8(M8(x))
#define M10(x) M9(M9(x))
#define M11(x) M10(M10(x))
#define M12(x) M11(M11(x))
#define M13(x) M12(M12(x))
#define M14(x) M13(M13(x))
#define M15(x) M14(M14(x))
#define M16(x) M15(M15(x))
#define M17(x) M16(M16(x))
#define M18(x) M17(M17(x))
#define M19(x) M18(M18(x))
#define M20(x) M19(M19(x))
#define M21(x) M20(M20(x))
#define M22(x) M21(M21(x))
#define M23(x) M22(M22(x))
#define M24(x) M23(M23(x))
#define M25(x) M24(M24(x))
#define M26(x) M25(M25(x))
#define M27(x) M26(M26(x))
#define M28(x) M27(M27(x))
#define M29(x) M28(M28(x))
#define M30(x) M29(M29(x))
#define M31(x) M30(M30(x))
#define M32(x) M31(M31(x))
#define M33(x) M32(M32(x))
#define M34(x) M33(M33(x))
#define M35(x) M34(M34(x))
#define M36(x) M35(M35(x))
#define M37(x) M36(M36(x))
#define M38(x) M37(M37(x))
#define M39(x) M38(M38(x))
#define IDX M39(threadIdx.x)
şÿ// The reference transpose: a 16x32 fp32 tile, read m = t % 16, n = 2r + t / 16.
__global__ void transpose(float* out, const float* in) {
    __shared__ float plain[16 * 32];
    __shared__ float xor_m[16 * 32];
    __shared__ float xor_2m[16 * 32];
    int t = threadIdx.x;
    for (int r = 0; r < 16; ++r) {
        int m = t % 16;
        int n = 2 * r + t / 16;
        out[t] += plain[32 * m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m)];        // expect: bank-conflict factor=2
        out[t] += xor_2m[32 * m + (n ^ (2 * m))]; // expect: ok
    }
}

void launch(float* out, const float* in) {
    dim3 block(32);
    transpose<<<1, block>>>(out, in);
}
şÿ// The reference transpose: a 16x32 fp32 tile, read m = t % 16, n = 2r + t / 16.
__global__ void transpose(float* out, const float* in) {
    __shared__ float plain[16 * 32];
    __shared__ float xor_m[16 * 32];
    __shared__ float xor_2m[16 * 32];
    int t = IDX;
    for (int r = 0; r < 16; ++r) {
        int m = t % 16;
        int n = 2 * r + t / 16;
        out[t] += plain[32 * m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m)];        // expect: bank-conflict factor=2
        out[t] += xor_2m[32 * m + (n ^ (2 * m))]; // expect: ok
    }
}

void launch(float* out, const float* in) {
    dim3 block(32);
    transpose<<<1, block>>>(out, in);
}
şÿ// The reference transpose: a 16x32 fp32 tile, read m = t % 16, n = 2r + t / 16.
__global__ void transpose(float* out, const float* in) {
    __shared__ float plain[16 * 32];
    __shared__ float xor_m[16 * 32];
    __shared__ float xor_2m[16 * 32];
    int t = threadIdx.x;
    for (int r = 0; r < 16; ++r) {
        int m = t % 16;
        int n = 2 * r + t / 16;
        out[t] += plain[32 * m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m)];        // expect: bank-conflict factor=2
        out[t] += xor_2m[32 * m + (n ^ (2 * m))]; // expect: ok
    }
}

void launch(float* out, const float* in) {
    dim3 block(32);
    transpose<<<1, block>>>(out, in);
}
şÿ// The reference transpose: a 16x32 fp32 tile, read m = t % 16, n = 2r + t / 16.
__global__ void transpose(float* out, const float* reinterpret_cast<float4*>) {
    __shared__ float plain[16 * 32];
    __shared__ float xor_m[16 * 32];
    __shared__ float xor_2m[16 * 32];
    int t = threadIdx.x;
    for (int r = 0; r < 16; ++r) {
        int m = t % 16;
        int n = 2 * r + t / 16;
        out[t] += plain[32 * m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m)];        // expect: bank-conflict factor=2
        out[t] += xor_2m[32 * m + (n ^ (2 * m))]; // expect: ok
    }
}

void launch(float* out, const float* in) {
    dim3 block(32);
    transpose<<<1, block>>>(out, in);
}
şÿ// The reference transpose: a 16x32 fp32 tile, read m = t % 16, n = 2r + t / 16.
__global__ void transpose(float* out, const float* in) {
    __shared__ float plain[16 * 32];
    __shared__ float xor_m[16 * 32];
    __shared__ float xor_2m[16 * 32];
    int t = threadIdx.x;
    for (int r = 0; r < 16; ++r) {
        int m = t % 16;
        int n = 2 * r + t / 16;
        out[t] += plain[32 * m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m)];        // expect: bank-conflict factor=2
        out[t] += xor_2m[32 * m + (n ^ (2 * m))]; // expect: ok
    }
}

void launch(float* out, const float* in) {
    dim3 block(32);
    transpose<<<1, block>>>(out, in);
}

#define M0(x) ((x) + 1)
#define M1(x) M0(M0(x))
#define M2(x) M1(M1(x))
#define M3(x) M2(M2(x))
#define M4(x) M3(M3(x))
#define M5(x) M4(M4(x))
#define M6(x) M5(M5(x))
#define M7(x) M6(M6(x))
#define M8(x) M7(M7(x))
#define M9(x) M8(M8(x))
#define M10(x) M9(M9(x))
#define M11(x) M10(M10(x))
#define M12(x) M11(M11(x))
#define M13(x) M12(M12(x))
#define M14(x) M13(M13(x))
#define M15(x) M14(M14(x))
#define M16(x) M15(M15(x))
#define M17(x) M16(M16(x))
#define M18(x) M17(M17(x))
#define M19(x) M18(M18(x))
#define M20(x) M19(M19(x))
#define M21(x) M20(M20(x))
#define M22(x) M21(M21(x))
#define M23(x) M22(M22(x))
#define M24(x) M23(M23(x))
#define M25(x) M24(M24(x))
#define M26(x) M25(M25(x))
#define M27(x) M26(M26(x))
#define M28(x) M27(M27(x))
#define M29(x) M28(M28(x))
#define M30(x) M29(M29(x))
#define M31(x) M30(M30(x))
#define M32(x) M31(M31(x))
#define M33(x) M32(M32(x))
#define M34(x) M33(M33(x))
#define M35(x) M34(M34(x))
#define M36(x) M35(M35(x))
#define M37(x) M36(M36(x))
#define M38(x) M37(M37(x))
#define M39(x) M38(M38(x))
#define IDX M39(threadIdx.x)
şÿ// The reference transpose: a 16x32 fp32 tile, read m = t % 16, n = 2r + t / 16.
__global__ void transpose(float* out, const float* in) {
    __shared__ float plain[16 * 32];
    __shared__ float xor_m[16 * 32];
    __shared__ float xor_2m[16 * 32];
    int t = threadIdx.x;
    for (int r = 0; r < 16; ++r) {
        int m = t % 16;
        int n = 2 * r + t / 16;
        out[t] += plain[32 * m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m)];        // expect: bank-conflict factor=2
        out[t] += xor_2m[32 * m + (n ^ (2 * m))]; // expect: ok
    }
}

void launch(float* out, const float* in) {
    dim3 block(32);
    transpose<<<1, block>>>(out, in);
}
şÿ// The reference transpose: a 16x32 fp32 tile, read m = t % 16, n = 2r + t / 16.
__global__ void transpose(float* out, const float* in) {
    __shared__ float plain[16 * 32];
    __shared__ float xor_m[16 * 32];
    __shared__ float xor_2m[16 * 32];
    int t = IDX;
    for (int r = 0; r < 16; ++r) {
        int m = t % 16;
        int n = 2 * r + t / 16;
        out[t] += plain[32 * m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m)];        // expect: bank-conflict factor=2
        out[t] += xor_2m[32 * m + (n ^ (2 * m))]; // expect: ok
    }
}

void launch(float* out, const float* in) {
    dim3 block(32);
    transpose<<<1, block>>>(out, in);
}
şÿ// The reference transpose: a 16x32 fp32 tile, read m = t % 16, n = 2r + t / 16.
__global__ void transpose(float* out, const float* in) {
    __shared__ float plain[16 * 32];
    __shared__ float xor_m[16 * 32];
    __shared__ float xor_2m[16 * 32];
    int t = threadIdx.x;
    for (int r = 0; r < 16; ++r) {
        int m = t % 16;
        int n = 2 * r + t / 16;
        out[t] += plain[32 * m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m)];        // expect: bank-conflict factor=2
        out[t] += xor_2m[32 * m + (n ^ (2 * m))]; // expect: ok
    }
}

void launch(float* out, const float* in) {
    dim3 block(32);
    transpose<<<1, block>>>(out, in);
}
şÿ// The reference transpose: a 16x32 fp32 tile, read m = t % 16, n = 2r + t / 16.
__global__ void transpose(float* out, const float* reinterpret_cast<float4*>) {
    __shared__ float plain[16 * 32];
    __shared__ float xor_m[16 * 32];
    __shared__ float xor_2m[16 * 32];
    int t = threadIdx.x;
    for (int r = 0; r < 16; ++r) {
        int m = t % 16;
        int n = 2 * r + t / 16;
        out[t] += plain[32 * m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m)];        // expect: bank-conflict factor=2
        out[t] += xor_2m[32 * m + (n ^ (2 * m))]; // expect: ok
    }
}

void launch(float* out, const float* in) {
    dim3 block(32);
    transpose<<<1, block>>>(out, in);
}
şÿ// The reference transpose: a 16x32 fp32 tile, read m = t % 16, n = 2r + t / 16.
__global__ void transpose(float* out, const float* in) {
    __shared__ float plain[16 * 32];
    __shared__ float xor_m[16 * 32];
    __shared__ float xor_2m[16 * 32];
    int t = threadIdx.x;
    for (int r = 0; r < 16; ++r) {
        int m = t % 16;
        int n = 2 * r + t / 16;
        out[t] += plain[32 * m + n];              // expect: bank-conflict factor=16
        out[t] += xor_m[32 * m + (n ^ m)];        // expect: bank-conflict factor=2
        out[t] += xor_2m[32 * m + (n ^ (2 * m))]; // expect: ok
    }
}

void launch(float* out, const float* in) {
    dim3 block(32);
    transpose<<<1, block>>>(out, in);
}
