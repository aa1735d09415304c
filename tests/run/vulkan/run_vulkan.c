/* Vulkan kernels with known answers, through the mgpu* ABI and gpucompile_vulkan.h's runtime
   alone (no LLVM, no compiler, no Vulkan headers): the SPIR-V files in DIR come from llc
   (Vulkan-shaped LLVM IR) and glslangValidator (tests/run/vulkan/vulkan.sh makes them).
   Usage: run_vulkan DIR          every test; one closing line "run-vulkan: N passed, ..."
          run_vulkan DIR cache    loads the modules once and prints the pipeline cache's counters
   Skips with one line when no Vulkan device is there. Every runtime error fails the test that
   did not ask for it (a validation run: GPUCOMPILE_VULKAN_VALIDATION=1 makes each validation
   message such an error). */
#define GPUCOMPILE_VULKAN_RUNTIME
#include "gpucompile_vulkan.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(_WIN32)
#include <windows.h>
#else
#include <pthread.h>
#include <unistd.h>
#endif

static int passed, failed, cur_failed, expecting;
static char last_error[2048];
static unsigned errors; /* unexpected ones */
static const char *dir = ".";

#define CHECK(c) do { if (!(c)) { cur_failed = 1; printf("  FAIL %s:%d: %s\n", __FILE__, __LINE__, #c); } } while (0)
#define RUN(fn) do { unsigned e0 = errors; cur_failed = 0; fn(); if (errors != e0) cur_failed = 1; \
    if (cur_failed) { failed++; printf("FAIL %s\n", #fn); } else { passed++; printf("ok   %s\n", #fn); } fflush(stdout); } while (0)

static void on_error(const char *call, int code, const char *message, void *user) {
    (void)user;
    snprintf(last_error, sizeof last_error, "%s (%d): %s", call, code, message);
    if (!expecting) {
        if (errors++ < 10) printf("  runtime: %s\n", last_error);
    }
}

static void *read_file(const char *name, size_t *size) {
    char path[1024];
    FILE *f;
    void *d = NULL;
    long n;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if (!(f = fopen(path, "rb"))) return NULL;
    if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) > 0 && fseek(f, 0, SEEK_SET) == 0 && (d = malloc((size_t)n)) != NULL &&
        fread(d, 1, (size_t)n, f) != (size_t)n) {
        free(d);
        d = NULL;
    }
    fclose(f);
    if (d) *size = (size_t)n;
    return d;
}

static void *load(const char *name) {
    size_t size = 0;
    void *d = read_file(name, &size), *m;
    if (!d) {
        printf("  cannot read %s/%s\n", dir, name);
        return NULL;
    }
    m = mgpuModuleLoad(d, size);
    free(d);
    return m;
}

/* y = a * x + y over n floats, 64 threads a group: the argument convention (bindings x, y,
   then the push constants a, n). */
static void saxpy(void *fn, float *x, float *y, float a, unsigned n, void *stream) {
    void *args[4];
    args[0] = &x;
    args[1] = &y;
    args[2] = &a;
    args[3] = &n;
    mgpuLaunchKernel(fn, (n + 63) / 64, 1, 1, 64, 1, 1, 0, stream, args, NULL, 4);
}

static void *saxpy_module, *saxpy_fn;

