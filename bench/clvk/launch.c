/* The run-time rows of bench/clvk.sh: one SPIR-V module of tests/run/kernels.cl's OpenCL C
   kernels (gpucompile -f bin), loaded and launched through the mgpu* ABI, each kernel on a larger
   problem than the tests use, synchronously (NULL stream). Built twice from this one file: by
   default with gpucompile_spirv.h's OpenCL runtime (the first OpenCL device that takes SPIR-V),
   with -DRUN_VULKAN with gpucompile_vulkan.h's runtime (the first Vulkan device). No LLVM.
   Usage: launch MODULE.spv REPS
   Prints the device, then one line per measurement, in milliseconds:
     load MS                       mgpuModuleLoad (OpenCL: clBuildProgram of the SPIR-V)
     KERNEL first MS warm MS sum S the first launch (Vulkan: pipeline creation; lavapipe compiles
                                   here), the median of REPS later launches, and a checksum of
                                   the output; "tiny": uses_lib on one group of 64 (a launch's own
                                   cost; its first launch has the pipeline of uses_lib already) */
#define _POSIX_C_SOURCE 200809L
#if defined(RUN_VULKAN)
#define GPUCOMPILE_VULKAN_RUNTIME
#include "gpucompile_vulkan.h"
#else
#define GPUCOMPILE_SPIRV_RUNTIME
#include "gpucompile_spirv.h"
#endif
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define N (1 << 20) /* elements of the 1D kernels */
#define GX 256      /* grid: GX x GY groups of 4 x 2 (the Vulkan module's workgroup size) */
#define GY 512

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static int cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void on_error(const char *call, int code, const char *message, void *user) {
    (void)user;
    fprintf(stderr, "launch: %s (%d): %s\n", call, code, message);
    exit(1);
}

static void *alloc(size_t bytes) {
    void *p = mgpuMemAlloc(bytes, NULL, true);
    if (!p) { fprintf(stderr, "launch: out of memory\n"); exit(1); }
    memset(p, 0, bytes);
    return p;
}

static double sum_of(const void *p, size_t n, int is_float) {
    double s = 0;
    size_t i;
    for (i = 0; i < n; i++) s += is_float ? (double)((const float *)p)[i] : (double)((const int32_t *)p)[i];
    return s;
}

int main(int argc, char **argv) {
    FILE *f;
    long size;
    void *spv, *mod;
    double t0, times[1000];
    int reps, r, k, n = N, gx = GX, gy = GY;
    if (argc < 3) { fprintf(stderr, "usage: launch MODULE.spv REPS\n"); return 2; }
    reps = atoi(argv[2]);
    if (reps < 1 || reps > 1000) reps = 5;
    if (!(f = fopen(argv[1], "rb"))) { perror(argv[1]); return 1; }
    fseek(f, 0, SEEK_END);
    size = ftell(f);
    fseek(f, 0, SEEK_SET);
    spv = malloc((size_t)size);
    if (!spv || fread(spv, 1, (size_t)size, f) != (size_t)size) { fprintf(stderr, "launch: cannot read %s\n", argv[1]); return 1; }
    fclose(f);
    if (!gpucompile_runtime_available()) { printf("SKIP no device\n"); return 77; }
    gpucompile_runtime_set_error_callback(on_error, NULL);
#if defined(RUN_VULKAN)
    {
        gpucompile_vulkan_runtime_info info;
        if (gpucompile_vulkan_runtime_info_get(&info)) printf("device %s\n", info.device_name);
        else printf("device %s\n", gpucompile_runtime_device_arch());
    }
#else
    printf("device %s\n", gpucompile_runtime_device_arch());
#endif
    t0 = now_ms();
    mod = mgpuModuleLoad(spv, (size_t)size);
    printf("load %.3f\n", now_ms() - t0);
    {
        float *x = (float *)alloc((size_t)N * 4), *out = (float *)alloc((size_t)N * 28);
        float *part = (float *)alloc((size_t)(N / 128) * 4);
        uint32_t *in = (uint32_t *)alloc((size_t)N * 4), *bins = (uint32_t *)alloc(17 * 4), *total = (uint32_t *)alloc(4);
        int32_t *grid = (int32_t *)alloc((size_t)GX * 4 * GY * 2 * 8);
        void *scratch = NULL;
        int i;
        for (i = 0; i < N; i++) { x[i] = 0.01f + (float)(i % 2000) * 0.01f; in[i] = (uint32_t)((unsigned)i * 7919u % 1000u); }
        for (k = 0; k < 7; k++) {
            static const char *const names[7] = {"reduce", "reduce_static", "histogram", "grid", "math", "uses_lib", "tiny"};
            void *fn = mgpuModuleGetFunction(mod, k == 6 ? "uses_lib" : names[k]), *args[4];
            int one = 64;
            double first = 0, sum = 0;
            for (r = 0; r <= reps; r++) {
                t0 = now_ms();
                switch (k) {
                case 0: case 1: /* reduce, reduce_static: the in, out, local scratch, n */
                    args[0] = &x; args[1] = &part; args[2] = &scratch; args[3] = &n;
                    mgpuLaunchKernel(fn, N / 128, 1, 1, 128, 1, 1, k == 0 ? 128 * 4 : 0, NULL, args, NULL, 4);
                    break;
                case 2:
                    mgpuMemset32(bins, 0, 17, NULL);
                    mgpuMemset32(total, 0, 1, NULL);
                    args[0] = &in; args[1] = &bins; args[2] = &total; args[3] = &n;
                    mgpuLaunchKernel(fn, N / 64, 1, 1, 64, 1, 1, 0, NULL, args, NULL, 4);
                    break;
                case 3:
                    args[0] = &grid;
                    mgpuLaunchKernel(fn, gx, gy, 1, 4, 2, 1, 0, NULL, args, NULL, 1);
                    break;
                case 4:
                    args[0] = &x; args[1] = &out; args[2] = &n;
                    mgpuLaunchKernel(fn, N / 256, 1, 1, 256, 1, 1, 0, NULL, args, NULL, 3);
                    break;
                case 5: /* x[i] = 3 x[i], on out's first N floats (x stays math's input) */
                    if (r == 0) memcpy(out, x, (size_t)N * 4);
                    args[0] = &out; args[1] = &n;
                    mgpuLaunchKernel(fn, N / 64, 1, 1, 64, 1, 1, 0, NULL, args, NULL, 2);
                    break;
                default: /* tiny: uses_lib on one group of 64: what a launch costs in itself */
                    args[0] = &part; args[1] = &one;
                    mgpuLaunchKernel(fn, 1, 1, 1, 64, 1, 1, 0, NULL, args, NULL, 2);
                    break;
                }
                if (r == 0) first = now_ms() - t0;
                else times[r - 1] = now_ms() - t0;
                if (r == 0) { /* the checksum of the first launch's output */
                    switch (k) {
                    case 0: case 1: sum = sum_of(part, N / 128, 1); break;
                    case 2: sum = sum_of(bins, 17, 0) + *total; break;
                    case 3: sum = sum_of(grid, (size_t)GX * 4 * GY * 2 * 2, 0); break;
                    case 4: sum = sum_of(out, (size_t)N * 7, 1); break;
                    case 5: sum = sum_of(out, N, 1); break;
                    default: sum = 0; break;
                    }
                }
            }
            qsort(times, (size_t)reps, sizeof times[0], cmp);
            printf("%s first %.3f warm %.3f sum %.6g\n", names[k], first, times[reps / 2], sum);
        }
    }
    mgpuModuleUnload(mod);
    return 0;
}
