/* The launch code `gpucompile --host` writes (the same as for CUDA, HIP, OpenCL and Vulkan), from
   a binary holding every backend's saxpy (tests/run/webgpu.sh: sx_saxpy_launch, run-time
   selection), linked with gpucompile_webgpu.h's runtime alone: MLIR's mgpu* ABI and nothing else;
   with -DRUN_VULKAN the same program with gpucompile_vulkan.h's runtime (the same binary: its
   selection takes the Vulkan object).
   Usage: host_webgpu; one line per test and "run-webgpu-host: N passed, M failed"; skips with one
   line when no adapter (device) is there. */
#if defined(RUN_VULKAN)
#define GPUCOMPILE_VULKAN_RUNTIME
#include "gpucompile_vulkan.h"
#else
#define GPUCOMPILE_WEBGPU_RUNTIME
#include "gpucompile_webgpu.h"
#endif
#include <stdio.h>
#include <string.h>

void sx_saxpy_launch(intptr_t gx, intptr_t gy, intptr_t gz, intptr_t bx, intptr_t by, intptr_t bz, int32_t smem, void *stream, void **args);

static int errors;
static char last[1024];
static void on_error(const char *call, int code, const char *message, void *user) {
    (void)user;
    snprintf(last, sizeof last, "%s (%d): %s", call, code, message);
    if (errors++ < 5) printf("  runtime: %s\n", last);
}

/* y = a x + y over n floats through the host module's launch function; 1 when right */
static int saxpy(void *stream, int n) {
    static float hx[5000], hy[5000];
    float a = 2.0f, *x, *y;
    void *args[4];
    int i, bad = 0;
    x = (float *)mgpuMemAlloc(sizeof hx, stream, false);
    y = (float *)mgpuMemAlloc(sizeof hy, stream, false);
    if (!x || !y) return 0;
    for (i = 0; i < 5000; i++) { hx[i] = (float)i; hy[i] = 1.0f; }
    mgpuMemcpy(x, hx, sizeof hx, stream);
    mgpuMemcpy(y, hy, sizeof hy, stream);
    args[0] = &a; args[1] = &x; args[2] = &y; args[3] = &n;
    sx_saxpy_launch((n + 63) / 64, 1, 1, 64, 1, 1, 0, stream, args);
    memset(hy, 0, sizeof hy);
    mgpuMemcpy(hy, y, sizeof hy, stream);
    if (stream) mgpuStreamSynchronize(stream);
    for (i = 0; i < 5000; i++) bad += hy[i] != (i < n ? 2.0f * (float)i + 1.0f : 1.0f);
    mgpuMemFree(x, stream);
    mgpuMemFree(y, stream);
    return bad == 0;
}

int main(void) {
    int passed = 0, failed = 0, ok;
    void *s;
    gpucompile_runtime_set_error_callback(on_error, NULL);
    mgpuSetDefaultDevice(0);
    if (!gpucompile_runtime_available()) {
        printf("SKIP run-webgpu-host: no device (%s)\n", last);
        return 0;
    }
    errors = 0;
    printf("runtime: %s\n", gpucompile_runtime_device_arch());
    ok = saxpy(NULL, 1000) && errors == 0;
    printf("%s saxpy through sx_saxpy_launch, the NULL stream\n", ok ? "ok  " : "FAIL");
    ok ? passed++ : failed++;
    s = mgpuStreamCreate();
    ok = s && saxpy(s, 4097) && errors == 0;
    printf("%s saxpy through sx_saxpy_launch, a stream (the readback valid after mgpuStreamSynchronize)\n", ok ? "ok  " : "FAIL");
    ok ? passed++ : failed++;
    mgpuStreamDestroy(s);
    printf("run-webgpu-host: %d passed, %d failed\n", passed, failed);
    return failed != 0;
}
