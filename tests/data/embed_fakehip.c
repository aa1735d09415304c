/* A fake HIP runtime (built as a shared library and named by GPUCOMPILE_LIBHIP) that prints
   every call gpucompile's AMDGPU runtime makes, so tests/test_embed.c can check it without a
   GPU. hipGetDevicePropertiesR0600 puts $FAKE_HIP_ARCH (default gfx90a:sramecc+:xnack-) where
   ROCm 6 keeps gcnArchName, after the marketing name. An image's byte 5 tells the test's fake
   objects apart. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int hipError_t;
static char handles[64];
static int modules, streams;

#define SAY(...) (printf(__VA_ARGS__), printf("\n"), fflush(stdout))

hipError_t hipInit(unsigned flags) { SAY("hipInit %u", flags); return 0; }
hipError_t hipGetDeviceCount(int *count) { *count = 1; return 0; }
hipError_t hipSetDevice(int dev) { return dev == 0 ? 0 : 101; }
hipError_t hipGetDevicePropertiesR0600(void *props, int dev) {
    const char *arch = getenv("FAKE_HIP_ARCH");
    (void)dev;
    strcpy((char *)props, "AMD Instinct MI210");
    memset((char *)props + 300, 7, 16); /* numbers in between */
    strcpy((char *)props + 1160, arch ? arch : "gfx90a:sramecc+:xnack-");
    return 0;
}
hipError_t hipModuleLoadData(void **module, const void *image) {
    *module = &handles[1 + modules++ % 8];
    SAY("hipModuleLoadData image[5]=%c -> module%d", ((const char *)image)[5], modules);
    return 0;
}
hipError_t hipModuleUnload(void *module) { SAY("hipModuleUnload module%d", (int)((char *)module - handles)); return 0; }
hipError_t hipModuleGetFunction(void **fn, void *module, const char *name) {
    *fn = &handles[20];
    SAY("hipModuleGetFunction module%d %s", (int)((char *)module - handles), name);
    return 0;
}
hipError_t hipModuleLaunchKernel(void *fn, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                                 unsigned smem, void *stream, void **params, void **extra) {
    SAY("hipModuleLaunchKernel fn=%s grid=%u,%u,%u block=%u,%u,%u smem=%u stream=%s a=%g extra=%s", fn == &handles[20] ? "ok" : "?",
        gx, gy, gz, bx, by, bz, smem, stream ? "stream" : "null", (double)*(const float *)params[0], extra ? "?" : "null");
    return 0;
}
hipError_t hipStreamCreate(void **stream) { *stream = &handles[30 + streams++ % 8]; SAY("hipStreamCreate"); return 0; }
hipError_t hipStreamSynchronize(void *stream) { SAY("hipStreamSynchronize%s", stream ? "" : " null"); return 0; }
hipError_t hipStreamDestroy(void *stream) { (void)stream; SAY("hipStreamDestroy"); return 0; }
hipError_t hipMalloc(void **p, size_t n) { (void)n; *p = NULL; return 2; }
hipError_t hipMallocManaged(void **p, size_t n, unsigned f) { (void)n; (void)f; *p = NULL; return 2; }
hipError_t hipFree(void *p) { (void)p; return 0; }
hipError_t hipMemcpyAsync(void *d, const void *s, size_t n, int k, void *st) { (void)d; (void)s; (void)n; (void)k; (void)st; return 0; }
hipError_t hipMemsetD32Async(void *d, int v, size_t n, void *st) { (void)d; (void)v; (void)n; SAY("hipMemsetD32Async stream=%s", st ? "stream" : "null"); return 0; }
