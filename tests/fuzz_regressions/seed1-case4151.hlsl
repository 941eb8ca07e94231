// A shader including a header whose host branch typedefs `float2` and `uint`: the
// elements are still the built-in vectors, and the reduction's components are checked.
#include "shared_host_types.h"

static const uint NumThreads = ReduceGroupSize * ReduceGroupSize;
groupshared float2 depths[NumThreads];

[numthreads(ReduceGroupSize, ReduceGroupSize, 2147483648)]
void main(uint index : SV_GroupIndex) {
    depths[index] = float2(0, 1);                      // expect: ok
    GroupMemoryBarrierWithGroupSync();
    for (uint s = NumThreads / 2; s > 0; s >>= 1) {
        if (index < s)
            depths[index].x = min(depths[index].x, depths[index + s].x);   // expect: bank-conflict factor=2
        GroupMemoryBarrierWithGroupSync();
    }
}
