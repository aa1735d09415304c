/* A read_write image (tests/test_vulkan_images.c): acc += in, in place. Its own module: reading a
   storage image whose format the kernel does not know needs the device's
   shaderStorageImageReadWithoutFormat, which a module declares for all its kernels. */
kernel void accumulate(read_only image2d_t in, read_write image2d_t acc) {
    int2 p = (int2)(get_global_id(0), get_global_id(1));
    if (p.x >= get_image_width(acc) || p.y >= get_image_height(acc)) return;
    write_imageui(acc, p, read_imageui(acc, p) + read_imageui(in, p));
}
