// HLSL: registers, a root signature, a constant buffer and semantics all parse.
cbuffer Params : register(b0) { uint Offset; };
RWStructuredBuffer<float> Data : register(u0);
groupshared float cache[64];

[RootSignature("UAV(u0), CBV(b0)")]
[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint t : SV_GroupIndex) {
    cache[t] = Data[id.x + Offset];
    GroupMemoryBarrierWithGroupSync();
    Data[id.x] = cache[63 - t];
}
