/* The NVPTX backend on the CPU: PTX checked by the toolkit's ptxas, cubins by llvm-readelf,
   fatbins by their magic; the three cubin paths; flags, PTX versions, toolkit errors; our PTX
   against llvm-link | opt | llc. Needs the CUDA toolkit (skips without it), never a GPU. */
#include "test.h"
#include "gpucompile_nvptx.h"
#include <sys/stat.h>
#include <unistd.h>
#include <dirent.h>
#include <dlfcn.h>

#define KERNELS "examples/kernels/"
static const char *const kernels[] = {"saxpy", "math", "reduce"};
static char cuda[1024], tmpdir[1024];

static int have_cuda(void) { return cuda[0] != 0; }

static char *kernel_text(const char *name, size_t *size) {
    char file[256];
    snprintf(file, sizeof file, "%s_nvptx.ll", name);
    return t_kernel(file, size);
}

/* Compiles examples/kernels/<name>_nvptx.ll (or text) for chip with flags / features. */
static gpucompile_result compile(const char *name, const char *text, const char *chip, const char *features, const char *flag,
                                 gpucompile_options *o, gpucompile_object **out) {
    gpucompile_target t = gpucompile_target_defaults(GPUCOMPILE_TARGET_NVPTX);
    const char *flags[1];
    size_t size = 0;
    char *data = text ? NULL : kernel_text(name, &size);
    gpucompile_result r;
    t.chip = chip;
    t.features = features;
    if (flag) { flags[0] = flag; t.flags = flags; t.num_flags = 1; }
    r = gpucompile_compile_ir(text ? text : data, text ? strlen(text) : size, name, &t, o, out);
    free(data);
    return r;
}

static int count(const char *hay, const char *needle) {
    int n = 0;
    const char *p = hay;
    while ((p = strstr(p, needle)) != NULL) { n++; p += strlen(needle); }
    return n;
}

/* ptxas -O2 (the targets' default O, which we pass on) -v on our PTX. */
static int ptxas_accepts(const gpucompile_object *o, const char *chip, char **out) {
    char path[1100], cmd[4200];
    int st = -1;
    char *text;
    t_save(tmpdir, "k.ptx", o->data, o->size, path, sizeof path);
    snprintf(cmd, sizeof cmd, "%s/bin/ptxas -arch=%s -O2 -v %s -o %s/k.ptx.cubin 2>&1", cuda, chip, path, tmpdir);
    text = t_sh(cmd, &st);
    if (out) *out = text; else free(text);
    return st == 0;
}

static int ptxas_accepts_text(const char *ptx, const char *chip) {
    gpucompile_object o;
    memset(&o, 0, sizeof o);
    o.data = (unsigned char *)ptx;
    o.size = strlen(ptx);
    return ptxas_accepts(&o, chip, NULL);
}

static void test_isa_accepted_by_ptxas(void) {
    static const char *const chips[] = {"sm_75", "sm_80", "sm_90"};
    size_t k, c;
    if (!have_cuda()) SKIP("no CUDA toolkit");
    for (k = 0; k < 3; k++)
        for (c = 0; c < 3; c++) {
            t_log l;
            gpucompile_options o = t_options(&l, GPUCOMPILE_FORMAT_ISA);
            gpucompile_object *obj = NULL;
            char *out = NULL, target[64];
            CHECK(compile(kernels[k], NULL, chips[c], NULL, NULL, &o, &obj) == GPUCOMPILE_OK);
            if (!obj) { printf("%s", l.text); continue; }
            snprintf(target, sizeof target, "\n.target %s\n", chips[c]);
            CHECK_MSG(strstr((char *)obj->data, target) != NULL, "%s %s", kernels[k], chips[c]);
            CHECK(strlen((char *)obj->data) == obj->size);
            CHECK_MSG(ptxas_accepts(obj, chips[c], &out), "%s %s: %s", kernels[k], chips[c], out);
            if (k == 1) CHECK(strstr((char *)obj->data, "__nv_") == NULL);
            free(out);
            gpucompile_object_free(obj);
        }
}

static int has_text_section(const gpucompile_object *o, const char *kernel) {
    char path[1100], cmd[3000], want[128];
    int st = -1, ok;
    char *text;
    t_save(tmpdir, "k.cubin", o->data, o->size, path, sizeof path);
    snprintf(cmd, sizeof cmd, "llvm-readelf -S %s", path);
    text = t_sh(cmd, &st);
    snprintf(want, sizeof want, " .text.%s ", kernel);
    ok = st == 0 && strstr(text, want) != NULL;
    free(text);
    return ok;
}

static void bin_with(const char *method, const char *expect_log) {
    size_t k;
    for (k = 0; k < 3; k++) {
        t_log l;
        gpucompile_options o = t_options(&l, GPUCOMPILE_FORMAT_BIN);
        gpucompile_object *obj = NULL;
        o.bin_method = method;
        CHECK_MSG(compile(kernels[k], NULL, "sm_80", NULL, NULL, &o, &obj) == GPUCOMPILE_OK, "%s", l.text);
        if (!obj) continue;
        CHECK(obj->size > 64 && memcmp(obj->data, "\177ELF", 4) == 0);
        CHECK(obj->data[49] == 80); /* e_flags: the SM number in bits 8-15 */
        CHECK_MSG(has_text_section(obj, kernels[k]), "%s by %s", kernels[k], method ? method : "default");
        CHECK_LOG(&l, expect_log);
        CHECK(obj->num_kernels == 1 && obj->kernels[0].registers > 0);
        gpucompile_object_free(obj);
    }
}

