/* Kernels with known answers, run: compiled by gpucompile (the CLI made the host modules that
   are linked in: sx_*_launch, k_*_launch, from binaries with run-time selection; the API path
   compiles here), launched through one of our runtimes: by default gpucompile_spirv.h's OpenCL
   runtime on the first OpenCL device that takes SPIR-V (tests/run/run.sh); built with
   -DRUN_NVPTX or -DRUN_AMDGPU, the CUDA driver or HIP on the first GPU (tests/gpu/gpu.sh); with
   -DRUN_VULKAN, gpucompile_vulkan.h's runtime on the first Vulkan device (the same OpenCL C
   kernels compiled by the Vulkan backend, in the same binaries, launched by the same host code;
   Vulkan's precision rules for the math functions, and its workgroup size compiled in).
   Usage: run DIR (DIR: kernels.ll, images.ll, saxpy.ll for the runtime's target, mylib.bc). Built with
   -Wl,--wrap=gpucompile_runtime_load_offload_binary, to count the loads. Buffers are padded: a
   kernel that writes past its end would corrupt the CPU device's heap. */
#include "gpucompile.h"
#if defined(RUN_NVPTX)
#define GPUCOMPILE_NVPTX_RUNTIME
#include "gpucompile_nvptx.h"
#define SUITE "gpu-nvptx"
#define DEVICE "no CUDA device"
#define API_TARGET "#gpu.nvptx<chip = \"%.*s\">" /* the device's chip */
#elif defined(RUN_VULKAN)
#define GPUCOMPILE_VULKAN_RUNTIME
#include "gpucompile_vulkan.h"
#define SUITE "run-vulkan"
#define DEVICE "no Vulkan device"
#define API_TARGET "#gpu.vulkan%.*s" /* the default workgroup size, 64 */
#elif defined(RUN_AMDGPU)
#define GPUCOMPILE_AMDGPU_RUNTIME
#include "gpucompile_amdgpu.h"
#define SUITE "gpu-amdgpu"
#define DEVICE "no HIP device"
#define API_TARGET "#gpu.amdgpu<chip = \"%.*s\">"
#else
#define GPUCOMPILE_SPIRV_RUNTIME
#include "gpucompile_spirv.h"
#define SUITE "run"
#define DEVICE "no OpenCL device that takes SPIR-V"
#define API_TARGET "#gpu.spirv%.*s"
#endif
#include "../test.h"

#include <math.h>
#include <pthread.h>
#include <stdint.h>

#define PAD 4096 /* bytes after every buffer */

typedef void launch_fn(intptr_t, intptr_t, intptr_t, intptr_t, intptr_t, intptr_t, int32_t, void *, void **);
launch_fn sx_saxpy_launch, k_reduce_launch, k_reduce_static_launch, k_histogram_launch, k_grid_launch, k_math_launch, k_uses_lib_launch;

static const char *dir = ".";
static int loads; /* calls of the loader the host modules make */
static char last_error[1024];
static int started; /* errors are printed once the device is up; before, the skip line says it */

void *__real_gpucompile_runtime_load_offload_binary(const void *data, size_t size);
void *__wrap_gpucompile_runtime_load_offload_binary(const void *data, size_t size);
void *__wrap_gpucompile_runtime_load_offload_binary(const void *data, size_t size) {
    __atomic_fetch_add(&loads, 1, __ATOMIC_SEQ_CST);
    return __real_gpucompile_runtime_load_offload_binary(data, size);
}

static void on_error(const char *call, int code, const char *message, void *user) {
    (void)user;
    snprintf(last_error, sizeof last_error, "%s (%d): %s", call, code, message);
    if (started) printf("  runtime: %s\n", last_error);
}

static void *alloc(size_t bytes) {
    unsigned char *p = (unsigned char *)mgpuMemAlloc(bytes + PAD, NULL, true);
    if (p) memset(p, 0, bytes + PAD);
    return p;
}

/* ---- the CLI path: launch functions of host modules made by gpucompile --host ---- */
static int saxpy_once(launch_fn *launch, void *stream, int n) {
    float a = 2.5f, *x = (float *)alloc((size_t)n * 4), *y = (float *)alloc((size_t)n * 4);
    void *args[4];
    int i, bad = !x || !y;
    args[0] = &a; args[1] = &x; args[2] = &y; args[3] = &n;
    for (i = 0; !bad && i < n; i++) { x[i] = (float)i; y[i] = (float)(n - i); }
    if (!bad) launch((n + 127) / 128, 1, 1, 128, 1, 1, 0, stream, args);
    if (stream) mgpuStreamSynchronize(stream);
    for (i = 0; !bad && i < n; i++) bad = y[i] != 2.5f * (float)i + (float)(n - i);
    mgpuMemFree(x, NULL);
    mgpuMemFree(y, NULL);
    return !bad;
}

static void test_saxpy(void) {
    CHECK(saxpy_once(sx_saxpy_launch, NULL, 1000));
    CHECK(saxpy_once(sx_saxpy_launch, NULL, 1)); /* one work-item in a group of 128 */
}

static void test_saxpy_stream(void) {
    void *s = mgpuStreamCreate();
    CHECK(s != NULL);
    CHECK(saxpy_once(sx_saxpy_launch, s, 4097));
    mgpuStreamDestroy(s);
}

static void *thread_saxpy(void *ok) {
    *(int *)ok = saxpy_once(sx_saxpy_launch, NULL, 3000);
    return NULL;
}

