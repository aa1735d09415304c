/*!
vload3 and vstore3 of buffers of scalars: a vector of 3 is loaded and stored lane by lane, as
a buffer whose elements are 3-element vectors would be 12 bytes apart, a stride no Vulkan layout
has (the module was invalid). Arrays of float3 in private and workgroup memory: clang stores
their elements as vectors of 4 and loads them as vectors of 3 (refused before). The format is piglit's (tests/corpus/piglit_run.c runs it;
tests/cli_vulkan.sh says how).
[config]
name: vectors of 3 in buffers of scalars

[test]
name: vload3 and vstore3 of ints
kernel_name: int3_scale
dimensions: 1
global_size: 3 0 0
arg_in:  0 buffer int[9] 1 2 3 4 5 6 7 8 9
arg_out: 1 buffer int[9] 2 4 6 8 10 12 14 16 18

[test]
name: vload3 and vstore3 of floats, the other work-item's
kernel_name: float3_pick
dimensions: 1
global_size: 2 0 0
arg_in:  0 buffer float[6] 0.5 1.5 2.5 3.5 4.5 5.5
arg_out: 1 buffer float[6] 3.5 4.5 5.5 0.5 1.5 2.5

[test]
name: a private array of float3 at a run-time index
kernel_name: float3_private
dimensions: 1
global_size: 2 0 0
arg_in:  0 buffer float[6] 0.5 1.5 2.5 3.5 4.5 5.5
arg_out: 1 buffer float[6] 3.5 4.5 5.5 0.5 1.5 2.5

[test]
name: a workgroup array of float3, the other work-item's
kernel_name: float3_local
dimensions: 1
global_size: 2 0 0
local_size: 2 0 0
arg_in:  0 buffer float[6] 0.5 1.5 2.5 3.5 4.5 5.5
arg_out: 1 buffer float[6] 7 9 11 1 3 5
!*/
kernel void int3_scale(global const int *in, global int *out) {
    size_t i = get_global_id(0);
    vstore3(vload3(i, in) * 2, i, out);
}

kernel void float3_pick(global const float *in, global float *out) {
    size_t i = get_global_id(0);
    vstore3(vload3(1 - i, in), i, out);
}

kernel void float3_private(global const float *in, global float *out) {
    size_t i = get_global_id(0);
    float3 v[2];
    v[0] = vload3(0, in);
    v[1] = vload3(1, in);
    vstore3(v[1 - i], i, out);
}

kernel void float3_local(global const float *in, global float *out) {
    local float3 l[2];
    size_t i = get_local_id(0);
    l[i] = vload3(i, in);
    barrier(CLK_LOCAL_MEM_FENCE);
    vstore3(l[1 - i] * 2.0f, i, out);
}
