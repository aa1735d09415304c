/* OpenCL C's built-in library on Vulkan ([section: lowering] of gpucompile_lower.h, the
   library as IR at each call): tests/run/vulkan/builtins.cl (clang -target spirv64 -O2: the LLVM in use's)
   rewritten by gpucompile_lower_kernels, compiled by LLVM's SPIR-V code generator for
   spirv1.6-unknown-vulkan1.3-compute, checked by spirv-val, run on the first Vulkan device
   (lavapipe here) through the runtime's mgpu* launch, and every answer compared with the host's:
   exactly for the integer, relational and vector functions, within OpenCL's ULP limits (the ones
   piglit checks) for the floating-point ones. */
#define GPUCOMPILE_VULKAN_RUNTIME
#include "test.h"
#include "gpucompile_vulkan.h"
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <llvm-c/Analysis.h>
#include <llvm-c/IRReader.h>
#include <llvm-c/Target.h>

static char dir[256];
static int have_tools;
static void *module;


/* IR text -> lowered -> SPIR-V words in out (the parameter strings added); log: the errors. */
static int compile_ir(const char *ir, size_t len, gpucompile_buf *out, t_log *log) {
    static const char *triple = "spirv1.6-unknown-vulkan1.3-compute";
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMMemoryBufferRef mb = LLVMCreateMemoryBufferWithMemoryRangeCopy(ir, len, "builtins.ll"), obj = NULL;
    LLVMModuleRef m = NULL;
    LLVMTargetRef t;
    LLVMTargetMachineRef tm = NULL;
    LLVMTargetDataRef td;
    gpucompile_logger logger;
    char *msg = NULL, *dl;
    int ok = 0, n = 0;
    logger.func = t_log_func;
    logger.user_data = log;
    if (LLVMParseIRInContext(ctx, mb, &m, &msg) || LLVMGetTargetFromTriple(triple, &t, &msg)) {
        printf("  %s\n", msg ? msg : "");
        goto done;
    }
    tm = LLVMCreateTargetMachine(t, triple, "", "", LLVMCodeGenLevelDefault, LLVMRelocDefault, LLVMCodeModelDefault);
    td = LLVMCreateTargetDataLayout(tm);
    dl = LLVMCopyStringRepOfTargetData(td);
    LLVMSetTarget(m, triple);
    LLVMSetDataLayout(m, dl);
    LLVMDisposeMessage(dl);
    LLVMDisposeTargetData(td);
    if (gpucompile_lower_kernels(NULL, m, gpucompile_vulkan_lower_target(), NULL, &logger, &n) != GPUCOMPILE_OK) goto done;
    if (LLVMVerifyModule(m, LLVMPrintMessageAction, &msg)) goto done;
    if (msg) LLVMDisposeMessage(msg);
    msg = NULL;
    if (getenv("T_DUMP")) LLVMDumpModule(m);
    if (LLVMTargetMachineEmitToMemoryBuffer(tm, m, LLVMObjectFile, &msg, &obj)) {
        printf("  codegen: %s\n", msg ? msg : "");
        goto done;
    }
    ok = gpucompile_vulkan_mark_params(m, LLVMGetBufferStart(obj), LLVMGetBufferSize(obj), out) == GPUCOMPILE_OK;
done:
    if (msg) LLVMDisposeMessage(msg);
    if (obj) LLVMDisposeMemoryBuffer(obj);
    if (m) LLVMDisposeModule(m);
    if (tm) LLVMDisposeTargetMachine(tm);
    LLVMContextDispose(ctx);
    return ok;
}

/* OpenCL C source -> clang -O2 -> lowered -> spirv-val -> a loaded module in *out (NULL: skipped
   or failed, said so) */
static void compile_cl(const char *source, const char *stem, void **out) {
    char cmd[1024], ll[512], spv[512], name[64];
    size_t size;
    char *ir;
    t_log log;
    gpucompile_buf m;
    *out = NULL;
    if (!have_tools) SKIP("no clang / spirv-val / LLVM SPIR-V target");
    snprintf(ll, sizeof ll, "%s/%s.ll", dir, stem);
    snprintf(cmd, sizeof cmd, "clang -cl-std=CL2.0 -target spirv64 -O2 -emit-llvm -S %s -o '%s'", source, ll);
    CHECK(t_sh_ok(cmd));
    if (!(ir = (char *)t_read(ll, &size))) return;
    memset(&log, 0, sizeof log);
    memset(&m, 0, sizeof m);
    CHECK_MSG(compile_ir(ir, size, &m, &log), "%s", log.text);
    free(ir);
    if (!m.len) return;
    snprintf(name, sizeof name, "%s.spv", stem);
    CHECK(t_save(dir, name, m.data, m.len, spv, sizeof spv));
    snprintf(cmd, sizeof cmd, "spirv-val --target-env vulkan1.3 '%s'", spv);
    if (!t_sh_ok(cmd)) {
        CHECK(0);
        free(m.data);
        return;
    }
    gpucompile_runtime_set_error_callback(t_on_runtime_error, NULL);
    *out = mgpuModuleLoad(m.data, m.len);
    free(m.data);
    if (!*out && !gpucompile_vulkan_runtime_info_get(NULL)) SKIP("no Vulkan device: %s", t_runtime_error);
    CHECK(*out != NULL);
}

/* builtins.cl -> module */
static void test_compile(void) {
    compile_cl("tests/run/vulkan/builtins.cl", "builtins", &module);
}

static void *alloc(size_t bytes) {
    void *p = mgpuMemAlloc(bytes, NULL, true);
    if (p) memset(p, 0, bytes);
    return p;
}

static void launch_in(void *mod, const char *name, int n, void **args, int nargs) {
    mgpuLaunchKernel(mgpuModuleGetFunction(mod, name), (n + 63) / 64, 1, 1, 64, 1, 1, 0, NULL, args, NULL, nargs);
}

static void launch(const char *name, int n, void **args, int nargs) {
    launch_in(module, name, n, args, nargs);
}

/* ---- the host's answers: integers ---- */
typedef long long i64;
typedef unsigned long long u64;
static int32_t h_add_sat(int32_t a, int32_t b) { i64 s = (i64)a + b; return s > INT_MAX ? INT_MAX : s < INT_MIN ? INT_MIN : (int32_t)s; }
static int32_t h_sub_sat(int32_t a, int32_t b) { i64 s = (i64)a - b; return s > INT_MAX ? INT_MAX : s < INT_MIN ? INT_MIN : (int32_t)s; }
static i64 h_clamp64(i64 v, i64 lo, i64 hi) { return v < lo ? lo : v > hi ? hi : v; }
static int h_clz(u64 x, int bits) { int n = 0; while (n < bits && !(x >> (bits - 1 - n) & 1)) n++; return n; }
static int h_ctz(u64 x, int bits) { int n = 0; while (n < bits && !(x >> n & 1)) n++; return n; }
static int h_pop(u64 x) { int n = 0; while (x) { n += (int)(x & 1); x >>= 1; } return n; }
static uint32_t h_rot32(uint32_t x, uint32_t s) { s &= 31; return s ? x << s | x >> (32 - s) : x; }
static u64 h_rot64(u64 x, u64 s) { s &= 63; return s ? x << s | x >> (64 - s) : x; }
/* 64 x 64 -> the high 64 bits, by 32-bit halves (C has no wider type to check against) */
static u64 h_umulhi(u64 a, u64 b) {
    u64 a0 = a & 0xffffffffu, a1 = a >> 32, b0 = b & 0xffffffffu, b1 = b >> 32;
    u64 p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    u64 mid = (p00 >> 32) + (p01 & 0xffffffffu) + (p10 & 0xffffffffu);
    return p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
}
static i64 h_smulhi(i64 a, i64 b) {
    u64 h = h_umulhi((u64)a, (u64)b);
    if (a < 0) h -= (u64)b;
    if (b < 0) h -= (u64)a;
    return (i64)h;
}
/* a*b+c saturated at 64 bits: the exact 128-bit value as (hi, lo) */
static i64 h_mad_sat64(i64 a, i64 b, i64 c) {
    u64 lo = (u64)a * (u64)b, hi = (u64)h_smulhi(a, b), lo2 = lo + (u64)c;
    hi += (lo2 < lo) + (c < 0 ? ~0ull : 0);
    if (hi == (lo2 >> 63 ? ~0ull : 0)) return (i64)lo2;
    return (i64)hi < 0 ? LLONG_MIN : LLONG_MAX;
}
static u64 h_umad_sat64(u64 a, u64 b, u64 c) {
    u64 lo = a * b, hi = h_umulhi(a, b), lo2 = lo + c;
    hi += lo2 < lo;
    return hi ? ~0ull : lo2;
}

