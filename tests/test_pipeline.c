/* The module-to-object pipeline: inputs, each stage's behaviour and error path,
   hooks, a custom target, and PTX equal to opt + llc's. */
#include "test.h"
#include "gpucompile_nvptx.h"
#include <llvm-c/BitWriter.h>
#include <llvm-c/IRReader.h>
#include <llvm-c/Target.h>
#include <unistd.h>

static char tmpdir[256];

static gpucompile_target nvptx(const char *chip) {
    gpucompile_target t = gpucompile_target_defaults(GPUCOMPILE_TARGET_NVPTX);
    t.chip = chip;
    return t;
}

static gpucompile_result compile_text(const char *ir, const gpucompile_target *t, gpucompile_format f, t_log *l,
                                      gpucompile_object **o) {
    gpucompile_options opts;
    memset(&opts, 0, sizeof opts);
    opts.format = f;
    opts.logger = t_logger(l);
    return gpucompile_compile_ir(ir, strlen(ir), "test.ll", t, &opts, o);
}

static gpucompile_result compile_path(const char *path, const gpucompile_target *t, gpucompile_options *opts, t_log *l,
                                      gpucompile_object **o) {
    opts->logger = t_logger(l);
    return gpucompile_compile_file(path, t, opts, o);
}

static const char *saxpy = "examples/kernels/saxpy_nvptx.ll";

static void test_isa_and_llvm_formats(void) {
    gpucompile_target t = nvptx("sm_80");
    gpucompile_options opts;
    gpucompile_object *o = NULL;
    t_log l;
    memset(&opts, 0, sizeof opts);
    opts.format = GPUCOMPILE_FORMAT_ISA;
    CHECK(compile_path(saxpy, &t, &opts, &l, &o) == GPUCOMPILE_OK);
    if (!o) return;
    CHECK(strstr((char *)o->data, ".entry saxpy") != NULL);
    CHECK(strstr((char *)o->data, ".target sm_80") != NULL);
    CHECK(o->data[o->size] == 0);
    CHECK(o->format == GPUCOMPILE_FORMAT_ISA);
    CHECK(o->num_kernels == 1 && strcmp(o->kernels[0].name, "saxpy") == 0 && o->kernels[0].num_params == 4);
    CHECK_STR(o->triple, "nvptx64-nvidia-cuda");
    CHECK_STR(o->chip, "sm_80");
    CHECK(o->stage_ms[GPUCOMPILE_STAGE_OPTIMIZE] > 0 && o->stage_ms[GPUCOMPILE_STAGE_EMIT] > 0);
    gpucompile_object_free(o);
    opts.format = GPUCOMPILE_FORMAT_LLVM;
    CHECK(compile_path(saxpy, &t, &opts, &l, &o) == GPUCOMPILE_OK);
    if (!o) return;
    CHECK(o->size > 4 && o->data[0] == 'B' && o->data[1] == 'C');
    { /* the bitcode parses and has the target's triple and layout */
        LLVMContextRef c = LLVMContextCreate();
        LLVMModuleRef m = NULL;
        LLVMMemoryBufferRef mb = LLVMCreateMemoryBufferWithMemoryRangeCopy((const char *)o->data, o->size, "bc");
        char *msg = NULL;
        CHECK(LLVMParseIRInContext(c, mb, &m, &msg) == 0);
        if (m) {
            CHECK_STR(LLVMGetTarget(m), "nvptx64-nvidia-cuda");
            CHECK(strlen(LLVMGetDataLayoutStr(m)) > 0);
            LLVMDisposeModule(m);
        }
        if (msg) LLVMDisposeMessage(msg);
        LLVMContextDispose(c);
    }
    gpucompile_object_free(o);
}

