// HLSL: each lane reads every second float: a stride of 2 words, 2-way.
RWStructuredBuffer<float> Out;
groupshared float g[128];

[numthreads(32, 1, 1)]
void main(uint t : SV_GroupThreadID) {
    Out[t] = g[t * 2];
}
