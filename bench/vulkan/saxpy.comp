// examples/kernels/saxpy_vulkan.ll in GLSL, for glslangValidator (bench/vulkan.sh): the same
// bindings, push-constant block and workgroup size, so the host steps are the same.
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer X { float x[]; };
layout(set = 0, binding = 1) buffer Y { float y[]; };
layout(push_constant) uniform P { float a; uint n; } pc;
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i < pc.n) y[i] = pc.a * x[i] + y[i];
}