static void test_bad_inputs(void) {
    gpucompile_target t = nvptx("sm_80");
    gpucompile_object *o = (gpucompile_object *)&t;
    gpucompile_options opts;
    t_log l;
    char *bc;
    size_t n;
    memset(&opts, 0, sizeof opts);
    opts.logger = t_logger(&l);
    opts.format = GPUCOMPILE_FORMAT_ISA;
    CHECK(gpucompile_compile_ir("", 0, "empty.ll", &t, &opts, &o) == GPUCOMPILE_ERROR_INVALID_INPUT);
    CHECK(o == NULL);
    CHECK_LOG(&l, "empty input");
    opts.logger = t_logger(&l);
    CHECK(gpucompile_compile_ir("\x01\x02\xff garbage", 11, "junk", &t, &opts, &o) == GPUCOMPILE_ERROR_INVALID_INPUT);
    CHECK_LOG(&l, "invalid LLVM IR");
    opts.logger = t_logger(&l);
    CHECK(gpucompile_compile_ir("define void @f( {", 17, "syntax.ll", &t, &opts, &o) == GPUCOMPILE_ERROR_INVALID_INPUT);
    CHECK_LOG(&l, "syntax.ll");
    /* truncated bitcode: the first half of a real module */
    opts.format = GPUCOMPILE_FORMAT_LLVM;
    CHECK(compile_path(saxpy, &t, &opts, &l, &o) == GPUCOMPILE_OK);
    if (o) {
        gpucompile_object *half = (gpucompile_object *)&t;
        opts.logger = t_logger(&l);
        opts.format = GPUCOMPILE_FORMAT_ISA;
        CHECK(gpucompile_compile_ir(o->data, o->size / 2, "half.bc", &t, &opts, &half) == GPUCOMPILE_ERROR_INVALID_INPUT);
        CHECK(half == NULL);
        CHECK_LOG(&l, "bitcode");
    }
    gpucompile_object_free(o);
    opts.logger = t_logger(&l);
    CHECK(gpucompile_compile_file("tests/data/does-not-exist.ll", &t, &opts, &o) == GPUCOMPILE_ERROR_IO);
    CHECK_LOG(&l, "does-not-exist.ll");
    CHECK(gpucompile_compile_ir(NULL, 0, NULL, &t, &opts, NULL) == GPUCOMPILE_ERROR_INVALID_ARGUMENT);
    CHECK(gpucompile_compile_module(NULL, &t, &opts, &o) == GPUCOMPILE_ERROR_INVALID_ARGUMENT);
    (void)bc; (void)n;
}

static void test_invalid_ir_is_refused(void) {
    /* A block without a terminator crashes codegen: the verifier must stop it first. */
    const char *ir = "target triple = \"nvptx64-nvidia-cuda\"\n"
                     "define ptx_kernel void @k(ptr %p) {\nentry:\n  store i32 1, ptr %p\n  br label %next\nnext:\n  store i32 2, ptr %p\n}\n";
    const char *ir2 = "define ptx_kernel void @k(i32 %a) {\n  %x = add i32 %a, %y\n  %y = add i32 %a, 1\n  ret void\n}\n";
    gpucompile_target t = nvptx("sm_80");
    gpucompile_object *o = NULL;
    t_log l;
    CHECK(compile_text(ir, &t, GPUCOMPILE_FORMAT_ISA, &l, &o) == GPUCOMPILE_ERROR_INVALID_INPUT);
    CHECK(o == NULL);
    CHECK(l.errors > 0);
    CHECK(compile_text(ir2, &t, GPUCOMPILE_FORMAT_ISA, &l, &o) == GPUCOMPILE_ERROR_INVALID_INPUT);
    CHECK_LOG(&l, "Instruction does not dominate all uses");
}

static void test_no_kernel_warns(void) {
    const char *ir = "define float @f(float %x) {\n  %y = fmul float %x, %x\n  ret float %y\n}\n";
    gpucompile_target t = nvptx("sm_80");
    gpucompile_object *o = NULL;
    t_log l;
    CHECK(compile_text(ir, &t, GPUCOMPILE_FORMAT_ISA, &l, &o) == GPUCOMPILE_OK);
    CHECK(l.warnings == 1);
    CHECK_LOG(&l, "no kernel");
    CHECK(o && o->num_kernels == 0);
    gpucompile_object_free(o);
}

