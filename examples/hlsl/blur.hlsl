// A separable blur through groupshared memory: the row pass is conflict-free, the
// column pass of the unpadded cache serialises 16 ways, the padded cache does not.
#define GROUP 16
cbuffer BlurParams : register(b0) { uint width; uint height; };
Texture2D<float4> input : register(t0);
RWTexture2D<float4> output : register(u0);

groupshared float cache[GROUP][GROUP];
groupshared float cachePadded[GROUP][GROUP + 1];
groupshared float4 colors[GROUP * GROUP];

[numthreads(GROUP, GROUP, 1)]
void CSMain(uint3 gtid : SV_GroupThreadID, uint3 dtid : SV_DispatchThreadID, uint gi : SV_GroupIndex) {
    float v = input[dtid.xy].r;
    cache[gtid.y][gtid.x] = v;
    cachePadded[gtid.y][gtid.x] = v;
    colors[gi] = input[dtid.xy];
    GroupMemoryBarrierWithGroupSync();
    float sum = 0;
    [unroll]
    for (uint i = 0; i < GROUP; ++i) {
        sum += cache[i][gtid.x];
        sum += cache[gtid.x][i];
        sum += cachePadded[gtid.x][i];
    }
    output[dtid.xy] = float4(sum, sum, sum, 1) + colors[gi];
}
