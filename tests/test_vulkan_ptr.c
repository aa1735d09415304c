/* Pointer kernels for Vulkan ([section: lowering] of gpucompile_lower.h): OpenCL C from
   clang (-target spirv64 -O2: tests/run/kernels.cl, the kernels tests/run/run.c also runs on
   OpenCL, and tests/run/vulkan/pointer_kernels.cl, the ones only Vulkan's tests run) rewritten by
   gpucompile_lower_kernels, compiled by LLVM's SPIR-V code generator for
   spirv1.6-unknown-vulkan1.3-compute, the parameter strings added (gpucompile_vulkan_mark_params),
   checked by spirv-val --target-env vulkan1.3, reflected, and run on the first Vulkan device
   (lavapipe here) through the runtime's mgpu* launch with the arguments in the kernels' own
   order, against known answers. Until the backend's SPIR-V repair runs here, the barrier's
   missing WorkgroupMemory semantics (an LLVM 22 defect) is patched by this test. Then what cannot
   be expressed: each refused with the function and the instruction named, never a crash. */
#define GPUCOMPILE_VULKAN_RUNTIME
#include "test.h"
#include "gpucompile_vulkan.h"
#include <llvm-c/Analysis.h>
#include <llvm-c/IRReader.h>
#include <llvm-c/Target.h>
#include <llvm-c/Transforms/PassBuilder.h>
#include <math.h>

static char dir[256];
static int have_tools, have_device;


/* LLVM 22 writes the barrier as OpControlBarrier Workgroup Workgroup 0x10 (no WorkgroupMemory):
   each barrier gets a constant of its own, 0x148 (AcquireRelease|UniformMemory|WorkgroupMemory). */
static void patch_barriers(gpucompile_buf *m) {
    uint32_t *w = (uint32_t *)m->data;
    size_t n = m->len / 4, at, c;
    for (at = 5; at < n; at += w[at] >> 16) {
        if ((w[at] & 0xffffu) != 224u || (w[at] >> 16) != 4) continue; /* OpControlBarrier */
        for (c = 5; c < n; c += w[c] >> 16)
            if ((w[c] & 0xffffu) == 43u && (w[c] >> 16) == 4 && w[c + 2] == w[at + 3]) break; /* OpConstant */
        if (c >= n || w[c + 3] == 0x148u) continue;
        {
            uint32_t ins[4], bound = w[3], type = w[c + 1];
            size_t off = (c + 4) * 4, barrier = at;
            ins[0] = 4u << 16 | 43u;
            ins[1] = type;
            ins[2] = bound;
            ins[3] = 0x148u;
            gpucompile_buf_add(m, ins, 16); /* room; then shifted in */
            w = (uint32_t *)m->data;
            memmove(m->data + off + 16, m->data + off, m->len - 16 - off);
            memcpy(m->data + off, ins, 16);
            w[3] = bound + 1;
            if (barrier > c) barrier += 4;
            w[barrier + 3] = bound;
            at = barrier;
            n = m->len / 4;
        }
    }
}

/* IR text -> lowered -> SPIR-V words (marked, barriers patched) in out; log: the errors. 1 on
   success. */
static int compile_ir_opt(const char *ir, size_t len, gpucompile_buf *out, t_log *log, int *kernels, const gpucompile_lower_options *o, int optimize) {
    static const char *triple = "spirv1.6-unknown-vulkan1.3-compute";
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMMemoryBufferRef mb = LLVMCreateMemoryBufferWithMemoryRangeCopy(ir, len, "kernels.ll"), obj = NULL;
    LLVMModuleRef m = NULL, copy = NULL;
    LLVMTargetRef t;
    LLVMTargetMachineRef tm = NULL;
    LLVMTargetDataRef td;
    gpucompile_logger logger;
    char *msg = NULL, *dl;
    int ok = 0, tries;
    logger.func = t_log_func;
    logger.user_data = log;
    if (LLVMParseIRInContext(ctx, mb, &m, &msg)) {
        printf("  parse: %s\n", msg ? msg : "");
        goto done;
    }
    if (LLVMGetTargetFromTriple(triple, &t, &msg)) goto done;
    tm = LLVMCreateTargetMachine(t, triple, "", "", LLVMCodeGenLevelDefault, LLVMRelocDefault, LLVMCodeModelDefault);
    td = LLVMCreateTargetDataLayout(tm);
    dl = LLVMCopyStringRepOfTargetData(td);
    LLVMSetTarget(m, triple);
    LLVMSetDataLayout(m, dl);
    LLVMDisposeMessage(dl);
    LLVMDisposeTargetData(td);
    if (optimize) { /* what a backend does with front-end output: helpers inlined, then -O2 for the Vulkan target */
        LLVMPassBuilderOptionsRef po = LLVMCreatePassBuilderOptions();
        LLVMErrorRef e;
        CHECK(gpucompile_has_pointer_kernels(m));
        gpucompile_inline_helpers(m);
        e = LLVMRunPasses(m, "default<O2>", tm, po);
        LLVMDisposePassBuilderOptions(po);
        if (e) {
            char *em = LLVMGetErrorMessage(e);
            printf("  passes: %s\n", em);
            LLVMDisposeErrorMessage(em);
            goto done;
        }
    }
    if (gpucompile_lower_kernels(NULL, m, gpucompile_vulkan_lower_target(), o, &logger, kernels) != GPUCOMPILE_OK) goto done;
    if (LLVMVerifyModule(m, LLVMPrintMessageAction, &msg)) {
        printf("  the lowered module does not verify\n");
        goto done;
    }
    if (msg) LLVMDisposeMessage(msg);
    msg = NULL;
    if (getenv("T_DUMP")) LLVMDumpModule(m);
    /* as the library does (gpucompile_backend.emitted_wrong): block ids LLVM 22 kept from an
       earlier compile that gpucompile_spirv_relabel cannot mend, another try from a copy of the
       module before code generation, in a target machine of its own */
    copy = LLVMCloneModule(m);
    for (tries = 0; tries < 8; tries++) {
        if (tries) {
            LLVMDisposeModule(m);
            LLVMDisposeTargetMachine(tm);
            LLVMDisposeMemoryBuffer(obj);
            obj = NULL;
            m = LLVMCloneModule(copy);
            tm = LLVMCreateTargetMachine(t, triple, "", "", LLVMCodeGenLevelDefault, LLVMRelocDefault, LLVMCodeModelDefault);
        }
        if (LLVMTargetMachineEmitToMemoryBuffer(tm, m, LLVMObjectFile, &msg, &obj)) {
            printf("  codegen: %s\n", msg ? msg : "");
            goto done;
        }
        if (!gpucompile_spirv_ids_wrong(LLVMGetBufferStart(obj), LLVMGetBufferSize(obj))) break;
    }
    if (gpucompile_vulkan_mark_params(m, LLVMGetBufferStart(obj), LLVMGetBufferSize(obj), out) != GPUCOMPILE_OK) goto done;
    patch_barriers(out);
    ok = 1;
done:
    if (msg) LLVMDisposeMessage(msg);
    if (obj) LLVMDisposeMemoryBuffer(obj);
    if (copy) LLVMDisposeModule(copy);
    if (m) LLVMDisposeModule(m);
    if (tm) LLVMDisposeTargetMachine(tm);
    LLVMContextDispose(ctx);
    return ok;
}

static int compile_ir(const char *ir, size_t len, gpucompile_buf *out, t_log *log, int *kernels, const gpucompile_lower_options *o) {
    return compile_ir_opt(ir, len, out, log, kernels, o, 0);
}

/* A kernel's sizes set at launch (its workgroup size, its arrays), not its other launch values. */
static int sizes_at_launch(const gpucompile_vulkan_kernel *k) {
    int i, n = 0;
    for (i = 0; i < k->num_launch; i++) n += k->launch[i].kind == GPUCOMPILE_VULKAN_LAUNCH_LOCAL_SIZE || k->launch[i].kind == GPUCOMPILE_VULKAN_LAUNCH_SHARED;
    return n;
}

static gpucompile_buf spirv; /* pointer_kernels.cl's module */
static void *module;
static int valid;

static void test_compile(void) {
    char cmd[1024], path[512];
    size_t size;
    char *ir;
    t_log log;
    int n = 0;
    gpucompile_vulkan_kernel k[16];
    FILE *f;
    if (!have_tools) SKIP("no clang / spirv-val");
    snprintf(path, sizeof path, "%s/pk.ll", dir);
    snprintf(cmd, sizeof cmd, "clang -cl-std=CL2.0 -target spirv64 -O2 -emit-llvm -S tests/run/vulkan/pointer_kernels.cl -o '%s'", path);
    CHECK(t_sh_ok(cmd));
    CHECK((ir = (char *)t_read(path, &size)) != NULL);
    if (!ir) return;
    memset(&log, 0, sizeof log);
    CHECK_MSG(compile_ir(ir, size, &spirv, &log, &n, NULL), "%s", log.text);
    free(ir);
    CHECK(n == 9);
    if (!spirv.len) return;
    snprintf(path, sizeof path, "%s/pk.spv", dir);
    CHECK((f = fopen(path, "wb")) != NULL);
    if (f) {
        fwrite(spirv.data, 1, spirv.len, f);
        fclose(f);
    }
    snprintf(cmd, sizeof cmd, "spirv-val --target-env vulkan1.3 '%s'", path);
    valid = t_sh_ok(cmd);
    CHECK(valid);
    CHECK(gpucompile_vulkan_reflect(spirv.data, spirv.len, k, 12) == 9);
    CHECK_STR(k[0].name, "saxpy");
    /* saxpy(float a, global const float *x, global float *y, int n) */
    CHECK(k[0].num_params == 4);
    CHECK(k[0].params[0].kind == GPUCOMPILE_VULKAN_PARAM_PUSH && k[0].params[0].size == 4);
    CHECK(k[0].params[1].kind == GPUCOMPILE_VULKAN_PARAM_BINDING && k[0].params[1].value == 0);
    CHECK(k[0].params[2].kind == GPUCOMPILE_VULKAN_PARAM_BINDING && k[0].params[2].value == 1);
    CHECK(k[0].params[3].kind == GPUCOMPILE_VULKAN_PARAM_PUSH && k[0].params[3].size == 4);
    CHECK(k[0].num_bindings == 2 && k[0].bindings[0].binding == 0 && k[0].bindings[0].read_only && !k[0].bindings[1].read_only);
    CHECK(k[0].local_size[0] == 64 && k[0].local_size[1] == 1);
    CHECK(sizes_at_launch(&k[0]) == 0); /* reqd_work_group_size: compiled in */
    CHECK_STR(k[1].name, "grid2d");
    CHECK(k[1].local_size[0] == 8 && k[1].local_size[1] == 4);
    CHECK(k[1].params[0].kind == GPUCOMPILE_VULKAN_PARAM_BINDING && k[1].params[0].value == 0); /* each kernel's bindings its own, from 0 */
    for (n = 0; n < 9; n++) /* set 0, and no kernel's binding above its buffers' count */
        CHECK(k[n].num_bindings == 0 || (k[n].bindings[k[n].num_bindings - 1].set == 0 && k[n].bindings[k[n].num_bindings - 1].binding == (uint32_t)k[n].num_bindings - 1));
    CHECK_STR(k[3].name, "blur");
    CHECK(k[3].local_size[0] == 64 && k[3].local_size[1] == 1); /* no reqd_work_group_size: the default, until a launch sets it */
    CHECK(sizes_at_launch(&k[3]) == 3);
    for (n = 0; n < 3 && n < k[3].num_launch; n++)
        CHECK(k[3].launch[n].kind == GPUCOMPILE_VULKAN_LAUNCH_LOCAL_SIZE && k[3].launch[n].arg == (uint32_t)n && k[3].launch[n].spec_id == (uint32_t)n &&
              k[3].launch[n].value == (n ? 1u : 64u));
    CHECK_STR(k[7].name, "sized_reduce");
    CHECK(sizes_at_launch(&k[7]) == 4 && k[7].launch[3].kind == GPUCOMPILE_VULKAN_LAUNCH_SHARED && k[7].launch[3].spec_id == 3);
    CHECK(k[7].num_params == 4 && k[7].params[2].kind == GPUCOMPILE_VULKAN_PARAM_LOCAL && k[7].params[2].value == 0);
    CHECK_STR(k[8].name, "sizes3d");
    CHECK(sizes_at_launch(&k[8]) == 3 && k[8].workgroup_bytes == 0);
}

static void *alloc(size_t bytes) {
    void *p = mgpuMemAlloc(bytes, NULL, true);
    if (p) memset(p, 0, bytes);
    return p;
}

static void *fn(const char *name) {
    return module ? mgpuModuleGetFunction(module, name) : NULL;
}

static void test_load(void) {
    if (!valid) SKIP("no valid module");
    gpucompile_runtime_set_error_callback(t_on_runtime_error, NULL);
    module = mgpuModuleLoad(spirv.data, spirv.len);
    if (!module) {
        if (!gpucompile_vulkan_runtime_info_get(NULL)) SKIP("no Vulkan device: %s", t_runtime_error);
    }
    CHECK(module != NULL);
    have_device = module != NULL;
}

static void test_saxpy(void) {
    int n = 1000, i, bad = 0;
    float a = 2.5f, *x, *y;
    void *args[4];
    if (!have_device) SKIP("no Vulkan device");
    x = (float *)alloc((size_t)n * 4);
    y = (float *)alloc((size_t)n * 4);
    for (i = 0; i < n; i++) {
        x[i] = (float)i;
        y[i] = (float)(n - i);
    }
    args[0] = &a; args[1] = &x; args[2] = &y; args[3] = &n; /* the kernel's own order */
    mgpuLaunchKernel(fn("saxpy"), (intptr_t)((n + 63) / 64), 1, 1, 64, 1, 1, 0, NULL, args, NULL, 4);
    for (i = 0; i < n; i++) bad += y[i] != 2.5f * (float)i + (float)(n - i);
    CHECK_MSG(bad == 0, "%d wrong, y[1] = %g", bad, (double)y[1]);
    mgpuMemFree(x, NULL);
    mgpuMemFree(y, NULL);
}

