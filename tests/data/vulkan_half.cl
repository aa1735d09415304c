/* half in memory (tests/test_vulkan_builtins.c, test_half): vload_half, vstore_half in each
   rounding mode, vload_half4, vstorea_half3. LLVM 22 stops on OpenCL's half pointers for Vulkan;
   the lowering reads and writes them as 16-bit integers converted by their bits. */
kernel void half_round(global const float *x, global half *h, global float *back) {
    int i = get_global_id(0);
    float v = x[i];
    vstore_half(v, 4 * i, h);
    vstore_half_rtz(v, 4 * i + 1, h);
    vstore_half_rtp(v, 4 * i + 2, h);
    vstore_half_rtn(v, 4 * i + 3, h);
    back[i] = vload_half(4 * i + 2, h);
}
kernel void half_vec(global const half *h, global half *o, global float4 *f) {
    int i = get_global_id(0);
    float4 v = vload_half4(i, h);
    f[i] = v;
    vstorea_half3_rte(v.xyz * 3.0f, i, o);
}
