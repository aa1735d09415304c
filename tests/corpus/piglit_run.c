/* piglit's OpenCL program tests on the Vulkan runtime (tests/corpus/piglit.sh drives it): reads
   the configuration comment of a piglit .cl file (its [config] and [test] sections, the grammar of
   piglit's tests/cl/program/program-tester.c), runs each [test] through the mgpu* calls of
   gpucompile_vulkan.h's runtime alone (no LLVM) on a module gpucompile compiled from that file,
   and checks each output buffer against the expected values with the file's tolerance.
   Usage: piglit_run --sizes FILE.cl         each test's workgroup size, "X,Y,Z" one a line (the
                                             file's local_size, else the one this runner picks)
          piglit_run [--narrow] MODULE.spv FILE.cl [N]
                                             every test (or the N-th, from 0): a line per test,
                                             "PASS name" or "FAIL name: why"; --narrow: a test
                                             whose kernel the module lacks is skipped ("SKIP
                                             name": piglit.sh --narrow takes out the kernels
                                             with vectors of 8 or 16)
   Exit: 0 every test passed; 1 one failed; 2 the file or the module could not be read or loaded.
   Tolerances: integers by absolute difference; floats "tolerance N ulp" by the distance in units
   in the last place, "tolerance X" by absolute difference; a NaN matches any NaN, an infinity the
   same infinity. piglit's own probe (piglit_cl_probe_floating) is looser: it compares the absolute
   difference with N for "N ulp", and with the bits of X read as an integer for "X": a test that
   fails here and passes that reading says so ("(piglit's probe passes)"). Arguments: values and
   buffers of piglit's types (half ones as 16-bit floats), images (an image of the runtime's
   mgpuImageCreate, written with the values before the launch, an output one read back after it)
   and samplers (OpenCL's sampler bits). */
#if defined(PIGLIT_WEBGPU) /* piglit_run_webgpu: the same on the WebGPU runtime (sizes compiled in, no global offset) */
#define GPUCOMPILE_WEBGPU_RUNTIME
#include "gpucompile_webgpu.h"
#else
#define GPUCOMPILE_VULKAN_RUNTIME
#include "gpucompile_vulkan.h"
#endif
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_ARGS = 32, MAX_TESTS = 512 };

typedef struct {
    int set;                 /* described by the file */
    int buffer;              /* a buffer or an image (else a value) */
    int image;               /* an image: type, order, data type OpenCL's values; extent width, height, depth, layers */
    int image_type, order, data_type;
    size_t extent[4];
    int is_null;             /* NULL */
    char base;               /* 'i' signed, 'u' unsigned, 'f' floating */
    int bytes;               /* of one component */
    int n, mem_n;            /* components, and in memory (3 takes 4) */
    size_t length;           /* elements of a buffer (1 for a value) */
    unsigned char *data;     /* length * mem_n * bytes */
    int ulp;                 /* the tolerance is in ulp */
    double tol;
} arg;

typedef struct {
    char name[256], kernel[256];
    int dims, expect_fail, local_null;
    size_t global[3], local[3], offset[3];
    arg in[MAX_ARGS], out[MAX_ARGS];
} test;

static test tests[MAX_TESTS];
static int ntests;
static char runtime_error[512];

static void on_error(const char *call, int code, const char *message, void *user) {
    (void)user;
    if (!runtime_error[0]) snprintf(runtime_error, sizeof runtime_error, "%s (%d): %s", call, code, message);
}

static char *read_all(const char *path, size_t *size) {
    FILE *f = fopen(path, "rb");
    char *d = NULL;
    long n;
    if (!f) return NULL;
    if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 && (d = (char *)malloc((size_t)n + 1)) != NULL) {
        if (fread(d, 1, (size_t)n, f) != (size_t)n) {
            free(d);
            d = NULL;
        } else {
            d[n] = 0;
            if (size) *size = (size_t)n;
        }
    }
    fclose(f);
    return d;
}

static char *trim(char *s) {
    char *e;
    while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n') s++;
    e = s + strlen(s);
    while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r' || e[-1] == '\n')) *--e = 0;
    return s;
}

