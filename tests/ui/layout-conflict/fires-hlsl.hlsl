// HLSL: a groupshared tile written down a column and read along a row; padding fixes both.
RWStructuredBuffer<float> Data : register(u0);
groupshared float tile[32][32];

[numthreads(32, 1, 1)]
void main(uint t : SV_GroupIndex) {
    tile[t][0] = Data[t];
    GroupMemoryBarrierWithGroupSync();
    Data[t] = tile[0][t];
}