static void test_unknown_and_foreign_intrinsics(void) {
    const char *unknown = "declare float @llvm.nvvm.no.such.thing(float)\n"
                          "define ptx_kernel void @k(ptr addrspace(1) %p) {\n  %v = load float, ptr addrspace(1) %p\n"
                          "  %r = call float @llvm.nvvm.no.such.thing(float %v)\n  store float %r, ptr addrspace(1) %p\n  ret void\n}\n";
    const char *foreign = "declare i32 @llvm.amdgcn.workitem.id.x()\n"
                          "define ptx_kernel void @k(ptr addrspace(1) %p) {\n  %i = call i32 @llvm.amdgcn.workitem.id.x()\n"
                          "  store i32 %i, ptr addrspace(1) %p\n  ret void\n}\n";
    gpucompile_target t = nvptx("sm_80");
    gpucompile_object *o = NULL;
    t_log l;
    CHECK(compile_text(unknown, &t, GPUCOMPILE_FORMAT_ISA, &l, &o) == GPUCOMPILE_ERROR_INVALID_INPUT);
    CHECK_LOG(&l, "llvm.nvvm.no.such.thing");
    CHECK(compile_text(foreign, &t, GPUCOMPILE_FORMAT_ISA, &l, &o) == GPUCOMPILE_ERROR_INVALID_INPUT);
    CHECK_LOG(&l, "llvm.amdgcn.workitem.id.x");
    CHECK(o == NULL);
}

static void test_unresolved_symbol(void) {
    const char *ir = "declare float @not_defined_anywhere(float)\n@g = external addrspace(1) global float\n"
                     "define ptx_kernel void @k(ptr addrspace(1) %p) {\n  %v = load float, ptr addrspace(1) @g\n"
                     "  %r = call float @not_defined_anywhere(float %v)\n  store float %r, ptr addrspace(1) %p\n  ret void\n}\n";
    gpucompile_target t = nvptx("sm_80");
    gpucompile_object *o = NULL;
    t_log l;
    CHECK(compile_text(ir, &t, GPUCOMPILE_FORMAT_ISA, &l, &o) == GPUCOMPILE_ERROR_UNRESOLVED);
    CHECK_LOG(&l, "undefined function 'not_defined_anywhere'");
    CHECK_LOG(&l, "undefined global 'g'");
}

static void test_opt_levels_differ(void) {
    gpucompile_target t0 = nvptx("sm_80"), t3 = nvptx("sm_80");
    gpucompile_options opts;
    gpucompile_object *a = NULL, *b = NULL;
    t_log l;
    memset(&opts, 0, sizeof opts);
    opts.format = GPUCOMPILE_FORMAT_ISA;
    t0.O = 0;
    t3.O = 3;
    CHECK(compile_path("tests/data/loop_nvptx.ll", &t0, &opts, &l, &a) == GPUCOMPILE_OK);
    CHECK(compile_path("tests/data/loop_nvptx.ll", &t3, &opts, &l, &b) == GPUCOMPILE_OK);
    if (a && b) {
        CHECK(a->size != b->size || memcmp(a->data, b->data, a->size) != 0);
        /* O3 unrolls the 64-iteration loop: more loads, and the O0 loop branch survives only at O0 */
        CHECK(strstr((char *)a->data, "bra") != NULL);
    }
    gpucompile_object_free(a);
    gpucompile_object_free(b);
}

static void test_per_function_cpu_is_stripped(void) {
    gpucompile_target t = nvptx("sm_80");
    gpucompile_options opts;
    gpucompile_object *o = NULL;
    t_log l;
    memset(&opts, 0, sizeof opts);
    opts.format = GPUCOMPILE_FORMAT_ISA;
    CHECK(compile_path("tests/data/cpu_attr_nvptx.ll", &t, &opts, &l, &o) == GPUCOMPILE_OK);
    if (o) CHECK_MSG(strstr((char *)o->data, ".target sm_80") != NULL, "%s", (char *)o->data);
    gpucompile_object_free(o);
}

static int build_lib(char *path, size_t n) {
    char cmd[1024];
    int st;
    char *out;
    snprintf(path, n, "%s/mylib.bc", tmpdir);
    snprintf(cmd, sizeof cmd, "llvm-as tests/data/mylib.ll -o %s 2>&1", path);
    out = t_sh(cmd, &st);
    free(out);
    return st == 0;
}

