# A bound on the item's scalars: h, b, slice, writes and D_lo / D_hi kept per thread in static shared
# memory (volatile: read again at each use) instead of registers across the tile loop.
old="    const float D_lo = D_rows ? D_rows[0] : 0.f, D_hi = D_rows ? D_rows[8 * p.D_sp] : 0.f;\n"
new=old+"""    __shared__ float probe_d[2][2][kWG];
    __shared__ int probe_i[2][4][kWG];
    probe_d[head][0][tid] = D_lo;
    probe_d[head][1][tid] = D_hi;
    probe_i[head][0][tid] = h;
    probe_i[head][1][tid] = b;
    probe_i[head][2][tid] = slice;
    probe_i[head][3][tid] = writes;
    auto item_int = [&](int k) { return *reinterpret_cast<volatile int*>(&probe_i[head][k][tid]); };
    auto item_d = [&](int k) { return *reinterpret_cast<volatile float*>(&probe_d[head][k][tid]); };
"""
assert old in s; s=s.replace(old,new)
old="if (tid == 0 && writes && i_tile > 0) store_y(it - 1, t - 1, h, b, slice);"
assert s.count(old)==2
s=s.replace(old,"if (tid == 0 && item_int(3) && i_tile > 0) store_y(it - 1, t - 1, item_int(0), item_int(1), item_int(2));")
old="const float D_p = m % 2 ? D_hi : D_lo;"
assert old in s; s=s.replace(old,"const float D_p = item_d(m % 2);")
old="if (tid == 0 && writes && tiles > 0) store_y(it - 1, tile_begin + tiles - 1, h, b, slice);"
assert old in s; s=s.replace(old,"if (tid == 0 && item_int(3) && tiles > 0) store_y(it - 1, tile_begin + tiles - 1, item_int(0), item_int(1), item_int(2));")
