// Vector values: constructors, swizzles, component-wise arithmetic with scalar
// broadcast, vectors passed by value to helpers, component assignment, min/max/clamp
// and all()/any() guards. The block is 8x8: a warp of 32 lanes is rows y 0..3 of
// x 0..7.
groupshared float tile24[24 * 24];
groupshared float tile16[16 * 16];
groupshared uint counts[64];
groupshared float grid[8][8];
RWStructuredBuffer<uint> queue : register(u0);

// Offset.x + 24 * Offset.y over x 0..7, y 0..3 hits words 0-7, 24-31, 48-55, 72-79:
// banks 0-7, 24-31, 16-23, 8-15, all different.
void Prefetch(int2 Corner, uint2 Offset)
{
    uint ldsIdx = Offset.x + Offset.y * 24;
    tile24[ldsIdx] = Corner.x;
}

// Offset.x + 16 * Offset.y: rows 0 and 2 (1 and 3) share banks: 2-way.
void PrefetchNarrow(uint2 Offset)
{
    tile16[Offset.x + Offset.y * 16] = 0;
}

[numthreads(8, 8, 1)]
void main(uint3 Gid : SV_GroupID, uint3 GTid : SV_GroupThreadID)
{
    uint TileCoord = queue[Gid.x];
    uint2 Tile = uint2(TileCoord & 0xFFFF, TileCoord >> 16);
    // A scalar broadcasts over the vector's components.
    int2 TileUL = Tile * 8 - 8;
    Prefetch(TileUL, GTid.xy + uint2(0, 0)); // expect: ok
    Prefetch(TileUL, GTid.xy + uint2(8, 16)); // expect: ok
    PrefetchNarrow(GTid.xy + 8); // expect: bank-conflict factor=2

    // uint3(v.xy, 0) concatenates; .yx swaps: grid[y][x] is row-major, grid[x][y] puts
    // x and x + 4 on one bank.
    uint3 p = uint3(GTid.yx, 0);
    grid[p.x][p.y] = 1;                             // expect: ok
    grid[p.y][p.x] = 1;                             // expect: bank-conflict factor=2

    // Components assigned one by one, and v[i] with a constant index.
    uint2 q;
    q.x = GTid.x;
    q.y = GTid.y * 2;
    q.x += 0;
    tile16[q[0] + q[1] * 16] = 2;                   // expect: bank-conflict factor=4

    // min/max/clamp act on each component: x is clamped to 0..3, four lanes a row share
    // one word (a broadcast), so only the rows count, and they are 8 words apart.
    uint2 c = clamp(GTid.xy, uint2(0, 0), uint2(3, 7));
    counts[c.x + c.y * 8] = 3;                      // expect: ok
    uint2 m = max(GTid.xy, 4);
    counts[m.x + 8 * m.y] += 1;                     // expect: ok

    // all() of a component-wise comparison is a guard: only x, y even lanes store,
    // 2x + 2 * 16 y: rows 0 and 2 meet: 2-way.
    if (all(GTid.xy % 2 == 0))
        tile16[GTid.x * 2 + GTid.y * 16] = 4;       // expect: bank-conflict factor=2
    // The same with HLSL's swizzle of a literal, `2.xx`.
    if (all((GTid.xy % 2.xx) == 0))
        tile16[GTid.x * 2 + GTid.y * 16] = 7;       // expect: bank-conflict factor=2

    // A vector assigned in a branch on a known condition selects per component: rows
    // y 0, 1 store to grid[x][0] (words 8x: x and x + 4 share a bank), rows 2, 3 to
    // grid[0][x]: 2-way.
    int2 s = int2(GTid.x, 0);
    if (GTid.y >= 2)
        s = int2(0, GTid.x);
    grid[s.x][s.y] = 5Ô                             // expect: bank-conflict factor=2

    // Floating-point vectors stay data.
    float2 f = float2(GTid.xy);
    tile16[(uint)f.x] = 6;                          // expect: unknown
}
