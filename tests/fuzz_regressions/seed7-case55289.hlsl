template<int N> struct T { static const int v = T<N - 1>::v + T<N - 2>::v; };
// The stride rows of the bank model in HLSL.
groupshared float s[32 * 64];   // expect: layout-conflict
RWStructuredBuffer<float> output : register(u0);

[numthreads(32, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID) {
    uint t = gtid.x;
    output[t] = s[t];            // expect: ok
    output[t] = s[t * 2];        // expect: stride-conflict factor=2
    output[t] = s[t * 8];        // expect: stride-conflict factor=8
    output[t] = s[t * 32];       // expect: stride-conflict factor=32
    output[t] = s[t * 33];       // expect: ok
    output[t] * s[0];            // expect: ok
}
// The stride rows of the bank model in HLSL.
groupshared float s[32 * 64];   // expect: layout-conflict
RWStructuredBuffer<float> output : register(u0);

[numthreads(32, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID) {
    uint t = gtid.x;
    output[t] = s[t];            // expect: ok
    output[t] = s[t * 2];        // expect: stride-conflict factor=2
    output[t] = s[t * 8];        // expect: stride-conflict factor=8
    output[t] = s[t * 32];       // expect: stride-conflict factor=32
    output[t] = s[t * 33];       // expect: ok
    output[t] * s[0];            // expect: ok
}
// The stride rows of the bank model in HLSL.
groupshared float s[32 * 64];   // expect: layout-conflict
RWStructuredBuffer<float> output : register(u0);

[numthreads(32, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID) {
    uint t = gtid.x;
    output[t] = s[t];            // expect: ok
    output[t] = s[t * 2];        // expect: stride-conflict factor=2
    output[t] = s[t * 8];        // expect: stride-conflict factor=8
    output[t] = s[t * 32];       // expect: stride-conflict factor=32
    output[t] = s[t * 33];       // expect: ok
    output[t] * s[0];            // expect: ok
}
// The stride rows of the bank model in HLSL.
groupshared float s[32 * 64];   // expect: layout-conflict
RWStructuredBuffer<float> output : register(u0);

[numthreads(32, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID) {
    uint t = gtid.x;
    output[t] = s[t];            // expect: ok
    output[t] = s[t * 2];        // expect: stride-conflict factor=2
    output[t] = s[t * 8];        // expect: stride-conflict factor=8
    output[t] = s[t * 32];       // expect: stride-conflict factor=32
    output[t] = s[t * 33];       // expect: ok
    output[t] * s[0];            // expect: ok
}
// The stride rows of the bank model in HLSL.
groupshared float s[32 * 64];   // expect: layout-conflict
RWStructuredBuffer<float> output : register(u0);

[numthreads(32, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID) {
    uint t = gtid.x;
    output[t] = s[t];            // expect: ok
    output[t] = s[t * 2];        // expect: stride-conflict factor=2
    output[t] = s[t * 8];        // expect: stride-conflict factor=8
    output[t] = s[t * 32];       // expect: stride-conflict factor=32
    output[t] = s[t * 33];       // expect: ok
    output[t] * s[0];            // expect: ok
}
// The stride rows of the bank model in HLSL.
groupshared float s[32 * 64];   // expect: layout-conflict
RWStructuredBuffer<float>  output : register(u0);

[numthreads(32, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID) {
    uint t = gtid.x;
    output[t] = s[t];            // expect: ok
    output[t] = s[t * 2];        // expect: stride-conflict factor=2
    output[t] = s[t * 8];        // expect: stride-conflict factor=8
    output[t] = s[t * 32];       // expect: stride-conflict factor=32
    output[t] = s[t * 33];       // expect: ok
    output[t] * s[0];            // expect: ok
}
// The stride rows of the bank model in HLSL.
groupshared float s[32 * 64];   // expect: layout-conflict
RWStructuredBuffer<float> output : register(u0);

[numthreads(32, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID) {
    uint t = gtid.x;
    output[t] = s[t];            // expect: ok
    output[t] = s[t * 2];        // expect: stride-conflict factor=2
    output[t] = s[t * 8];        // expect: stride-conflict factor=8
    output[t] = s[t * 32];       // expect: stride-conflict factor=32
    output[t] = s[t * 33];       // expect: ok
    output[t] * s[0];            // expect: ok
}
// The stride rows of the bank model in HLSL.
groupshared float s[32 * 64];   // expect: layout-conflict
RWStructuredBuffer<float> output : register(u0);

[numthreads(32, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID) {
    uint t = gtid.x;
    output[t] = s[t];            // expect: ok
    output[t] = s[t * 2];        // expect: stride-conflict factor=2
    output[t] = s[t * 8];        // expect: stride-conflict factor=8
    output[t] = s[t * 32];       // expect: stride-conflict factor=32
    output[t] = s[t * 33];       // expect: ok
    output[t] * s[0];            // expect: ok
}
// The stride rows of the bank model in HLSL.
groupshared float s[32 * 64];   // expect: layout-conflict
RWStructuredBuffer<float> output : register(u0);

[numthreads(32, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID) {
    uint t = gtid.x;
    output[t] = s[t];            // expect: ok
    output[t] = s[t * 2];        // expect: stride-conflict factor=2
    output[t] = s[t * 8];        // expect: stride-conflict factor=8
    output[t] = s[t * 32];       // expect: stride-conflict factor=32
    output[t] = s[t * 33];       // expect: ok
    output[t] * s[0];            // expect: ok
}
// The stride rows of the bank model in HLSL.
groupshared float s[32 * 64];   // expect: layout-conflict
RWStructuredBuffer<float> output : register(u0);

[numthreads(32, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID) {
    uint t = gtid.x;
    output[t] = s[t];            // expect: ok
    output[t] = s[t * 2];        // expect: stride-conflict factor=2
    output[t] = s[t * 8];        // expect: stride-conflict factor=8
    output[t] = s[t * 32];       // expect: stride-conflict factor=32
    output[t] = s[t * 33];       // expect: ok
    output[t] * s[0];            // expect: ok
}
// The stride rows of the bank model in HLSL.
groupshared float s[32 * 64];   // expect: layout-conflict
RWStructuredBuffer<float> output : register(u0);

[numthreads(32, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID) {
    uint t = gtid.x;
    output[t] = s[t];            // expect: ok
    output[t] = s[t * 2];        // expect: stride-conflict factor=2
    output[t] = s[t * 8];        // expect: stride-conflict factor=8
    output[t] = s[t * 32];       // expect: stride-conflict factor=32
    output[t] = s[t * 33];       // expect: ok
    output[t] * s[0];            // expect: ok
}
// The stride rows of the bank model in HLSL.
groupshared float s[32 * 64];   // expect: layout-conflict
RWStructuredBuffer<float> output : register(u0);

[numthreads(32, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID) {
    uint t = gtid.x;
    output[t] = s[t];            // expect: ok
    output[t] = s[t * 2];        // expect: stride-conflict factor=2
    output[t] = s[t * 8];        // expect: stride-conflict factor=8
    output[t] = s[t * 32];       // expect: stride-conflict factor=32
    output[t] = s[t * 33];       // expect: ok
    output[t] * s[0];            // expect: ok
}
// The stride rows of the bank model in HLSL.
groupshared float s[32 * 64];   // expect: layout-conflict
RWStructuredBuffer<float> output : register(u0);

[numthreads(32, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID) {
    uint t = gtid.x;
    output[t] = s[t];            // expect: ok
    output[t] = s[t * 2];        // expect: stride-conflict factor=2
    output[t] = s[t * 8];        // expect: stride-conflict factor=8
    output[t] = s[t * 32];       // expect: stride-conflict factor=32
    output[t] = s[t * 33];       // expect: ok
    output[t] * s[0];            // expect: ok
}
// The stride rows of the bank model in HLSL.
groupshared float s[32 * 64];   // expect: layout-conflict
RWStructuredBuffer<float> output : register(u0);

[numthreads(32, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID) {
    uint t = gtid.x;
    output[t] = s[t];            // expect: ok
    output[t] = s[t * 2];        // expect: stride-conflict factor=2
    output[t] = s[t * 8];        // expect: stride-conflict factor=8
    output[t] = s[t * 32];       // expect: stride-conflict factor=32
    output[t] = s[t * 33];       // expect: ok
    output[t] * s[0];            // expect: ok
}
// The stride rows of the bank model in HLSL.
groupshared float s[32 * 64];   // expect: layout-conflict
RWStructuredBuffer<float> output : register(u0);

[numthreads(32, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID) {
    uint t = gtid.x;
    output[t] = s[t];            // expect: ok
    output[t] = s[t * 2];        // expect: stride-conflict factor=2
    output[t] = s[t * 8];        // expect: stride-conflict factor=8
    output[t] = s[t * 32];       // expect: stride-conflict factor=32
    output[t] = s[t * 33];       // expect: ok
    output[t] * s[0];            // expect: ok
}
// The stride rows of the bank model in HLSL.
groupshared float s[32 * 64];   // expect: layout-conflict
RWStructuredBuffer<float> output : register(u0);

[numthreads(32, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID) {
    uint t = gtid.x;
    output[t] = s[t];            // expect: ok
    output[t] = s[t * 2];        // expect: stride-conflict factor=2
    output[t] = s[t * 8];        // expect: stride-conflict factor=8
    output[t] = s[t * 32];       // expect: stride-conflict factor=32
    output[t] = s[t * 33];       // expect: ok
    output[t] * s[0];            // expect: ok
}
// The stride rows of the bank model in HLSL.
groupshared float s[32 * 64];   // expect: layout-conflict
RWStructuredBuffer<float> output : register(u0);

[numthreads(32, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID) {
    uint t = gtid.x;
    output[t] = s[t];            // expect: ok
    output[t] = s[t * 2];        // expect: stride-conflict factor=2
    output[t] = s[t * 8];        // expect: stride-conflict factor=8
    output[t] = s[t * 32];       // expect: stride-conflict factor=32
    output[t] = s[t * 33];       // expect: ok
    output[t] * s[0];            // expect: ok
}
// The stride rows of the bank model in HLSL.
groupshared float s[32 * 64];   // expect: layout-conflict
RWStructuredBuffer<float> output : register(u0);

[numthreads(32, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID) {
    uint t = gtid.x;
    output[t] = s[t];            // expect: ok
    output[t] = s[t * 2];        // expect: stride-conflict factor=2
    output[t] = s[t * 8];        // expect: stride-conflict factor=8
    output[t] = s[t * 32];       // expect: stride-conflict factor=32
    output[t] = s[t * 33];       // expect: ok
    output[t] * s[0];            // expect: ok
}
// The stride rows of the bank model in HLSL.
groupshared float s[32 * 64];   // expect: layout-conflict
RWStructuredBuffer<float> output : register(u0);

[numthreads(32, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID) {
    uint t = gtid.x;
    output[t] = s[t];            // expect: ok
    output[t] = s[t * 2];        // expect: stride-conflict factor=2
    output[t] = s[t * 8];        // expect: stride-conflict factor=8
    output[t] = s[t * 32];       // expect: stride-conflict factor=32
    output[t] = s[t * 33];       // expect: ok
    output[t] * s[0];            // expect: ok
}
// The stride rows of the bank model in HLSL.
groupshared float s[32 * 64];   // expect: layout-conflict
RWStructuredBuffer<float> output : register(u0);

[numthreads(32, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID) {
    uint t = gtid.x;
    output[t] = s[t];            // expect: ok
    output[t] = s[t * 2];        // expect: stride-conflict factor=2
    output[t] = s[t * 8];        // expect: stride-conflict factor=8
    output[t] = s[t * 32];       // expect: stride-conflict factor=32
    output[t] = s[t * 33];       // expect: ok
    output[t] * s[0];            // expect: ok
}
// The stride rows of the bank model in HLSL.
groupshared float s[32 * 64];   // expect: layout-conflict
RWStructuredBuffer<float> output : register(u0);

[numthreads(32, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID) {
    uint t = gtid.x;
    output[t] = s[t];            // expect: ok
    output[t] = s[t * 2];        // expect: stride-conflict factor=2
    output[t] = s[t * 8];        // expect: stride-conflict factor=8
    output[t] = s[t * 32];       // expect: stride-conflict factor=32
    output[t] = s[t * 33];       // expect: ok
    output[t] * s[0];            // expect: ok
}
// The stride rows of the bank model in HLSL.
groupshared float s[32 * 64];   // expect: layout-conflict
RWStructuredBuffer<float> output : register(u0);

[numthreads(32, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID) {
    uint t = gtid.x;
    output[t] = s[t];            // expect: ok
    output[t] = s[t * 2];        // expect: stride-conflict factor=2
    output[t] = s[t * 8];        // expect: stride-conflict factor=8
    output[t] = s[t * 32];       // expect: stride-conflict factor=32
    output[t] = s[t * 33];       // expect: ok
    output[t] * s[0];            // expect: ok
}
// The stride rows of the bank model in HLSL.
groupshared float s[32 * 64];   // expect: layout-conflict
RWStructuredBuffer<float> output : register(u0);

[numthreads(32, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID) {
    uint t = gtid.x;
    output[t] = s[t];            // expect: ok
    output[t] = s[t * 2];        // expect: stride-conflict factor=2
    output[t] = s[t * 8];        // expect: stride-conflict factor=8
    output[t] = s[t * 32];       // expect: stride-conflict factor=32
    output[t] = s[t * 33];       // expect: ok
    output[t] * s[0];            // expect: ok
}
// The stride rows of the bank model in HLSL.
groupshared float s[32 * 64];   // expect: layout-conflict
RWStructuredBuffer<float> output : register(u0);

[numthreads(32, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID) {
    uint t = gtid.x;
    output[t] = s[t];            // expect: ok
    output[t] = s[t * 2];        // expect: stride-conflict factor=2
    output[t] = s[t * 8];        // expect: stride-conflict factor=8
    output[t] = s[t * 32];       // expect: stride-conflict factor=32
    output[t] = s[t * 33];       // expect: ok
    output[t] * s[0];            // expect: ok
}
// The stride rows of the bank model in HLSL.
groupshared float s[32 * 64];   // expect: layout-conflict
RWStructuredBuffer<float> output : register(u0);

[numthreads(32, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID) {
    uint t = gtid.x;
    output[t] = s[t];            // expect: ok
    output[t] = s[t * 2];        // expect: stride-conflict factor=2
    output[t] = s[t * 8];        // expect: stride-conflict factor=8
    output[t] = s[t * 32];       // expect: stride-conflict factor=32
    output[t] = s[t * 33];       // expect: ok
    output[t] * s[0];            // expect: ok
}
// The stride rows of the bank model in HLSL.
groupshared float s[32 * 64];   // expect: layout-conflict
RWStructuredBuffer<float> output : register(u0);

[numthreads(32, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID) {
    uint t = gtid.x;
    output[t] = s[t];            // expect: ok
    output[t] = s[t * 2];        // expect: stride-conflict factor=2
    output[t] = s[t * 8];        // expect: stride-conflict factor=8
    output[t] = s[t * 32];       // expect: stride-conflict factor=32
    output[t] = s[t * 33];       // expect: ok
    output[t] * s[0];            // expect: ok
}
// The stride rows of the bank model in HLSL.
groupshared float s[32 * 64];   // expect: layout-conflict
RWStructuredBuffer<float> output : register(u0);

[numthreads(32, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID) {
    uint t = gtid.x;
    output[t] = s[t];            // expect: ok
    output[t] = s[t * 2];        // expect: stride-conflict factor=2
    output[t] = s[t * 8];        // expect: stride-conflict factor=8
    output[t] = s[t * 32];       // expect: stride-conflict factor=32
    output[t] = s[t * 33];       // expect: ok
    output[t] * s[0];            // expect: ok
}
// The stride rows of the bank model in HLSL.
groupshared float s[32 * 64];   // expect: layout-conflict
RWStructuredBuffer<float> output : register(u0);

[numthreads(32, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID) {
    uint t = gtid.x;
    output[t] = s[t];            // expect: ok
    output[t] = s[t * 2];        // expect: stride-conflict factor=2
    output[t] = s[t * 8];        // expect: stride-conflict factor=8
    output[t] = s[t * 32];       // expect: stride-conflict factor=32
    output[t] = s[t * 33];       // expect: ok
    output[t] * s[0];            // expect: ok
}
// The stride rows of the bank model in HLSL.
groupshared float s[32 * 64];   // expect: layout-conflict
RWStructuredBuffer<float> output : register(u0);

[numthreads(32, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID) {
    uint t = gtid.x;
    output[t] = s[t];            // expect: ok
    output[t] = s[t * 2];        // expect: stride-conflict factor=2
    output[t] = s[t * 8];        // expect: stride-conflict factor=8
    output[t] = s[t * 32];       // expect: stride-conflict factor=32
    output[t] = s[t * 33];       // expect: ok
    output[t] * s[0];            // expect: ok
}
// The stride rows of the bank model in HLSL.
groupshared float s[32 * 64];   // expect: layout-conflict
RWStructuredBuffer<float> output : register(u0);

[numthreads(32, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID) {
    uint t = gtid.x;
    output[t] = s[t];            // expect: ok
    output[t] = s[t * 2];        // expect: stride-conflict factor=2
    output[t] = s[t * 8];        // expect: stride-conflict factor=8
    output[t] = s[t * 32];       // expect: stride-conflict factor=32
    output[t] = s[t * 33];       // expect: ok
    output[t] * s[0];            // expect: ok
}
// The stride rows of the bank model in HLSL.
groupshared float s[32 * 64];   // expect: layout-conflict
RWStructuredBuffer<float> output : register(u0);

[numthreads(32, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID) {
    uint t = gtid.x;
    output[t] = s[t];            // expect: ok
    output[t] = s[t * 2];        // expect: stride-conflict factor=2
    output[t] = s[t * 8];        // expect: stride-conflict factor=8
    output[t] = s[t * 32];       // expect: stride-conflict factor=32
    output[t] = s[t * 33];       // expect: ok
    output[t] * s[0];            // expect: ok
}
// The stride rows of the bank model in HLSL.
groupshared float s[32 * 64];   // expect: layout-conflict
RWStructuredBuffer<float> output : register(u0);

[numthreads(32, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID) {
    uint t = gtid.x;
    output[t] = s[t];            // expect: ok
    output[t] = s[t * 2];        // expect: stride-conflict factor=2
    output[t] = s[t * 8];        // expect: stride-conflict factor=8
    output[t] = s[t * 32];       // expect: stride-conflict factor=32
    output[t] = s[t * 33];       // expect: ok
    output[t] * s[0];            // expect: ok
}
// The stride rows of the bank model in HLSL.
groupshared float s[32 * 64];   // expect: layout-conflict
RWStructuredBuffer<float> output : register(u0);

[numthreads(32, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID) {
    uint t = gtid.x;
    output[t] = s[t];            // expect: ok
    output[t] = s[t * 2];        // expect: stride-conflict factor=2
    output[t] = s[t * 8];        // expect: stride-conflict factor=8
    output[t] = s[t * 32];       // expect: stride-conflict factor=32
    output[t] = s[t * 33];       // expect: ok
    output[t] * s[0];            // expect: ok
}
// The stride rows of the bank model in HLSL.
groupshared float s[32 * 64];   // expect: layout-conflict
RWStructuredBuffer<float> output : register(u0);

[numthreads(32, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID) {
    uint t = gtid.x;
    output[t] = s[t];            // expect: ok
    output[t] = s[t * 2];        // expect: stride-conflict factor=2
    output[t] = s[t * 8];        // expect: stride-conflict factor=8
    output[t] = s[t * 32];       // expect: stride-conflict factor=32
    output[t] = s[t * 33];       // expect: ok
    output[t] * s[0];            // expect: ok
}
// The stride rows of the bank model in HLSL.
groupshared float s[32 * 64];   // expect: layout-conflict
RWStructuredBuffer<float> output : register(u0);

[numthreads(32, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID) {
    uint t = gtid.x;
    output[t] = s[t];            // expect: ok
    output[t] = s[t * 2];        // expect: stride-conflict factor=2
    output[t] = s[t * 8];        // expect: stride-conflict factor=8
    output[t] = s[t * 32];       // expect: stride-conflict factor=32
    output[t] = s[t * 33];       // expect: ok
    output[t] * s[0];            // expect: ok
}
// The stride rows of the bank model in HLSL.
groupshared float s[32 * 64];   // expect: layout-conflict
RWStructuredBuffer<float> output : register(u0);

[numthreads(32, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID) {
    uint t = gtid.x;
    output[t] = s[t];            // expect: ok
    output[t] = s[t * 2];        // expect: stride-conflict factor=2
    output[t] = s[t * 8];        // expect: stride-conflict factor=8
    output[t] = s[t * 32];       // expect: stride-conflict factor=32
    output[t] = s[t * 33];       // expect: ok
    output[t] * s[0];            // expect: ok
}
// The stride rows of the bank model in HLSL.
groupshared float s[32 * 64];   // expect: layout-conflict
RWStructuredBuffer<float> output : register(u0);

[numthreads(32, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID) {
    uint t = gtid.x;
    output[t] = s[t];            // expect: ok
    output[t] = s[t * 2];        // expect: stride-conflict factor=2
    output[t] = s[t * 8];        // expect: stride-conflict factor=8
    output[t] = s[t * 32];       // expect: stride-conflict factor=32
    output[t] = s[t * 33];       // expect: ok
    output[t] * s[0];            // expect: ok
}
// The stride rows of the bank model in HLSL.
groupshared float s[32 * 64];   // expect: layout-conflict
RWStructuredBuffer<float> output : register(u0);

[numthreads(32, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID) {
    uint t = gtid.x;
    output[t] = s[t];            // expect: ok
    output[t] = s[t * 2];        // expect: stride-conflict factor=2
    output[t] = s[t * 8];        // expect: stride-conflict factor=8
    output[t] = s[t * 32];       // expect: stride-conflict factor=32
    output[t] = s[t * 33];       // expect: ok
    output[t] * s[0];            // expect: ok
}
// The stride rows of the bank model in HLSL.
groupshared float s[32 * 64];   // expect: layout-conflict
RWStructuredBuffer<float> output : register(u0);

[numthreads(32, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID) {
    uint t = gtid.x;
    output[t] = s[t];            // expect: ok
    output[t] = s[t * 2];        // expect: stride-conflict factor=2
    output[t] = s[t * 8];        // expect: stride-conflict factor=8
    output[t] = s[t * 32];       // expect: stride-conflict factor=32
    output[t] = s[t * 33];       // expect: ok
    output[t] * s[0];            // expect: ok
}
// The stride rows of the bank model in HLSL.
groupshared float s[32 * 64];   // expect: layout-conflict
RWStructuredBuffer<float> output : register(u0);

[numthreads(32, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID) {
    uint t = gtid.x;
    output[t] = s[t];            // expect: ok
    output[t] = s[t * 2];        // expect: stride-conflict factor=2
    output[t] = s[t * 8];        // expect: stride-conflict factor=8
    output[t] = s[t * 32];       // expect: stride-conflict factor=32
    output[t] = s[t * 33];       // expect: ok
    output[t] * s[0];            // expect: ok
}
// The stride rows of the bank model in HLSL.
groupshared float s[32 * 64];   // expect: layout-conflict
RWStructuredBuffer<float> output : register(u0);

[numthreads(32, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID) {
    uint t = gtid.x;
    output[t] = s[t];            // expect: ok
    output[t] = s[t * 2];        // expect: stride-conflict factor=2
    output[t] = s[t * 8];        // expect: stride-conflict factor=8
    output[t] = s[t * 32];       // expect: stride-conflict factor=32
    output[t] = s[t * 33];       // expect: ok
    output[t] * s[0];            // expect: ok
}
// The stride rows of the bank model in HLSL.
groupshared float s[32 * 64];   // expect: layout-conflict
RWStructuredBuffer<float> output : register(u0);

[numthreads(32, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID) {
    uint t = gtid.x;
    output[t] = s[t];            // expect: ok
    output[t] = s[t * 2];        // expect: stride-conflict factor=2
    output[t] = s[t * 8];        // expect: stride-conflict factor=8
    output[t] = s[t * 32];       // expect: stride-conflict factor=32
    output[t] = s[t * 33];       // expect: ok
    output[t] * s[0];            // expect: ok
}
// The stride rows of the bank model in HLSL.
groupshared float s[32 * 64];   // expect: layout-conflict
RWStructuredBuffer<float> output : register(u0);

[numthreads(32, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID) {
    uint t = gtid.x;
    output[t] = s[t];            // expect: ok
    output[t] = s[t * 2];        // expect: stride-conflict factor=2
    output[t] = s[t * 8];        // expect: stride-conflict factor=8
    output[t] = s[t * 32];       // expect: stride-conflict factor=32
    output[t] = s[t * 33];       // expect: ok
    output[t] * s[0];            // expect: ok
}
// The stride rows of the bank model in HLSL.
groupshared float s[32 * 64];   // expect: layout-conflict
RWStructuredBuffer<float> output : register(u0);

[numthreads(32, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID) {
    uint t = gtid.x;
    output[t] = s[t];            // expect: ok
    output[t] = s[t * 2];        // expect: stride-conflict factor=2
    output[t] = s[t * 8];        // expect: stride-conflict factor=8
    output[t] = s[t * 32];       // expect: stride-conflict factor=32
    output[t] = s[t * 33];       // expect: ok
    output[t] * s[0];            // expect: ok
}
// The stride rows of the bank model in HLSL.
groupshared float s[32 * 64];   // expect: layout-conflict
RWStructuredBuffer<float> output : register(u0);

[numthreads(32, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID) {
    uint t = gtid.x;
    output[t] = s[t];            // expect: ok
    output[t] = s[t * 2];        // expect: stride-conflict factor=2
    output[t] = s[t * 8];        // expect: stride-conflict factor=8
    output[t] = s[t * 32];       // expect: stride-conflict factor=32
    output[t] = s[t * 33];       // expect: ok
    output[t] * s[0];            // expect: ok
}
// The stride rows of the bank model in HLSL.
groupshared float s[32 * 64];   // expect: layout-conflict
RWStructuredBuffer<float> output : register(u0);

[numthreads(32, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID) {
    uint t = gtid.x;
    output[t] = s[t];            // expect: ok
    output[t] = s[t * 2];        // expect: stride-conflict factor=2
    output[t] = s[t * 8];        // expect: stride-conflict factor=8
    output[t] = s[t * 32];       // expect: stride-conflict factor=32
    output[t] = s[t * 33];       // expect: ok
    output[t] * s[0];            // expect: ok
}
// The stride rows of the bank model in HLSL.
groupshared float s[32 * 64];   // expect: layout-conflict
RWStructuredBuffer<float> output : register(u0);

[numthreads(32, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID) {
    uint t = gtid.x;
    output[t] = s[t];            // expect: ok
    output[t] = s[t * 2];        // expect: stride-conflict factor=2
    output[t] = s[t * 8];        // expect: stride-conflict factor=8
    output[t] = s[t * 32];       // expect: stride-conflict factor=32
    output[t] = s[t * 33];       // expect: ok
    output[t] * s[0];            // expect: ok
}
// The stride rows of the bank model in HLSL.
groupshared float s[32 * 64];   // expect: layout-conflict
RWStructuredBuffer<float> output : register(u0);

[numthreads(32, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID) {
    uint t = gtid.x;
    output[t] = s[t];            // expect: ok
    output[t] = s[t * 2];        // expect: stride-conflict factor=2
    output[t] = s[t * 8];        // expect: stride-conflict factor=8
    output[t] = s[t * 32];       // expect: stride-conflict factor=32
    output[t] = s[t * 33];       // expect: ok
    output[t] * s[0];            // expect: ok
}
// The stride rows of the bank model in HLSL.
groupshared float s[32 * 64];   // expect: layout-conflict
RWStructuredBuffer<float> output : register(u0);

[numthreads(32, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID) {
    uint t = gtid.x;
    output[t] = s[t];            // expect: ok
    output[t] = s[t * 2];        // expect: stride-conflict factor=2
    output[t] = s[t * 8];        // expect: stride-conflict factor=8
    output[t] = s[t * 32];       // expect: stride-conflict factor=32
    output[t] = s[t * 33];       // expect: ok
    output[t] * s[0];            // expect: ok
}
// The stride rows of the bank model in HLSL.
groupshared float s[32 * 64];   // expect: layout-conflict
RWStructuredBuffer<float> output : register(u0);

[numthreads(32, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID) {
    uint t = gtid.x;
    output[t] = s[t];            // expect: ok
    output[t] = s[t * 2];        // expect: stride-conflict factor=2
    output[t] = s[t * 8];        // expect: stride-conflict factor=8
    output[t] = s[t * 32];       // expect: stride-conflict factor=32
    output[t] = s[t * 33];       // expect: ok
    output[t] * s[0];            // expect: ok
}
// The stride rows of the bank model in HLSL.
groupshared float s[32 * 64];   // expect: layout-conflict
RWStructuredBuffer<float> output : register(u0);

[numthreads(32, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID) {
    uint t = gtid.x;
    output[t] = s[t];            // expect: ok
    output[t] = s[t * 2];        // expect: stride-conflict factor=2
    output[t] = s[t * 8];        // expect: stride-conflict factor=8
    output[t] = s[t * 32];       // expect: stride-conflict factor=32
    output[t] = s[t * 33];       // expect: ok
    output[t] * s[0];            // expect: ok
}
// The stride rows of the bank model in HLSL.
groupshared float s[32 * 64];   // expect: layout-conflict
RWStructuredBuffer<float> output : register(u0);

[numthreads(32, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID) {
    uint t = gtid.x;
    output[t] = s[t];            // expect: ok
    output[t] = s[t * 2];        // expect: stride-conflict factor=2
    output[t] = s[t * 8];        // expect: stride-conflict factor=8
    output[t] = s[t * 32];       // expect: stride-conflict factor=32
    output[t] = s[t * 33];       // expect: ok
    output[t] * s[0];            // expect: ok
}
// The stride rows of the bank model in HLSL.
groupshared float s[32 * 64];   // expect: layout-conflict
RWStructuredBuffer<float> output : register(u0);

[numthreads(32, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID) {
    uint t = gtid.x;
    output[t] = s[t];            // expect: ok
    output[t] = s[t * 2];        // expect: stride-conflict factor=2
    output[t] = s[t * 8];        // expect: stride-conflict factor=8
    output[t] = s[t * 32];       // expect: stride-conflict factor=32
    output[t] = s[t * 33];       // expect: ok
    output[t] * s[0];            // expect: ok
}
// The stride rows of the bank model in HLSL.
groupshared float s[32 * 64];   // expect: layout-conflict
RWStructuredBuffer<float> output : register(u0);

[numthreads(32, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID) {
    uint t = gtid.x;
    output[t] = s[t];            // expect: ok
    output[t] = s[t * 2];        // expect: stride-conflict factor=2
    output[t] = s[t * 8];        // expect: stride-conflict factor=8
    output[t] = s[t * 32];       // expect: stride-conflict factor=32
    output[t] = s[t * 33];       // expect: ok
    output[t] * s[0];            // expect: ok
}
// The stride rows of the bank model in HLSL.
groupshared float s[32 * 64];   // expect: layout-conflict
RWStructuredBuffer<float> output : register(u0);

[numthreads(32, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID) {
    uint t = gtid.x;
    output[t] = s[t];            // expect: ok
    output[t] = s[t * 2];        // expect: stride-conflict factor=2
    output[t] = s[t * 8];        // expect: stride-conflict factor=8
    output[t] = s[t * 32];       // expect: stride-conflict factor=32
    output[t] = s[t * 33];       // expect: ok
    output[t] * s[0];            // expect: ok
}
// The stride rows of the bank model in HLSL.
groupshared float s[32 * 64];   // expect: layout-conflict
RWStructuredBuffer<float> output : register(u0);

[numthreads(32, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID) {
    uint t = gtid.x;
    output[t] = s[t];            // expect: ok
    output[t] = s[t * 2];        // expect: stride-conflict factor=2
    output[t] = s[t * 8];        // expect: stride-conflict factor=8
    output[t] = s[t * 32];       // expect: stride-conflict factor=32
    output[t] = s[t * 33];       // expect: ok
    output[t] * s[0];            // expect: ok
}
// The stride rows of the bank model in HLSL.
groupshared float s[32 * 64];   // expect: layout-conflict
RWStructuredBuffer<float> output : register(u0);

[numthreads(32, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID) {
    uint t = gtid.x;
    output[t] = s[t];            // expect: ok
    output[t] = s[t * 2];        // expect: stride-conflict factor=2
    output[t] = s[t * 8];        // expect: stride-conflict factor=8
    output[t] = s[t * 32];       // expect: stride-conflict factor=32
    output[t] = s[t * 33];       // expect: ok
    output[t] * s[0];            // expect: ok
}
// The stride rows of the bank model in HLSL.
groupshared float s[32 * 64];   // expect: layout-conflict
RWStructuredBuffer<float> output : register(u0);

[numthreads(32, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID) {
    uint t = gtid.x;
    output[t] = s[t];            // expect: ok
    output[t] = s[t * 2];        // expect: stride-conflict factor=2
    output[t] = s[t * 8];        // expect: stride-conflict factor=8
    output[t] = s[t * 32];       // expect: stride-conflict factor=32
    output[t] = s[t * 33];       // expect: ok
    output[t] * s[0];            // expect: ok
}
// The stride rows of the bank model in HLSL.
groupshared float s[32 * 64];   // expect: layout-conflict
RWStructuredBuffer<float> output : register(u0);

[numthreads(32, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID) {
    uint t = gtid.x;
    output[t] = s[t];            // expect: ok
    output[t] = s[t * 2];        // expect: stride-conflict factor=2
    output[t] = s[t * 8];        // expect: stride-conflict factor=8
    output[t] = s[t * 32];       // expect: stride-conflict factor=32
    output[t] = s[t * 33];       // expect: ok
    output[t] * s[0];            // expect: ok
}
// The stride rows of the bank model in HLSL.
groupshared float s[32 * 64];   // expect: layout-conflict
RWStructuredBuffer<float> output : register(u0);

[numthreads(32, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID) {
    uint t = gtid.x;
    output[t] = s[t];            // expect: ok
    output[t] = s[t * 2];        // expect: stride-conflict factor=2
    output[t] = s[t * 8];        // expect: stride-conflict factor=8
    output[t] = s[t * 32];       // expect: stride-conflict factor=32
    output[t] = s[t * 33];       // expect: ok
    output[t] * s[0];            // expect: ok
}
// The stride rows of the bank model in HLSL.
groupshared float s[32 * 64];   // expect: layout-conflict
RWStructuredBuffer<float> output : register(u0);

[numthreads(32, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID) {
    uint t = gtid.x;
    output[t] = s[t];            // expect: ok
    output[t] = s[t * 2];        // expect: stride-conflict factor=2
    output[t] = s[t * 8];        // expect: stride-conflict factor=8
    output[t] = s[t * 32];       // expect: stride-conflict factor=32
    output[t] = s[t * 33];       // expect: ok
    output[t] * s[0];            // expect: ok
}
// The stride rows of the bank model in HLSL.
groupshared float s[32 * 64];   // expect: layout-conflict
RWStructuredBuffer<float> output : register(u0);

[numthreads(32, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID) {
    uint t = gtid.x;
    output[t] = s[t];            // expect: ok
    output[t] = s[t * 2];        // expect: stride-conflict factor=2
    output[t] = s[t * 8];        // expect: stride-conflict factor=8
    output[t] = s[t * 32];       // expect: stride-conflict factor=32
    output[t] = s[t * 33];       // expect: ok
    output[t] * s[0];            // expect: ok
}
// The stride rows of the bank model in HLSL.
groupshared float s[32 * 64];   // expect: layout-conflict
RWStructuredBuffer<float> output : register(u0);

[numthreads(32, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID) {
    uint t = gtid.x;
    output[t] = s[t];            // expect: ok
    output[t] = s[t * 2];        // expect: stride-conflict factor=2
    output[t] = s[t * 8];        // expect: stride-conflict factor=8
    output[t] = s[t * 32];       // expect: stride-conflict factor=32
    output[t] = s[t * 33];       // expect: ok
    output[t] * s[0];            // expect: ok
}
// The stride rows of the bank model in HLSL.
groupshared float s[32 * 64];   // expect: layout-conflict
RWStructuredBuffer<float> output : register(u0);

[numthreads(32, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID) {
    uint t = gtid.x;
    output[t] = s[t];            // expect: ok
    output[t] = s[t * 2];        // expect: stride-conflict factor=2
    output[t] = s[t * 8];        // expect: stride-conflict factor=8
    output[t] = s[t * 32];       // expect: stride-conflict factor=32
    output[t] = s[t * 33];       // expect: ok
    output[t] * s[0];            // expect: ok
}
// The stride rows of the bank model in HLSL.
groupshared float s[32 * 64];   // expect: layout-conflict
RWStructuredBuffer<float> output : register(u0);

[numthreads(32, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID) {
    uint t = gtid.x;
    output[t] = s[t];            // expect: ok
    output[t] = s[t * 2];        // expect: stride-conflict factor=2
    output[t] = s[t * 8];        // expect: stride-conflict factor=8
    output[t] = s[t * 32];       // expect: stride-conflict factor=32
    output[t] = s[t * 33];       // expect: ok
    output[t] * s[0];            // expect: ok
}
// The stride rows of the bank model in HLSL.
groupshared float s[32 * 64];   // expect: layout-conflict
RWStructuredBuffer<float> output : register(u0);

[numthreads(32, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID) {
    uint t = gtid.x;
    output[t] = s[t];            // expect: ok
    output[t] = s[t * 2];        // expect: stride-conflict factor=2
    output[t] = s[t * 8];        // expect: stride-conflict factor=8
    output[t] = s[t * 32];       // expect: stride-conflict factor=32
    output[t] = s[t * 33];       // expect: ok
    output[t] * s[0];            // expect: ok
}
// The stride rows of the bank model in HLSL.
groupshared float s[32 * 64];   // expect: layout-conflict
RWStructuredBuffer<float> output : register(u0);

[numthreads(32, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID) {
    uint t = gtid.x;
    output[t] = s[t];            // expect: ok
    output[t] = s[t * 2];        // expect: stride-conflict factor=2
    output[t] = s[t * 8];        // expect: stride-conflict factor=8
    output[t] = s[t * 32];       // expect: stride-conflict factor=32
    output[t] = s[t * 33];       // expect: ok
    output[t] * s[0];            // expect: ok
}
// The stride rows of the bank model in HLSL.
groupshared float s[32 * 64];   // expect: layout-conflict
RWStructuredBuffer<float> output : register(u0);

[numthreads(32, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID) {
    uint t = gtid.x;
    output[t] = s[t];            // expect: ok
    output[t] = s[t * 2];        // expect: stride-conflict factor=2
    output[t] = s[t * 8];        // expect: stride-conflict factor=8
    output[t] = s[t * 32];       // expect: stride-conflict factor=32
    output[t] = s[t * 33];       // expect: ok
    output[t] * s[0];            // expect: ok
}
// The stride rows of the bank model in HLSL.
groupshared float s[32 * 64];   // expect: layout-conflict
RWStructuredBuffer<float> output : register(u0);

[numthreads(32, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID) {
    uint t = gtid.x;
    output[t] = s[t];            // expect: ok
    output[t] = s[t * 2];        // expect: stride-conflict factor=2
    output[t] = s[t * 8];        // expect: stride-conflict factor=8
    output[t] = s[t * 32];       // expect: stride-conflict factor=32
    output[t] = s[t * 33];       // expect: ok
    output[t] * s[0];            // expect: ok
}
// The stride rows of the bank model in HLSL.
groupshared float s[32 * 64];   // expect: layout-conflict
RWStructuredBuffer<float> output : register(u0);

[numthreads(32, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID) {
    uint t = gtid.x;
    output[t] = s[t];            // expect: ok
    output[t] = s[t * 2];        // expect: stride-conflict factor=2
    output[t] = s[t * 8];        // expect: stride-conflict factor=8
    output[t] = s[t * 32];       // expect: stride-conflict factor=32
    output[t] = s[t * 33];       // expect: ok
    output[t] * s[0];            // expect: ok
}
// The stride rows of the bank model in HLSL.
groupshared float s[32 * 64];   // expect: layout-conflict
RWStructuredBuffer<float> output : register(u0);

[numthreads(32, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID) {
    uint t = gtid.x;
    output[t] = s[t];            // expect: ok
    output[t] = s[t * 2];        // expect: stride-conflict factor=2
    output[t] = s[t * 8];        // expect: stride-conflict factor=8
    output[t] = s[t * 32];       // expect: stride-conflict factor=32
    output[t] = s[t * 33];       // expect: ok
    output[t] * s[0];            // expect: ok
}
// The stride rows of the bank model in HLSL.
groupshared float s[32 * 64];   // expect: layout-conflict
RWStructuredBuffer<float> output : register(u0);

[numthreads(32, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID) {
    uint t = gtid.x;
    output[t] = s[t];            // expect: ok
    output[t] = s[t * 2];        // expect: stride-conflict factor=2
    output[t] = s[t * 8];        // expect: stride-conflict factor=8
    output[t] = s[t * 32];       // expect: stride-conflict factor=32
    output[t] = s[t * 33];       // expect: ok
    output[t] * s[0];            // expect: ok
}
// The stride rows of the bank model in HLSL.
groupshared float s[32 * 64];   // expect: layout-conflict
RWStructuredBuffer<float> output : register(u0);

[numthreads(32, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID) {
    uint t = gtid.x;
    output[t] = s[t];            // expect: ok
    output[t] = s[t * 2];        // expect: stride-conflict factor=2
    output[t] = s[t * 8];        // expect: stride-conflict factor=8
    output[t] = s[t * 32];       // expect: stride-conflict factor=32
    output[t] = s[t * 33];       // expect: ok
    output[t] * s[0];            // expect: ok
}
// The stride rows of the bank model in HLSL.
groupshared float s[32 * 64];   // expect: layout-conflict
RWStructuredBuffer<float> output : register(u0);

[numthreads(32, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID) {
    uint t = gtid.x;
    output[t] = s[t];            // expect: ok
    output[t] = s[t * 2];        // expect: stride-conflict factor=2
    output[t] = s[t * 8];        // expect: stride-conflict factor=8
    output[t] = s[t * 32];       // expect: stride-conflict factor=32
    output[t] = s[t * 33];       // expect: ok
    output[t] * s[0];            // expect: ok
}
// The stride rows of the bank model in HLSL.
groupshared float s[32 * 64];   // expect: layout-conflict
RWStructuredBuffer<float> output : register(u0);

[numthreads(32, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID) {
    uint t = gtid.x;
    output[t] = s[t];            // expect: ok
    output[t] = s[t * 2];        // expect: stride-conflict factor=2
    output[t] = s[t * 8];        // expect: stride-conflict factor=8
    output[t] = s[t * 32];       // expect: stride-conflict factor=32
    output[t] = s[t * 33];       // expect: ok
    output[t] * s[0];            // expect: ok
}
// The stride rows of the bank model in HLSL.
groupshared float s[32 * 64];   // expect: layout-conflict
RWStructuredBuffer<float> output : register(u0);

[numthreads(32, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID) {
    uint t = gtid.x;
    output[t] = s[t];            // expect: ok
    output[t] = s[t * 2];        // expect: stride-conflict factor=2
    output[t] = s[t * 8];        // expect: stride-conflict factor=8
    output[t] = s[t * 32];       // expect: stride-conflict factor=32
    output[t] = s[t * 33];       // expect: ok
    output[t] * s[0];            // expect: ok
}
// The stride rows of the bank model in HLSL.
groupshared float s[32 * 64];   // expect: layout-conflict
RWStructuredBuffer<float> output : register(u0);

[numthreads(32, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID) {
    uint t = gtid.x;
    output[t] = s[t];            // expect: ok
    output[t] = s[t * 2];        // expect: stride-conflict factor=2
    output[t] = s[t * 8];        // expect: stride-conflict factor=8
    output[t] = s[t * 32];       // expect: stride-conflict factor=32
    output[t] = s[t * 33];       // expect: ok
    output[t] * s[0];            // expect: ok
}
// The stride rows of the bank model in HLSL.
groupshared float s[32 * 64];   // expect: layout-conflict
RWStructuredBuffer<float> output : register(u0);

[numthreads(32, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID) {
    uint t = gtid.x;
    output[t] = s[t];            // expect: ok
    output[t] = s[t * 2];        // expect: stride-conflict factor=2
    output[t] = s[t * 8];        // expect: stride-conflict factor=8
    output[t] = s[t * 32];       // expect: stride-conflict factor=32
    output[t] = s[t * 33];       // expect: ok
    output[t] * s[0];            // expect: ok
}
// The stride rows of the bank model in HLSL.
groupshared float s[32 * 64];   // expect: layout-conflict
RWStructuredBuffer<float> output : register(u0);

[numthreads(32, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID) {
    uint t = gtid.x;
    output[t] = s[t];            // expect: ok
    output[t] = s[t * 2];        // expect: stride-conflict factor=2
    output[t] = s[t * 8];        // expect: stride-conflict factor=8
    output[t] = s[t * 32];       // expect: stride-conflict factor=32
    output[t] = s[t * 33];       // expect: ok
    output[t] * s[0];            // expect: ok
}
// The stride rows of the bank model in HLSL.
groupshared float s[32 * 64];   // expect: layout-conflict
RWStructuredBuffer<float> output : register(u0);

[numthreads(32, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID) {
    uint t = gtid.x;
    output[t] = s[t];            // expect: ok
    output[t] = s[t * 2];        // expect: stride-conflict factor=2
    output[t] = s[t * 8];        // expect: stride-conflict factor=8
    output[t] = s[t * 32];       // expect: stride-conflict factor=32
    output[t] = s[t * 33];       // expect: ok
    output[t] * s[0];            // expect: ok
}
// The stride rows of the bank model in HLSL.
groupshared float s[32 * 64];   // expect: layout-conflict
RWStructuredBuffer<float> output : register(u0);

[numthreads(32, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID) {
    uint t = gtid.x;
    output[t] = s[t];            // expect: ok
    output[t] = s[t * 2];        // expect: stride-conflict factor=2
    output[t] = s[t * 8];        // expect: stride-conflict factor=8
    output[t] = s[t * 32];       // expect: stride-conflict factor=32
    output[t] = s[t * 33];       // expect: ok
    output[t] * s[0];            // expect: ok
}
// The stride rows of the bank model in HLSL.
groupshared float s[32 * 64];   // expect: layout-conflict
RWStructuredBuffer<float> output : register(u0);

[numthreads(32, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID) {
    uint t = gtid.x;
    output[t] = s[t];            // expect: ok
    output[t] = s[t * 2];        // expect: stride-conflict factor=2
    output[t] = s[t * 8];        // expect: stride-conflict factor=8
    output[t] = s[t * 32];       // expect: stride-conflict factor=32
    output[t] = s[t * 33];       // expect: ok
    output[t] * s[0];            // expect: ok
}
// The stride rows of the bank model in HLSL.
groupshared float s[32 * 64];   // expect: layout-conflict
RWStructuredBuffer<float> output : register(u0);

[numthreads(32, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID) {
    uint t = gtid.x;
    output[t] = s[t];            // expect: ok
    output[t] = s[t * 2];        // expect: stride-conflict factor=2
    outputt] = s[t * 8];        // expect: stride-conflict factor=8
    output[t] = s[t * 32];       // expect: stride-conflict factor=32
    output[t] = s[t * 33];       // expect: ok
    output[t] * s[0];            // expect: ok
}
// The stride rows of the bank model in HLSL.
groupshared float s[32 * 64];   // expect: layout-conflict
RWStructuredBuffer<float> output : register(u0);

[numthreads(32, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID) {
    uint t = gtid.x;
    output[t] = s[t];            // expect: ok
    output[t] = s[t * 2];        // expect: stride-conflict factor=2
    output[t] = s[t * 8];        // expect: stride-conflict factor=8
    output[t] = s[t * 32];       // expect: stride-conflict factor=32
    output[t] = s[t * 33];       // expect: ok
    output[t] * s[0];            // expect: ok
}
// The stride rows of the bank model in HLSL.
groupshared float s[32 * 64];   // expect: layout-conflict
RWStructuredBuffer<float> output : register(u0);

[numthreads(32, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID) {
    uint t = gtid.x;
    output[t] = s[t];            // expect: ok
    output[t] = s[t * 2];        // expect: stride-conflict factor=2
    output[t] = s[t * 8];        // expect: stride-conflict factor=8
    output[t] = s[t * 32];       // expect: stride-conflict factor=32
    output[t] = s[t * 33];       // expect: ok
    output[t] * s[0];            // expect: ok
}
// The stride rows of the bank model in HLSL.
groupshared float s[32 * 64];   // expect: layout-conflict
RWStructuredBuffer<float> output : register(u0);

[numthreads(32, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID) {
    uint t = gtid.x;
    output[t] = s[t];            // expect: ok
    output[t] = s[t * 2];        // expect: stride-conflict factor=2
    output[t] = s[t * 8];        // expect: stride-conflict factor=8
    output[t] = s[t * 32];       // expect: stride-conflict factor=32
    output[t] = s[t * 33];       // expect: ok
    output[t] * s[0];            // expect: ok
}
// The stride rows of the bank model in HLSL.
groupshared float s[32 * 64];   // expect: layout-conflict
RWStructuredBuffer<float> output : register(u0);

[numthreads(32, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID) {
    uint t = gtid.x;
    output[t] = s[t];            // expect: ok
    output[t] = s[t * 2];        // expect: stride-conflict factor=2
    output[t] = s[t * 8];        // expect: stride-conflict factor=8
    output[t] = s[t * 32];       // expect: stride-conflict factor=32
    output[t] = s[t * 33];       // expect: ok
    output[t] * s[0];            // expect: ok
}
// The stride rows of the bank model in HLSL.
groupshared float s[32 * 64];   // expect: layout-conflict
RWStructuredBuffer<float> output : register(u0);

[numthreads(32, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID) {
    uint t = gtid.x;
    output[t] = s[t];            // expect: ok
    output[t] = s[t * 2];        // expect: stride-conflict factor=2
    output[t] = s[t * 8];        // expect: stride-conflict factor=8
    output[t] = s[t * 32];       // expect: stride-conflict factor=32
    output[t] = s[t * 33];       // expect: ok
    output[t] * s[0];            // expect: ok
}
// The stride rows of the bank model in HLSL.
groupshared float s[32 * 64];   // expect: layout-conflict
RWStructuredBuffer<float> output : register(u0);

[numthreads(32, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID) {
    uint t = gtid.x;
    output[t] = s[t];            // expect: ok
    output[t] = s[t * 2];        // expect: stride-conflict factor=2
    output[t] = s[t * 8];        // expect: stride-conflict factor=8
    output[t] = s[t * 32];       // expect: stride-conflict factor=32
    output[t] = s[t * 33];       // expect: ok
    output[t] * s[0];            // expect: ok
}
// The stride rows of the bank model in HLSL.
groupshared float s[32 * 64];   // expect: layout-conflict
RWStructuredBuffer<float> output : register(u0);

[numthreads(32, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID) {
    uint t = gtid.x;
    output[t] = s[t];            // expect: ok
    output[t] = s[t * 2];        // expect: stride-conflict factor=2
    output[t] = s[t * 8];        // expect: stride-conflict factor=8
    output[t] = s[t * 32];       // expect: stride-conflict factor=32
    output[t] = s[t * 33];       // expect: ok
    output[t] * s[0];            // expect: ok
}
// The stride rows of the bank model in HLSL.
groupshared float s[32 * 64];   // expect: layout-conflict
RWStructuredBuffer<float> output : register(u0);

[numthreads(32, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID) {
    uint t = gtid.x;
    output[t] = s[t];            // expect: ok
    output[t] = s[t * 2];        // expect: stride-conflict factor=2
    output[t] = s[t * 8];        // expect: stride-conflict factor=8
    output[t] = s[t * 32];       // expect: stride-conflict factor=32
    output[t] = s[t * 33];       // expect: ok
    output[t] * s[0];            // expect: ok
}
// The stride rows of the bank model in HLSL.
groupshared float s[32 * 64];   // expect: layout-conflict
RWStructuredBuffer<float> output : register(u0);

[numthreads(32, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID) {
    uint t = gtid.x;
    output[t] = s[t];            // expect: ok
    output[t] = s[t * 2];        // expect: stride-conflict factor=2
    output[t] = s[t * 8];        // expect: stride-conflict factor=8
    output[t] = s[t * 32];       // expect: stride-conflict factor=32
    output[t] = s[t * 33];       // expect: ok
    output[t] * s[0];            // expect: ok
}
// The stride rows of the bank model in HLSL.
groupshared float s[32 * 64];   // expect: layout-conflict
RWStructuredBuffer<float> output : register(u0);

[numthreads(32, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID) {
    uint t = gtid.x;
    output[t] = s[t];            // expect: ok
    output[t] = s[t * 2];        // expect: stride-conflict factor=2
    output[t] = s[t * 8];        // expect: stride-conflict factor=8
    output[t] = s[t * 32];       // expect: stride-conflict factor=32
    output[t] = s[t * 33];       // expect: ok
    output[t] * s[0];            // expect: ok
}
// The stride rows of the bank model in HLSL.
groupshared float s[32 * 64];   // expect: layout-conflict
RWStructuredBuffer<float> output : register(u0);

[numthreads(32, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID) {
    uint t = gtid.x;
    output[t] = s[t];            // expect: ok
    output[t] = s[t * 2];        // expect: stride-conflict factor=2
    output[t] = s[t * 8];        // expect: stride-conflict factor=8
    output[t] = s[t * 32];       // expect: stride-conflict factor=32
    output[t] = s[t * 33];       // expect: ok
    output[t] * s[0];            // expect: ok
}
// The stride rows of the bank model in HLSL.
groupshared float s[32 * 64];   // expect: layout-conflict
RWStructuredBuffer<float> output : register(u0);

[numthreads(32, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID) {
    uint t = gtid.x;
    output[t] = s[t];            // expect: ok
    output[t] = s[t * 2];        // expect: stride-conflict factor=2
    output[t] = s[t * 8];        // expect: stride-conflict factor=8
    output[t] = s[t * 32];       // expect: stride-conflict factor=32
    output[t] = s[t * 33];       // expect: ok
    output[t] * s[0];            // expect: ok
}
// The stride rows of the bank model in HLSL.
groupshared float s[32 * 64];   // expect: layout-conflict
RWStructuredBuffer<float> output : register(u0);

[numthreads(32, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID) {
    uint t = gtid.x;
    output[t] = s[t];            // expect: ok
    output[t] = s[t * 2];        // expect: stride-conflict factor=2
    output[t] = s[t * 8];        // expect: stride-conflict factor=8
    output[t] = s[t * 32];       // expect: stride-conflict factor=32
    output[t] = s[t * 33];       // expect: ok
    output[t] * s[0];            // expect: ok
}
// The stride rows of the bank model in HLSL.
groupshared float s[32 * 64];   // expect: layout-conflict
RWStructuredBuffer<float> output : register(u0);

[numthreads(32, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID) {
    uint t = gtid.x;
    output[t] = s[t];            // expect: ok
    output[t] = s[t * 2];        // expect: stride-conflict factor=2
    output[t] = s[t * 8];        // expect: stride-conflict factor=8
    output[t] = s[t * 32];       // expect: stride-conflict factor=32
    output[t] = s[t * 33];       // expect: ok
    output[t] * s[0];            // expect: ok
}
// The stride rows of the bank model in HLSL.
groupshared float s[32 * 64];   // expect: layout-conflict
RWStructuredBuffer<float> output : register(u0);

[numthreads(32, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID) {
    uint t = gtid.x;
    output[t] = s[t];            // expect: ok
    output[t] = s[t * 2];        // expect: stride-conflict factor=2
    output[t] = s[t * 8];        // expect: stride-conflict factor=8
    output[t] = s[t * 32];       // expect: stride-conflict factor=32
    output[t] = s[t * 33];       // expect: ok
    output[t] * s[0];            // expect: ok
}
// The stride rows of the bank model in HLSL.
groupshared float s[32 * 64];   // expect: layout-conflict
RWStructuredBuffer<float> output : register(u0);

[numthreads(32, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID) {
    uint t = gtid.x;
    output[t] = s[t];            // expect: ok
    output[t] = s[t * 2];        // expect: stride-conflict factor=2
    output[t] = s[t * 8];        // expect: stride-conflict factor=8
    output[t] = s[t * 32];       // expect: stride-conflict factor=32
    output[t] = s[t * 33];       // expect: ok
    output[t] * s[0];            // expect: ok
}
// The stride rows of the bank model in HLSL.
groupshared float s[32 * 64];   // expect: layout-conflict
RWStructuredBuffer<float> output : register(u0);

[numthreads(32, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID) {
    uint t = gtid.x;
    output[t] = s[t];            // expect: ok
    output[t] = s[t * 2];        // expect: stride-conflict factor=2
    output[t] = s[t * 8];        // expect: stride-conflict factor=8
    output[t] = s[t * 32];       // expect: stride-conflict factor=32
    output[t] = s[t * 33];       // expect: ok
    output[t] * s[0];            // expect: ok
}
// The stride rows of the bank model in HLSL.
groupshared float s[32 * 64];   // expect: layout-conflict
RWStructuredBuffer<float> output : register(u0);

[numthreads(32, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID) {
    uint t = gtid.x;
    output[t] = s[t];            // expect: ok
    output[t] = s[t * 2];        // expect: stride-conflict factor=2
    output[t] = s[t * 8];        // expect: stride-conflict factor=8
    output[t] = s[t * 32];       // expect: stride-conflict factor=32
    output[t] = s[t * 33];       // expect: ok
    output[t] * s[0];            // expect: ok
}
// The stride rows of the bank model in HLSL.
groupshared float s[32 * 64];   // expect: layout-conflict
RWStructuredBuffer<float> output : register(u0);

[numthreads(32, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID) {
    uint t = gtid.x;
    output[t] = s[t];            // expect: ok
    output[t] = s[t * 2];        // expect: stride-conflict factor=2
    output[t] = s[t * 8];        // expect: stride-conflict factor=8
    output[t] = s[t * 32];       // expect: stride-conflict factor=32
    output[t] = s[t * 33];       // expect: ok
    output[t] * s[0];            // expect: ok
}
// The stride rows of the bank model in HLSL.
groupshared float s[32 * 64];   // expect: layout-conflict
RWStructuredBuffer<float> output : register(u0);

[numthreads(32, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID) {
    uint t = gtid.x;
    output[t] = s[t];            // expect: ok
    output[t] = s[t * 2];        // expect: stride-conflict factor=2
    output[t] = s[t * 8];        // expect: stride-conflict factor=8
    output[t] = s[t * 32];       // expect: stride-conflict factor=32
    output[t] = s[t * 33];       // expect: ok
    output[t] * s[0];            // expect: ok
}
// The stride rows of the bank model in HLSL.
groupshared float s[32 * 64];   // expect: layout-conflict
RWStructuredBuffer<float> output : register(u0);

[numthreads(32, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID) {
    uint t = gtid.x;
    output[t] = s[t];            // expect: ok
    output[t] = s[t * 2];        // expect: stride-conflict factor=2
    output[t] = s[t * 8];        // expect: stride-conflict factor=8
    output[t] = s[t * 32];       // expect: stride-conflict factor=32
    output[t] = s[t * 33];       // expect: ok
    output[t] * s[0];            // expect: ok
}
// The stride rows of the bank model in HLSL.
groupshared float s[32 * 64];   // expect: layout-conflict
RWStructuredBuffer<float> output : register(u0);

[numthreads(32, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID) {
    uint t = gtid.x;
    output[t] = s[t];            // expect: ok
    output[t] = s[t * 2];        // expect: stride-conflict factor=2
    output[t] = s[t * 8];        // expect: stride-conflict factor=8
    output[t] = s[t * 32];       // expect: stride-conflict factor=32
    output[t] = s[t * 33];       // expect: ok
    output[t] * s[0];            // expect: ok
}
// The stride rows of the bank model in HLSL.
groupshared float s[32 * 64];   // expect: layout-conflict
RWStructuredBuffer<float> output : register(u0);

[numthreads(32, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID) {
    uint t = gtid.x;
    output[t] = s[t];            // expect: ok
    output[t] = s[t * 2];        // expect: stride-conflict factor=2
    output[t] = s[t * 8];        // expect: stride-conflict factor=8
    output[t] = s[t * 32];       // expect: stride-conflict factor=32
    output[t] = s[t * 33];       // expect: ok
    output[t] * s[0];            // expect: ok
}
// The stride rows of the bank model in HLSL.
groupshared float s[32 * 64];   // expect: layout-conflict
RWStructuredBuffer<float> output : register(u0);

[numthreads(32, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID) {
    uint t = gtid.x;
    output[t] = s[t];            // expect: ok
    output[t] = s[t * 2];        // expect: stride-conflict factor=2
    output[t] = s[t * 8];        // expect: stride-conflict factor=8
    output[t] = s[t * 32];       // expect: stride-conflict factor=32
    output[t] = s[t * 33];       // expect: ok
    output[t] * s[0];            // expect: ok
}
// The stride rows of the bank model in HLSL.
groupshared float s[32 * 64];   // expect: layout-conflict
RWStructuredBuffer<float> output : register(u0);

[numthreads(32, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID) {
    uint t = gtid.x;
    output[t] = s[t];            // expect: ok
    output[t] = s[t * 2];        // expect: stride-conflict factor=2
    output[t] = s[t * 8];        // expect: stride-conflict factor=8
    output[t] = s[t * 32];       // expect: stride-conflict factor=32
    output[t] = s[t * 33];       // expect: ok
    output[t] * s[0];            // expect: ok
}
// The stride rows of the bank model in HLSL.
groupshared float s[32 * 64];   // expect: layout-conflict
RWStructuredBuffer<float> output : register(u0);

[numthreads(32, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID) {
    uint t = gtid.x;
    output[t] = s[t];            // expect: ok
    output[t] = s[t * 2];        // expect: stride-conflict factor=2
    output[t] = s[t * 8];        // expect: stride-conflict factor=8
    output[t] = s[t * 32];       // expect: stride-conflict factor=32
    output[t] = s[t * 33];       // expect: ok
    output[t] * s[0];            // expect: ok
}
// The stride rows of the bank model in HLSL.
groupshared float s[32 * 64];   // expect: layout-conflict
RWStructuredBuffer<float> output : register(u0);

[numthreads(32, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID) {
    uint t = gtid.x;
    output[t] = s[t];            // expect: ok
    output[t] = s[t * 2];        // expect: stride-conflict factor=2
    output[t] = s[t * 8];        // expect: stride-conflict factor=8
    output[t] = s[t * 32];       // expect: stride-conflict factor=32
    output[t] = s[t * 33];       // expect: ok
    output[t] * s[0];            // expect: ok
}
// The stride rows of the bank model in HLSL.
groupshared float s[32 * 64];   // expect: layout-conflict
RWStructuredBuffer<float> output : register(u0);

[numthreads(32, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID) {
    uint t = gtid.x;
    output[t] = s[t];            // expect: ok
    output[t] = s[t * 2];        // expect: stride-conflict factor=2
    output[t] = s[t * 8];        // expect: stride-conflict factor=8
    output[t] = s[t * 32];       // expect: stride-conflict factor=32
    output[t] = s[t * 33];       // expect: ok
    output[t] * s[0];            // expect: ok
}
// The stride rows of the bank model in HLSL.
groupshared float s[32 * 64];   // expect: layout-conflict
RWStructuredBuffer<float> output : register(u0);

[numthreads(32, 1, 1)]
void main(uint3 gtid : SV_GroupThreadID) {
    uint t = gtid.x;
    output[t] = s[t];            // expect: ok
    output[t] = s[t * 2];        // expect: stride-conflict factor=2
    output[t] = s[t * 8];        // expect: stride-conflict factor=8
    output[t] = s[t * 32];       // expect: stride-conflict factor=32
    output[t] = s[t * 33];       // expect: ok
    output[t] * s[0];            // expect: ok
}