static const int32_t ivals[] = {0, 1, -1, INT_MAX, INT_MIN, 0x12345678, -0x789abcd, 255, 128, -128, 65535, 7, 31, 33, -32768, 0x7fff, 100000, -3, 0x40000000, 5};
#define NIV ((int)(sizeof ivals / sizeof ivals[0]))

static void test_integer(void) {
    int n = 400, i, bad = 0, first = -1, slot = -1;
    int32_t *a, *b, *c, *out;
    i64 *wide;
    void *args[6];
    if (!module) SKIP("no module");
    a = (int32_t *)alloc((size_t)n * 4);
    b = (int32_t *)alloc((size_t)n * 4);
    c = (int32_t *)alloc((size_t)n * 4);
    out = (int32_t *)alloc((size_t)n * 40 * 4);
    wide = (i64 *)alloc((size_t)n * 16 * 8);
    for (i = 0; i < n; i++) {
        a[i] = ivals[i % NIV];
        b[i] = ivals[(i / NIV) % NIV];
        c[i] = ivals[(i * 7 + 3) % NIV];
    }
    args[0] = &a; args[1] = &b; args[2] = &c; args[3] = &out; args[4] = &wide; args[5] = &n;
    launch("ints", n, args, 6);
    for (i = 0; i < n; i++) {
        int32_t x = a[i], y = b[i], z = c[i], lo = y < z ? y : z, hi = y < z ? z : y, want[40];
        uint32_t ux = (uint32_t)x, uy = (uint32_t)y, uz = (uint32_t)z;
        int32_t v[4], u[4], r[4];
        i64 lx = (i64)(((u64)(i64)x << 32) ^ (u64)(i64)y), ly = (i64)(((u64)(i64)y << 29) ^ (u64)(i64)z), lz = (i64)(((u64)(i64)z << 31) ^ (u64)(i64)x);
        i64 wwant[16];
        int k;
        want[0] = (int32_t)(x < 0 ? 0u - ux : ux);
        want[1] = (int32_t)(x > y ? ux - uy : uy - ux);
        want[2] = h_add_sat(x, y);
        want[3] = h_sub_sat(x, y);
        want[4] = (int32_t)(ux + uy < ux ? UINT_MAX : ux + uy);
        want[5] = (int32_t)(ux < uy ? 0 : ux - uy);
        want[6] = (int32_t)(((i64)x + y) >> 1);
        want[7] = (int32_t)(((i64)x + y + 1) >> 1);
        want[8] = (int32_t)(((u64)ux + uy) >> 1);
        want[9] = (int32_t)(((u64)ux + uy + 1) >> 1);
        want[10] = h_clz(ux, 32);
        want[11] = h_pop(ux);
        want[12] = (int32_t)(((i64)x * y) >> 32);
        want[13] = (int32_t)(((u64)ux * uy) >> 32);
        want[14] = (int32_t)((uint32_t)(((i64)x * y) >> 32) + uz);
        want[15] = (int32_t)h_rot32(ux, uy);
        want[16] = (int32_t)h_clamp64((i64)x * y + z, INT_MIN, INT_MAX);
        want[17] = (int32_t)(uint32_t)((u64)ux * uy + uz > UINT_MAX ? UINT_MAX : (u64)ux * uy + uz);
        want[18] = x < lo ? lo : x > hi ? hi : x;
        want[19] = (int32_t)h_clamp64((i64)(signed char)x + (signed char)y, -128, 127);
        want[20] = (unsigned char)x < (unsigned char)y ? 0 : (unsigned char)x - (unsigned char)y;
        want[21] = h_clz((uint16_t)x, 16);
        want[22] = h_pop((unsigned char)x);
        want[23] = (signed char)(((signed char)x * (signed char)y) >> 8);
        want[24] = (int32_t)((uint32_t)(uint16_t)(int16_t)x << 16 | (uint16_t)y);
        want[25] = (int32_t)(ux > uy ? ux - uy : uy - ux);
        want[26] = (int32_t)(ux > uy ? ux : uy);
        want[27] = (int32_t)(ux < uy ? ux : uy);
        want[28] = h_ctz(ux, 32);
        want[29] = (int16_t)h_clamp64((i64)(int16_t)x * (int16_t)y + (int16_t)z, -32768, 32767);
        want[30] = (unsigned char)(((unsigned char)x << ((unsigned char)y & 7)) | ((unsigned char)x >> ((8 - ((unsigned char)y & 7)) & 7)));
        want[31] = (int32_t)((uint32_t)(x & 0x7fffff) * (uint32_t)(y & 0x7fffff));
        want[32] = (int32_t)((uint32_t)(x & 0x7fffff) * (uint32_t)(y & 0xffff) + uz);
        v[0] = x; v[1] = y; v[2] = z; v[3] = x ^ y;
        u[0] = y; u[1] = z; u[2] = x; u[3] = 7;
        for (k = 0; k < 4; k++) {
            static const int swz[4] = {1, 0, 3, 2};
            int s = swz[k];
            uint32_t ad = v[s] > u[s] ? (uint32_t)v[s] - (uint32_t)u[s] : (uint32_t)u[s] - (uint32_t)v[s];
            uint32_t sum = (uint32_t)(v[k] > 3 ? v[k] : 3) + (uint32_t)(u[k] < v[k] ? u[k] : v[k]) - (uint32_t)(v[k] < -100 ? -100 : v[k] > 100 ? 100 : v[k]) +
                           (uint32_t)h_add_sat(v[k], u[k]) + ad;
            r[k] = (int32_t)sum;
            want[33 + k] = r[k];
        }
        want[37] = h_pop((uint32_t)x) + 100 * h_clz(7, 32);
        wwant[0] = h_smulhi(lx, ly);
        wwant[1] = (i64)h_umulhi((u64)lx, (u64)ly);
        wwant[2] = h_mad_sat64(lx, ly, lz);
        wwant[3] = (i64)h_umad_sat64((u64)lx, (u64)ly, (u64)lz);
        wwant[4] = (lx > 0 && ly > LLONG_MAX - lx) ? LLONG_MAX : (lx < 0 && ly < LLONG_MIN - lx) ? LLONG_MIN : lx + ly;
        wwant[5] = (ly < 0 && lx > LLONG_MAX + ly) ? LLONG_MAX : (ly > 0 && lx < LLONG_MIN + ly) ? LLONG_MIN : lx - ly;
        wwant[6] = h_pop((u64)lx);
        wwant[7] = h_clz((u64)lx, 64);
        wwant[8] = (i64)h_rot64((u64)lx, (u64)ly);
        wwant[9] = (i64)((u64)(uint32_t)x << 32 | uy);
        wwant[10] = (i64)(lx < 0 ? 0 - (u64)lx : (u64)lx);
        wwant[11] = (lx >> 1) + (ly >> 1) + (lx & ly & 1);
        wwant[12] = (i64)((u64)h_smulhi(lx, ly) + (u64)lz);
        wwant[13] = h_ctz((u64)lx, 64);
        wwant[14] = (i64)((u64)lx + (u64)ly < (u64)lx ? ~0ull : (u64)lx + (u64)ly);
        wwant[15] = (i64)((u64)lx < (u64)ly ? 0 : (u64)lx - (u64)ly);
        for (k = 0; k < 38; k++)
            if (out[40 * i + k] != want[k]) {
                if (first < 0) { first = i; slot = k; }
                bad++;
            }
        for (k = 0; k < 16; k++)
            if (wide[16 * i + k] != wwant[k]) {
                if (first < 0) { first = i; slot = 100 + k; }
                bad++;
            }
    }
    CHECK_MSG(bad == 0, "%d wrong; first: item %d, result %d (x=%d y=%d z=%d): got %lld", bad, first, slot, first >= 0 ? a[first] : 0,
              first >= 0 ? b[first] : 0, first >= 0 ? c[first] : 0,
              first < 0 ? 0ll : slot >= 100 ? wide[16 * first + slot - 100] : (i64)out[40 * first + slot]);
    mgpuMemFree(a, NULL);
    mgpuMemFree(b, NULL);
    mgpuMemFree(c, NULL);
    mgpuMemFree(out, NULL);
    mgpuMemFree(wide, NULL);
}

/* ---- floats ---- */
static uint32_t f_bits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static float f_from(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }

/* |got - want| in units of the last place of want as a float; 0 when both are NaN or equal */
static double ulps(float got, double want) {
    double e;
    int x;
    if (isnan(want)) return isnan(got) ? 0 : 1e9;
    if (isnan(got)) return 1e9;
    if (isinf(want) || isinf(got)) return (double)got == want ? 0 : 1e9;
    if ((double)got == want) return 0;
    frexp(want, &x);
    if (x < -125) x = -125; /* subnormal: the smallest step */
    e = ldexp(1.0, x - 24);
    return fabs((double)got - want) / e;
}