static void test_library_linked_only_when_needed_and_internal(void) {
    gpucompile_target t = nvptx("sm_80");
    gpucompile_options opts;
    gpucompile_object *o = NULL;
    t_log l;
    char lib[512];
    const char *links[1];
    if (!t_have("llvm-as")) SKIP("llvm-as is not installed");
    CHECK(build_lib(lib, sizeof lib));
    links[0] = lib;
    memset(&opts, 0, sizeof opts);
    opts.format = GPUCOMPILE_FORMAT_LLVM;
    opts.link = links;
    opts.num_link = 1;
    t.O = 0; /* keep the linked function visible: no inlining */
    CHECK(compile_path("tests/data/uses_lib_nvptx.ll", &t, &opts, &l, &o) == GPUCOMPILE_OK);
    if (o) {
        LLVMContextRef c = LLVMContextCreate();
        LLVMModuleRef m = NULL;
        char *msg = NULL;
        LLVMMemoryBufferRef mb = LLVMCreateMemoryBufferWithMemoryRangeCopy((const char *)o->data, o->size, "bc");
        CHECK(LLVMParseIRInContext(c, mb, &m, &msg) == 0);
        if (m) {
            LLVMValueRef used = LLVMGetNamedFunction(m, "mylib_scale");
            CHECK(used != NULL && !LLVMIsDeclaration(used));
            CHECK(used && LLVMGetLinkage(used) == LLVMInternalLinkage);
            CHECK(LLVMGetNamedFunction(m, "mylib_unused") == NULL);
            CHECK(LLVMGetLinkage(LLVMGetNamedFunction(m, "scale")) == LLVMExternalLinkage);
            LLVMDisposeModule(m);
        }
        LLVMContextDispose(c);
        gpucompile_object_free(o);
    }
    /* the same library through the target's `link` list, and a kernel that needs nothing */
    opts.link = NULL;
    opts.num_link = 0;
    t.link = links;
    t.num_link = 1;
    opts.format = GPUCOMPILE_FORMAT_ISA;
    CHECK(compile_path("tests/data/uses_lib_nvptx.ll", &t, &opts, &l, &o) == GPUCOMPILE_OK);
    if (o) CHECK(strstr((char *)o->data, "mylib_unused") == NULL);
    gpucompile_object_free(o);
    CHECK(compile_path(saxpy, &t, &opts, &l, &o) == GPUCOMPILE_OK);
    if (o) CHECK(strstr((char *)o->data, "mylib") == NULL);
    gpucompile_object_free(o);
    /* without it the symbol is unresolved; a bad library is an error naming its path */
    t.num_link = 0;
    CHECK(compile_path("tests/data/uses_lib_nvptx.ll", &t, &opts, &l, &o) == GPUCOMPILE_ERROR_UNRESOLVED);
    CHECK_LOG(&l, "mylib_scale");
    links[0] = "tests/data/mylib.ll"; /* text, not bitcode */
    t.num_link = 1;
    CHECK(compile_path("tests/data/uses_lib_nvptx.ll", &t, &opts, &l, &o) == GPUCOMPILE_ERROR_INVALID_INPUT);
    CHECK_LOG(&l, "tests/data/mylib.ll");
    links[0] = "tests/data/no-such-lib.bc";
    CHECK(compile_path("tests/data/uses_lib_nvptx.ll", &t, &opts, &l, &o) == GPUCOMPILE_ERROR_IO);
    CHECK_LOG(&l, "tests/data/no-such-lib.bc");
}

