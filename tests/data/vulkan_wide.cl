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

/* as_uchar16 of an int4 and as_int4 of a uchar16 (a bitcast between lane counts, which LLVM's
   scalarizer leaves whole where the int4 is a parameter): lane by lane (test_wide_bitcast) */
kernel void wide_bitcast(global const int4 *a, global uchar16 *bytes, global int4 *back, int4 key) {
    int i = get_global_id(0);
    uchar16 u = as_uchar16(a[i]) ^ as_uchar16(key);
    bytes[i] = u;
    back[i] = as_int4(u + (uchar16)(1));
}

/* A float8 parameter (OpenCL's vector-conversion test): each lane read from its own word of the
   scalars' block, where the scalarizer split its uses (test_wide_param) */
kernel void wide_param(global int *out, float8 p) {
    vstore8(convert_int8_rtz(p * (float)get_global_id(0)), get_global_id(0), out);
}
