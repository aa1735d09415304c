// examples/kernels/reduce_vulkan.ll in GLSL, for glslangValidator (bench/vulkan.sh): out[group]
// = the sum of the group's 64 inputs through workgroup memory and barriers.
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { float data[]; } src;
layout(set = 0, binding = 1) buffer Out { float sums[]; } dst;
shared float tile[64];
void main() {
    uint t = gl_LocalInvocationID.x;
    tile[t] = src.data[gl_GlobalInvocationID.x];
    for (uint s = 32; s > 0; s >>= 1) {
        barrier();
        if (t < s) tile[t] += tile[t + s];
    }
    barrier();
    if (t == 0) dst.sums[gl_WorkGroupID.x] = tile[0];
}