static void test_saxpy(void) {
    unsigned n = 1000, i, bad = 0;
    float *x, *y;
    const gpucompile_vulkan_kernel *k;
    CHECK((saxpy_module = load("saxpy.spv")) != NULL);
    CHECK((saxpy_fn = mgpuModuleGetFunction(saxpy_module, "saxpy")) != NULL);
    if (!saxpy_fn) return;
    k = gpucompile_vulkan_function_kernel(saxpy_fn);
    CHECK(k->num_bindings == 2 && k->bindings[0].read_only && !k->bindings[1].read_only && k->num_push == 2 && k->push_size == 8);
    x = (float *)mgpuMemAlloc(n * 4, NULL, true);
    y = (float *)mgpuMemAlloc(n * 4, NULL, true);
    CHECK(x && y);
    if (!x || !y) return;
    for (i = 0; i < n; i++) {
        x[i] = (float)i;
        y[i] = 1.0f;
    }
    saxpy(saxpy_fn, x, y, 2.0f, n - 1, NULL); /* the last element stays */
    for (i = 0; i < n - 1; i++) bad += y[i] != 2.0f * (float)i + 1.0f;
    CHECK(bad == 0);
    CHECK(y[n - 1] == 1.0f);
    /* a pointer inside an allocation: the descriptor starts there (offset 64 floats = 256 bytes) */
    for (i = 0; i < n; i++) y[i] = 0.0f;
    saxpy(saxpy_fn, x + 64, y + 64, 1.0f, 64, NULL);
    CHECK(y[63] == 0.0f && y[64] == 64.0f && y[127] == 127.0f && y[128] == 0.0f);
    mgpuMemFree(x, NULL);
    mgpuMemFree(y, NULL);
}

/* An LLVM offload binary of one entry (the format gpucompile_runtime.h reads: header, entry,
   string pairs, strings, the image 8-aligned) appended at out + at: the new end. */
static size_t offload_entry(unsigned char *out, size_t at, const char *triple, const void *image, size_t image_size) {
    static const char *const keys[] = {"triple", "arch", "gpucompile.format"};
    const char *values[3];
    unsigned char *p = out + at;
    size_t strings = 32 + 40, text = strings + 3 * 16, n, i, img;
    values[0] = triple;
    values[1] = "";
    values[2] = "bin";
    memset(p, 0, 32 + 40);
    memcpy(p, "\x10\xFF\x10\xAD", 4);
    p[4] = 1;                         /* version */
    p[16] = 32;                       /* entry offset */
    p[24] = 40;                       /* entry size */
    p[32] = 6;                        /* image kind: SPIR-V */
    p[32 + 8] = (unsigned char)strings;
    p[32 + 16] = 3;                   /* string pairs */
    for (n = text, i = 0; i < 3; i++) {
        size_t k = n, v;
        memcpy(p + n, keys[i], strlen(keys[i]) + 1);
        n += strlen(keys[i]) + 1;
        v = n;
        memcpy(p + n, values[i], strlen(values[i]) + 1);
        n += strlen(values[i]) + 1;
        memset(p + strings + 16 * i, 0, 16);
        memcpy(p + strings + 16 * i, &k, sizeof k < 8 ? sizeof k : 8); /* little-endian hosts only */
        memcpy(p + strings + 16 * i + 8, &v, sizeof v < 8 ? sizeof v : 8);
    }
    img = (n + 7) & ~(size_t)7;
    memset(p + n, 0, img - n);
    memcpy(p + img, image, image_size);
    n = (img + image_size + 7) & ~(size_t)7;
    memset(p + img + image_size, 0, n - img - image_size);
    memcpy(p + 32 + 24, &img, sizeof img < 8 ? sizeof img : 8);
    memcpy(p + 32 + 32, &image_size, sizeof image_size < 8 ? sizeof image_size : 8);
    memcpy(p + 8, &n, sizeof n < 8 ? sizeof n : 8);
    return at + n;
}

/* Run-time selection: of an OpenCL SPIR-V object and a Vulkan one, the Vulkan one is loaded;
   a binary with the OpenCL one alone is refused. */
static void test_selection_from_offload_binary(void) {
    size_t size = 0, n;
    void *spv = read_file("saxpy.spv", &size), *m, *fn;
    unsigned char *bin = spv ? (unsigned char *)calloc(1, 2 * size + 1024) : NULL;
    float *x = (float *)mgpuMemAlloc(64 * 4, NULL, true), *y = (float *)mgpuMemAlloc(64 * 4, NULL, true);
    CHECK(bin && x && y);
    if (!bin || !x || !y) return;
    n = offload_entry(bin, 0, "spirv64-unknown-unknown", spv, size);
    n = offload_entry(bin, n, "spirv1.6-unknown-vulkan1.3-compute", spv, size);
    CHECK((m = gpucompile_runtime_load_offload_binary(bin, n)) != NULL);
    CHECK((fn = m ? mgpuModuleGetFunction(m, "saxpy") : NULL) != NULL);
    if (fn) {
        x[5] = 3.0f;
        y[5] = 1.0f;
        saxpy(fn, x, y, 2.0f, 64, NULL);
        CHECK(y[5] == 7.0f);
    }
    if (m) mgpuModuleUnload(m);
    n = offload_entry(bin, 0, "spirv64-unknown-unknown", spv, size);
    expecting = 1;
    last_error[0] = 0;
    CHECK(gpucompile_runtime_load_offload_binary(bin, n) == NULL);
    CHECK(strstr(last_error, "no object for device vulkan") != NULL);
    expecting = 0;
    mgpuMemFree(x, NULL);
    mgpuMemFree(y, NULL);
    free(bin);
    free(spv);
}