/* Eight threads launch first at the same time: the binary is loaded once, every answer right. */
static void test_threads_load_once(void) {
    pthread_t t[8];
    int ok[8], i;
    for (i = 0; i < 8; i++) CHECK(pthread_create(&t[i], NULL, thread_saxpy, &ok[i]) == 0);
    for (i = 0; i < 8; i++) {
        pthread_join(t[i], NULL);
        CHECK_MSG(ok[i], "thread %d", i);
    }
    CHECK_MSG(loads == 1, "the saxpy binary was loaded %d times", loads);
}

/* reduce: local (shared) memory sized by the launch's sharedMemBytes; reduce_static: declared in
   the kernel. */
static void reduce_ok(launch_fn *launch, int shared_bytes) {
    int n = 1000, groups = 8, block = 128, i;
    float *in = (float *)alloc((size_t)n * 4), *out = (float *)alloc((size_t)groups * 4);
    void *args[4];
    void *scratch = NULL; /* local memory: the launch's sharedMemBytes */
    args[0] = &in; args[1] = &out; args[2] = &scratch; args[3] = &n;
    for (i = 0; i < n; i++) in[i] = (float)(i % 7);
    launch(groups, 1, 1, block, 1, 1, shared_bytes, NULL, args);
    for (i = 0; i < groups; i++) {
        float want = 0;
        int j;
        for (j = i * block; j < (i + 1) * block && j < n; j++) want += (float)(j % 7);
        CHECK_MSG(out[i] == want, "group %d: %g, want %g", i, out[i], want);
    }
    mgpuMemFree(in, NULL);
    mgpuMemFree(out, NULL);
}

static void test_reduce(void) { reduce_ok(k_reduce_launch, 128 * 4); }
static void test_reduce_static(void) { reduce_ok(k_reduce_static_launch, 0); }

static void test_atomics(void) {
    int n = 10000, i;
    unsigned *in = (unsigned *)alloc((size_t)n * 4), *bins = (unsigned *)alloc(17 * 4), *total = (unsigned *)alloc(4), want[16];
    unsigned sum = 0, max = 0;
    void *args[4];
    args[0] = &in; args[1] = &bins; args[2] = &total; args[3] = &n;
    memset(want, 0, sizeof want);
    for (i = 0; i < n; i++) {
        in[i] = (unsigned)(i * 7919 % 1000);
        want[in[i] % 16]++;
        sum += in[i];
        if (in[i] > max) max = in[i];
    }
    mgpuMemset32(bins, 0, 17, NULL);
    k_histogram_launch((n + 63) / 64, 1, 1, 64, 1, 1, 0, NULL, args);
    for (i = 0; i < 16; i++) CHECK_MSG(bins[i] == want[i], "bin %d: %u, want %u", i, bins[i], want[i]);
    CHECK_MSG(*total == sum, "total %u, want %u", *total, sum);
    CHECK_MSG(bins[16] == max, "max %u, want %u", bins[16], max);
    mgpuMemFree(in, NULL);
    mgpuMemFree(bins, NULL);
    mgpuMemFree(total, NULL);
}

static int grid_ok(int gx, int gy, int gz, int bx, int by, int bz) {
    int nx = gx * bx, ny = gy * by, nz = gz * bz, x, y, z, bad = 0;
    int *out = (int *)alloc((size_t)nx * ny * nz * 8);
    void *args[1];
    args[0] = &out;
    k_grid_launch(gx, gy, gz, bx, by, bz, 0, NULL, args);
    for (z = 0; z < nz; z++)
        for (y = 0; y < ny; y++)
            for (x = 0; x < nx; x++) {
                int i = (z * ny + y) * nx + x;
                bad += out[2 * i] != x + 100 * y + 10000 * z;
                bad += out[2 * i + 1] != x / bx + 100 * (y / by) + 10000 * (z / bz) + 1000000 * bx;
            }
    mgpuMemFree(out, NULL);
    return bad == 0;
}

static void test_grid_2d(void) { CHECK(grid_ok(3, 5, 1, 4, 2, 1)); }
/* grid has no reqd_work_group_size: each launch's blocks (on Vulkan: its workgroup size set at launch) */
static void test_grid_3d(void) { CHECK(grid_ok(2, 3, 4, 2, 2, 3)); }

/* ULPs between a float result and the correctly rounded one (from double libm). */
static double ulps(float got, double exact) {
    float r = (float)exact;
    double ulp = (double)nextafterf(fabsf(r), INFINITY) - (double)fabsf(r);
    return fabs((double)got - exact) / ulp;
}

/* OpenCL 3.0's full-profile limits for single precision (libdevice's and ocml's stated bounds are
   within them): sin, cos 4 ulp; exp, log 3; sqrt 3;
   pow 16; fmax exact. */
