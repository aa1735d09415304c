/* Vectors of 8 and 16 lanes (tests/test_vulkan_builtins.c, test_wide): LLVM 22's SPIR-V code
   generator stops on them for Vulkan; the lowering splits them. One work-item per 16 ints of
   out, from 16 ints of a: arithmetic, compares, selects, shuffles, variable extract and insert,
   conversions, a phi, vload/vstore 8 and 16, float8 built-ins. */
kernel void wide(global const int *a, global int *out, global float8 *f, int n) {
    int i = get_global_id(0);
    int16 v = vload16(i, a);
    int16 w = v > 3 ? v * 3 - 1 : -v;                       /* compare, select, arithmetic */
    int16 s = w.sfedcba9876543210 ^ (int16)(i);            /* shuffle */
    int8 h = s.lo + s.hi;
    for (int k = 0; k < n; k++) h = h.s12345670 + (int8)(k); /* a phi */
    int j = v.s0 & 7;
    int x = h[j];                                           /* variable extract */
    h[(j + 1) & 7] = x * 2;                                 /* variable insert */
    float8 g = convert_float8(h) * 0.5f;                    /* conversion */
    g = fmax(g, fabs(g) - 1.0f) + floor(g);                 /* built-ins */
    f[i] = g;
    vstore8(convert_int8_rtz(g) + h, 0, out + 16 * i);
    vstore8(s.lo, 1, out + 16 * i);
}
