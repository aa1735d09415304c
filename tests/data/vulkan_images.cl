/* OpenCL images on Vulkan (tests/test_vulkan_images.c runs these and checks every answer). */

/* A 3x3 box blur through the sampler argument at texel centres (normalized coordinates), and a
   read halfway between a texel and its right neighbour; the sizes after the pixels. */
kernel void blur(read_only image2d_t in, sampler_t s, write_only image2d_t out, global float4 *mid) {
    int x = get_global_id(0), y = get_global_id(1), w = get_image_width(in), h = get_image_height(in);
    float2 size = (float2)(w, h);
    float4 sum = (float4)(0.0f);
    if (x >= w || y >= h) return;
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++)
            sum += read_imagef(in, s, ((float2)(x + dx, y + dy) + 0.5f) / size);
    write_imagef(out, (int2)(x, y), sum / 9.0f);
    mid[y * w + x] = read_imagef(in, s, (float2)(x + 1.0f, y + 0.5f) / size);
    if (x == 0 && y == 0) mid[w * h] = (float4)(w, get_image_height(out), 0.0f, 0.0f);
}

/* 8-bit unorm in, float out: luma in r, g and b, alpha kept. */
kernel void luma(read_only image2d_t in, write_only image2d_t out) {
    int2 p = (int2)(get_global_id(0), get_global_id(1));
    if (p.x >= get_image_width(in) || p.y >= get_image_height(in)) return;
    float4 c = read_imagef(in, p);
    float l = dot(c.xyz, (float3)(0.299f, 0.587f, 0.114f));
    write_imagef(out, p, (float4)(l, l, l, c.w));
}

/* Integers: in ^ (x, y, 7, 9) into out. */
kernel void ints(read_only image2d_t in, write_only image2d_t out) {
    int2 p = (int2)(get_global_id(0), get_global_id(1));
    int2 d = get_image_dim(in);
    if (p.x >= d.x || p.y >= d.y) return;
    write_imageui(out, p, read_imageui(in, p) ^ (uint4)(p.x, p.y, 7, 9));
}

/* A constant sampler with integer coordinates: the left neighbour, clamped to the edge. */
const sampler_t left = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;
kernel void edge(read_only image2d_t in, global float *out) {
    int x = get_global_id(0), y = get_global_id(1), w = get_image_width(in);
    if (x >= w || y >= get_image_height(in)) return;
    out[y * w + x] = read_imagef(in, left, (int2)(x - 1, y)).x;
}

/* A 3D image and an image array, copied out in order (z across the launch's third dimension),
   their sizes after them. */
kernel void volume(read_only image3d_t v, read_only image2d_array_t a, global float *out) {
    int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
    int w = get_image_width(v), h = get_image_height(v), d = get_image_depth(v), n = get_image_array_size(a);
    if (x >= w || y >= h) return;
    if (z < d) out[(z * h + y) * w + x] = read_imagef(v, (int4)(x, y, z, 0)).x;
    if (z < n) out[w * h * d + (z * h + y) * w + x] = read_imagef(a, (int4)(x, y, z, 0)).x;
    if (x == 0 && y == 0 && z == 0) {
        global int *s = (global int *)(out + w * h * (d + n));
        int2 ad = get_image_dim(a);
        s[0] = w; s[1] = h; s[2] = d; s[3] = n; s[4] = ad.x; s[5] = ad.y;
    }
}

/* A 1D image read through the sampler argument at normalized coordinates from -2 to 2 (texel
   centres): repeat and mirrored repeat wrap them. */
kernel void wrap(read_only image1d_t in, sampler_t s, global float *out) {
    int i = get_global_id(0), w = get_image_width(in);
    if (i < 4 * w) out[i] = read_imagef(in, s, ((float)(i - 2 * w) + 0.5f) / w).x;
}

/* read_imageh / write_imageh: halves of a float image, doubled, into another. */
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
kernel void halves(read_only image2d_t in, write_only image2d_t out) {
    int2 p = (int2)(get_global_id(0), get_global_id(1));
    if (p.x < get_image_width(in) && p.y < get_image_height(in)) write_imageh(out, p, read_imageh(in, p) * (half)2);
}

/* A 3D image through the sampler argument: the middle texel's value with normalized coordinates
   (unnormalized ones are refused at launch: Vulkan samples only 1D and 2D images so). */
kernel void sample3d(read_only image3d_t v, sampler_t s, global float *out) {
    out[0] = read_imagef(v, s, (float4)(0.5f, 0.5f, 0.5f, 0.0f)).x;
}

/* The channel order and data type of the images bound (the launch's push constants): a, c and d
   only asked about (their sizes from the launch too), b also read; k a scalar between them (its
   push constant and theirs apart). */
kernel void channels(read_only image2d_t a, int k, read_only image2d_t b, write_only image2d_t c, global int *out, read_only image2d_array_t d) {
    out[0] = get_image_channel_order(a) + k;
    out[1] = get_image_channel_data_type(a);
    out[2] = get_image_channel_order(b);
    out[3] = get_image_channel_data_type(b);
    out[4] = get_image_channel_data_type(c) - get_image_channel_order(c);
    out[5] = (int)read_imagef(b, (int2)(0, 0)).x + get_image_width(b);
    out[6] = get_image_width(a) * 100 + get_image_height(a);
    out[7] = get_image_dim(c).x * 100 + get_image_dim(c).y;
    out[8] = (int)get_image_array_size(d) * 10000 + get_image_width(d) * 100 + get_image_height(d);
}

/* read_imagei / write_imagei of signed images (8-, 16- and 32-bit: the launch's data type says
   which): each texel times -3 plus the work-item's x (saturated where the image is narrower), and
   the first lane read through the sampler argument into a buffer. */
kernel void signed_ints(read_only image2d_t in, sampler_t s, write_only image2d_t out, global int *first) {
    int2 p = (int2)(get_global_id(0), get_global_id(1));
    if (p.x >= get_image_width(in) || p.y >= get_image_height(in)) return;
    write_imagei(out, p, read_imagei(in, p) * -3 + p.x);
    first[p.y * get_image_width(in) + p.x] = read_imagei(in, s, p).x;
}

/* image1d_buffer_t: each texel's lanes reversed into another, and the width. */
kernel void texels(read_only image1d_buffer_t in, write_only image1d_buffer_t out, global int *width) {
    int i = get_global_id(0);
    if (i == 0) *width = get_image_width(in);
    if (i < get_image_width(out)) write_imageui(out, i, read_imageui(in, i).wzyx);
}

/* Depth images (a colour image's first lane): a read twice (fetched, and through the sampler
   argument at the texel), its hundredth written to b, layer 1 of c; a's channel order. */
kernel void depth(read_only image2d_depth_t a, sampler_t s, write_only image2d_depth_t b, read_only image2d_array_depth_t c, global float *out) {
    int2 p = (int2)(get_global_id(0), get_global_id(1));
    int w = get_image_width(a), h = get_image_height(a);
    if (p.x == 0 && p.y == 0) out[2 * w * h] = (float)get_image_channel_order(a);
    if (p.x >= w || p.y >= h) return;
    float d = read_imagef(a, p);
    out[p.y * w + p.x] = d + read_imagef(a, s, p);
    write_imagef(b, p, d / 100.0f);
    out[w * h + p.y * w + p.x] = read_imagef(c, (int4)(p.x, p.y, 1, 0));
}
