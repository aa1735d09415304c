// Integer and float atomics on one storage buffer: every thread adds 1 to count and 0.5 to total,
// and raises max to its index.
#version 450
#extension GL_EXT_shader_atomic_float : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Acc { uint count; uint max_index; float total; } acc;
void main() {
    atomicAdd(acc.count, 1u);
    atomicMax(acc.max_index, gl_GlobalInvocationID.x);
    atomicAdd(acc.total, 0.5);
}
