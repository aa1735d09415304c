/* Image kernels with known answers: tests/run/run.c runs them through gpucompile_spirv.h's OpenCL
   runtime (mgpuImageCreate, ...) and computes each answer on the host. Compiled by clang for
   spirv64 (tests/run/run.sh). */

/* A sampler of the program's own (OpConstantSampler): no kernel argument. */
constant sampler_t texel = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_NONE | CLK_FILTER_NEAREST;

/* A 3x3 box blur whose taps fall between texels: each tap is filtered (the sampler the host
   passes: normalized coordinates, linear, clamp to edge), so the host's bilinear sum checks it. */
kernel void blur(read_only image2d_t src, sampler_t s, write_only image2d_t dst, global int *size) {
    int x = get_global_id(0), y = get_global_id(1), w = get_image_width(src), h = get_image_height(src);
    float sum = 0.0f;
    if (x == 0 && y == 0) { size[0] = w; size[1] = h; }
    if (x >= w || y >= h) return;
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++)
            sum += read_imagef(src, s, (float2)(((float)(x + dx) + 0.75f) / (float)w, ((float)(y + dy) + 0.375f) / (float)h)).x;
    write_imagef(dst, (int2)(x, y), (float4)(sum / 9.0f, 0.0f, 0.0f, 1.0f));
}

/* RGBA8 (unorm: read as 0..1) to luma and chroma, written to a float image. */
kernel void to_yuv(read_only image2d_t src, write_only image2d_t dst) {
    int2 p = (int2)(get_global_id(0), get_global_id(1));
    if (p.x >= get_image_width(src) || p.y >= get_image_height(src)) return;
    float4 c = read_imagef(src, texel, p);
    float y = 0.299f * c.x + 0.587f * c.y + 0.114f * c.z;
    write_imagef(dst, p, (float4)(y, (c.z - y) * 0.565f, (c.x - y) * 0.713f, c.w));
}

/* Unsigned integers in and out (sampler-less reads). */
kernel void scale_uint(read_only image2d_t src, write_only image2d_t dst) {
    int2 p = (int2)(get_global_id(0), get_global_id(1));
    if (p.x >= get_image_width(src) || p.y >= get_image_height(src)) return;
    uint4 v = read_imageui(src, p);
    write_imageui(dst, p, v * 3u + (uint4)(p.x, p.y, 7u, 0u));
}

/* A 3D image read into a buffer, with its three sizes. */
kernel void volume(read_only image3d_t src, global float *out) {
    int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
    int w = get_image_width(src), h = get_image_height(src), d = get_image_depth(src);
    if (x >= w || y >= h || z >= d) return;
    out[(z * h + y) * w + x] = read_imagef(src, texel, (int4)(x, y, z, 0)).x * 2.0f + (float)(w + 10 * h + 100 * d);
}

/* A 2D image array: each layer's texels and the layer count. */
kernel void layers(read_only image2d_array_t src, global uint *out) {
    int x = get_global_id(0), y = get_global_id(1), l = get_global_id(2);
    int w = get_image_width(src), h = get_image_height(src), n = (int)get_image_array_size(src);
    if (x >= w || y >= h || l >= n) return;
    uint4 v = read_imageui(src, (int4)(x, y, l, 0));
    out[(l * h + y) * w + x] = v.x + v.y + v.z + v.w + 1000u * (uint)n;
}

/* Signed integers (CL_SIGNED_INT8 or 16): each texel times -3 plus x, written saturated to the
   image's type; the data type and order of both images into info. */
kernel void signed_ints(read_only image2d_t src, write_only image2d_t dst, global int *info) {
    int2 p = (int2)(get_global_id(0), get_global_id(1));
    if (p.x == 0 && p.y == 0) {
        info[0] = get_image_channel_data_type(src); info[1] = get_image_channel_order(src);
        info[2] = get_image_channel_data_type(dst); info[3] = get_image_channel_order(dst);
    }
    if (p.x >= get_image_width(src) || p.y >= get_image_height(src)) return;
    write_imagei(dst, p, read_imagei(src, p) * -3 + p.x);
}

/* An image1d_buffer_t (no sampler: OpenCL allows none on one): each texel's lanes summed, and
   its width. */
kernel void texels(read_only image1d_buffer_t src, global uint *out) {
    int i = get_global_id(0), w = get_image_width(src);
    if (i == 0) out[w] = (uint)w;
    if (i < w) { uint4 v = read_imageui(src, i); out[i] = v.x + v.y * 10u + v.z * 100u + v.w * 1000u; }
}
