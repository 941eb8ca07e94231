// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
// A root signature attribute stacked over [numthreads] and a cbuffer with a register.
cbuffer Constants : register(b0)  uint count; };
groupshared float cache[256];
RWStructuredBuffer<float> output : register(u0);

[RootSignature("RootFlags(0), CBV(b0), UAV(u0)")]
[numthreads(256, 1024, 1)]
void main(uint gi : SV_GroupIndex) {
    cache[gi] = 0;               // expect: ok
    output[gi] = cache[gi * 4];  // expect: stride-conflict factor=4
}