/* "float4" -> base, bytes, components; 0 for a type piglit's grammar does not have */
static int parse_type(const char *t, arg *a) {
    static const struct { const char *name; char base; int bytes; } types[] = {
        {"uchar", 'u', 1}, {"char", 'i', 1}, {"ushort", 'u', 2}, {"short", 'i', 2}, {"uint", 'u', 4}, {"int", 'i', 4},
        {"ulong", 'u', 8}, {"long", 'i', 8}, {"float", 'f', 4}, {"double", 'f', 8}, {"half", 'f', 2}};
    size_t i, l;
    for (i = 0; i < sizeof types / sizeof types[0]; i++) {
        l = strlen(types[i].name);
        if (strncmp(t, types[i].name, l) == 0) {
            int n = t[l] ? atoi(t + l) : 1;
            if (n != 1 && n != 2 && n != 3 && n != 4 && n != 8 && n != 16) return 0;
            a->base = types[i].base;
            a->bytes = types[i].bytes;
            a->n = n;
            a->mem_n = n == 3 ? 4 : n;
            return 1;
        }
    }
    return 0;
}

/* A half's bits of f, rounded to the nearest even. */
static unsigned short to_half(float f) {
    uint32_t u, sign, e, m;
    memcpy(&u, &f, 4);
    sign = u >> 16 & 0x8000u, e = u >> 23 & 0xff, m = u & 0x7fffff;
    if (e == 0xff) return (unsigned short)(sign | 0x7c00u | (m ? 0x200u : 0u));
    if (e > 142) return (unsigned short)(sign | 0x7c00u); /* 65520 and up */
    if (e < 113) { /* a subnormal half, or zero */
        uint32_t shift = 126 - e, r, h;
        if (shift > 24) return (unsigned short)sign;
        m |= 0x800000u;
        h = m >> shift, r = m & ((1u << shift) - 1);
        if (r > 1u << (shift - 1) || (r == 1u << (shift - 1) && (h & 1))) h++;
        return (unsigned short)(sign | h);
    }
    {
        uint32_t h = (e - 112) << 10 | m >> 13, r = m & 0x1fff;
        if (r > 0x1000 || (r == 0x1000 && (h & 1))) h++; /* a carry into the exponent is right */
        return (unsigned short)(sign | h);
    }
}

static double from_half(unsigned short h) {
    int e = h >> 10 & 0x1f, m = h & 0x3ff;
    double v = e == 0 ? ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexp(m | 0x400, e - 25);
    return h & 0x8000 ? -v : v;
}

static void put(arg *a, size_t at, const char *v) {
    unsigned char *p = a->data + at * (size_t)a->bytes;
    if (a->base == 'f') {
        double d = strtod(v, NULL);
        if (a->bytes == 2) {
            unsigned short h = to_half((float)d);
            memcpy(p, &h, 2);
        } else if (a->bytes == 4) {
            float f = (float)d;
            memcpy(p, &f, 4);
        } else memcpy(p, &d, 8);
    } else {
        unsigned long long u = v[0] == '-' ? (unsigned long long)strtoll(v, NULL, 0) : strtoull(v, NULL, 0);
        if (a->bytes == 1) { unsigned char x = (unsigned char)u; memcpy(p, &x, 1); }
        else if (a->bytes == 2) { unsigned short x = (unsigned short)u; memcpy(p, &x, 2); }
        else if (a->bytes == 4) { unsigned x = (unsigned)u; memcpy(p, &x, 4); }
        else memcpy(p, &u, 8);
    }
}

static int parse_arg_tokens(char **tok, int nt, arg *a, char *why, size_t whysize);

