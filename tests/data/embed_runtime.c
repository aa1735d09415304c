/* A loader-and-launch program on gpucompile's own runtime: the CUDA driver
   (GPUCOMPILE_NVPTX_RUNTIME; -DHIP: HIP, GPUCOMPILE_AMDGPU_RUNTIME), with no LLVM and no
   compiler: plain `cc` (or a C++ compiler), no LLVM include path, only -ldl -lpthread. Linked
   with a host module whose launch function is LAUNCH (default embstub_saxpy_launch); a host
   module of the run-time selection handler is read and selected here too. With the argument
   "callback" the runtime's errors come through gpucompile_runtime_set_error_callback and are
   printed numbered on stdout; else the runtime prints its default lines on stderr. Two
   launches: synchronous, then on a stream with 64 KiB of dynamic shared memory; then a fill on
   the NULL stream, which returns when done (the runtime waits for CUDA's and HIP's). */
#if defined(HIP)
#define GPUCOMPILE_AMDGPU_RUNTIME
#include "gpucompile_amdgpu.h"
#else
#define GPUCOMPILE_NVPTX_RUNTIME
#include "gpucompile_nvptx.h"
#endif
#if defined(__has_include)
#if __has_include(<llvm-c/Core.h>)
#error "this program must build without LLVM's include path"
#endif
#endif
#include <stdio.h>
#include <string.h>

#ifndef LAUNCH
#define LAUNCH embstub_saxpy_launch
#endif
#ifdef __cplusplus
extern "C"
#endif
void LAUNCH(intptr_t, intptr_t, intptr_t, intptr_t, intptr_t, intptr_t, int32_t, void *, void **);

static int errors;
static void on_error(const char *call, int code, const char *message, void *user) {
    (void)user;
    printf("error %d: %s: %d: %s\n", ++errors, call, code, message);
}

int main(int argc, char **argv) {
    float a = 1.0f;
    void *x = NULL, *y = NULL, *stream;
    int n = 0;
    void *args[4];
    args[0] = &a;
    args[1] = &x;
    args[2] = &y;
    args[3] = &n;
    if (argc > 1 && strcmp(argv[1], "callback") == 0) gpucompile_runtime_set_error_callback(on_error, NULL);
    printf("available=%d\n", gpucompile_runtime_available());
    fflush(stdout);
    LAUNCH(1, 1, 1, 32, 1, 1, 0, NULL, args);
    stream = mgpuStreamCreate();
    LAUNCH(2, 1, 1, 64, 1, 1, 65536, stream, args);
    mgpuStreamSynchronize(stream);
    mgpuStreamDestroy(stream);
    mgpuMemset32(y, 0, 0, NULL);
    printf("launched\n");
    return 0;
}