static void test_bin_default_is_nvjitlink(void) {
    if (!have_cuda()) SKIP("no CUDA toolkit");
    bin_with(NULL, "made by nvjitlink");
}
static void test_bin_nvjitlink(void) {
    if (!have_cuda()) SKIP("no CUDA toolkit");
    bin_with("nvjitlink", "made by nvjitlink");
}
static void test_bin_ptxas(void) {
    if (!have_cuda()) SKIP("no CUDA toolkit");
    bin_with("ptxas", "made by ptxas");
}

/* The toolkit's stub libcuda answers CUDA_ERROR_STUB_LIBRARY: a clean failure. */
static void test_bin_driver_stub(void) {
    t_log l;
    gpucompile_options o = t_options(&l, GPUCOMPILE_FORMAT_BIN);
    gpucompile_object *obj = NULL;
    gpucompile_tool_path tool;
    char stub[1100];
    snprintf(stub, sizeof stub, "%s/lib64/stubs/libcuda.so", cuda);
    if (!have_cuda() || access(stub, R_OK) != 0) SKIP("no stub libcuda in the toolkit");
    tool.name = "libcuda";
    tool.path = stub;
    o.tools = &tool;
    o.num_tools = 1;
    o.bin_method = "driver";
    CHECK(compile("saxpy", NULL, "sm_80", NULL, NULL, &o, &obj) == GPUCOMPILE_ERROR_RUNTIME);
    CHECK(obj == NULL);
    CHECK_LOG(&l, "cuInit failed: CUDA_ERROR_STUB_LIBRARY: this libcuda is the CUDA toolkit's stub, not a driver");
    gpucompile_object_free(obj);
}

/* A stand-in libcuda that "links" by returning a cubin ptxas made: the driver path's calls,
   their order, the JIT target and the context balance, without a GPU. */
static const char fake_cuda[] =
    "#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n"
    "static int inited, retained, pushed, target = -1, linked; static char *img; static size_t n;\n"
    "int cuInit(unsigned f) { (void)f; inited = 1; return 0; }\n"
    "int cuDeviceGet(int *d, int o) { if (!inited) return 3; *d = o; return 0; }\n"
    "int cuDevicePrimaryCtxRetain(void **c, int d) { (void)d; retained++; *c = &retained; return 0; }\n"
    "int cuDevicePrimaryCtxRelease_v2(int d) { (void)d; retained--; return 0; }\n"
    "int cuCtxPushCurrent_v2(void *c) { (void)c; pushed++; return 0; }\n"
    "int cuCtxPopCurrent_v2(void **c) { *c = 0; pushed--; return 0; }\n"
    "int cuLinkCreate_v2(unsigned k, int *o, void **v, void **s) { unsigned i; if (!pushed) return 201;\n"
    "  for (i = 0; i < k; i++) if (o[i] == 9) target = (int)(size_t)v[i]; *s = &linked; return 0; }\n"
    "int cuLinkAddData_v2(void *s, int t, void *d, size_t sz, const char *nm, unsigned k, int *o, void **v) {\n"
    "  (void)s; (void)nm; (void)k; (void)o; (void)v; if (t != 1 || ((char *)d)[sz - 1] != 0 || !strstr((char *)d, \".entry\")) return 218;\n"
    "  linked = 1; return 0; }\n"
    "int cuLinkComplete(void *s, void **c, size_t *sz) { FILE *f = fopen(getenv(\"FAKE_CUBIN\"), \"rb\"); (void)s;\n"
    "  if (!f || !linked) return 999; img = malloc(1 << 20); n = fread(img, 1, 1 << 20, f); fclose(f); *c = img; *sz = n; return 0; }\n"
    "int cuLinkDestroy(void *s) { (void)s; free(img); img = 0; linked = 0; return 0; }\n"
    "int fake_state(int *t) { *t = target; return retained * 10 + pushed; }\n";

static void test_bin_driver_fake(void) {
    t_log l;
    gpucompile_options o = t_options(&l, GPUCOMPILE_FORMAT_ISA);
    gpucompile_object *isa = NULL, *obj = NULL;
    gpucompile_tool_path tool;
    char src[1100], lib[1100], cubin[1100], cmd[4200], *out;
    int st = -1, target = 0;
    void *dl;
    int (*state)(int *);
    if (!have_cuda()) SKIP("no CUDA toolkit");
    t_save(tmpdir, "fake_cuda.c", fake_cuda, sizeof fake_cuda - 1, src, sizeof src);
    snprintf(lib, sizeof lib, "%s/libcuda-fake.so", tmpdir);
    snprintf(cmd, sizeof cmd, "cc -shared -fPIC -o %s %s 2>&1", lib, src);
    out = t_sh(cmd, &st);
    free(out);
    if (st != 0) SKIP("no C compiler for the stand-in libcuda");
    /* the cubin it hands back: ptxas on our PTX */
    CHECK(compile("reduce", NULL, "sm_90a", NULL, NULL, &o, &isa) == GPUCOMPILE_OK);
    if (!isa) return;
    CHECK(ptxas_accepts(isa, "sm_90a", NULL));
    snprintf(cubin, sizeof cubin, "%s/k.ptx.cubin", tmpdir);
    setenv("FAKE_CUBIN", cubin, 1);
    o = t_options(&l, GPUCOMPILE_FORMAT_BIN);
    tool.name = "libcuda";
    tool.path = lib;
    o.tools = &tool;
    o.num_tools = 1;
    o.bin_method = "driver";
    CHECK_MSG(compile("reduce", NULL, "sm_90a", NULL, NULL, &o, &obj) == GPUCOMPILE_OK, "%s", l.text);
    CHECK_LOG(&l, "made by driver");
    CHECK(obj && has_text_section(obj, "reduce") && obj->kernels[0].shared_bytes >= 1024 && obj->kernels[0].registers > 0);
    dl = dlopen(lib, RTLD_NOW);
    CHECK(dl != NULL);
    if (dl) {
        *(void **)&state = dlsym(dl, "fake_state");
        CHECK(state && state(&target) == 0);      /* every retain released, every push popped */
        CHECK(target == 0x10000 + 90);            /* CU_TARGET_COMPUTE_90A */
        dlclose(dl);
    }
    gpucompile_object_free(isa);
    gpucompile_object_free(obj);
}