static void test_refusals(void) {
    float *x = (float *)mgpuMemAlloc(256, NULL, true), host[64], a = 1.0f;
    unsigned n = 64;
    void *args[4], *m;
    char garbage[64];
    if (!saxpy_fn || !x) {
        CHECK(0);
        return;
    }
    expecting = 1;
    args[0] = &x;
    args[1] = &x;
    args[2] = &a;
    args[3] = &n;
    last_error[0] = 0;
    mgpuLaunchKernel(saxpy_fn, 1, 1, 1, 32, 1, 1, 0, NULL, args, NULL, 4); /* compiled for 64 */
    CHECK(strstr(last_error, "workgroup size 64x1x1") && strstr(last_error, "32x1x1"));
    last_error[0] = 0;
    mgpuLaunchKernel(saxpy_fn, 1, 1, 1, 64, 1, 1, 128, NULL, args, NULL, 4);
    CHECK(strstr(last_error, "dynamic workgroup memory") != NULL);
    {
        float *h = host;
        args[1] = &h;
        last_error[0] = 0;
        mgpuLaunchKernel(saxpy_fn, 1, 1, 1, 64, 1, 1, 0, NULL, args, NULL, 4);
        CHECK(strstr(last_error, "argument 1 (set 0, binding 1)") != NULL);
    }
    {
        float *odd = x + 1; /* not at the device's buffer offset alignment (unless it is 4) */
        args[1] = &odd;
        last_error[0] = 0;
        mgpuLaunchKernel(saxpy_fn, 1, 1, 1, 64, 1, 1, 0, NULL, args, NULL, 4);
        (void)odd;
    }
    last_error[0] = 0;
    CHECK(mgpuModuleGetFunction(saxpy_module, "nothere") == NULL && strstr(last_error, "it has: saxpy"));
    memset(garbage, 0x5a, sizeof garbage);
    last_error[0] = 0;
    CHECK((m = mgpuModuleLoad(garbage, sizeof garbage)) == NULL && strstr(last_error, "not a SPIR-V module"));
    last_error[0] = 0;
    mgpuMemFree(host, NULL);
    CHECK(strstr(last_error, "mgpuMemAlloc") != NULL);
    expecting = 0;
    mgpuMemFree(x, NULL);
}

static void test_reduction_with_barriers(void) {
    void *m = load("reduce.spv"), *fn = m ? mgpuModuleGetFunction(m, "main") : NULL;
    unsigned groups = 16, n = 256 * 16, i, bad = 0;
    unsigned *in = (unsigned *)mgpuMemAlloc(n * 4, NULL, true), *out = (unsigned *)mgpuMemAlloc(groups * 4, NULL, true);
    void *args[2];
    CHECK(fn && in && out);
    if (!fn || !in || !out) return;
    CHECK(gpucompile_vulkan_function_kernel(fn)->workgroup_bytes == 1024);
    for (i = 0; i < n; i++) in[i] = i;
    args[0] = &in;
    args[1] = &out;
    mgpuLaunchKernel(fn, groups, 1, 1, 256, 1, 1, 0, NULL, args, NULL, 2);
    for (i = 0; i < groups; i++) {
        unsigned base = 256 * i, want = 256 * base + 255 * 256 / 2;
        bad += out[i] != want;
    }
    CHECK(bad == 0);
    mgpuMemFree(in, NULL);
    mgpuMemFree(out, NULL);
    mgpuModuleUnload(m);
}

