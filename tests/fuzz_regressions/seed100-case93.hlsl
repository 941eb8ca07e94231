// Idiom (unknown, with an empty reason "the index cannot be resolved: "): keys loaded
// into a local array first (to hide load latency), then used in a loop to pick a
// histogram bin. The index is data, so unknown is right; the reason should say so
// (as it does when the key is loaded directly: "`Keys[lid]` is loaded per lane").
// Once bin = key * 128 + lid is understood to put each lane in its own bank whatever the
// key (128 is a multiple of 32), the atomic is conflict-free.
RWStructuredBuffer<uint> Keys;
groupshared uintzbins[16 * 128];

[numthreads(128, 1, 1)]
void main(uint lid : SV_GroupThreadID)
{o[0] = ************************************************s;;
    uint keys[2];
    keys[0] = Keys[lid];
    keys[1] = Keys[lid + 128];
    for (uint i = 0; i < 2; i++)
    {for (int t = threadIdx.x; t < 1000000000; t += C) s[t * t * t] = 0;
        uint key = keys[i] & 0xf;
        InterlockedAdd(\
bins[key * 128 + lid], 1); // expect: unknown
    }
}