static void test_driver_missing(void) {
    t_log l;
    gpucompile_options o = t_options(&l, GPUCOMPILE_FORMAT_BIN);
    gpucompile_object *obj = NULL;
    gpucompile_tool_path tool;
    tool.name = "libcuda";
    tool.path = "/nonexistent/libcuda.so.1";
    o.tools = &tool;
    o.num_tools = 1;
    o.bin_method = "driver";
    CHECK(compile("saxpy", NULL, "sm_80", NULL, NULL, &o, &obj) == GPUCOMPILE_ERROR_TOOLKIT_NOT_FOUND);
    CHECK_LOG(&l, "/nonexistent/libcuda.so.1");
    o.bin_method = "jit";
    CHECK(compile("saxpy", NULL, "sm_80", NULL, NULL, &o, &obj) == GPUCOMPILE_ERROR_INVALID_ARGUMENT);
    CHECK_LOG(&l, "unknown bin_method 'jit'");
}

static void test_nvjitlink_missing_falls_back_to_ptxas(void) {
    t_log l;
    gpucompile_options o = t_options(&l, GPUCOMPILE_FORMAT_BIN);
    gpucompile_object *obj = NULL;
    gpucompile_tool_path tool;
    if (!have_cuda()) SKIP("no CUDA toolkit");
    tool.name = "nvJitLink";
    tool.path = "/nonexistent/libnvJitLink.so";
    o.tools = &tool;
    o.num_tools = 1;
    CHECK(compile("reduce", NULL, "sm_90", NULL, NULL, &o, &obj) == GPUCOMPILE_OK);
    CHECK_LOG(&l, "nvJitLink is not available (/nonexistent/libnvJitLink.so)");
    CHECK_LOG(&l, "made by ptxas");
    CHECK(l.errors == 0);
    CHECK(obj && has_text_section(obj, "reduce"));
    gpucompile_object_free(obj);
    /* forced, it is an error */
    o.bin_method = "nvjitlink";
    CHECK(compile("reduce", NULL, "sm_90", NULL, NULL, &o, &obj) == GPUCOMPILE_ERROR_TOOLKIT_NOT_FOUND);
}

static void test_fatbin(void) {
    static const unsigned char magic[4] = {0x50, 0xED, 0x55, 0xBA}; /* 0xBA55ED50 little-endian */
    size_t k;
    if (!have_cuda()) SKIP("no CUDA toolkit");
    for (k = 0; k < 3; k++) {
        t_log l;
        gpucompile_options o = t_options(&l, GPUCOMPILE_FORMAT_FATBIN);
        gpucompile_object *obj = NULL;
        CHECK_MSG(compile(kernels[k], NULL, "sm_90", NULL, NULL, &o, &obj) == GPUCOMPILE_OK, "%s", l.text);
        if (!obj) continue;
        CHECK(obj->size > 16 && memcmp(obj->data, magic, 4) == 0);
        CHECK(obj->num_kernels == 1 && obj->kernels[0].registers > 0);
        CHECK_LOG(&l, "--image3=kind=elf,sm=90,file=");
        CHECK_LOG(&l, "--image3=kind=ptx,sm=90,file=");
        {   /* the cubin the same compile gives for bin is in there, byte for byte (the PTX is compressed) */
            gpucompile_object *bin = NULL;
            o.format = GPUCOMPILE_FORMAT_BIN;
            CHECK(compile(kernels[k], NULL, "sm_90", NULL, NULL, &o, &bin) == GPUCOMPILE_OK);
            CHECK(bin && obj->size > bin->size && memmem(obj->data, obj->size, bin->data, bin->size) != NULL);
            gpucompile_object_free(bin);
        }
        gpucompile_object_free(obj);
    }
}

/* Metadata against ptxas' own report for the same PTX. */
static void test_kernel_metadata(void) {
    size_t k;
    if (!have_cuda()) SKIP("no CUDA toolkit");
    for (k = 0; k < 3; k++) {
        t_log l;
        gpucompile_options o = t_options(&l, GPUCOMPILE_FORMAT_ISA);
        gpucompile_object *isa = NULL, *bin = NULL;
        char *out = NULL;
        const char *u;
        int regs = -1, smem = 0, stack = -1;
        CHECK(compile(kernels[k], NULL, "sm_90", NULL, NULL, &o, &isa) == GPUCOMPILE_OK);
        if (!isa) continue;
        CHECK(ptxas_accepts(isa, "sm_90", &out));
        if ((u = strstr(out, "Used ")) != NULL) regs = atoi(u + 5);
        if ((u = strstr(out, " bytes stack frame")) != NULL) { while (u[-1] >= '0' && u[-1] <= '9') u--; stack = atoi(u); }
        if ((u = strstr(out, " bytes smem")) != NULL) { while (u[-1] >= '0' && u[-1] <= '9') u--; smem = atoi(u); }
        o.format = GPUCOMPILE_FORMAT_BIN;
        o.bin_method = "ptxas";
        CHECK(compile(kernels[k], NULL, "sm_90", NULL, NULL, &o, &bin) == GPUCOMPILE_OK);
        if (bin) {
            CHECK_STR(bin->kernels[0].name, kernels[k]);
            CHECK_MSG(bin->kernels[0].registers == regs, "%s: %d registers, ptxas says %d", kernels[k], bin->kernels[0].registers, regs);
            CHECK_MSG(bin->kernels[0].shared_bytes == smem, "%s: %d shared, ptxas says %d", kernels[k], bin->kernels[0].shared_bytes, smem);
            CHECK_MSG(bin->kernels[0].private_bytes == stack, "%s: %d private, ptxas says %d", kernels[k], bin->kernels[0].private_bytes, stack);
            CHECK(bin->kernels[0].max_threads == -1);
        }
        if (k == 2) CHECK(smem == 1024);
        gpucompile_object_free(bin);
        bin = NULL;
        /* nvJitLink (its own ptxas: other numbers for the math kernel) against its own report */
        o.bin_method = "nvjitlink";
        o.logger = t_logger(&l);
        CHECK(compile(kernels[k], NULL, "sm_90", NULL, NULL, &o, &bin) == GPUCOMPILE_OK);
        if (bin && (u = strstr(l.text, "Used ")) != NULL) {
            CHECK(bin->kernels[0].registers == atoi(u + 5));
            CHECK(bin->kernels[0].shared_bytes == smem);
        }
        free(out);
        gpucompile_object_free(isa);
        gpucompile_object_free(bin);
    }
}

