/* The corpus' kernels with the same inputs on two runtimes (tests/run/corpus.sh drives it): built
   once with gpucompile_spirv.h's OpenCL runtime (Intel's CPU runtime), whose outputs are the
   expected ones and are written to files, and once with -DRUN_VULKAN, gpucompile_vulkan.h's
   runtime (lavapipe), which reads them and compares. The runtimes alone: no LLVM.
   Usage: corpus_run SPEC MODULES ANSWERS [TEXT]
     SPEC: tests/run/corpus.spec (its first lines say the format); MODULES: the directory of the
     compiled modules, PACKAGE_MODULE.O2.cl.spv (OpenCL) and .O2.vk.spv (Vulkan); ANSWERS:
     the directory of OpenCL's outputs; TEXT: only the kernels whose module or name holds it.
   Prints one line per kernel (ok, FAIL with the argument, the first differing index and both
   values, KNOWN with the spec's reason), a line per package "count PACKAGE: run N agree M known K"
   and a closing line. Every runtime error (on Vulkan: each message of the validation layer,
   GPUCOMPILE_VULKAN_VALIDATION=1) fails the kernel it happens in. Exit 0 when no kernel failed. */
#if defined(RUN_VULKAN)
#define GPUCOMPILE_VULKAN_RUNTIME
#include "gpucompile_vulkan.h"
#define SUITE "run-corpus-vulkan"
#define SUFFIX "vk"
#else
#define GPUCOMPILE_SPIRV_RUNTIME
#include "gpucompile_spirv.h"
#define SUITE "run-corpus-opencl"
#define SUFFIX "cl"
#endif
#include <ctype.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_ARGS = 40, MAX_MODULES = 128, MAX_PACKAGES = 16, PAD = 4096 };

typedef enum { A_IN, A_OUT, A_SCALAR, A_LOCAL, A_IMAGE, A_OUTIMAGE, A_SAMPLER } kind;
typedef enum { T_NONE, T_EXACT, T_ULP, T_REL } tolerance;

typedef struct {
    kind k;
    char type[8];          /* f32 f64 f16 i8 u8 i16 u16 i32 u32 i64 u64 */
    size_t count;          /* elements of a buffer; an image's pixels */
    int size;              /* bytes of one element (an image: of one channel) */
    int channels;          /* an image's */
    int order, dtype;      /* an image's OpenCL channel order and type */
    size_t w, h, d;
    char fill[8];
    double f0, f1;
    double list[128];      /* fill list: the values, repeated over the buffer */
    int nlist;
    tolerance tol;
    double t0, t1;         /* ulp or rel, and abs */
    int lanes, every;      /* compare the first lanes of every every elements (0: all) */
    unsigned char scalar[16];
    void *mem;             /* buffer or image */
    unsigned char *before; /* an output's contents before the launch */
} arg;

typedef struct {
    char module[128], name[128], known[512];
    size_t global[3], local[3];
    int line, nargs;
    arg a[MAX_ARGS];
} kernel_spec;

static char runtime_error[1024];
static int errors, validation; /* runtime errors; of them, the validation layer's messages */

static void on_error(const char *call, int code, const char *message, void *user) {
    (void)user;
    errors++;
    validation += !strcmp(call, "vkDebugUtilsMessengerEXT");
    printf("  runtime: %s (%d): %s\n", call, code, message);
    if (!runtime_error[0]) snprintf(runtime_error, sizeof runtime_error, "%s: %s", call, message);
}

static unsigned char *read_all(const char *path, size_t *size) {
    FILE *f = fopen(path, "rb");
    unsigned char *d = NULL;
    long n;
    if (!f) return NULL;
    if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 && (d = (unsigned char *)malloc((size_t)n + 1)) != NULL &&
        fread(d, 1, (size_t)n, f) != (size_t)n) {
        free(d);
        d = NULL;
    }
    if (d) *size = (size_t)n;
    fclose(f);
    return d;
}

