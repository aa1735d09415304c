/*!
A counter and a maximum kept by compare-and-swap loops (atomic_cmpxchg, atom_cmpxchg) with many
work-items, in a buffer and in workgroup memory: 1024 work-items, groups of 64. The values are
(gid * 37) % 1009, whose maximum below 1024 is 1008; each group's sum of gid & 7 is 8 * 28 = 224.
The format is piglit's (tests/corpus/piglit_run.c runs it; tests/cli_vulkan.sh says how).
[config]
name: compare-and-swap loops
clc_version_min: 11

[test]
name: counter and maximum in a buffer
kernel_name: count_max
dimensions: 1
global_size: 1024 0 0
local_size: 64 0 0
arg_out: 0 buffer int[2] 1024 1008
arg_in:  0 buffer int[2] 0 -1

[test]
name: sums in workgroup memory
kernel_name: group_sum
dimensions: 1
global_size: 1024 0 0
local_size: 64 0 0
arg_out: 0 buffer uint[16] repeat 224
arg_in:  0 buffer uint[16] repeat 0
!*/

#pragma OPENCL EXTENSION cl_khr_global_int32_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_local_int32_base_atomics : enable

kernel void count_max(global int *out) {
    int v = (int)(get_global_id(0) * 37 % 1009), cur = out[0], prev;
    while ((prev = atomic_cmpxchg(&out[0], cur, cur + 1)) != cur) cur = prev;
    cur = out[1];
    while (cur < v && (prev = atom_cmpxchg(&out[1], cur, v)) != cur) cur = prev;
}

kernel void group_sum(global uint *out) {
    local uint sum;
    uint cur, prev;
    if (get_local_id(0) == 0) sum = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    cur = sum;
    while ((prev = atomic_cmpxchg(&sum, cur, cur + (uint)(get_global_id(0) & 7))) != cur) cur = prev;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) == 0) out[get_group_id(0)] = sum;
}