/* .maxntid from !nvvm.annotations shows up as max_threads. */
static void test_max_threads(void) {
    t_log l;
    gpucompile_options o = t_options(&l, GPUCOMPILE_FORMAT_BIN);
    gpucompile_object *obj = NULL;
    size_t size;
    char *src = kernel_text("reduce", &size), *text;
    static const char extra[] = "\n!nvvm.annotations = !{!0}\n!0 = !{ptr @reduce, !\"maxntidx\", i32 256}\n";
    if (!have_cuda() || !src) SKIP("no CUDA toolkit");
    text = (char *)malloc(size + sizeof extra);
    memcpy(text, src, size);
    memcpy(text + size, extra, sizeof extra);
    o.bin_method = "ptxas";
    CHECK_MSG(compile("reduce", text, "sm_80", NULL, NULL, &o, &obj) == GPUCOMPILE_OK, "%s", l.text);
    CHECK(obj && obj->kernels[0].max_threads == 256);
    CHECK(obj && obj->kernels[0].shared_bytes == 1024);
    gpucompile_object_free(obj);
    free(src);
    free(text);
}

static char *isa(const char *name, const char *text, const char *chip, const char *features, const char *flag, t_log *l) {
    gpucompile_options o = t_options(l, GPUCOMPILE_FORMAT_ISA);
    gpucompile_object *obj = NULL;
    char *s = NULL;
    if (compile(name, text, chip, features, flag, &o, &obj) == GPUCOMPILE_OK) s = strdup((char *)obj->data);
    gpucompile_object_free(obj);
    return s;
}

static void test_ftz(void) {
    t_log l;
    char *plain = isa("math", NULL, "sm_80", NULL, NULL, &l), *ftz = isa("math", NULL, "sm_80", NULL, "ftz", &l);
    char *splain = isa("saxpy", NULL, "sm_80", NULL, NULL, &l), *sftz = isa("saxpy", NULL, "sm_80", NULL, "ftz", &l);
    if (!have_cuda()) SKIP("no CUDA toolkit");
    CHECK(plain && ftz && splain && sftz);
    if (!plain || !ftz || !splain || !sftz) return;
    /* libdevice's expf uses ex2.approx.ftz either way; everything else follows the flag */
    CHECK_MSG(count(plain, ".ftz") <= 1, "%d .ftz without the flag", count(plain, ".ftz"));
    CHECK_MSG(count(ftz, ".ftz") >= 10, "%d .ftz with the flag", count(ftz, ".ftz"));
    CHECK(count(splain, ".ftz") == 0 && count(sftz, ".ftz.f32") >= 1);
    CHECK(ptxas_accepts_text(ftz, "sm_80") && ptxas_accepts_text(sftz, "sm_80"));
    free(plain); free(ftz); free(splain); free(sftz);
}

/* A module that already has nvvm-reflect-ftz = 0: replaced, not appended (two would be invalid). */
static void test_ftz_replaces_module_flag(void) {
    t_log l;
    size_t size;
    char *src = kernel_text("math", &size), *text, *out;
    static const char extra[] = "\n!llvm.module.flags = !{!0}\n!0 = !{i32 4, !\"nvvm-reflect-ftz\", i32 0}\n";
    if (!have_cuda() || !src) SKIP("no CUDA toolkit");
    text = (char *)malloc(size + sizeof extra);
    memcpy(text, src, size);
    memcpy(text + size, extra, sizeof extra);
    out = isa("math", text, "sm_80", NULL, "ftz", &l);
    CHECK_MSG(out != NULL, "%s", l.text);
    CHECK(out && count(out, ".ftz") >= 10);
    free(out);
    out = isa("math", text, "sm_80", NULL, NULL, &l);
    CHECK(out && count(out, ".ftz") <= 1);
    free(out);
    free(src);
    free(text);
}

