/*!
OpenCL's 64-bit size_t in shapes the optimizer leaves, each computed in 32 bits so that the
module declares no Int64 (tests/cli_vulkan.sh checks that too): an int loop counter it widens
to 64 bits, stepping by the grid's size and compared with a sign-extended bound; a counter from
0 to a bound, its index offset by a constant (a sign extension plus a constant shifted by 32);
an address after a loop that the optimizer computes in both branches and joins in a phi; size_t
shifted by a count of its bits, masked, and its bits counted.
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