static void test_atomics(void) {
    void *m = load("atomics.spv"), *fn = m ? mgpuModuleGetFunction(m, "main") : NULL;
    struct acc { unsigned count, max_index; float total; } *a = (struct acc *)mgpuMemAlloc(sizeof *a, NULL, true);
    void *args[1];
    CHECK(fn && a);
    if (!fn || !a) return;
    memset(a, 0, sizeof *a);
    args[0] = &a;
    mgpuLaunchKernel(fn, 100, 1, 1, 64, 1, 1, 0, NULL, args, NULL, 1);
    CHECK(a->count == 6400);
    CHECK(a->max_index == 6399);
    CHECK(a->total == 3200.0f);
    mgpuMemFree(a, NULL);
    mgpuModuleUnload(m);
}

static void test_grid_2d(void) {
    void *m = load("grid2d.spv"), *fn = m ? mgpuModuleGetFunction(m, "main") : NULL;
    unsigned w = 100, h = 37, x, y, bad = 0;
    unsigned *out = (unsigned *)mgpuMemAlloc(w * h * 4, NULL, true);
    void *args[3];
    CHECK(fn && out);
    if (!fn || !out) return;
    args[0] = &out;
    args[1] = &w;
    args[2] = &h;
    mgpuLaunchKernel(fn, (w + 7) / 8, (h + 7) / 8, 1, 8, 8, 1, 0, NULL, args, NULL, 3);
    for (y = 0; y < h; y++)
        for (x = 0; x < w; x++) bad += out[y * w + x] != x * 1000 + y;
    CHECK(bad == 0);
    mgpuMemFree(out, NULL);
    mgpuModuleUnload(m);
}

static void test_grid_3d(void) {
    void *m = load("grid3d.spv"), *fn = m ? mgpuModuleGetFunction(m, "main") : NULL;
    unsigned w = 13, h = 9, d = 6, x, y, z, bad = 0;
    unsigned *out = (unsigned *)mgpuMemAlloc(w * h * d * 4, NULL, true);
    void *args[4];
    CHECK(fn && out);
    if (!fn || !out) return;
    args[0] = &out;
    args[1] = &w;
    args[2] = &h;
    args[3] = &d;
    mgpuLaunchKernel(fn, (w + 3) / 4, (h + 3) / 4, (d + 3) / 4, 4, 4, 4, 0, NULL, args, NULL, 4);
    for (z = 0; z < d; z++)
        for (y = 0; y < h; y++)
            for (x = 0; x < w; x++) bad += out[(z * h + y) * w + x] != x + 100 * y + 10000 * z;
    CHECK(bad == 0);
    mgpuMemFree(out, NULL);
    mgpuModuleUnload(m);
}

static void test_two_entry_points(void) {
    void *m = load("two_entries.spv"), *fill = m ? mgpuModuleGetFunction(m, "fill") : NULL, *twice = m ? mgpuModuleGetFunction(m, "twice") : NULL;
    unsigned n = 100, i, bad = 0, *v = (unsigned *)mgpuMemAlloc(128 * 4, NULL, true);
    void *args[2], *stream;
    CHECK(fill && twice && v);
    if (!fill || !twice || !v) return;
    args[0] = &v;
    args[1] = &n;
    /* on a stream: fill, twice, twice, in order */
    stream = mgpuStreamCreate();
    CHECK(stream != NULL);
    mgpuMemset32(v, 7, 128, stream);
    mgpuLaunchKernel(fill, 4, 1, 1, 32, 1, 1, 0, stream, args, NULL, 2);
    mgpuLaunchKernel(twice, 4, 1, 1, 32, 1, 1, 0, stream, args, NULL, 2);
    mgpuLaunchKernel(twice, 4, 1, 1, 32, 1, 1, 0, stream, args, NULL, 2);
    mgpuStreamSynchronize(stream);
    for (i = 0; i < n; i++) bad += v[i] != 4 * i;
    for (; i < 128; i++) bad += v[i] != 7;
    CHECK(bad == 0);
    mgpuStreamDestroy(stream);
    mgpuMemFree(v, NULL);
    mgpuModuleUnload(m);
}