static void test_fast(void) {
    t_log l;
    char *plain = isa("math", NULL, "sm_80", NULL, NULL, &l), *fast = isa("math", NULL, "sm_80", NULL, "fast", &l);
    char *splain = isa("saxpy", NULL, "sm_80", NULL, NULL, &l);
    if (!have_cuda()) SKIP("no CUDA toolkit");
    CHECK(plain && fast && splain);
    if (!plain || !fast || !splain) return;
    CHECK(strstr(plain, "div.approx") == NULL && strstr(plain, "div.full") == NULL && strstr(plain, "sqrt.approx") == NULL);
    CHECK(strstr(plain, "div.rn.f32") != NULL && strstr(plain, "sqrt.rn.f32") != NULL);
    CHECK(strstr(fast, "div.approx") != NULL || strstr(fast, "div.full") != NULL);
    CHECK(strstr(fast, "sqrt.approx") != NULL);
    CHECK(strstr(fast, "sin.approx") != NULL && strstr(plain, "sin.approx") == NULL); /* __nv_fast_sinf */
    CHECK(strstr(fast, "__nv_") == NULL);
    CHECK(ptxas_accepts_text(fast, "sm_80"));
    CHECK(strstr(splain, "approx") == NULL && strstr(splain, ".ftz") == NULL);
    free(plain); free(fast); free(splain);
    { /* tanhf: __nv_fast_tanhf (tanh.approx.f32) where LLVM knows its intrinsic, 22 on */
        static const char ir[] = "declare float @__nv_tanhf(float)\n"
                                 "define ptx_kernel void @k(ptr %p) {\n  %x = load float, ptr %p\n"
                                 "  %y = call float @__nv_tanhf(float %x)\n  store float %y, ptr %p\n  ret void\n}\n";
        char *t = isa("tanh", ir, "sm_80", NULL, "fast", &l);
        CHECK_MSG(t && (strstr(t, "tanh.approx.f32") != NULL) == (LLVM_VERSION_MAJOR >= 22), "%s", l.text);
        CHECK(t && ptxas_accepts_text(t, "sm_80"));
        free(t);
    }
}

/* Device printf, malloc/free and assert call CUDA system functions that ptxas and nvJitLink
   resolve: left undefined, they reach both; any other undefined function is still an error. */
static void test_cuda_system_calls(void) {
    static const char ir[] =
        "target triple = \"nvptx64-nvidia-cuda\"\n"
        "@fmt = private unnamed_addr addrspace(1) constant [4 x i8] c\"%d\\0A\\00\"\n"
        "declare i32 @vprintf(ptr, ptr)\n"
        "declare ptr @malloc(i64)\n"
        "declare void @free(ptr)\n"
        "declare void @__assertfail(ptr, ptr, i32, ptr, i64)\n"
        "define ptx_kernel void @k(ptr addrspace(1) %p) {\n"
        "  %q = call ptr @malloc(i64 4)\n"
        "  store i32 1, ptr %q\n"
        "  %f = addrspacecast ptr addrspace(1) @fmt to ptr\n"
        "  %r = call i32 @vprintf(ptr %f, ptr %q)\n"
        "  %z = icmp eq i32 %r, 0\n"
        "  br i1 %z, label %bad, label %ok\n"
        "bad:\n"
        "  call void @__assertfail(ptr %f, ptr %f, i32 1, ptr %f, i64 1)\n"
        "  br label %ok\n"
        "ok:\n"
        "  call void @free(ptr %q)\n"
        "  store i32 %r, ptr addrspace(1) %p\n"
        "  ret void\n"
        "}\n";
    static const char other[] =
        "target triple = \"nvptx64-nvidia-cuda\"\n"
        "declare i32 @printf(ptr)\n"
        "define ptx_kernel void @k(ptr %p) {\n"
        "  %r = call i32 @printf(ptr %p)\n"
        "  ret void\n"
        "}\n";
    const char *methods[] = {"nvjitlink", "ptxas"};
    t_log l;
    gpucompile_options o = t_options(&l, GPUCOMPILE_FORMAT_ISA);
    gpucompile_object *obj = NULL;
    size_t m;
    if (!have_cuda()) SKIP("no CUDA toolkit");
    CHECK_MSG(compile("syscalls", ir, "sm_80", NULL, NULL, &o, &obj) == GPUCOMPILE_OK, "%s", l.text);
    if (obj) {
        CHECK(ptxas_accepts(obj, "sm_80", NULL));
        CHECK(obj->size > 0 && strstr((const char *)obj->data, ".extern .func  (.param .b32 func_retval0) vprintf") != NULL);
        gpucompile_object_free(obj);
    }
    for (m = 0; m < 2; m++) {
        o = t_options(&l, GPUCOMPILE_FORMAT_BIN);
        o.bin_method = methods[m];
        obj = NULL;
        CHECK_MSG(compile("syscalls", ir, "sm_80", NULL, NULL, &o, &obj) == GPUCOMPILE_OK, "%s: %s", methods[m], l.text);
        if (obj) CHECK(obj->num_kernels == 1 && memcmp(obj->data, "\177ELF", 4) == 0);
        gpucompile_object_free(obj);
    }
    o = t_options(&l, GPUCOMPILE_FORMAT_ISA);
    obj = NULL;
    CHECK(compile("other", other, "sm_80", NULL, NULL, &o, &obj) == GPUCOMPILE_ERROR_UNRESOLVED && !obj);
    CHECK_LOG(&l, "undefined function 'printf'");
}