static void test_math(void) {
    static const double limit[7] = {4, 4, 3, 3, 3, 16, 0};
    static const char *const names[7] = {"sin", "cos", "exp", "log", "sqrt", "pow", "fmax"};
    int n = 2000, i, k;
    float *x = (float *)alloc((size_t)n * 4), *out = (float *)alloc((size_t)n * 28);
    double worst[7] = {0};
    void *args[3];
    args[0] = &x; args[1] = &out; args[2] = &n;
    for (i = 0; i < n; i++) x[i] = 0.01f + (float)i * 0.01f; /* 0.01 ... 20 */
    k_math_launch((n + 255) / 256, 1, 1, 256, 1, 1, 0, NULL, args);
    for (i = 0; i < n; i++) {
        double v = x[i], exact[7];
        exact[0] = sin(v); exact[1] = cos(v); exact[2] = exp(v); exact[3] = log(v); exact[4] = sqrt(v); exact[5] = pow(v, 1.5);
        exact[6] = fmax(v, 2.0);
        for (k = 0; k < 7; k++) {
            double u = ulps(out[7 * i + k], exact[k]);
            if (u > worst[k]) worst[k] = u;
        }
    }
#if defined(RUN_VULKAN)
    /* Vulkan's precision (the Vulkan specification, "Precision and Operation of SPIR-V
       Instructions"): sin, cos 2^-11 absolute (in [-pi, pi]; 20 here, lavapipe keeps to it);
       exp 3 + 2|x| ulp; log 2^-21 absolute in [0.5, 2], else 3 ulp; sqrt as 1/inversesqrt (2.5
       ulp taken as 3); pow from exp2(y log2 x): relative 2^-11 taken; fmax exact */
    for (i = 0; i < n; i++) {
        double v = x[i], err[7], lim[7];
        err[0] = fabs(out[7 * i] - sin(v)); lim[0] = 1.0 / 2048;
        err[1] = fabs(out[7 * i + 1] - cos(v)); lim[1] = 1.0 / 2048;
        err[2] = ulps(out[7 * i + 2], exp(v)); lim[2] = 3 + 2 * fabs(v);
        err[3] = v >= 0.5 && v <= 2 ? fabs(out[7 * i + 3] - log(v)) : ulps(out[7 * i + 3], log(v)); lim[3] = v >= 0.5 && v <= 2 ? 1.0 / 2097152 : 3;
        err[4] = ulps(out[7 * i + 4], sqrt(v)); lim[4] = 3;
        err[5] = fabs(out[7 * i + 5] - pow(v, 1.5)) / pow(v, 1.5); lim[5] = 1.0 / 2048;
        err[6] = fabs(out[7 * i + 6] - fmax(v, 2.0)); lim[6] = 0;
        for (k = 0; k < 7; k++) CHECK_MSG(err[k] <= lim[k], "%s(%g) = %.9g: error %g, limit %g", names[k], v, (double)out[7 * i + k], err[k], lim[k]);
        if (t__cur_failed) break;
    }
    (void)limit;
    (void)worst;
#else
    for (k = 0; k < 7; k++) {
        printf("  %s: worst %.2f ulp (limit %g)\n", names[k], worst[k], limit[k]);
        CHECK_MSG(worst[k] <= limit[k], "%s: %.2f ulp", names[k], worst[k]);
    }
#endif
    mgpuMemFree(x, NULL);
    mgpuMemFree(out, NULL);
}

static void test_library(void) {
    int n = 500, i;
    float *x = (float *)alloc((size_t)n * 4);
    void *args[2];
    args[0] = &x; args[1] = &n;
    for (i = 0; i < n; i++) x[i] = (float)i;
    k_uses_lib_launch((n + 63) / 64, 1, 1, 64, 1, 1, 0, NULL, args);
    for (i = 0; i < n; i++) CHECK_MSG(x[i] == 3.0f * (float)i, "x[%d] = %g", i, x[i]);
    mgpuMemFree(x, NULL);
}

/* ---- the API path: compiled here, loaded and launched through the mgpu* calls ---- */
static gpucompile_object *compile(const char *file, const char *lib) {
    char path[2048], libpath[2048];
    const char *links[1];
    gpucompile_target *parsed = NULL, t;
    gpucompile_options o;
    gpucompile_object *obj = NULL;
    t_log l;
    memset(&o, 0, sizeof o);
    o.logger = t_logger(&l);
    const char *arch = gpucompile_runtime_device_arch();
    char spelling[256];
    snprintf(spelling, sizeof spelling, API_TARGET, strcmp(SUITE, "run") && strcmp(SUITE, "run-vulkan") ? (int)strcspn(arch, ":") : 0, arch);
    if (gpucompile_target_parse(spelling, (size_t)-1, NULL, &o.logger, &parsed) != GPUCOMPILE_OK) {
        printf("  %s:\n%s", spelling, l.text);
        return NULL;
    }
    t = *parsed;
    o.format = GPUCOMPILE_FORMAT_BIN;
    snprintf(path, sizeof path, "%s/%s", dir, file);
    if (lib) {
        snprintf(libpath, sizeof libpath, "%s/%s", dir, lib);
        links[0] = libpath;
        t.link = links;
        t.num_link = 1;
    }
    if (gpucompile_compile_file(path, &t, &o, &obj) != GPUCOMPILE_OK) printf("  compile %s:\n%s", path, l.text);
    gpucompile_target_free(parsed);
    return obj;
}

static long rss_kib(void) {
    long pages = 0, resident = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    if (f) {
        if (fscanf(f, "%ld %ld", &pages, &resident) != 2) resident = 0;
        fclose(f);
    }
    return resident * 4;
}

