/* The bad-input battery through the API, for what the command line cannot reach:
   1 MiB target texts (argv holds at most 128 KiB), NUL bytes inside texts with an explicit
   length, deep nesting, NULL arguments, a caller's module whose block lacks a terminator, and
   silence: with no logger, nothing at all reaches stderr or stdout. */
#include "test.h"
#include <llvm-c/Analysis.h>
#include <llvm-c/IRReader.h>
#include <fcntl.h>
#include <unistd.h>

#define MIB (1u << 20)

/* A 1 MiB text: prefix, then fill repeated, then suffix. */
static char *big(const char *prefix, const char *fill, const char *suffix) {
    size_t np = strlen(prefix), nf = strlen(fill), ns = strlen(suffix), n = np;
    char *s = (char *)malloc(MIB + np + ns + nf + 1);
    if (!s) return NULL;
    memcpy(s, prefix, np);
    while (n < MIB) { memcpy(s + n, fill, nf); n += nf; }
    memcpy(s + n, suffix, ns + 1);
    return s;
}

/* Parses (and when that works, verifies) text: returns the first failing result. */
static gpucompile_result parse_verify(const char *text, size_t len, t_log *l) {
    gpucompile_target *t = NULL;
    gpucompile_logger g = t_logger(l);
    gpucompile_result r = gpucompile_target_parse(text, len, NULL, &g, &t);
    if (r == GPUCOMPILE_OK) r = gpucompile_target_verify(t, &g);
    else CHECK(t == NULL);
    gpucompile_target_free(t);
    return r;
}

static void test_huge_target_texts(void) {
    static const char *const cases[][3] = {
        {"#gpu.nvptx<chip = \"", "a", "\">"},            /* a 1 MiB chip */
        {"#gpu.amdgpu<features = \"", "+xnack,", "\">"}, /* a 1 MiB feature list: valid */
        {"#gpu.nvptx<flags = {", "f, ", "g}>"},          /* ~340000 flags */
        {"#gpu.nvptx<link = [", "\"a.bc\", ", "\"b\"]>"}, /* valid (the files are read later) */
        {"#gpu.nvptx<link = ", "[", "]>"},               /* 1 MiB of nesting */
        {"#gpu.nvptx<flags = ", "{", "}>"},
        {"#gpu.nvptx<", "O = 1, ", "O = 2>"},            /* a parameter repeated */
        {"#gpu.nvptx<chip = \"sm_80\"", " ", ">"},       /* 1 MiB of blanks: valid */
        {"", "#gpu.nvptx<", ""},
        {"#gpu.nvptx<O = ", "9", ">"},                   /* an integer of a million digits */
    };
    size_t i;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *s = big(cases[i][0], cases[i][1], cases[i][2]);
        t_log l;
        gpucompile_result r;
        if (!s) continue;
        r = parse_verify(s, (size_t)-1, &l);
        if (i == 1 || i == 3 || i == 7) {
            CHECK_MSG(r == GPUCOMPILE_OK, "case %zu: %.300s", i, l.text);
        } else {
            CHECK_MSG(r == GPUCOMPILE_ERROR_PARSE || r == GPUCOMPILE_ERROR_INVALID_TARGET, "case %zu: result %d", i, (int)r);
            CHECK_MSG(l.errors > 0, "case %zu: no message", i);
        }
        CHECK_MSG(l.len < sizeof l.text - 1, "case %zu: the messages are not bounded", i);
        free(s);
    }
}

static void test_nul_bytes_in_texts(void) {
    static const char text[] = "#gpu.nvptx<chip = \"sm_80\0\">";
    t_log l;
    gpucompile_binary *b = NULL;
    /* with its length, the NUL is inside the text: it must be refused, not read as the end */
    CHECK(parse_verify(text, sizeof text - 1, &l) != GPUCOMPILE_OK);
    CHECK(parse_verify("#gpu.nvptx\0garbage", 18, &l) != GPUCOMPILE_OK);
    CHECK(parse_verify("#gpu.nvptx", 0, &l) != GPUCOMPILE_OK);
    CHECK(parse_verify("", (size_t)-1, &l) != GPUCOMPILE_OK);
    static const char bin[] = "gpu.binary @a [#gpu.object<#gpu.nvptx, \"x\">]\0 junk";
    CHECK(gpucompile_binary_parse(bin, sizeof bin - 1, NULL, NULL, &b) != GPUCOMPILE_OK);
    CHECK(b == NULL);
    CHECK(gpucompile_binary_parse(bin, strlen(bin), NULL, NULL, &b) == GPUCOMPILE_OK);
    gpucompile_binary_free(b);
}