/* OpenCL's value of a name piglit's image and sampler arguments use (0 for none). */
static int cl_name(const char *key, const char *v) {
    static const struct { const char *key, *name; int value; } names[] = {
        {"image_type", "1d", 0x10F4}, {"image_type", "1d_array", 0x10F5}, {"image_type", "1d_buffer", 0x10F6},
        {"image_type", "2d", 0x10F1}, {"image_type", "2d_array", 0x10F3}, {"image_type", "3d", 0x10F2},
        {"image_channel_order", "R", 0x10B0}, {"image_channel_order", "A", 0x10B1}, {"image_channel_order", "RG", 0x10B2},
        {"image_channel_order", "RA", 0x10B3}, {"image_channel_order", "RGB", 0x10B4}, {"image_channel_order", "RGBA", 0x10B5},
        {"image_channel_order", "BGRA", 0x10B6}, {"image_channel_order", "ARGB", 0x10B7}, {"image_channel_order", "INTENSITY", 0x10B8},
        {"image_channel_order", "LUMINANCE", 0x10B9},
        {"image_channel_data_type", "SNORM_INT8", 0x10D0}, {"image_channel_data_type", "SNORM_INT16", 0x10D1},
        {"image_channel_data_type", "UNORM_INT8", 0x10D2}, {"image_channel_data_type", "UNORM_INT16", 0x10D3},
        {"image_channel_data_type", "SIGNED_INT8", 0x10D7}, {"image_channel_data_type", "SIGNED_INT16", 0x10D8},
        {"image_channel_data_type", "SIGNED_INT32", 0x10D9}, {"image_channel_data_type", "UNSIGNED_INT8", 0x10DA},
        {"image_channel_data_type", "UNSIGNED_INT16", 0x10DB}, {"image_channel_data_type", "UNSIGNED_INT32", 0x10DC},
        {"image_channel_data_type", "HALF_FLOAT", 0x10DD}, {"image_channel_data_type", "FLOAT", 0x10DE},
        {"addressing_mode", "NONE", 0}, {"addressing_mode", "CLAMP_TO_EDGE", 2}, {"addressing_mode", "CLAMP", 4},
        {"addressing_mode", "REPEAT", 6}, {"addressing_mode", "MIRRORED_REPEAT", 8},
        {"filter_mode", "NEAREST", 0x10}, {"filter_mode", "LINEAR", 0x20}};
    size_t i;
    for (i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(key, names[i].key) == 0 && strcmp(v, names[i].name) == 0) return names[i].value;
    return -1;
}

/* "INDEX image TYPE VALUES image_KEY VALUE ...": the image's keys into a (the values are the
   tokens before the first key, *nt cut there); "INDEX sampler KEY VALUE ...": its bits. */
static int parse_keys(char **tok, int *nt, int first, arg *a, char *why, size_t whysize) {
    int i, k, bits = 0;
    for (k = first; k < *nt && (a->image ? strncmp(tok[k], "image_", 6) != 0 : 0); k++) {}
    for (i = k; i + 1 < *nt; i += 2) {
        const char *key = tok[i], *v = tok[i + 1];
        int c = cl_name(key, v);
        if (a->image && strcmp(key, "image_width") == 0) a->extent[0] = (size_t)strtoull(v, NULL, 10);
        else if (a->image && strcmp(key, "image_height") == 0) a->extent[1] = (size_t)strtoull(v, NULL, 10);
        else if (a->image && strcmp(key, "image_depth") == 0) a->extent[2] = (size_t)strtoull(v, NULL, 10);
        else if (a->image && strcmp(key, "image_array_size") == 0) a->extent[3] = (size_t)strtoull(v, NULL, 10);
        else if (!a->image && strcmp(key, "normalized_coords") == 0) bits |= atoi(v) ? 1 : 0;
        else if (c < 0 || (a->image != (strncmp(key, "image_", 6) == 0)))
            return snprintf(why, whysize, "%s %s: not a key and value this runner knows", key, v), 0;
        else if (strcmp(key, "image_type") == 0) a->image_type = c;
        else if (strcmp(key, "image_channel_order") == 0) a->order = c;
        else if (strcmp(key, "image_channel_data_type") == 0) a->data_type = c;
        else bits |= c;
    }
    if (i < *nt) return snprintf(why, whysize, "%s without a value", tok[i]), 0;
    *nt = k;
    if (!a->image) {
        a->base = 'i', a->bytes = 4, a->n = a->mem_n = 1, a->length = 1;
        if (!(a->data = (unsigned char *)calloc(1, 4))) return snprintf(why, whysize, "out of memory"), 0;
        memcpy(a->data, &bits, 4);
        return 1;
    }
    if (!a->image_type || !a->order || !a->data_type || !a->extent[0]) return snprintf(why, whysize, "an image without its type, width, channel order or data type"), 0;
    a->length = a->extent[0];
    for (i = 1; i < 4; i++) a->length *= a->extent[i] ? a->extent[i] : 1;
    return 1;
}