static const float fspecial[] = {0.0f, -0.0f, 1.0f, -1.0f, 0.5f, -2.5f, 3.75f, 100.0f, -1e-3f, 1e30f, -1e30f, 1e-40f, 0.333333f, 2.0f, 1.5f};

static void test_float_common(void) {
    int n = 200, i, k, bad = 0;
    float *a, *b, *c, *out;
    int32_t *rel;
    void *args[6];
    char first[256] = "";
    if (!module) SKIP("no module");
    a = (float *)alloc((size_t)n * 4);
    b = (float *)alloc((size_t)n * 4);
    c = (float *)alloc((size_t)n * 4);
    out = (float *)alloc((size_t)n * 32 * 4);
    rel = (int32_t *)alloc((size_t)n * 32 * 4);
    for (i = 0; i < n; i++) {
        int ns = (int)(sizeof fspecial / sizeof fspecial[0]);
        a[i] = i < 2 * ns ? fspecial[i % ns] : (float)sin(i * 0.731) * 4.0f;
        b[i] = i < 2 * ns ? fspecial[(i / 2 + 3) % ns] : (float)cos(i * 1.37) * 3.0f;
        c[i] = i < ns ? fspecial[(i * 7 + 1) % ns] : (float)sin(i * 2.1) * 2.0f;
    }
    a[40] = NAN; b[41] = NAN; a[42] = INFINITY; b[43] = -INFINITY; a[44] = -NAN;
    args[0] = &a; args[1] = &b; args[2] = &c; args[3] = &out; args[4] = &rel; args[5] = &n;
    launch("floats", n, args, 6);
    for (i = 0; i < n; i++) {
        float x = a[i], y = b[i], z = c[i], v[4], u[4];
        double want[32], tol[32], dsum, l;
        int32_t iw[32], finite = isfinite(x) && isfinite(y) && isfinite(z);
        int nt = 32;
        for (k = 0; k < 32; k++) { want[k] = NAN; tol[k] = -1; } /* -1: not checked */
        v[0] = x; v[1] = y; v[2] = z; v[3] = 1.0f;
        u[0] = y; u[1] = z; u[2] = 2.0f; u[3] = x;
        want[0] = (double)x * (180.0 / M_PI); tol[0] = 2;
        want[1] = (double)x * (M_PI / 180.0); tol[1] = 2;
        if (!isnan(x) && !isnan(y)) { want[2] = x > y ? x : y; want[3] = x < y ? x : y; tol[2] = tol[3] = 0; }
        want[4] = x > 0 ? 1.0 : x < 0 ? -1.0 : x == 0 ? (double)x : 0.0; tol[4] = 0;
        want[5] = x < y ? 0.0 : 1.0; tol[5] = isnan(x) || isnan(y) ? -1 : 0;
        if (isfinite(x)) { double t = (x + 1.0) / 3.0; t = t < 0 ? 0 : t > 1 ? 1 : t; want[6] = t * t * (3 - 2 * t); tol[6] = 64; } /* OpenCL: implementation precision; measured */
        if (finite) { /* the rounding of y - x, relative to the result */
            want[7] = x + (y - (double)x) * 0.25;
            tol[7] = want[7] != 0 ? 4 + 2 * (fabs(x) + fabs(y)) / fabs(want[7]) : -1;
        }
        if (!isnan(x)) { want[8] = x < -1.5f ? -1.5 : x > 2.5f ? 2.5 : x; tol[8] = 0; }
        want[9] = isnan(x) ? y : isnan(y) ? x : (x > y ? x : y); tol[9] = 0;
        want[10] = z > 0 ? y : x; tol[10] = 0;
        want[11] = f_from((f_bits(x) & ~f_bits(z)) | (f_bits(y) & f_bits(z))); tol[11] = 0;
        if (finite) {
            double p[4], s = 0, sq = 0, sqv = 0, d2 = 0;
            for (k = 0; k < 4; k++) { p[k] = (double)v[k] * u[k]; s += p[k]; sq += fabs(p[k]); sqv += (double)v[k] * v[k]; d2 += ((double)v[k] - u[k]) * ((double)v[k] - u[k]); }
            want[12] = s; tol[12] = sq == 0 ? 0 : 4 * sq * FLT_EPSILON / (fabs(s) > 1e-30 ? fabs(s) * FLT_EPSILON : 1) ; /* the dot's own rounding */
            if (!(fabs(x) < 1e18 && fabs(y) < 1e18 && fabs(z) < 1e18)) tol[12] = -1; /* products past float's range */
            l = sqrt(sqv);
            want[13] = l; tol[13] = 4;
            want[14] = sqrt(d2); tol[14] = 4;
            want[15] = v[0] / l; want[16] = v[3] / l; tol[15] = tol[16] = 6;
            dsum = 0;
            want[17] = (double)v[1] * u[2] - (double)v[2] * u[1];
            want[18] = (double)v[2] * u[0] - (double)v[0] * u[2];
            want[19] = (double)v[0] * u[1] - (double)v[1] * u[0];
            want[20] = 0; tol[20] = 0;
            for (k = 17; k < 20; k++) tol[k] = fabs(want[k]) > 1e-30 ? 2 + 4 * (fabs((double)v[(k - 16) % 3] * u[(k - 15) % 3]) + fabs((double)v[(k - 15) % 3] * u[(k - 16) % 3])) / fabs(want[k]) : -1;
            if (!(fabs(x) < 1e18 && fabs(y) < 1e18 && fabs(z) < 1e18)) tol[17] = tol[18] = tol[19] = tol[25] = tol[28] = -1;
            for (k = 0; k < 4; k++) {
                double t = ((double)u[k] - 0.0) / 1.0;
                t = t < 0 ? 0 : t > 1 ? 1 : t;
                want[21 + k] = (v[k] > 0.5f ? v[k] : 0.5) + (u[k] < 0.25f ? u[k] : 0.25) + (v[k] < 0 ? 0 : v[k] > 1 ? 1 : v[k]) +
                               ((double)v[k] + ((double)u[k] - v[k]) * 0.5) + (v[k] < 0.5f ? 0 : 1) + t * t * (3 - 2 * t);
                tol[21 + k] = fabs(want[21 + k]) > 1e-3 ? 8 + 8 * (fabs(v[k]) + fabs(u[k])) / fabs(want[21 + k]) : -1;
            }
            want[25] = (double)v[0] * u[0] + (double)v[1] * u[1];
            tol[25] = fabs(want[25]) > 1e-30 ? 2 + 4 * (fabs(p[0]) + fabs(p[1])) / fabs(want[25]) : -1;
            want[26] = sqrt((double)x * x + (double)y * y + (double)z * z); tol[26] = 4;
            want[27] = l; tol[27] = 4; /* fast_length: OpenCL allows 8192 ulp; ours is length's */
            want[28] = (x > y ? y : x) + (y > z ? z : y) * 10.0 + (z > 2.0f ? 2.0 : z) * 100.0; /* select(v, u, isgreater(v, u)): the smaller */
            tol[28] = fabs(want[28]) > 1e-30 ? 4 + 4 * (fabs(x) + fabs(y) * 10 + fabs(z) * 100 + 200) / fabs(want[28]) : -1;
            if (!(fabs(x) < 1e18 && fabs(y) < 1e18 && fabs(z) < 1e18)) tol[25] = tol[28] = -1;
            (void)dsum;
        }
        if (!isnan(x)) { want[29] = 1.0 / sqrt(fabs((double)x) + 1.0f); tol[29] = 2; }
        if (!isnan(y)) { want[30] = 1.0 / sqrt((double)(fabsf(y) + 1.0f)); tol[30] = 2; }
        want[31] = f_from((f_bits(z) & ~f_bits(z)) | (f_bits(2.0f) & f_bits(z))); tol[31] = 0;
        for (k = 0; k < nt; k++) {
            double e;
            if (tol[k] < 0) continue;
            e = ulps(out[32 * i + k], want[k]);
            if (e > tol[k]) {
                if (getenv("T_VERBOSE")) printf("  item %d result %d: got %.9g want %.9g\n", i, k, (double)out[32 * i + k], want[k]);
                if (!bad) snprintf(first, sizeof first, "item %d result %d (x=%g y=%g z=%g): got %.9g want %.9g (%.1f ulp)", i, k, (double)x, (double)y, (double)z,
                                   (double)out[32 * i + k], want[k], e);
                bad++;
            }
        }
        iw[0] = x == y; iw[1] = x != y; iw[2] = x > y; iw[3] = x >= y; iw[4] = x < y; iw[5] = x <= y; iw[6] = x < y || x > y;
        iw[7] = isfinite(x) != 0; iw[8] = isinf(x) != 0; iw[9] = isnan(x) != 0; iw[10] = isnormal(x) != 0; iw[11] = !isnan(x) && !isnan(y);
        iw[12] = isnan(x) || isnan(y); iw[13] = signbit(x) != 0;
        for (k = 0; k < 4; k++) iw[14 + k] = v[k] < u[k] ? -1 : 0;
        iw[18] = iw[14] || iw[15] || iw[16] || iw[17];
        iw[19] = iw[14] && iw[15] && iw[16] && iw[17];
        iw[20] = 10 * (isfinite(x) && isfinite(y) && isfinite(z)); /* (int4)(x < 0, ...) holds 1, whose sign bit is clear */
        for (k = 0; k < 4; k++) iw[21 + k] = isnan(v[k]) ? 5 + k : 1 + k;
        iw[25] = signbit(x) ? -1 : 0;
        iw[26] = isnormal(y) ? -1 : 0;
        iw[27] = isinf(z) ? -1 : 0;
        for (k = 0; k < 28; k++)
            if (rel[32 * i + k] != iw[k]) {
                if (!bad) snprintf(first, sizeof first, "item %d relational %d (x=%g y=%g z=%g): got %d want %d", i, k, (double)x, (double)y, (double)z,
                                   rel[32 * i + k], iw[k]);
                bad++;
            }
    }
    CHECK_MSG(bad == 0, "%d wrong; first: %s", bad, first);
    mgpuMemFree(a, NULL);
    mgpuMemFree(b, NULL);
    mgpuMemFree(c, NULL);
    mgpuMemFree(out, NULL);
    mgpuMemFree(rel, NULL);
}

