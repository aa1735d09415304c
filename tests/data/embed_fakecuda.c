/* A fake CUDA driver (built as a shared library and named by GPUCOMPILE_LIBCUDA) that prints
   every call gpucompile's runtime makes, so tests/test_embed.c can check the runtime's side
   without a GPU. The device's compute capability comes from $FAKE_CUDA_CC ("90" = 9.0). An
   image's byte 5 tells the test's fake objects apart; PTX is printed up to its NUL. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int CUresult;
static char handles[64];
static int modules, streams;
static void *ctx = &handles[0];

#define SAY(...) (printf(__VA_ARGS__), printf("\n"), fflush(stdout))

CUresult cuInit(unsigned flags) { SAY("cuInit %u", flags); return 0; }
CUresult cuDeviceGet(int *dev, int ordinal) { SAY("cuDeviceGet %d", ordinal); *dev = ordinal; return 0; }
CUresult cuDeviceGetAttribute(int *value, int attribute, int dev) {
    const char *cc = getenv("FAKE_CUDA_CC");
    int v = cc ? atoi(cc) : 90;
    (void)dev;
    *value = attribute == 75 ? v / 10 : attribute == 76 ? v % 10 : 0;
    return 0;
}
CUresult cuDevicePrimaryCtxRetain(void **c, int dev) { SAY("cuDevicePrimaryCtxRetain %d", dev); *c = ctx; return 0; }
CUresult cuCtxPushCurrent_v2(void *c) { return c == ctx ? 0 : 201; }
CUresult cuCtxPopCurrent_v2(void **c) { *c = ctx; return 0; }
CUresult cuModuleLoadData(void **module, const void *image) {
    *module = &handles[1 + modules++ % 8];
    SAY("cuModuleLoadData image[5]=%c -> module%d", ((const char *)image)[5], modules);
    return 0;
}
CUresult cuModuleLoadDataEx(void **module, const void *image, unsigned n, int *options, void **values) {
    unsigned i;
    long opt = -1;
    for (i = 0; i < n; i++)
        if (options[i] == 7) opt = (long)(size_t)values[i];
    *module = &handles[1 + modules++ % 8];
    SAY("cuModuleLoadDataEx \"%s\" options=%u opt=%ld -> module%d", (const char *)image, n, opt, modules);
    return 0;
}
CUresult cuModuleUnload(void *module) { SAY("cuModuleUnload module%d", (int)((char *)module - handles)); return 0; }
CUresult cuModuleGetFunction(void **fn, void *module, const char *name) {
    *fn = &handles[20];
    SAY("cuModuleGetFunction module%d %s", (int)((char *)module - handles), name);
    return 0;
}
CUresult cuFuncSetAttribute(void *fn, int attribute, int value) { (void)fn; SAY("cuFuncSetAttribute %d %d", attribute, value); return 0; }
CUresult cuLaunchKernel(void *fn, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                        unsigned smem, void *stream, void **params, void **extra) {
    SAY("cuLaunchKernel fn=%s grid=%u,%u,%u block=%u,%u,%u smem=%u stream=%s a=%g extra=%s", fn == &handles[20] ? "ok" : "?",
        gx, gy, gz, bx, by, bz, smem, stream ? "stream" : "null", (double)*(const float *)params[0], extra ? "?" : "null");
    return 0;
}
CUresult cuStreamCreate(void **stream, unsigned flags) { *stream = &handles[30 + streams++ % 8]; SAY("cuStreamCreate flags=%u", flags); return 0; }
CUresult cuStreamSynchronize(void *stream) { SAY("cuStreamSynchronize%s", stream ? "" : " null"); return 0; }
CUresult cuStreamDestroy_v2(void *stream) { (void)stream; SAY("cuStreamDestroy"); return 0; }
CUresult cuMemAlloc_v2(unsigned long long *p, size_t n) { (void)n; *p = 0; return 2; }
CUresult cuMemAllocManaged(unsigned long long *p, size_t n, unsigned f) { (void)n; (void)f; *p = 0; return 2; }
CUresult cuMemFree_v2(unsigned long long p) { (void)p; return 0; }
CUresult cuMemcpyAsync(unsigned long long d, unsigned long long s, size_t n, void *st) { (void)d; (void)s; (void)n; (void)st; return 0; }
CUresult cuMemsetD32Async(unsigned long long d, unsigned v, size_t n, void *st) { (void)d; (void)v; (void)n; SAY("cuMemsetD32Async stream=%s", st ? "stream" : "null"); return 0; }