static void test_api_saxpy_1000_launches(void) {
    gpucompile_object *obj = compile("saxpy.ll", NULL);
    void *m, *f, *s, *args[4];
    float a = 1.0f, *x, *y;
    int n = 1024, i, bad = 0;
    long before = 0, after;
    CHECK(obj != NULL);
    if (!obj) return;
    CHECK(obj->num_kernels == 1 && strcmp(obj->kernels[0].name, "saxpy") == 0 && obj->kernels[0].num_params == 4);
    m = mgpuModuleLoad(obj->data, obj->size);
    f = m ? mgpuModuleGetFunction(m, "saxpy") : NULL;
    CHECK(f != NULL);
    x = (float *)alloc((size_t)n * 4);
    y = (float *)alloc((size_t)n * 4);
    args[0] = &a; args[1] = &x; args[2] = &y; args[3] = &n;
    for (i = 0; i < n; i++) x[i] = 1.0f;
    for (i = 0; f && i < 1000; i++) {
        s = i % 2 ? mgpuStreamCreate() : NULL; /* half with a stream of their own, half synchronous */
        mgpuLaunchKernel(f, n / 64, 1, 1, 64, 1, 1, 0, s, args, NULL, 4);
        if (s) { mgpuStreamSynchronize(s); mgpuStreamDestroy(s); }
        if (i == 99) before = rss_kib();
    }
    after = rss_kib();
    for (i = 0; i < n; i++) bad += y[i] != 1000.0f;
    CHECK_MSG(bad == 0, "%d wrong (y[0] = %g)", bad, y[0]);
    printf("  resident memory after 100 launches %ld KiB, after 1000 %ld KiB\n", before, after);
    CHECK_MSG(after - before < 8192, "grew by %ld KiB over 900 launches", after - before);
    mgpuMemFree(x, NULL);
    mgpuMemFree(y, NULL);
    mgpuModuleUnload(m);
    gpucompile_object_free(obj);
}

static void test_api_opencl_c_with_library(void) {
    gpucompile_object *obj = compile("kernels.ll", "mylib.bc");
    void *m, *f, *args[2];
    float *x;
    int n = 100, i, bad = 0;
    CHECK(obj != NULL);
    if (!obj) return;
    CHECK(obj->num_kernels == 6);
    m = mgpuModuleLoad(obj->data, obj->size);
    f = m ? mgpuModuleGetFunction(m, "uses_lib") : NULL;
    CHECK(f != NULL);
    x = (float *)alloc((size_t)n * 4);
    for (i = 0; i < n; i++) x[i] = (float)i;
    args[0] = &x; args[1] = &n;
    if (f) mgpuLaunchKernel(f, 2, 1, 1, 64, 1, 1, 0, NULL, args, NULL, 2);
    for (i = 0; i < n; i++) bad += x[i] != 3.0f * (float)i;
    CHECK(bad == 0);
    mgpuMemFree(x, NULL);
    mgpuModuleUnload(m);
    gpucompile_object_free(obj);
}

/* Errors come back as errors: a bad module, a missing kernel, a wrong argument count. */
static void test_api_errors(void) {
    static const unsigned char junk[64] = {3, 2, 0x23, 7, 0, 0, 1, 0};
    gpucompile_object *obj = compile("saxpy.ll", NULL);
    void *m;
    last_error[0] = 0;
    CHECK(mgpuModuleLoad((void *)junk, sizeof junk) == NULL); /* SPIR-V's word count 0; no cubin, no ELF */
    CHECK_MSG(last_error[0] != 0, "no error reported");
#ifdef GPUCOMPILE_SPIRV_RUNTIME
    CHECK_MSG(strstr(last_error, "malformed SPIR-V") != NULL, "%s", last_error);
    if (!obj) return;
    last_error[0] = 0;
    CHECK(mgpuModuleLoad(obj->data, 24) == NULL); /* the header and half an OpCapability */
    CHECK_MSG(strstr(last_error, "malformed SPIR-V") != NULL, "%s", last_error);
#endif
    if (!obj) return;
    m = mgpuModuleLoad(obj->data, obj->size);
    last_error[0] = 0;
    CHECK(m && mgpuModuleGetFunction(m, "no_such_kernel") == NULL);
    CHECK_MSG(strstr(last_error, "no_such_kernel") != NULL || strstr(last_error, "GetFunction") != NULL ||
              strstr(last_error, "clCreateKernel") != NULL, "%s", last_error);
    mgpuModuleUnload(m);
    gpucompile_object_free(obj);
}

#ifdef GPUCOMPILE_SPIRV_RUNTIME
/* ---- images and samplers (tests/run/images.cl): mgpuImageCreate, ... ---- */
enum { IMAGE2D = 0x10F1, IMAGE3D, IMAGE2D_ARRAY, IMAGE1D, IMAGE1D_ARRAY, IMAGE1D_BUFFER };
enum { CL_R = 0x10B0, CL_RGB = 0x10B4, CL_RGBA = 0x10B5 };
enum { CL_UNORM_INT8 = 0x10D2, CL_SIGNED_INT8 = 0x10D7, CL_SIGNED_INT16 = 0x10D8, CL_UNSIGNED_INT8 = 0x10DA, CL_UNSIGNED_INT16 = 0x10DB, CL_UNSIGNED_INT32 = 0x10DC, CL_FLOAT = 0x10DE };

launch_fn img_blur_launch; /* gpucompile --host's, from images.cl's binary */

typedef struct images { gpucompile_object *obj; void *module; } images;

/* images.cl compiled and loaded; 0 when it is not (said). */
static int images_load(images *im) {
    im->obj = compile("images.ll", NULL);
    im->module = im->obj ? mgpuModuleLoad(im->obj->data, im->obj->size) : NULL;
    CHECK(im->module != NULL);
    return im->module != NULL;
}