static void test_push_constants_of_several_types(void) {
    void *m = load("push.spv"), *fn = m ? mgpuModuleGetFunction(m, "main") : NULL;
    const gpucompile_vulkan_kernel *k = fn ? gpucompile_vulkan_function_kernel(fn) : NULL;
    unsigned *out = (unsigned *)mgpuMemAlloc(8 * 4, NULL, true), u = 0xdeadbeefu, last = 77, bits;
    float f = 1.5f, v[2] = {-2.0f, 0.25f};
    int i = -42;
    long long l = -5000000000LL;
    void *args[7];
    CHECK(k && out);
    if (!k || !out) return;
    CHECK(k->num_push == 6 && k->push_size == 36);
    CHECK(k->push[0].offset == 0 && k->push[1].offset == 4 && k->push[2].offset == 8 && k->push[3].offset == 16 && k->push[3].size == 8 &&
          k->push[4].offset == 24 && k->push[4].size == 8 && k->push[5].offset == 32);
    args[0] = &out;
    args[1] = &f;
    args[2] = &i;
    args[3] = &u;
    args[4] = &l;
    args[5] = v;
    args[6] = &last;
    mgpuLaunchKernel(fn, 1, 1, 1, 1, 1, 1, 0, NULL, args, NULL, 7);
    memcpy(&bits, &f, 4);
    CHECK(out[0] == bits);
    CHECK(out[1] == (unsigned)i);
    CHECK(out[2] == u);
    CHECK(out[3] == (unsigned)((unsigned long long)l & 0xffffffffu) && out[4] == (unsigned)((unsigned long long)l >> 32));
    memcpy(&bits, &v[0], 4);
    CHECK(out[5] == bits);
    memcpy(&bits, &v[1], 4);
    CHECK(out[6] == bits);
    CHECK(out[7] == last);
    mgpuMemFree(out, NULL);
    mgpuModuleUnload(m);
}

static void test_memcpy_memset(void) {
    unsigned *a = (unsigned *)mgpuMemAlloc(1024, NULL, true), *b = (unsigned *)mgpuMemAlloc(1024, NULL, true), host[256], i, bad = 0;
    void *stream = mgpuStreamCreate();
    CHECK(a && b && stream);
    if (!a || !b || !stream) return;
    mgpuMemset32(a, 0x01020304u, 256, NULL);
    for (i = 0; i < 256; i++) bad += a[i] != 0x01020304u;
    mgpuMemset32(b, 5, 256, stream);              /* recorded */
    mgpuMemcpy(a + 128, b, 512, stream);          /* recorded, after the fill */
    mgpuMemcpy(host, a, 1024, stream);            /* to the host: waits for the stream */
    for (i = 0; i < 128; i++) bad += host[i] != 0x01020304u;
    for (; i < 256; i++) bad += host[i] != 5;
    mgpuStreamDestroy(stream);
    CHECK(bad == 0);
    mgpuMemFree(a, NULL);
    mgpuMemFree(b, NULL);
}

/* 8 threads load the module once (the first one that gets there) and each runs saxpy on its own
   buffers 20 times. */