/* "INDEX TYPE VALUES" or "INDEX buffer TYPE[N] VALUES|random|repeat VALUES|NULL [tolerance X [ulp]]",
   "INDEX image TYPE VALUES image_KEY VALUE ... [tolerance X [ulp]]", "INDEX sampler KEY VALUE ..." */
static int parse_arg(char *s, arg *args, char *why, size_t whysize) {
    char **tok = (char **)malloc((strlen(s) / 2 + 2) * sizeof *tok), *p; /* one per two characters at most */
    int nt = 0, r;
    unsigned idx;
    if (!tok) return snprintf(why, whysize, "out of memory"), 0;
    for (p = strtok(s, " \t"); p; p = strtok(NULL, " \t")) tok[nt++] = p;
    r = nt >= 3 && (idx = (unsigned)atoi(tok[0])) < MAX_ARGS ? parse_arg_tokens(tok, nt, &args[idx], why, whysize) :
        (snprintf(why, whysize, "argument: %s", s), 0);
    free(tok);
    return r;
}

static int parse_arg_tokens(char **tok, int nt, arg *a, char *why, size_t whysize) {
    int i, first, nv, repeat = 0;
    unsigned idx = (unsigned)atoi(tok[0]);
    memset(a, 0, sizeof *a);
    a->set = 1;
    if (strcmp(tok[1], "buffer") == 0) {
        char *br = strchr(tok[2], '[');
        a->buffer = 1;
        if (!br) return snprintf(why, whysize, "buffer without [N]: %s", tok[2]), 0;
        *br = 0;
        a->length = (size_t)strtoull(br + 1, NULL, 10);
        if (!parse_type(tok[2], a)) return snprintf(why, whysize, "type %s", tok[2]), 0;
        first = 3;
    } else if (strcmp(tok[1], "sampler") == 0) {
        return parse_keys(tok, &nt, 2, a, why, whysize);
    } else if (strcmp(tok[1], "image") == 0) {
        a->buffer = a->image = 1;
        if (!parse_type(tok[2], a)) return snprintf(why, whysize, "type %s", tok[2]), 0;
        first = 3;
    } else {
        if (!parse_type(tok[1], a)) return snprintf(why, whysize, "type %s", tok[1]), 0;
        a->length = 1;
        first = 2;
    }
    for (i = first; i < nt; i++)
        if (strcmp(tok[i], "tolerance") == 0) {
            if (i + 1 < nt) a->tol = strtod(tok[i + 1], NULL);
            a->ulp = i + 2 < nt && strcmp(tok[i + 2], "ulp") == 0;
            nt = i;
            break;
        }
    if (a->image && !parse_keys(tok, &nt, first, a, why, whysize)) return 0;
    a->data = (unsigned char *)calloc(a->length * (size_t)a->mem_n + 1, (size_t)a->bytes);
    if (!a->data) return snprintf(why, whysize, "out of memory"), 0;
    if (first < nt && (strcmp(tok[first], "NULL") == 0 || strcmp(tok[first], "null") == 0)) {
        a->is_null = 1;
        return 1;
    }
    if (first < nt && (strcmp(tok[first], "random") == 0 || strcmp(tok[first], "RANDOM") == 0)) {
        size_t k;
        unsigned r = 12345;
        for (k = 0; k < a->length * (size_t)a->mem_n * (size_t)a->bytes; k++) a->data[k] = (unsigned char)((r = r * 1103515245u + 12345u) >> 16);
        return 1;
    }
    if (first < nt && (strcmp(tok[first], "repeat") == 0 || strcmp(tok[first], "REPEAT") == 0)) repeat = 1, first++;
    nv = nt - first;
    if (nv <= 0) return snprintf(why, whysize, "argument %u has no values", idx), 0;
    if (!repeat && (size_t)nv != a->length * (size_t)a->n) return snprintf(why, whysize, "argument %u: %d values for %zu", idx, nv, a->length * (size_t)a->n), 0;
    {
        size_t e, c;
        for (e = 0; e < a->length; e++)
            for (c = 0; c < (size_t)a->n; c++) put(a, e * (size_t)a->mem_n + c, tok[first + (int)((e * (size_t)a->n + c) % (size_t)nv)]);
    }
    return 1;
}

