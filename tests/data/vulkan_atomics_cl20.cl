/*!
OpenCL 2.0's atomic functions (atomic_fetch_<op>[_explicit], atomic_exchange, atomic_load,
atomic_store, atomic_compare_exchange_weak, atomic_flag_test_and_set, atomic_init) with many
work-items, in a buffer and in workgroup memory: 1024 work-items, groups of 64. OR and AND of
1 << (gid & 31) set and clear every bit; XOR toggles each bit 32 times; the unsigned minimum and
maximum start where a signed comparison would keep the start; one work-item of 1024 finds the flag
clear; each group's sum of gid & 7 is 8 * 28 = 224.
The format is piglit's (tests/corpus/piglit_run.c runs it; tests/cli_vulkan.sh says how).
[config]
name: OpenCL 2.0 atomic functions
clc_version_min: 20

[test]
name: every function in a buffer
kernel_name: ops
dimensions: 1
global_size: 1024 0 0
local_size: 64 0 0
arg_out: 0 buffer int[11] 1024 1023 -1 -2048 0 5 3072 1 1 42 7
arg_in:  0 buffer int[11] 0 -1 0 0 -1 5 0 0 0 0 0
arg_out: 1 buffer uint[2] 7 3000001023
arg_in:  1 buffer uint[2] 4000000000 0

[test]
name: sums in workgroup memory
kernel_name: group_sum
dimensions: 1
global_size: 1024 0 0
local_size: 64 0 0
arg_out: 0 buffer int[16] repeat 224
arg_in:  0 buffer int[16] repeat 0
!*/

kernel void ops(global atomic_int *c, global atomic_uint *u) {
    int g = (int)get_global_id(0), cur;
    atomic_fetch_add_explicit(&c[0], 1, memory_order_relaxed, memory_scope_device);
    atomic_fetch_max(&c[1], g);
    atomic_fetch_or(&c[2], 1 << (g & 31));
    atomic_fetch_sub_explicit(&c[3], 2, memory_order_relaxed);
    atomic_fetch_and(&c[4], ~(1 << (g & 31)));
    atomic_fetch_xor(&c[5], 1 << (g & 31));
    atomic_fetch_min(&u[0], (uint)g + 7);
    atomic_fetch_max(&u[1], 3000000000u + (uint)g);
    cur = atomic_load(&c[6]);
    while (!atomic_compare_exchange_weak(&c[6], &cur, cur + 3)) {}
    if (!atomic_flag_test_and_set((volatile global atomic_flag *)&c[7])) atomic_fetch_add(&c[8], 1);
    atomic_exchange(&c[9], 42);
    atomic_store(&c[10], 7);
}

kernel void group_sum(global int *out) {
    local atomic_int sum;
    if (get_local_id(0) == 0) atomic_init(&sum, 0);
    barrier(CLK_LOCAL_MEM_FENCE);
    atomic_fetch_add(&sum, (int)(get_global_id(0) & 7));
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) == 0) out[get_group_id(0)] = atomic_load(&sum);
}