static void test_deep_binary_text(void) {
    char *s = big("gpu.binary @a [", "#gpu.object<", "");
    gpucompile_binary *b = NULL;
    t_log l;
    gpucompile_logger g = t_logger(&l);
    if (!s) return;
    CHECK(gpucompile_binary_parse(s, (size_t)-1, NULL, &g, &b) != GPUCOMPILE_OK);
    CHECK(b == NULL && l.errors > 0);
    free(s);
    s = big("gpu.binary @a [#gpu.object<#gpu.nvptx, \"", "\\00", "\">]");
    if (!s) return;
    CHECK(gpucompile_binary_parse(s, (size_t)-1, NULL, NULL, &b) == GPUCOMPILE_OK);
    CHECK(b && b->num_objects == 1 && b->objects[0]->size > 300000);
    gpucompile_binary_free(b);
    free(s);
}

static void test_null_arguments(void) {
    gpucompile_target t = gpucompile_target_defaults(GPUCOMPILE_TARGET_NVPTX);
    gpucompile_object *o = (gpucompile_object *)&t;
    gpucompile_target *pt = (gpucompile_target *)&t;
    gpucompile_binary *b = (gpucompile_binary *)&t;
    char buf[8];
    CHECK(gpucompile_compile_ir(NULL, 10, NULL, &t, NULL, &o) != GPUCOMPILE_OK && o == NULL);
    o = (gpucompile_object *)&t;
    CHECK(gpucompile_compile_ir("x", 1, NULL, NULL, NULL, &o) == GPUCOMPILE_ERROR_INVALID_ARGUMENT && o == NULL);
    CHECK(gpucompile_compile_file(NULL, &t, NULL, &o) != GPUCOMPILE_OK && o == NULL);
    CHECK(gpucompile_compile_module(NULL, &t, NULL, &o) == GPUCOMPILE_ERROR_INVALID_ARGUMENT && o == NULL);
    CHECK(gpucompile_target_parse(NULL, 5, NULL, NULL, &pt) != GPUCOMPILE_OK && pt == NULL);
    CHECK(gpucompile_target_parse("#gpu.nvptx", (size_t)-1, NULL, NULL, NULL) != GPUCOMPILE_OK);
    CHECK(gpucompile_target_verify(NULL, NULL) != GPUCOMPILE_OK);
    CHECK(gpucompile_target_print(&t, NULL, 0) == strlen("#gpu.nvptx"));
    CHECK(gpucompile_target_print(&t, buf, sizeof buf) == strlen("#gpu.nvptx") && strlen(buf) == sizeof buf - 1);
    CHECK(gpucompile_object_deserialize(NULL, 0, NULL, &o) != GPUCOMPILE_OK && o == NULL);
    CHECK(gpucompile_object_deserialize("GPUOBJ02", 8, NULL, &o) != GPUCOMPILE_OK && o == NULL);
    CHECK(gpucompile_binary_parse(NULL, 0, NULL, NULL, &b) != GPUCOMPILE_OK && b == NULL);
    b = (gpucompile_binary *)&t;
    CHECK(gpucompile_binary_read_offload(NULL, 0, NULL, NULL, NULL, &b) != GPUCOMPILE_OK && b == NULL);
    CHECK(gpucompile_binary_read(NULL, 4, NULL, NULL, NULL, &b) != GPUCOMPILE_OK && b == NULL);
    gpucompile_target_free(NULL);
    gpucompile_object_free(NULL);
    gpucompile_binary_free(NULL);
    gpucompile_free(NULL, NULL);
    CHECK(gpucompile_result_string((gpucompile_result)-5) != NULL && gpucompile_result_string((gpucompile_result)999) != NULL);
    CHECK(gpucompile_stage_string((gpucompile_stage)999) != NULL);
}