/* Does the module declare the capability? */
static int has_capability(const gpucompile_buf *m, uint32_t cap) {
    const uint32_t *w = (const uint32_t *)(const void *)m->data;
    size_t n = m->len / 4, at;
    for (at = 5; at < n && (w[at] >> 16); at += w[at] >> 16)
        if ((w[at] & 0xffffu) == 17u && w[at + 1] == cap) return 1; /* OpCapability */
    return 0;
}

/* OpenCL C compiled alone (clang -O2 for target), lowered, loaded: the module or NULL. */
static void *compile_cl(const char *name, const char *target, const char *source, gpucompile_buf *m) {
    char cmd[2048], path[512];
    size_t size;
    char *ir;
    t_log log;
    int n = 0;
    void *mod = NULL;
    memset(m, 0, sizeof *m);
    memset(&log, 0, sizeof log);
    if (!t_save(dir, name, source, strlen(source), path, sizeof path)) return NULL;
    snprintf(cmd, sizeof cmd, "clang -x cl -cl-std=CL2.0 -target %s -O2 -emit-llvm -S '%s' -o '%s.ll'", target, path, path);
    if (!t_sh_ok(cmd)) return NULL;
    snprintf(path + strlen(path), sizeof path - strlen(path), ".ll");
    if (!(ir = (char *)t_read(path, &size))) return NULL;
    CHECK_MSG(compile_ir(ir, size, m, &log, &n, NULL), "%s", log.text);
    free(ir);
    CHECK(m->len && t_save(dir, "cl.spv", m->data, m->len, path, sizeof path));
    snprintf(cmd, sizeof cmd, "spirv-val --target-env vulkan1.3 '%s'", path);
    CHECK(m->len && t_sh_ok(cmd));
    if (have_device && m->len) CHECK((mod = mgpuModuleLoad(m->data, m->len)) != NULL);
    return mod;
}

/* OpenCL's 64-bit size_t (clang -target spirv64): get_global_id and the index arithmetic done in
   32 bits, so saxpy declares no Int64 (spirv32's the same); a long buffer keeps it. Both run. */
static void test_no_int64(void) {
    static const char saxpy_cl[] = "kernel void saxpy(int n, float a, global const float *x, global float *y) {\n"
                                   "    size_t i = get_global_id(0);\n    if (i < n) y[i] = a * x[i] + y[i];\n}\n";
    static const char longs_cl[] = "kernel void add(global long *x, long v) { x[get_global_id(0)] += v; }\n";
    const char *targets[2] = {"spirv64", "spirv32"};
    gpucompile_buf m;
    void *mod, *args[4];
    int t, i, n = 1000, bad;
    if (!have_tools) SKIP("no clang / spirv-val");
    for (t = 0; t < 2; t++) {
        mod = compile_cl("saxpy.cl", targets[t], saxpy_cl, &m);
        CHECK_MSG(m.len && !has_capability(&m, 11), "%s: Int64 declared", targets[t]); /* Int64 */
        if (mod) {
            float a = 2.5f, *x = (float *)alloc((size_t)n * 4), *y = (float *)alloc((size_t)n * 4);
            for (i = 0; i < n; i++) { x[i] = (float)i; y[i] = (float)(n - i); }
            args[0] = &n; args[1] = &a; args[2] = &x; args[3] = &y;
            mgpuLaunchKernel(mgpuModuleGetFunction(mod, "saxpy"), (intptr_t)((n + 127) / 64), 1, 1, 64, 1, 1, 0, NULL, args, NULL, 4);
            for (bad = 0, i = 0; i < n; i++) bad += y[i] != 2.5f * (float)i + (float)(n - i);
            CHECK_MSG(bad == 0, "%s: %d wrong", targets[t], bad);
            mgpuMemFree(x, NULL);
            mgpuMemFree(y, NULL);
            mgpuModuleUnload(mod);
        }
        free(m.data);
    }
    mod = compile_cl("longs.cl", "spirv64", longs_cl, &m);
    CHECK(m.len && has_capability(&m, 11));
    if (mod) {
        long long v = 0x100000001LL, *x = (long long *)alloc((size_t)n * 8);
        for (i = 0; i < n; i++) x[i] = (long long)i << 33;
        args[0] = &x; args[1] = &v;
        mgpuLaunchKernel(mgpuModuleGetFunction(mod, "add"), (intptr_t)(n / 8), 1, 1, 8, 1, 1, 0, NULL, args, NULL, 2);
        for (bad = 0, i = 0; i < n; i++) bad += x[i] != ((long long)i << 33) + v;
        CHECK_MSG(bad == 0, "%d wrong", bad);
        mgpuMemFree(x, NULL);
        mgpuModuleUnload(mod);
    }
    free(m.data);
}

/* sized_reduce (no reqd_work_group_size, a local parameter): the workgroup size and the local
   memory from each launch, a pipeline made at the first launch of each size and kept. */
static void sized_reduce_at(int block, float *in, float *out, int n) {
    int groups = n / block, g, i, bad = 0;
    void *scratch = NULL, *args[4];
    args[0] = &in; args[1] = &out; args[2] = &scratch; args[3] = &n;
    for (g = 0; g < groups; g++) out[g] = -1.0f;
    mgpuLaunchKernel(fn("sized_reduce"), groups, 1, 1, block, 1, 1, block * 4, NULL, args, NULL, 4);
    for (g = 0; g < groups; g++) {
        float want = 0;
        for (i = g * block; i < (g + 1) * block; i++) want += in[i];
        bad += out[g] != want;
    }
    CHECK_MSG(bad == 0, "blocks of %d: %d groups wrong; out[0] = %g", block, bad, (double)out[0]);
}

static void test_sizes_at_launch(void) {
    static const int blocks[] = {32, 64, 256, 1, 128};
    int n = 1024, i, b;
    float *in, *out;
    gpucompile_vulkan_runtime_info before, after;
    if (!have_device) SKIP("no Vulkan device");
    in = (float *)alloc((size_t)n * 4);
    out = (float *)alloc((size_t)n * 4);
    for (i = 0; i < n; i++) in[i] = (float)(i % 5);
    CHECK(gpucompile_vulkan_runtime_info_get(&before));
    for (b = 0; b < 5; b++) sized_reduce_at(blocks[b], in, out, n);
    CHECK(gpucompile_vulkan_runtime_info_get(&after));
    CHECK_MSG(after.pipelines == before.pipelines + 5, "%u pipelines made, 5 expected (one per size)", after.pipelines - before.pipelines);
    for (b = 0; b < 5; b++) sized_reduce_at(blocks[b], in, out, n); /* again: the pipelines kept */
    CHECK(gpucompile_vulkan_runtime_info_get(&before));
    CHECK_MSG(before.pipelines == after.pipelines, "%u pipelines made again", before.pipelines - after.pipelines);
    mgpuMemFree(in, NULL);
    mgpuMemFree(out, NULL);
}

/* sizes3d: get_local_size and get_global_size in three dimensions, as the launches give them. */
static void test_sizes_3d(void) {
    static const int shapes[][6] = {{4, 2, 2, 2, 3, 2}, {8, 8, 1, 1, 2, 3}, {64, 1, 1, 2, 1, 1}, {1, 1, 16, 3, 1, 1}};
    int s, i, *out;
    void *args[1];
    if (!have_device) SKIP("no Vulkan device");
    out = (int *)alloc(4096 * 8);
    args[0] = &out;
    for (s = 0; s < 4; s++) {
        const int *b = shapes[s], *g = shapes[s] + 3;
        int total = b[0] * b[1] * b[2] * g[0] * g[1] * g[2], bad = 0;
        int want_local = b[0] + 100 * b[1] + 10000 * b[2], want_global = b[0] * g[0] + 100 * b[1] * g[1] + 10000 * b[2] * g[2];
        memset(out, 0, 4096 * 8);
        mgpuLaunchKernel(fn("sizes3d"), g[0], g[1], g[2], b[0], b[1], b[2], 0, NULL, args, NULL, 1);
        for (i = 0; i < total; i++) bad += out[2 * i] != want_local || out[2 * i + 1] != want_global;
        CHECK_MSG(bad == 0, "blocks %dx%dx%d: %d wrong; out[0..1] = %d %d", b[0], b[1], b[2], bad, out[0], out[1]);
    }
    mgpuMemFree(out, NULL);
}

static void test_grid2d(void) {
    int gx = 3, gy = 2, w = 8 * 3, h = 4 * 2, width = 7, x, y, bad = 0, *out;
    void *args[2];
    if (!have_device) SKIP("no Vulkan device");
    out = (int *)alloc((size_t)(w * h * 2) * 4);
    args[0] = &out; args[1] = &width;
    mgpuLaunchKernel(fn("grid2d"), gx, gy, 1, 8, 4, 1, 0, NULL, args, NULL, 4);
    for (y = 0; y < h; y++)
        for (x = 0; x < w; x++) {
            int i = y * w + x;
            bad += out[2 * i] != x + 1000 * y;
            bad += out[2 * i + 1] != x / 8 + 100 * (y / 4) + 10000 * 4 + width;
        }
    CHECK_MSG(bad == 0, "%d wrong; out[1] = %d", bad, out[1]);
    mgpuMemFree(out, NULL);
}

/* Taylor series in double (the test links no libm): sin and exp of |v| <= 5. */
static double t_sin(double v) {
    double term = v, sum = 0;
    int k;
    for (k = 1; k < 60; k += 2) {
        sum += term;
        term *= -v * v / ((k + 1) * (k + 2));
    }
    return sum;
}
static double t_exp(double v) {
    double term = 1, sum = 0;
    int k;
    for (k = 1; k < 60; k++) {
        sum += term;
        term *= v / k;
    }
    return sum;
}
static double t_abs(double v) { return v < 0 ? -v : v; }

/* scalars(global float *out, char, short, long, double, float4, uint): every size from the
   block's words. */
static void test_push_scalars(void) {
    float *out, v[4] = {1.5f, -2.5f, 3.25f, 4.0f};
    char c = -7;
    short sh = -300;
    long long l = 5000000000LL;
    double d = 0.125;
    unsigned u = 4000000000u;
    void *args[7];
    gpucompile_vulkan_kernel k[16];
    if (!have_device) SKIP("no Vulkan device");
    CHECK(gpucompile_vulkan_reflect(spirv.data, spirv.len, k, 12) == 9);
    CHECK_STR(k[2].name, "scalars");
    /* c at 0, s at 4, l at 8, d at 16, v at 32 (16-byte aligned), u at 48 */
    CHECK(k[2].num_params == 7 && k[2].params[1].value == 0 && k[2].params[1].size == 1 && k[2].params[2].value == 4 &&
          k[2].params[3].value == 8 && k[2].params[4].value == 16 && k[2].params[5].value == 32 && k[2].params[5].size == 16 &&
          k[2].params[6].value == 48);
    out = (float *)alloc(64);
    args[0] = &out; args[1] = &c; args[2] = &sh; args[3] = &l; args[4] = &d; args[5] = v; args[6] = &u;
    mgpuLaunchKernel(fn("scalars"), 1, 1, 1, 1, 1, 1, 0, NULL, args, NULL, 7);
    CHECK_MSG(out[0] == -7.0f && out[1] == -300.0f && out[2] == 5e9f && out[3] == 0.125f, "%g %g %g %g", (double)out[0], (double)out[1],
              (double)out[2], (double)out[3]);
    CHECK(out[4] == 1.5f && out[5] == -2.5f && out[6] == 3.25f && out[7] == 4.0f && out[8] == 4e9f);
    mgpuMemFree(out, NULL);
}

/* tests/data/vulkan_many_scalars.cl: 41 scalars (164 bytes), more than the 128 bytes of push
   constants every device has: the block is a uniform buffer (the reflection says where), each
   launch's own values, two launches in one stream before it is synchronized. */
static void test_many_scalars(void) {
    gpucompile_buf m;
    gpucompile_vulkan_kernel k;
    size_t size;
    char *src;
    void *mod, *stream, *args[2][42];
    int vi[2][20], i, l, bad = 0;
    float vf[2][20], d[2] = {0.5f, -1.0f}, *out[2] = {NULL, NULL};
    if (!have_tools) SKIP("no clang / spirv-val");
    CHECK((src = (char *)t_read("tests/data/vulkan_many_scalars.cl", &size)) != NULL);
    if (!src) return;
    mod = compile_cl("many.cl", "spirv64", src, &m);
    free(src);
    CHECK(m.len && gpucompile_vulkan_reflect(m.data, m.len, &k, 1) == 1);
    CHECK_MSG(k.has_uniforms && k.uniform_set == 0 && k.uniform_binding == 1 && k.push_size == 164 && k.num_params == 42 && k.num_bindings == 1,
              "uniforms %d at %u:%u, %u bytes, %d params", k.has_uniforms, k.uniform_set, k.uniform_binding, k.push_size, k.num_params);
    if (mod) {
        stream = mgpuStreamCreate();
        for (l = 0; l < 2; l++) {
            out[l] = (float *)alloc(40 * 4);
            args[l][0] = &out[l];
            args[l][1] = &d[l];
            for (i = 0; i < 20; i++) {
                vi[l][i] = (l ? -1000 : 1000) * i + 7;
                vf[l][i] = (l ? -0.25f : 0.75f) * (float)i;
                args[l][2 + 2 * i] = &vi[l][i];
                args[l][3 + 2 * i] = &vf[l][i];
            }
            mgpuLaunchKernel(mgpuModuleGetFunction(mod, "many"), 1, 1, 1, 1, 1, 1, 0, stream, args[l], NULL, 42);
        }
        mgpuStreamSynchronize(stream);
        mgpuStreamDestroy(stream);
        for (l = 0; l < 2; l++)
            for (i = 0; i < 20; i++) bad += out[l][2 * i] != (float)vi[l][i] + d[l] || out[l][2 * i + 1] != vf[l][i] + d[l];
        CHECK_MSG(bad == 0, "%d wrong: out[0][2] = %g, out[1][3] = %g", bad, (double)out[0][2], (double)out[1][3]);
        mgpuMemFree(out[0], NULL);
        mgpuMemFree(out[1], NULL);
        mgpuModuleUnload(mod);
    }
    free(m.data);
}

