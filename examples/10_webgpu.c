/* 10_webgpu.c - compile a kernel for WebGPU and run it on wgpu-native or Dawn.

   What it shows: #gpu.webgpu compiling examples/kernels/saxpy_vulkan.ll (LLVM IR in the Vulkan
   shape: its push-constant block becomes the uniform buffer WebGPU has) into a SPIR-V module that
   both WebGPU implementations' readers take (naga in wgpu-native, Tint in Dawn), its reflection
   (bindings, the uniform block, the workgroup size), and the module run through gpucompile's
   WebGPU runtime with MLIR's mgpu* calls: device buffers, copies through the queue, a launch, a
   readback. The runtime opens the webgpu.h library at run time: $GPUCOMPILE_LIBWEBGPU names it
   (PyPI's wgpu wheel holds libwgpu_native-release.so, dawn-python libwebgpu_dawn_x86_64.so; make
   test-run puts both into build-deps/webgpu), else wgpu-native's and Dawn's usual names. On
   Windows and macOS the same program runs on D3D12 or Metal (docs/webgpu.md).

   Build: cc -std=c11 examples/10_webgpu.c -I. $(llvm-config-22 --cflags --ldflags --libs) -ldl -lpthread -o ex10
   Run:   GPUCOMPILE_LIBWEBGPU=build-deps/webgpu/wgpu/resources/libwgpu_native-release.so ./ex10
          (exit 0: the answers are right; 1: wrong or failed; 77: no SPIR-V target in this LLVM,
          or no WebGPU library or adapter) */
#define GPUCOMPILE_IMPLEMENTATION
#include "gpucompile.h"
#include "gpucompile_webgpu.h"
#define GPUCOMPILE_WEBGPU_RUNTIME /* the runtime in the same file: it needs neither LLVM nor the compiler */
#include "gpucompile_webgpu.h"

#include <stdio.h>
#include <string.h>

static void log_to_stderr(const gpucompile_diagnostic *d, void *user_data) {
    (void)user_data;
    fprintf(stderr, "%s: %s\n", gpucompile_severity_string(d->severity), d->message);
}

static void on_runtime_error(const char *call, int code, const char *message, void *user_data) {
    (void)user_data;
    fprintf(stderr, "runtime: %s (%d): %s\n", call, code, message);
}

int main(void) {
    gpucompile_options options;
    gpucompile_target *target = NULL;
    gpucompile_object *obj = NULL;
    gpucompile_webgpu_runtime_info info;
    const gpucompile_webgpu_kernel *k;
    enum { N = 1000 };
    static float hx[N], hy[N];
    float a = 2.0f, *x, *y;
    unsigned n = N, i, bad = 0;
    void *module, *fn, *args[4];
    memset(&options, 0, sizeof options);
    options.logger.func = log_to_stderr;
    options.format = GPUCOMPILE_FORMAT_BIN;
    /* compile: WebGPU's core limits and features (256 invocations, 16 KiB workgroup memory) */
    if (gpucompile_target_parse("#gpu.webgpu", (size_t)-1, NULL, &options.logger, &target) != GPUCOMPILE_OK) return 1;
    if (gpucompile_target_verify(target, &options.logger) != GPUCOMPILE_OK) {
        gpucompile_target_free(target);
        return 77;
    }
    if (gpucompile_compile_file("examples/kernels/saxpy_vulkan.ll", target, &options, &obj) != GPUCOMPILE_OK) {
        gpucompile_target_free(target);
        return 1;
    }
    printf("saxpy for #gpu.webgpu: %zu bytes of SPIR-V; %s\n", obj->size, obj->kernels[0].metadata);
    /* run */
    gpucompile_runtime_set_error_callback(on_runtime_error, NULL);
    if (!gpucompile_webgpu_runtime_info_get(&info)) {
        printf("no WebGPU library or adapter (set GPUCOMPILE_LIBWEBGPU)\n");
        gpucompile_object_free(obj);
        gpucompile_target_free(target);
        return 77;
    }
    printf("%s: %s on %s\n", info.implementation, info.adapter, info.backend);
    module = mgpuModuleLoad(obj->data, obj->size); /* the shader module and its pipeline, made once */
    fn = module ? mgpuModuleGetFunction(module, "saxpy") : NULL;
    if (!fn) return 1;
    k = gpucompile_webgpu_function_kernel(fn);
    printf("reflection: %d bindings, uniform block of %u bytes at binding %u, workgroup %u\n", k->k.num_bindings, (unsigned)k->k.push_size,
           (unsigned)k->uniform_binding, (unsigned)k->k.local_size[0]);
    for (i = 0; i < N; i++) { hx[i] = (float)i; hy[i] = 1.0f; }
    x = (float *)mgpuMemAlloc(sizeof hx, NULL, false); /* device buffers; the host reaches them through mgpuMemcpy */
    y = (float *)mgpuMemAlloc(sizeof hy, NULL, false);
    mgpuMemcpy(x, hx, sizeof hx, NULL);
    mgpuMemcpy(y, hy, sizeof hy, NULL);
    args[0] = &x; /* the bindings in order, then the uniform block's members: a, n */
    args[1] = &y;
    args[2] = &a;
    args[3] = &n;
    mgpuLaunchKernel(fn, (N + 63) / 64, 1, 1, 64, 1, 1, 0, NULL, args, NULL, 4);
    mgpuMemcpy(hy, y, sizeof hy, NULL); /* on the NULL stream: the data are here when it returns */
    for (i = 0; i < N; i++) bad += hy[i] != 2.0f * (float)i + 1.0f;
    printf("y = 2 x + 1 over %u floats: %s\n", n, bad ? "WRONG" : "right");
    mgpuMemFree(x, NULL);
    mgpuMemFree(y, NULL);
    mgpuModuleUnload(module);
    gpucompile_object_free(obj);
    gpucompile_target_free(target);
    return bad != 0;
}