static void images_unload(images *im) {
    mgpuModuleUnload(im->module);
    gpucompile_object_free(im->obj);
}

/* A launch of images.cl's kernel name over w x h x d work-items in blocks of 4x2x1. */
static void images_launch(images *im, const char *name, int w, int h, int d, void *stream, void **args, size_t n) {
    void *f = mgpuModuleGetFunction(im->module, name);
    CHECK_MSG(f != NULL, "%s", name);
    if (f) mgpuLaunchKernel(f, (w + 3) / 4, (h + 1) / 2, d, 4, 2, 1, 0, stream, args, NULL, n);
}

/* A texel of a w x h one-channel image with clamp-to-edge addressing. */
static double texel_clamped(const float *t, int w, int h, int x, int y) {
    x = x < 0 ? 0 : x >= w ? w - 1 : x;
    y = y < 0 ? 0 : y >= h ? h - 1 : y;
    return t[y * w + x];
}

/* OpenCL's CLK_FILTER_LINEAR at normalized (u, v): the four texels around (u w - 0.5, v h - 0.5),
   weighted by the fractions. */
static double bilinear(const float *t, int w, int h, double u, double v) {
    double px = u * w - 0.5, py = v * h - 0.5, i = floor(px), j = floor(py), a = px - i, b = py - j;
    int x = (int)i, y = (int)j;
    return (1 - a) * (1 - b) * texel_clamped(t, w, h, x, y) + a * (1 - b) * texel_clamped(t, w, h, x + 1, y) +
           (1 - a) * b * texel_clamped(t, w, h, x, y + 1) + a * b * texel_clamped(t, w, h, x + 1, y + 1);
}

/* blur, launched by gpucompile --host's code: a sampler passed as an argument (normalized
   coordinates, clamp to edge, linear), taps between texels, get_image_width / get_image_height.
   OpenCL leaves the precision of the filter's weights to the device: 8 bits of them (as GPUs'
   samplers have) move a tap by at most 2^-8 of the step between two texels, at most 1 here; the
   worst error is printed. */
static void test_image_blur_linear_sampler(void) {
    enum { W = 13, H = 9 };
    float src[W * H], dst[W * H];
    int32_t sampler = 1 | 2 | 0x20; /* CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_LINEAR */
    int *size = (int *)alloc(8), x, y, dx, dy;
    double worst = 0;
    void *a, *b, *args[4];
    for (y = 0; y < H; y++)
        for (x = 0; x < W; x++) src[y * W + x] = (float)((x * 7 + y * 13) % 17) / 16.0f;
    a = mgpuImageCreate(IMAGE2D, CL_R, CL_FLOAT, W, H, 0, 0, NULL);
    b = mgpuImageCreate(IMAGE2D, CL_R, CL_FLOAT, W, H, 1, 1, NULL);
    CHECK(a && b);
    mgpuImageWrite(a, src, NULL);
    args[0] = &a; args[1] = &sampler; args[2] = &b; args[3] = &size;
    img_blur_launch((W + 3) / 4, (H + 1) / 2, 1, 4, 2, 1, 0, NULL, args);
    mgpuImageRead(dst, b, NULL);
    CHECK_MSG(size[0] == W && size[1] == H, "get_image_width %d, get_image_height %d", size[0], size[1]);
    for (y = 0; y < H; y++)
        for (x = 0; x < W; x++) {
            double want = 0;
            for (dy = -1; dy <= 1; dy++)
                for (dx = -1; dx <= 1; dx++)
                    want += bilinear(src, W, H, ((float)(x + dx) + 0.75f) / (float)W, ((float)(y + dy) + 0.375f) / (float)H);
            want /= 9;
            if (fabs(dst[y * W + x] - want) > worst) worst = fabs(dst[y * W + x] - want);
        }
    printf("  linear filtering: worst error %.3g (limit 2^-8)\n", worst);
    CHECK(worst <= 1.0 / 256);
    mgpuImageFree(a, NULL);
    mgpuImageFree(b, NULL);
    mgpuMemFree(size, NULL);
}

/* to_yuv: RGBA8 unorm read through the program's constant sampler, a float image written. */
static void test_image_rgba8_to_float(void) {
    enum { W = 10, H = 7 };
    unsigned char src[W * H * 4];
    float dst[W * H * 4];
    double worst = 0;
    void *a, *b, *args[2];
    int i, k;
    images im;
    if (!images_load(&im)) return;
    for (i = 0; i < W * H * 4; i++) src[i] = (unsigned char)(i * 37 % 256);
    a = mgpuImageCreate(IMAGE2D, CL_RGBA, CL_UNORM_INT8, W, H, 1, 0, NULL);
    b = mgpuImageCreate(IMAGE2D, CL_RGBA, CL_FLOAT, W, H, 0, 0, NULL);
    CHECK(a && b);
    mgpuImageWrite(a, src, NULL);
    args[0] = &a; args[1] = &b;
    images_launch(&im, "to_yuv", W, H, 1, NULL, args, 2);
    mgpuImageRead(dst, b, NULL);
    for (i = 0; i < W * H; i++) {
        const unsigned char *c = src + 4 * i;
        double r = c[0] / 255.0, g = c[1] / 255.0, bl = c[2] / 255.0, y = 0.299 * r + 0.587 * g + 0.114 * bl, want[4];
        want[0] = y; want[1] = (bl - y) * 0.565; want[2] = (r - y) * 0.713; want[3] = c[3] / 255.0;
        for (k = 0; k < 4; k++)
            if (fabs(dst[4 * i + k] - want[k]) > worst) worst = fabs(dst[4 * i + k] - want[k]);
    }
    CHECK_MSG(worst < 1e-5, "worst error %g", worst); /* unorm8 to float within 1.5 ulp, then a few float operations */
    mgpuImageFree(a, NULL);
    mgpuImageFree(b, NULL);
    images_unload(&im);
}

