/*!
OpenCL's async copies between a buffer and workgroup memory (async_work_group_copy of float and
int4, async_work_group_strided_copy back with a stride of 2, wait_group_events, prefetch), read
back in the order counted down (tmp[7 - l]: an index the optimizer writes as a constant minus the
local id): 16 work-items, groups of 8.
The format is piglit's (tests/corpus/piglit_run.c runs it; tests/cli_vulkan.sh says how).
[config]
name: async copies
clc_version_min: 10

[test]
name: copies in and out of workgroup memory
kernel_name: copies
dimensions: 1
global_size: 16 0 0
local_size: 8 0 0
arg_in:  0 buffer float[16] 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15
arg_out: 1 buffer float[48] 15 14 11 10 7 6 3 2  33 32 29 28 25 24 21 20 \
                            0 -1 1 -1 2 -1 3 -1 4 -1 5 -1 6 -1 7 -1 \
                            100 -1 101 -1 102 -1 103 -1 104 -1 105 -1 106 -1 107 -1
arg_in:  1 buffer float[48] repeat -1
arg_in:  2 buffer int4[4] 0 1 0 0  0 2 0 0  0 3 0 0  0 4 0 0
!*/

kernel void copies(global const float *src, global float *o, global const int4 *v) {
    local float tmp[8];
    local int4 t4[2];
    int l = (int)get_local_id(0), g = (int)get_global_id(0), G = (int)get_group_id(0);
    event_t ev = async_work_group_copy(tmp, src + G * 8, 8, 0);
    ev = async_work_group_copy(t4, v + G * 2, 2, ev);
    wait_group_events(1, &ev);
    o[g] = tmp[7 - l] * 2.0f + (float)t4[l & 1].y;
    barrier(CLK_LOCAL_MEM_FENCE);
    tmp[l] = (float)(l + 100 * G);
    barrier(CLK_LOCAL_MEM_FENCE);
    ev = async_work_group_strided_copy(o + 16 + G * 16, tmp, 8, 2, 0);
    wait_group_events(1, &ev);
    prefetch(src, 8);
}
