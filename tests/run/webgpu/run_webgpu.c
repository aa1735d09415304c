/* Kernels with known answers, compiled for #gpu.webgpu by gpucompile (tests/run/webgpu.sh makes
   them) and run through MLIR's mgpu* ABI and gpucompile_webgpu.h's runtime alone (no LLVM, no
   compiler, no webgpu.h): on wgpu-native or Dawn, whichever $GPUCOMPILE_LIBWEBGPU names.
   Usage: run_webgpu DIR      DIR holds kernels.spv (tests/run/webgpu/kernels.cl), cas.spv, saxpy.spv,
                              reduce.spv, two_entries.spv (Vulkan-shaped IR) and all.bin (an
                              offload binary with every backend's object)
   Prints one line per test and a closing "run-webgpu: N passed, M failed"; skips with one line
   when no WebGPU adapter is there. Every runtime error fails the test that did not ask for it. */
#define GPUCOMPILE_WEBGPU_RUNTIME
#include "gpucompile_webgpu.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int passed, failed, cur_failed, expecting;
static char last_error[2048];
static unsigned errors;
static const char *dir = ".";
static char implementation[32]; /* the runtime's: "wgpu-native", "Dawn" */

#define CHECK(c) do { if (!(c)) { cur_failed = 1; printf("  FAIL %s:%d: %s\n", __FILE__, __LINE__, #c); } } while (0)
#define RUN(fn) do { unsigned e0 = errors; cur_failed = 0; fn(); if (errors != e0) cur_failed = 1; \
    if (cur_failed) { failed++; printf("FAIL %s\n", #fn); } else { passed++; printf("ok   %s\n", #fn); } fflush(stdout); } while (0)

static void on_error(const char *call, int code, const char *message, void *user) {
    (void)user;
    snprintf(last_error, sizeof last_error, "%s (%d): %s", call, code, message);
    if (!expecting && errors++ < 10) printf("  runtime: %s\n", last_error);
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

/* device memory: filled from and read back to the host through mgpuMemcpy */
static void *dev(const void *host, size_t bytes) {
    void *p = mgpuMemAlloc(bytes, NULL, false);
    if (p && host) mgpuMemcpy(p, (void *)host, bytes, NULL);
    return p;
}

static void *kernels;

/* saxpy(float a, global const float *x, global float *y, int n): the OpenCL parameter order */
static void test_pointer_saxpy(void) {
    enum { N = 1000 };
    static float hx[N], hy[N];
    void *fn, *args[4];
    float a = 2.0f, *x, *y;
    int n = N - 1, i, bad = 0;
    const gpucompile_webgpu_kernel *k;
    CHECK((kernels = load("kernels.spv")) != NULL);
    CHECK((fn = kernels ? mgpuModuleGetFunction(kernels, "saxpy") : NULL) != NULL);
    if (!fn) return;
    k = gpucompile_webgpu_function_kernel(fn);
    CHECK(k->has_uniforms && k->k.num_params == 4 && k->k.num_bindings == 2 && k->k.bindings[0].read_only && !k->k.bindings[1].read_only);
    for (i = 0; i < N; i++) { hx[i] = (float)i; hy[i] = 1.0f; }
    x = (float *)dev(hx, sizeof hx);
    y = (float *)dev(hy, sizeof hy);
    args[0] = &a; args[1] = &x; args[2] = &y; args[3] = &n;
    mgpuLaunchKernel(fn, (N + 63) / 64, 1, 1, 64, 1, 1, 0, NULL, args, NULL, 4);
    mgpuMemcpy(hy, y, sizeof hy, NULL);
    for (i = 0; i < N - 1; i++) bad += hy[i] != 2.0f * (float)i + 1.0f;
    CHECK(bad == 0 && hy[N - 1] == 1.0f);
    mgpuMemFree(x, NULL);
    mgpuMemFree(y, NULL);
}

/* workgroup memory and barriers: a local parameter sized by the launch, and a local array */
static void test_reductions(void) {
    enum { N = 1000, G = (N + 127) / 128 };
    static float in[N];
    static int iin[N];
    float out[G], expect[G];
    int iout[G], iexpect[G], i, n = N, bad = 0;
    void *r = kernels ? mgpuModuleGetFunction(kernels, "reduce") : NULL, *rs = kernels ? mgpuModuleGetFunction(kernels, "reduce_static") : NULL;
    void *din, *dout, *diin, *diout, *scratch = NULL, *args[4];
    CHECK(r && rs);
    if (!r || !rs) return;
    memset(expect, 0, sizeof expect);
    memset(iexpect, 0, sizeof iexpect);
    for (i = 0; i < N; i++) {
        in[i] = (float)(i % 7);
        iin[i] = i % 13 - 3;
        expect[i / 128] += in[i];
        iexpect[i / 128] += iin[i];
    }
    din = dev(in, sizeof in); dout = dev(NULL, sizeof out); diin = dev(iin, sizeof iin); diout = dev(NULL, sizeof iout);
    args[0] = &din; args[1] = &dout; args[2] = &scratch; args[3] = &n;
    mgpuLaunchKernel(r, G, 1, 1, 128, 1, 1, 128 * 4, NULL, args, NULL, 4);
    args[0] = &diin; args[1] = &diout; args[2] = &n;
    mgpuLaunchKernel(rs, G, 1, 1, 128, 1, 1, 0, NULL, args, NULL, 3);
    mgpuMemcpy(out, dout, sizeof out, NULL);
    mgpuMemcpy(iout, diout, sizeof iout, NULL);
    for (i = 0; i < G; i++) bad += out[i] != expect[i] || iout[i] != iexpect[i];
    CHECK(bad == 0);
    mgpuMemFree(din, NULL); mgpuMemFree(dout, NULL); mgpuMemFree(diin, NULL); mgpuMemFree(diout, NULL);
}

static void test_atomics(void) {
    enum { N = 1000 };
    static unsigned in[N];
    unsigned bins[17], total = 0, expect[17], etotal = 0, zero[17];
    void *fn = kernels ? mgpuModuleGetFunction(kernels, "histogram") : NULL, *din, *dbins, *dtotal, *args[4];
    int i, n = N, bad = 0;
    CHECK(fn != NULL);
    if (!fn) return;
    memset(expect, 0, sizeof expect);
    memset(zero, 0, sizeof zero);
    for (i = 0; i < N; i++) {
        in[i] = (unsigned)(i * 7919 % 1009);
        expect[in[i] % 16]++;
        etotal += in[i];
        if (in[i] > expect[16]) expect[16] = in[i];
    }
    din = dev(in, sizeof in); dbins = dev(zero, sizeof bins); dtotal = dev(zero, 4);
    args[0] = &din; args[1] = &dbins; args[2] = &dtotal; args[3] = &n;
    mgpuLaunchKernel(fn, (N + 63) / 64, 1, 1, 64, 1, 1, 0, NULL, args, NULL, 4);
    mgpuMemcpy(bins, dbins, sizeof bins, NULL);
    mgpuMemcpy(&total, dtotal, 4, NULL);
    for (i = 0; i < 16; i++) bad += bins[i] != expect[i];
    CHECK(bad == 0 && total == etotal && bins[16] == expect[16]);
    mgpuMemFree(din, NULL); mgpuMemFree(dbins, NULL); mgpuMemFree(dtotal, NULL);
}

static void test_grids_2d_3d(void) {
    enum { GX = 4, GY = 3, W = GX * 8, H = GY * 4 };
    static int out2[2 * W * H];
    static unsigned out3[9 * 10 * 7];
    void *g2 = kernels ? mgpuModuleGetFunction(kernels, "grid2d") : NULL, *g3 = kernels ? mgpuModuleGetFunction(kernels, "grid3d") : NULL;
    void *d2, *d3, *args[4];
    int width = 5, x, y, z, bad = 0;
    unsigned w = 9, h = 10, d = 7;
    CHECK(g2 && g3);
    if (!g2 || !g3) return;
    d2 = dev(NULL, sizeof out2);
    args[0] = &d2; args[1] = &width;
    mgpuLaunchKernel(g2, GX, GY, 1, 8, 4, 1, 0, NULL, args, NULL, 2);
    mgpuMemcpy(out2, d2, sizeof out2, NULL);
    for (y = 0; y < H; y++)
        for (x = 0; x < W; x++) {
            int i = y * W + x;
            bad += out2[2 * i] != x + 1000 * y || out2[2 * i + 1] != x / 8 + 100 * (y / 4) + 10000 * 4 + width;
        }
    d3 = dev(NULL, sizeof out3);
    args[0] = &d3; args[1] = &w; args[2] = &h; args[3] = &d;
    mgpuLaunchKernel(g3, (w + 3) / 4, (h + 3) / 4, (d + 3) / 4, 4, 4, 4, 0, NULL, args, NULL, 4);
    mgpuMemcpy(out3, d3, sizeof out3, NULL);
    for (z = 0; z < (int)d; z++)
        for (y = 0; y < (int)h; y++)
            for (x = 0; x < (int)w; x++) bad += out3[(z * (int)h + y) * (int)w + x] != (unsigned)(x + 100 * y + 10000 * z);
    CHECK(bad == 0);
    mgpuMemFree(d2, NULL);
    mgpuMemFree(d3, NULL);
}

static void test_math_blur_private(void) {
    enum { N = 100 };
    float x[N], out[4 * N], blur[N];
    int in[N], pa[N], i, n = N, bad = 0;
    static const float weights[5] = {0.0625f, 0.25f, 0.375f, 0.25f, 0.0625f};
    void *m = kernels ? mgpuModuleGetFunction(kernels, "math") : NULL, *b = kernels ? mgpuModuleGetFunction(kernels, "blur") : NULL;
    void *p = kernels ? mgpuModuleGetFunction(kernels, "private_array") : NULL, *dx, *dout, *dblur, *din, *dpa, *args[3];
    CHECK(m && b && p);
    if (!m || !b || !p) return;
    for (i = 0; i < N; i++) { x[i] = (float)i / 10.0f; in[i] = (i * 37) % 101; }
    dx = dev(x, sizeof x); dout = dev(NULL, sizeof out); dblur = dev(NULL, sizeof blur); din = dev(in, sizeof in); dpa = dev(NULL, 64 * 2 * 4);
    args[0] = &dx; args[1] = &dout; args[2] = &n;
    mgpuLaunchKernel(m, (N + 63) / 64, 1, 1, 64, 1, 1, 0, NULL, args, NULL, 3);
    args[1] = &dblur;
    mgpuLaunchKernel(b, (N + 63) / 64, 1, 1, 64, 1, 1, 0, NULL, args, NULL, 3);
    args[0] = &din; args[1] = &dpa;
    mgpuLaunchKernel(p, 1, 1, 1, 64, 1, 1, 0, NULL, args, NULL, 3);
    mgpuMemcpy(out, dout, sizeof out, NULL);
    mgpuMemcpy(blur, dblur, sizeof blur, NULL);
    mgpuMemcpy(pa, dpa, 64 * 4, NULL);
    for (i = 0; i < N; i++) {
        float s = 0.0f;
        int k;
        int m = fabsf(out[4 * i] - sinf(x[i])) > 1e-3f || fabsf(out[4 * i + 1] - expf(x[i])) > 1e-3f * expf(x[i]) ||
                fabsf(out[4 * i + 2] - sqrtf(x[i])) > 1e-4f || out[4 * i + 3] != (x[i] > 2.0f ? x[i] : 2.0f);
        for (k = -2; k <= 2; k++) s += weights[(i + k + 5) % 5] * x[i + k < 0 ? 0 : i + k > N - 1 ? N - 1 : i + k];
        if (m && bad < 3) printf("  math[%d]: %g %g %g %g for %g\n", i, out[4 * i], out[4 * i + 1], out[4 * i + 2], out[4 * i + 3], x[i]);
        if (fabsf(blur[i] - s) > 1e-4f && bad < 3) printf("  blur[%d]: %g, not %g\n", i, blur[i], s);
        bad += m + (fabsf(blur[i] - s) > 1e-4f);
    }
    for (i = 0; i < 64; i++) {
        int a[8], k;
        for (k = 0; k < 8; k++) a[k] = in[(i + k) % N] * (k + 1);
        if (pa[i] != a[in[i] & 7] + a[(in[i] + 3) & 7] && bad < 3) printf("  private_array[%d]: %d, not %d\n", i, pa[i], a[in[i] & 7] + a[(in[i] + 3) & 7]);
        bad += pa[i] != a[in[i] & 7] + a[(in[i] + 3) & 7];
    }
    CHECK(bad == 0);
    mgpuMemFree(dx, NULL); mgpuMemFree(dout, NULL); mgpuMemFree(dblur, NULL); mgpuMemFree(din, NULL); mgpuMemFree(dpa, NULL);
}



/* kernel name of kernels.spv on one workgroup of n: in (in_size bytes) its first parameter, two
   outputs its others, read back into out1 and out2; 0 when the kernel is missing */
static int run_in_out_out(const char *name, unsigned n, const void *in, size_t in_size, void *out1, size_t size1, void *out2, size_t size2) {
    void *fn = kernels ? mgpuModuleGetFunction(kernels, name) : NULL, *d[3], *args[3];
    int i;
    if (!fn) return 0;
    d[0] = dev(in, in_size); d[1] = dev(NULL, size1); d[2] = dev(NULL, size2);
    for (i = 0; i < 3; i++) args[i] = &d[i];
    mgpuLaunchKernel(fn, 1, 1, 1, n, 1, 1, 0, NULL, args, NULL, 3);
    mgpuMemcpy(out1, d[1], size1, NULL);
    mgpuMemcpy(out2, d[2], size2, NULL);
    for (i = 0; i < 3; i++) mgpuMemFree(d[i], NULL);
    return 1;
}

/* signed arithmetic on negative values, against C's */
static void test_signed_ops(void) {
    enum { N = 8 };
    const int x[N] = {0, 1, -1, 7, -7, -2147483647 - 1, 2147483647, -100};
    int out[6 * N], i, bad = 0;
    float f[N];
    CHECK(run_in_out_out("signed_ops", N, x, sizeof x, out, sizeof out, f, sizeof f));
    for (i = 0; i < N; i++) {
        int v = x[i], e[6], k, m = 0;
        int w[4];
        w[0] = v; w[1] = (int)(0u - (unsigned)v); w[2] = (int)((unsigned)v - 7u); w[3] = (int)(3u - (unsigned)v);
        e[0] = v / 3; e[1] = v % -5; e[2] = v >> 2; e[3] = (int)((float)v * 0.5f);
        e[4] = w[2] / 4 + (w[3] >> 1); e[5] = (int)((float)w[1] * 0.25f);
        for (k = 0; k < 6; k++) m |= out[6 * i + k] != e[k];
        m |= f[i] != (float)v;
        if (m && bad < 3) printf("  signed_ops[%d] of %d: %d %d %d %d %d %d %g, not %d %d %d %d %d %d %g\n", i, v, out[6 * i], out[6 * i + 1],
                                 out[6 * i + 2], out[6 * i + 3], out[6 * i + 4], out[6 * i + 5], f[i], e[0], e[1], e[2], e[3], e[4], e[5], (float)v);
        bad += m;
    }
    CHECK(bad == 0);
}
/* infinities and NaNs in and out: OpenCL's constants, log(0), pow(0, -1.5), isinf, isnan */
static void test_nonfinite(void) {
    enum { N = 8 };
    const float x[N] = {0.0f, 1.0f, 4.0f, -2.0f, 1000.0f, -1000.0f, INFINITY, NAN};
    float out[4 * N];
    int flags[N], i, bad = 0;
    CHECK(run_in_out_out("nonfinite", N, x, sizeof x, out, sizeof out, flags, sizeof flags));
    for (i = 0; i < N; i++) {
        float v = x[i], third = v > 100.0f ? INFINITY : v < -100.0f ? NAN : v;
        int f = (isinf(v) ? 1 : 0) | (isnan(v) ? 2 | 8 | 16 | 32 : 0) | (isfinite(v) ? 4 : 0) | (v >= 1.0f ? 32 : 0), m;
        m = (v == 0.0f && !(isinf(out[4 * i]) && out[4 * i] < 0)) || (v == 1.0f && out[4 * i] != 0.0f) ||
            (v == 0.0f && !(isinf(out[4 * i + 1]) && out[4 * i + 1] > 0)) || (v == 4.0f && fabsf(out[4 * i + 1] - 0.125f) > 1e-5f) ||
            (isnan(third) ? !isnan(out[4 * i + 2]) : out[4 * i + 2] != third) || !(isinf(out[4 * i + 3]) && out[4 * i + 3] < 0) || flags[i] != f;
        if (m && bad < 3) printf("  nonfinite[%d] of %g: %g %g %g %g, flags %d (not %d)\n", i, v, out[4 * i], out[4 * i + 1], out[4 * i + 2], out[4 * i + 3], flags[i], f);
        bad += m;
    }
    CHECK(bad == 0);
}
/* Vulkan-shaped IR (its push-constant block made the uniform block): bindings, then the block */
static void test_vulkan_shaped_saxpy_and_reduce(void) {
    void *sm = load("saxpy.spv"), *rm = load("reduce.spv"), *s = sm ? mgpuModuleGetFunction(sm, "saxpy") : NULL;
    void *r = rm ? mgpuModuleGetFunction(rm, "reduce") : NULL, *args[4];
    float hx[256], hy[256], a = 3.0f, sums[4], expect[4];
    unsigned n = 200, i, bad = 0;
    float *x, *y, *out;
    CHECK(s && r);
    if (!s || !r) return;
    for (i = 0; i < 256; i++) { hx[i] = (float)i; hy[i] = 0.5f; }
    x = (float *)dev(hx, sizeof hx); y = (float *)dev(hy, sizeof hy); out = (float *)dev(NULL, sizeof sums);
    args[0] = &x; args[1] = &y; args[2] = &a; args[3] = &n;
    mgpuLaunchKernel(s, 4, 1, 1, 64, 1, 1, 0, NULL, args, NULL, 4);
    mgpuMemcpy(hy, y, sizeof hy, NULL);
    for (i = 0; i < 256; i++) bad += hy[i] != (i < n ? 3.0f * (float)i + 0.5f : 0.5f);
    args[0] = &x; args[1] = &out;
    mgpuLaunchKernel(r, 4, 1, 1, 64, 1, 1, 0, NULL, args, NULL, 2);
    mgpuMemcpy(sums, out, sizeof sums, NULL);
    memset(expect, 0, sizeof expect);
    for (i = 0; i < 256; i++) expect[i / 64] += hx[i];
    for (i = 0; i < 4; i++) bad += sums[i] != expect[i];
    CHECK(bad == 0);
    mgpuMemFree(x, NULL); mgpuMemFree(y, NULL); mgpuMemFree(out, NULL);
    mgpuModuleUnload(sm);
    mgpuModuleUnload(rm);
}

/* two entry points, a stream: memset, fill, twice, twice, a readback valid after the synchronize */
static void test_two_entry_points_on_a_stream(void) {
    void *m = load("two_entries.spv"), *fill = m ? mgpuModuleGetFunction(m, "fill") : NULL, *twice = m ? mgpuModuleGetFunction(m, "twice") : NULL;
    unsigned n = 100, i, bad = 0, host[128], *v = (unsigned *)mgpuMemAlloc(128 * 4, NULL, false);
    void *args[2], *stream = mgpuStreamCreate();
    CHECK(fill && twice && v && stream);
    if (!fill || !twice || !v || !stream) return;
    args[0] = &v;
    args[1] = &n;
    mgpuMemset32(v, 7, 128, stream);
    mgpuLaunchKernel(fill, 4, 1, 1, 32, 1, 1, 0, stream, args, NULL, 2);
    mgpuLaunchKernel(twice, 4, 1, 1, 32, 1, 1, 0, stream, args, NULL, 2);
    mgpuLaunchKernel(twice, 4, 1, 1, 32, 1, 1, 0, stream, args, NULL, 2);
    memset(host, 0xff, sizeof host);
    mgpuMemcpy(host, v, sizeof host, stream);
    CHECK(host[0] == 0xffffffffu); /* not written before the synchronize */
    mgpuStreamSynchronize(stream);
    for (i = 0; i < n; i++) bad += host[i] != 4 * i;
    for (; i < 128; i++) bad += host[i] != 7;
    CHECK(bad == 0);
    mgpuStreamDestroy(stream);
    mgpuMemFree(v, NULL);
    mgpuModuleUnload(m);
}

/* isHostShared: the block is the host's mirror, up to date after each NULL-stream launch */
static void test_host_shared(void) {
    void *fn = kernels ? mgpuModuleGetFunction(kernels, "saxpy") : NULL, *args[4];
    float *x = (float *)mgpuMemAlloc(64 * 4, NULL, true), *y = (float *)mgpuMemAlloc(64 * 4, NULL, true), a = 2.0f;
    int n = 64, i, bad = 0;
    CHECK(fn && x && y);
    if (!fn || !x || !y) return;
    for (i = 0; i < 64; i++) { x[i] = (float)i; y[i] = 1.0f; }
    args[0] = &a; args[1] = &x; args[2] = &y; args[3] = &n;
    mgpuLaunchKernel(fn, 1, 1, 1, 64, 1, 1, 0, NULL, args, NULL, 4);
    mgpuLaunchKernel(fn, 1, 1, 1, 64, 1, 1, 0, NULL, args, NULL, 4);
    for (i = 0; i < 64; i++) bad += y[i] != 4.0f * (float)i + 1.0f;
    CHECK(bad == 0);
    mgpuMemFree(x, NULL);
    mgpuMemFree(y, NULL);
}

/* copies between allocations, at offsets; a binding from inside an allocation (256 bytes in) */
static void test_memcpy_offsets(void) {
    void *fn = kernels ? mgpuModuleGetFunction(kernels, "saxpy") : NULL, *args[4];
    float h[256], r[256], a = 1.0f, *x = (float *)mgpuMemAlloc(1024, NULL, false), *y = (float *)mgpuMemAlloc(1024, NULL, false), *xo, *yo;
    int i, n = 64, bad = 0;
    CHECK(fn && x && y);
    if (!fn || !x || !y) return;
    for (i = 0; i < 256; i++) h[i] = (float)i;
    mgpuMemcpy(x, h, sizeof h, NULL);
    mgpuMemset32(y, 0, 256, NULL);
    mgpuMemcpy(y + 128, x + 16, 16 * 4, NULL); /* device to device */
    xo = x + 64;
    yo = y + 64;
    args[0] = &a; args[1] = &xo; args[2] = &yo; args[3] = &n;
    mgpuLaunchKernel(fn, 1, 1, 1, 64, 1, 1, 0, NULL, args, NULL, 4);
    mgpuMemcpy(r, y, sizeof r, NULL);
    for (i = 0; i < 256; i++) bad += r[i] != (i >= 64 && i < 128 ? (float)i : i >= 128 && i < 144 ? (float)(i - 112) : 0.0f);
    mgpuMemcpy(r, (char *)y + 4 * 130 + 1, 3, NULL); /* a read may start and end anywhere */
    { float e = 18.0f; CHECK(memcmp(r, (char *)&e + 1, 3) == 0); }
    CHECK(bad == 0);
    mgpuMemFree(x, NULL);
    mgpuMemFree(y, NULL);
}

/* what WebGPU refuses is reported, and nothing runs */
static void test_refusals(void) {
    void *fn = kernels ? mgpuModuleGetFunction(kernels, "saxpy") : NULL, *args[4];
    float a = 1.0f, *x = (float *)mgpuMemAlloc(1024, NULL, false), *y = (float *)mgpuMemAlloc(1024, NULL, false), *xo = x + 1;
    unsigned char garbage[64];
    int n = 64;
    CHECK(fn && x && y);
    if (!fn || !x || !y) return;
    expecting = 1;
    args[0] = &a; args[1] = &x; args[2] = &y; args[3] = &n;
    last_error[0] = 0;
    mgpuLaunchKernel(fn, 1, 1, 1, 32, 1, 1, 0, NULL, args, NULL, 4);
    CHECK(strstr(last_error, "not the workgroup size 64x1x1") != NULL);
    last_error[0] = 0;
    args[1] = &xo;
    mgpuLaunchKernel(fn, 1, 1, 1, 64, 1, 1, 0, NULL, args, NULL, 4);
    CHECK(strstr(last_error, "multiples of 256") != NULL);
    last_error[0] = 0;
    args[1] = &x;
    mgpuLaunchKernel(fn, 70000, 1, 1, 64, 1, 1, 0, NULL, args, NULL, 4);
    CHECK(strstr(last_error, "65535") != NULL);
    memset(garbage, 0x5a, sizeof garbage);
    last_error[0] = 0;
    CHECK(mgpuModuleLoad(garbage, sizeof garbage) == NULL && strstr(last_error, "not a SPIR-V module") != NULL);
    last_error[0] = 0;
    CHECK(mgpuModuleGetFunction(kernels, "nothing") == NULL && strstr(last_error, "no entry point") != NULL);
    { /* a binding smaller than one element: refused before the device sees it (wgpu-native aborts the process on it) */
        void *c2 = mgpuModuleGetFunction(kernels, "copy2"), *small = mgpuMemAlloc(4, NULL, false), *cargs[2];
        cargs[0] = &small; cargs[1] = &x;
        last_error[0] = 0;
        mgpuLaunchKernel(c2, 1, 1, 1, 1, 1, 1, 0, NULL, cargs, NULL, 2);
        CHECK(strstr(last_error, "less than one element of its array (8 bytes)") != NULL);
        mgpuMemFree(small, NULL);
    }
    expecting = 0;
    mgpuMemFree(x, NULL);
    mgpuMemFree(y, NULL);
}

/* a 3-element vector from a private array at a run-time index */
static void test_vec3_stack(void) {
    int index = 1, out[4] = {0, 0, 0, 0}, sum = 0; /* an int3 takes 16 bytes */
    CHECK(run_in_out_out("vec3_stack", 1, &index, sizeof index, out, sizeof out, &sum, sizeof sum));
    CHECK(out[0] == 3 && out[1] == 4 && out[2] == 5 && sum == 1);
}

/* a compare-exchange whose old value is used (cas.spv): right on Dawn; refused at load on
   wgpu-native, whose shader translator would abort the process */
static void test_compare_exchange(void) {
    enum { N = 64 };
    unsigned p[N], old[N], i, bad = 0;
    void *m, *fn, *dp, *dold, *args[2];
    if (strcmp(implementation, "wgpu-native") == 0) {
        expecting = 1;
        last_error[0] = 0;
        CHECK(load("cas.spv") == NULL && strstr(last_error, "aborts the process") != NULL);
        expecting = 0;
        return;
    }
    CHECK((m = load("cas.spv")) != NULL && (fn = mgpuModuleGetFunction(m, "cas")) != NULL);
    if (!m || !fn) return;
    for (i = 0; i < N; i++) p[i] = i % 3 ? i : 7;
    dp = dev(p, sizeof p); dold = dev(NULL, sizeof old);
    args[0] = &dp; args[1] = &dold;
    mgpuLaunchKernel(fn, 1, 1, 1, N, 1, 1, 0, NULL, args, NULL, 2);
    mgpuMemcpy(old, dold, sizeof old, NULL);
    mgpuMemcpy(p, dp, sizeof p, NULL);
    for (i = 0; i < N; i++) bad += old[i] != (i % 3 ? i : 7u) || p[i] != (i % 3 ? i + 100 : 7u);
    CHECK(bad == 0);
    mgpuMemFree(dp, NULL); mgpuMemFree(dold, NULL);
    mgpuModuleUnload(m);
}

/* the binary with every backend's object: the runtime takes the WebGPU one */
static void test_select_from_all_backends(void) {
    size_t size = 0;
    void *bin = read_file("all.bin", &size), *m, *fn, *args[4];
    float h[64], a = 2.0f, *x, *y;
    int n = 64, i, bad = 0;
    if (!bin) {
        printf("  (no %s/all.bin: the binary of every backend's object was not made here)\n", dir);
        return;
    }
    CHECK((m = gpucompile_runtime_load_offload_binary(bin, size)) != NULL);
    fn = m ? mgpuModuleGetFunction(m, "saxpy") : NULL;
    CHECK(fn != NULL);
    if (fn) {
        for (i = 0; i < 64; i++) h[i] = (float)i;
        x = (float *)dev(h, sizeof h);
        y = (float *)dev(h, sizeof h);
        args[0] = &a; args[1] = &x; args[2] = &y; args[3] = &n;
        mgpuLaunchKernel(fn, 1, 1, 1, 64, 1, 1, 0, NULL, args, NULL, 4);
        mgpuMemcpy(h, y, sizeof h, NULL);
        for (i = 0; i < 64; i++) bad += h[i] != 3.0f * (float)i;
        CHECK(bad == 0);
        mgpuMemFree(x, NULL);
        mgpuMemFree(y, NULL);
    }
    if (m) mgpuModuleUnload(m);
    free(bin);
}

int main(int argc, char **argv) {
    gpucompile_webgpu_runtime_info info;
    if (argc > 1) dir = argv[1];
    gpucompile_runtime_set_error_callback(on_error, NULL);
    if (!gpucompile_runtime_available() || !gpucompile_webgpu_runtime_info_get(&info)) {
        printf("SKIP run-webgpu: no WebGPU adapter (%s)\n", last_error);
        return 0;
    }
    errors = 0;
    snprintf(implementation, sizeof implementation, "%s", info.implementation);
    printf("%s (%s), version %x: %s on %s, shader-f16 %d\n", info.implementation, info.abi, (unsigned)info.version, info.adapter,
           info.backend, info.shader_f16);
    RUN(test_pointer_saxpy);
    RUN(test_reductions);
    RUN(test_atomics);
    RUN(test_grids_2d_3d);
    RUN(test_math_blur_private);
    RUN(test_nonfinite);
    RUN(test_signed_ops);
    RUN(test_vec3_stack);
    RUN(test_vulkan_shaped_saxpy_and_reduce);
    RUN(test_two_entry_points_on_a_stream);
    RUN(test_host_shared);
    RUN(test_memcpy_offsets);
    RUN(test_refusals);
    RUN(test_compare_exchange);
    RUN(test_select_from_all_backends);
    if (kernels) mgpuModuleUnload(kernels);
    printf("run-webgpu: %d passed, %d failed\n", passed, failed);
    return failed != 0;
}