static void test_ptx_versions(void) {
    t_log l;
    char *s;
    if (!have_cuda()) SKIP("no CUDA toolkit");
    /* #gpu.nvptx's default +ptx60 with sm_90: raised to the chip's minimum */
    s = isa("saxpy", NULL, "sm_90", NULL, NULL, &l);
    CHECK_MSG(s && strstr(s, "\n.version 7.8\n"), "%s", l.text);
    CHECK_LOG(&l, "PTX 7.8 for sm_90: the highest of the chip's minimum 7.8, the target's +ptx60 (the default) and the module's none");
    free(s);
    s = isa("saxpy", NULL, "sm_90a", "", NULL, &l);
    CHECK(s && strstr(s, "\n.version 8.0\n") && strstr(s, "\n.target sm_90a\n"));
    free(s);
    s = isa("saxpy", NULL, "sm_80", "+ptx85", NULL, &l);
    CHECK(s && strstr(s, "\n.version 8.5\n"));
    free(s);
    s = isa("saxpy", NULL, "sm_75", "+ptx60", NULL, &l);
    CHECK(s && strstr(s, "\n.version 6.3\n"));
    free(s);
    /* impossible or malformed: errors before code generation */
    CHECK(isa("saxpy", NULL, "sm_90", "+ptx99", NULL, &l) == NULL);
    CHECK_LOG(&l, "PTX version 9.9 ('+ptx99') is not one LLVM");
    CHECK(isa("saxpy", NULL, "sm_90", "ptx80", NULL, &l) == NULL);
    CHECK_LOG(&l, "'ptx80' in features \"ptx80\"");
    CHECK(isa("saxpy", NULL, "sm_90", "+ptx8", NULL, &l) == NULL);
    CHECK_LOG(&l, "not a PTX version");
    CHECK(isa("saxpy", NULL, "sm_90", "+ptx80,+ptx81", NULL, &l) == NULL);
    CHECK_LOG(&l, "more than one PTX version");
    CHECK(isa("saxpy", NULL, "sm_90", "+ptx80,+foo", NULL, &l) == NULL);
    CHECK_LOG(&l, "'+foo' in features \"+ptx80,+foo\": not an NVPTX feature");
    s = isa("saxpy", NULL, "sm_90", " +sm_90 , +ptx80 ", NULL, &l); /* LLVM's own sm_NN features stay */
    CHECK_MSG(s && strstr(s, "\n.version 8.0\n"), "%s", l.text);
    free(s);
    /* the highest version follows the LLVM: 8.5 on 19, 9.0 on 22 (there is no 8.9) */
    s = isa("saxpy", NULL, "sm_90", LLVM_VERSION_MAJOR >= 22 ? "+ptx90" : "+ptx85", NULL, &l);
    CHECK_MSG(s && strstr(s, LLVM_VERSION_MAJOR >= 22 ? "\n.version 9.0\n" : "\n.version 8.5\n"), "%s", l.text);
    free(s);
    CHECK(isa("saxpy", NULL, "sm_90", LLVM_VERSION_MAJOR >= 22 ? "+ptx91" : "+ptx86", NULL, &l) == NULL);
    CHECK_LOG(&l, LLVM_VERSION_MAJOR >= 22 ? "(the highest is +ptx90)" : "(the highest is +ptx85)");
    CHECK(isa("saxpy", NULL, "sm_90", "+ptx89", NULL, &l) == NULL);
#if LLVM_VERSION_MAJOR >= 22
    /* chips of LLVM 22 start at their own minimum: sm_110 and sm_88 at 9.0, sm_100f at 8.8 */
    s = isa("saxpy", NULL, "sm_110", NULL, NULL, &l);
    CHECK_MSG(s && strstr(s, "\n.version 9.0\n") && strstr(s, "\n.target sm_110\n"), "%s", l.text);
    free(s);
    s = isa("saxpy", NULL, "sm_100f", NULL, NULL, &l);
    CHECK_MSG(s && strstr(s, "\n.version 8.8\n") && strstr(s, "\n.target sm_100f\n"), "%s", l.text);
    free(s);
#endif
}

/* A toolchain older than the PTX: refused before ptxas says "Unsupported .version". */
static void test_toolchain_ptx_limit(void) {
    t_log l;
    gpucompile_options o = t_options(&l, GPUCOMPILE_FORMAT_BIN);
    gpucompile_object *obj = NULL;
    gpucompile_tool_path tool;
    char path[1100];
    static const char script[] = "#!/bin/sh\necho 'Cuda compilation tools, release 12.4, V12.4.131'\nexit 0\n";
    if (!have_cuda()) SKIP("no CUDA toolkit");
    t_save(tmpdir, "old-ptxas", script, sizeof script - 1, path, sizeof path);
    chmod(path, 0755);
    tool.name = "ptxas";
    tool.path = path;
    o.tools = &tool;
    o.num_tools = 1;
    o.bin_method = "ptxas";
    CHECK(compile("saxpy", NULL, "sm_80", "+ptx85", NULL, &o, &obj) == GPUCOMPILE_ERROR_UNSUPPORTED);
    CHECK_LOG(&l, "ptxas 12.4 reads (at most PTX 8.4)");
    CHECK(compile("saxpy", NULL, "sm_80", "+ptx84", NULL, &o, &obj) != GPUCOMPILE_ERROR_UNSUPPORTED);
    /* what the module's functions ask for is capped, with a warning (the target pins nothing) */
    {
        size_t n = 0;
        char *text = t_read("tests/data/ptx85_bmsk_nvptx.ll", &n);
        CHECK(text != NULL);
        if (text) CHECK(compile("bmsk", text, "sm_80", NULL, NULL, &o, &obj) != GPUCOMPILE_ERROR_UNSUPPORTED);
        CHECK_LOG(&l, "function '_Z4maskjj' asks for PTX 8.5 (+ptx85), but ptxas 12.4 reads up to 8.4: PTX 8.4 is tried");
        free(text);
        gpucompile_object_free(obj);
        obj = NULL;
    }
}