/* blur: a constant table, clamp. */
static void test_constant_table(void) {
    int n = 300, i, bad = 0;
    float *in, *out;
    void *args[3];
    static const float w[5] = {0.0625f, 0.25f, 0.375f, 0.25f, 0.0625f};
    if (!have_device) SKIP("no Vulkan device");
    in = (float *)alloc((size_t)n * 4);
    out = (float *)alloc((size_t)n * 4);
    for (i = 0; i < n; i++) in[i] = (float)(i % 11);
    args[0] = &in; args[1] = &out; args[2] = &n;
    mgpuLaunchKernel(fn("blur"), (n + 63) / 64, 1, 1, 64, 1, 1, 0, NULL, args, NULL, 3);
    for (i = 0; i < n; i++) {
        float want = 0;
        int k, j;
        for (k = -2; k <= 2; k++) {
            j = i + k < 0 ? 0 : i + k > n - 1 ? n - 1 : i + k;
            want += w[(i + k + 5) % 5] * in[j];
        }
        bad += t_abs(out[i] - want) > 1e-5;
    }
    CHECK_MSG(bad == 0, "%d wrong", bad);
    mgpuMemFree(in, NULL);
    mgpuMemFree(out, NULL);
}

/* mixed: wider accesses split into the buffer's elements. */
static void test_mixed_widths(void) {
    int n = 128, i, bad = 0, *y;
    float *x;
    void *args[3];
    if (!have_device) SKIP("no Vulkan device");
    x = (float *)alloc((size_t)n * 16);
    y = (int *)alloc((size_t)n * 12 + 4);
    for (i = 0; i < 4 * n; i++) x[i] = (float)(i % 9);
    args[0] = &x; args[1] = &y; args[2] = &n;
    mgpuLaunchKernel(fn("mixed"), n / 64, 1, 1, 64, 1, 1, 0, NULL, args, NULL, 3);
    for (i = 0; i < n; i++) {
        long long v;
        memcpy(&v, y + 3 * i + 1, 8);
        bad += y[3 * i] != (int)(x[4 * i] + x[4 * i + 3] + x[4 * i + 1] + x[4 * i + 2]);
        bad += v != ((long long)i << 33 | 5);
    }
    CHECK_MSG(bad == 0, "%d wrong; y[0] = %d", bad, y[0]);
    mgpuMemFree(x, NULL);
    mgpuMemFree(y, NULL);
}

/* private_array: a private array indexed at run time. */
static void test_private_array(void) {
    int n = 128, i, k, bad = 0, *in, *out, a[8];
    void *args[3];
    if (!have_device) SKIP("no Vulkan device");
    in = (int *)alloc((size_t)n * 4);
    out = (int *)alloc((size_t)n * 4);
    for (i = 0; i < n; i++) in[i] = i * 7 % 23;
    args[0] = &in; args[1] = &out; args[2] = &n;
    mgpuLaunchKernel(fn("private_array"), n / 64, 1, 1, 64, 1, 1, 0, NULL, args, NULL, 3);
    for (i = 0; i < n; i++) {
        for (k = 0; k < 8; k++) a[k] = in[(i + k) % n] * (k + 1);
        bad += out[i] != a[in[i] & 7] + a[(in[i] + 3) & 7];
    }
    CHECK_MSG(bad == 0, "%d wrong", bad);
    mgpuMemFree(in, NULL);
    mgpuMemFree(out, NULL);
}

/* private_hist: a private array zeroed by memset, copied out by memcpy (both expanded). */
static void test_private_memset(void) {
    int n = 1000, i, k, bad = 0, *in, *out, h[16];
    void *args[3];
    if (!have_device) SKIP("no Vulkan device");
    in = (int *)alloc((size_t)n * 4);
    out = (int *)alloc(64 * 16 * 4);
    for (i = 0; i < n; i++) in[i] = i * 13 % 37;
    args[0] = &in; args[1] = &out; args[2] = &n;
    mgpuLaunchKernel(fn("private_hist"), 1, 1, 1, 64, 1, 1, 0, NULL, args, NULL, 3);
    for (i = 0; i < 64; i++) {
        memset(h, 0, sizeof h);
        for (k = 0; k < 32; k++) h[in[(i * 32 + k) % n] & 15]++;
        for (k = 0; k < 16; k++) bad += out[i * 16 + k] != h[k];
    }
    CHECK_MSG(bad == 0, "%d wrong", bad);
    mgpuMemFree(in, NULL);
    mgpuMemFree(out, NULL);
}

/* A marker that does not match the module (a binding it lacks) is ignored: num_params 0, and
   the launch takes the default convention. */
static void test_marker_mismatch(void) {
    gpucompile_vulkan_kernel k[16];
    char *copy, *at;
    const char *want = "gpucompile.params saxpy p0:4 b0 b1 p4:4";
    size_t i;
    if (!valid) SKIP("no valid module");
    copy = (char *)malloc(spirv.len);
    memcpy(copy, spirv.data, spirv.len);
    for (at = NULL, i = 0; i + strlen(want) <= spirv.len; i++)
        if (memcmp(copy + i, want, strlen(want)) == 0) at = copy + i;
    CHECK(at != NULL);
    if (at) at[strlen("gpucompile.params saxpy p0:4 b")] = '9';
    CHECK(gpucompile_vulkan_reflect(copy, spirv.len, k, 12) == 9);
    CHECK(k[0].num_params == 0 && k[1].num_params == 2);
    if (at) memcpy(at, "gpucompile.params saxpy p0:4 b0 b1 p4:x", strlen(want)); /* malformed */
    CHECK(gpucompile_vulkan_reflect(copy, spirv.len, k, 12) == 9 && k[0].num_params == 0);
    if (at) memcpy(at, "gpucompile.params saxpx p0:4 b0 b1 p4:4", strlen(want)); /* another kernel's */
    CHECK(gpucompile_vulkan_reflect(copy, spirv.len, k, 12) == 9 && k[0].num_params == 0);
    free(copy);
}

/* CUDA-style IR by hand: a ptx_kernel with NVVM's special registers, the SPIR-V translator's
   __spirv_BuiltInGlobalInvocationId variable, a pointer walked in a loop (a phi of pointers,
   byte-offset getelementptrs) and a select between two addresses of one buffer. */
static const char cuda_style[] =
    "target triple = \"spirv64\"\n"
    "@__spirv_BuiltInGlobalInvocationId = external addrspace(1) global <3 x i64>\n"
    "declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
    "declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()\n"
    "declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()\n"
    "declare void @llvm.nvvm.barrier0()\n"
    "define ptx_kernel void @walk(ptr addrspace(1) %in, ptr addrspace(1) %out, i32 %n) {\n"
    "entry:\n"
    "  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
    "  %bid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()\n"
    "  %bdim = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()\n"
    "  %m = mul i32 %bid, %bdim\n"
    "  %i = add i32 %m, %tid\n"
    "  call void @llvm.nvvm.barrier0()\n"
    "  %ok = icmp slt i32 %i, %n\n"
    "  br i1 %ok, label %body, label %done\n"
    "body:\n"
    "  %i4 = shl i32 %i, 2\n"
    "  %start = getelementptr float, ptr addrspace(1) %in, i32 %i4\n"
    "  br label %loop\n"
    "loop:\n"
    "  %p = phi ptr addrspace(1) [ %start, %body ], [ %pn, %loop ]\n"
    "  %k = phi i32 [ 0, %body ], [ %kn, %loop ]\n"
    "  %acc = phi float [ 0.0, %body ], [ %accn, %loop ]\n"
    "  %v = load float, ptr addrspace(1) %p\n"
    "  %accn = fadd float %acc, %v\n"
    "  %pn = getelementptr i8, ptr addrspace(1) %p, i64 4\n"
    "  %kn = add i32 %k, 1\n"
    "  %more = icmp ult i32 %kn, 4\n"
    "  br i1 %more, label %loop, label %store\n"
    "store:\n"
    "  %gid = load <3 x i64>, ptr addrspace(1) @__spirv_BuiltInGlobalInvocationId\n"
    "  %g0 = extractelement <3 x i64> %gid, i32 0\n"
    "  %o = getelementptr float, ptr addrspace(1) %out, i64 %g0\n"
    "  %big = fcmp ogt float %accn, 1.0e9\n"
    "  %last = getelementptr float, ptr addrspace(1) %out, i64 0\n"
    "  %dst = select i1 %big, ptr addrspace(1) %last, ptr addrspace(1) %o\n"
    "  store float %accn, ptr addrspace(1) %dst\n"
    "  br label %done\n"
    "done:\n"
    "  ret void\n"
    "}\n";

/* CUDA's warp functions (tests/data/vulkan_warps.cu; clang's output vulkan_warps_nvptx.ll, checks on
   segments of 8 lanes) compiled for warps of 8 and of 32: each kernel records the sub-group size
   it needs; on the device, a warp its sub-groups can take runs with known answers (every thread's
   failed checks 0) and the other is refused at load, naming the sizes. */
static void test_cuda_warps(void) {
    static const unsigned warps[] = {8, 32};
    gpucompile_vulkan_runtime_info ri;
    gpucompile_lower_options o;
    gpucompile_vulkan_kernel k[2];
    gpucompile_buf m;
    t_log log;
    size_t size;
    char *ir, path[512], cmd[1024];
    int n = 0, i, w, bad, ran = 0, refused = 0, before = t_runtime_errors;
    if (!have_tools) SKIP("no LLVM SPIR-V target");
    CHECK((ir = (char *)t_read("tests/data/vulkan_warps_nvptx.ll", &size)) != NULL);
    memset(&ri, 0, sizeof ri);
    gpucompile_runtime_set_error_callback(t_on_runtime_error, NULL);
    if (!have_device) have_device = gpucompile_vulkan_runtime_info_get(&ri);
    if (have_device) CHECK(gpucompile_vulkan_runtime_info_get(&ri) && ri.subgroup_min && ri.subgroup_min <= ri.subgroup_max);
    for (w = 0; ir && w < 2; w++) {
        void *fmod;
        memset(&m, 0, sizeof m);
        memset(&log, 0, sizeof log);
        memset(&o, 0, sizeof o);
        o.warp_size = warps[w];
        CHECK_MSG(compile_ir_opt(ir, size, &m, &log, &n, &o, 1), "warp of %u: %s", warps[w], log.text);
        CHECK(gpucompile_vulkan_reflect(m.data, m.len, k, 2) == 1 && k[0].subgroup_size == warps[w] && k[0].num_params == 1);
        { /* ... and in the kernel metadata */
            gpucompile_object *obj = NULL;
            char want[64];
            snprintf(want, sizeof want, "subgroup_size = %u : i32, workgroup_size", warps[w]);
            CHECK(gpucompile_object_create("#gpu.vulkan", GPUCOMPILE_FORMAT_BIN, m.data, m.len, NULL, &obj) == GPUCOMPILE_OK &&
                  gpucompile_vulkan_reflect_into(obj, m.data, m.len, 1) == GPUCOMPILE_OK);
            CHECK_MSG(obj && obj->num_kernels == 1 && obj->kernels[0].metadata && strstr(obj->kernels[0].metadata, want),
                      "%s", obj && obj->num_kernels ? obj->kernels[0].metadata : "");
            gpucompile_object_free(obj);
        }
        snprintf(path, sizeof path, "%s/warps%u.spv", dir, warps[w]);
        CHECK(t_save(dir, strrchr(path, '/') + 1, m.data, m.len, path, sizeof path));
        snprintf(cmd, sizeof cmd, "spirv-val --target-env vulkan1.3 '%s'", path);
        CHECK(t_sh_ok(cmd));
        if (have_device && m.len && warps[w] >= ri.subgroup_min && warps[w] <= ri.subgroup_max) {
            int *out = (int *)alloc(128 * 4);
            void *args[1];
            args[0] = &out;
            for (i = 0; i < 128; i++) out[i] = -1;
            CHECK((fmod = mgpuModuleLoad(m.data, m.len)) != NULL);
            if (fmod) mgpuLaunchKernel(mgpuModuleGetFunction(fmod, "warps"), 2, 1, 1, 64, 1, 1, 0, NULL, args, NULL, 1);
            for (bad = 0, i = 0; i < 128; i++) bad += out[i] != 0;
            CHECK_MSG(bad == 0, "warp of %u: %d threads' checks failed (thread 0: bits %#x, thread 13: %#x)", warps[w], bad, (unsigned)out[0], (unsigned)out[13]);
            CHECK(t_runtime_errors == before);
            if (fmod) mgpuModuleUnload(fmod);
            mgpuMemFree(out, NULL);
            ran++;
        } else if (have_device && m.len) {
            char want[128];
            t_runtime_error[0] = 0;
            CHECK(mgpuModuleLoad(m.data, m.len) == NULL);
            snprintf(want, sizeof want, "needs sub-groups of %u work-items (its warp's lanes); the device's are %u to %u", warps[w], (unsigned)ri.subgroup_min, (unsigned)ri.subgroup_max);
            CHECK_MSG(strstr(t_runtime_error, want) != NULL, "%s", t_runtime_error);
            CHECK(t_runtime_errors == before + 1);
            t_runtime_errors = before; /* the refusal asked for */
            refused++;
        }
        free(m.data);
    }
    if (have_device) printf("  the device's sub-groups: %u to %u work-items; warps run %d, refused at load %d\n", (unsigned)ri.subgroup_min, (unsigned)ri.subgroup_max, ran, refused);
    free(ir);
}

