/*!
An element chosen by a condition, folded by clang into a choice between two byte offsets
(a select of the offsets: silx's max_min.cl reads `lid < size ? data[lid] : data[0]`).
The format is piglit's (tests/corpus/piglit_run.c runs it; tests/cli_vulkan.sh says how).
[config]
name: a select of byte offsets
clc_version_min: 11

[test]
name: the first 3 elements, then element 0
kernel_name: pick
dimensions: 1
global_size: 8 0 0
local_size: 8 0 0
arg_out: 1 buffer float[8] 10 11 12 10 10 10 10 10
arg_in:  0 buffer float[8] 10 11 12 13 14 15 16 17
arg_in:  2 int 3
!*/

static float read(int i, global const float *in) { return in[i]; }

kernel void pick(global const float *in, global float *out, int n) {
    int lid = get_local_id(0);
    float v;
    if (lid < n) v = read(lid, in);
    else v = read(0, in);
    out[lid] = v;
}