static void test_debug_target(void) {
    static const char text[] =
        "target triple = \"nvptx64-nvidia-cuda\"\n"
        "define ptx_kernel void @k(ptr addrspace(1) %p) !dbg !4 {\n"
        "  store float 1.0, ptr addrspace(1) %p, !dbg !6\n  ret void, !dbg !6\n}\n"
        "!llvm.dbg.cu = !{!0}\n!llvm.module.flags = !{!2, !3}\n"
        "!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, producer: \"t\", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug)\n"
        "!1 = !DIFile(filename: \"k.c\", directory: \"/tmp\")\n!2 = !{i32 2, !\"Debug Info Version\", i32 3}\n"
        "!3 = !{i32 7, !\"Dwarf Version\", i32 2}\n"
        "!4 = distinct !DISubprogram(name: \"k\", scope: !1, file: !1, line: 1, type: !5, scopeLine: 1, spFlags: DISPFlagDefinition, unit: !0)\n"
        "!5 = !DISubroutineType(types: !{})\n!6 = !DILocation(line: 2, column: 1, scope: !4)\n";
    t_log l;
    gpucompile_options o = t_options(&l, GPUCOMPILE_FORMAT_ISA);
    gpucompile_object *obj = NULL;
    CHECK(compile("dbg", text, "sm_90", NULL, NULL, &o, &obj) == GPUCOMPILE_OK);
    CHECK(obj && strstr((char *)obj->data, "\n.target sm_90\n") != NULL);
    if (obj && have_cuda()) CHECK(ptxas_accepts(obj, "sm_90", NULL));
    gpucompile_object_free(obj);
    o.debug = 1;
    CHECK(compile("dbg", text, "sm_90", NULL, NULL, &o, &obj) == GPUCOMPILE_OK);
    CHECK(obj && strstr((char *)obj->data, "\n.target sm_90, debug\n") != NULL);
    gpucompile_object_free(obj);
}

static void test_toolkit_errors(void) {
    t_log l;
    gpucompile_options o = t_options(&l, GPUCOMPILE_FORMAT_ISA);
    gpucompile_object *obj = NULL;
    char empty[1100];
    o.toolkit_path = "/nonexistent/cuda-9.9";
    CHECK(compile("saxpy", NULL, "sm_80", NULL, NULL, &o, &obj) == GPUCOMPILE_ERROR_TOOLKIT_NOT_FOUND);
    CHECK_LOG(&l, "the CUDA toolkit path '/nonexistent/cuda-9.9' does not exist");
    /* a toolkit without libdevice: only an error when libdevice is needed */
    snprintf(empty, sizeof empty, "%s/empty-cuda", tmpdir);
    mkdir(empty, 0700);
    o = t_options(&l, GPUCOMPILE_FORMAT_ISA);
    o.toolkit_path = empty;
    CHECK(compile("saxpy", NULL, "sm_80", NULL, NULL, &o, &obj) == GPUCOMPILE_OK);
    gpucompile_object_free(obj);
    CHECK(compile("math", NULL, "sm_80", NULL, NULL, &o, &obj) == GPUCOMPILE_ERROR_TOOLKIT_NOT_FOUND);
    CHECK_LOG(&l, "/empty-cuda/nvvm/libdevice/libdevice.10.bc' does not exist");
    rmdir(empty);
}

static void test_unknown_chip(void) {
    t_log l;
    gpucompile_options o = t_options(&l, GPUCOMPILE_FORMAT_ISA);
    gpucompile_object *obj = NULL;
    CHECK(compile("saxpy", NULL, "sm_999", NULL, NULL, &o, &obj) == GPUCOMPILE_ERROR_INVALID_TARGET);
    CHECK(obj == NULL && l.errors > 0);
}

/* sm_100 and sm_120: on LLVM 19, which lacks them, sm_90 PTX assembled for the chip; on newer
   LLVMs PTX for the chip itself. */
static void test_newer_chips(void) {
    static const char *const chips[] = {"sm_100", "sm_120"};
    static const char *const methods[] = {"nvjitlink", "ptxas"};
    gpucompile_target t = gpucompile_target_defaults(GPUCOMPILE_TARGET_NVPTX);
    size_t c, m;
    if (!have_cuda()) SKIP("no CUDA toolkit");
    t.chip = "sm_100";
    CHECK(gpucompile_target_verify(&t, NULL) == GPUCOMPILE_OK);
    for (c = 0; c < 2; c++)
        for (m = 0; m < 2; m++) {
            t_log l;
            gpucompile_options o = t_options(&l, GPUCOMPILE_FORMAT_BIN);
            gpucompile_object *obj = NULL;
            o.bin_method = methods[m];
            CHECK_MSG(compile("reduce", NULL, chips[c], NULL, NULL, &o, &obj) == GPUCOMPILE_OK, "%s", l.text);
            if (!obj) continue;
            CHECK(has_text_section(obj, "reduce"));
            /* the cubin's e_flags hold the SM number in bits 8-15 (llvm-readelf -h: 0x6006402 for sm_100) */
            CHECK_MSG(obj->data[49] == atoi(chips[c] + 3), "%s: e_flags SM %d", chips[c], obj->data[49]);
            gpucompile_object_free(obj);
            obj = NULL;
            o.format = GPUCOMPILE_FORMAT_ISA;
            CHECK(compile("reduce", NULL, chips[c], NULL, NULL, &o, &obj) == GPUCOMPILE_OK);
            if (obj) {
                char want[64];
                snprintf(want, sizeof want, "\n.target %s\n", LLVM_VERSION_MAJOR == 19 ? "sm_90" : chips[c]);
                CHECK_MSG(strstr((char *)obj->data, want) != NULL, "%s: no '%s'", chips[c], want + 1);
                CHECK((strstr(l.text, "PTX for sm_90, assembled for") != NULL) == (LLVM_VERSION_MAJOR == 19));
            }
            gpucompile_object_free(obj);
        }
}