/* ---- the spec ---- */
static int type_size(const char *t) {
    static const char *const names[] = {"i8", "u8", "i16", "u16", "f16", "i32", "u32", "f32", "i64", "u64", "f64"};
    static const int sizes[] = {1, 1, 2, 2, 2, 4, 4, 4, 8, 8, 8};
    size_t i;
    for (i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        if (!strcmp(t, names[i])) return sizes[i];
    return 0;
}

static int sizes3(const char *s, size_t out[3]) {
    int n = sscanf(s, "%zu,%zu,%zu", &out[0], &out[1], &out[2]);
    if (n < 1) return 0;
    if (n < 2) out[1] = 1;
    if (n < 3) out[2] = 1;
    return 1;
}

/* FILL words: rand LO HI | ramp START STEP | const V | list V[*COUNT]... (up to a tolerance's
   word); returns the words used, 0 on error */
static int parse_fill(arg *a, char **w, int n) {
    if (n >= 2 && !strcmp(w[0], "list")) {
        int i = 1;
        snprintf(a->fill, sizeof a->fill, "list");
        for (; i < n && strcmp(w[i], "exact") && strcmp(w[i], "ulp") && strcmp(w[i], "rel"); i++) {
            char *star = strchr(w[i], '*');
            long times = star ? strtol(star + 1, NULL, 10) : 1;
            double v = strtod(w[i], NULL);
            for (; times > 0; times--) {
                if (a->nlist == (int)(sizeof a->list / sizeof a->list[0])) return 0;
                a->list[a->nlist++] = v;
            }
        }
        return a->nlist ? i : 0;
    }
    if (n >= 3 && (!strcmp(w[0], "rand") || !strcmp(w[0], "ramp"))) {
        snprintf(a->fill, sizeof a->fill, "%s", w[0]);
        a->f0 = strtod(w[1], NULL);
        a->f1 = strtod(w[2], NULL);
        return 3;
    }
    if (n >= 2 && !strcmp(w[0], "const")) {
        snprintf(a->fill, sizeof a->fill, "const");
        a->f0 = strtod(w[1], NULL);
        return 2;
    }
    return 0;
}

/* TOL words: exact | ulp N | rel R, then [abs A] [lanes K/M] (only the first K of every M
   elements compared: an alpha the kernel never sets); returns the words used, 0 on error */
static int parse_tol(arg *a, char **w, int n) {
    int i = 2;
    if (n >= 1 && !strcmp(w[0], "exact")) a->tol = T_EXACT, i = 1;
    else if (n >= 2 && (!strcmp(w[0], "ulp") || !strcmp(w[0], "rel"))) {
        a->tol = w[0][0] == 'u' ? T_ULP : T_REL;
        a->t0 = strtod(w[1], NULL);
    } else return 0;
    if (i + 1 < n && !strcmp(w[i], "abs")) a->t1 = strtod(w[i + 1], NULL), i += 2;
    if (i + 1 < n && !strcmp(w[i], "lanes")) {
        if (sscanf(w[i + 1], "%d/%d", &a->lanes, &a->every) != 2 || a->lanes < 1 || a->every < a->lanes) return 0;
        i += 2;
    }
    return i;
}

static int image_format(arg *a, const char *order, const char *type) {
    static const char *const orders[] = {"r", "rg", "rgba"};
    static const int order_ids[] = {0x10B0, 0x10B2, 0x10B5}, channels[] = {1, 2, 4};
    /* OpenCL's channel types: float, half, unorm (read as normalized floats), the integer ones */
    static const char *const types[] = {"f32", "f16", "unorm8", "unorm16", "u8", "u16", "u32", "i32"};
    static const char *const elements[] = {"f32", "f16", "u8", "u16", "u8", "u16", "u32", "i32"};
    static const int type_ids[] = {0x10DE, 0x10DD, 0x10D2, 0x10D3, 0x10DA, 0x10DB, 0x10DC, 0x10D9};
    int i, ok = 0;
    for (i = 0; i < 3; i++)
        if (!strcmp(order, orders[i])) a->order = order_ids[i], a->channels = channels[i], ok++;
    for (i = 0; i < 8; i++)
        if (!strcmp(type, types[i])) a->dtype = type_ids[i], snprintf(a->type, sizeof a->type, "%s", elements[i]), ok++;
    a->size = type_size(a->type);
    return ok == 2;
}

/* One argument line; 0 on error. */
static int parse_arg(arg *a, char **w, int n) {
    int used;
    memset(a, 0, sizeof *a);
    if (n >= 4 && (!strcmp(w[0], "in") || !strcmp(w[0], "out"))) {
        a->k = w[0][0] == 'i' ? A_IN : A_OUT;
        snprintf(a->type, sizeof a->type, "%s", w[1]);
        a->size = type_size(w[1]);
        a->count = (size_t)strtoull(w[2], NULL, 10);
        if (!a->size || !a->count || !(used = parse_fill(a, w + 3, n - 3))) return 0;
        if (a->k == A_OUT) return n > 3 + used && parse_tol(a, w + 3 + used, n - 3 - used) == n - 3 - used;
        return 3 + used == n;
    }
    if (n >= 6 && (!strcmp(w[0], "image") || !strcmp(w[0], "outimage"))) {
        size_t dims[3] = {1, 1, 1};
        a->k = w[0][0] == 'i' ? A_IMAGE : A_OUTIMAGE;
        if (!image_format(a, w[1], w[2]) || !sizes3(w[3], dims)) return 0;
        a->w = dims[0], a->h = dims[1], a->d = dims[2];
        a->count = dims[0] * dims[1] * dims[2] * (size_t)a->channels;
        if (!(used = parse_fill(a, w + 4, n - 4))) return 0;
        if (a->k == A_OUTIMAGE) return n > 4 + used && parse_tol(a, w + 4 + used, n - 4 - used) == n - 4 - used;
        return 4 + used == n;
    }
    if (n == 2 && !strcmp(w[0], "local")) {
        a->k = A_LOCAL;
        a->count = (size_t)strtoull(w[1], NULL, 10);
        return a->count > 0;
    }
    if (n == 2 && !strcmp(w[0], "sampler")) {
        int32_t v = (int32_t)strtol(w[1], NULL, 0);
        a->k = A_SAMPLER;
        memcpy(a->scalar, &v, 4);
        return 1;
    }
    if (n >= 2 && n <= 9 && type_size(w[0])) { /* a scalar, or a vector of n - 1 lanes (int2: i32 X Y) */
        int j, sz = type_size(w[0]);
        a->k = A_SCALAR;
        snprintf(a->type, sizeof a->type, "%s", w[0]);
        if ((n - 1) * sz > (int)sizeof a->scalar) return 0;
        for (j = 1; j < n; j++) {
            unsigned char *p = a->scalar + (j - 1) * sz;
            if (!strcmp(w[0], "f32")) {
                float f = strtof(w[j], NULL);
                memcpy(p, &f, 4);
            } else if (!strcmp(w[0], "f64")) {
                double f = strtod(w[j], NULL);
                memcpy(p, &f, 8);
            } else {
                int64_t v = strtoll(w[j], NULL, 0);
                memcpy(p, &v, (size_t)sz); /* little-endian: the low bytes */
            }
        }
        return 1;
    }
    return 0;
}

/* ---- inputs: the same on both runtimes (a fixed generator seeded by the kernel and argument) ---- */
static uint64_t rng_next(uint64_t *s) {
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static uint16_t to_half(float f) { /* round to nearest: enough for inputs */
    uint32_t x, sign, e, m;
    memcpy(&x, &f, 4);
    sign = (x >> 16) & 0x8000u;
    e = (x >> 23) & 0xFFu;
    m = x & 0x7FFFFFu;
    if (e >= 143) return (uint16_t)(sign | 0x7C00u);
    if (e < 113) return (uint16_t)sign;
    return (uint16_t)(sign | ((e - 112) << 10) | ((m + 0x1000u) >> 13));
}

static void fill(const arg *a, unsigned char *p, uint64_t seed) {
    size_t i;
    int fl = a->type[0] == 'f';
    for (i = 0; i < a->count; i++) {
        double v = a->f0;
        if (!strcmp(a->fill, "ramp")) v = a->f0 + a->f1 * (double)i;
        else if (!strcmp(a->fill, "list")) v = a->list[i % (size_t)a->nlist];
        else if (!strcmp(a->fill, "rand")) {
            uint64_t r = rng_next(&seed);
            if (fl) v = a->f0 + (a->f1 - a->f0) * ((double)(r >> 11) / 9007199254740992.0);
            else v = a->f0 + (double)(r % (uint64_t)(a->f1 - a->f0 + 1));
        }
        if (!strcmp(a->type, "f32")) {
            float f = (float)v;
            memcpy(p + i * 4, &f, 4);
        } else if (!strcmp(a->type, "f64")) memcpy(p + i * 8, &v, 8);
        else if (!strcmp(a->type, "f16")) {
            uint16_t h = to_half((float)v);
            memcpy(p + i * 2, &h, 2);
        } else {
            int64_t x = v >= 9223372036854775808.0 ? (int64_t)(uint64_t)v : (int64_t)v;
            memcpy(p + i * (size_t)a->size, &x, (size_t)a->size); /* little-endian: the low bytes */
        }
    }
}

/* ---- comparison ---- */
#if defined(RUN_VULKAN)
static double value(const arg *a, const unsigned char *p, size_t i) {
    if (!strcmp(a->type, "f32")) {
        float f;
        memcpy(&f, p + i * 4, 4);
        return f;
    }
    if (!strcmp(a->type, "f64")) {
        double d;
        memcpy(&d, p + i * 8, 8);
        return d;
    }
    if (a->type[0] == 'u' || a->type[0] == 'f') { /* f16: its bits */
        uint64_t x = 0;
        memcpy(&x, p + i * (size_t)a->size, (size_t)a->size);
        return (double)x;
    }
    {
        int64_t x = 0;
        memcpy(&x, p + i * (size_t)a->size, (size_t)a->size);
        if (a->size < 8 && (x >> (a->size * 8 - 1)) & 1) x -= (int64_t)1 << (a->size * 8);
        return (double)x;
    }
}

/* 1 when got is within the tolerance of want; *ulps: the distance in ulp (floats) */
static int close_enough(const arg *a, double want, double got, double *ulps) {
    int fl = !strcmp(a->type, "f32") || !strcmp(a->type, "f64");
    double d = fabs(want - got), ulp;
    *ulps = 0;
    if (!fl && a->tol != T_EXACT) return d <= a->t1; /* integers: abs A */
    if (!fl || a->tol == T_EXACT) return want == got || (fl && isnan(want) && isnan(got));
    if (isnan(want) || isnan(got)) return isnan(want) && isnan(got);
    if (isinf(want) || isinf(got)) return want == got;
    if (!strcmp(a->type, "f32")) {
        float m = fmaxf(fmaxf(fabsf((float)want), fabsf((float)got)), FLT_MIN);
        ulp = (double)nextafterf(m, INFINITY) - (double)m;
    } else {
        double m = fmax(fmax(fabs(want), fabs(got)), DBL_MIN);
        ulp = nextafter(m, INFINITY) - m;
    }
    *ulps = d / ulp;
    if (a->tol == T_ULP) return *ulps <= a->t0 || d <= a->t1;
    return d <= a->t0 * fmax(fabs(want), fabs(got)) || d <= a->t1;
}

#endif

/* ---- one kernel ---- */
static struct {
    char name[128];
    void *module;
} modules[MAX_MODULES];
static int nmodules;
static const char *mod_dir, *ans_dir;

static void *module_of(const char *name) {
    char path[1024], flat[128];
    unsigned char *data;
    size_t size = 0, i;
    int m;
    for (m = 0; m < nmodules; m++)
        if (!strcmp(modules[m].name, name)) return modules[m].module;
    if (nmodules == MAX_MODULES) return NULL;
    snprintf(flat, sizeof flat, "%s", name);
    for (i = 0; flat[i]; i++)
        if (flat[i] == '/') flat[i] = '_';
    snprintf(path, sizeof path, "%s/%s.O2." SUFFIX ".spv", mod_dir, flat);
    snprintf(modules[nmodules].name, sizeof modules[nmodules].name, "%s", name);
    data = read_all(path, &size);
    modules[nmodules].module = data ? mgpuModuleLoad(data, size) : NULL;
    if (!data) printf("  no module %s\n", path);
    free(data);
    return modules[nmodules++].module;
}

static void answer_path(char *path, size_t n, const kernel_spec *k, int i) {
    char flat[128];
    size_t j;
    snprintf(flat, sizeof flat, "%s", k->module);
    for (j = 0; flat[j]; j++)
        if (flat[j] == '/') flat[j] = '_';
    snprintf(path, n, "%s/%s.%s.%d.%d", ans_dir, flat, k->name, k->line, i); /* a kernel may be run twice */
}

static size_t arg_bytes(const arg *a) { return a->count * (size_t)a->size; }

/* 0 ok, 1 failed, 2 a known disagreement */
static int run_kernel(kernel_spec *k) {
    void *params[MAX_ARGS], *fn, *module;
    size_t grid[3];
    uint32_t shared = 0;
    int i, bad = 0, changed = 0, outputs = 0, disagree = 0;
#if defined(RUN_VULKAN)
    double worst = 0;
#endif
    char first[1200] = "";
    runtime_error[0] = 0;
    errors = validation = 0;
    for (i = 0; i < 3; i++) {
        if (!k->local[i] || k->global[i] % k->local[i]) {
            printf("FAIL %s %s (spec line %d): the global size is not a multiple of the local size\n", k->module, k->name, k->line);
            return 1;
        }
        grid[i] = k->global[i] / k->local[i];
    }
    module = module_of(k->module);
    fn = module ? mgpuModuleGetFunction(module, k->name) : NULL;
    if (!fn) {
        printf("FAIL %s %s: not loaded: %s\n", k->module, k->name, runtime_error);
        return 1;
    }
    for (i = 0; i < k->nargs; i++) {
        arg *a = &k->a[i];
        uint64_t seed = (uint64_t)k->line * 1000003u + (uint64_t)i;
        a->mem = NULL;
        a->before = NULL;
        switch (a->k) {
        case A_IN:
        case A_OUT:
            a->mem = mgpuMemAlloc(arg_bytes(a) + PAD, NULL, true);
            if (!a->mem) break;
            memset(a->mem, 0, arg_bytes(a) + PAD);
            fill(a, (unsigned char *)a->mem, seed);
            params[i] = &a->mem;
            break;
        case A_IMAGE:
        case A_OUTIMAGE: {
            unsigned char *host = (unsigned char *)calloc(arg_bytes(a), 1);
            a->mem = host ? mgpuImageCreate(a->d > 1 ? 0x10F2 : a->h > 1 ? 0x10F1 : 0x10F4, a->order, a->dtype, (intptr_t)a->w,
                                            a->h > 1 ? (intptr_t)a->h : 0, a->d > 1 ? (intptr_t)a->d : 0, 0, NULL)
                          : NULL;
            if (a->mem) {
                fill(a, host, seed);
                mgpuImageWrite(a->mem, host, NULL);
            }
            free(host);
            params[i] = &a->mem;
            break;
        }
        case A_LOCAL:
            if (shared && shared != a->count) {
                printf("FAIL %s %s: local arguments of different sizes (one launch size for all)\n", k->module, k->name);
                bad = 1;
            }
            shared = (uint32_t)a->count;
            a->mem = NULL;
            params[i] = &a->mem;
            break;
        case A_SCALAR:
        case A_SAMPLER:
            params[i] = a->scalar;
            break;
        }
        if ((a->k == A_IN || a->k == A_OUT || a->k == A_IMAGE || a->k == A_OUTIMAGE) && !a->mem) bad = 1;
        if (!bad && (a->k == A_OUT || a->k == A_OUTIMAGE)) {
            a->before = (unsigned char *)malloc(arg_bytes(a));
            if (a->k == A_OUT) memcpy(a->before, a->mem, arg_bytes(a));
            else mgpuImageRead(a->before, a->mem, NULL);
        }
    }
    if (!bad) {
        mgpuLaunchKernel(fn, (intptr_t)grid[0], (intptr_t)grid[1], (intptr_t)grid[2], (intptr_t)k->local[0], (intptr_t)k->local[1],
                         (intptr_t)k->local[2], (int32_t)shared, NULL, params, NULL, (size_t)k->nargs);
        mgpuStreamSynchronize(NULL);
    }
    for (i = 0; !bad && i < k->nargs; i++) {
        arg *a = &k->a[i];
        unsigned char *got, *want;
        char path[1024];
        size_t n = 0, j;
        if (a->k != A_OUT && a->k != A_OUTIMAGE) continue;
        outputs++;
        got = (unsigned char *)malloc(arg_bytes(a));
        if (a->k == A_OUT) memcpy(got, a->mem, arg_bytes(a));
        else mgpuImageRead(got, a->mem, NULL);
        changed += memcmp(got, a->before, arg_bytes(a)) != 0;
        answer_path(path, sizeof path, k, i);
#if defined(RUN_VULKAN)
        want = read_all(path, &n);
        if (!want || n != arg_bytes(a)) {
            snprintf(first, sizeof first, "argument %d: no OpenCL answer (%s)", i, path);
            disagree = 1;
        }
        for (j = 0; want && n == arg_bytes(a) && j < a->count; j++) {
            double u, w = value(a, want, j), g = value(a, got, j);
            if (a->every && (int)(j % (size_t)a->every) >= a->lanes) continue;
            if (!close_enough(a, w, g, &u)) {
                if (!disagree)
                    snprintf(first, sizeof first, "argument %d index %zu: OpenCL %.9g, Vulkan %.9g (%zu of %zu differ)", i, j, w, g,
                             (size_t)0, a->count);
                disagree++;
            } else if (u > worst) worst = u;
        }
        if (disagree) { /* the count of differing elements into the message */
            char *p = strstr(first, "(0 of");
            size_t cnt = 0;
            for (j = 0; want && n == arg_bytes(a) && j < a->count; j++) {
                double u;
                if (a->every && (int)(j % (size_t)a->every) >= a->lanes) continue;
                cnt += !close_enough(a, value(a, want, j), value(a, got, j), &u);
            }
            if (p) snprintf(p, sizeof first - (size_t)(p - first), "(%zu of %zu differ)", cnt, a->count);
        }
        free(want);
#else
        {
            FILE *f = fopen(path, "wb");
            if (!f || fwrite(got, 1, arg_bytes(a), f) != arg_bytes(a)) bad = 1, snprintf(first, sizeof first, "cannot write %s", path);
            if (f) fclose(f);
        }
        (void)want;
        (void)n;
        (void)j;
#endif
        free(got);
        if (disagree) break;
    }
    for (i = 0; i < k->nargs; i++) {
        arg *a = &k->a[i];
        if (a->mem && (a->k == A_IN || a->k == A_OUT)) mgpuMemFree(a->mem, NULL);
        if (a->mem && (a->k == A_IMAGE || a->k == A_OUTIMAGE)) mgpuImageFree(a->mem, NULL);
        free(a->before);
    }
#if defined(RUN_VULKAN)
    if (errors && !validation && !bad && k->known[0]) { /* a launch that Vulkan refuses, understood */
        printf("KNOWN %s %s: %s; %s\n", k->module, k->name, k->known, runtime_error);
        return 2;
    }
#endif
    if (errors || bad) {
        printf("FAIL %s %s: %s%s%s\n", k->module, k->name, runtime_error[0] ? runtime_error : "an allocation failed", first[0] ? "; " : "", first);
        return 1;
    }
    if (!changed) { /* a spec that makes the kernel return at once measures nothing */
        printf("FAIL %s %s: the kernel wrote none of its %d outputs (spec line %d)\n", k->module, k->name, outputs, k->line);
        return 1;
    }
    if (disagree && k->known[0]) {
        printf("KNOWN %s %s: %s; %s\n", k->module, k->name, k->known, first);
        return 2;
    }
    if (disagree) {
        printf("FAIL %s %s: %s\n", k->module, k->name, first);
        return 1;
    }
#if defined(RUN_VULKAN)
    if (k->known[0]) {
        printf("FAIL %s %s: marked a known disagreement (%s) and now agrees: take the mark out\n", k->module, k->name, k->known);
        return 1;
    }
    printf("ok   %s %s: %d outputs agree (largest float difference %.2g ulp)\n", k->module, k->name, outputs, worst);
#else
    printf("ok   %s %s: %d outputs written\n", k->module, k->name, outputs);
#endif
    return 0;
}

/* ---- main ---- */
static struct {
    char name[32];
    int run, agree, known;
} packages[MAX_PACKAGES];
static int npackages;

static void count(const kernel_spec *k, int r) {
    char pkg[32];
    int p;
    snprintf(pkg, sizeof pkg, "%.*s", (int)strcspn(k->module, "/"), k->module);
    for (p = 0; p < npackages && strcmp(packages[p].name, pkg); p++) {}
    if (p == npackages) {
        if (npackages == MAX_PACKAGES) return;
        snprintf(packages[npackages++].name, sizeof packages[0].name, "%s", pkg);
    }
    packages[p].run++;
    packages[p].agree += r == 0;
    packages[p].known += r == 2;
}

int main(int argc, char **argv) {
    FILE *f;
    char line[4096];
    static kernel_spec k;
    int have = 0, lineno = 0, failed = 0, passed = 0, known = 0, p, spec_bad = 0;
    const char *only = argc > 4 ? argv[4] : "";
    if (argc < 4) {
        fprintf(stderr, "usage: %s SPEC MODULES ANSWERS [TEXT]\n", argv[0]);
        return 2;
    }
    mod_dir = argv[2];
    ans_dir = argv[3];
    if (!(f = fopen(argv[1], "r"))) {
        fprintf(stderr, "%s: cannot read %s\n", argv[0], argv[1]);
        return 2;
    }
    gpucompile_runtime_set_error_callback(on_error, NULL);
    if (!gpucompile_runtime_available()) {
        printf("SKIP no device: %s\n%s: 0 passed, 0 failed, 1 skipped\n", runtime_error, SUITE);
        fclose(f);
        return 0;
    }
#if defined(RUN_VULKAN)
    {
        gpucompile_vulkan_runtime_info info;
        if (gpucompile_vulkan_runtime_info_get(&info)) printf("device: %s, the validation layer %s\n", info.device_name, info.validation ? "on" : "off");
    }
#endif
    for (;;) {
        char *w[160], *s, *got = fgets(line, sizeof line, f);
        int n = 0;
        if (got) {
            lineno++;
            if ((s = strchr(line, '#')) != NULL) *s = 0;
            for (s = strtok(line, " \t\r\n"); s && n < 160; s = strtok(NULL, " \t\r\n")) w[n++] = s;
            if (!n) continue;
        }
        if (!got || !strcmp(w[0], "kernel")) {
            if (have && (strstr(k.module, only) || strstr(k.name, only))) {
                int r = run_kernel(&k);
                count(&k, r);
                failed += r == 1;
                passed += r != 1;
                known += r == 2;
            }
            if (!got) break;
            memset(&k, 0, sizeof k);
            have = n == 5 && snprintf(k.module, sizeof k.module, "%s", w[1]) > 0 && snprintf(k.name, sizeof k.name, "%s", w[2]) > 0 &&
                   sizes3(w[3], k.global) && sizes3(w[4], k.local);
            k.line = lineno;
            if (!have) spec_bad = lineno;
        } else if (!strcmp(w[0], "known") && have && n > 1) {
            size_t used = 0;
            for (p = 1; p < n; p++) used += (size_t)snprintf(k.known + used, used < sizeof k.known ? sizeof k.known - used : 0, "%s%s", p > 1 ? " " : "", w[p]);
        } else if (have && k.nargs < MAX_ARGS && parse_arg(&k.a[k.nargs], w, n)) k.nargs++;
        else spec_bad = lineno;
        if (spec_bad) {
            printf("FAIL %s:%d: not a line of the spec\n", argv[1], spec_bad);
            fclose(f);
            printf("%s: %d passed, %d failed, 0 skipped\n", SUITE, passed, failed + 1);
            return 1;
        }
    }
    fclose(f);
    for (p = 0; p < npackages; p++)
        printf("count %s: run %d agree %d known %d\n", packages[p].name, packages[p].run, packages[p].agree, packages[p].known);
    printf("%s: %d passed, %d failed, 0 skipped (%d known disagreements among the passed)\n", SUITE, passed, failed, known);
    return failed != 0;
}