/* The shuffles' .p forms (the source lane in range) and the non-sync forms, for a warp of 8; and
   what is refused: NVVM's warp functions not built, and every one where a target has no sub-groups
   (WebGPU's table). */
static void test_cuda_warp_forms(void) {
    static const char ir[] =
        "target triple = \"spirv64\"\n"
        "declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
        "declare { i32, i1 } @llvm.nvvm.shfl.sync.down.i32p(i32, i32, i32, i32)\n"
        "declare float @llvm.nvvm.shfl.up.f32(float, i32, i32)\n"
        "define ptx_kernel void @forms(ptr addrspace(1) %o, ptr addrspace(1) %f) {\n"
        "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
        "  %r = call { i32, i1 } @llvm.nvvm.shfl.sync.down.i32p(i32 -1, i32 %t, i32 3, i32 6175)\n" /* width 8 */
        "  %v = extractvalue { i32, i1 } %r, 0\n"
        "  %p = extractvalue { i32, i1 } %r, 1\n"
        "  %pz = zext i1 %p to i32\n"
        "  %pk = mul i32 %pz, 1000\n"
        "  %x = add i32 %v, %pk\n"
        "  %a = getelementptr i32, ptr addrspace(1) %o, i32 %t\n"
        "  store i32 %x, ptr addrspace(1) %a\n"
        "  %tf = uitofp i32 %t to float\n"
        "  %u = call float @llvm.nvvm.shfl.up.f32(float %tf, i32 1, i32 6144)\n" /* width 8 */
        "  %b = getelementptr float, ptr addrspace(1) %f, i32 %t\n"
        "  store float %u, ptr addrspace(1) %b\n"
        "  ret void\n"
        "}\n";
    static const char *const refused[][2] = {
        {"declare i32 @llvm.nvvm.match.any.sync.i32(i32, i32)\n", "call i32 @llvm.nvvm.match.any.sync.i32(i32 -1, i32 %t)"},
        {"declare i32 @llvm.nvvm.redux.sync.add(i32, i32)\n", "call i32 @llvm.nvvm.redux.sync.add(i32 %t, i32 -1)"},
        {"declare i32 @llvm.nvvm.vote.ballot.sync(i32, i1)\n", "call i32 @llvm.nvvm.vote.ballot.sync(i32 -1, i1 true)"}};
    gpucompile_vulkan_runtime_info ri;
    gpucompile_lower_options o;
    gpucompile_lower_target none;
    gpucompile_buf m;
    t_log log;
    char text[1024];
    int n = 0, i, bad = 0, before = t_runtime_errors;
    void *fmod;
    if (!have_tools) SKIP("no LLVM SPIR-V target");
    memset(&m, 0, sizeof m);
    memset(&log, 0, sizeof log);
    memset(&o, 0, sizeof o);
    o.warp_size = 8;
    CHECK_MSG(compile_ir(ir, strlen(ir), &m, &log, &n, &o), "%s", log.text);
    gpucompile_runtime_set_error_callback(t_on_runtime_error, NULL);
    if (!have_device) have_device = gpucompile_vulkan_runtime_info_get(&ri);
    if (have_device && m.len && gpucompile_vulkan_runtime_info_get(&ri) && ri.subgroup_min <= 8 && ri.subgroup_max >= 8) {
        int *out = (int *)alloc(64 * 4);
        float *f = (float *)alloc(64 * 4);
        void *args[2];
        args[0] = &out;
        args[1] = &f;
        CHECK((fmod = mgpuModuleLoad(m.data, m.len)) != NULL);
        if (fmod) mgpuLaunchKernel(mgpuModuleGetFunction(fmod, "forms"), 1, 1, 1, 64, 1, 1, 0, NULL, args, NULL, 2);
        for (i = 0; i < 64; i++) bad += out[i] != (i % 8 < 5 ? i + 3 + 1000 : i) || f[i] != (float)(i % 8 ? i - 1 : i);
        CHECK_MSG(bad == 0, "%d wrong; out[5] = %d, f[9] = %g", bad, out[5], (double)f[9]);
        CHECK(t_runtime_errors == before);
        if (fmod) mgpuModuleUnload(fmod);
        mgpuMemFree(out, NULL);
        mgpuMemFree(f, NULL);
    }
    free(m.data);
    none = *gpucompile_vulkan_lower_target();
    memset(none.subgroup, 0, sizeof none.subgroup);
    for (i = 0; i < 3; i++) {
        LLVMContextRef ctx = LLVMContextCreate();
        LLVMModuleRef mod = NULL;
        LLVMMemoryBufferRef mb;
        char *msg = NULL;
        snprintf(text, sizeof text, "target triple = \"spirv64\"\ndeclare i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n%s"
                 "define ptx_kernel void @k(ptr addrspace(1) %%o) {\n  %%t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n  %%x = %s\n"
                 "  %%a = getelementptr i32, ptr addrspace(1) %%o, i32 %%t\n  store i32 %%x, ptr addrspace(1) %%a\n  ret void\n}\n",
                 refused[i][0], refused[i][1]);
        mb = LLVMCreateMemoryBufferWithMemoryRangeCopy(text, strlen(text), "k.ll");
        CHECK_MSG(!LLVMParseIRInContext(ctx, mb, &mod, &msg), "%s", msg ? msg : "");
        memset(&log, 0, sizeof log);
        if (mod) {
            gpucompile_logger logger;
            logger.func = t_log_func;
            logger.user_data = &log;
            CHECK(gpucompile_lower_kernels(NULL, mod, i < 2 ? gpucompile_vulkan_lower_target() : &none, NULL, &logger, &n) != GPUCOMPILE_OK);
            CHECK_MSG(strstr(log.text, i < 2 ? "not built (of NVVM's warp functions" : "sub-groups: not on this target") != NULL, "%s", log.text);
            LLVMDisposeModule(mod);
        }
        if (msg) LLVMDisposeMessage(msg);
        LLVMContextDispose(ctx);
    }
}

/* CUDA's dynamic shared memory: an extern __shared__ array (clang's `external addrspace(3)
   global [0 x float]`), sized by each launch's sharedMemBytes, and blockDim from the launch. Each
   block reverses its slice of the input through the shared array. */
static const char cuda_shared[] =
    "target triple = \"spirv64\"\n"
    "@smem = external addrspace(3) global [0 x float], align 4\n"
    "declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
    "declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()\n"
    "declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()\n"
    "declare void @llvm.nvvm.barrier0()\n"
    "define ptx_kernel void @reverse(ptr addrspace(1) %in, ptr addrspace(1) %out) {\n"
    "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
    "  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()\n"
    "  %n = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()\n"
    "  %base = mul i32 %b, %n\n"
    "  %g = add i32 %base, %t\n"
    "  %pi = getelementptr float, ptr addrspace(1) %in, i32 %g\n"
    "  %v = load float, ptr addrspace(1) %pi\n"
    "  %ps = getelementptr [0 x float], ptr addrspace(3) @smem, i32 0, i32 %t\n"
    "  store float %v, ptr addrspace(3) %ps\n"
    "  call void @llvm.nvvm.barrier0()\n"
    "  %last = sub i32 %n, 1\n"
    "  %r = sub i32 %last, %t\n"
    "  %pr = getelementptr [0 x float], ptr addrspace(3) @smem, i32 0, i32 %r\n"
    "  %w = load float, ptr addrspace(3) %pr\n"
    "  %po = getelementptr float, ptr addrspace(1) %out, i32 %g\n"
    "  store float %w, ptr addrspace(1) %po\n"
    "  ret void\n"
    "}\n";

static void test_cuda_dynamic_shared(void) {
    static const int blocks[] = {32, 256, 8};
    gpucompile_buf m;
    t_log log;
    int n = 0, count = 1024, i, b, before = t_runtime_errors;
    float *in, *out;
    void *fmod = NULL, *args[2];
    gpucompile_vulkan_kernel k[2];
    if (!have_tools) SKIP("no LLVM SPIR-V target");
    memset(&m, 0, sizeof m);
    memset(&log, 0, sizeof log);
    CHECK_MSG(compile_ir(cuda_shared, strlen(cuda_shared), &m, &log, &n, NULL), "%s", log.text);
    CHECK(gpucompile_vulkan_reflect(m.data, m.len, k, 2) == 1);
    CHECK(sizes_at_launch(&k[0]) == 4 && k[0].launch[3].kind == GPUCOMPILE_VULKAN_LAUNCH_SHARED && k[0].launch[3].arg == 4);
    if (!have_device || !m.len) {
        free(m.data);
        if (!have_device) SKIP("no Vulkan device");
        return;
    }
    CHECK((fmod = mgpuModuleLoad(m.data, m.len)) != NULL);
    in = (float *)alloc((size_t)count * 4);
    out = (float *)alloc((size_t)count * 4);
    for (i = 0; i < count; i++) in[i] = (float)i;
    args[0] = &in; args[1] = &out;
    for (b = 0; b < 3 && fmod; b++) {
        int bad = 0, bs = blocks[b];
        memset(out, 0, (size_t)count * 4);
        mgpuLaunchKernel(mgpuModuleGetFunction(fmod, "reverse"), count / bs, 1, 1, bs, 1, 1, bs * 4, NULL, args, NULL, 2);
        for (i = 0; i < count; i++) bad += out[i] != in[(i / bs) * bs + bs - 1 - i % bs];
        CHECK_MSG(bad == 0, "blocks of %d: %d wrong; out[0] = %g", bs, bad, (double)out[0]);
    }
    CHECK(t_runtime_errors == before);
    if (fmod) mgpuModuleUnload(fmod);
    mgpuMemFree(in, NULL);
    mgpuMemFree(out, NULL);
    free(m.data);
}

/* The sizes compiled in, as gpucompile_lower_options asks (the backend's workgroup_size and
   local_memory flags): the launch must match them, as before sizes could be set at launch. */
static void test_sizes_compiled_in(void) {
    char cmd[1024], path[512];
    size_t size;
    char *ir;
    gpucompile_buf m;
    gpucompile_lower_options o;
    gpucompile_vulkan_kernel k[16];
    t_log log;
    int n = 0, before = t_runtime_errors, i;
    void *fmod = NULL;
    if (!have_tools) SKIP("no clang / spirv-val");
    snprintf(path, sizeof path, "%s/pk.ll", dir);
    if (!(ir = (char *)t_read(path, &size))) {
        CHECK(0);
        return;
    }
    memset(&m, 0, sizeof m);
    memset(&log, 0, sizeof log);
    memset(&o, 0, sizeof o);
    o.local_size[0] = 64;
    o.local_size[1] = o.local_size[2] = 1;
    o.local_bytes = 4096;
    CHECK_MSG(compile_ir(ir, size, &m, &log, &n, &o), "%s", log.text);
    free(ir);
    CHECK(gpucompile_vulkan_reflect(m.data, m.len, k, 16) == 9);
    for (i = 0; i < 9; i++) CHECK_MSG(sizes_at_launch(&k[i]) == 0, "%s: %d sizes set at launch", k[i].name, sizes_at_launch(&k[i]));
    CHECK(k[7].params[2].kind == GPUCOMPILE_VULKAN_PARAM_LOCAL && k[7].params[2].value == 4096 && k[7].local_size[0] == 64);
    snprintf(path, sizeof path, "%s/pk_fixed.spv", dir);
    CHECK(t_save(dir, "pk_fixed.spv", m.data, m.len, path, sizeof path));
    snprintf(cmd, sizeof cmd, "spirv-val --target-env vulkan1.3 '%s'", path);
    CHECK(t_sh_ok(cmd));
    if (have_device && m.len && (fmod = mgpuModuleLoad(m.data, m.len)) != NULL) {
        float *in = (float *)alloc(1024 * 4), *out = (float *)alloc(1024 * 4);
        int count = 1024;
        void *scratch = NULL, *args[4];
        args[0] = &in; args[1] = &out; args[2] = &scratch; args[3] = &count;
        for (i = 0; i < count; i++) in[i] = 1.0f;
        mgpuLaunchKernel(mgpuModuleGetFunction(fmod, "sized_reduce"), 16, 1, 1, 64, 1, 1, 256, NULL, args, NULL, 4);
        CHECK(out[0] == 64.0f && out[15] == 64.0f);
        t_runtime_error[0] = 0;
        mgpuLaunchKernel(mgpuModuleGetFunction(fmod, "sized_reduce"), 8, 1, 1, 128, 1, 1, 512, NULL, args, NULL, 4);
        CHECK_MSG(strstr(t_runtime_error, "has workgroup size 64x1x1, compiled in") != NULL, "%s", t_runtime_error);
        t_runtime_error[0] = 0;
        mgpuLaunchKernel(mgpuModuleGetFunction(fmod, "sized_reduce"), 16, 1, 1, 64, 1, 1, 8192, NULL, args, NULL, 4);
        CHECK_MSG(strstr(t_runtime_error, "compiled with 4096") != NULL, "%s", t_runtime_error);
        CHECK(t_runtime_errors == before + 2);
        t_runtime_errors = before; /* the two refusals asked for */
        mgpuModuleUnload(fmod);
        mgpuMemFree(in, NULL);
        mgpuMemFree(out, NULL);
    }
    free(m.data);
}

