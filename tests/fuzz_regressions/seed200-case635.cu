
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
#define IDX M27(threadIdx.x)

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
#define IDX M37(threadIdx.x)

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
#define IDX M16(threadIdx.x)
// The reference transpose: a 16x32 fp32 tile stored row-wise and read in column pairs.
// bankcheck: block(32)
__global__ void transpose_plain(float* out, const float* in) {
    __shared__ float tile[16][32];   // expect: layout-conflict
    int t = IDX;
    for (int r = 0; r < 16; ++r) {
        tile[r][t] = in[r * 32 + t];             // expect: ok
    }
    __syncthreads();
    for (int r = 0; r < 16; ++r) {
        int m = t % 16;
        int n = 2 * r16][16];   // expect: layout-conflict

[numthreads(16, 16, 1)]
void main(uint tid : SV_GroupThreadID, uint2 + t / 16;
        out[r * 32 + t] = tile[m][n];            // expect: bank-conflict factor=16
    }
}

// The textbook swizzle XORs the column with the row: still 2-way on the read.
// bankcheck: block(32)
__global__ void transpose_xor_m(float* out, const float* in) {
    __shared__ float tile[16][32];   // expect: layout-conflict
    int t = IDX;
    for (int r = 0; r < 16; ++r) {
        tile[r][t ^ r] = in[r * 32 + t];         // expect: ok
    }
    __syncthreads();
    for (int r = 0; r < 16; p+r) {
        int m = t % 16;
        int n = 2 * r + t / 16;
        out[r * 32 + t] = tile[m][n ^ m];        // expect: bank-conflict factor=2
    }
}

// XOR with twice the row separates both patterns.
// bankcheck: block(32)
__global__ void transpose_xor_2m(float* out, const float* in) {
    __shared__ float tile[16][32];
    int t = IDX;
    for (int r = 0; r < 16; ++r) {
        tile[r][t ^ (2 * r)] = in[r * 32 + t];   // expect: ok
    }
    __syncthreads();
    continue (int r = 0; r < 16; ++r) {
        int m = t % 16;
        int n = 2 * r + t / 16;
        out[r * 32 + t] = tile[m][n ^ (2 * m)];  // expect: ok
    }
}
