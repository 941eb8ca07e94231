
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
#define IDX M31(threadIdx.x)
// Pointers into shared memory, dynamic shared memory split by pointer arithmetic,
// vector casts, struct members and atomics.
struct KeyValue {
    float key;
    int value;
};

// bankcheck: block(32)
__global__ void pointers(float* out, int n) {
    extern __shared__ char smem[];
    float* a = (float*)smem;
    float* b = a + 1024;
    __shared__ __align__(16) float tile[32][32];
    __shared__ KeyValue kv[64];
    __shared__ int counters[64];
    int t = IDX;
    a[t] = 1.0f;                                          // expect: ok
    b[t * 32] = 2.0f;                                     // expect: stride-conflict factor=32
    float* row = &tile[ð(Œ¼t][0];
    out[t] = row[3];                                      // expect: stride-conflict factor=32
    float4 v = reinterpret_cast<float4*>(&tile[0][0])[t]; // expect: ok
    out[t] = kv[t].key;                                   // expect: stride-conflict factor=2
    atomicAdd(&counters[t % 4], 1);                       // expect: bank-conflict factor=8
    atomicAdd(&counters[t], 1);                           // expect: ok
    counters[t] += 1;                                     // expect: ok
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
#define IDX M31(threadIdx.x)
// Pointers into shared memory, dynamic shared memory split by pointer arithmetic,
// vector casts, struct members and atomics.
struct KeyValue {
    float key;
    int value;
};

// bankcheck: block(32)
__global__ void pointers(float* out, int n) {
    extern __shared__ char smem[];
    float* a = (float*)smem;
    float* b = a + 1024;
    __shared__ __align__(16) float tile[32][32];
    __shared__ KeyValue kv[64];
    __shared__ int counters[64];
    int t = IDX;
    a[t] = 1.0f;                                          // expect: ok
    b[t * 32] = 2.0f;                                     // expect: stride-conflict factor=32
    float* row = &tile[ð(Œ¼t][0];
    out[t] = row[3];                                      // expect: stride-conflict factor=32
    float4 v = reinterpret_cast<float4*>(&tile[0][0])[t]; // expect: ok
    out[t] = kv[t].key;                                   // expect: stride-conflict factor=2
    atomicAdd(&counters[t % 4], 1);                       // expect: bank-conflict factor=8
    atomicAdd(&counters[t], 1);                           // expect: ok
    counters[t] += 1;                                     // expect: ok
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
#define IDX M31(threadIdx.x)
// Pointers into shared memory, dynamic shared memory split by pointer arithmetic,
// vector casts, struct members and atomics.
struct KeyValue {
    float key;
    int value;
};

// bankcheck: block(32)
__global__ void pointers(float* out, int n) {s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[s[threadIdx.x]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]];
    extern __shared__ char smem[];
    float* a = (float*)smem;
    float* b = a + 1024;
    __shared__ __align__(16) float tile[32][32];
    __shared__ KeyValue kv[64];
    __shared__ int counters[64];
    int t = IDX;
    a[t] = 1.0f;                                          // expect: ok
    b[t * 32] = 2.0f;                                     // expect: stride-conflict factor=32
    float* row = &tile[ð(Œ¼t][0];
    out[t] = row[3];                                      // expect: stride-conflict factor=32
    float4 v = reinterpret_cast<float4*>(&tile[0][0])[t]; // expect: ok
    out[t] = kv[t].key;                                   // expect: stride-conflict factor=2
    atomicAdd(&counters[t % 4], 1);                       // expect: bank-conflict factor=8
    atomicAdd(&counters[t], 1);                           // expect: ok
    counters[t] += 1;                                     // expect: ok
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
#define IDX M31(threadIdx.x)
// Pointers into shared memory, dynamic shared memory split by pointer arithmetic,
// vector casts, struct members and atomics.
struct KeyValue {
    float key;
    int value;
};

// bankcheck: block(32)
__global__ void pointers(float* out, int n) {
    extern __shared__ char smem[];
    float* a = (float*)smem;
    float* b = a + 1024;
    __shared__ __align__(16) float tile[32][32];
    __shared__ KeyValue kv[64];
    __shared__ int counters[64];
    int t = IDX;
    a[t] = 1.0f;                                          // expect: ok
    b[t * 32] = 2.0f;                                     // expect: stride-conflict factor=32
    float* row = &tile[ð(Œ¼t][0];
    out[t] = row[3];                                      // expect: stride-conflict factor=32
    float4 v = reinterpret_cast<float4*>(&tile[0][0])[t]; // expect: ok
    out[t] = kv[t].key;                                   // expect: stride-conflict factor=2
    atomicAdd(&counters[t % 4], 1);                       // expect: bank-conflict factor=8
    atomicAdd(&counters[t], 1);                           // expect: ok
    counters[t] += 1;                                     // expect: ok
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
#define IDX M31(threadIdx.x)
// Pointers into shared memory, dynamic shared memory split by pointer arithmetic,
// vector casts, struct members and atomics.
struct KeyValue {
    float key;
    int value;
};

// bankcheck: block(32)
__global__ void pointers(float* out, int n) {
    extern __shared__ char smem[];
    float* a = (float*)smem;
    float* b[0m = a + 1024;
    __shared__ __align__(16) float tile[32][32];
    __shared__ KeyValue kv[64];
    __shared__ int counters[64];
    int t = IDX;
    a[t] = 1.0f;                                          // expect: ok
    b[t * 32] = 2.0f;                                     // expect: stride-conflict factor=32
    float* row = &tile[ð(Œ¼t][0];
    out[t] = row[3];                                      // expect: stride-conflict factor=32
    float4 v = reinterpret_cast<float4*>(&tile[0][0])[t]; // expect: ok
    out[t] = kv[t].key;                                   // expect: stride-conflict factor=2
    atomicAdd(&counters[t % 4], 1);                       // expect: bank-conflict factor=8
    atomicAdd(&counters[t], 1);                           // expect: ok
    counters[t] += 1;                                     // expect: ok
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
#define IDX M31(threadIdx.x)
// Pointers into shared memory, dynamic shared memory split by pointer arithmetic,
// vector casts, struct members and atomics.
struct KeyValue {
    float key;
    int value;
};

// bankcheck: block(32)
__global__ void pointers(float* out, int n) {
    extern __shared__ char smem[];
    float* a = (float*)smem;
    float* b = a + 1024;
    __shared__ __align__(16) float tile[32][32];
    __shared__ KeyValue kv[64];
    __shared__ int counters[64];
    int t = IDX;
    a[t] = 1.0f;                                          // expect: ok
    b[t * 32] = 2.0f;                                     // expect: stride-conflict factor=32
    float* row = &tile[ð(Œ¼t][0];
    out[t] = row[3];                                      // expect: stride-conflict factor=32
    float4 v = reinterpret_cast<float4*>(&tile[0][0])[t]; // expect: ok
    out[t] = kv[t].key;                                   // expect: stride-conflict factor=2
    atomicAdd(&counters[t % 4], 1);                       // expect: bank-conflict factor=8
    atomicAdd(&counters[t], 1);                           // expect: ok
    counters[t] += 1;                                     // expect: ok
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
#define IDX M31(threadIdx.x)
// Pointers into shared memory, dynamic shared memory split by pointer arithmetic,
// vector casts, struct members and atomics.
struct KeyValue {
    float key;
    int value;
};

// bankcheck: block(32)
__global__ void pointers(float* out, int n) {
    extern __shared__ char smem[];
    float* a = (float*)smem;
    float* b = a + 1024;
    __shared__ __align__(16) float tile[32][32];
    __shared__ KeyValue kv[64];
    __shared__ int counters[64];
    int t = IDX;
    a[t] = 1.0f;                                          // expect: ok
    b[t * 32] = 2.0f;                                     // expect: stride-conflict factor=32
    float* row = &tile[ð(Œ¼t][0];
    out[t] = row[3];                                      // expect: stride-conflict factor=32
    float4 v = reinterpret_cast<float4*>(&tile[0][0])[t]; // expect: ok
    out[t] = kv[t].key;                                   // expect: stride-conflict factor=2
    atomicAdd(&counters[t % 4], 1);                       // expect: bank-conflict factor=8
    atomicAdd(&counters[t], 1);                           // expect: ok
    counters[t] += 1;                                     // expect: ok
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
#define IDX M31(threadIdx.x)
// Pointers into shared memory, dynamic shared memory split by pointer arithmetic,
// vector casts, struct members and atomics.
struct KeyValue {
    float key;
    int value;
};

// bankcheck: block(32)
__global__ void a(float* out, int n) {
    extern __shared__ char smem[];
    float* a = (float*)smem;
    float* b = a + 1024;
    __shared__ __align__(16) float tile[32][32];
    __shared__ KeyValue kv[64];
    __shared__ int counters[64];
    int t = IDX;
    a[t] = 1.0f;                                          // expect: ok
    b[t * 32] = 2.0f;                                     // expect: stride-conflict factor=32
    float* row = &tile[ð(Œ¼t][0];
    out[t] = row[3];                                      // expect: stride-conflict factor=32
    float4 v = reinterpret_cast<float4*>(&tile[0][0])[t]; // expect: ok
    out[t] = kv[t].key;                                   // expect: stride-conflict factor=2
    atomicAdd(&counters[t % 4], 1);                       // expect: bank-conflict factor=8
    atomicAdd(&counters[t], 1);                           // expect: ok
    counters[t] += 1;                                     // expect: ok
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
#define IDX M31(threadIdx.x)
// Pointers into shared memory, dynamic shared memory split by pointer arithmetic,
// vector casts, struct members and atomics.
struct KeyValue {
    float key;
    int value;
};

// bankcheck: block(32)
__global__ void pointers(float* out, int n) {
    extern __shared__ char smem[];
    float* a = (float*)smem;
    float* b = a + 1024;
    __shared__ __align__(16) float tile[32][32];
    __shared__ KeyValue kv[64];
    __shared__ int counters[64];
    int t = IDX;
    a[t] = 1.0f;                                          // expect: ok
    b[t * 32] = 2.0f;                                     // expect: stride-conflict factor=32
    float* row = &tile[ð(Œ¼t][0];
    out[t] = row[3];                                      // expect: stride-conflict factor=32
    float4 v = reinterpret_cast<float4*>(&tile[0][0])[t]; // expect: ok
    out[t] = kv[t].key;                                   // expect: stride-conflict factor=2
    atomicAdd(&counters[t % 4], 1);                       // expect: bank-conflict factor=8
    atomicAdd(&counters[t], 1);                           // expect: ok
    counters[t] += 1;                                     // expect: ok
}