static void test_shuffles(void) {
    int n = 64, i, k, bad = 0;
    float *a, *out;
    uint32_t *m;
    int32_t *iout;
    void *args[5];
    if (!module) SKIP("no module");
    a = (float *)alloc((size_t)n * 16);
    m = (uint32_t *)alloc((size_t)n * 16);
    out = (float *)alloc((size_t)n * 64);
    iout = (int32_t *)alloc((size_t)n * 32);
    for (i = 0; i < 4 * n; i++) {
        a[i] = (float)(i * 3 % 17) - 4.0f;
        m[i] = (uint32_t)(i * 5 + i / 4) % 13; /* past 8: only the low bits count */
    }
    args[0] = &a; args[1] = &m; args[2] = &out; args[3] = &iout; args[4] = &n;
    launch("shuffles", n, args, 5);
    for (i = 0; i < n; i++) {
        const float *x = a + 4 * i;
        const uint32_t *km = m + 4 * i;
        float want[16], y[4];
        int32_t iw[8], iv[4], iy[4];
        static const unsigned c2[4] = {0, 5, 2, 7};
        unsigned s2[4];
        for (k = 0; k < 4; k++) { y[k] = x[k] * 2.0f; iv[k] = (int32_t)x[k]; iy[k] = iv[k] + 100; }
        s2[0] = km[1]; s2[1] = 6; s2[2] = km[3]; s2[3] = 1;
        for (k = 0; k < 4; k++) {
            unsigned j = km[k] & 7;
            want[k] = x[3 - k];
            want[4 + k] = x[km[k] & 3];
            want[8 + k] = j < 4 ? x[j] : y[j - 4];
            want[12 + k] = c2[k] < 4 ? x[c2[k]] : y[c2[k] - 4];
            iw[k] = iv[km[k] & 3] + (k == 0 ? (int32_t)x[km[0] & 3] : k == 1 ? (int32_t)x[1] : 0);
            iw[4 + k] = (s2[k] & 7) < 4 ? iv[s2[k] & 7] : iy[(s2[k] & 7) - 4];
        }
        for (k = 0; k < 16; k++) bad += out[16 * i + k] != want[k];
        for (k = 0; k < 8; k++) bad += iout[8 * i + k] != iw[k];
    }
    CHECK_MSG(bad == 0, "%d wrong", bad);
    mgpuMemFree(a, NULL);
    mgpuMemFree(m, NULL);
    mgpuMemFree(out, NULL);
    mgpuMemFree(iout, NULL);
}

/* ---- math: each function's largest error in ULP over inputs across the float range, against
   the host's double-precision libm, and OpenCL 1.2's limit for it (full profile; what piglit
   checks). Where the limit is not met on this device the test says so: lim < 0 here means
   measured and reported, not claimed. */
typedef double (*m_fn)(double, double);
static double m_sin(double x, double y) { (void)y; return sin(x); }
static double m_cos(double x, double y) { (void)y; return cos(x); }
static double m_tan(double x, double y) { (void)y; return tan(x); }
static double m_exp(double x, double y) { (void)y; return exp(x); }
static double m_exp2(double x, double y) { (void)y; return exp2(x); }
static double m_log(double x, double y) { (void)y; return log(x); }
static double m_log2(double x, double y) { (void)y; return log2(x); }
static double m_pow(double x, double y) { return pow(x, y); }
static double m_sqrt(double x, double y) { (void)y; return sqrt(x); }
static double m_div(double x, double y) { return x / y; }
static double m_asin(double x, double y) { (void)y; return asin(x); }
static double m_acos(double x, double y) { (void)y; return acos(x); }
static double m_atan(double x, double y) { (void)y; return atan(x); }
static double m_atan2(double x, double y) { return atan2(x, y); }
static double m_sinh(double x, double y) { (void)y; return sinh(x); }
static double m_cosh(double x, double y) { (void)y; return cosh(x); }
static double m_tanh(double x, double y) { (void)y; return tanh(x); }
static double m_exp10(double x, double y) { (void)y; return pow(10.0, x); }
static double m_log10(double x, double y) { (void)y; return log10(x); }
static double m_cbrt(double x, double y) { (void)y; return cbrt(x); }
static double m_hypot(double x, double y) { return hypot(x, y); }
/* sin(pi x) with x reduced exactly first (x mod 2 is exact in double for a float x) */
static double m_sinpi(double x, double y) { double r = fmod(x, 2.0); (void)y; return isinf(x) ? NAN : (r == 0 || r == 1 || r == -1) ? copysign(0.0, x) : sin(M_PI * r); }
static double m_cospi(double x, double y) { double r = fmod(fabs(x), 2.0); (void)y; return isinf(x) ? NAN : (r == 0.5 || r == 1.5) ? 0.0 : cos(M_PI * r); }
static double m_tanpi(double x, double y) { return m_sinpi(x, y) / m_cospi(x, y); }
static double m_fdim(double x, double y) { return fdimf((float)x, (float)y); }
static double m_fmod(double x, double y) { return fmod(x, y); }
static double m_expm1(double x, double y) { (void)y; return expm1(x); }
static double m_log1p(double x, double y) { (void)y; return log1p(x); }
static double m_asinh(double x, double y) { (void)y; return asinh(x); }
static double m_acosh(double x, double y) { (void)y; return acosh(x); }
static double m_atanh(double x, double y) { (void)y; return atanh(x); }
static double m_logb(double x, double y) { (void)y; return logbf((float)x); }
static double m_maxmag(double x, double y) { return fabs(x) > fabs(y) ? x : fabs(y) > fabs(x) ? y : fmax(x, y); }
static double m_minmag(double x, double y) { return fabs(x) < fabs(y) ? x : fabs(y) < fabs(x) ? y : fmin(x, y); }
static double m_nextafter(double x, double y) { return nextafterf((float)x, (float)y); }
static double m_rsqrt(double x, double y) { (void)y; return 1.0 / sqrt(x); }
static double m_pown(double x, double y) { return pow(x, (double)(int)y); }
static double m_rootn(double x, double y) {
    int n = (int)y;
    if (n == 0 || (x < 0 && n % 2 == 0)) return NAN;
    return x < 0 ? -pow(-x, 1.0 / n) : pow(x, 1.0 / n);
}
static double m_powr(double x, double y) { return x < 0 ? NAN : pow(x, y); }
static double m_remainder(double x, double y) { return remainder(x, y); }
static double m_asinpi(double x, double y) { (void)y; return asin(x) / M_PI; }
static double m_acospi(double x, double y) { (void)y; return acos(x) / M_PI; }
static double m_atanpi(double x, double y) { (void)y; return atan(x) / M_PI; }
static double m_atan2pi(double x, double y) { return atan2(x, y) / M_PI; }
static double m_ldexp(double x, double y) { return ldexpf((float)x, (int)y); }
static double m_copysign(double x, double y) { return copysign(x, y); }

