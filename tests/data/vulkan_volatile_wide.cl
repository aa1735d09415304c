/*!
Volatile accesses of vectors wider than 4 lanes (LLVM's scalarizer leaves them whole; the lowering
splits them lane by lane, each lane volatile): a long16 in private memory, an int8 in a buffer.
And a private variable's address as an integer (its alignment tested, as piglit's
realign-stack.cl does): a number of its own, aligned. k = 3: the long16 all 3 but lane 3, 5.
The format is piglit's (tests/corpus/piglit_run.c runs it; tests/cli_vulkan.sh says how).
[config]
name: volatile wide vectors
clc_version_min: 11

[test]
name: volatile long16 and int8
kernel_name: wide
dimensions: 1
global_size: 1 0 0
local_size: 1 0 0
arg_out: 0 buffer int[8] 3 6 9 12 15 18 21 24
arg_in:  0 buffer int[8] repeat 0
arg_out: 1 buffer long[2] 11 24
arg_in:  1 buffer long[2] 0 0
arg_in:  2 int 3

[test]
name: an aligned address
kernel_name: aligned
dimensions: 1
global_size: 1 0 0
local_size: 1 0 0
arg_out: 0 buffer int[1] 1
arg_in:  0 buffer int[1] 0
!*/

kernel void wide(global int8 *buf, global long *out, int k) {
    volatile long16 v = (long16)(k);
    long16 w = v;
    w.s3 = 5;
    v = w;
    w = v;
    out[0] = w.s0 + w.s3 + w.sf;
    volatile global int8 *p = buf;
    *p = (int8)(1, 2, 3, 4, 5, 6, 7, 8) * k;
    int8 r = *p;
    out[1] = r.s7;
}

kernel void aligned(global int *out) {
    volatile long16 x = 0;
    volatile uintptr_t a = (uintptr_t)&x;
    out[0] = (a & 127) == 0;
}