/* Hooks: called in pipeline order, and any of them can stop the compile. */
typedef struct hook_rec { char order[256]; int stop_at; } hook_rec;
static gpucompile_result rec(hook_rec *r, int id) {
    size_t n = strlen(r->order);
    snprintf(r->order + n, sizeof r->order - n, "%d", id);
    return r->stop_at == id ? GPUCOMPILE_ERROR_HOOK : GPUCOMPILE_OK;
}
static gpucompile_result h_initial(gpucompile_job *j, LLVMModuleRef m, void *u) { (void)j; (void)m; return rec((hook_rec *)u, 1); }
static gpucompile_result h_prelink(gpucompile_job *j, LLVMModuleRef m, void *u) { (void)j; (void)m; return rec((hook_rec *)u, 2); }
static gpucompile_result h_file(gpucompile_job *j, LLVMModuleRef m, const char *p, void *u) {
    (void)j; (void)m; (void)p; return rec((hook_rec *)u, 3);
}
static gpucompile_result h_postlink(gpucompile_job *j, LLVMModuleRef m, void *u) {
    (void)j; return LLVMGetNamedFunction(m, "mylib_scale") ? rec((hook_rec *)u, 4) : GPUCOMPILE_ERROR_HOOK;
}
static gpucompile_result h_opt(gpucompile_job *j, LLVMModuleRef m, void *u) { (void)j; (void)m; return rec((hook_rec *)u, 5); }
static gpucompile_result h_isa(gpucompile_job *j, const char *text, size_t n, void *u) {
    (void)j; return (n > 0 && strstr(text, ".entry")) ? rec((hook_rec *)u, 6) : GPUCOMPILE_ERROR_HOOK;
}

static void test_hooks_order_and_stop(void) {
    gpucompile_target t = nvptx("sm_80");
    gpucompile_options opts;
    gpucompile_hooks hooks;
    gpucompile_object *o = NULL;
    hook_rec r;
    t_log l;
    char lib[512];
    const char *links[1];
    int stop;
    if (!t_have("llvm-as")) SKIP("llvm-as is not installed");
    CHECK(build_lib(lib, sizeof lib));
    links[0] = lib;
    memset(&hooks, 0, sizeof hooks);
    hooks.initial_ir = h_initial;
    hooks.pre_link = h_prelink;
    hooks.bitcode_file = h_file;
    hooks.post_link = h_postlink;
    hooks.optimized_ir = h_opt;
    hooks.isa = h_isa;
    hooks.user_data = &r;
    memset(&opts, 0, sizeof opts);
    opts.hooks = &hooks;
    opts.link = links;
    opts.num_link = 1;
    opts.format = GPUCOMPILE_FORMAT_ISA;
    memset(&r, 0, sizeof r);
    CHECK(compile_path("tests/data/uses_lib_nvptx.ll", &t, &opts, &l, &o) == GPUCOMPILE_OK);
    CHECK_STR(r.order, "123456");
    gpucompile_object_free(o);
    for (stop = 1; stop <= 6; stop++) {
        char want[8];
        memset(&r, 0, sizeof r);
        r.stop_at = stop;
        o = NULL;
        CHECK(compile_path("tests/data/uses_lib_nvptx.ll", &t, &opts, &l, &o) == GPUCOMPILE_ERROR_HOOK);
        CHECK(o == NULL);
        CHECK_LOG(&l, "hook stopped the compile");
        memcpy(want, "123456", (size_t)stop);
        want[stop] = 0;
        CHECK_STR(r.order, want);
    }
}

/* load_bitcode_files replaces the default list of libraries. */
static const char *g_lib;
static gpucompile_result h_load(gpucompile_job *j, void *u) { (void)u; return gpucompile_job_add_library(j, g_lib); }

static void test_load_bitcode_files_hook(void) {
    gpucompile_target t = nvptx("sm_80");
    gpucompile_options opts;
    gpucompile_hooks hooks;
    gpucompile_object *o = NULL;
    t_log l;
    char lib[512];
    if (!t_have("llvm-as")) SKIP("llvm-as is not installed");
    CHECK(build_lib(lib, sizeof lib));
    g_lib = lib;
    memset(&hooks, 0, sizeof hooks);
    hooks.load_bitcode_files = h_load;
    memset(&opts, 0, sizeof opts);
    opts.hooks = &hooks;
    opts.format = GPUCOMPILE_FORMAT_ISA;
    CHECK(compile_path("tests/data/uses_lib_nvptx.ll", &t, &opts, &l, &o) == GPUCOMPILE_OK);
    gpucompile_object_free(o);
}

/* A third backend through the table alone: x86-64 ELF objects from the same pipeline. */
static void x86_init(void) {
    LLVMInitializeX86TargetInfo();
    LLVMInitializeX86Target();
    LLVMInitializeX86TargetMC();
    LLVMInitializeX86AsmPrinter();
}