static const struct { const char *name; m_fn f; double lim; double lo, hi; } mfns[48] = {
    /* lim: OpenCL's ULP limit where this device meets it over [lo, hi]; -1: measured only (GLSL.std.450's instruction as the device implements it) */
    {"sin", m_sin, 4, -1e38, 1e38}, {"cos", m_cos, 4, -1e38, 1e38}, {"tan", m_tan, 5, -1e38, 1e38}, {"exp", m_exp, -1, -80, 80},
    {"exp2", m_exp2, 3, -120, 120}, {"log", m_log, 3, 1e-30, 1e30}, {"log2", m_log2, 3, 1e-30, 1e30}, {"pow", m_pow, 16, 0, 1e10},
    {"sqrt", m_sqrt, 3, 0, 1e38}, {"divide", m_div, 2.5, -1e30, 1e30}, {"asin", m_asin, 4, -1, 1}, {"acos", m_acos, 4, -1, 1},
    {"atan", m_atan, 5, -1e38, 1e38}, {"atan2", m_atan2, 6, -1e38, 1e38}, {"sinh", m_sinh, -1, -80, 80}, {"cosh", m_cosh, -1, -80, 80},
    {"tanh", m_tanh, -1, -80, 80}, {"exp10", m_exp10, -1, -37, 37}, {"log10", m_log10, 3, 1e-30, 1e30}, {"cbrt", m_cbrt, 2, -1e38, 1e38},
    {"hypot", m_hypot, 4, -1e38, 1e38}, {"sinpi", m_sinpi, 4, -1e38, 1e38}, {"cospi", m_cospi, 4, -1e38, 1e38}, {"tanpi", m_tanpi, 6, -1e38, 1e38},
    {"fdim", m_fdim, 0, -1e38, 1e38}, {"fmod", m_fmod, -1, -1e38, 1e38}, {"expm1", m_expm1, -1, -80, 80}, {"log1p", m_log1p, -1, -0.99, 1e30},
    {"asinh", m_asinh, 4, -1e30, 1e30}, {"acosh", m_acosh, 4, 1, 1e30}, {"atanh", m_atanh, 4, -0.999, 0.999}, {"logb", m_logb, 0, -1e38, 1e38},
    {"maxmag", m_maxmag, 0, -1e38, 1e38}, {"minmag", m_minmag, 0, -1e38, 1e38}, {"nextafter", m_nextafter, 0, -1e38, 1e38}, {"rsqrt", m_rsqrt, -1, 1e-30, 1e30},
    {"pown", m_pown, 16, -1e4, 1e4}, {"rootn", m_rootn, 16, -1e30, 1e30}, {"powr", m_powr, 16, 0, 1e10}, {"remainder", m_remainder, -1, -1e38, 1e38},
    {"asinpi", m_asinpi, 5, -1, 1}, {"acospi", m_acospi, 5, -1, 1}, {"atanpi", m_atanpi, 5, -1e38, 1e38}, {"atan2pi", m_atan2pi, 6, -1e38, 1e38},
    {"ldexp", m_ldexp, 0, -1e38, 1e38}, {"copysign", m_copysign, 0, -1e38, 1e38}, {"native_exp", m_exp, -1, -80, 80}, {"half_log", m_log, -1, 1e-30, 1e30}};

static void test_math(void) {
    int n = 4096, i, k, bad = 0;
    float *a, *b, *out;
    int32_t *iout;
    void *args[5];
    double worst[48];
    int where[48];
    char first[300] = "";
    if (!module) SKIP("no module");
    a = (float *)alloc((size_t)n * 4);
    b = (float *)alloc((size_t)n * 4);
    out = (float *)alloc((size_t)n * 48 * 4);
    iout = (int32_t *)alloc((size_t)n * 8 * 4);
    for (i = 0; i < n; i++) { /* magnitudes 2^-40 .. 2^40 both signs, a dense stretch in [-4, 4], a few special values */
        uint32_t h = (uint32_t)i * 2654435761u;
        double m = 1.0 + (double)(h >> 8) / 16777216.0;
        a[i] = (float)((i & 1 ? -1 : 1) * m * ldexp(1.0, (i / 2) % 81 - 40));
        if (i % 3 == 0) a[i] = (float)(((double)(h >> 8) / 16777216.0) * 8.0 - 4.0);
        b[i] = (float)(((double)((h * 7u) >> 8) / 16777216.0) * 16.0 - 8.0);
    }
    a[0] = 0.0f; a[1] = -0.0f; a[2] = INFINITY; a[3] = -INFINITY; a[4] = NAN; a[5] = 1.0f; a[6] = 1e-40f; a[7] = 0.5f; a[8] = 2.0f; a[9] = 27.0f;
    a[10] = (float)ldexp(1.0, 20); a[11] = (float)ldexp(1.0, 24); a[12] = (float)ldexp(1.0, 120); a[13] = 7.0f; a[14] = 8.0f; a[15] = 1.12345f;
    args[0] = &a; args[1] = &b; args[2] = &out; args[3] = &iout; args[4] = &n;
    launch("math", n, args, 5);
    for (k = 0; k < 48; k++) { worst[k] = 0; where[k] = -1; }
    for (i = 0; i < n; i++) {
        float x = a[i], y = b[i], fr, ip, mf, mi, fx;
        int e;
        for (k = 0; k < 48; k++) {
            double want = mfns[k].f(x, y), err;
            if (!(x >= mfns[k].lo && x <= mfns[k].hi) && !(isnan(x) && k > 0)) continue;
            if (fabs(want) > FLT_MAX && !isinf(want)) continue; /* past float's range: inf is right, so is the largest float */
            err = ulps(out[48 * i + k], want);
            if (err > worst[k]) { worst[k] = err; where[k] = i; }
        }
        /* ilogb, fract, modf, frexp, sincos: exact (sincos: the same as sin and cos) */
        fx = x;
        fr = isinf(x) ? copysignf(0.0f, x) : isnan(x) ? x : fminf(x - floorf(x), 0x1.fffffep-1f);
        ip = floorf(x);
        mf = modff(x, &mi);
        fx = frexpf(x, &e);
        if (iout[8 * i] != (x == 0 ? INT_MIN : isnan(x) || isinf(x) ? INT_MAX : ilogbf(x)) ||
            memcmp(&iout[8 * i + 1], &fr, 4) || memcmp(&iout[8 * i + 2], &ip, 4) || memcmp(&iout[8 * i + 3], &mf, 4) || memcmp(&iout[8 * i + 4], &mi, 4) ||
            (!isnan(x) && (memcmp(&iout[8 * i + 5], &fx, 4) || iout[8 * i + 6] != (isinf(x) ? 0 : e))) || (!isnan(x) && iout[8 * i + 7] != 0)) {
            if (!bad) snprintf(first, sizeof first, "x=%a: ilogb %d fract %a/%a modf %a/%a frexp %a/%d sincos %d", (double)x, iout[8 * i],
                               (double)f_from((uint32_t)iout[8 * i + 1]), (double)f_from((uint32_t)iout[8 * i + 2]), (double)f_from((uint32_t)iout[8 * i + 3]),
                               (double)f_from((uint32_t)iout[8 * i + 4]), (double)f_from((uint32_t)iout[8 * i + 5]), iout[8 * i + 6], iout[8 * i + 7]);
            bad++;
        }
    }
    for (k = 0; k < 48; k++) {
        int at = where[k];
        printf("  %-10s %10.1f ulp%s", mfns[k].name, worst[k], mfns[k].lim >= 0 ? "" : " (measured)");
        if (at >= 0 && worst[k] > 0) printf("  at x=%a y=%a: %a want %a", (double)a[at], (double)b[at], (double)out[48 * at + k], mfns[k].f(a[at], b[at]));
        printf("\n");
        if (mfns[k].lim >= 0 && worst[k] > mfns[k].lim) {
            if (!bad) snprintf(first, sizeof first, "%s: %.1f ulp (OpenCL's limit: %g)", mfns[k].name, worst[k], mfns[k].lim);
            bad++;
        }
    }
    CHECK_MSG(bad == 0, "%d wrong; first: %s", bad, first);
    mgpuMemFree(a, NULL);
    mgpuMemFree(b, NULL);
    mgpuMemFree(out, NULL);
    mgpuMemFree(iout, NULL);
}

/* round: halves away from zero (GLSL's Round may take them to even); ldexp(float4, int) */
static void test_round_ldexp(void) {
    static const float v[16] = {0.5f, -0.5f, 1.5f, 2.5f, -2.5f, 0.49999997f, -0.49999997f, 0.0f, -0.0f, 3.99f, -3.99f, 8388609.0f, 1e30f, -1e-30f, 0.6f, -0.4f};
    float *a, *out;
    int i, k = 3, bad = 0;
    void *args[3];
    char first[200] = "";
    if (!module) SKIP("no module");
    a = (float *)alloc(sizeof v);
    out = (float *)alloc(2 * sizeof v);
    memcpy(a, v, sizeof v);
    args[0] = &a; args[1] = &out; args[2] = &k;
    mgpuLaunchKernel(mgpuModuleGetFunction(module, "round_ldexp"), 1, 1, 1, 4, 1, 1, 0, NULL, args, NULL, 3);
    for (i = 0; i < 16; i++) {
        float r = roundf(v[i]), l = ldexpf(v[i], k), gr = out[8 * (i / 4) + i % 4], gl = out[8 * (i / 4) + 4 + i % 4];
        if (memcmp(&r, &gr, 4) || memcmp(&l, &gl, 4)) {
            if (!bad) snprintf(first, sizeof first, "x=%a: round %a (want %a), ldexp %a (want %a)", (double)v[i], (double)gr, (double)r, (double)gl, (double)l);
            bad++;
        }
    }
    CHECK_MSG(bad == 0, "%d wrong; first: %s", bad, first);
    mgpuMemFree(a, NULL);
    mgpuMemFree(out, NULL);
}