static void test_cuda_style_ir(void) {
    gpucompile_buf m;
    t_log log;
    int n = 0, count = 300, i, bad = 0, before = t_runtime_errors;
    float *in, *out;
    void *fmod = NULL, *args[3];
    gpucompile_vulkan_kernel k[2];
    if (!have_tools) SKIP("no LLVM SPIR-V target");
    memset(&m, 0, sizeof m);
    memset(&log, 0, sizeof log);
    CHECK_MSG(compile_ir(cuda_style, strlen(cuda_style), &m, &log, &n, NULL), "%s", log.text);
    CHECK(n == 1);
    CHECK(gpucompile_vulkan_reflect(m.data, m.len, k, 2) == 1);
    CHECK(k[0].num_params == 3 && k[0].params[0].kind == GPUCOMPILE_VULKAN_PARAM_BINDING && k[0].params[2].kind == GPUCOMPILE_VULKAN_PARAM_PUSH);
    if (have_device && m.len) {
        char path[512], cmd[1024];
        snprintf(path, sizeof path, "%s/walk.spv", dir);
        CHECK(t_save(dir, "walk.spv", m.data, m.len, path, sizeof path));
        snprintf(cmd, sizeof cmd, "spirv-val --target-env vulkan1.3 '%s'", path);
        CHECK(t_sh_ok(cmd));
        CHECK((fmod = mgpuModuleLoad(m.data, m.len)) != NULL);
        in = (float *)alloc((size_t)count * 16);
        out = (float *)alloc((size_t)count * 4);
        for (i = 0; i < 4 * count; i++) in[i] = (float)(i % 13);
        args[0] = &in; args[1] = &out; args[2] = &count;
        if (fmod) mgpuLaunchKernel(mgpuModuleGetFunction(fmod, "walk"), (count + 63) / 64, 1, 1, 64, 1, 1, 0, NULL, args, NULL, 3);
        for (i = 0; i < count; i++)
            bad += out[i] != in[4 * i] + in[4 * i + 1] + in[4 * i + 2] + in[4 * i + 3];
        CHECK_MSG(bad == 0, "%d wrong; out[1] = %g", bad, (double)out[1]);
        CHECK(t_runtime_errors == before);
        mgpuMemFree(in, NULL);
        mgpuMemFree(out, NULL);
        if (fmod) mgpuModuleUnload(fmod);
    }
    free(m.data);
}

/* OpenCL 2.0's generic address space: a generic pointer cast from a buffer parameter is that
   buffer (its getelementptrs and accesses rewritten as the parameter's). */
/* IR text compiled (the errors a failed check) and loaded on the device: NULL without a device,
   a module or a load; *m holds the words (free m->data). */
static void *compile_load(const char *ir, gpucompile_buf *m) {
    t_log log;
    int n = 0;
    void *fmod = NULL;
    memset(m, 0, sizeof *m);
    memset(&log, 0, sizeof log);
    CHECK_MSG(compile_ir(ir, strlen(ir), m, &log, &n, NULL), "%s", log.text);
    if (have_device && m->len) CHECK((fmod = mgpuModuleLoad(m->data, m->len)) != NULL);
    return fmod;
}

static void test_generic_pointer(void) {
    static const char ir[] =
        "target triple = \"spirv64\"\n"
        "declare spir_func i64 @_Z13get_global_idj(i32)\n"
        "define spir_kernel void @g(ptr addrspace(1) %p, i32 %k) {\n"
        "  %gp = addrspacecast ptr addrspace(1) %p to ptr addrspace(4)\n"
        "  %id = call spir_func i64 @_Z13get_global_idj(i32 0)\n"
        "  %e = getelementptr i32, ptr addrspace(4) %gp, i64 %id\n"
        "  %t = trunc i64 %id to i32\n"
        "  %v = mul i32 %t, %k\n"
        "  store i32 %v, ptr addrspace(4) %e\n"
        "  ret void\n"
        "}\n";
    gpucompile_buf m;
    int count = 128, k = 3, i, bad = 0, *out;
    void *fmod, *args[2];
    if (!have_tools) SKIP("no LLVM SPIR-V target");
    if (!(fmod = compile_load(ir, &m))) {
        free(m.data);
        return;
    }
    out = (int *)alloc((size_t)count * 4);
    args[0] = &out; args[1] = &k;
    mgpuLaunchKernel(mgpuModuleGetFunction(fmod, "g"), count / 64, 1, 1, 64, 1, 1, 0, NULL, args, NULL, 2);
    for (i = 0; i < count; i++) bad += out[i] != 3 * i;
    CHECK_MSG(bad == 0, "%d wrong", bad);
    mgpuMemFree(out, NULL);
    mgpuModuleUnload(fmod);
    free(m.data);
}

/* Intrinsics the optimizer writes (a counting loop's llvm.cttz, a compare and select's
   llvm.uadd.sat, instcombine's llvm.abs of an i1 and llvm.fshl of a rotate's shifts after the
   wide vectors are split) that LLVM 22's
   SPIR-V code generator does not select for a shader: written as plain IR by the lowering, and
   right on the device. */
static void test_expand(void) {
    static const char ir[] =
        "target triple = \"spirv64\"\n"
        "declare spir_func i64 @_Z13get_global_idj(i32)\n"
        "declare i32 @llvm.cttz.i32(i32, i1)\n"
        "declare i32 @llvm.ctlz.i32(i32, i1)\n"
        "declare i64 @llvm.uadd.sat.i64(i64, i64)\n"
        "declare i32 @llvm.ssub.sat.i32(i32, i32)\n"
        "declare i16 @llvm.abs.i16(i16, i1)\n"
        "declare float @llvm.copysign.f32(float, float)\n"
        "declare i32 @llvm.fshl.i32(i32, i32, i32)\n"
        "declare i32 @llvm.fshr.i32(i32, i32, i32)\n"
        "declare i32 @llvm.bswap.i32(i32)\n"
        "define spir_kernel void @x(ptr addrspace(1) %a, ptr addrspace(1) %o) {\n"
        "  %id = call spir_func i64 @_Z13get_global_idj(i32 0)\n"
        "  %pa = getelementptr i32, ptr addrspace(1) %a, i64 %id\n"
        "  %v = load i32, ptr addrspace(1) %pa\n"
        "  %base = mul i64 %id, 9\n"
        "  %tz = call i32 @llvm.cttz.i32(i32 %v, i1 false)\n"
        "  %lz = call i32 @llvm.ctlz.i32(i32 %v, i1 false)\n"
        "  %w = zext i32 %v to i64\n"
        "  %big = shl i64 %w, 32\n"
        "  %sat = call i64 @llvm.uadd.sat.i64(i64 %big, i64 %big)\n"
        "  %sath = lshr i64 %sat, 32\n"
        "  %sat32 = trunc i64 %sath to i32\n"
        "  %ss = call i32 @llvm.ssub.sat.i32(i32 %v, i32 2147483647)\n"
        "  %h = trunc i32 %v to i16\n"
        "  %ab = call i16 @llvm.abs.i16(i16 %h, i1 false)\n"
        "  %ab32 = zext i16 %ab to i32\n"
        "  %f = uitofp i32 %v to float\n"
        "  %neg = sub i32 0, %v\n"
        "  %s = sitofp i32 %neg to float\n"
        "  %cs = call float @llvm.copysign.f32(float %f, float %s)\n"
        "  %csi = bitcast float %cs to i32\n"
        "  %p0 = getelementptr i32, ptr addrspace(1) %o, i64 %base\n"
        "  store i32 %tz, ptr addrspace(1) %p0\n"
        "  %b1 = add i64 %base, 1\n  %p1 = getelementptr i32, ptr addrspace(1) %o, i64 %b1\n  store i32 %lz, ptr addrspace(1) %p1\n"
        "  %b2 = add i64 %base, 2\n  %p2 = getelementptr i32, ptr addrspace(1) %o, i64 %b2\n  store i32 %sat32, ptr addrspace(1) %p2\n"
        "  %b3 = add i64 %base, 3\n  %p3 = getelementptr i32, ptr addrspace(1) %o, i64 %b3\n  store i32 %ss, ptr addrspace(1) %p3\n"
        "  %b4 = add i64 %base, 4\n  %p4 = getelementptr i32, ptr addrspace(1) %o, i64 %b4\n  store i32 %ab32, ptr addrspace(1) %p4\n"
        "  %b5 = add i64 %base, 5\n  %p5 = getelementptr i32, ptr addrspace(1) %o, i64 %b5\n  store i32 %csi, ptr addrspace(1) %p5\n"
        "  %rot = call i32 @llvm.fshl.i32(i32 %v, i32 %ss, i32 %v)\n"
        "  %b6 = add i64 %base, 6\n  %p6 = getelementptr i32, ptr addrspace(1) %o, i64 %b6\n  store i32 %rot, ptr addrspace(1) %p6\n"
        "  %ror = call i32 @llvm.fshr.i32(i32 %v, i32 %ss, i32 %tz)\n"
        "  %b7 = add i64 %base, 7\n  %p7 = getelementptr i32, ptr addrspace(1) %o, i64 %b7\n  store i32 %ror, ptr addrspace(1) %p7\n"
        "  %bs = call i32 @llvm.bswap.i32(i32 %v)\n"
        "  %b8 = add i64 %base, 8\n  %p8 = getelementptr i32, ptr addrspace(1) %o, i64 %b8\n  store i32 %bs, ptr addrspace(1) %p8\n"
        "  ret void\n"
        "}\n";
    gpucompile_buf m;
    int count = 256, i, k, bad = 0, first = -1;
    unsigned *a, *out;
    void *fmod, *args[2];
    if (!have_tools) SKIP("no LLVM SPIR-V target");
    if (!(fmod = compile_load(ir, &m))) {
        free(m.data);
        return;
    }
    a = (unsigned *)alloc((size_t)count * 4);
    out = (unsigned *)alloc((size_t)count * 36);
    for (i = 0; i < count; i++) a[i] = i == 0 ? 0 : i == 1 ? 0x80000000u : i == 2 ? 0xffffffffu : (unsigned)i * 2654435761u >> (i % 29);
    args[0] = &a;
    args[1] = &out;
    mgpuLaunchKernel(mgpuModuleGetFunction(fmod, "x"), count / 64, 1, 1, 64, 1, 1, 0, NULL, args, NULL, 2);
    for (i = 0; i < count; i++) {
        unsigned v = a[i], want[9], tz = 0, lz = 0, sh;
        long long d = (long long)(int)v - 2147483647LL;
        short h = (short)v;
        float f = (float)v, c;
        while (tz < 32 && !(v >> tz & 1)) tz++;
        while (lz < 32 && !(v << lz & 0x80000000u)) lz++;
        c = (int)(0u - v) < 0 ? -f : f;
        want[0] = tz;
        want[1] = lz;
        want[2] = v >= 0x80000000u ? 0xffffffffu : v * 2; /* (v << 32) * 2 saturated, its high half */
        want[3] = (unsigned)(d < -2147483648LL ? -2147483648LL : d);
        want[4] = (unsigned)(unsigned short)(h < 0 ? -h : h);
        memcpy(&want[5], &c, 4);
        sh = v & 31; /* fshl(v, ss, v), fshr(v, ss, tz): the count modulo 32 */
        want[6] = sh ? v << sh | want[3] >> (32 - sh) : v;
        sh = tz & 31;
        want[7] = sh ? want[3] >> sh | v << (32 - sh) : want[3];
        want[8] = v >> 24 | (v >> 8 & 0xff00u) | (v << 8 & 0xff0000u) | v << 24;
        for (k = 0; k < 9; k++)
            if (out[9 * i + k] != want[k] && first < 0) first = 9 * i + k;
        bad += memcmp(&out[9 * i], want, sizeof want) != 0;
    }
    CHECK_MSG(bad == 0, "%d wrong; first: a[%d] = 0x%x, result %d: 0x%x", bad, first / 9, first >= 0 ? a[first / 9] : 0, first % 9, first >= 0 ? out[first] : 0);
    mgpuMemFree(a, NULL);
    mgpuMemFree(out, NULL);
    mgpuModuleUnload(fmod);
    free(m.data);
}

/* tests/run/kernels.cl (the kernels tests/run/run.c also runs on OpenCL, on Intel's CPU runtime)
   with the bitcode library of its -l kernel: every kernel compiles for Vulkan, passes spirv-val,
   and gives the answers computed here (each kernel's reqd_work_group_size; grid, which has none,
   with the option's 128); reduce's local parameter is an array of the default size, and a launch
   that asks for more is refused. */
