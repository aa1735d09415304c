/* OpenCL C's built-in functions in the overloads kernels use (scalar, vector, vector with
   scalar), compiled for Vulkan through gpucompile_lower_kernels; tests/test_vulkan_builtins.c
   runs them on the first Vulkan device and checks every answer against the host's. */

/* the integer functions: 32-bit, 8/16-bit through int buffers, 64-bit, vectors */
kernel void ints(global const int *a, global const int *b, global const int *c, global int *out, global long *wide, int n) {
    int i = (int)get_global_id(0);
    if (i >= n) return;
    int x = a[i], y = b[i], z = c[i];
    uint ux = (uint)x, uy = (uint)y, uz = (uint)z;
    global int *o = out + 40 * i;
    o[0] = (int)abs(x);
    o[1] = (int)abs_diff(x, y);
    o[2] = add_sat(x, y);
    o[3] = sub_sat(x, y);
    o[4] = (int)add_sat(ux, uy);
    o[5] = (int)sub_sat(ux, uy);
    o[6] = hadd(x, y);
    o[7] = rhadd(x, y);
    o[8] = (int)hadd(ux, uy);
    o[9] = (int)rhadd(ux, uy);
    o[10] = clz(x);
    o[11] = popcount(x);
    o[12] = mul_hi(x, y);
    o[13] = (int)mul_hi(ux, uy);
    o[14] = mad_hi(x, y, z);
    o[15] = rotate(x, y);
    o[16] = mad_sat(x, y, z);
    o[17] = (int)mad_sat(ux, uy, uz);
    o[18] = clamp(x, min(y, z), max(y, z));
    o[19] = add_sat((char)x, (char)y);
    o[20] = sub_sat((uchar)x, (uchar)y);
    o[21] = clz((short)x);
    o[22] = popcount((uchar)x);
    o[23] = mul_hi((char)x, (char)y);
    o[24] = upsample((short)x, (ushort)y);
    o[25] = (int)abs_diff((uint)x, (uint)y);
    o[26] = (int)max(ux, uy);
    o[27] = (int)min(ux, uy);
    o[28] = ctz(x);
    o[29] = mad_sat((short)x, (short)y, (short)z);
    o[30] = rotate((uchar)x, (uchar)y);
    o[31] = mul24(x & 0x7fffff, y & 0x7fffff);
    o[32] = mad24(x & 0x7fffff, y & 0xffff, z);
    int4 v = (int4)(x, y, z, x ^ y), u = (int4)(y, z, x, 7);
    int4 r = max(v, 3) + min(u, v) - clamp(v, -100, 100) + add_sat(v, u) + as_int4(abs_diff(v, u).yxwz);
    vstore4(r, 0, o + 33);
    o[37] = popcount(v).x + clz(u).w * 100;
    long lx = ((long)x << 32) ^ (long)y, ly = ((long)y << 29) ^ (long)z, lz = ((long)z << 31) ^ x;
    ulong ulx = (ulong)lx, uly = (ulong)ly, ulz = (ulong)lz;
    global long *q = wide + 16 * i;
    q[0] = mul_hi(lx, ly);
    q[1] = (long)mul_hi(ulx, uly);
    q[2] = mad_sat(lx, ly, lz);
    q[3] = (long)mad_sat(ulx, uly, ulz);
    q[4] = add_sat(lx, ly);
    q[5] = sub_sat(lx, ly);
    q[6] = popcount(lx);
    q[7] = clz(lx);
    q[8] = rotate(lx, ly);
    q[9] = upsample(x, uy);
    q[10] = (long)abs(lx);
    q[11] = hadd(lx, ly);
    q[12] = mad_hi(lx, ly, lz);
    q[13] = ctz(lx);
    q[14] = (long)add_sat(ulx, uly);
    q[15] = (long)sub_sat(ulx, uly);
}