static void sizes3(const char *v, size_t s[3]) {
    char *e;
    int i;
    for (i = 0; i < 3; i++) {
        s[i] = (size_t)strtoull(v, &e, 0);
        if (e == v) break;
        v = e;
    }
}

/* The configuration comment: between "/" "*!" and "!*" "/". */
static int parse_file(const char *path, char *why, size_t whysize) {
    size_t size;
    char *src = read_all(path, &size), *start, *end, *line, *next;
    int in_config = 0, dims = 1, expect_fail = 0, local_null = 1;
    size_t global[3] = {1, 1, 1}, local[3] = {1, 1, 1}, offset[3] = {0, 0, 0};
    char kernel[256] = "";
    test *t = NULL;
    if (!src) return snprintf(why, whysize, "cannot read %s", path), 0;
    if (!(start = strstr(src, "/*!")) || !(end = strstr(start, "!*/"))) {
        free(src);
        return snprintf(why, whysize, "no configuration comment"), 0;
    }
    *end = 0;
    /* lines ending in a backslash continue on the next */
    for (line = start + 3; line && *line; line = next) {
        char *hash, *colon, *key, *val, *bs;
        next = strchr(line, '\n');
        if (next) *next++ = 0;
        if ((hash = strchr(line, '#'))) *hash = 0;
        while ((bs = strrchr(line, '\\')) && *trim(bs + 1) == 0 && next) {
            char *more = next, *mh;
            next = strchr(more, '\n');
            if (next) *next++ = 0;
            if ((mh = strchr(more, '#'))) *mh = 0;
            *bs = ' ';
            memmove(bs + 1, more, strlen(more) + 1); /* more lies after bs: the line grows in place */
        }
        line = trim(line);
        if (!*line) continue;
        if (*line == '[') {
            if (strncmp(line, "[config]", 8) == 0) in_config = 1;
            else if (strncmp(line, "[test]", 6) == 0) {
                if (ntests == MAX_TESTS) break;
                t = &tests[ntests++];
                memset(t, 0, sizeof *t);
                snprintf(t->kernel, sizeof t->kernel, "%s", kernel);
                t->dims = dims, t->expect_fail = expect_fail, t->local_null = local_null;
                memcpy(t->global, global, sizeof global);
                memcpy(t->local, local, sizeof local);
                memcpy(t->offset, offset, sizeof offset);
                in_config = 0;
            } else in_config = 0, t = NULL; /* [program source] and the like: not these tests' */
            continue;
        }
        if (!(colon = strchr(line, ':'))) continue;
        *colon = 0;
        key = trim(line), val = trim(colon + 1);
        if (in_config || t) {
            char *k = t ? t->kernel : kernel;
            int *d = t ? &t->dims : &dims, *ef = t ? &t->expect_fail : &expect_fail, *ln = t ? &t->local_null : &local_null;
            size_t *g = t ? t->global : global, *l = t ? t->local : local, *o = t ? t->offset : offset;
            if (strcmp(key, "kernel_name") == 0) snprintf(k, 256, "%s", val);
            else if (strcmp(key, "dimensions") == 0) *d = atoi(val);
            else if (strcmp(key, "global_size") == 0) sizes3(val, g);
            else if (strcmp(key, "global_offset") == 0) sizes3(val, o);
            else if (strcmp(key, "local_size") == 0) {
                *ln = strcmp(val, "NULL") == 0 || strcmp(val, "null") == 0;
                if (!*ln) sizes3(val, l);
            } else if (strcmp(key, "expect_test_fail") == 0) *ef = strcmp(val, "true") == 0 || strcmp(val, "1") == 0;
            else if (t && strcmp(key, "name") == 0) snprintf(t->name, sizeof t->name, "%s", val);
            else if (t && (strcmp(key, "arg_in") == 0 || strcmp(key, "arg_out") == 0)) {
                if (!parse_arg(val, key[4] == 'i' ? t->in : t->out, why, whysize)) {
                    free(src);
                    return 0;
                }
            }
        }
    }
    free(src);
    if (!ntests) return snprintf(why, whysize, "no [test] section"), 0;
    return 1;
}