/* scale_uint: read_imageui / write_imageui on RGBA UINT32, the copies and the launch on a stream. */
static void test_image_uint_on_stream(void) {
    enum { W = 9, H = 5 };
    uint32_t src[W * H * 4], dst[W * H * 4];
    void *a, *b, *args[2], *s = mgpuStreamCreate();
    int x, y, k, bad = 0;
    images im;
    if (!images_load(&im)) return;
    for (k = 0; k < W * H * 4; k++) src[k] = (uint32_t)k * 2654435761u;
    a = mgpuImageCreate(IMAGE2D, CL_RGBA, CL_UNSIGNED_INT32, W, H, 0, 0, s);
    b = mgpuImageCreate(IMAGE2D, CL_RGBA, CL_UNSIGNED_INT32, W, H, 0, 0, s);
    CHECK(a && b && s);
    mgpuImageWrite(a, src, s);
    args[0] = &a; args[1] = &b;
    images_launch(&im, "scale_uint", W, H, 1, s, args, 2);
    mgpuImageRead(dst, b, s);
    mgpuStreamSynchronize(s);
    for (y = 0; y < H; y++)
        for (x = 0; x < W; x++)
            for (k = 0; k < 4; k++) {
                const uint32_t add[4] = {(uint32_t)x, (uint32_t)y, 7, 0};
                bad += dst[(y * W + x) * 4 + k] != src[(y * W + x) * 4 + k] * 3u + add[k];
            }
    CHECK_MSG(bad == 0, "%d wrong", bad);
    mgpuImageFree(a, s);
    mgpuImageFree(b, s);
    mgpuStreamDestroy(s);
    images_unload(&im);
}

/* volume: a 3D image (slices in the host's layout), get_image_depth; read back as written. */
static void test_image_3d(void) {
    enum { W = 5, H = 4, D = 3, N = W * H * D };
    float src[N], back[N], *out = (float *)alloc(N * 4);
    void *a, *args[2];
    int i, bad = 0;
    images im;
    if (!images_load(&im)) return;
    for (i = 0; i < N; i++) src[i] = (float)i * 0.5f;
    a = mgpuImageCreate(IMAGE3D, CL_R, CL_FLOAT, W, H, D, 0, NULL);
    CHECK(a != NULL);
    mgpuImageWrite(a, src, NULL);
    args[0] = &a; args[1] = &out;
    images_launch(&im, "volume", W, H, D, NULL, args, 2);
    mgpuImageRead(back, a, NULL);
    for (i = 0; i < N; i++) bad += out[i] != src[i] * 2.0f + (float)(W + 10 * H + 100 * D) || back[i] != src[i];
    CHECK_MSG(bad == 0, "%d wrong (out[1] = %g)", bad, out[1]);
    mgpuImageFree(a, NULL);
    mgpuMemFree(out, NULL);
    images_unload(&im);
}

/* layers: a 2D image array of RGBA UINT8 (layers after one another), get_image_array_size. */
static void test_image_2d_array(void) {
    enum { W = 6, H = 4, L = 3, N = W * H * L };
    unsigned char src[N * 4], back[N * 4];
    uint32_t *out = (uint32_t *)alloc(N * 4);
    void *a, *args[2];
    int i, bad = 0;
    images im;
    if (!images_load(&im)) return;
    for (i = 0; i < N * 4; i++) src[i] = (unsigned char)(i * 11 % 251);
    a = mgpuImageCreate(IMAGE2D_ARRAY, CL_RGBA, CL_UNSIGNED_INT8, W, H, 0, L, NULL);
    CHECK(a != NULL);
    mgpuImageWrite(a, src, NULL);
    args[0] = &a; args[1] = &out;
    images_launch(&im, "layers", W, H, L, NULL, args, 2);
    mgpuImageRead(back, a, NULL);
    for (i = 0; i < N; i++) bad += out[i] != (uint32_t)(src[4 * i] + src[4 * i + 1] + src[4 * i + 2] + src[4 * i + 3]) + 1000u * L;
    CHECK_MSG(bad == 0 && memcmp(src, back, sizeof src) == 0, "%d wrong", bad);
    mgpuImageFree(a, NULL);
    mgpuMemFree(out, NULL);
    images_unload(&im);
}

/* The 1D kinds: what is written reads back (an image1d_array's layers are its rows; an
   image1d_buffer's pixels are in a buffer). */
