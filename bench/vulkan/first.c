/* The host steps of bench/vulkan.sh, timed: a SPIR-V module to its first dispatch through
   gpucompile_vulkan.h's runtime alone (plain cc, no LLVM), the same for every compiler's module.
   Usage: first FILE.spv saxpy|reduce
          first --device       (the device's name)
   Prints one line: "device MS pipeline MS dispatch MS cache_loaded BYTES cache_hits N", where
   device is the Vulkan instance and device start, pipeline mgpuModuleLoad (the shader module,
   layouts and compute pipeline, through the pipeline cache), dispatch the first launch, waited
   for (lavapipe compiles the shader there, through Mesa's shader cache). The arguments come
   from the module's reflection; the answers are checked (exit 1 when wrong). */
#define GPUCOMPILE_VULKAN_RUNTIME
#include "gpucompile_vulkan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int errors;

static void on_error(const char *call, int code, const char *message, void *user_data) {
    (void)user_data;
    fprintf(stderr, "%s failed (%d): %s\n", call, code, message);
    errors++;
}

static double now_ms(void) {
    struct timespec t;
    timespec_get(&t, TIME_UTC);
    return 1000.0 * (double)t.tv_sec + (double)t.tv_nsec / 1e6;
}

int main(int argc, char **argv) {
    gpucompile_vulkan_kernel k;
    gpucompile_vulkan_runtime_info info;
    struct { float a; unsigned n; } push = {2.0f, 4096};
    unsigned n = 4096, i, wrong = 0, wx;
    float *in, *out;
    void *spirv, *module, *fn, *args[8];
    long size;
    FILE *f;
    double t0, t1, t2, t3;
    int reduce, nargs = 0;
    if (argc == 2 && strcmp(argv[1], "--device") == 0 && gpucompile_vulkan_runtime_info_get(&info))
        return printf("%s, Vulkan %u.%u\n", info.device_name, (unsigned)(info.api_version >> 22), (unsigned)((info.api_version >> 12) & 0x3ff)), 0;
    if (argc != 3) return fprintf(stderr, "usage: first FILE.spv saxpy|reduce | --device\n"), 2;
    reduce = strcmp(argv[2], "reduce") == 0;
    gpucompile_runtime_set_error_callback(on_error, NULL);
    if (!(f = fopen(argv[1], "rb")) || fseek(f, 0, SEEK_END) || (size = ftell(f)) <= 0 || fseek(f, 0, SEEK_SET) ||
        !(spirv = malloc((size_t)size)) || fread(spirv, 1, (size_t)size, f) != (size_t)size)
        return fprintf(stderr, "cannot read %s\n", argv[1]), 1;
    fclose(f);
    if (gpucompile_vulkan_reflect(spirv, (size_t)size, &k, 1) < 1) return fprintf(stderr, "no entry point in %s\n", argv[1]), 1;
    t0 = now_ms();
    if (!gpucompile_runtime_available()) return 77;
    t1 = now_ms();
    module = mgpuModuleLoad(spirv, (size_t)size);
    fn = module ? mgpuModuleGetFunction(module, k.name) : NULL;
    t2 = now_ms();
    in = (float *)mgpuMemAlloc(n * sizeof(float), NULL, true);
    out = (float *)mgpuMemAlloc(n * sizeof(float), NULL, true);
    if (!fn || !in || !out) return 1;
    for (i = 0; i < n; i++) {
        in[i] = (float)(i % 5);
        out[i] = 1.0f;
    }
    args[nargs++] = &in;
    args[nargs++] = &out;
    for (i = 0; i < (unsigned)k.num_push && nargs < 8; i++) args[nargs++] = (char *)&push + k.push[i].offset;
    wx = k.local_size[0];
    t3 = now_ms();
    mgpuLaunchKernel(fn, (n + wx - 1) / wx, 1, 1, wx, 1, 1, 0, NULL, args, NULL, nargs); /* NULL stream: waited for */
    t3 = now_ms() - t3;
    for (i = 0; i < (reduce ? n / wx : n); i++) {
        float want = 1.0f + 2.0f * (float)(i % 5);
        if (reduce) {
            unsigned j;
            for (want = 0, j = 0; j < wx; j++) want += (float)((i * wx + j) % 5);
        }
        wrong += out[i] != want;
    }
    gpucompile_vulkan_runtime_info_get(&info);
    printf("device %.3f pipeline %.3f dispatch %.3f cache_loaded %llu cache_hits %u\n", t1 - t0, t2 - t1, t3,
           (unsigned long long)info.cache_bytes_loaded, info.cache_hits);
    mgpuModuleUnload(module);
    if (wrong) fprintf(stderr, "%u wrong answers\n", wrong);
    return wrong || errors;
}