static void test_run_kernels(void) {
    char cmd[2048], ll[512], linked[512], path[512];
    char *ir;
    size_t size;
    gpucompile_buf m;
    gpucompile_lower_options o;
    gpucompile_vulkan_kernel k[8];
    t_log log;
    int n = 0, count = 1000, groups = 8, i, bad, before = t_runtime_errors;
    void *fmod = NULL, *args[4], *scratch = NULL;
    if (!have_tools) SKIP("no clang / LLVM SPIR-V target");
    snprintf(ll, sizeof ll, "%s/run_kernels.ll", dir);
    snprintf(linked, sizeof linked, "%s/run_kernels_linked.ll", dir);
    snprintf(cmd, sizeof cmd, "clang -cl-std=CL2.0 -target spirv64 -O2 -emit-llvm -S tests/run/kernels.cl -o '%s' && "
             "llvm-link -S '%s' tests/data/mylib.ll -o '%s' 2>/dev/null", ll, ll, linked);
    CHECK(t_sh_ok(cmd));
    if (!(ir = (char *)t_read(linked, &size))) return;
    memset(&m, 0, sizeof m);
    memset(&log, 0, sizeof log);
    memset(&o, 0, sizeof o);
    o.local_size[0] = 128;
    CHECK_MSG(compile_ir(ir, size, &m, &log, &n, &o), "%s", log.text);
    free(ir);
    CHECK(n == 6);
    CHECK(gpucompile_vulkan_reflect(m.data, m.len, k, 8) == 6);
    CHECK_STR(k[0].name, "reduce");
    /* the local parameter: the launch's sharedMemBytes, the length of an array of floats (SpecId 3, default 1) */
    CHECK(k[0].num_params == 4 && k[0].params[2].kind == GPUCOMPILE_VULKAN_PARAM_LOCAL && k[0].params[2].value == 0);
    CHECK(sizes_at_launch(&k[0]) == 1 && k[0].launch[0].kind == GPUCOMPILE_VULKAN_LAUNCH_SHARED && k[0].launch[0].spec_id == 3 &&
          k[0].launch[0].arg == 4 && k[0].launch[0].value == 1 && k[0].workgroup_bytes == 4);
    CHECK(k[0].local_size[0] == 128);
    CHECK(!has_capability(&m, 11)); /* no Int64: size_t's index arithmetic and loop counters in 32 bits */
    snprintf(path, sizeof path, "%s/run_kernels.spv", dir);
    CHECK(t_save(dir, "run_kernels.spv", m.data, m.len, path, sizeof path));
    snprintf(cmd, sizeof cmd, "spirv-val --target-env vulkan1.3 '%s'", path);
    if (!m.len || !t_sh_ok(cmd)) {
        CHECK(0);
        free(m.data);
        return;
    }
    if (!have_device) {
        free(m.data);
        SKIP("no Vulkan device");
    }
    CHECK((fmod = mgpuModuleLoad(m.data, m.len)) != NULL);
    if (fmod) { /* reduce: local memory from the launch */
        float *in = (float *)alloc((size_t)count * 4), *out = (float *)alloc((size_t)groups * 4);
        for (i = 0; i < count; i++) in[i] = (float)(i % 7);
        args[0] = &in; args[1] = &out; args[2] = &scratch; args[3] = &count;
        mgpuLaunchKernel(mgpuModuleGetFunction(fmod, "reduce"), groups, 1, 1, 128, 1, 1, 128 * 4, NULL, args, NULL, 4);
        for (bad = 0, i = 0; i < groups; i++) {
            float want = 0;
            int j;
            for (j = i * 128; j < (i + 1) * 128 && j < count; j++) want += (float)(j % 7);
            bad += out[i] != want;
        }
        CHECK_MSG(bad == 0, "reduce: %d groups wrong", bad);
        t_runtime_error[0] = 0;
        out[0] = out[7] = -1.0f;
        mgpuLaunchKernel(mgpuModuleGetFunction(fmod, "reduce"), groups, 1, 1, 128, 1, 1, 8192, NULL, args, NULL, 4); /* more than it needs: fine */
        CHECK_MSG(out[0] == 379.0f && out[7] != -1.0f, "%g", (double)out[0]); /* the sum of i %% 7 below 128 */
        mgpuLaunchKernel(mgpuModuleGetFunction(fmod, "reduce"), groups, 1, 1, 128, 1, 1, 1 << 24, NULL, args, NULL, 4); /* more than any device has */
        CHECK_MSG(strstr(t_runtime_error, "above the device's maxComputeSharedMemorySize") != NULL, "%s", t_runtime_error);
        memset(out, 0, (size_t)groups * 4);
        mgpuLaunchKernel(mgpuModuleGetFunction(fmod, "reduce_static"), groups, 1, 1, 128, 1, 1, 0, NULL, args, NULL, 4);
        for (bad = 0, i = 0; i < groups; i++) {
            float want = 0;
            int j;
            for (j = i * 128; j < (i + 1) * 128 && j < count; j++) want += (float)(j % 7);
            bad += out[i] != want;
        }
        CHECK_MSG(bad == 0, "reduce_static: %d groups wrong", bad);
        mgpuMemFree(in, NULL);
        mgpuMemFree(out, NULL);
    }
    if (fmod) { /* histogram: atomics */
        unsigned *in = (unsigned *)alloc((size_t)count * 4), *bins = (unsigned *)alloc(17 * 4), *total = (unsigned *)alloc(4), want[16];
        unsigned sum = 0, max = 0;
        memset(want, 0, sizeof want);
        for (i = 0; i < count; i++) {
            in[i] = (unsigned)(i * 31 + 5);
            want[in[i] % 16]++;
            sum += in[i];
            if (in[i] > max) max = in[i];
        }
        args[0] = &in; args[1] = &bins; args[2] = &total; args[3] = &count;
        mgpuLaunchKernel(mgpuModuleGetFunction(fmod, "histogram"), (count + 63) / 64, 1, 1, 64, 1, 1, 0, NULL, args, NULL, 4);
        for (bad = 0, i = 0; i < 16; i++) bad += bins[i] != want[i];
        CHECK_MSG(bad == 0 && *total == sum, "histogram: %d bins wrong, total %u want %u", bad, *total, sum);
        CHECK_MSG(bins[16] == max, "histogram: max %u, want %u", bins[16], max);
        mgpuMemFree(in, NULL);
        mgpuMemFree(bins, NULL);
        mgpuMemFree(total, NULL);
    }
    if (fmod) { /* grid: 2 x 3 x 2 groups of 128 */
        int gx = 2, gy = 3, gz = 2, nx = gx * 128, x, y, z, *out = (int *)alloc((size_t)(nx * gy * gz) * 8);
        args[0] = &out;
        mgpuLaunchKernel(mgpuModuleGetFunction(fmod, "grid"), gx, gy, gz, 128, 1, 1, 0, NULL, args, NULL, 1);
        for (bad = 0, z = 0; z < gz; z++)
            for (y = 0; y < gy; y++)
                for (x = 0; x < nx; x++) {
                    int at = (z * gy + y) * nx + x;
                    bad += out[2 * at] != x + 100 * y + 10000 * z;
                    bad += out[2 * at + 1] != x / 128 + 100 * y + 10000 * z + 1000000 * 128;
                }
        CHECK_MSG(bad == 0, "grid: %d wrong", bad);
        mgpuMemFree(out, NULL);
    }
    if (fmod) { /* math and uses_lib */
        int cnt = 200;
        float *x = (float *)alloc((size_t)cnt * 4), *out = (float *)alloc((size_t)cnt * 28);
        for (i = 0; i < cnt; i++) x[i] = 0.02f * (float)(i + 1);
        args[0] = &x; args[1] = &out; args[2] = &cnt;
        mgpuLaunchKernel(mgpuModuleGetFunction(fmod, "math"), (cnt + 255) / 256, 1, 1, 256, 1, 1, 0, NULL, args, NULL, 3);
        for (bad = 0, i = 0; i < cnt; i++) {
            double v = x[i], s = out[7 * i], c = out[7 * i + 1];
            bad += t_abs(s - t_sin(v)) > 1e-3 || t_abs(s * s + c * c - 1) > 1e-3;
            bad += t_abs(out[7 * i + 2] - t_exp(v)) > 1e-3 * t_exp(v);
            bad += t_abs(t_exp(out[7 * i + 3]) - v) > 1e-3 * v; /* log */
            bad += t_abs((double)out[7 * i + 4] * out[7 * i + 4] - v) > 1e-3 * v;
            bad += t_abs((double)out[7 * i + 5] * out[7 * i + 5] - v * v * v) > 1e-2 * v * v * v; /* pow(v, 1.5) */
            bad += out[7 * i + 6] != (float)(v > 2.0 ? v : 2.0); /* fmax(v, 2) */
        }
        CHECK_MSG(bad == 0, "math: %d wrong", bad);
        args[0] = &x; args[1] = &cnt;
        for (i = 0; i < cnt; i++) x[i] = (float)i;
        mgpuLaunchKernel(mgpuModuleGetFunction(fmod, "uses_lib"), (cnt + 63) / 64, 1, 1, 64, 1, 1, 0, NULL, args, NULL, 2);
        for (bad = 0, i = 0; i < cnt; i++) bad += x[i] != 3.0f * (float)i;
        CHECK_MSG(bad == 0, "uses_lib: %d wrong", bad);
        mgpuMemFree(x, NULL);
        mgpuMemFree(out, NULL);
    }
    CHECK(t_runtime_errors == before + (fmod != NULL)); /* the one refusal asked for */
    if (fmod) mgpuModuleUnload(fmod);
    free(m.data);
}

/* The backend's path: tests/run/kernels.cl from clang at -O0 (as tests/run/run.sh compiles it),
   helpers inlined, optimized at -O2 for the Vulkan target, lowered: every kernel compiles and
   passes spirv-val, and reduce gives its answers. */
static void test_from_O0(void) {
    char cmd[2048], ll[512], path[512];
    char *ir;
    size_t size;
    gpucompile_buf m;
    gpucompile_lower_options o;
    t_log log;
    int n = 0, count = 1000, groups = 8, i, bad = 0;
    void *fmod, *args[4], *scratch = NULL;
    float *in, *out;
    if (!have_tools) SKIP("no clang / LLVM SPIR-V target");
    snprintf(ll, sizeof ll, "%s/o0.ll", dir);
    snprintf(cmd, sizeof cmd, "clang -x cl -cl-std=CL3.0 --target=spirv64 -Xclang -finclude-default-header -Xclang -disable-O0-optnone -O0 "
             "-emit-llvm -S tests/run/kernels.cl -o '%s.0' && llvm-link -S '%s.0' tests/data/mylib.ll -o '%s' 2>/dev/null", ll, ll, ll);
    CHECK(t_sh_ok(cmd));
    if (!(ir = (char *)t_read(ll, &size))) return;
    memset(&m, 0, sizeof m);
    memset(&log, 0, sizeof log);
    memset(&o, 0, sizeof o);
    o.local_size[0] = 128;
    CHECK_MSG(compile_ir_opt(ir, size, &m, &log, &n, &o, 1), "%s", log.text);
    free(ir);
    CHECK(n == 6);
    snprintf(path, sizeof path, "%s/o0.spv", dir);
    CHECK(m.len && t_save(dir, "o0.spv", m.data, m.len, path, sizeof path));
    snprintf(cmd, sizeof cmd, "spirv-val --target-env vulkan1.3 '%s'", path);
    CHECK(m.len && t_sh_ok(cmd));
    if (!have_device || !m.len) {
        free(m.data);
        return;
    }
    CHECK((fmod = mgpuModuleLoad(m.data, m.len)) != NULL);
    in = (float *)alloc((size_t)count * 4);
    out = (float *)alloc((size_t)groups * 4);
    for (i = 0; i < count; i++) in[i] = (float)(i % 7);
    args[0] = &in; args[1] = &out; args[2] = &scratch; args[3] = &count;
    if (fmod) mgpuLaunchKernel(mgpuModuleGetFunction(fmod, "reduce"), groups, 1, 1, 128, 1, 1, 512, NULL, args, NULL, 4);
    for (i = 0; i < groups; i++) {
        float want = 0;
        int j;
        for (j = i * 128; j < (i + 1) * 128 && j < count; j++) want += (float)(j % 7);
        bad += out[i] != want;
    }
    CHECK_MSG(bad == 0, "reduce: %d groups wrong", bad);
    mgpuMemFree(in, NULL);
    mgpuMemFree(out, NULL);
    if (fmod) mgpuModuleUnload(fmod);
    free(m.data);
}

/* What cannot be expressed: refused before code generation, naming the function and the
   instruction. */
static void refused(const char *ir, const char *function, const char *why) {
    gpucompile_buf out;
    t_log log;
    int n = 0;
    char want[256];
    memset(&out, 0, sizeof out);
    memset(&log, 0, sizeof log);
    CHECK_MSG(!compile_ir(ir, strlen(ir), &out, &log, &n, NULL), "%s was not refused", function);
    if (strchr(function, '\'')) snprintf(want, sizeof want, "%s", function); /* "global 'g'" */
    else snprintf(want, sizeof want, "function '%s'", function);
    CHECK_MSG(strstr(log.text, want) && strstr(log.text, why), "want %s / %s in: %s", want, why, log.text);
    free(out.data);
}

