exec(open('edit_eserial.py').read())
# D x reads x from the stage one group (4 registers) at a time in the epilogue, instead of the
# tile's 16 registers of x held through it (the factored schedule then loads x once, for its operand).
old="""            load_x_transposed();
            epilogue(kZRingStarted);"""
assert old in s; s=s.replace(old,"""            epilogue(kZRingStarted);""")
old="""            uint32_t r[4];
            [[maybe_unused]] uint32_t z2[4];  // (the gated kernel's z group)"""
assert old in s; s=s.replace(old,"""            uint32_t r[4], xg[4];
            ldmatrix_x4_trans(xg, transposed_pairs(x_addr, j));
            [[maybe_unused]] uint32_t z2[4];  // (the gated kernel's z group)""")
old="const float2 xv = ElementPair::unpack(tYrX_pairs(k));"
assert old in s; s=s.replace(old,"const float2 xv = ElementPair::unpack(xg[m]);")
