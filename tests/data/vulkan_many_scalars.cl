/* 41 scalar parameters: 164 bytes, above the 128 bytes of push constants every Vulkan device
   has, so the scalars' block is a uniform buffer (tests/test_vulkan_ptr.c: test_many_scalars). */
kernel __attribute__((reqd_work_group_size(1, 1, 1))) void many(global float *out, float d,
    int i0, float f0, int i1, float f1, int i2, float f2, int i3, float f3, int i4, float f4,
    int i5, float f5, int i6, float f6, int i7, float f7, int i8, float f8, int i9, float f9,
    int i10, float f10, int i11, float f11, int i12, float f12, int i13, float f13, int i14,
    float f14, int i15, float f15, int i16, float f16, int i17, float f17, int i18, float f18,
    int i19, float f19) {
    out[0] = (float)i0 + d;
    out[1] = f0 + d;
    out[2] = (float)i1 + d;
    out[3] = f1 + d;
    out[4] = (float)i2 + d;
    out[5] = f2 + d;
    out[6] = (float)i3 + d;
    out[7] = f3 + d;
    out[8] = (float)i4 + d;
    out[9] = f4 + d;
    out[10] = (float)i5 + d;
    out[11] = f5 + d;
    out[12] = (float)i6 + d;
    out[13] = f6 + d;
    out[14] = (float)i7 + d;
    out[15] = f7 + d;
    out[16] = (float)i8 + d;
    out[17] = f8 + d;
    out[18] = (float)i9 + d;
    out[19] = f9 + d;
    out[20] = (float)i10 + d;
    out[21] = f10 + d;
    out[22] = (float)i11 + d;
    out[23] = f11 + d;
    out[24] = (float)i12 + d;
    out[25] = f12 + d;
    out[26] = (float)i13 + d;
    out[27] = f13 + d;
    out[28] = (float)i14 + d;
    out[29] = f14 + d;
    out[30] = (float)i15 + d;
    out[31] = f15 + d;
    out[32] = (float)i16 + d;
    out[33] = f16 + d;
    out[34] = (float)i17 + d;
    out[35] = f17 + d;
    out[36] = (float)i18 + d;
    out[37] = f18 + d;
    out[38] = (float)i19 + d;
    out[39] = f19 + d;
}