/* Every chip of the table (exactly llc's list, test_target checks) gives PTX for that chip
   (LLVM 19's newer chips: sm_90 PTX) that the toolkit's ptxas assembles for the chip, wherever
   this ptxas knows the chip (CUDA 13: sm_75 and newer, without sm_101, now sm_110). */
static void test_every_chip(void) {
    char *help;
    const char *chip;
    int st, i, native, assembled = 0;
    char cmd[1200];
    if (!have_cuda()) SKIP("no CUDA toolkit");
    snprintf(cmd, sizeof cmd, "%s/bin/ptxas --help", cuda);
    help = t_sh(cmd, &st);
    for (i = 0; (chip = gpucompile_chip_name(GPUCOMPILE_TARGET_NVPTX, i, &native)) != NULL; i++) {
        t_log l;
        gpucompile_options o = t_options(&l, GPUCOMPILE_FORMAT_ISA);
        gpucompile_object *obj = NULL;
        char want[64], quoted[64], *out = NULL;
        CHECK_MSG(compile("saxpy", NULL, chip, "", NULL, &o, &obj) == GPUCOMPILE_OK, "%s: %s", chip, l.text);
        if (!obj) continue;
        snprintf(want, sizeof want, "\n.target %s\n", native ? chip : "sm_90");
        CHECK_MSG(strstr((char *)obj->data, want) != NULL, "%s: no '%s'", chip, want + 1);
        snprintf(quoted, sizeof quoted, "'%s'", chip);
        if (help && strstr(help, quoted)) {
            CHECK_MSG(ptxas_accepts(obj, chip, &out), "%s: %s", chip, out);
            assembled++;
            free(out);
        }
        gpucompile_object_free(obj);
    }
    CHECK_MSG(assembled >= 20, "ptxas assembled only %d chips", assembled);
    free(help);
}

/* PTX without comments, trailing blanks and empty lines (llc's verbose-asm comments differ). */
static void strip_comments(char *s) {
    char *p = s, *w = s;
    while (*p) {
        char *eol = strchr(p, '\n'), *c;
        size_t n = eol ? (size_t)(eol - p) : strlen(p);
        for (c = p; c < p + n - 1 && !(c[0] == '/' && c[1] == '/'); c++) {}
        if (n >= 2 && c < p + n - 1) n = (size_t)(c - p);
        while (n && (p[n - 1] == ' ' || p[n - 1] == '\t' || p[n - 1] == '\r')) n--;
        if (n) { memmove(w, p, n); w += n; *w++ = '\n'; }
        p = eol ? eol + 1 : p + strlen(p);
    }
    *w = 0;
}

/* Our PTX equals llvm-link | opt -O2 | llc with the features we chose (+ptx70 for sm_80). */
static void test_equivalence(void) {
    static const char *const names[] = {"saxpy", "reduce"};
    size_t k;
    for (k = 0; k < 2; k++) {
        t_log l;
        char *ours = isa(names[k], NULL, "sm_80", NULL, NULL, &l), *ref, cmd[2048];
        int st = -1;
        snprintf(cmd, sizeof cmd,
                 "llvm-link " KERNELS "%s_nvptx.ll | opt -O2 -mtriple=nvptx64-nvidia-cuda -mcpu=sm_80 -mattr=+ptx70 | "
                 "llc -O2 -mcpu=sm_80 -mattr=+ptx70", names[k]);
        ref = t_sh(cmd, &st);
        CHECK(ours != NULL && st == 0);
        if (ours && st == 0) {
            strip_comments(ours);
            strip_comments(ref);
            CHECK_MSG(strcmp(ours, ref) == 0, "%s differs:\n--- ours\n%s\n--- llc\n%s", names[k], ours, ref);
        }
        free(ours);
        free(ref);
    }
}

/* Every temp file is gone (TMPDIR points at our own directory). */
static void test_no_temp_files_left(void) {
    DIR *d = opendir(tmpdir);
    struct dirent *e;
    int left = 0;
    if (!d) SKIP("no temp dir");
    while ((e = readdir(d)) != NULL)
        if (strncmp(e->d_name, "gpucompile-", 11) == 0) { left++; printf("  left: %s\n", e->d_name); }
    closedir(d);
    CHECK(left == 0);
}

int main(void) {
    char tmpl[] = "/tmp/test_nvptx.XXXXXX";
    char cmd[2200];
    snprintf(cuda, sizeof cuda, "%s", t_cuda() ? t_cuda() : "");
    if (!mkdtemp(tmpl)) return 1;
    snprintf(tmpdir, sizeof tmpdir, "%s", tmpl);
    setenv("TMPDIR", tmpdir, 1);
    RUN(test_isa_accepted_by_ptxas);
    RUN(test_bin_default_is_nvjitlink);
    RUN(test_bin_nvjitlink);
    RUN(test_bin_ptxas);
    RUN(test_bin_driver_stub);
    RUN(test_bin_driver_fake);
    RUN(test_driver_missing);
    RUN(test_nvjitlink_missing_falls_back_to_ptxas);
    RUN(test_fatbin);
    RUN(test_kernel_metadata);
    RUN(test_max_threads);
    RUN(test_ftz);
    RUN(test_ftz_replaces_module_flag);
    RUN(test_fast);
    RUN(test_cuda_system_calls);
    RUN(test_ptx_versions);
    RUN(test_toolchain_ptx_limit);
    RUN(test_debug_target);
    RUN(test_toolkit_errors);
    RUN(test_unknown_chip);
    RUN(test_newer_chips);
    RUN(test_every_chip);
    RUN(test_equivalence);
    RUN(test_no_temp_files_left);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    if (system(cmd) != 0) printf("  could not remove %s\n", tmpdir);
    return TEST_END("nvptx");
}