/* tests/data/vulkan_wide.cl: vectors of 8 and 16 lanes, split by the lowering; every lane
   against the host's */
static void test_wide(void) {
    void *mod;
    int n = 256, steps = 3, i, k, bad = 0, first = -1;
    int32_t *a, *out;
    float *f;
    compile_cl("tests/data/vulkan_wide.cl", "wide", &mod);
    if (!mod) return;
    a = (int32_t *)alloc(16 * sizeof *a * (size_t)n);
    out = (int32_t *)alloc(16 * sizeof *out * (size_t)n);
    f = (float *)alloc(8 * sizeof *f * (size_t)n);
    if (!a || !out || !f) { CHECK(0); return; }
    for (i = 0; i < 16 * n; i++) a[i] = (int32_t)((i * 2654435761u) >> 20) - 2048;
    {
        void *args[4] = {&a, &out, &f, &steps};
        launch_in(mod, "wide", n, args, 4);
    }
    for (i = 0; i < n && bad < 1; i++) {
        int32_t w[16], s[16], h[8], t[8], x, j;
        float g[8];
        for (k = 0; k < 16; k++) w[k] = a[16 * i + k] > 3 ? a[16 * i + k] * 3 - 1 : -a[16 * i + k];
        for (k = 0; k < 16; k++) s[k] = w[15 - k] ^ i;
        for (k = 0; k < 8; k++) h[k] = s[k] + s[k + 8];
        for (j = 0; j < steps; j++) {
            for (k = 0; k < 8; k++) t[k] = h[(k + 1) & 7] + j;
            memcpy(h, t, sizeof h);
        }
        j = a[16 * i] & 7;
        x = h[j];
        h[(j + 1) & 7] = x * 2;
        for (k = 0; k < 8; k++) {
            g[k] = (float)h[k] * 0.5f;
            g[k] = fmaxf(g[k], fabsf(g[k]) - 1.0f) + floorf(g[k]);
            if (memcmp(&f[8 * i + k], &g[k], 4) || out[16 * i + k] != (int32_t)g[k] + h[k] || out[16 * i + 8 + k] != s[k]) {
                if (!bad++) first = 8 * i + k;
            }
        }
    }
    CHECK_MSG(bad == 0, "work-item %d lane %d: f %a out %d %d", first / 8, first % 8, first >= 0 ? (double)f[first] : 0.0,
              first >= 0 ? out[first / 8 * 16 + first % 8] : 0, first >= 0 ? out[first / 8 * 16 + 8 + first % 8] : 0);
    mgpuMemFree(a, NULL);
    mgpuMemFree(out, NULL);
    mgpuMemFree(f, NULL);
    mgpuModuleUnload(mod);
}

/* tests/data/vulkan_wide.cl's wide_bitcast: as_uchar16(int4), as_int4(uchar16), every byte
   against the host's (little-endian, as OpenCL's devices and Vulkan's are) */
static void test_wide_bitcast(void) {
    void *mod;
    int n = 128, i, k, bad = 0;
    int32_t *a, *back, key[4] = {0x03020100, 0x07060504, 0x0b0a0908, (int32_t)0x8f0e0d0cu};
    uint8_t *bytes;
    compile_cl("tests/data/vulkan_wide.cl", "wide_bitcast", &mod);
    if (!mod) return;
    a = (int32_t *)alloc(16 * (size_t)n);
    bytes = (uint8_t *)alloc(16 * (size_t)n);
    back = (int32_t *)alloc(16 * (size_t)n);
    if (!a || !bytes || !back) { CHECK(0); return; }
    for (i = 0; i < 4 * n; i++) a[i] = (int32_t)((uint32_t)i * 2654435761u);
    {
        void *args[4] = {&a, &bytes, &back, key};
        launch_in(mod, "wide_bitcast", n, args, 4);
    }
    for (i = 0; i < n; i++) {
        uint8_t u[16], v[16], kb[16];
        memcpy(u, &a[4 * i], 16);
        memcpy(kb, key, 16);
        for (k = 0; k < 16; k++) u[k] ^= kb[k], v[k] = (uint8_t)(u[k] + 1);
        bad += memcmp(&bytes[16 * i], u, 16) != 0 || memcmp(&back[4 * i], v, 16) != 0;
    }
    CHECK_MSG(bad == 0, "%d of %d work-items wrong", bad, n);
    mgpuMemFree(a, NULL);
    mgpuMemFree(bytes, NULL);
    mgpuMemFree(back, NULL);
    mgpuModuleUnload(mod);
}

/* tests/data/vulkan_wide.cl's wide_param: a float8 parameter, every lane of every work-item */
static void test_wide_param(void) {
    void *mod;
    int n = 64, i, k, bad = 0;
    int32_t *out;
    float p[8] = {0.5f, -1.25f, 3.0f, 7.75f, -0.5f, 100.0f, 2.5f, -9.0f};
    compile_cl("tests/data/vulkan_wide.cl", "wide_param", &mod);
    if (!mod) return;
    if (!(out = (int32_t *)alloc(32 * (size_t)n))) { CHECK(0); return; }
    {
        void *args[2] = {&out, p};
        launch_in(mod, "wide_param", n, args, 2);
    }
    for (i = 0; i < n; i++)
        for (k = 0; k < 8; k++) bad += out[8 * i + k] != (int32_t)(p[k] * (float)i);
    CHECK_MSG(bad == 0, "%d of %d lanes wrong", bad, 8 * n);
    mgpuMemFree(out, NULL);
    mgpuModuleUnload(mod);
}

/* ---- the host's halves: a float from the bits, and a float or double rounded to the bits by
   search (not by the device's shifts) ---- */
static float h_from_half(unsigned h) {
    int e = (int)(h >> 10 & 31);
    unsigned m = h & 0x3ff;
    float v = e == 31 ? (m ? NAN : INFINITY) : e ? ldexpf((float)(m | 0x400), e - 25) : ldexpf((float)m, -24);
    return h & 0x8000 ? -v : v;
}

static unsigned h_to_half(double x, char mode) {
    unsigned sign = signbit(x) ? 0x8000 : 0, lo = 0, hi = 0x7c00, mid;
    double a = fabs(x), l, u;
    int up;
    if (isnan(x)) return 0x7e00 | sign;
    while (hi - lo > 1) { /* the largest magnitude at most a (0x7c00: inf, as 65536 for the rounding) */
        mid = (lo + hi) / 2;
        if (h_from_half(mid) <= a) lo = mid;
        else hi = mid;
    }
    if (a == INFINITY) return 0x7c00 | sign;
    l = h_from_half(lo);
    if (l == a) return lo | sign;
    u = lo == 0x7bff ? 65536.0 : h_from_half(lo + 1);
    up = mode == 'z' ? 0 : mode == 'p' ? !sign : mode == 'n' ? sign != 0 : (a - l > u - a || (a - l == u - a && (lo & 1)));
    return (up ? lo + 1 : lo) | sign;
}

/* tests/data/vulkan_half.cl: vload_half, vstore_half in the four rounding modes, vload_half4,
   vstorea_half3; every half's bits against the host's */