/* The workgroup size of a test: the file's, else in each dimension the largest divisor of the
   global size that keeps the workgroup within 64 invocations (what a driver picks for NULL). */
static void workgroup(const test *t, size_t l[3]) {
    int d;
    size_t left = 64;
    for (d = 0; d < 3; d++) {
        size_t g = d < t->dims ? t->global[d] : 1, k;
        if (!t->local_null) {
            l[d] = d < t->dims ? t->local[d] : 1;
            continue;
        }
        for (k = left < g ? left : g; k > 1 && g % k; k--) {}
        l[d] = k ? k : 1;
        left /= l[d];
    }
}

static uint64_t ordered(const unsigned char *p, int bytes) { /* a float's bits, ordered as the numbers are */
    uint64_t u = 0, sign;
    memcpy(&u, p, (size_t)bytes); /* little-endian: the low bytes */
    sign = (uint64_t)1 << (bytes * 8 - 1);
    return u & sign ? (uint64_t)0 - (u & ~sign) : u; /* -x below +0 */
}

/* piglit's probe's bound on the absolute difference */
static double loose(const arg *e) {
    float f = (float)e->tol;
    uint32_t u;
    memcpy(&u, &f, 4);
    return e->ulp ? e->tol : (double)u;
}

static int same(const arg *e, const unsigned char *got, size_t at, char *why, size_t whysize, int *piglit_ok_here) {
    const unsigned char *pe = e->data + at * (size_t)e->bytes, *pg = got + at * (size_t)e->bytes;
    if (e->base == 'f') {
        double de, dg;
        if (e->bytes == 2) {
            unsigned short he, hg;
            memcpy(&he, pe, 2), memcpy(&hg, pg, 2);
            de = from_half(he), dg = from_half(hg);
        } else if (e->bytes == 4) {
            float fe, fg;
            memcpy(&fe, pe, 4), memcpy(&fg, pg, 4);
            de = fe, dg = fg;
        } else memcpy(&de, pe, 8), memcpy(&dg, pg, 8);
        *piglit_ok_here = 0;
        if (isnan(de) && isnan(dg)) return 1;
        if (isinf(de) || isinf(dg) || isnan(de) || isnan(dg)) {
            if (de == dg) return 1;
        } else if (e->ulp) {
            uint64_t a = ordered(pe, e->bytes), b = ordered(pg, e->bytes);
            /* compared as signed distances of the ordered bit patterns */
            int64_t dist = (int64_t)(a - b);
            if (e->bytes == 4) dist = (int64_t)(int32_t)(uint32_t)(a - b);
            if (e->bytes == 2) dist = (int64_t)(int16_t)(uint16_t)(a - b);
            if (dist < 0) dist = -dist;
            if ((double)dist <= e->tol) return 1;
        } else if (fabs(de - dg) <= e->tol) return 1;
        if (!isnan(dg) && fabs(de - dg) <= loose(e)) *piglit_ok_here = 1;
        snprintf(why, whysize, "[%zu] expected %.9g, got %.9g (tolerance %g%s)", at, de, dg, e->tol, e->ulp ? " ulp" : "");
        return 0;
    } else {
        uint64_t ue = 0, ug = 0, diff;
        *piglit_ok_here = 0;
        memcpy(&ue, pe, (size_t)e->bytes), memcpy(&ug, pg, (size_t)e->bytes);
        if (e->base == 'i' && e->bytes < 8) { /* sign-extend */
            int sh = 64 - e->bytes * 8;
            ue = (uint64_t)((int64_t)(ue << sh) >> sh), ug = (uint64_t)((int64_t)(ug << sh) >> sh);
        }
        if (e->base == 'i') diff = (int64_t)ue > (int64_t)ug ? ue - ug : ug - ue;
        else diff = ue > ug ? ue - ug : ug - ue;
        if ((double)diff <= e->tol) return 1;
        if (e->base == 'i') snprintf(why, whysize, "[%zu] expected %lld, got %lld", at, (long long)ue, (long long)ug);
        else snprintf(why, whysize, "[%zu] expected %llu, got %llu", at, (unsigned long long)ue, (unsigned long long)ug);
        return 0;
    }
}

