#version 450
// Sizes set at launch (specialization constants): the workgroup size's x (SpecId 0) and the
// length of a shared array (SpecId 3), as gpucompile's pointer kernels have them. Each workgroup
// reverses its invocations' ids through the shared array.
layout(local_size_x_id = 0) in;
layout(constant_id = 3) const uint N = 1;
layout(set = 0, binding = 0) buffer B { uint x[]; } b;
shared uint s[N];
void main() {
    uint l = gl_LocalInvocationID.x;
    s[l] = l;
    barrier();
    b.x[gl_GlobalInvocationID.x] = s[gl_WorkGroupSize.x - 1u - l] + 1000u * gl_WorkGroupSize.x;
}
