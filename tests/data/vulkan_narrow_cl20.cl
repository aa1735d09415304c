/*!
OpenCL's 64-bit size_t in shapes the optimizer leaves, each computed in 32 bits so that the
module declares no Int64 (tests/cli_vulkan.sh checks that too): an int loop counter it widens
to 64 bits, stepping by the grid's size and compared with a sign-extended bound; a counter from
0 to a bound, its index offset by a constant (a sign extension plus a constant shifted by 32);
an address after a loop that the optimizer computes in both branches and joins in a phi; size_t
shifted by a count of its bits, masked, and its bits counted; and in kernels of ints alone, what the
library would compute in 64 bits (mul_hi, mad_sat) and what the optimizer leaves 64-bit (a switch
on get_global_id, its conversion to float).
The format is piglit's (tests/corpus/piglit_run.c runs it; tests/cli_vulkan.sh says how).
[config]
name: size_t computed in 32 bits
clc_version_min: 20

[test]
name: an int counter stepping by the grid's size
kernel_name: strided
dimensions: 1
global_size: 8 0 0
local_size: 4 0 0
arg_in:  0 buffer float[20] 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20
arg_out: 1 buffer float[8] 27 30 33 36 18 20 22 24
arg_in:  2 int 20

[test]
name: a counter below a bound, the index offset by 16, the result stored after the loop
kernel_name: window
dimensions: 1
global_size: 8 0 0
local_size: 4 0 0
arg_in:  0 buffer int[26] 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25
arg_out: 1 buffer int[8] 51 54 57 60 63 66 69 72
arg_in:  2 int 3

[test]
name: no pass of the loop: the address the other branch computes
kernel_name: window
dimensions: 1
global_size: 8 0 0
local_size: 4 0 0
arg_in:  0 buffer int[26] 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25
arg_out: 1 buffer int[8] 0 0 0 0 0 0 0 0
arg_in:  2 int 0

[test]
name: size_t shifted by ctz, masked, clz and popcount
kernel_name: shifts
dimensions: 1
global_size: 8 0 0
local_size: 4 0 0
arg_out: 0 buffer uint[8] 64 65 65 67 66 68 69 71

[test]
name: mul_hi, mad_sat, a switch on the id and the id as a float
kernel_name: ints
dimensions: 1
global_size: 8 0 0
local_size: 4 0 0
arg_out: 0 buffer int[8] 671088635 402653180 134217726 -134217729 -402653183 -671088638 -939524092 939524085
arg_out: 1 buffer uint[8] 0 1073741823 2147483646 3221225469 11 1073741835 2147483658 3221225481
arg_out: 2 buffer int[8] -1879048192 -1073741824 -268435456 536870912 1342177280 2147483647 2147483647 2147483647
arg_out: 3 buffer float[8] 0.0 0.5 1.0 1.5 2.0 2.5 3.0 3.5
arg_out: 4 buffer int[8] -1 10 -1 -1 -1 50 60 -1
!*/

kernel void strided(global const float *in, global float *out, int n) {
    float m = 0.0f;
    for (int i = get_global_id(0); i < n; i += get_local_size(0) * get_num_groups(0)) m += in[i];
    out[get_global_id(0)] = m;
}

kernel void window(global const int *in, global int *out, int w) {
    int g = get_global_id(0), s = 0;
    for (int k = 0; k < w; k++) s += in[g + k + 16];
    out[g] = s;
}

kernel void shifts(global uint *out) {
    size_t g = get_global_id(0), l = get_local_size(0);
    out[g] = (uint)((g >> ctz(l)) * l + (g & (l - 1)) + clz(g) + popcount(g));
}

kernel void ints(global int *hi, global uint *uhi, global int *sat, global float *f, global int *sw) {
    int g = get_global_id(0), v;
    hi[g] = mul_hi(g * 0x20000001 - 0x50000000, -0x7ffffff0);
    uhi[g] = mul_hi((uint)g * 0x40000003u, 0xfffffff1u);
    sat[g] = mad_sat(g - 4, 0x30000000, 0x50000000);
    f[g] = (float)get_global_id(0) * 0.5f;
    switch (get_global_id(0)) {
    case 1: v = 10; break;
    case 5: v = 50; break;
    case 6: v = 60; break;
    default: v = -1;
    }
    sw[g] = v;
}