/* A caller's module that the IR parser would never produce: a block without a terminator,
   built with the C API (codegen segfaults on it: it must be refused). */
static void test_module_without_terminator(void) {
    LLVMContextRef c = LLVMContextCreate();
    LLVMModuleRef m = LLVMModuleCreateWithNameInContext("noterm", c);
    LLVMTypeRef i32 = LLVMInt32TypeInContext(c);
    LLVMTypeRef fty = LLVMFunctionType(LLVMVoidTypeInContext(c), &i32, 1, 0);
    LLVMValueRef f = LLVMAddFunction(m, "k", fty);
    LLVMBuilderRef b = LLVMCreateBuilderInContext(c);
    gpucompile_target t = gpucompile_target_defaults(GPUCOMPILE_TARGET_NVPTX);
    gpucompile_target a = gpucompile_target_defaults(GPUCOMPILE_TARGET_AMDGPU);
    gpucompile_options opts;
    gpucompile_object *o = NULL;
    t_log l;
    LLVMSetFunctionCallConv(f, 71); /* ptx_kernel */
    LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(c, f, "entry"));
    LLVMBuildAdd(b, LLVMGetParam(f, 0), LLVMConstInt(i32, 1, 0), "x");
    memset(&opts, 0, sizeof opts);
    opts.format = GPUCOMPILE_FORMAT_ISA;
    opts.logger = t_logger(&l);
    CHECK(gpucompile_compile_module(m, &t, &opts, &o) == GPUCOMPILE_ERROR_INVALID_INPUT && o == NULL);
    CHECK(l.errors > 0);
    LLVMSetFunctionCallConv(f, 91); /* amdgpu_kernel */
    opts.logger = t_logger(&l);
    CHECK(gpucompile_compile_module(m, &a, &opts, &o) == GPUCOMPILE_ERROR_INVALID_INPUT && o == NULL);
    CHECK(l.errors > 0);
    LLVMDisposeBuilder(b);
    LLVMDisposeModule(m);
    LLVMContextDispose(c);
}

/* Runs fn with fds 1 and 2 sent to a file; returns what was written there (malloc'd). */
static char *captured(void (*fn)(void)) {
    char path[] = "/tmp/gpucompile-test-XXXXXX";
    int fd = mkstemp(path), out, err;
    char *text;
    if (fd < 0) return NULL;
    fflush(stdout);
    fflush(stderr);
    out = dup(1);
    err = dup(2);
    dup2(fd, 1);
    dup2(fd, 2);
    fn();
    fflush(stdout);
    fflush(stderr);
    dup2(out, 1);
    dup2(err, 2);
    close(out);
    close(err);
    close(fd);
    text = t_read(path, NULL);
    remove(path);
    return text;
}

