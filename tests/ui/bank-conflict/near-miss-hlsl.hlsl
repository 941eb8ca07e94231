// HLSL: a lane-to-element mapping that looks scrambled but is a permutation of the banks.
RWStructuredBuffer<float> Out;
groupshared float g[8][32];

[numthreads(64, 1, 1)]
void main(uint t : SV_GroupIndex) {
    Out[t] = g[t / 32][(t ^ 5) % 32];
}