static void test_image_1d_round_trip(void) {
    uint16_t src[5 * 3], back[5 * 3];
    unsigned char bytes[17 * 4], bytes_back[17 * 4];
    void *a = mgpuImageCreate(IMAGE1D_ARRAY, CL_R, CL_UNSIGNED_INT16, 5, 0, 0, 3, NULL);
    void *b = mgpuImageCreate(IMAGE1D_BUFFER, CL_RGBA, CL_UNSIGNED_INT8, 17, 1, 1, 1, NULL);
    void *c = mgpuImageCreate(IMAGE1D, CL_RGBA, CL_UNSIGNED_INT8, 17, 0, 0, 0, NULL);
    int i;
    CHECK(a && b && c);
    for (i = 0; i < 15; i++) src[i] = (uint16_t)(i * 4099);
    for (i = 0; i < 68; i++) bytes[i] = (unsigned char)(i * 3 + 1);
    mgpuImageWrite(a, src, NULL);
    mgpuImageRead(back, a, NULL);
    CHECK(memcmp(src, back, sizeof src) == 0);
    mgpuImageWrite(b, bytes, NULL);
    mgpuImageRead(bytes_back, b, NULL);
    CHECK(memcmp(bytes, bytes_back, sizeof bytes) == 0);
    memset(bytes_back, 0, sizeof bytes_back);
    mgpuImageWrite(c, bytes, NULL);
    mgpuImageRead(bytes_back, c, NULL);
    CHECK(memcmp(bytes, bytes_back, sizeof bytes) == 0);
    mgpuImageFree(a, NULL);
    mgpuImageFree(b, NULL);
    mgpuImageFree(c, NULL);
}

/* signed_ints: CL_SIGNED_INT8 and 16 images read with read_imagei (sign-extended) and written with
   write_imagei (saturated), and get_image_channel_data_type / order. */
static void test_image_signed(void) {
    enum { W = 9, H = 5, N = W * H * 4 };
    int t, i;
    images im;
    if (!images_load(&im)) return;
    for (t = 0; t < 2; t++) {
        int bytes = t + 1, type = t ? CL_SIGNED_INT16 : CL_SIGNED_INT8, bad = 0, *info = (int *)alloc(4 * sizeof(int));
        long long lo = -(1ll << (8 * bytes - 1)), hi = (1ll << (8 * bytes - 1)) - 1;
        unsigned char src[N * 2], dst[N * 2];
        void *a = mgpuImageCreate(IMAGE2D, CL_RGBA, type, W, H, 0, 0, NULL), *b = mgpuImageCreate(IMAGE2D, CL_RGBA, type, W, H, 0, 0, NULL), *args[3];
        CHECK(a && b);
        for (i = 0; i < N; i++) {
            long long v = i % 5 == 0 ? lo : i % 5 == 1 ? hi : (long long)((i * 2654435761u) % (unsigned)(hi + 1)) * (i % 2 ? -1 : 1);
            memcpy(src + (size_t)i * (size_t)bytes, &v, (size_t)bytes); /* little-endian: the low bytes */
        }
        mgpuImageWrite(a, src, NULL);
        args[0] = &a; args[1] = &b; args[2] = &info;
        images_launch(&im, "signed_ints", W, H, 1, NULL, args, 3);
        mgpuImageRead(dst, b, NULL);
        for (i = 0; i < N; i++) {
            long long v = 0, got = 0, want;
            memcpy(&v, src + (size_t)i * (size_t)bytes, (size_t)bytes);
            memcpy(&got, dst + (size_t)i * (size_t)bytes, (size_t)bytes);
            v = (v << (64 - 8 * bytes)) >> (64 - 8 * bytes);
            got = (got << (64 - 8 * bytes)) >> (64 - 8 * bytes);
            want = v * -3 + i / 4 % W;
            bad += got != (want < lo ? lo : want > hi ? hi : want);
        }
        CHECK_MSG(bad == 0, "type %x: %d wrong", type, bad);
        CHECK_MSG(info[0] == type && info[1] == CL_RGBA && info[2] == type && info[3] == CL_RGBA, "%x %x %x %x", info[0], info[1], info[2], info[3]);
        mgpuImageFree(a, NULL);
        mgpuImageFree(b, NULL);
        mgpuMemFree(info, NULL);
    }
    images_unload(&im);
}

/* texels: an image1d_buffer read without a sampler, its width. */
static void test_image_1d_buffer(void) {
    enum { W = 37 };
    unsigned char src[W * 4];
    uint32_t *out = (uint32_t *)alloc((W + 1) * 4);
    void *a, *args[2];
    int i, bad = 0;
    images im;
    if (!images_load(&im)) return;
    for (i = 0; i < W * 4; i++) src[i] = (unsigned char)(i * 7 % 10);
    a = mgpuImageCreate(IMAGE1D_BUFFER, CL_RGBA, CL_UNSIGNED_INT8, W, 0, 0, 0, NULL);
    CHECK(a != NULL);
    mgpuImageWrite(a, src, NULL);
    args[0] = &a; args[1] = &out;
    mgpuLaunchKernel(mgpuModuleGetFunction(im.module, "texels"), (W + 7) / 8, 1, 1, 8, 1, 1, 0, NULL, args, NULL, 2);
    for (i = 0; i < W; i++) bad += out[i] != (uint32_t)(src[4 * i] + src[4 * i + 1] * 10 + src[4 * i + 2] * 100 + src[4 * i + 3] * 1000);
    CHECK_MSG(bad == 0 && out[W] == W, "%d wrong; width %u", bad, out[W]);
    mgpuImageFree(a, NULL);
    mgpuMemFree(out, NULL);
    images_unload(&im);
}

/* A refusal: f() returned what it should (ok), and the report holds needle. */
#define REFUSED(ok, needle) do { CHECK(ok); CHECK_MSG(strstr(last_error, needle) != NULL, "report \"%s\" lacks \"%s\"", last_error, needle); \
    last_error[0] = 0; } while (0)

