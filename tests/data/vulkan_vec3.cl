/*!
vload3 and vstore3 of buffers of scalars: a vector of 3 is loaded and stored lane by lane, as
a buffer whose elements are 3-element vectors would be 12 bytes apart, a stride no Vulkan layout
has (the module was invalid). The format is piglit's (tests/corpus/piglit_run.c runs it;
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
!*/
kernel void int3_scale(global const int *in, global int *out) {
    size_t i = get_global_id(0);
    vstore3(vload3(i, in) * 2, i, out);
}

kernel void float3_pick(global const float *in, global float *out) {
    size_t i = get_global_id(0);
    vstore3(vload3(1 - i, in), i, out);
}