static void test_custom_target(void) {
    gpucompile_backend b;
    gpucompile_target t = gpucompile_target_defaults(GPUCOMPILE_TARGET_CUSTOM);
    gpucompile_object *o = NULL;
    t_log l;
    char text[256];
    const char *ir = "define i32 @add(i32 %a, i32 %b) {\n  %c = add i32 %a, %b\n  ret i32 %c\n}\n";
    memset(&b, 0, sizeof b);
    b.name = "x86";
    b.kind = GPUCOMPILE_TARGET_CUSTOM;
    b.intrinsic_prefixes = "x86";
    b.initialize = x86_init;
    b.bin_from = LLVMObjectFile;
    t.backend = &b;
    t.custom_name = "test.x86";
    t.triple = "x86_64-pc-linux-gnu";
    t.chip = "x86-64";
    t.features = "";
    CHECK(compile_text(ir, &t, GPUCOMPILE_FORMAT_BIN, &l, &o) == GPUCOMPILE_OK);
    if (o) {
        CHECK(o->size > 64 && memcmp(o->data, "\x7f" "ELF", 4) == 0);
        CHECK(o->data[18] == 62 && o->data[19] == 0); /* EM_X86_64 */
        CHECK(o->num_kernels == 1 && strcmp(o->kernels[0].name, "add") == 0);
        gpucompile_target_print(&t, text, sizeof text);
        CHECK_STR(o->target, text);
    }
    gpucompile_object_free(o);
    CHECK(compile_text(ir, &t, GPUCOMPILE_FORMAT_ISA, &l, &o) == GPUCOMPILE_OK);
    if (o) CHECK(strstr((char *)o->data, "add:") != NULL);
    gpucompile_object_free(o);
    t.backend = NULL;
    CHECK(compile_text(ir, &t, GPUCOMPILE_FORMAT_ISA, &l, &o) == GPUCOMPILE_ERROR_UNSUPPORTED);
}

static void test_caller_module_is_not_modified(void) {
    LLVMContextRef c = LLVMContextCreate();
    LLVMModuleRef m = NULL;
    LLVMMemoryBufferRef mb;
    gpucompile_target t = nvptx("sm_80");
    gpucompile_options opts;
    gpucompile_object *o = NULL;
    t_log l;
    size_t n;
    char *text = t_read("tests/data/cpu_attr_nvptx.ll", &n), *before, *after;
    if (!text) SKIP("test data missing");
    mb = LLVMCreateMemoryBufferWithMemoryRangeCopy(text, n, "cpu_attr");
    free(text);
    CHECK(LLVMParseIRInContext(c, mb, &m, NULL) == 0);
    if (!m) { LLVMContextDispose(c); return; }
    before = LLVMPrintModuleToString(m);
    memset(&opts, 0, sizeof opts);
    opts.format = GPUCOMPILE_FORMAT_ISA;
    opts.logger = t_logger(&l);
    CHECK(gpucompile_compile_module(m, &t, &opts, &o) == GPUCOMPILE_OK);
    after = LLVMPrintModuleToString(m);
    CHECK_STR(before, after);
    CHECK(o && strstr((char *)o->data, ".entry k") != NULL);
    LLVMDisposeMessage(before);
    LLVMDisposeMessage(after);
    gpucompile_object_free(o);
    LLVMDisposeModule(m);
    LLVMContextDispose(c);
}

static void test_fatbin_refused_for_custom(void) {
    gpucompile_backend b;
    gpucompile_target t = gpucompile_target_defaults(GPUCOMPILE_TARGET_CUSTOM);
    gpucompile_object *o = NULL;
    t_log l;
    memset(&b, 0, sizeof b);
    b.name = "x86";
    b.kind = GPUCOMPILE_TARGET_CUSTOM;
    b.initialize = x86_init;
    t.backend = &b;
    t.triple = "x86_64-pc-linux-gnu";
    t.chip = "x86-64";
    CHECK(compile_text("define void @f() {\n ret void\n}\n", &t, GPUCOMPILE_FORMAT_FATBIN, &l, &o) == GPUCOMPILE_ERROR_UNSUPPORTED);
    CHECK_LOG(&l, "fatbin");
}