static size_t arg_bytes(const arg *a) { return a->length * (size_t)a->mem_n * (size_t)a->bytes; }

/* One test: 1 when it gives what the file expects (or fails where it expects a failure). */
static int run_test(void *module, const test *t, char *why, size_t whysize) {
    void *dev[MAX_ARGS] = {0}, *params[MAX_ARGS];
    char what[512];
    unsigned char zero[128] = {0};
    size_t l[3], grid[3];
    int i, d, n = 0, ok = 1, launched, piglit_ok = 1;
    void *f;
    why[0] = 0;
    runtime_error[0] = 0;
    for (i = 0; i < MAX_ARGS; i++)
        if (t->in[i].set || t->out[i].set) n = i + 1;
    workgroup(t, l);
    for (d = 0; d < 3; d++) {
        size_t g = d < t->dims ? t->global[d] : 1;
        if (g == 0) g = 1;
        if (g % l[d]) return snprintf(why, whysize, "global size %zu is not a multiple of the workgroup's %zu", g, l[d]), 0;
        grid[d] = g / l[d];
    }
    if (!(f = mgpuModuleGetFunction(module, t->kernel))) return snprintf(why, whysize, "no kernel %s: %s", t->kernel, runtime_error), 0;
    for (i = 0; i < n; i++) {
        const arg *a = t->in[i].set ? &t->in[i] : &t->out[i];
        params[i] = zero;
        if (!a->set) continue; /* not described by the file: zero */
        if (!a->buffer) {
            params[i] = a->data;
            continue;
        }
        if (a->image) {
            if (!(dev[i] = mgpuImageCreate(a->image_type, a->order, a->data_type, (intptr_t)a->extent[0], (intptr_t)a->extent[1],
                                           (intptr_t)a->extent[2], (intptr_t)a->extent[3], NULL))) {
                snprintf(why, whysize, "mgpuImageCreate: %s", runtime_error);
                ok = 0;
                break;
            }
            if (t->in[i].set) mgpuImageWrite(dev[i], t->in[i].data, NULL);
            else { /* an output one: zeros, as a buffer's */
                unsigned char *z = (unsigned char *)calloc(arg_bytes(a) + 1, 1);
                if (z) mgpuImageWrite(dev[i], z, NULL);
                free(z);
            }
        } else if (!a->is_null) {
            size_t bytes = arg_bytes(a);
            if (!(dev[i] = mgpuMemAlloc(bytes ? bytes : 1, NULL, true))) {
                snprintf(why, whysize, "mgpuMemAlloc: %s", runtime_error);
                ok = 0;
                break;
            }
            if (t->in[i].set) mgpuMemcpy(dev[i], t->in[i].data, bytes, NULL);
            else memset(dev[i], 0, bytes);
        }
        params[i] = &dev[i];
    }
    launched = ok;
#if defined(PIGLIT_WEBGPU)
    if (ok && (t->offset[0] || t->offset[1] || t->offset[2])) {
        snprintf(why, whysize, "a global offset, which WebGPU's launch has not");
        ok = 0, launched = 0;
    } else if (ok) {
        mgpuLaunchKernel(f, (intptr_t)grid[0], (intptr_t)grid[1], (intptr_t)grid[2], (intptr_t)l[0], (intptr_t)l[1], (intptr_t)l[2], 0, NULL,
                         params, NULL, (size_t)n);
    }
#else
    if (ok) {
        /* the work dimension and global offset too, which mgpuLaunchKernel has not */
        gpucompile_vulkan_launch_info info;
        uint32_t g32[3], l32[3];
        memset(&info, 0, sizeof info);
        info.work_dim = (uint32_t)(t->dims >= 1 && t->dims <= 3 ? t->dims : 3);
        for (d = 0; d < 3; d++) {
            info.offset[d] = (uint32_t)t->offset[d];
            g32[d] = (uint32_t)grid[d];
            l32[d] = (uint32_t)l[d];
        }
        gpucompile_vulkan_launch_kernel(f, &info, g32, l32, 0, NULL, params);
    }
#endif
    if (launched && runtime_error[0]) snprintf(why, whysize, "%s", runtime_error), ok = 0, launched = 0;
    for (i = 0; (ok || piglit_ok) && i < n; i++) {
        const arg *e = &t->out[i];
        size_t k, count;
        unsigned char *got;
        if (!e->set || !e->buffer || e->is_null || !dev[i]) continue;
        if (!(got = (unsigned char *)malloc(arg_bytes(e) + 1))) break;
        if (e->image) mgpuImageRead(got, dev[i], NULL);
        else mgpuMemcpy(got, dev[i], arg_bytes(e), NULL);
        count = e->length * (size_t)e->mem_n;
        for (k = 0; k < count && (ok || piglit_ok); k++) {
            int here = 1;
            if ((int)(k % (size_t)e->mem_n) >= e->n || same(e, got, k, what, sizeof what, &here)) continue;
            if (ok) snprintf(why, whysize, "argument %d %s", i, what);
            ok = 0;
            piglit_ok &= here;
        }
        free(got);
    }
    for (i = 0; i < n; i++)
        if (dev[i] && (t->in[i].image || t->out[i].image)) mgpuImageFree(dev[i], NULL);
        else if (dev[i]) mgpuMemFree(dev[i], NULL);
    if (!ok && launched && piglit_ok && strlen(why) + 30 < whysize) strcat(why, " (piglit's probe passes)");
    if (t->expect_fail && launched) {
        if (ok) snprintf(why, whysize, "expected to fail, passed");
        return !ok;
    }
    return ok;
}

