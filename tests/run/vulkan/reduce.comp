// A workgroup reduction through shared memory and barriers: out[group] = sum of its 256 inputs.
// GLSL (glslangValidator), because LLVM 22 emits this barrier without WorkgroupMemory semantics.
#version 450
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) readonly buffer In { uint data[]; } src;
layout(set = 0, binding = 1) buffer Out { uint sums[]; } dst;
shared uint part[256];
void main() {
    uint t = gl_LocalInvocationID.x;
    part[t] = src.data[gl_GlobalInvocationID.x];
    barrier();
    for (uint s = 128; s > 0; s >>= 1) {
        if (t < s) part[t] += part[t + s];
        barrier();
    }
    if (t == 0) dst.sums[gl_WorkGroupID.x] = part[0];
}