#define T_HEAD "target triple = \"spirv64\"\n"
static void test_refusals(void) {
    /* no module, no target: an error, nothing else (the old name is the Vulkan target's call) */
    CHECK(gpucompile_lower_kernels(NULL, NULL, gpucompile_vulkan_lower_target(), NULL, NULL, NULL) == GPUCOMPILE_ERROR_INVALID_ARGUMENT);
    CHECK(gpucompile_vulkan_lower_kernels(NULL, NULL, NULL, NULL, NULL) == GPUCOMPILE_ERROR_INVALID_ARGUMENT);
    if (!gpucompile_vulkan_available()) SKIP("this LLVM has no SPIR-V target");
    refused(T_HEAD "define spir_kernel void @k(ptr addrspace(1) %p, ptr addrspace(1) %q) {\n"
                   "  store ptr addrspace(1) %q, ptr addrspace(1) %p\n  ret void\n}\n",
            "k", "a pointer stored to memory");
    refused(T_HEAD "define spir_kernel void @k(ptr addrspace(1) %p) {\n"
                   "  %q = load ptr addrspace(1), ptr addrspace(1) %p\n  store i32 1, ptr addrspace(1) %q\n  ret void\n}\n",
            "k", "a pointer loaded from memory");
    refused(T_HEAD "define spir_kernel void @k(ptr addrspace(1) %p) {\n"
                   "  %a = load i16, ptr addrspace(1) %p\n  %g = getelementptr i8, ptr addrspace(1) %p, i64 4\n"
                   "  %r = atomicrmw add ptr addrspace(1) %g, i32 1 seq_cst\n  ret void\n}\n",
            "k", "an atomic access of another type");
    refused(T_HEAD "define spir_kernel void @k(ptr addrspace(1) %p) {\n"
                   "  %a = load <3 x i8>, ptr addrspace(1) %p\n  %g = getelementptr i8, ptr addrspace(1) %p, i64 4\n"
                   "  store i16 1, ptr addrspace(1) %g\n  ret void\n}\n",
            "k", "not a whole number of the buffer's narrowest element");
    refused(T_HEAD "define spir_kernel void @k(ptr addrspace(1) %p, i64 %o) {\n"
                   "  %g = getelementptr i8, ptr addrspace(1) %p, i64 %o\n"
                   "  store i32 1, ptr addrspace(1) %g\n  ret void\n}\n",
            "k", "not a whole number of elements");
    refused(T_HEAD "define spir_kernel void @k(ptr addrspace(4) %p) {\n"
                   "  store i32 1, ptr addrspace(4) %p\n  ret void\n}\n",
            "k", "generic memory");
    refused(T_HEAD "@g = addrspace(1) global i32 0\n"
                   "define spir_kernel void @k(i32 %x) {\n  store i32 %x, ptr addrspace(1) @g\n  ret void\n}\n",
            "global 'g'", "a variable in global memory");
    refused(T_HEAD "define spir_kernel void @k(ptr addrspace(1) %p) {\n  fence syncscope(\"workgroup\") acq_rel\n"
                   "  store i32 1, ptr addrspace(1) %p\n  ret void\n}\n",
            "k", "a fence");
    refused(T_HEAD "define spir_kernel void @k(ptr addrspace(1) %p, ptr addrspace(1) %q) {\n"
                   "  %c = icmp ult ptr addrspace(1) %p, %q\n  %v = zext i1 %c to i32\n  store i32 %v, ptr addrspace(1) %q\n  ret void\n}\n",
            "k", "pointers compared");
    refused(T_HEAD "define spir_kernel void @k(ptr addrspace(1) %p) {\n"
                   "  %a = ptrtoint ptr addrspace(1) %p to i64\n  %v = trunc i64 %a to i32\n  store i32 %v, ptr addrspace(1) %p\n  ret void\n}\n",
            "k", "a pointer made an integer: a Vulkan shader's memory has no addresses");
    refused(T_HEAD "define spir_kernel void @k(ptr addrspace(1) %p) {\n"
                   "  %c = icmp eq ptr addrspace(1) %p, addrspacecast (ptr addrspace(4) null to ptr addrspace(1))\n"
                   "  %v = zext i1 %c to i32\n  store i32 %v, ptr addrspace(1) %p\n  ret void\n}\n",
            "k", "a pointer compared with NULL (a Vulkan binding always holds a buffer");
    refused(T_HEAD "@f = internal global i32 0\n"
                   "define spir_func void @h(i32 %x) {\n  ret void\n}\n"
                   "define spir_kernel void @k(ptr addrspace(1) %p) {\n  %f = select i1 true, ptr @h, ptr @h\n"
                   "  call void %f(i32 1)\n  ret void\n}\n",
            "k", "function");
    refused(T_HEAD "define spir_func void @r(i32 %x) {\n  call spir_func void @r(i32 %x)\n  ret void\n}\n"
                   "define spir_kernel void @k(ptr addrspace(1) %p) {\n  call spir_func void @r(i32 1)\n  ret void\n}\n",
            "r", "recursion");
    refused(T_HEAD "@fmt = private addrspace(2) constant [3 x i8] c\"%d\\00\"\n"
                   "declare spir_func i32 @printf(ptr addrspace(2), ...)\n"
                   "define spir_kernel void @k(i32 %x) {\n  %r = call spir_func i32 (ptr addrspace(2), ...) @printf(ptr addrspace(2) @fmt, i32 %x)\n"
                   "  ret void\n}\n",
            "k", "printf");
    refused(T_HEAD "declare spir_func void @ext(ptr addrspace(1))\n"
                   "define spir_kernel void @k(ptr addrspace(1) %p) {\n  call spir_func void @ext(ptr addrspace(1) %p)\n  ret void\n}\n",
            "k", "a pointer passed to a function the module does not define (C99's `inline` without `static`");
    refused(T_HEAD "define spir_kernel void @k(ptr addrspace(1) %p, ptr addrspace(1) %q, i1 %c) {\n"
                   "  %s = select i1 %c, ptr addrspace(1) %p, ptr addrspace(1) %q\n  store i32 1, ptr addrspace(1) %s\n  ret void\n}\n",
            "k", "two parameters");
}

/* compile_cl for spirv64, the device started first where the tests run alone (T_ONLY). */
static void *load_cl(const char *name, const char *source) {
    gpucompile_buf m;
    void *mod;
    gpucompile_runtime_set_error_callback(t_on_runtime_error, NULL);
    if (!have_device) {
        gpucompile_vulkan_runtime_info ri;
        have_device = gpucompile_vulkan_runtime_info_get(&ri);
    }
    mod = compile_cl(name, "spirv64", source, &m);
    free(m.data);
    return mod;
}

/* What an OpenCL launch gives besides its sizes (gpucompile_vulkan_launch_kernel): the work
   dimension and the global offset, read as specialization constants, the offset added to the
   global id as OpenCL says (and not to the linear id); mgpuLaunchKernel's defaults 3 and 0. */
static void test_work_dim_offset(void) {
    static const char src[] = "kernel void ids(global int *o) {\n"
                              "    size_t i = get_global_linear_id() * 6;\n"
                              "    o[i] = get_work_dim(); o[i + 1] = get_global_offset(0); o[i + 2] = get_global_offset(1);\n"
                              "    o[i + 3] = get_global_offset(2); o[i + 4] = get_global_id(0); o[i + 5] = get_global_id(1);\n}\n";
    gpucompile_vulkan_launch_info info;
    const gpucompile_vulkan_kernel *k;
    uint32_t grid[3] = {2, 3, 1}, block[3] = {4, 1, 1};
    void *mod, *f, *args[1];
    int *o, i, bad = 0, x, y, pass;
    if (!have_tools) SKIP("no clang / spirv-val");
    if (!(mod = load_cl("ids.cl", src))) SKIP("no Vulkan device");
    f = mgpuModuleGetFunction(mod, "ids");
    k = gpucompile_vulkan_function_kernel(f);
    for (i = 0, x = 0; k && i < k->num_launch; i++) /* the work dimension, the offset's three */
        x += k->launch[i].kind == GPUCOMPILE_VULKAN_LAUNCH_WORK_DIM || k->launch[i].kind == GPUCOMPILE_VULKAN_LAUNCH_OFFSET;
    CHECK_MSG(x == 4, "%d launch values", k ? k->num_launch : -1);
    o = (int *)alloc(8 * 3 * 6 * sizeof *o);
    args[0] = &o;
    for (pass = 0; pass < 2; pass++) { /* mgpuLaunchKernel, then 2D with offset 9, 8, 7 (z's is not the launch's: 0) */
        memset(&info, 0, sizeof info);
        info.work_dim = 2;
        info.offset[0] = 9; info.offset[1] = 8; info.offset[2] = 7;
        if (pass == 0) mgpuLaunchKernel(f, 2, 3, 1, 4, 1, 1, 0, NULL, args, NULL, 1);
        else gpucompile_vulkan_launch_kernel(f, &info, grid, block, 0, NULL, args);
        for (y = 0; y < 3; y++)
            for (x = 0; x < 8; x++) {
                const int *r = o + (y * 8 + x) * 6;
                int want[6] = {3, 0, 0, 0, x, y};
                if (pass) want[0] = 2, want[1] = 9, want[2] = 8, want[4] = x + 9, want[5] = y + 8;
                for (i = 0; i < 6; i++) bad += r[i] != want[i];
            }
        CHECK_MSG(bad == 0, "pass %d: %d wrong; item 1: %d %d %d %d %d %d", pass, bad, o[6], o[7], o[8], o[9], o[10], o[11]);
    }
    mgpuMemFree(o, NULL);
    mgpuModuleUnload(mod);
}

/* out[i + 4] with a 32-bit index: the optimizer writes its byte offset as ashr (add (shl i, 32),
   4 << 32), 30 (piglit's local-memory.cl), an index off a constant the lowering reads as i + 4 */
static void test_index_off_constant(void) {
    static const char src[] = "kernel void two(global int *out) {\n"
                              "    local int a[4], b[4];\n    int i = get_local_id(0);\n"
                              "    a[i] = i; b[i] = i * 2;\n    barrier(CLK_LOCAL_MEM_FENCE);\n"
                              "    out[i] = a[3 - i]; out[i + 4] = b[3 - i];\n}\n";
    void *mod, *args[1];
    int *o, i, bad = 0;
    if (!have_tools) SKIP("no clang / spirv-val");
    if (!(mod = load_cl("two.cl", src))) SKIP("no Vulkan device");
    o = (int *)alloc(8 * sizeof *o);
    args[0] = &o;
    mgpuLaunchKernel(mgpuModuleGetFunction(mod, "two"), 1, 1, 1, 4, 1, 1, 0, NULL, args, NULL, 1);
    for (i = 0; i < 4; i++) bad += o[i] != 3 - i || o[i + 4] != 2 * (3 - i);
    CHECK_MSG(bad == 0, "%d wrong: %d %d %d %d %d %d %d %d", bad, o[0], o[1], o[2], o[3], o[4], o[5], o[6], o[7]);
    mgpuMemFree(o, NULL);
    mgpuModuleUnload(mod);
}

/* A float4 buffer also written as ints: the buffer of ints, each float4 access lane by lane (one
   integer of it all would be an i128, on which LLVM 22 stops the process); a float2 buffer read
   and written as float4: each float2's lanes in the float4 (no vector of vectors) */
static void test_float4_over_ints(void) {
    static const char src[] = "kernel void mix(global float4 *p, global const int *q, global float4 *o, global float2 *h) {\n"
                              "    int i = get_global_id(0);\n    ((global int *)p)[i * 8] = q[i];\n"
                              "    p[2 * i + 1] = (float4)(1.0f, 2.0f, (float)i, -0.5f);\n    o[i] = p[2 * i + 1] + (float4)(0.5f);\n"
                              "    h[2 * i] = (float2)(3.0f, (float)i);\n    ((global float4 *)h)[i] += (float4)(1.0f);\n}\n";
    void *mod, *args[4];
    float *p, *o, *h;
    int *q, i, bad = 0, n = 64;
    if (!have_tools) SKIP("no clang / spirv-val");
    if (!(mod = load_cl("mix.cl", src))) SKIP("no Vulkan device");
    p = (float *)alloc((size_t)n * 32);
    q = (int *)alloc((size_t)n * 4);
    o = (float *)alloc((size_t)n * 16);
    h = (float *)alloc((size_t)n * 16);
    for (i = 0; i < n; i++) q[i] = 1000 + i;
    for (i = 0; i < 4 * n; i++) h[i] = 10.0f;
    args[0] = &p; args[1] = &q; args[2] = &o; args[3] = &h;
    mgpuLaunchKernel(mgpuModuleGetFunction(mod, "mix"), 1, 1, 1, 64, 1, 1, 0, NULL, args, NULL, 4);
    for (i = 0; i < n; i++) {
        int bits;
        memcpy(&bits, &p[8 * i], 4);
        bad += bits != 1000 + i || p[8 * i + 4] != 1.0f || p[8 * i + 6] != (float)i || p[8 * i + 7] != -0.5f;
        bad += o[4 * i] != 1.5f || o[4 * i + 1] != 2.5f || o[4 * i + 2] != (float)i + 0.5f || o[4 * i + 3] != 0.0f;
        bad += h[4 * i] != 4.0f || h[4 * i + 1] != (float)i + 1.0f || h[4 * i + 2] != 11.0f || h[4 * i + 3] != 11.0f;
    }
    CHECK_MSG(bad == 0, "%d wrong", bad);
    mgpuMemFree(p, NULL);
    mgpuMemFree(q, NULL);
    mgpuMemFree(o, NULL);
    mgpuMemFree(h, NULL);
    mgpuModuleUnload(mod);
}

/* Constant tables read as another type than their elements' (piglit's program-scope-arrays.cl):
   a table of structs read field by field, one of chars read as ints: private arrays of the type
   read, their values made of the table's bytes */
static void test_table_as_other_type(void) {
    static const char src[] = "constant struct foo { float a; int b; } fs[] = {{31.0f, 41}, {32.0f, 42}, {33.0f, 43}, {34.0f, 44}};\n"
                              "constant uchar cs[8] = {1, 2, 3, 4, 5, 6, 7, 8};\n"
                              "kernel void tables(global float *a, global int *b, global uint *c, global const uchar *in) {\n"
                              "    int i = get_global_id(0);\n    a[i] = fs[in[i]].a;\n    b[i] = fs[in[i]].b;\n"
                              "    c[i] = ((constant uint *)cs)[in[i] & 1];\n}\n";
    void *mod, *args[4];
    float *a;
    int *b, i, bad = 0, n = 64;
    unsigned *c;
    unsigned char *in;
    if (!have_tools) SKIP("no clang / spirv-val");
    if (!(mod = load_cl("tables.cl", src))) SKIP("no Vulkan device");
    a = (float *)alloc((size_t)n * 4);
    b = (int *)alloc((size_t)n * 4);
    c = (unsigned *)alloc((size_t)n * 4);
    in = (unsigned char *)alloc((size_t)n);
    for (i = 0; i < n; i++) in[i] = (unsigned char)(i * 7 % 4);
    args[0] = &a; args[1] = &b; args[2] = &c; args[3] = &in;
    mgpuLaunchKernel(mgpuModuleGetFunction(mod, "tables"), 1, 1, 1, 64, 1, 1, 0, NULL, args, NULL, 4);
    for (i = 0; i < n; i++) bad += a[i] != 31.0f + in[i] || b[i] != 41 + in[i] || c[i] != (in[i] & 1 ? 0x08070605u : 0x04030201u);
    CHECK_MSG(bad == 0, "%d wrong; 0: %g %d 0x%x", bad, (double)a[0], b[0], c[0]);
    mgpuMemFree(a, NULL);
    mgpuMemFree(b, NULL);
    mgpuMemFree(c, NULL);
    mgpuMemFree(in, NULL);
    mgpuModuleUnload(mod);
}

/* A grid above the device's maxComputeWorkGroupCount (65535 on lavapipe) split into dispatches
   (vkCmdDispatchBase): every group and global id once, and get_num_groups the whole launch's. */