/* Our PTX equals opt -O2 + llc on the same module, comments and blank lines aside. */
static char *strip_comments(const char *s) {
    char *r = (char *)malloc(strlen(s) + 2), *w = r;
    while (*s) {
        const char *e = strchr(s, '\n'), *c;
        size_t n = e ? (size_t)(e - s) : strlen(s);
        c = strstr(s, "//");
        if (c && c < s + n) n = (size_t)(c - s);
        while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r')) n--;
        if (n) { memcpy(w, s, n); w += n; *w++ = '\n'; }
        s = e ? e + 1 : s + strlen(s);
    }
    *w = 0;
    return r;
}

static void test_ptx_equals_opt_llc(void) {
    const char *kernels[] = {"examples/kernels/saxpy_nvptx.ll", "tests/data/loop_nvptx.ll"};
    size_t i;
    for (i = 0; i < sizeof kernels / sizeof kernels[0]; i++) {
        gpucompile_target t = nvptx("sm_80");
        gpucompile_options opts;
        gpucompile_object *o = NULL;
        t_log l;
        char cmd[2048], ver[16] = "";
        const char *v;
        int st;
        char *ref, *a, *b;
        memset(&opts, 0, sizeof opts);
        opts.format = GPUCOMPILE_FORMAT_ISA;
        CHECK(compile_path(kernels[i], &t, &opts, &l, &o) == GPUCOMPILE_OK);
        if (!o) continue;
        v = strstr((char *)o->data, ".version ");
        if (v) sscanf(v + 9, "%15[0-9.]", ver);
        {   /* "7.0" -> "70" for -mattr=+ptx70 */
            char digits[16]; size_t k, d = 0;
            for (k = 0; ver[k] && d < sizeof digits - 1; k++) if (ver[k] != '.') digits[d++] = ver[k];
            digits[d] = 0;
            snprintf(cmd, sizeof cmd, "opt -O2 -mtriple=nvptx64-nvidia-cuda -mcpu=sm_80 %s -o - | llc -mtriple=nvptx64-nvidia-cuda -mcpu=sm_80 -mattr=+ptx%s -o - 2>&1",
                     kernels[i], digits);
        }
        ref = t_sh(cmd, &st);
        CHECK(st == 0);
        a = strip_comments((char *)o->data);
        b = strip_comments(ref);
        CHECK_MSG(strcmp(a, b) == 0, "%s: PTX differs from opt + llc", kernels[i]);
        free(a); free(b); free(ref);
        gpucompile_object_free(o);
    }
}

/* The isolated mode: the same object from a child process; a child's death is an error. */
static void test_isolated_compile(void) {
    gpucompile_target t = nvptx("sm_80");
    gpucompile_options opts;
    gpucompile_object *a = NULL, *b = NULL;
    t_log l;
    char script[512], cmd[1024];
    FILE *f;
    const char *cli = t_gpucompile();
    if (access(cli, X_OK) != 0) SKIP("%s is not built", cli);
    memset(&opts, 0, sizeof opts);
    opts.format = GPUCOMPILE_FORMAT_ISA;
    CHECK(compile_path(saxpy, &t, &opts, &l, &a) == GPUCOMPILE_OK);
    opts.isolate = cli;
    CHECK(compile_path(saxpy, &t, &opts, &l, &b) == GPUCOMPILE_OK);
    if (a && b) {
        CHECK(a->size == b->size && memcmp(a->data, b->data, a->size) == 0);
        CHECK(b->num_kernels == 1 && strcmp(b->kernels[0].name, "saxpy") == 0 && b->kernels[0].num_params == 4);
        CHECK_STR(a->target, b->target);
    }
    gpucompile_object_free(a);
    gpucompile_object_free(b);
    /* errors come back as diagnostics */
    CHECK(compile_text("define void @f( {", &t, GPUCOMPILE_FORMAT_ISA, &l, &a) == GPUCOMPILE_ERROR_INVALID_INPUT);
    opts.logger = t_logger(&l);
    CHECK(gpucompile_compile_ir("define void @f( {", 17, "bad.ll", &t, &opts, &a) == GPUCOMPILE_ERROR_INVALID_INPUT); /* the same result as in process */
    CHECK_LOG(&l, "invalid LLVM IR");
    /* a compiler that dies by a signal */
    snprintf(script, sizeof script, "%s/dies.sh", tmpdir);
    f = fopen(script, "w");
    fprintf(f, "#!/bin/sh\nkill -SEGV $$\n");
    fclose(f);
    snprintf(cmd, sizeof cmd, "chmod +x %s", script);
    free(t_sh(cmd, NULL));
    opts.isolate = script;
    opts.logger = t_logger(&l);
    CHECK(gpucompile_compile_file(saxpy, &t, &opts, &a) == GPUCOMPILE_ERROR_LLVM);
    CHECK(a == NULL);
    CHECK_LOG(&l, "died with signal 11");
    /* hooks cannot cross a process boundary */
    {
        gpucompile_hooks hooks;
        memset(&hooks, 0, sizeof hooks);
        opts.hooks = &hooks;
        opts.isolate = cli;
        CHECK(compile_path(saxpy, &t, &opts, &l, &a) == GPUCOMPILE_ERROR_INVALID_ARGUMENT);
    }
}

