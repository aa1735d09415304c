/* 08_vulkan_runtime.c - a plain C program runs Vulkan kernels with the runtime header alone.

   What it shows: what a game or an application ships: no LLVM, no compiler, no gpucompile.h,
   no Vulkan headers or import library. gpucompile_vulkan.h with GPUCOMPILE_VULKAN_RUNTIME opens
   the Vulkan loader at run time (libvulkan.so.1; on Windows vulkan-1.dll) and implements MLIR's
   mgpu* ABI over it. The engine reads the SPIR-V modules examples/07_vulkan.c wrote, reads
   their reflection (gpucompile_vulkan_reflect) and builds each dispatch from it, not from
   knowledge compiled in: the argument array (one buffer per binding in (set, binding) order,
   then each push-constant field from the engine's parameter struct at its reflected offset),
   the workgroup size and the number of workgroups. Then saxpy (on a stream) and a workgroup
   reduction run and their answers are checked. (An engine that owns its VkDevice and its
   submission uses gpucompile_vulkan_program_create and gpucompile_vulkan_record instead:
   examples/09_vulkan_engine.c.)

   Build: cc -std=c11 examples/08_vulkan_runtime.c -I. -ldl -lpthread -o ex08
          (Windows: x86_64-w64-mingw32-gcc -std=c11 examples/08_vulkan_runtime.c -I. -static -lpthread -o ex08.exe)
   Run:   ./ex07 DIR && ./ex08 DIR     (DIR holds saxpy.spv and reduce.spv; exit 0: every answer
          right; 77: no Vulkan device; 1: a wrong answer or a failure, said on stderr) */
#define GPUCOMPILE_VULKAN_RUNTIME
#include "gpucompile_vulkan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;

/* The runtime reports every failure here (a Vulkan result, a refused launch); it never aborts. */
static void on_error(const char *call, int code, const char *message, void *user_data) {
    (void)user_data;
    fprintf(stderr, "vulkan: %s failed (%d): %s\n", call, code, message);
    failures++;
}

/* A kernel as the engine holds it: the module, the function and its reflection. */
typedef struct kernel {
    void *module, *function;
    gpucompile_vulkan_kernel reflection;
} kernel;

static int load(const char *dir, const char *name, kernel *k) {
    char path[1024];
    FILE *f;
    long size;
    void *spirv = NULL;
    int i, n = 0;
    snprintf(path, sizeof path, "%s/%s.spv", dir, name);
    if ((f = fopen(path, "rb")) != NULL && fseek(f, 0, SEEK_END) == 0 && (size = ftell(f)) > 0 && fseek(f, 0, SEEK_SET) == 0 &&
        (spirv = malloc((size_t)size)) != NULL && fread(spirv, 1, (size_t)size, f) == (size_t)size)
        n = gpucompile_vulkan_reflect(spirv, (size_t)size, &k->reflection, 1); /* the module's first entry point */
    if (f) fclose(f);
    if (n > 0) k->module = mgpuModuleLoad(spirv, (size_t)size); /* shader module + a pipeline per entry point */
    free(spirv);
    if (n <= 0 || !k->module || !(k->function = mgpuModuleGetFunction(k->module, k->reflection.name))) {
        fprintf(stderr, "cannot load %s (run examples/07_vulkan.c first)\n", path);
        return 0;
    }
    printf("%s: entry point %s, workgroup %u x %u x %u, layout:", path, k->reflection.name, (unsigned)k->reflection.local_size[0],
           (unsigned)k->reflection.local_size[1], (unsigned)k->reflection.local_size[2]);
    for (i = 0; i < k->reflection.num_bindings; i++)
        printf(" set %u binding %u (%s)", (unsigned)k->reflection.bindings[i].set, (unsigned)k->reflection.bindings[i].binding,
               k->reflection.bindings[i].read_only ? "read-only" : "read-write");
    printf("; push constants %u bytes in %d fields\n", (unsigned)k->reflection.push_size, k->reflection.num_push);
    return 1;
}

/* One dispatch of n invocations along x, built from the reflection: buffers[i] for binding i,
   each push field from params at its offset (params: the engine's struct for the block, at
   least push_size bytes, checked). */