static void test_half(void) {
    static const float edge[] = {0.0f, -0.0f, 1.0f, 65504.0f, 65519.99f, 65520.0f, 65536.0f, 1e6f, 0x1p-24f, 0x1p-25f, 0x1.8p-25f, 0x1.002p0f,
                                 0x1.006p0f, 0x1.ffep-15f, 0x1p-14f, 0x1.ff8p-15f, 3.0e-8f, 1e-10f, 0x1p-149f};
    void *mod;
    int n = 4096, i, k, bad = 0;
    char first[256] = "";
    float *x, *back, *f;
    uint16_t *h, *o;
    compile_cl("tests/data/vulkan_half.cl", "half", &mod);
    if (!mod) return;
    x = (float *)alloc(sizeof *x * (size_t)n);
    back = (float *)alloc(sizeof *back * (size_t)n);
    f = (float *)alloc(4 * sizeof *f * (size_t)n);
    h = (uint16_t *)alloc(4 * sizeof *h * (size_t)n);
    o = (uint16_t *)alloc(4 * sizeof *o * (size_t)n);
    if (!x || !back || !f || !h || !o) { CHECK(0); return; }
    for (i = 0; i < n; i++) {
        int e = edge[0] == 0 && i < 2 * (int)(sizeof edge / sizeof *edge);
        uint32_t r = (uint32_t)i * 2654435761u;
        x[i] = e ? (i & 1 ? -edge[i / 2] : edge[i / 2]) : ldexpf((float)(r >> 8) * 0x1p-24f + 1.0f, (int)(r % 50) - 30) * (r & 0x80 ? -1.0f : 1.0f);
    }
    x[n - 1] = INFINITY;
    x[n - 2] = -INFINITY;
    x[n - 3] = NAN;
    {
        void *args[3] = {&x, &h, &back};
        launch_in(mod, "half_round", n, args, 3);
    }
    for (i = 0; i < n; i++) {
        for (k = 0; k < 4; k++) {
            unsigned want = h_to_half(x[i], "ezpn"[k]), got = h[4 * i + k];
            if (isnan(x[i]) ? (got & 0x7c00) != 0x7c00 || !(got & 0x3ff) : got != want) {
                if (!bad++) snprintf(first, sizeof first, "vstore_half_rt%c(%a): 0x%04x, want 0x%04x", "ezpn"[k], (double)x[i], got, want);
            }
        }
        if (!isnan(x[i]) && memcmp(&back[i], &(float){h_from_half(h[4 * i + 2])}, 4)) {
            if (!bad++) snprintf(first, sizeof first, "vload_half(0x%04x): %a", h[4 * i + 2], (double)back[i]);
        }
    }
    for (i = 0; i < 4 * n; i++) h[i] = (uint16_t)(((uint32_t)i * 2654435761u) >> 16);
    {
        void *args[3] = {&h, &o, &f};
        launch_in(mod, "half_vec", n, args, 3);
    }
    for (i = 0; i < 4 * n; i++) {
        float want = h_from_half(h[i]);
        if (isnan(want) ? !isnan(f[i]) : memcmp(&f[i], &want, 4)) {
            if (!bad++) snprintf(first, sizeof first, "vload_half4(0x%04x): %a", h[i], (double)f[i]);
        }
        if (i % 4 < 3 && !isnan(want) && o[i] != h_to_half(want * 3.0f, 'e')) {
            if (!bad++) snprintf(first, sizeof first, "vstorea_half3_rte(%a): 0x%04x, want 0x%04x", (double)(want * 3.0f), o[i], h_to_half(want * 3.0f, 'e'));
        }
        if (i % 4 == 3 && o[i] != 0) {
            if (!bad++) snprintf(first, sizeof first, "vstorea_half3 wrote its fourth half");
        }
    }
    CHECK_MSG(bad == 0, "%d wrong; first: %s", bad, first);
    mgpuMemFree(x, NULL);
    mgpuMemFree(back, NULL);
    mgpuMemFree(f, NULL);
    mgpuMemFree(h, NULL);
    mgpuMemFree(o, NULL);
    mgpuModuleUnload(mod);
}

/* vstore_half of a double in the four rounding modes (and vstorea_half2_rtz of a double2): rounded
   once, from the double (between two halves by less than a float's precision: a float on the way
   would round twice) */
static void test_half_double(void) {
    static const char src[] = "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
                              "kernel void hd(global const double *x, global half *h) {\n    size_t i = get_global_id(0);\n"
                              "    vstore_half_rte(x[i], 6 * i, h); vstore_half_rtz(x[i], 6 * i + 1, h); vstore_half_rtp(x[i], 6 * i + 2, h);\n"
                              "    vstore_half_rtn(x[i], 6 * i + 3, h); vstorea_half2_rtz((double2)(x[i], -x[i]), 3 * i + 2, h);\n}\n";
    static const double edge[] = {0.0, -0.0, 1.0, 0x1.002p0 + 0x1p-40, 0x1.002p0 - 0x1p-40, 0x1.006p0 - 0x1p-45, 65504.0, 65520.0 - 0x1p-30, 65520.0, 1e300, -1e300,
                                  0x1p-24, 0x1p-25 + 0x1p-60, 0x1p-25, 1e-300, 0x1p-14 - 0x1p-50, 3.0e-8, INFINITY, -INFINITY, NAN};
    enum { N = 4096 };
    char path[512], first[300] = "";
    void *mod, *args[2];
    double *x;
    uint16_t *h;
    int i, k, bad = 0;
    if (!have_tools) SKIP("no clang / spirv-val / LLVM SPIR-V target");
    CHECK(t_save(dir, "half_double.cl", src, sizeof src - 1, path, sizeof path));
    compile_cl(path, "half_double", &mod);
    if (!mod) return;
    x = (double *)alloc(N * 8);
    h = (uint16_t *)alloc(N * 6 * 2);
    for (i = 0; i < N; i++) { /* magnitudes 2^-30 .. 2^18 both signs, with bits past a float's */
        uint64_t r = (uint64_t)i * 0x9e3779b97f4a7c15ull;
        x[i] = (i & 1 ? -1 : 1) * ldexp(1.0 + (double)(r >> 11) / 9007199254740992.0, (i / 2) % 49 - 30);
        if (i < (int)(sizeof edge / sizeof edge[0])) x[i] = edge[i];
    }
    args[0] = &x; args[1] = &h;
    launch_in(mod, "hd", N, args, 2);
    for (i = 0; i < N; i++)
        for (k = 0; k < 6; k++) {
            double v = k == 5 ? -x[i] : x[i];
            unsigned want = h_to_half(v, k < 4 ? "ezpn"[k] : 'z'), got = h[6 * i + k];
            int ok = isnan(v) ? (got & 0x7c00) == 0x7c00 && (got & 0x3ff) : got == want;
            if (!ok && !bad++) snprintf(first, sizeof first, "%s(%a): 0x%04x, want 0x%04x", k < 4 ? "vstore_half_rt?" : "vstorea_half2_rtz", v, got, want);
        }
    CHECK_MSG(bad == 0, "%d wrong; first: %s", bad, first);
    mgpuMemFree(x, NULL);
    mgpuMemFree(h, NULL);
    mgpuModuleUnload(mod);
}

/* atan2, remainder and pow at C99 Annex F's edges (zeros of both signs, infinities, NaN), where
   GLSL's Atan and x - y rint(x / y) gave other answers on lavapipe (atan2(0, 0) 3pi/4, remainder
   by an infinity NaN): against the host's libm, the zeros' signs too. */
static void test_annex_f(void) {
    static const char src[] = "kernel void edges(global const float *y, global const float *x, global float *o) {\n"
                              "    size_t i = get_global_id(0);\n    o[3 * i] = atan2(y[i], x[i]); o[3 * i + 1] = remainder(y[i], x[i]); o[3 * i + 2] = pow(y[i], x[i]);\n}\n";
    static const float v[] = {0.0f, -0.0f, 1.0f, -1.0f, 5.1f, -3.0f, INFINITY, -INFINITY, NAN};
    enum { NV = sizeof v / sizeof v[0], N = NV * NV };
    char path[512];
    void *mod, *args[3];
    float *y, *x, *o;
    int i, bad = 0;
    char first[256] = "";
    if (!have_tools) SKIP("no clang / spirv-val / LLVM SPIR-V target");
    CHECK(t_save(dir, "edges.cl", src, sizeof src - 1, path, sizeof path));
    compile_cl(path, "edges", &mod);
    if (!mod) return;
    y = (float *)alloc(N * 4);
    x = (float *)alloc(N * 4);
    o = (float *)alloc(3 * N * 4);
    for (i = 0; i < N; i++) {
        y[i] = v[i / NV];
        x[i] = v[i % NV];
    }
    args[0] = &y; args[1] = &x; args[2] = &o;
    mgpuLaunchKernel(mgpuModuleGetFunction(mod, "edges"), 1, 1, 1, N, 1, 1, 0, NULL, args, NULL, 3);
    for (i = 0; i < 3 * N; i++) {
        float yi = y[i / 3], xi = x[i / 3], want = i % 3 == 2 ? powf(yi, xi) : i % 3 ? remainderf(yi, xi) : atan2f(yi, xi);
        int edge = !isnormal(yi) || !isnormal(xi) || (i % 3 == 2 && (fabsf(yi) == 1 || xi == truncf(xi))); /* both normal: the functions' precision, not these rules */
        int ok = !edge || (ulps(o[i], want) <= (i % 3 == 2 ? 16 : 6) && (isnan(want) || signbit(o[i]) == signbit(want)));
        if (!ok && !bad++)
            snprintf(first, sizeof first, "%s(%g, %g) = %g, want %g", i % 3 == 2 ? "pow" : i % 3 ? "remainder" : "atan2", (double)yi, (double)xi, (double)o[i], (double)want);
    }
    CHECK_MSG(bad == 0, "%d wrong; %s", bad, first);
    mgpuMemFree(y, NULL);
    mgpuMemFree(x, NULL);
    mgpuMemFree(o, NULL);
    mgpuModuleUnload(mod);
}

