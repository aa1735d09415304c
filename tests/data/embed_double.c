/* A test double of the mgpu* runtime (MLIR's ABI): every call is printed as one line on stdout,
   handles and known pointers by name (M1, F1, S1, ARGS, ...), and each loaded image is written
   to $EMBED_DUMP/loadN.bin so the test can compare it byte for byte. Used by tests/test_embed.c. */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if !defined(_WIN32)
#include <time.h>
#endif

static struct { const void *p; char name[32]; } names[256];
static int num_names, num_modules, num_functions, num_streams;
static char handles[256]; /* distinct addresses for the handles we hand out */
static int load_delay_ms;
const char *embed_double_sig = ""; /* argument types for printing values: f float, i int32, p pointer */

void embed_double_name(const void *p, const char *name) {
    if (num_names < 256) {
        names[num_names].p = p;
        snprintf(names[num_names].name, sizeof names[num_names].name, "%s", name);
        num_names++;
    }
}

void embed_double_set_load_delay(int ms) { load_delay_ms = ms; }

static const char *pname(const void *p) {
    int i;
    if (!p) return "null";
    for (i = num_names - 1; i >= 0; i--)
        if (names[i].p == p) return names[i].name;
    return "unknown";
}

static void *handle(const char *prefix, int n) {
    char name[32];
    void *h = &handles[(num_modules + num_functions + num_streams) % 256];
    snprintf(name, sizeof name, "%s%d", prefix, n);
    embed_double_name(h, name);
    return h;
}

static void dump(const void *data, size_t size) {
    const char *dir = getenv("EMBED_DUMP");
    char path[4096];
    FILE *f;
    if (!dir) return;
    snprintf(path, sizeof path, "%s/load%d.bin", dir, num_modules);
    if ((f = fopen(path, "wb")) != NULL) {
        fwrite(data, 1, size, f);
        fclose(f);
    }
}

static void wait_a_bit(void) {
#if !defined(_WIN32)
    struct timespec ts;
    ts.tv_sec = load_delay_ms / 1000;
    ts.tv_nsec = (long)(load_delay_ms % 1000) * 1000000L;
    if (load_delay_ms) nanosleep(&ts, NULL);
#endif
}

void *mgpuModuleLoad(void *data, size_t size) {
    void *m;
    wait_a_bit();
    num_modules++;
    dump(data, size);
    m = handle("M", num_modules);
    printf("mgpuModuleLoad size=%zu -> %s\n", size, pname(m));
    fflush(stdout);
    return m;
}

void *mgpuModuleLoadJIT(void *data, int optLevel) {
    void *m;
    size_t size = strlen((const char *)data);
    wait_a_bit();
    num_modules++;
    dump(data, size);
    m = handle("M", num_modules);
    printf("mgpuModuleLoadJIT strlen=%zu opt=%d -> %s\n", size, optLevel, pname(m));
    fflush(stdout);
    return m;
}

/* Our runtime's loader for the run-time selection handler (not MLIR's ABI). */
void *gpucompile_runtime_load_offload_binary(const void *data, size_t size) {
    void *m;
    num_modules++;
    dump(data, size);
    m = handle("M", num_modules);
    printf("gpucompile_runtime_load_offload_binary size=%zu -> %s\n", size, pname(m));
    fflush(stdout);
    return m;
}

void mgpuModuleUnload(void *module) {
    printf("mgpuModuleUnload %s\n", pname(module));
    fflush(stdout);
}

void *mgpuModuleGetFunction(void *module, const char *name) {
    void *f;
    num_functions++;
    f = handle("F", num_functions);
    printf("mgpuModuleGetFunction %s %s -> %s\n", pname(module), name, pname(f));
    fflush(stdout);
    return f;
}

void mgpuLaunchKernel(void *function, intptr_t gridX, intptr_t gridY, intptr_t gridZ, intptr_t blockX,
                      intptr_t blockY, intptr_t blockZ, int32_t smem, void *stream, void **params, void **extra,
                      size_t paramsCount) {
    size_t i;
    printf("mgpuLaunchKernel %s grid=%ld,%ld,%ld block=%ld,%ld,%ld smem=%d stream=%s args=%s extra=%s count=%zu values=[",
           pname(function), (long)gridX, (long)gridY, (long)gridZ, (long)blockX, (long)blockY, (long)blockZ, (int)smem,
           pname(stream), pname(params), pname(extra), paramsCount);
    for (i = 0; params && embed_double_sig[i]; i++) {
        if (i) printf(",");
        if (embed_double_sig[i] == 'f') printf("%g", (double)*(const float *)params[i]);
        else if (embed_double_sig[i] == 'i') printf("%d", *(const int32_t *)params[i]);
        else printf("%s", pname(*(void *const *)params[i]));
    }
    printf("]\n");
    fflush(stdout);
}

void *mgpuStreamCreate(void) {
    void *s;
    num_streams++;
    s = handle("S", num_streams);
    printf("mgpuStreamCreate -> %s\n", pname(s));
    fflush(stdout);
    return s;
}

void mgpuStreamSynchronize(void *stream) {
    printf("mgpuStreamSynchronize %s\n", pname(stream));
    fflush(stdout);
}

void mgpuStreamDestroy(void *stream) {
    printf("mgpuStreamDestroy %s\n", pname(stream));
    fflush(stdout);
}