static int dispatch(const kernel *k, unsigned n, void **buffers, int num_buffers, const void *params, size_t params_size,
                    void *stream) {
    const gpucompile_vulkan_kernel *r = &k->reflection;
    void *args[64];
    int i, nargs = 0;
    unsigned wx = r->local_size[0];
    if (num_buffers != r->num_bindings || params_size < r->push_size) {
        fprintf(stderr, "%s: takes %d buffers and %u bytes of push constants\n", r->name, r->num_bindings, (unsigned)r->push_size);
        return 0;
    }
    for (i = 0; i < r->num_bindings; i++) args[nargs++] = &buffers[i];  /* a pointer to the buffer's address */
    for (i = 0; i < r->num_push; i++) args[nargs++] = (char *)params + r->push[i].offset; /* a pointer to the value */
    mgpuLaunchKernel(k->function, (n + wx - 1) / wx, 1, 1, wx, r->local_size[1], r->local_size[2], 0, stream, args, NULL, nargs);
    return 1;
}

int main(int argc, char **argv) {
    const char *dir = argc > 1 ? argv[1] : ".";
    gpucompile_vulkan_runtime_info info;
    kernel saxpy, reduce;
    struct { float a; unsigned n; } saxpy_params; /* the layout of saxpy_vulkan.ll's %PC */
    unsigned n = 1000, groups = 16, i, wrong = 0;
    float *x, *y, *in, *out;
    void *buffers[2], *stream;
    memset(&saxpy, 0, sizeof saxpy);
    memset(&reduce, 0, sizeof reduce);
    gpucompile_runtime_set_error_callback(on_error, NULL);
    if (!gpucompile_runtime_available()) { /* no loader or no device: said once, through on_error */
        printf("no Vulkan device: nothing run\n");
        return 77;
    }
    gpucompile_vulkan_runtime_info_get(&info);
    printf("device: %s (Vulkan %u.%u, %s%s)\n", info.device_name, (unsigned)(info.api_version >> 22),
           (unsigned)((info.api_version >> 12) & 0x3ff), info.push_descriptors ? "push descriptors" : "descriptor sets",
           info.validation ? ", validation layer" : ""); /* GPUCOMPILE_VULKAN_VALIDATION=1: its messages come to on_error */
    if (!load(dir, "saxpy", &saxpy) || !load(dir, "reduce", &reduce)) return 1;

    /* saxpy, y = 3 x + 1, on a stream (a command buffer, submitted at the synchronize) */
    x = (float *)mgpuMemAlloc(n * sizeof(float), NULL, true); /* host-visible: written and read directly */
    y = (float *)mgpuMemAlloc(n * sizeof(float), NULL, true);
    if (!x || !y) return 1;
    for (i = 0; i < n; i++) {
        x[i] = (float)i;
        y[i] = 1.0f;
    }
    saxpy_params.a = 3.0f;
    saxpy_params.n = n;
    buffers[0] = x;
    buffers[1] = y;
    stream = mgpuStreamCreate();
    if (!dispatch(&saxpy, n, buffers, 2, &saxpy_params, sizeof saxpy_params, stream)) return 1;
    mgpuStreamSynchronize(stream);
    mgpuStreamDestroy(stream);
    for (i = 0; i < n; i++) wrong += y[i] != 3.0f * (float)i + 1.0f;
    printf("saxpy: y = 3 x + 1 for %u elements, %u wrong (y[999] = %g)\n", n, wrong, (double)y[n - 1]);

    /* reduce: a sum per workgroup (workgroup memory and barriers); no push constants */
    in = (float *)mgpuMemAlloc(groups * reduce.reflection.local_size[0] * sizeof(float), NULL, true);
    out = (float *)mgpuMemAlloc(groups * sizeof(float), NULL, true);
    if (!in || !out) return 1;
    for (i = 0; i < groups * reduce.reflection.local_size[0]; i++) in[i] = (float)(i % 7);
    buffers[0] = in;
    buffers[1] = out;
    if (!dispatch(&reduce, groups * reduce.reflection.local_size[0], buffers, 2, NULL, 0, NULL)) return 1; /* NULL stream: waits */
    for (i = 0; i < groups; i++) {
        unsigned j, want = 0;
        for (j = 0; j < reduce.reflection.local_size[0]; j++) want += (i * reduce.reflection.local_size[0] + j) % 7;
        wrong += out[i] != (float)want;
    }
    printf("reduce: %u workgroup sums of %u, %s (out[0] = %g)\n", groups, (unsigned)reduce.reflection.local_size[0],
           wrong ? "wrong answers" : "all right", (double)out[0]);

    mgpuMemFree(x, NULL);
    mgpuMemFree(y, NULL);
    mgpuMemFree(in, NULL);
    mgpuMemFree(out, NULL);
    mgpuModuleUnload(saxpy.module);
    mgpuModuleUnload(reduce.module);
    printf("%s\n", wrong || failures ? "FAILED" : "every answer right");
    return wrong || failures;
}