/* Bad input: each refused with a report that says what, nothing crashes. */
static void test_image_errors(void) {
    uint32_t pixels[16] = {0};
    int32_t bad_sampler = 0x30, sampler = 0x10 | 2; /* nearest, clamp to edge (blur's taps fall outside) */
    void *buffer = alloc(64), *img = NULL, *f1, *f2, *args[4];
    int *size = (int *)alloc(8);
    images im;
    last_error[0] = 0;
    REFUSED(mgpuImageCreate(IMAGE2D, CL_RGB, CL_FLOAT, 4, 4, 0, 0, NULL) == NULL, "CL_RGB / CL_FLOAT");
    REFUSED(mgpuImageCreate(IMAGE2D, 0x1234, CL_FLOAT, 4, 4, 0, 0, NULL) == NULL, "channel order 0x1234");
    REFUSED(mgpuImageCreate(0x1234, CL_R, CL_FLOAT, 4, 4, 0, 0, NULL) == NULL, "image type 0x1234");
    REFUSED(mgpuImageCreate(IMAGE2D, CL_R, CL_FLOAT, 4, 4, 5, 0, NULL) == NULL, "image2d has no depth");
    REFUSED(mgpuImageCreate(IMAGE2D_ARRAY, CL_R, CL_FLOAT, 4, 4, 0, 0, NULL) == NULL, "layers must be at least 1");
    REFUSED(mgpuImageCreate(IMAGE1D, CL_R, CL_FLOAT, 0, 0, 0, 0, NULL) == NULL, "width must be at least 1");
    REFUSED(mgpuImageCreate(IMAGE2D, CL_R, CL_FLOAT, (intptr_t)1 << 40, 1, 0, 0, NULL) == NULL, "an image2d of 1099511627776x1x1 pixels");
    mgpuImageFree(NULL, NULL);
    REFUSED(1, "the image is NULL");
    mgpuImageFree(buffer, NULL);
    REFUSED(1, "not an image of mgpuImageCreate");
    mgpuImageWrite(buffer, pixels, NULL);
    REFUSED(1, "not an image of mgpuImageCreate");
    img = mgpuImageCreate(IMAGE2D, CL_RGBA, CL_UNSIGNED_INT32, 2, 2, 0, 0, NULL);
    f1 = mgpuImageCreate(IMAGE2D, CL_R, CL_FLOAT, 2, 2, 0, 0, NULL);
    f2 = mgpuImageCreate(IMAGE2D, CL_R, CL_FLOAT, 2, 2, 0, 0, NULL);
    CHECK(img && f1 && f2);
    mgpuImageRead(NULL, img, NULL);
    REFUSED(1, "the host memory is NULL");
    if (images_load(&im)) {
        args[0] = &buffer; args[1] = &img; /* a buffer where scale_uint reads an image */
        images_launch(&im, "scale_uint", 2, 2, 1, NULL, args, 2);
        REFUSED(1, "argument 0 is an image parameter: not an image of mgpuImageCreate");
        args[0] = &f1; args[1] = &bad_sampler; args[2] = &f2; args[3] = &size;
        images_launch(&im, "blur", 2, 2, 1, NULL, args, 4);
        REFUSED(1, "argument 1 is a sampler: bits 0x30");
        args[1] = &sampler; /* then a good one: the kernel still launches */
        images_launch(&im, "blur", 2, 2, 1, NULL, args, 4);
        CHECK_MSG(last_error[0] == 0 && size[0] == 2, "%s", last_error);
        images_unload(&im);
    }
    mgpuImageFree(f1, NULL);
    mgpuImageFree(f2, NULL);
    mgpuImageFree(img, NULL);
    mgpuImageFree(img, NULL); /* twice */
    REFUSED(1, "or freed already");
    mgpuMemFree(buffer, NULL);
    mgpuMemFree(size, NULL);
}
#endif

int main(int argc, char **argv) {
    (void)t_read; /* test.h's, unused here */
    (void)t_sh;
    if (argc > 1) dir = argv[1];
    gpucompile_runtime_set_error_callback(on_error, NULL);
    if (!gpucompile_runtime_available()) {
        printf("SKIP %s: %s (%s)\n", SUITE, DEVICE, last_error);
        printf("%s: 0 passed, 0 failed, 1 skipped\n", SUITE);
        return 0;
    }
    started = 1;
    printf("%s: device %s\n", SUITE, gpucompile_runtime_device_arch());
    RUN(test_threads_load_once); /* first: the binary is not loaded yet */
    RUN(test_saxpy);
    RUN(test_saxpy_stream);
    RUN(test_reduce);
    RUN(test_reduce_static);
    RUN(test_atomics);
    RUN(test_grid_2d);
    RUN(test_grid_3d);
    RUN(test_math);
    RUN(test_library);
    RUN(test_api_saxpy_1000_launches);
    RUN(test_api_opencl_c_with_library);
    RUN(test_api_errors);
#ifdef GPUCOMPILE_SPIRV_RUNTIME
    RUN(test_image_blur_linear_sampler);
    RUN(test_image_rgba8_to_float);
    RUN(test_image_uint_on_stream);
    RUN(test_image_3d);
    RUN(test_image_2d_array);
    RUN(test_image_1d_round_trip);
    RUN(test_image_signed);
    RUN(test_image_1d_buffer);
    RUN(test_image_errors);
#endif
    return TEST_END(SUITE);
}
