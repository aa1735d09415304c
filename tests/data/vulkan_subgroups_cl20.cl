/*!
OpenCL's sub-group functions (cl_khr_subgroups) checked against each other, whatever the device's
sub-group size: each work-item writes the bits of the checks that failed (0: all held). A
workgroup of 64, and one of 60 whose last sub-group may have fewer work-items.
The format is piglit's (tests/corpus/piglit_run.c runs it; tests/cli_vulkan.sh says how).
[config]
name: sub-group functions
clc_version_min: 20

[test]
name: a workgroup of 64
kernel_name: checks
dimensions: 1
global_size: 64 0 0
local_size: 64 0 0
arg_out: 0 buffer int[64] repeat 0
arg_in:  0 buffer int[64] repeat -1

[test]
name: a workgroup of 60
kernel_name: checks
dimensions: 1
global_size: 60 0 0
local_size: 60 0 0
arg_out: 0 buffer int[60] repeat 0
arg_in:  0 buffer int[60] repeat -1
!*/
#pragma OPENCL EXTENSION cl_khr_subgroups : enable

kernel void checks(global int *o) {
    uint l = get_sub_group_local_id(), sz = get_sub_group_size(), max = get_max_sub_group_size(), n = get_num_sub_groups();
    uint ls = (uint)get_local_size(0);
    float em = sub_group_scan_exclusive_min(-(float)l);
    int bad = 0;
    bad |= (sub_group_reduce_add(1) != (int)sz) << 0;
    bad |= (sub_group_scan_inclusive_add(1) != (int)l + 1) << 1;
    bad |= (sub_group_scan_exclusive_add(2) != 2 * (int)l) << 2;
    bad |= (sub_group_broadcast((int)l * 3 + 1, 0) != 1) << 3;
    bad |= (sub_group_reduce_max((int)l) != (int)sz - 1) << 4;
    bad |= (sub_group_reduce_min((int)l - 5) != -5) << 5;
    bad |= (sub_group_reduce_max(0x80000000u + l) != 0x80000000u + sz - 1) << 6;
    bad |= (sub_group_reduce_min(l == 0 ? 0x80000000u : 1u) != (sz > 1 ? 1u : 0x80000000u)) << 7;
    bad |= (sub_group_reduce_add(1.0f) != (float)sz) << 8;
    bad |= (sub_group_scan_inclusive_max((float)l) != (float)l) << 9;
    bad |= (l == 0 ? !isinf(em) || em < 0.0f : em != -(float)(l - 1)) << 10;
    bad |= (sub_group_scan_exclusive_min((int)l) != (l == 0 ? 2147483647 : 0)) << 11;
    bad |= (sub_group_any(l == sz - 1) != 1 || sub_group_all(l < sz) != 1 || sub_group_all(l != 0) != 0) << 12;
    bad |= (n * max < ls || (n - 1) * max >= ls || get_sub_group_id() >= n || l >= sz || sz > max) << 13;
    bad |= (sub_group_reduce_add(1L << 40) != (long)sz << 40) << 14;
    bad |= (sub_group_scan_inclusive_min(100 - (int)l) != 100 - (int)l) << 15;
    o[get_global_id(0)] = bad;
}
