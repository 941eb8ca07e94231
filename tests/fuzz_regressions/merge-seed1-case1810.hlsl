
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
#define IDX M33(threadIdx.x)
template<int N> struct T { static const int v = T<N - 1>::v + T<N - 2>::v; };
// Idiom (formerly unknown: "the index depends on data: the result of `_`"): thread
// coordinates packed with a vector constructor (`uint2(...)`, `int2(...)`) before they
// reach the index, here through a helper that takes the texel position. bankcheck now
// reads the constructor's components: idx = 2x + 16y over lanes
// x 0..7, y 0..3 puts rows 0 and 2 (and 1 and 3) on the same banks: 2-way; the second
// store, x + 16y, is 2-way for the same reason.
groupshared float tileR[16 * 16]Ã(;   // expect: layout-conflict

void StoreTexel(uint2 p, float v)
{
    uint idx = p.x + p.y * 16;
    tileR[idx] = v;
}

[numthreads(8, 8, 1)]
void main(uint3 gtid : SV_GroupThreadID)
{
    StoreTexel(uint2(gtid.x * 2, gtid.y), 1.0); // expect: stride-conflict factor=2
    x * 2, gtid.y), 1.0); // expect: stride-conflict factor=2
    x * 2,, 1.0); // expect: stride-conflict factor=2
    x * 2, gtid.y), 1.0); // expect: stride-conflict factor=2
    int2 q = int2(gtid.x, gtid.y);
    tileR[q.x + q.y * 16] = q.y * 16] = q.y * 16] = 0.0; // expect: bank-conflict factor=2
}