/* common, relational and geometric functions, select and bitselect */
kernel void floats(global const float *a, global const float *b, global const float *c, global float *out, global int *rel, int n) {
    int i = (int)get_global_id(0);
    if (i >= n) return;
    float x = a[i], y = b[i], z = c[i];
    global float *o = out + 32 * i;
    global int *t = rel + 32 * i;
    o[0] = degrees(x);
    o[1] = radians(x);
    o[2] = max(x, y);
    o[3] = min(x, y);
    o[4] = sign(x);
    o[5] = step(y, x);
    o[6] = smoothstep(-1.0f, 2.0f, x);
    o[7] = mix(x, y, 0.25f);
    o[8] = clamp(x, -1.5f, 2.5f);
    o[9] = fmax(x, y);
    o[10] = select(x, y, (int)(z > 0));
    o[11] = bitselect(x, y, z);
    float4 v = (float4)(x, y, z, 1.0f), u = (float4)(y, z, 2.0f, x);
    o[12] = dot(v, u);
    o[13] = length(v);
    o[14] = distance(v, u);
    float4 nv = normalize(v);
    o[15] = nv.x;
    o[16] = nv.w;
    float4 cr = cross(v, u);
    o[17] = cr.x;
    o[18] = cr.y;
    o[19] = cr.z;
    o[20] = cr.w;
    float4 mv = max(v, 0.5f) + min(u, 0.25f) + clamp(v, 0.0f, 1.0f) + mix(v, u, 0.5f) + step(0.5f, v) + smoothstep(0.0f, 1.0f, u);
    vstore4(mv, 0, o + 21);
    o[25] = dot(v.xy, u.xy);
    o[26] = length(v.xyz);
    o[27] = fast_length(v);
    float4 sv = select(v, u, isgreater(v, u));
    o[28] = sv.x + sv.y * 10.0f + sv.z * 100.0f;
    o[29] = rsqrt(fabs(x) + 1.0f);
    float4 rv = rsqrt(fabs(v) + 1.0f);
    o[30] = rv.y;
    o[31] = bitselect(v, u, (float4)(z)).z;
    t[0] = isequal(x, y);
    t[1] = isnotequal(x, y);
    t[2] = isgreater(x, y);
    t[3] = isgreaterequal(x, y);
    t[4] = isless(x, y);
    t[5] = islessequal(x, y);
    t[6] = islessgreater(x, y);
    t[7] = isfinite(x);
    t[8] = isinf(x);
    t[9] = isnan(x);
    t[10] = isnormal(x);
    t[11] = isordered(x, y);
    t[12] = isunordered(x, y);
    t[13] = signbit(x);
    int4 m = isless(v, u);
    vstore4(m, 0, t + 14);
    t[18] = any(m);
    t[19] = all(m);
    t[20] = any((int4)(x < 0, 0, 0, 0)) + 10 * all(isfinite(v));
    int4 iv = select((int4)(1, 2, 3, 4), (int4)(5, 6, 7, 8), isnan(v));
    vstore4(iv, 0, t + 21);
    t[25] = signbit(v).x;
    t[26] = isnormal(v).y;
    t[27] = isinf(v).z;
}

/* shuffles with constant and computed masks */
kernel void shuffles(global const float4 *a, global const uint4 *m, global float4 *out, global int4 *iout, int n) {
    int i = (int)get_global_id(0);
    if (i >= n) return;
    float4 x = a[i], y = a[i] * 2.0f;
    uint4 k = m[i];
    out[4 * i] = shuffle(x, (uint4)(3, 2, 1, 0));
    out[4 * i + 1] = shuffle(x, k);
    out[4 * i + 2] = shuffle2(x, y, k);
    out[4 * i + 3] = shuffle2(x, y, (uint4)(0, 5, 2, 7));
    float2 s = shuffle(x, (uint2)(k.x, 1));
    int4 iv = convert_int4(x);
    iout[2 * i] = shuffle(iv, k) + (int4)(convert_int2(s), 0, 0);
    iout[2 * i + 1] = shuffle2(iv, iv + 100, (uint4)(k.y, 6, k.w, 1));
}

/* math: one function per column (tests/test_vulkan_builtins.c holds the list and each one's ULP limit) */
kernel void math(global const float *a, global const float *b, global float *out, global int *iout, int n) {
    int i = (int)get_global_id(0);
    if (i >= n) return;
    float x = a[i], y = b[i];
    global float *o = out + 48 * i;
    o[0] = sin(x);
    o[1] = cos(x);
    o[2] = tan(x);
    o[3] = exp(x);
    o[4] = exp2(x);
    o[5] = log(x);
    o[6] = log2(x);
    o[7] = pow(x, y);
    o[8] = sqrt(x);
    o[9] = x / y;
    o[10] = asin(x);
    o[11] = acos(x);
    o[12] = atan(x);
    o[13] = atan2(x, y);
    o[14] = sinh(x);
    o[15] = cosh(x);
    o[16] = tanh(x);
    o[17] = exp10(x);
    o[18] = log10(x);
    o[19] = cbrt(x);
    o[20] = hypot(x, y);
    o[21] = sinpi(x);
    o[22] = cospi(x);
    o[23] = tanpi(x);
    o[24] = fdim(x, y);
    o[25] = fmod(x, y);
    o[26] = expm1(x);
    o[27] = log1p(x);
    o[28] = asinh(x);
    o[29] = acosh(x);
    o[30] = atanh(x);
    o[31] = logb(x);
    o[32] = maxmag(x, y);
    o[33] = minmag(x, y);
    o[34] = nextafter(x, y);
    o[35] = rsqrt(x);
    o[36] = pown(x, (int)y);
    o[37] = rootn(x, (int)y);
    o[38] = powr(x, y);
    o[39] = remainder(x, y);
    o[40] = asinpi(x);
    o[41] = acospi(x);
    o[42] = atanpi(x);
    o[43] = atan2pi(x, y);
    o[44] = ldexp(x, (int)y);
    o[45] = copysign(x, y);
    o[46] = native_exp(x);
    o[47] = half_log(x);
    global int *io = iout + 8 * i;
    io[0] = ilogb(x);
    float ip, fr = fract(x, &ip);
    io[1] = as_int(fr);
    io[2] = as_int(ip);
    float mi, mf = modf(x, &mi);
    io[3] = as_int(mf);
    io[4] = as_int(mi);
    int e;
    io[5] = as_int(frexp(x, &e));
    io[6] = e;
    float sc, ss = sincos(x, &sc);
    io[7] = as_int(ss - sin(x)) | as_int(sc - cos(x));
}

/* round (halves away from zero) and ldexp's vector-with-scalar overload */
kernel void round_ldexp(global const float4 *a, global float4 *out, int k) {
    int i = (int)get_global_id(0);
    out[2 * i] = round(a[i]);
    out[2 * i + 1] = ldexp(a[i], k);
}