/* A dense sweep against the host's libm (double): the functions built at OpenCL's precision where
   GLSL.std.450's falls short (sin, cos, tan, atan, atan2, acos over every magnitude; erf, erfc,
   tgamma, lgamma, lgamma_r, new) each within OpenCL's ULP limit, and native_sin, native_cos,
   native_tan (GLSL.std.450's, kept for native_) measured only. A result below FLT_MIN may be
   flushed to 0, one past FLT_MAX may be inf. */
enum { P_N = 1 << 17, P_F = 20 };
static double p_ref(int k, float a, float u, float b, float g) {
    switch (k) {
    case 0: case 13: return sin(a);
    case 1: case 14: return cos(a);
    case 2: case 15: return tan(a);
    case 3: return atan(a);
    case 4: return atan2(b, g);
    case 5: return acos(u);
    case 6: return erf(b);
    case 7: return erfc(b);
    case 8: return g == 0 ? copysign(INFINITY, g) : g < 0 && g == floor(g) ? NAN : tgamma(g);
    case 9: case 10: return g <= 0 && g == floor(g) ? INFINITY : lgamma(g);
    case 11: return lgamma(fabs(a));
    case 12: return acos(u) / M_PI;
    case 16: return pow(fabs(a), b);
    case 17: return pow(fabs(g), 4.0 * b);
    case 18: return pow(g, (int)b);
    case 19: return ((g == 0 || isinf(g)) && b == 0) || (fabs(g) == 1 && isinf(b)) ? NAN : pow(fabs(g), b); /* powr: OpenCL's NaNs */
    }
    return 0;
}

static void test_precision(void) {
    static const char src[] =
        "kernel void sweep(global const float *a, global const float *u, global const float *b, global const float *g, global float *o, global int *s) {\n"
        "    size_t i = get_global_id(0);\n    global float *r = o + 20 * i;\n    float x = a[i];\n"
        "    r[0] = sin(x); r[1] = cos(x); r[2] = tan(x); r[3] = atan(x); r[4] = atan2(b[i], g[i]); r[5] = acos(u[i]);\n"
        "    r[6] = erf(b[i]); r[7] = erfc(b[i]); r[8] = tgamma(g[i]); r[9] = lgamma(g[i]); r[10] = lgamma_r(g[i], s + i); r[11] = lgamma(fabs(x));\n"
        "    r[12] = acospi(u[i]); r[13] = native_sin(x); r[14] = native_cos(x); r[15] = native_tan(x);\n"
        "    r[16] = pow(fabs(x), b[i]); r[17] = pow(fabs(g[i]), 4.0f * b[i]); r[18] = pown(g[i], (int)b[i]); r[19] = powr(fabs(g[i]), b[i]);\n}\n";
    static const struct { const char *name; double lim; } fn[P_F] = {
        {"sin", 4}, {"cos", 4}, {"tan", 5}, {"atan", 5}, {"atan2", 6}, {"acos", 4}, {"erf", 16}, {"erfc", 16}, {"tgamma", 16},
        {"lgamma", -1}, {"lgamma_r", -1}, {"lgamma(|x|)", 16}, {"acospi", 5}, {"native_sin", -1}, {"native_cos", -1}, {"native_tan", -1},
        {"pow", 16}, {"pow", 16}, {"pown", 16}, {"powr", 16}};
    char path[512], first[300] = "";
    void *mod, *args[6];
    float *a, *u, *b, *g, *o;
    int32_t *sg;
    double worst[P_F], worst_pos = 0;
    int i, k, bad = 0, where[P_F];
    if (!have_tools) SKIP("no clang / spirv-val / LLVM SPIR-V target");
    CHECK(t_save(dir, "sweep.cl", src, sizeof src - 1, path, sizeof path));
    compile_cl(path, "sweep", &mod);
    if (!mod) return;
    a = (float *)alloc(P_N * 4); u = (float *)alloc(P_N * 4); b = (float *)alloc(P_N * 4); g = (float *)alloc(P_N * 4);
    o = (float *)alloc((size_t)P_N * P_F * 4);
    sg = (int32_t *)alloc(P_N * 4);
    for (i = 0; i < P_N; i++) { /* a: every exponent, both signs, evenly in the bits; u, b, g: evenly in [-1, 1], [-12, 12], [-40, 40] */
        a[i] = f_from((uint32_t)(i / 2) * (0x7f800000u / (P_N / 2)) | (uint32_t)(i & 1) << 31);
        u[i] = (float)(2.0 * i / P_N - 1.0);
        b[i] = (float)(24.0 * i / P_N - 12.0);
        g[i] = (float)(80.0 * i / P_N - 40.0);
    }
    g[1] = 0.0f; g[2] = -0.0f; g[3] = -3.0f; g[4] = 1.0f; g[5] = 2.0f; g[6] = 0.5f; g[7] = 1e-15f; g[8] = INFINITY; g[9] = NAN;
    b[1] = INFINITY; b[2] = -INFINITY; b[3] = 0.0f; b[4] = -0.0f;
    args[0] = &a; args[1] = &u; args[2] = &b; args[3] = &g; args[4] = &o; args[5] = &sg;
    launch_in(mod, "sweep", P_N, args, 6);
    for (k = 0; k < P_F; k++) { worst[k] = 0; where[k] = -1; }
    for (i = 0; i < P_N; i++) {
        int want_sign;
        for (k = 0; k < P_F; k++) {
            double want = p_ref(k, a[i], u[i], b[i], g[i]), err;
            float got = o[P_F * i + k];
            if (fabs(want) > FLT_MAX && !isinf(want) && isinf(got)) continue;
            if (fabs(want) < FLT_MIN && got == 0) continue;
            err = ulps(got, want);
            if (k == 9 && g[i] > 0 && err > worst_pos) worst_pos = err;
            if (err > worst[k]) { worst[k] = err; where[k] = i; }
        }
        want_sign = g[i] == floor(g[i]) && g[i] <= 0 ? 0 : g[i] > 0 || isnan(g[i]) || fmod(floor(g[i]), 2.0) == 0 ? -1 : 1;
        if (g[i] > 0 || isnan(g[i])) want_sign = 1;
        else if (want_sign != 0) want_sign = tgamma(g[i]) < 0 ? -1 : 1;
        if (sg[i] != want_sign && !bad++) snprintf(first, sizeof first, "lgamma_r(%a) sign %d, want %d", (double)g[i], sg[i], want_sign);
    }
    for (k = 0; k < P_F; k++) {
        int at = where[k];
        printf("  %-11s %10.1f ulp%s", fn[k].name, worst[k], fn[k].lim >= 0 ? "" : " (measured)");
        if (at >= 0 && worst[k] > 0)
            printf("  at a=%a u=%a b=%a g=%a: %a want %a", (double)a[at], (double)u[at], (double)b[at], (double)g[at], (double)o[P_F * at + k], p_ref(k, a[at], u[at], b[at], g[at]));
        printf("\n");
        if (fn[k].lim >= 0 && worst[k] > fn[k].lim && !bad++) snprintf(first, sizeof first, "%s: %.1f ulp (OpenCL's limit: %g)", fn[k].name, worst[k], fn[k].lim);
    }
    printf("  lgamma of x > 0: %.1f ulp\n", worst_pos);
    if (worst_pos > 16 && !bad++) snprintf(first, sizeof first, "lgamma of x > 0: %.1f ulp", worst_pos);
    CHECK_MSG(bad == 0, "%d wrong; first: %s", bad, first);
    mgpuMemFree(a, NULL); mgpuMemFree(u, NULL); mgpuMemFree(b, NULL); mgpuMemFree(g, NULL); mgpuMemFree(o, NULL); mgpuMemFree(sg, NULL);
    mgpuModuleUnload(mod);
}

/* the runtime reported nothing (with the validation layer on where it is installed: none of its messages) */
static void test_runtime_quiet(void) {
    if (!module) SKIP("no module");
    CHECK_MSG(t_runtime_errors == 0, "%d reports; the last: %s", t_runtime_errors, t_runtime_error);
}

int main(void) {
    if (!t_vulkan_start(dir, sizeof dir, "vkbi", &have_tools)) return 1; /* the validation layer: no message allowed */
    RUN(test_compile);
    RUN(test_integer);
    RUN(test_float_common);
    RUN(test_shuffles);
    RUN(test_math);
    RUN(test_round_ldexp);
    RUN(test_wide);
    RUN(test_wide_bitcast);
    RUN(test_wide_param);
    RUN(test_half);
    RUN(test_half_double);
    RUN(test_annex_f);
    RUN(test_precision);
    RUN(test_runtime_quiet);
    t_vulkan_end(dir, module);
    return TEST_END("test_vulkan_builtins");
}
