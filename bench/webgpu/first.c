/* The host steps of bench/webgpu.sh, timed: a #gpu.webgpu module to its first dispatch through
   gpucompile_webgpu.h's runtime alone (plain cc, no LLVM), on the library $GPUCOMPILE_LIBWEBGPU
   names. Usage: first FILE.spv saxpy|reduce
   Prints one line: "device MS pipeline MS dispatch MS", device the instance, adapter and device
   start, pipeline mgpuModuleLoad (shader module, layouts, compute pipeline), dispatch the first
   launch with its readback, waited for. The answers are checked (exit 1 when wrong; 77: no
   adapter). */
#define GPUCOMPILE_WEBGPU_RUNTIME
#include "gpucompile_webgpu.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void on_error(const char *call, int code, const char *message, void *user_data) {
    (void)user_data;
    fprintf(stderr, "%s failed (%d): %s\n", call, code, message);
}

static double now_ms(void) {
    struct timespec t;
    timespec_get(&t, TIME_UTC);
    return 1000.0 * (double)t.tv_sec + (double)t.tv_nsec / 1e6;
}

int main(int argc, char **argv) {
    gpucompile_webgpu_kernel k;
    static float hin[4096], hout[4096];
    struct { float a; unsigned n; } block = {2.0f, 4096};
    unsigned n = 4096, i, wrong = 0, wx;
    float *in, *out;
    void *spirv, *module, *fn, *args[8];
    long size;
    FILE *f;
    double t0, t1, t2, t3;
    int reduce, nargs = 0;
    if (argc != 3) return fprintf(stderr, "usage: first FILE.spv saxpy|reduce\n"), 2;
    reduce = strcmp(argv[2], "reduce") == 0;
    gpucompile_runtime_set_error_callback(on_error, NULL);
    if (!(f = fopen(argv[1], "rb")) || fseek(f, 0, SEEK_END) || (size = ftell(f)) <= 0 || fseek(f, 0, SEEK_SET) ||
        !(spirv = malloc((size_t)size)) || fread(spirv, 1, (size_t)size, f) != (size_t)size)
        return fprintf(stderr, "cannot read %s\n", argv[1]), 1;
    fclose(f);
    if (gpucompile_webgpu_reflect(spirv, (size_t)size, &k, 1) < 1) return fprintf(stderr, "no entry point in %s\n", argv[1]), 1;
    t0 = now_ms();
    if (!gpucompile_runtime_available()) return 77;
    t1 = now_ms();
    module = mgpuModuleLoad(spirv, (size_t)size);
    fn = module ? mgpuModuleGetFunction(module, k.k.name) : NULL;
    t2 = now_ms();
    in = (float *)mgpuMemAlloc(sizeof hin, NULL, false);
    out = (float *)mgpuMemAlloc(sizeof hout, NULL, false);
    if (!fn || !in || !out) return 1;
    for (i = 0; i < n; i++) {
        hin[i] = (float)(i % 5);
        hout[i] = 1.0f;
    }
    mgpuMemcpy(in, hin, sizeof hin, NULL);
    mgpuMemcpy(out, hout, sizeof hout, NULL);
    args[nargs++] = &in;
    args[nargs++] = &out;
    for (i = 0; i < (unsigned)k.k.num_push && nargs < 8; i++) args[nargs++] = (char *)&block + k.k.push[i].offset;
    wx = k.k.local_size[0];
    t3 = now_ms();
    mgpuLaunchKernel(fn, (n + wx - 1) / wx, 1, 1, wx, 1, 1, 0, NULL, args, NULL, nargs);
    mgpuMemcpy(hout, out, sizeof hout, NULL);
    t3 = now_ms() - t3;
    for (i = 0; i < (reduce ? n / wx : n); i++) {
        float want = 1.0f + 2.0f * (float)(i % 5);
        if (reduce) {
            unsigned j;
            for (want = 0, j = 0; j < wx; j++) want += (float)((i * wx + j) % 5);
        }
        wrong += hout[i] != want;
    }
    printf("device %.3f pipeline %.3f dispatch %.3f\n", t1 - t0, t2 - t1, t3);
    mgpuModuleUnload(module);
    if (wrong) fprintf(stderr, "%u wrong answers\n", wrong);
    return wrong != 0;
}
