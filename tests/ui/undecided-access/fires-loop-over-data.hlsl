// Loops whose values rest on data: the reason names the data, not the loop.
// bankcheck-ui: args --select undecided-access
StructuredBuffer<uint> Bounds : register(t0);
StructuredBuffer<float> Areas : register(t1);
groupshared uint Counts[256];
groupshared uint Slots[64];

[numthreads(64, 1, 1)]
void main(uint3 GTid : SV_GroupThreadID)
{
    // The start of `y` is loaded per lane: `y` is not followed for that reason.
    uint first = Bounds[GTid.x];
    for (uint y = first; y < 8; ++y)
    {
        InterlockedAdd(Counts[y * 32 + GTid.x], 1);
    }

    // The largest area's index is chosen by a test of loaded values.
    uint best = 0;
    float largest = 0.0;
    for (uint i = 0; i < 8; i++)
    {
        if (Areas[GTid.x * 8 + i] > largest)
        {
            largest = Areas[GTid.x * 8 + i];
            best = i;
        }
    }
    Slots[best * 8 + GTid.x % 8] = GTid.x;
}
