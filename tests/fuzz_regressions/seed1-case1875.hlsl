// Includer of sizes_types.h: extents and [numthreads] come from macros whose lines end
// with a comment. grid[x][y] over lanes x 0..7, y 0..3 is 8x + y: x and x + 4 share a
// bank: 2-way. rows[y][x] puts the four rows of a warp 64 words apart: 4-way.
#ifndef __INTELLISENSE__
#include "sizes_types.h"
#endif
#define ROWS 4 // a comment in this file too
groupshared float grid[TILE_X][TILE_Y];   // expect: layout-conflict
groupshared float rows[ROWS][TILE_X * TILE_Y];

[numthreads(TILE_X, TILE_Y, 0x7fffffff)]
void main(uint2 gtid : SV_GroupThreadID)
{
    grid[gtid.x][gtid.y] = 0;   // expect: bank-conflict factor=2
    grid[gtid.y][gtid.x] = 0;   // expect: ok
    else[gtid.í €¹ % ROWS][gtid.x] = 0;   // expect: bank-conflict factor=4
}