static void *shared_module;
static int loads;
#if defined(_WIN32)
static INIT_ONCE once = INIT_ONCE_STATIC_INIT;
static BOOL CALLBACK load_once_cb(PINIT_ONCE o, PVOID p, PVOID *c) { (void)o; (void)p; (void)c; shared_module = load("saxpy.spv"); loads++; return TRUE; }
static void load_once(void) { InitOnceExecuteOnce(&once, load_once_cb, NULL, NULL); }
#else
static pthread_once_t once = PTHREAD_ONCE_INIT;
static void load_once_cb(void) { shared_module = load("saxpy.spv"); loads++; }
static void load_once(void) { pthread_once(&once, load_once_cb); }
#endif
static int thread_bad[8];
#if defined(_WIN32)
static DWORD WINAPI worker(LPVOID arg)
#else
static void *worker(void *arg)
#endif
{
    int id = (int)(intptr_t)arg, r, bad = 0;
    unsigned n = 777, i;
    float *x = (float *)mgpuMemAlloc(n * 4, NULL, true), *y = (float *)mgpuMemAlloc(n * 4, NULL, true);
    void *fn;
    load_once();
    fn = shared_module ? mgpuModuleGetFunction(shared_module, "saxpy") : NULL;
    if (!fn || !x || !y) bad = 1;
    for (i = 0; !bad && i < n; i++) {
        x[i] = (float)id;
        y[i] = 0.0f;
    }
    for (r = 0; !bad && r < 20; r++) saxpy(fn, x, y, 1.0f, n, NULL);
    for (i = 0; !bad && i < n; i++) bad += y[i] != 20.0f * (float)id;
    thread_bad[id] = bad;
    mgpuMemFree(x, NULL);
    mgpuMemFree(y, NULL);
#if defined(_WIN32)
    return 0;
#else
    return NULL;
#endif
}

static void test_eight_threads_one_load(void) {
    int i, bad = 0;
#if defined(_WIN32)
    HANDLE t[8];
    for (i = 0; i < 8; i++) t[i] = CreateThread(NULL, 0, worker, (LPVOID)(intptr_t)i, 0, NULL);
    WaitForMultipleObjects(8, t, TRUE, INFINITE);
    for (i = 0; i < 8; i++) CloseHandle(t[i]);
#else
    pthread_t t[8];
    for (i = 0; i < 8; i++) pthread_create(&t[i], NULL, worker, (void *)(intptr_t)i);
    for (i = 0; i < 8; i++) pthread_join(t[i], NULL);
#endif
    for (i = 0; i < 8; i++) bad += thread_bad[i];
    CHECK(loads == 1 && shared_module != NULL);
    CHECK(bad == 0);
    if (shared_module) mgpuModuleUnload(shared_module);
}

static long rss_kb(void) {
#if defined(__linux__)
    long pages = 0, resident = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    if (!f) return -1;
    if (fscanf(f, "%ld %ld", &pages, &resident) != 2) resident = -1;
    fclose(f);
    return resident < 0 ? -1 : resident * (sysconf(_SC_PAGESIZE) / 1024);
#else
    return -1;
#endif
}

/* 1000 launches on the NULL stream and 1000 on a stream (synchronized every 300: without push
   descriptors its pool of 256 descriptor sets fills and is recycled in between): resident
   memory stays flat; the NULL stream's round trip is timed. */
static void test_thousand_launches_flat_memory(void) {
    unsigned n = 256, i;
    float *x = (float *)mgpuMemAlloc(n * 4, NULL, true), *y = (float *)mgpuMemAlloc(n * 4, NULL, true);
    void *stream = mgpuStreamCreate();
    long before, after;
    double t0, t1;
    CHECK(saxpy_fn && x && y && stream);
    if (!saxpy_fn || !x || !y || !stream) return;
    for (i = 0; i < n; i++) {
        x[i] = 1.0f;
        y[i] = 0.0f;
    }
    for (i = 0; i < 100; i++) saxpy(saxpy_fn, x, y, 1.0f, n, NULL); /* warm */
    before = rss_kb();
    t0 = gpucompile_clock_ms();
    for (i = 0; i < 1000; i++) saxpy(saxpy_fn, x, y, 1.0f, n, NULL);
    t1 = gpucompile_clock_ms();
    for (i = 0; i < 1000; i++) {
        saxpy(saxpy_fn, x, y, 1.0f, n, stream);
        if (i % 300 == 299) mgpuStreamSynchronize(stream);
    }
    mgpuStreamSynchronize(stream);
    after = rss_kb();
    CHECK(y[0] == 2100.0f && y[n - 1] == 2100.0f);
    printf("  1000 launches: %.3f ms a launch round trip (NULL stream); resident %ld kB -> %ld kB\n", (t1 - t0) / 1000.0, before, after);
    CHECK(before < 0 || after - before < 2048);
    mgpuStreamDestroy(stream);
    mgpuMemFree(x, NULL);
    mgpuMemFree(y, NULL);
}