static void test_strings(void) {
    int i;
    for (i = 0; i < GPUCOMPILE_RESULT_COUNT; i++) CHECK(gpucompile_result_string((gpucompile_result)i)[0] != 0);
    CHECK(gpucompile_result_string((gpucompile_result)9999) != NULL);
    CHECK_STR(gpucompile_result_string(GPUCOMPILE_OK), "success");
    CHECK(gpucompile_format_from_string("offloading") == GPUCOMPILE_FORMAT_LLVM);
    CHECK(gpucompile_format_from_string("assembly") == GPUCOMPILE_FORMAT_ISA);
    CHECK(gpucompile_format_from_string("binary") == GPUCOMPILE_FORMAT_BIN);
    CHECK(gpucompile_format_from_string("fatbinary") == GPUCOMPILE_FORMAT_FATBIN);
    CHECK(gpucompile_format_from_string("nope") == GPUCOMPILE_FORMAT_DEFAULT);
    CHECK_STR(gpucompile_stage_string(GPUCOMPILE_STAGE_OPTIMIZE), "optimize");
}

/* gpucompile_buf_shell_quote, which writes repro.sh's command lines (the core's and the NVPTX
   backend's): a plain word as it is, anything else in '...' that a shell reads back as it was. */
static void test_shell_quote(void) {
    static const char *const words[][2] = {
        {"-mcpu=sm_80", "-mcpu=sm_80"}, {"a/b_c.d,e+f@g%h:i", "a/b_c.d,e+f@g%h:i"}, {"", "''"},
        {"with space", "'with space'"}, {"it's", "'it'\\''s'"}, {"$HOME;*", "'$HOME;*'"},
    };
    size_t i;
    for (i = 0; i < sizeof words / sizeof words[0]; i++) {
        gpucompile_buf b;
        memset(&b, 0, sizeof b);
        gpucompile_buf_shell_quote(&b, words[i][0]);
        CHECK(!b.oom);
        CHECK_STR(b.data, words[i][1]);
        gpucompile_free(b.a, b.data);
    }
}

int main(void) {
    char *d;
    snprintf(tmpdir, sizeof tmpdir, "%s/gpucompile-test-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    d = mkdtemp(tmpdir);
    if (!d) { printf("cannot create a temp dir\n"); return 1; }
    RUN(test_strings);
    RUN(test_shell_quote);
    RUN(test_isa_and_llvm_formats);
    RUN(test_bad_inputs);
    RUN(test_invalid_ir_is_refused);
    RUN(test_no_kernel_warns);
    RUN(test_unknown_and_foreign_intrinsics);
    RUN(test_unresolved_symbol);
    RUN(test_opt_levels_differ);
    RUN(test_per_function_cpu_is_stripped);
    RUN(test_library_linked_only_when_needed_and_internal);
    RUN(test_hooks_order_and_stop);
    RUN(test_load_bitcode_files_hook);
    RUN(test_custom_target);
    RUN(test_caller_module_is_not_modified);
    RUN(test_fatbin_refused_for_custom);
    RUN(test_ptx_equals_opt_llc);
    RUN(test_isolated_compile);
    {
        char cmd[512];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
        free(t_sh(cmd, NULL));
    }
    return TEST_END("pipeline");
}
