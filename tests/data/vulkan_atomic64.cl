/*!
64-bit atomics (atom_add, atom_max, atom_min, atom_cmpxchg on long) with many
work-items, in a buffer and in workgroup memory: 1024 work-items, groups of 64. LLVM 22 never
declares Int64Atomics for a shader; gpucompile writes each as a marked load and stores and makes
them the atomic again after code generation. In a buffer: the sum of gid << 32 (523776 << 32), the
maximum of gid * 0x100000001 (1023 of them), the minimum of that from -1, a counter of 2^32 steps
by compare-and-swap (1024 << 32). In workgroup memory: each group's sum of (gid & 7) << 33 (224 << 33).
The format is piglit's (tests/corpus/piglit_run.c runs it; tests/cli_vulkan.sh says how).
[config]
name: 64-bit atomics
clc_version_min: 11

[test]
name: sum, maximum, minimum and a compare-and-swap counter in a buffer
kernel_name: longs
dimensions: 1
global_size: 1024 0 0
local_size: 64 0 0
arg_out: 0 buffer long[4] 2249600790429696 4393751544831 -1 4398046511104
arg_in:  0 buffer long[4] 0 0 -1 0

[test]
name: sums in workgroup memory
kernel_name: group_sum
dimensions: 1
global_size: 1024 0 0
local_size: 64 0 0
arg_out: 0 buffer long[16] repeat 1924145348608
arg_in:  0 buffer long[16] repeat 0
!*/

#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable

kernel void longs(global long *out) {
    long gid = (long)get_global_id(0), cur = out[3], prev;
    atom_add(&out[0], gid << 32);
    atom_max(&out[1], gid * 0x100000001L);
    atom_min(&out[2], gid * 0x100000001L);
    while ((prev = atom_cmpxchg(&out[3], cur, cur + 0x100000000L)) != cur) cur = prev;
}

kernel void group_sum(global long *out) {
    local long sum;
    if (get_local_id(0) == 0) sum = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    atom_add(&sum, (long)(get_global_id(0) & 7) << 33);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) == 0) out[get_group_id(0)] = sum;
}