int main(int argc, char **argv) {
    char why[1024] = "";
    int i, only = -1, failed = 0, narrow = argc > 1 && strcmp(argv[1], "--narrow") == 0;
    size_t size;
    char *words;
    void *module;
    if (argc == 3 && strcmp(argv[1], "--sizes") == 0) {
        if (!parse_file(argv[2], why, sizeof why)) return printf("ERROR %s\n", why), 2;
        for (i = 0; i < ntests; i++) {
            size_t l[3];
            workgroup(&tests[i], l);
            printf("%zu,%zu,%zu\n", l[0], l[1], l[2]);
        }
        return 0;
    }
    argv += narrow, argc -= narrow;
    if (argc < 3) return fprintf(stderr, "usage: piglit_run --sizes FILE.cl | [--narrow] MODULE.spv FILE.cl [N]\n"), 2;
    if (argc > 3) only = atoi(argv[3]);
    if (!parse_file(argv[2], why, sizeof why)) return printf("ERROR %s\n", why), 2;
    gpucompile_runtime_set_error_callback(on_error, NULL);
    if (!(words = read_all(argv[1], &size))) return printf("ERROR cannot read %s\n", argv[1]), 2;
    module = mgpuModuleLoad(words, size);
    free(words);
    if (!module) return printf("ERROR mgpuModuleLoad: %s\n", runtime_error), 2;
    for (i = 0; i < ntests; i++) {
        if (only >= 0 && i != only) continue;
        if (narrow && !mgpuModuleGetFunction(module, tests[i].kernel)) {
            printf("SKIP %s\n", tests[i].name);
            continue;
        }
        if (run_test(module, &tests[i], why, sizeof why)) printf("PASS %s\n", tests[i].name);
        else printf("FAIL %s: %s\n", tests[i].name, why), failed++;
        fflush(stdout);
    }
    mgpuModuleUnload(module);
    return failed ? 1 : 0;
}