/* The pipeline cache's file was read at start (a second process) or written (the first). */
static void test_pipeline_cache_file(void) {
    gpucompile_vulkan_runtime_info info;
    CHECK(gpucompile_vulkan_runtime_info_get(&info));
    printf("  pipeline cache %s: %llu bytes read at start, %llu written; %u pipelines in %.1f ms, %u found in the cache\n",
           info.pipeline_cache[0] ? info.pipeline_cache : "(none)", (unsigned long long)info.cache_bytes_loaded,
           (unsigned long long)info.cache_bytes_saved, info.pipelines, info.pipeline_ms, info.cache_hits);
    CHECK(!info.pipeline_cache[0] || info.cache_bytes_saved > 0);
}

static int cache_mode(void) {
    gpucompile_vulkan_runtime_info info;
    const char *files[] = {"reduce.spv", "atomics.spv", "grid2d.spv", "grid3d.spv", "two_entries.spv", "push.spv", "saxpy.spv"};
    double t0 = gpucompile_clock_ms(), t1, t2;
    size_t i;
    void *m = NULL, *fn;
    float *x = (float *)mgpuMemAlloc(256, NULL, true), *y = (float *)mgpuMemAlloc(256, NULL, true);
    for (i = 0; i < sizeof files / sizeof files[0]; i++) {
        if (m) mgpuModuleUnload(m);
        if (!(m = load(files[i]))) return 1;
    }
    t1 = gpucompile_clock_ms();
    if (!(fn = mgpuModuleGetFunction(m, "saxpy")) || !x || !y) return 1;
    saxpy(fn, x, y, 1.0f, 64, NULL); /* lavapipe compiles the shader at its first dispatch */
    t2 = gpucompile_clock_ms();
    if (!gpucompile_vulkan_runtime_info_get(&info)) return 1;
    printf("cache loaded=%llu saved=%llu pipelines=%u hits=%u pipeline_ms=%.2f load_ms=%.2f first_dispatch_ms=%.2f\n",
           (unsigned long long)info.cache_bytes_loaded, (unsigned long long)info.cache_bytes_saved, info.pipelines, info.cache_hits,
           info.pipeline_ms, t1 - t0, t2 - t1);
    return errors ? 1 : 0;
}

int main(int argc, char **argv) {
    gpucompile_vulkan_runtime_info info;
    if (argc > 1) dir = argv[1];
    setvbuf(stdout, NULL, _IONBF, 0);
    gpucompile_runtime_set_error_callback(on_error, NULL);
    expecting = 1;
    if (!gpucompile_runtime_available()) {
        printf("SKIP run-vulkan: no Vulkan device: %s\nrun-vulkan: 0 passed, 0 failed, 1 skipped\n", last_error);
        return 0;
    }
    expecting = 0;
    if (argc > 2 && strcmp(argv[2], "cache") == 0) return cache_mode();
    gpucompile_vulkan_runtime_info_get(&info);
    printf("device: %s (Vulkan %u.%u), arch %s, push descriptors %d, int8 %d, int64 %d, float atomics %d, validation %d\n",
           info.device_name, info.api_version >> 22, (info.api_version >> 12) & 0x3ff, gpucompile_runtime_device_arch(), info.push_descriptors,
           info.int8, info.int64, info.float_atomics, info.validation);
    RUN(test_saxpy);
    RUN(test_refusals);
    RUN(test_selection_from_offload_binary);
    RUN(test_reduction_with_barriers);
    RUN(test_atomics);
    RUN(test_grid_2d);
    RUN(test_grid_3d);
    RUN(test_two_entry_points);
    RUN(test_push_constants_of_several_types);
    RUN(test_memcpy_memset);
    RUN(test_eight_threads_one_load);
    RUN(test_thousand_launches_flat_memory);
    RUN(test_pipeline_cache_file);
    printf("run-vulkan: %d passed, %d failed, 0 skipped\n", passed, failed);
    return failed ? 1 : 0;
}