static void test_split_grid(void) {
    static const char src[] = "kernel void g(global int *o, global int *n) {\n"
                              "    size_t i = get_global_id(0) + get_global_size(0) * get_global_id(1);\n"
                              "    o[i] = get_group_id(0) + 100000 * get_group_id(1);\n"
                              "    if (i == 0) { n[0] = get_num_groups(0); n[1] = get_num_groups(1); }\n}\n";
    static const unsigned grids[2][2] = {{70000, 1}, {3, 66000}};
    void *mod, *f, *args[2];
    int *o, *n, bad, g, x, y;
    if (!have_tools) SKIP("no clang / spirv-val");
    if (!(mod = load_cl("split.cl", src))) SKIP("no Vulkan device");
    f = mgpuModuleGetFunction(mod, "g");
    o = (int *)alloc(2 * 3 * 66000 * sizeof *o);
    n = (int *)alloc(2 * sizeof *n);
    args[0] = &o;
    args[1] = &n;
    for (g = 0; g < 2; g++) { /* x above the limit, then y; blocks of 2x1 */
        int gx = (int)grids[g][0], gy = (int)grids[g][1];
        t_runtime_error[0] = 0;
        mgpuLaunchKernel(f, gx, gy, 1, 2, 1, 1, 0, NULL, args, NULL, 2);
        CHECK_MSG(!t_runtime_error[0], "%s", t_runtime_error);
        for (bad = 0, y = 0; y < gy; y++)
            for (x = 0; x < 2 * gx; x++) bad += o[y * 2 * gx + x] != x / 2 + 100000 * y;
        CHECK_MSG(bad == 0 && n[0] == gx && n[1] == gy, "grid %dx%d: %d wrong, groups %d %d", gx, gy, bad, n[0], n[1]);
    }
    mgpuMemFree(o, NULL);
    mgpuMemFree(n, NULL);
    mgpuModuleUnload(mod);
}

/* OpenCL C (tests/data/FILE, or source when given) compiled by the backend (gpucompile_compile_ir
   for #gpu.vulkan: its passes for structured control flow and its repairs, which compile_cl's
   steps leave out), spirv-val, loaded: the module or NULL. */
static void *backend_cl(const char *file, const char *source) {
    char cmd[1024], path[512], *ir;
    gpucompile_target *t = NULL;
    gpucompile_object *o = NULL;
    gpucompile_options opt;
    gpucompile_vulkan_runtime_info ri;
    t_log log;
    size_t size;
    void *mod = NULL;
    if (source) CHECK(t_save(dir, file, source, strlen(source), path, sizeof path));
    else snprintf(path, sizeof path, "tests/data/%s", file);
    snprintf(cmd, sizeof cmd, "clang -cl-std=CL1.2 -target spirv64 -O2 -Xclang -finclude-default-header -emit-llvm -S '%s' -o '%s/%s.ll'", path, dir, file);
    if (!t_sh_ok(cmd)) return NULL;
    snprintf(path, sizeof path, "%s/%s.ll", dir, file);
    if (!(ir = (char *)t_read(path, &size))) return NULL;
    memset(&log, 0, sizeof log);
    opt = t_options(&log, GPUCOMPILE_FORMAT_BIN);
    CHECK(gpucompile_target_parse("#gpu.vulkan", (size_t)-1, NULL, NULL, &t) == GPUCOMPILE_OK);
    CHECK_MSG(t && gpucompile_compile_ir(ir, size, file, t, &opt, &o) == GPUCOMPILE_OK && o, "%s: %s", file, log.text);
    free(ir);
    gpucompile_target_free(t);
    if (!o) return NULL;
    CHECK(t_save(dir, "cf.spv", o->data, o->size, path, sizeof path));
    snprintf(cmd, sizeof cmd, "spirv-val --target-env vulkan1.3 '%s'", path);
    CHECK(t_sh_ok(cmd));
    gpucompile_runtime_set_error_callback(t_on_runtime_error, NULL);
    if (!have_device) have_device = gpucompile_vulkan_runtime_info_get(&ri);
    if (have_device) CHECK((mod = mgpuModuleLoad(o->data, o->size)) != NULL);
    gpucompile_object_free(o);
    return mod;
}

/* A switch the optimizer makes a lookup table (a constant array in private memory: hashcat's
   m22000), compiled by the backend and run: the table a private array with its values. */
static void test_switch_table(void) {
    static const char src[] = "kernel void lut(global int *o, global const int *in) {\n    int i = get_global_id(0), v;\n"
                              "    switch (in[i] & 7) {\n    case 0: v = 13; break;\n    case 1: v = 7; break;\n    case 2: v = 99; break;\n"
                              "    case 3: v = -4; break;\n    case 4: v = 1000; break;\n    case 5: v = 5; break;\n    case 6: v = 61; break;\n"
                              "    default: v = 2;\n    }\n    o[i] = v;\n}\n";
    static const int want[8] = {13, 7, 99, -4, 1000, 5, 61, 2};
    void *mod, *args[2];
    int *o, *in, i, bad = 0, n = 64;
    if (!have_tools) SKIP("no clang / spirv-val");
    if (!(mod = backend_cl("lut.cl", src))) SKIP("no Vulkan device");
    o = (int *)alloc((size_t)n * sizeof *o);
    in = (int *)alloc((size_t)n * sizeof *in);
    for (i = 0; i < n; i++) in[i] = i * 5;
    args[0] = &o; args[1] = &in;
    mgpuLaunchKernel(mgpuModuleGetFunction(mod, "lut"), 1, 1, 1, 64, 1, 1, 0, NULL, args, NULL, 2);
    for (i = 0; i < n; i++) bad += o[i] != want[in[i] & 7];
    CHECK_MSG(bad == 0, "%d wrong: %d %d %d", bad, o[0], o[1], o[2]);
    mgpuMemFree(o, NULL);
    mgpuMemFree(in, NULL);
    mgpuModuleUnload(mod);
}

/* Control flow LLVM 22's SPIR-V structurizer wrote wrong or crashed on (tests/data/vulkan_cf_*.cl,
   cli_vulkan.sh validates them all) and a round of a product (its select of opposites rewritten:
   tests/data/vulkan_faceforward.ll) run, each answer the host's. The search of
   vulkan_cf_nested_break.cl leaves two loops by break: lavapipe found nothing before the exits
   were taken from the continue targets (gpucompile_vulkan__fix_latches). */
static void test_structured_cf(void) {
    static const char round_cl[] = "kernel void r(global const float *a, global float *o, float s) {\n"
                                   "    size_t i = get_global_id(0);\n    o[i] = round(a[i] * s);\n}\n";
    enum { G = 64 };
    void *mods[5], *args[3];
    int *a, *out, n = G, c = 0, i, j, s, bad;
    float *x, *y, *v, sc = 2.5f;
    if (!have_tools) SKIP("no clang / spirv-val");
    mods[0] = backend_cl("vulkan_cf_switch.cl", NULL);
    mods[1] = backend_cl("vulkan_cf_return.cl", NULL);
    mods[2] = backend_cl("vulkan_cf_merge.cl", NULL);
    mods[3] = backend_cl("round.cl", round_cl);
    mods[4] = backend_cl("vulkan_cf_nested_break.cl", NULL);
    if (!mods[0] || !mods[1] || !mods[2] || !mods[3] || !mods[4]) {
        for (i = 0; i < 5; i++)
            if (mods[i]) mgpuModuleUnload(mods[i]);
        SKIP("no Vulkan device");
    }
    a = (int *)alloc(G * sizeof *a);
    out = (int *)alloc(G * sizeof *out);
    x = (float *)alloc(G * sizeof *x);
    y = (float *)alloc(2 * G * sizeof *y);
    for (i = 0; i < G; i++) a[i] = (i * 37) % 80 - 8;
    args[0] = &a; args[1] = &out; args[2] = &n;
    mgpuLaunchKernel(mgpuModuleGetFunction(mods[0], "switch_loop"), 1, 1, 1, G, 1, 1, 0, NULL, args, NULL, 3);
    for (s = 0, i = 0; i < n; i++) /* below 2^31 for these values */
        switch (a[i] & 3) {
        case 0: s += 1; break;
        case 1: s *= 2; break;
        case 2: s -= a[i]; break;
        default: s ^= a[i];
        }
    for (bad = 0, i = 0; i < G; i++) bad += out[i] != s;
    CHECK_MSG(bad == 0, "switch_loop: %d wrong, %d (host %d)", bad, out[0], s);
    args[0] = &y; args[1] = &n; args[2] = &c;
    for (n = -1; n <= 1; n++) { /* c == 0: y[0] (n > 0), y[i + 1] where n < i, nothing (else); c == 1: y[i] */
        for (c = 0; c <= 1; c++) {
            float want[2 * G] = {0};
            memset(y, 0, 2 * G * sizeof *y);
            for (i = 0; i < G; i++)
                if (c) want[i] = 1.0f;
                else if (n > 0) want[0] = 1.0f;
                else if (n < i) want[i + 1] = 1.0f;
            mgpuLaunchKernel(mgpuModuleGetFunction(mods[1], "early_return"), 1, 1, 1, G, 1, 1, 0, NULL, args, NULL, 3);
            for (bad = 0, i = 0; i < 2 * G; i++) bad += y[i] != want[i];
            CHECK_MSG(bad == 0, "early_return n = %d, c = %d: %d wrong", n, c, bad);
        }
    }
    for (i = 0; i < G; i++) x[i] = (float)(i - G / 2) * 0.2f; /* products of halves among them: away from zero */
    v = y;
    args[0] = &x; args[1] = &v; args[2] = &c;
    for (c = 0; c <= 1; c++) {
        mgpuLaunchKernel(mgpuModuleGetFunction(mods[2], "merge"), 1, 1, 1, G, 1, 1, 0, NULL, args, NULL, 3);
        for (bad = 0, i = 0; i < G; i++) bad += y[2 * i] != (c ? 0.0f : x[i]) || y[2 * i + 1] != 0.0f;
        CHECK_MSG(bad == 0, "merge c = %d: %d wrong", c, bad);
    }
    args[2] = &sc;
    mgpuLaunchKernel(mgpuModuleGetFunction(mods[3], "r"), 1, 1, 1, G, 1, 1, 0, NULL, args, NULL, 3);
    for (bad = 0, i = 0; i < G; i++) bad += y[i] != roundf(x[i] * sc);
    CHECK_MSG(bad == 0, "round: %d wrong, y[1] = %g (host %g)", bad, (double)y[1], (double)roundf(x[1] * sc));
    for (i = 0; i < G; i++) a[i] = (i * 7) % 80; /* an 8x8 table: some values twice, some not at all */
    n = 8;
    args[0] = &a; args[1] = &out; args[2] = &n;
    mgpuLaunchKernel(mgpuModuleGetFunction(mods[4], "nested_break"), 1, 1, 1, G, 1, 1, 0, NULL, args, NULL, 3);
    for (bad = 0, i = 0; i < G; i++) {
        int want = -1001;
        for (j = 0; j < n * n && want < 0; j++)
            if (a[j] == i) want = j / n * 1000 + j % n;
        bad += out[i] != want;
    }
    CHECK_MSG(bad == 0, "nested_break: %d wrong, out[1] = %d (host 2007)", bad, out[1]);
    mgpuMemFree(a, NULL);
    mgpuMemFree(out, NULL);
    mgpuMemFree(x, NULL);
    mgpuMemFree(y, NULL);
    for (i = 0; i < 5; i++) mgpuModuleUnload(mods[i]);
}

/* Every report of the runtime was one a test asked for (with the validation layer on where it
   is installed: none of its messages). */
static void test_runtime_quiet(void) {
    gpucompile_vulkan_runtime_info info;
    if (!have_device) SKIP("no Vulkan device");
    CHECK(gpucompile_vulkan_runtime_info_get(&info));
    if (getenv("GPUCOMPILE_VULKAN_VALIDATION")) CHECK(info.validation);
    CHECK_MSG(t_runtime_errors == 1, "%d reports (1 expected: the local memory refusal)", t_runtime_errors);
}

/* test_vulkan_ptr --compile IN.ll OUT.spv: one optimized module through the same steps, its
   errors on stdout (a corpus script's driver); --compile-optimize: front-end output, inlined and
   optimized first, as the backend does. 0 compiled, 1 refused or failed. */
static int compile_one(const char *in, const char *out, int optimize) {
    gpucompile_buf m;
    t_log log;
    size_t size;
    char *ir = (char *)t_read(in, &size);
    int n = 0, ok;
    FILE *f;
    memset(&m, 0, sizeof m);
    memset(&log, 0, sizeof log);
    if (!ir) return 1;
    ok = compile_ir_opt(ir, size, &m, &log, &n, NULL, optimize);
    free(ir);
    printf("%s", log.text);
    if (ok && (f = fopen(out, "wb")) != NULL) {
        ok = fwrite(m.data, 1, m.len, f) == m.len;
        ok &= fclose(f) == 0;
    }
    free(m.data);
    return !ok;
}

int main(int argc, char **argv) {
    t_llvm_targets();
    if (argc == 4 && strcmp(argv[1], "--compile") == 0) return compile_one(argv[2], argv[3], 0);
    if (argc == 4 && strcmp(argv[1], "--compile-optimize") == 0) return compile_one(argv[2], argv[3], 1); /* front-end output, -O0 */
    if (!t_vulkan_start(dir, sizeof dir, "vkptr", &have_tools)) return 1; /* the validation layer: no message allowed */
    RUN(test_compile);
    RUN(test_load);
    RUN(test_saxpy);
    RUN(test_no_int64);
    RUN(test_sizes_at_launch);
    RUN(test_sizes_3d);
    RUN(test_grid2d);
    RUN(test_push_scalars);
    RUN(test_many_scalars);
    RUN(test_constant_table);
    RUN(test_mixed_widths);
    RUN(test_private_array);
    RUN(test_private_memset);
    RUN(test_marker_mismatch);
    RUN(test_cuda_style_ir);
    RUN(test_cuda_dynamic_shared);
    RUN(test_cuda_warps);
    RUN(test_cuda_warp_forms);
    RUN(test_sizes_compiled_in);
    RUN(test_generic_pointer);
    RUN(test_expand);
    RUN(test_run_kernels);
    RUN(test_from_O0);
    RUN(test_refusals);
    RUN(test_work_dim_offset);
    RUN(test_split_grid);
    RUN(test_index_off_constant);
    RUN(test_table_as_other_type);
    RUN(test_float4_over_ints);
    RUN(test_structured_cf);
    RUN(test_switch_table);
    RUN(test_runtime_quiet);
    free(spirv.data);
    t_vulkan_end(dir, module);
    return TEST_END("test_vulkan_ptr");
}