static int silent_failures;
/* Failing compiles, with no logger: each must fail, and print nothing. */
static void failing_compiles(void) {
    static const char *const irs[] = {
        "define void @f( {",
        "declare void @llvm.gpucompile.nosuch()\ndefine ptx_kernel void @k() {\n  call void @llvm.gpucompile.nosuch()\n  ret void\n}\n",
        "declare i32 @llvm.amdgcn.workitem.id.x()\ndefine ptx_kernel void @k(ptr %p) {\n  %x = call i32 @llvm.amdgcn.workitem.id.x()\n"
        "  store i32 %x, ptr %p\n  ret void\n}\n",
        "define ptx_kernel void @\"a-b\"() {\n  ret void\n}\n",
        "declare void @g()\ndefine ptx_kernel void @k() {\n  call void @g()\n  ret void\n}\n",
    };
    static const char *const targets[] = {"#gpu.nvptx<chip = \"sm_999\">", "#gpu.amdgpu<chip = \"gfx9999\">",
                                          "#gpu.nvptx<features = \"+foo\">", "#gpu.nvptx<O = 7>"};
    gpucompile_target nv = gpucompile_target_defaults(GPUCOMPILE_TARGET_NVPTX);
    gpucompile_target amd = gpucompile_target_defaults(GPUCOMPILE_TARGET_AMDGPU);
    gpucompile_options opts;
    size_t i;
    memset(&opts, 0, sizeof opts);
    opts.format = GPUCOMPILE_FORMAT_ISA;
    for (i = 0; i < sizeof irs / sizeof irs[0]; i++) {
        gpucompile_object *o = NULL;
        if (gpucompile_compile_ir(irs[i], strlen(irs[i]), "bad.ll", &nv, &opts, &o) == GPUCOMPILE_OK) silent_failures++;
        gpucompile_object_free(o);
    }
    { /* a ptx_kernel for AMDGPU: LLVM 19 would abort */
        gpucompile_object *o = NULL;
        const char *k = "define ptx_kernel void @k() {\n  ret void\n}\n";
        if (gpucompile_compile_ir(k, strlen(k), "k.ll", &amd, &opts, &o) == GPUCOMPILE_OK) silent_failures++;
        gpucompile_object_free(o);
    }
    for (i = 0; i < sizeof targets / sizeof targets[0]; i++) {
        gpucompile_target *t = NULL;
        gpucompile_object *o = NULL;
        const char *k = "define ptx_kernel void @k() {\n  ret void\n}\n";
        if (gpucompile_target_parse(targets[i], (size_t)-1, NULL, NULL, &t) != GPUCOMPILE_OK) continue;
        if (gpucompile_compile_ir(k, strlen(k), "k.ll", t, &opts, &o) == GPUCOMPILE_OK) silent_failures++;
        gpucompile_object_free(o);
        gpucompile_target_free(t);
    }
    { /* a tool that fails, and one that does not exist */
        gpucompile_target a = gpucompile_target_defaults(GPUCOMPILE_TARGET_AMDGPU);
        gpucompile_tool_path tp;
        gpucompile_object *o = NULL;
        char *k = t_read("examples/kernels/saxpy_amdgpu.ll", NULL);
        tp.name = "ld.lld";
        tp.path = "/bin/false";
        opts.tools = &tp;
        opts.num_tools = 1;
        opts.format = GPUCOMPILE_FORMAT_BIN;
        if (k && gpucompile_compile_ir(k, strlen(k), "saxpy.ll", &a, &opts, &o) == GPUCOMPILE_OK) silent_failures++;
        gpucompile_object_free(o);
        o = NULL;
        tp.path = "/nonexistent/ld.lld";
        if (k && gpucompile_compile_ir(k, strlen(k), "saxpy.ll", &a, &opts, &o) == GPUCOMPILE_OK) silent_failures++;
        gpucompile_object_free(o);
        free(k);
    }
}

static void test_silent_without_logger(void) {
    char *text;
    silent_failures = 0;
    text = captured(failing_compiles);
    CHECK(silent_failures == 0);
    CHECK_MSG(text && text[0] == 0, "printed: %.600s", text ? text : "(capture failed)");
    free(text);
}

/* LLVM prints unknown AMDGPU features on stderr, bypassing every handler: they must be refused
   before LLVM sees them. */
static void amdgpu_unknown_feature(void) {
    gpucompile_target a = gpucompile_target_defaults(GPUCOMPILE_TARGET_AMDGPU);
    gpucompile_options opts;
    gpucompile_object *o = NULL;
    const char *k = "define amdgpu_kernel void @k() {\n  ret void\n}\n";
    a.features = "+foo";
    memset(&opts, 0, sizeof opts);
    opts.format = GPUCOMPILE_FORMAT_ISA;
    gpucompile_compile_ir(k, strlen(k), "k.ll", &a, &opts, &o);
    gpucompile_object_free(o);
}

static void test_silent_amdgpu_feature(void) {
    char *text = captured(amdgpu_unknown_feature);
    int printed = text && strstr(text, "not a recognized feature") != NULL;
    free(text);
    CHECK_MSG(!printed, "LLVM printed \"'+foo' is not a recognized feature\" on stderr");
}

int main(void) {
    (void)t_sh;
    RUN(test_huge_target_texts);
    RUN(test_nul_bytes_in_texts);
    RUN(test_deep_binary_text);
    RUN(test_null_arguments);
    RUN(test_module_without_terminator);
    RUN(test_silent_without_logger);
    RUN(test_silent_amdgpu_feature);
    return TEST_END("battery");
}
