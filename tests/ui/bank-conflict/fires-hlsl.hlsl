// HLSL: 32 lanes read 4 columns (every 8th float) of 8 rows: 8 lanes share each bank, 8-way.
RWStructuredBuffer<float> Out;
groupshared float g[8][32];

[numthreads(64, 1, 1)]
void main(uint t : SV_GroupIndex) {
    Out[t] = g[t / 4 % 8][(t % 4) * 8];
}
