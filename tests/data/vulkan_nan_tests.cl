/*!
NaN tests, which clang writes as fcmp uno and ord (OpUnordered and OpOrdered: the Kernel
capability's, not a shader's): isnan, isordered, isunordered, and x != x (which the optimizer
writes as fcmp uno).
The format is piglit's (tests/corpus/piglit_run.c runs it; tests/cli_vulkan.sh says how).
[config]
name: NaN tests
clc_version_min: 10

[test]
name: isnan, isordered, isunordered
kernel_name: nan_tests
dimensions: 1
global_size: 4 0 0
arg_out: 0 buffer int[4] 6 9 8 6
arg_in:  1 buffer float[4] 1.0 nan 2.0 -inf
arg_in:  2 buffer float[4] 1.0 1.0 nan 3.0
!*/

kernel void nan_tests(global int *o, global const float *a, global const float *b) {
    int i = (int)get_global_id(0);
    o[i] = isnan(a[i]) + 2 * isordered(a[i], b[i]) + 4 * (isunordered(a[i], b[i]) == 0) + 8 * (a[i] != a[i] || b[i] != b[i]);
}
