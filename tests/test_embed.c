/* Host embedding and launch code: host modules made by gpucompile_embed_binary are verified,
   compiled by llc for x86-64, linked with a test double of the mgpu* runtime
   (tests/data/embed_double.c) and run; the calls they make are compared line by line, the loaded
   bytes byte by byte. Also: mlir-translate's launch of the same binary makes the same calls (but
   loads around each launch), two threads launching first load once, and our CUDA runtime
   against the toolkit's stub libcuda reports a clean error. */
#define _POSIX_C_SOURCE 200809L
#include "test.h"
#include <stdlib.h>
#include <unistd.h>
#include <llvm-c/Analysis.h>
#include <llvm-c/IRReader.h>

static char dir[256];          /* this run's scratch directory */
static int have_tools;         /* llc and cc */

/* 17 bytes, the same as tests/data/embed_launch.mlir's object */
static const char fake_cubin[] = "\x7f" "ELF\x02\x01\x00" "fake cubin";
#define FAKE_SIZE 17

static gpucompile_object *compile_saxpy(gpucompile_format format) {
    gpucompile_target t = gpucompile_target_defaults(GPUCOMPILE_TARGET_NVPTX);
    gpucompile_options o;
    gpucompile_object *obj = NULL;
    memset(&o, 0, sizeof o);
    o.format = format;
    t.chip = "sm_80";
    CHECK(gpucompile_compile_file("examples/kernels/saxpy_nvptx.ll", &t, &o, &obj) == GPUCOMPILE_OK);
    return obj;
}

static gpucompile_object *fake_object(const char *target) {
    gpucompile_object *obj = NULL;
    CHECK(gpucompile_object_create(target, GPUCOMPILE_FORMAT_BIN, fake_cubin, FAKE_SIZE, NULL, &obj) == GPUCOMPILE_OK);
    if (!obj) return NULL;
    CHECK(gpucompile_object_add_kernel(obj, "saxpy") == GPUCOMPILE_OK);
    if (obj->num_kernels == 1) obj->kernels[0].num_params = 4; /* what a compile would have found */
    return obj;
}

static gpucompile_binary *binary_of(const char *name, gpucompile_object *a, gpucompile_object *b) {
    gpucompile_binary *bin = NULL;
    CHECK(gpucompile_binary_create(name, NULL, &bin) == GPUCOMPILE_OK);
    if (bin && a) CHECK(gpucompile_binary_add(bin, a) == GPUCOMPILE_OK);
    if (bin && b) CHECK(gpucompile_binary_add(bin, b) == GPUCOMPILE_OK);
    return bin;
}

/* Writes the host module to dir/NAME.ll; checks it verifies (done by the writer) and that llc
   turns it into an x86-64 object. */
static int write_host(const gpucompile_binary *bin, const char *name, t_log *log) {
    gpucompile_embed_options eo;
    char path[512], cmd[2048];
    memset(&eo, 0, sizeof eo);
    eo.logger = t_logger(log);
    snprintf(path, sizeof path, "%s/%s.ll", dir, name);
    if (gpucompile_write_host_module(bin, "x86_64-unknown-linux-gnu", path, &eo) != GPUCOMPILE_OK) return 0;
    snprintf(cmd, sizeof cmd, "llc -O2 -filetype=obj -relocation-model=pic %s/%s.ll -o %s/%s.o 2>&1", dir, name, dir, name);
    return t_sh_ok(cmd);
}

/* Links dir/NAME.o with the double and the driver (defines: -D...), runs it; its trace. */
static char *run_with_double(const char *name, const char *defines) {
    char cmd[4096];
    int st;
    char *out;
    snprintf(cmd, sizeof cmd, "cc -std=c11 -w %s -o %s/%s.prog %s/%s.o tests/data/embed_double.c tests/data/embed_main.c -lpthread 2>&1",
             defines, dir, name, dir, name);
    if (!t_sh_ok(cmd)) return NULL;
    snprintf(cmd, sizeof cmd, "rm -f %s/load*.bin; EMBED_DUMP=%s %s/%s.prog", dir, dir, dir, name);
    out = t_sh(cmd, &st);
    CHECK_MSG(st == 0, "%s exited with %d", name, st);
    return out;
}

static int same_file_bytes(const char *path, const void *data, size_t size) {
    size_t n = 0;
    char *d = t_read(path, &n);
    int same = d && n == size && memcmp(d, data, size) == 0;
    if (!same) printf("  %s: %zu bytes, expected %zu\n", path, d ? n : 0, size);
    free(d);
    return same;
}

static const char *calls_two_launches =
    "mgpuModuleGetFunction M1 saxpy -> F1\n"
    "mgpuLaunchKernel F1 grid=3,2,1 block=64,1,1 smem=16 stream=STREAM args=ARGS extra=null count=4 values=[2.5,X,Y,100]\n"
    "mgpuStreamCreate -> S1\n"
    "mgpuLaunchKernel F1 grid=5,1,1 block=128,1,1 smem=0 stream=S1 args=ARGS extra=null count=4 values=[2.5,X,Y,100]\n"
    "mgpuStreamSynchronize S1\n"
    "mgpuStreamDestroy S1\n"
    "main returns\n"
    "mgpuModuleUnload M1\n";

/* The default handler: the first object, PTX, loaded once through the JIT (with the target's O),
   NUL-terminated, unloaded once at exit. */
static void test_select_first_ptx(void) {
    gpucompile_object *ptx, *bc;
    gpucompile_binary *bin;
    char expect[4096], path[512];
    char *trace;
    t_log log;
    if (!have_tools) SKIP("llc or cc missing");
    ptx = compile_saxpy(GPUCOMPILE_FORMAT_ISA);
    bc = compile_saxpy(GPUCOMPILE_FORMAT_LLVM);
    bin = binary_of("embtest", ptx, bc);
    if (!ptx || !bc || !bin) return;
    CHECK(write_host(bin, "first", &log));
    {
        char cmd[1024];
        char *ir;
        int st;
        /* MLIR's form of the constant: internal, align 8, the PTX and a NUL */
        snprintf(cmd, sizeof cmd, "grep -c '^@embtest_bin_cst = internal constant \\[%zu x i8\\] c\"//.*\\\\00\", align 8$' %s/first.ll",
                 ptx->size + 1, dir);
        ir = t_sh(cmd, &st);
        CHECK_MSG(st == 0 && atoi(ir) == 1, "%s", ir);
        free(ir);
        snprintf(cmd, sizeof cmd, "grep -c '@llvm.global_dtors = appending global .*@embtest_unload' %s/first.ll", dir);
        ir = t_sh(cmd, &st);
        CHECK_MSG(st == 0 && atoi(ir) == 1, "%s", ir);
        free(ir);
    }
    trace = run_with_double("first", "-DLAUNCH=embtest_saxpy_launch");
    snprintf(expect, sizeof expect, "mgpuModuleLoadJIT strlen=%zu opt=2 -> M1\n%s", ptx->size, calls_two_launches);
    CHECK_STR(trace, expect);
    snprintf(path, sizeof path, "%s/load1.bin", dir);
    CHECK(same_file_bytes(path, ptx->data, ptx->size));
    free(trace);
    gpucompile_binary_free(bin);
}

/* select_object<1>: the second object (bitcode here) through mgpuModuleLoad with its exact size. */
static void test_select_index(void) {
    gpucompile_object *ptx = compile_saxpy(GPUCOMPILE_FORMAT_ISA), *bc = compile_saxpy(GPUCOMPILE_FORMAT_LLVM);
    gpucompile_binary *bin = binary_of("embidx", ptx, bc);
    char expect[4096], path[512];
    char *trace;
    t_log log;
    if (!have_tools) { gpucompile_binary_free(bin); SKIP("llc or cc missing"); }
    if (!ptx || !bc || !bin) return;
    CHECK(gpucompile_binary_set_handler(bin, GPUCOMPILE_HANDLER_SELECT_INDEX, 1, NULL) == GPUCOMPILE_OK);
    CHECK(write_host(bin, "index", &log));
    trace = run_with_double("index", "-DLAUNCH=embidx_saxpy_launch");
    snprintf(expect, sizeof expect, "mgpuModuleLoad size=%zu -> M1\n%s", bc->size, calls_two_launches);
    CHECK_STR(trace, expect);
    snprintf(path, sizeof path, "%s/load1.bin", dir);
    CHECK(same_file_bytes(path, bc->data, bc->size));
    free(trace);
    gpucompile_binary_free(bin);
}

/* select_object<#nvvm.target<chip = "sm_90">>: by target, written in either spelling. */
static void test_select_target(void) {
    gpucompile_object *a = fake_object("#nvvm.target<chip = \"sm_80\">"), *b = fake_object("#nvvm.target<chip = \"sm_90\">");
    gpucompile_binary *bin = binary_of("embtgt", a, b);
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMModuleRef m = NULL;
    gpucompile_embed_options eo;
    t_log log;
    memset(&eo, 0, sizeof eo);
    eo.logger = t_logger(&log);
    if (!a || !b || !bin) { LLVMContextDispose(ctx); return; }
    b->data[5] = 'X'; /* tell the two apart */
    CHECK(gpucompile_binary_set_handler(bin, GPUCOMPILE_HANDLER_SELECT_TARGET, 0, "#nvvm.target<O = 2, chip = \"sm_90\">") == GPUCOMPILE_OK);
    CHECK(gpucompile_host_module_create(ctx, "host", "x86_64-unknown-linux-gnu", NULL, &m) == GPUCOMPILE_OK);
    CHECK(gpucompile_embed_binary(m, bin, &eo) == GPUCOMPILE_OK);
    {
        LLVMValueRef g = LLVMGetNamedGlobal(m, "embtgt_bin_cst");
        size_t n = 0;
        const char *s = g ? LLVMGetAsString(LLVMGetInitializer(g), &n) : NULL;
        CHECK(g && LLVMGetLinkage(g) == LLVMInternalLinkage && LLVMIsGlobalConstant(g) && LLVMGetAlignment(g) == 8);
        CHECK(s && n == FAKE_SIZE && s[5] == 'X'); /* a binary object: no NUL added */
        CHECK(LLVMGetNamedFunction(m, "embtgt_saxpy_launch") != NULL);
        CHECK(LLVMVerifyModule(m, LLVMReturnStatusAction, NULL) == 0);
    }
    LLVMDisposeModule(m);
    /* a target the binary does not hold (refused by the binary's verification): the host untouched */
    CHECK(gpucompile_binary_set_handler(bin, GPUCOMPILE_HANDLER_SELECT_TARGET, 0, "#nvvm.target<chip = \"sm_70\">") == GPUCOMPILE_OK);
    CHECK(gpucompile_host_module_create(ctx, "host", "x86_64-unknown-linux-gnu", NULL, &m) == GPUCOMPILE_OK);
    CHECK(gpucompile_embed_binary(m, bin, &eo) != GPUCOMPILE_OK);
    CHECK_LOG(&log, "sm_70");
    CHECK(LLVMGetFirstGlobal(m) == NULL && LLVMGetFirstFunction(m) == NULL);
    /* an index out of range */
    CHECK(gpucompile_binary_set_handler(bin, GPUCOMPILE_HANDLER_SELECT_INDEX, 2, NULL) == GPUCOMPILE_OK);
    CHECK(gpucompile_embed_binary(m, bin, &eo) != GPUCOMPILE_OK);
    CHECK(LLVMGetFirstGlobal(m) == NULL && LLVMGetFirstFunction(m) == NULL);
    LLVMDisposeModule(m);
    LLVMContextDispose(ctx);
    gpucompile_binary_free(bin);
}

/* Embedding the same binary twice, or into a module that declares a runtime function with
   another type, is refused and leaves the module as it was. */
static void test_refusals(void) {
    gpucompile_binary *bin = binary_of("embtwice", fake_object("#nvvm.target<chip = \"sm_90\">"), NULL);
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMModuleRef m = NULL;
    gpucompile_embed_options eo;
    t_log log;
    int globals = 0, functions = 0;
    LLVMValueRef v;
    memset(&eo, 0, sizeof eo);
    eo.logger = t_logger(&log);
    if (!bin) { LLVMContextDispose(ctx); return; }
    CHECK(gpucompile_host_module_create(ctx, "host", "x86_64-unknown-linux-gnu", NULL, &m) == GPUCOMPILE_OK);
    CHECK(gpucompile_embed_binary(m, bin, &eo) == GPUCOMPILE_OK);
    for (v = LLVMGetFirstGlobal(m); v; v = LLVMGetNextGlobal(v)) globals++;
    for (v = LLVMGetFirstFunction(m); v; v = LLVMGetNextFunction(v)) functions++;
    CHECK(gpucompile_embed_binary(m, bin, &eo) == GPUCOMPILE_ERROR_INVALID_ARGUMENT);
    CHECK_LOG(&log, "already has a symbol 'embtwice_bin_cst'");
    for (v = LLVMGetFirstGlobal(m); v; v = LLVMGetNextGlobal(v)) globals--;
    for (v = LLVMGetFirstFunction(m); v; v = LLVMGetNextFunction(v)) functions--;
    CHECK(globals == 0 && functions == 0);
    LLVMDisposeModule(m);
    CHECK(gpucompile_host_module_create(ctx, "host", "x86_64-unknown-linux-gnu", NULL, &m) == GPUCOMPILE_OK);
    LLVMAddFunction(m, "mgpuModuleUnload", LLVMFunctionType(LLVMInt32TypeInContext(ctx), NULL, 0, 0));
    CHECK(gpucompile_embed_binary(m, bin, &eo) == GPUCOMPILE_ERROR_INVALID_ARGUMENT);
    CHECK_LOG(&log, "declares 'mgpuModuleUnload' with another type");
    CHECK(LLVMGetFirstGlobal(m) == NULL);
    LLVMDisposeModule(m);
    LLVMContextDispose(ctx);
    gpucompile_binary_free(bin);
}

/* Host symbols of names that are no C identifiers ("3d.k-2", a PTX kernel "k$1") are mapped to
   them; the kernel is looked up by its real name; a PTX object's O property reaches the JIT and
   its section property the embedded bytes. */
static void test_c_identifiers_and_properties(void) {
    static const char ptx[] = ".version 7.0\n.target sm_80\n.address_size 64\n.visible .entry k$1()\n{\nret;\n}\n";
    static const char props[] = "O = 1 : i32, section = \"__gpu\"";
    gpucompile_object *o = NULL;
    gpucompile_binary *bin;
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMModuleRef m = NULL;
    gpucompile_embed_options eo;
    t_log log;
    char *ir;
    memset(&eo, 0, sizeof eo);
    eo.logger = t_logger(&log);
    CHECK(gpucompile_object_create("#nvvm.target<chip = \"sm_80\">", GPUCOMPILE_FORMAT_ISA, ptx, sizeof ptx - 1, NULL, &o) == GPUCOMPILE_OK);
    if (!o) { LLVMContextDispose(ctx); return; }
    CHECK(gpucompile_object_find_kernels(o) == GPUCOMPILE_OK && o->num_kernels == 1);
    o->properties = (char *)malloc(sizeof props);
    if (o->properties) memcpy(o->properties, props, sizeof props);
    bin = binary_of("3d.k-2", o, NULL);
    CHECK(gpucompile_host_module_create(ctx, "host", "x86_64-unknown-linux-gnu", NULL, &m) == GPUCOMPILE_OK);
    CHECK_MSG(gpucompile_embed_binary(m, bin, &eo) == GPUCOMPILE_OK, "%s", log.text);
    ir = LLVMPrintModuleToString(m);
    CHECK(strstr(ir, "@_3d_k_2_bin_cst = internal constant") && strstr(ir, "section \"__gpu\", align 8"));
    CHECK(strstr(ir, "call ptr @mgpuModuleLoadJIT(ptr @_3d_k_2_bin_cst, i32 1)"));
    CHECK(strstr(ir, "define void @_3d_k_2_k_1_launch(") && strstr(ir, "c\"k$1\\00\""));
    LLVMDisposeMessage(ir);
    LLVMDisposeModule(m);
    CHECK(gpucompile_object_add_kernel(o, "k_1") == GPUCOMPILE_OK); /* k$1 and k_1: one symbol */
    CHECK(gpucompile_host_module_create(ctx, "host", "x86_64-unknown-linux-gnu", NULL, &m) == GPUCOMPILE_OK);
    CHECK(gpucompile_embed_binary(m, bin, &eo) == GPUCOMPILE_ERROR_INVALID_ARGUMENT);
    CHECK_LOG(&log, "kernels 'k$1' and 'k_1' would both have the host symbols _3d_k_2_k_1_...");
    CHECK(LLVMGetFirstGlobal(m) == NULL && LLVMGetFirstFunction(m) == NULL);
    LLVMDisposeModule(m);
    LLVMContextDispose(ctx);
    gpucompile_binary_free(bin);
}

/* A host module that already has a global destructor keeps it; ours is appended. */
static void test_existing_dtors(void) {
    gpucompile_binary *bin = binary_of("embdtor", fake_object("#nvvm.target<chip = \"sm_90\">"), NULL);
    const char *ir = "define internal void @mine() {\n  ret void\n}\n"
                     "@llvm.global_dtors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 100, ptr @mine, ptr null }]\n";
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(ir, strlen(ir), "host");
    LLVMModuleRef m = NULL;
    char *err = NULL;
    if (!bin) { LLVMDisposeMemoryBuffer(buf); LLVMContextDispose(ctx); return; }
    CHECK(LLVMParseIRInContext(ctx, buf, &m, &err) == 0);
    if (err) LLVMDisposeMessage(err);
    if (m) {
        LLVMValueRef g;
        CHECK(gpucompile_embed_binary(m, bin, NULL) == GPUCOMPILE_OK);
        g = LLVMGetNamedGlobal(m, "llvm.global_dtors");
        CHECK(g && LLVMGetArrayLength(LLVMGlobalGetValueType(g)) == 2);
        CHECK(LLVMVerifyModule(m, LLVMReturnStatusAction, NULL) == 0);
        if (g) {
            LLVMValueRef first = LLVMGetAggregateElement(LLVMGetInitializer(g), 0);
            LLVMValueRef second = LLVMGetAggregateElement(LLVMGetInitializer(g), 1);
            CHECK(LLVMGetOperand(first, 1) == LLVMGetNamedFunction(m, "mine"));
            CHECK(LLVMGetOperand(second, 1) == LLVMGetNamedFunction(m, "embdtor_unload"));
        }
        LLVMDisposeModule(m);
    }
    LLVMContextDispose(ctx);
    gpucompile_binary_free(bin);
}

/* Two threads launch first at the same moment (the double's load takes 100 ms): one load, one
   function lookup at most per thread, two launches, one unload. */
static void test_two_threads_load_once(void) {
    gpucompile_binary *bin = binary_of("embthr", fake_object("#nvvm.target<chip = \"sm_90\">"), NULL);
    char *trace, *p;
    int loads = 0, launches = 0, unloads = 0;
    t_log log;
    if (!have_tools) { gpucompile_binary_free(bin); SKIP("llc or cc missing"); }
    if (!bin) return;
    CHECK(write_host(bin, "threads", &log));
    trace = run_with_double("threads", "-DLAUNCH=embthr_saxpy_launch -DTHREADS");
    for (p = trace; p && (p = strstr(p, "mgpuModuleLoad ")) != NULL; p++) loads++;
    for (p = trace; p && (p = strstr(p, "mgpuLaunchKernel F")) != NULL; p++) launches++;
    for (p = trace; p && (p = strstr(p, "mgpuModuleUnload M1")) != NULL; p++) unloads++;
    CHECK_MSG(loads == 1 && launches == 2 && unloads == 1, "trace:\n%s", trace ? trace : "");
    free(trace);
    gpucompile_binary_free(bin);
}

/* gpucompile_emit_launch at a caller's builder: i32 sizes (widened), a stream, shared memory;
   i64 sizes and no stream (synchronous). Mixed widths and a missing binary are refused. */
static void test_emit_launch_inline(void) {
    gpucompile_binary *bin = binary_of("embinl", fake_object("#nvvm.target<chip = \"sm_90\">"), NULL);
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMModuleRef m = NULL;
    LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx);
    LLVMTypeRef i32 = LLVMInt32TypeInContext(ctx), i64 = LLVMInt64TypeInContext(ctx), ptr = LLVMPointerTypeInContext(ctx, 0);
    LLVMTypeRef p32[9], p64[7];
    LLVMValueRef f, grid[3], block[3];
    gpucompile_embed_options eo;
    t_log log;
    char *text, path[512], *trace;
    int i;
    memset(&eo, 0, sizeof eo);
    eo.logger = t_logger(&log);
    eo.no_launch_functions = 1;
    if (!bin) goto out;
    CHECK(gpucompile_host_module_create(ctx, "host", "x86_64-unknown-linux-gnu", NULL, &m) == GPUCOMPILE_OK);
    CHECK(gpucompile_embed_binary(m, bin, &eo) == GPUCOMPILE_OK);
    CHECK(LLVMGetNamedFunction(m, "embinl_saxpy_launch") == NULL);
    for (i = 0; i < 7; i++) p32[i] = i32;
    p32[7] = p32[8] = ptr;
    f = LLVMAddFunction(m, "inline_i32", LLVMFunctionType(LLVMVoidTypeInContext(ctx), p32, 9, 0));
    LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(ctx, f, "entry"));
    for (i = 0; i < 3; i++) { grid[i] = LLVMGetParam(f, (unsigned)i); block[i] = LLVMGetParam(f, (unsigned)i + 3); }
    CHECK(gpucompile_emit_launch(b, m, "embinl", "saxpy", grid, block, LLVMGetParam(f, 6), LLVMGetParam(f, 7),
                                 LLVMGetParam(f, 8), 4, &eo.logger) == GPUCOMPILE_OK);
    LLVMBuildRetVoid(b);
    for (i = 0; i < 6; i++) p64[i] = i64;
    p64[6] = ptr;
    f = LLVMAddFunction(m, "inline_i64_sync", LLVMFunctionType(LLVMVoidTypeInContext(ctx), p64, 7, 0));
    LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(ctx, f, "entry"));
    for (i = 0; i < 3; i++) { grid[i] = LLVMGetParam(f, (unsigned)i); block[i] = LLVMGetParam(f, (unsigned)i + 3); }
    CHECK(gpucompile_emit_launch(b, m, "embinl", "saxpy", grid, block, NULL, NULL, LLVMGetParam(f, 6), 4, &eo.logger) == GPUCOMPILE_OK);
    /* refusals emit nothing */
    grid[1] = LLVMConstInt(i32, 1, 0);
    CHECK(gpucompile_emit_launch(b, m, "embinl", "saxpy", grid, block, NULL, NULL, NULL, 4, &eo.logger) == GPUCOMPILE_ERROR_INVALID_ARGUMENT);
    CHECK_LOG(&log, "grid and block sizes must all have the same type (i64 and i32)");
    grid[1] = LLVMGetParam(f, 1);
    CHECK(gpucompile_emit_launch(b, m, "nosuch", "saxpy", grid, block, NULL, NULL, NULL, 4, &eo.logger) == GPUCOMPILE_ERROR_INVALID_ARGUMENT);
    CHECK_LOG(&log, "binary 'nosuch' is not embedded in this host module");
    CHECK(gpucompile_emit_launch(b, m, "embinl", "saxpy", grid, block, LLVMConstInt(i64, 0, 0), NULL, NULL, 4, &eo.logger) ==
          GPUCOMPILE_ERROR_INVALID_ARGUMENT);
    CHECK_LOG(&log, "the dynamic shared memory size must be i32");
    LLVMBuildRetVoid(b);
    CHECK(LLVMVerifyModule(m, LLVMReturnStatusAction, NULL) == 0);
    if (!have_tools) goto out;
    text = LLVMPrintModuleToString(m);
    snprintf(path, sizeof path, "%s/inline.ll", dir);
    CHECK(gpucompile_write_file(path, text, strlen(text)) == GPUCOMPILE_OK);
    LLVMDisposeMessage(text);
    {
        char cmd[1024];
        snprintf(cmd, sizeof cmd, "llc -filetype=obj -relocation-model=pic %s/inline.ll -o %s/inline.o 2>&1", dir, dir);
        CHECK(t_sh_ok(cmd));
    }
    trace = run_with_double("inline", "-DINLINE");
    CHECK_STR(trace, "mgpuModuleLoad size=17 -> M1\n"
                     "mgpuModuleGetFunction M1 saxpy -> F1\n"
                     "mgpuLaunchKernel F1 grid=3,2,1 block=64,1,1 smem=16 stream=STREAM args=ARGS extra=null count=4 values=[2.5,X,Y,100]\n"
                     "mgpuStreamCreate -> S1\n"
                     "mgpuLaunchKernel F1 grid=5,1,1 block=128,1,1 smem=0 stream=S1 args=ARGS extra=null count=4 values=[2.5,X,Y,100]\n"
                     "mgpuStreamSynchronize S1\n"
                     "mgpuStreamDestroy S1\n"
                     "main returns\n"
                     "mgpuModuleUnload M1\n");
    free(trace);
out:
    LLVMDisposeBuilder(b);
    if (m) LLVMDisposeModule(m);
    LLVMContextDispose(ctx);
    gpucompile_binary_free(bin);
}

/* A 32-bit host (i686): intptr_t is i32, so the launch function takes i32 sizes, i32 sizes pass
   through and i64 ones are narrowed; llc compiles it. */
static void test_emit_launch_32bit_host(void) {
    gpucompile_binary *bin = binary_of("emb32", fake_object("#nvvm.target<chip = \"sm_90\">"), NULL);
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMModuleRef m = NULL;
    LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx);
    LLVMTypeRef i64 = LLVMInt64TypeInContext(ctx), p[6];
    LLVMValueRef f, launch, grid[3], block[3];
    int i;
    if (!bin) goto out;
    CHECK(gpucompile_host_module_create(ctx, "host", "i686-pc-linux-gnu", NULL, &m) == GPUCOMPILE_OK);
    CHECK(gpucompile_embed_binary(m, bin, NULL) == GPUCOMPILE_OK);
    launch = LLVMGetNamedFunction(m, "emb32_saxpy_launch");
    CHECK(launch && LLVMTypeOf(LLVMGetParam(launch, 0)) == LLVMInt32TypeInContext(ctx));
    for (i = 0; i < 6; i++) p[i] = i64;
    f = LLVMAddFunction(m, "inline_i64", LLVMFunctionType(LLVMVoidTypeInContext(ctx), p, 6, 0));
    LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(ctx, f, "entry"));
    for (i = 0; i < 3; i++) { grid[i] = LLVMGetParam(f, (unsigned)i); block[i] = LLVMGetParam(f, (unsigned)i + 3); }
    CHECK(gpucompile_emit_launch(b, m, "emb32", "saxpy", grid, block, NULL, NULL, NULL, 4, NULL) == GPUCOMPILE_OK);
    LLVMBuildRetVoid(b);
    CHECK(LLVMVerifyModule(m, LLVMReturnStatusAction, NULL) == 0);
    if (have_tools) {
        char *text = LLVMPrintModuleToString(m), path[512], cmd[1024];
        snprintf(path, sizeof path, "%s/host32.ll", dir);
        CHECK(gpucompile_write_file(path, text, strlen(text)) == GPUCOMPILE_OK);
        LLVMDisposeMessage(text);
        snprintf(cmd, sizeof cmd, "llc -filetype=obj %s -o %s/host32.o 2>&1", path, dir);
        CHECK(t_sh_ok(cmd));
    }
out:
    LLVMDisposeBuilder(b);
    if (m) LLVMDisposeModule(m);
    LLVMContextDispose(ctx);
    gpucompile_binary_free(bin);
}

/* Drops the lines MLIR 19 repeats around every launch (load, lookup, unload). */
static void drop_load_lines(char *s) {
    char *r = s, *w = s;
    while (*r) {
        char *e = strchr(r, '\n');
        size_t n = e ? (size_t)(e - r + 1) : strlen(r);
        if (strncmp(r, "mgpuModuleLoad", 14) != 0 && strncmp(r, "mgpuModuleGetFunction", 21) != 0 &&
            strncmp(r, "mgpuModuleUnload", 16) != 0) {
            memmove(w, r, n);
            w += n;
        }
        r += n;
    }
    *w = 0;
}

/* Drops " args=NAME" (MLIR packs the arguments itself; the values are compared) and the
   function handle's number (MLIR looks the function up again for each launch). */
static void drop_args_names(char *s) {
    char *p;
    while ((p = strstr(s, " args=")) != NULL) {
        char *e = strchr(p + 1, ' ');
        if (!e) break;
        memmove(p, e, strlen(e) + 1);
    }
    for (p = s; (p = strstr(p, "mgpuLaunchKernel F")) != NULL;) {
        char *e = p += strlen("mgpuLaunchKernel F");
        while (*e >= '0' && *e <= '9') e++;
        memmove(p, e, strlen(e) + 1);
    }
}

/* The same launches written in MLIR (tests/data/embed_launch.mlir) through mlir-opt
   --gpu-to-llvm and mlir-translate: the same calls, in the same order, once the loads
   and lookups MLIR 19 repeats around each launch are set aside; the same loaded bytes. */
static void test_differential_mlir(void) {
    gpucompile_binary *bin = binary_of("embtest", fake_object("#nvvm.target<chip = \"sm_90\">"), NULL);
    char cmd[2048], path[512];
    char *ours, *theirs;
    t_log log;
    if (!have_tools) { gpucompile_binary_free(bin); SKIP("llc or cc missing"); }
    if (!t_sh_ok("command -v mlir-opt >/dev/null && command -v mlir-translate >/dev/null")) {
        gpucompile_binary_free(bin);
        SKIP("mlir-opt / mlir-translate missing");
    }
    if (!bin) return;
    CHECK(write_host(bin, "ours", &log));
    ours = run_with_double("ours", "-DLAUNCH=embtest_saxpy_launch");
    snprintf(path, sizeof path, "%s/load1.bin", dir);
    CHECK(same_file_bytes(path, fake_cubin, FAKE_SIZE));
    snprintf(cmd, sizeof cmd,
             "mlir-opt --gpu-to-llvm tests/data/embed_launch.mlir | mlir-translate --mlir-to-llvmir -o %s/mlir.ll 2>&1 && "
             "llc -filetype=obj -relocation-model=pic %s/mlir.ll -o %s/mlir.o 2>&1", dir, dir, dir);
    CHECK(t_sh_ok(cmd));
    theirs = run_with_double("mlir", "-DMLIR");
    CHECK(same_file_bytes(path, fake_cubin, FAKE_SIZE)); /* MLIR's second load: the same bytes */
    CHECK(theirs && strstr(theirs, "mgpuModuleLoad size=17 -> M1\nmgpuModuleGetFunction M1 saxpy -> F1\n") == theirs);
#if LLVM_VERSION_MAJOR == 19
    CHECK(theirs && strstr(theirs, "mgpuModuleUnload M1\n") && strstr(theirs, "mgpuModuleUnload M2\n")); /* MLIR 19: per launch */
#else
    /* newer MLIR loads once in a global constructor and unloads in a destructor, as we do */
    CHECK(theirs && strstr(theirs, "mgpuModuleUnload M1\n") && !strstr(theirs, "M2"));
#endif
    if (ours && theirs) {
        drop_load_lines(ours);
        drop_load_lines(theirs);
        drop_args_names(ours);
        drop_args_names(theirs);
        CHECK_STR(ours, theirs);
    }
    free(ours);
    free(theirs);
    gpucompile_binary_free(bin);
}

/* The run-time selection handler: the whole offload binary is embedded (the writer's exact
   bytes) and handed to gpucompile_runtime_load_offload_binary once. */
static void test_runtime_select_embeds_offload(void) {
    gpucompile_binary *bin = binary_of("embrt", fake_object("#nvvm.target<chip = \"sm_80\">"), fake_object("#nvvm.target<chip = \"sm_90\">"));
    unsigned char *data = NULL;
    size_t size = 0;
    char expect[4096], path[512];
    char *trace;
    t_log log;
    if (!have_tools) { gpucompile_binary_free(bin); SKIP("llc or cc missing"); }
    if (!bin) return;
    CHECK(gpucompile_binary_set_handler(bin, GPUCOMPILE_HANDLER_RUNTIME, 0, NULL) == GPUCOMPILE_OK);
    CHECK(gpucompile_binary_write_offload(bin, &data, &size) == GPUCOMPILE_OK);
    CHECK(write_host(bin, "rtsel", &log));
    trace = run_with_double("rtsel", "-DLAUNCH=embrt_saxpy_launch");
    snprintf(expect, sizeof expect, "gpucompile_runtime_load_offload_binary size=%zu -> M1\n%s", size, calls_two_launches);
    CHECK_STR(trace, expect);
    snprintf(path, sizeof path, "%s/load1.bin", dir);
    CHECK(data && same_file_bytes(path, data, size));
    free(trace);
    gpucompile_free(&bin->allocator, data);
    gpucompile_binary_free(bin);
}

/* Our CUDA runtime, linked for real with a host module: with the toolkit's stub libcuda the
   first call reports CUDA_ERROR_STUB_LIBRARY once through the callback, nothing crashes, the
   launch does nothing; with no library at all, a clear "cannot open" line on stderr. */
/* Builds dir/stub.prog and dir/stub_cxx.prog once, with plain cc and c++ and no LLVM include
   path (the runtime needs neither LLVM nor the compiler), around a host module that embeds a
   fake sm_90 cubin whose byte 5 is 'S': 1 when built. Both tests below use them, each also
   when run alone. */
static int stub_progs(void) {
    static int built = -1;
    gpucompile_binary *bin;
    char cmd[4096];
    t_log log;
    if (built >= 0) return built;
    built = 0;
    if (!(bin = binary_of("embstub", fake_object("#nvvm.target<chip = \"sm_90\">"), NULL))) return 0;
    bin->objects[0]->data[5] = 'S';
    if (write_host(bin, "stub", &log)) {
        snprintf(cmd, sizeof cmd, "cc -std=c11 -Wall -Wextra -pedantic -Werror -I. -o %s/stub.prog tests/data/embed_runtime.c "
                 "%s/stub.o -ldl -lpthread 2>&1", dir, dir);
        if (t_sh_ok(cmd)) {
            snprintf(cmd, sizeof cmd, "c++ -std=c++17 -x c++ -Wall -Wextra -pedantic -Werror -I. -c -o %s/stub_cxx.o tests/data/embed_runtime.c && "
                     "c++ -o %s/stub_cxx.prog %s/stub_cxx.o %s/stub.o -ldl -lpthread 2>&1", dir, dir, dir, dir);
            built = t_sh_ok(cmd);
        }
    } else
        printf("  write_host failed: %s\n", log.text);
    gpucompile_binary_free(bin);
    return built;
}

static void test_runtime_stub_libcuda(void) {
    const char *stub = "/usr/local/cuda/lib64/stubs/libcuda.so";
    char cmd[4096], *out;
    int st;
    if (!have_tools) SKIP("llc or cc missing");
    if (!stub_progs()) { CHECK(0); return; }
    if (access(stub, R_OK) != 0) SKIP("no stub libcuda at %s", stub);
    snprintf(cmd, sizeof cmd, "GPUCOMPILE_LIBCUDA=%s %s/stub.prog callback 2>&1", stub, dir);
    out = t_sh(cmd, &st);
    CHECK_MSG(st == 0, "exit %d: %s", st, out);
    CHECK_STR(out, "error 1: cuInit: 34: CUDA_ERROR_STUB_LIBRARY: this libcuda is the CUDA toolkit's stub, not a driver "
                   "(no NVIDIA driver installed?) (34)\navailable=0\nlaunched\n");
    free(out);
    snprintf(cmd, sizeof cmd, "GPUCOMPILE_LIBCUDA=%s/no-such-libcuda.so %s/stub.prog 2>&1", dir, dir);
    out = t_sh(cmd, &st);
    CHECK_MSG(st == 0, "exit %d: %s", st, out);
    CHECK_MSG(out && strstr(out, "'dlopen' failed with 'cannot open the CUDA driver") && strstr(out, "launched\n") &&
              !strstr(strstr(out, "failed with") + 1, "failed with"), "%s", out);
    free(out);
}

/* Builds dir/libfakecuda.so once. */
static int fake_driver(void) {
    static int built = -1;
    char cmd[1024];
    if (built < 0) {
        snprintf(cmd, sizeof cmd, "cc -std=c11 -w -shared -fPIC -o %s/libfakecuda.so tests/data/embed_fakecuda.c 2>&1", dir);
        built = t_sh_ok(cmd);
    }
    return built;
}

/* Our CUDA runtime over a fake driver that prints each call: the primary context, the module
   loaded once with the embedded bytes, the function, both launches (the synchronous one on a
   stream of its own, non-blocking; 64 KiB of shared memory opted in first), the unload at exit. */
static void test_runtime_fake_driver(void) {
    char cmd[4096], *out;
    int st;
    const char *const progs[] = {"stub.prog", "stub_cxx.prog"};
    size_t i;
    if (!have_tools) SKIP("llc or cc missing");
    if (!fake_driver() || !stub_progs()) { CHECK(0); return; }
    for (i = 0; i < 2; i++) {
        snprintf(cmd, sizeof cmd, "test -x %s/%s && GPUCOMPILE_LIBCUDA=%s/libfakecuda.so %s/%s callback", dir, progs[i], dir, dir, progs[i]);
        out = t_sh(cmd, &st);
        CHECK_MSG(st == 0, "%s: exit %d", progs[i], st);
        CHECK_STR(out, "cuInit 0\n"
                       "cuDeviceGet 0\n"
                       "cuDevicePrimaryCtxRetain 0\n"
                       "available=1\n"
                       "cuModuleLoadData image[5]=S -> module1\n"
                       "cuModuleGetFunction module1 saxpy\n"
                       "cuStreamCreate flags=1\n"
                       "cuLaunchKernel fn=ok grid=1,1,1 block=32,1,1 smem=0 stream=stream a=1 extra=null\n"
                       "cuStreamSynchronize\n"
                       "cuStreamDestroy\n"
                       "cuStreamCreate flags=1\n"
                       "cuFuncSetAttribute 8 65536\n"
                       "cuLaunchKernel fn=ok grid=2,1,1 block=64,1,1 smem=65536 stream=stream a=1 extra=null\n"
                       "cuStreamSynchronize\n"
                       "cuStreamDestroy\n"
                       "cuMemsetD32Async stream=null\n"
                       "cuStreamSynchronize null\n"
                       "launched\n"
                       "cuModuleUnload module1\n");
        free(out);
    }
}

/* The run-time selection handler end to end: our runtime reads the embedded offload binary,
   asks the (fake) device for its compute capability and loads the object
   gpucompile_binary_select picks: sm_90 cubin on 9.0, sm_80 cubin on 8.6, the PTX through the
   JIT (the target's O) on 7.5, nothing on 7.0, with an error that says so. */
static void test_runtime_select_on_device(void) {
    gpucompile_object *o90 = fake_object("#nvvm.target<chip = \"sm_90\">"), *o80 = fake_object("#nvvm.target<chip = \"sm_80\">");
    gpucompile_object *ptx = NULL;
    gpucompile_binary *bin;
    char cmd[4096], *out;
    int st;
    t_log log;
    CHECK(gpucompile_object_create("#nvvm.target<O = 3, chip = \"sm_75\">", GPUCOMPILE_FORMAT_ISA, "// fake ptx", 11, NULL, &ptx) == GPUCOMPILE_OK);
    if (ptx) CHECK(gpucompile_object_add_kernel(ptx, "saxpy") == GPUCOMPILE_OK);
    bin = binary_of("embsel", o80, o90);
    if (bin && ptx) CHECK(gpucompile_binary_add(bin, ptx) == GPUCOMPILE_OK);
    if (!have_tools) { gpucompile_binary_free(bin); SKIP("llc or cc missing"); }
    if (!bin || !o80 || !o90 || !ptx || !fake_driver()) { gpucompile_binary_free(bin); CHECK(0); return; }
    o90->data[5] = '9';
    o80->data[5] = '8';
    CHECK(gpucompile_binary_set_handler(bin, GPUCOMPILE_HANDLER_RUNTIME, 0, NULL) == GPUCOMPILE_OK);
    CHECK(write_host(bin, "sel", &log));
    snprintf(cmd, sizeof cmd, "cc -std=c11 -O0 -Wall -Wextra -pedantic -Werror -I. -DLAUNCH=embsel_saxpy_launch "
             "-o %s/sel.prog tests/data/embed_runtime.c %s/sel.o -ldl -lpthread 2>&1", dir, dir);
    CHECK(t_sh_ok(cmd));
    snprintf(cmd, sizeof cmd, "FAKE_CUDA_CC=90 GPUCOMPILE_LIBCUDA=%s/libfakecuda.so %s/sel.prog callback | grep -E 'cuModuleLoad|error'", dir, dir);
    out = t_sh(cmd, &st);
    CHECK_STR(out, "cuModuleLoadData image[5]=9 -> module1\n");
    free(out);
    snprintf(cmd, sizeof cmd, "FAKE_CUDA_CC=86 GPUCOMPILE_LIBCUDA=%s/libfakecuda.so %s/sel.prog callback | grep -E 'cuModuleLoad|error'", dir, dir);
    out = t_sh(cmd, &st);
    CHECK_STR(out, "cuModuleLoadData image[5]=8 -> module1\n");
    free(out);
    snprintf(cmd, sizeof cmd, "FAKE_CUDA_CC=75 GPUCOMPILE_LIBCUDA=%s/libfakecuda.so %s/sel.prog callback | grep -E 'cuModuleLoad|error'", dir, dir);
    out = t_sh(cmd, &st);
    CHECK_STR(out, "cuModuleLoadDataEx \"// fake ptx\" options=3 opt=3 -> module1\n");
    free(out);
    snprintf(cmd, sizeof cmd, "FAKE_CUDA_CC=70 GPUCOMPILE_LIBCUDA=%s/libfakecuda.so %s/sel.prog callback", dir, dir);
    out = t_sh(cmd, &st);
    CHECK_MSG(st == 0 && out && !strstr(out, "cuModuleLoad") && !strstr(out, "cuLaunchKernel") &&
              strstr(out, "error 1: gpucompile_runtime_load_offload_binary: -1: ") && strstr(out, "sm_70") && strstr(out, "launched\n"),
              "%s", out ? out : "");
    free(out);
    gpucompile_binary_free(bin);
}

/* The HIP runtime over a fake libamdhip64: the gfx name read from the device properties picks the
   object (gfx90a:sramecc+:xnack- takes the gfx90a code object, gfx1100 its own, gfx942 none,
   with an error listing the binary), and the launch goes through hipModuleLaunchKernel. */
static void test_runtime_hip_fake(void) {
    gpucompile_object *a = fake_object("#rocdl.target<chip = \"gfx90a\">"), *b = fake_object("#rocdl.target<chip = \"gfx1100\">");
    gpucompile_binary *bin = binary_of("embhip", a, b);
    char cmd[4096], *out;
    int st;
    t_log log;
    if (!have_tools) { gpucompile_binary_free(bin); SKIP("llc or cc missing"); }
    if (!bin || !a || !b) { gpucompile_binary_free(bin); CHECK(0); return; }
    a->data[5] = 'A';
    b->data[5] = 'B';
    CHECK(gpucompile_binary_set_handler(bin, GPUCOMPILE_HANDLER_RUNTIME, 0, NULL) == GPUCOMPILE_OK);
    CHECK(write_host(bin, "hip", &log));
    snprintf(cmd, sizeof cmd, "cc -std=c11 -w -shared -fPIC -o %s/libfakehip.so tests/data/embed_fakehip.c 2>&1 && "
             "cc -std=c11 -O0 -Wall -Wextra -pedantic -Werror -I. -DHIP -DLAUNCH=embhip_saxpy_launch "
             "-o %s/hip.prog tests/data/embed_runtime.c %s/hip.o -ldl -lpthread 2>&1", dir, dir, dir);
    CHECK(t_sh_ok(cmd));
    snprintf(cmd, sizeof cmd, "GPUCOMPILE_LIBHIP=%s/libfakehip.so %s/hip.prog callback", dir, dir);
    out = t_sh(cmd, &st);
    CHECK_MSG(st == 0, "exit %d", st);
    CHECK_STR(out, "hipInit 0\n"
                   "available=1\n"
                   "hipModuleLoadData image[5]=A -> module1\n"
                   "hipModuleGetFunction module1 saxpy\n"
                   "hipStreamCreate\n"
                   "hipModuleLaunchKernel fn=ok grid=1,1,1 block=32,1,1 smem=0 stream=stream a=1 extra=null\n"
                   "hipStreamSynchronize\n"
                   "hipStreamDestroy\n"
                   "hipStreamCreate\n"
                   "hipModuleLaunchKernel fn=ok grid=2,1,1 block=64,1,1 smem=65536 stream=stream a=1 extra=null\n"
                   "hipStreamSynchronize\n"
                   "hipStreamDestroy\n"
                   "hipMemsetD32Async stream=null\n"
                   "hipStreamSynchronize null\n"
                   "launched\n"
                   "hipModuleUnload module1\n");
    free(out);
    snprintf(cmd, sizeof cmd, "FAKE_HIP_ARCH=gfx1100 GPUCOMPILE_LIBHIP=%s/libfakehip.so %s/hip.prog callback | grep -E 'hipModuleLoad|error'", dir, dir);
    out = t_sh(cmd, &st);
    CHECK_STR(out, "hipModuleLoadData image[5]=B -> module1\n");
    free(out);
    snprintf(cmd, sizeof cmd, "FAKE_HIP_ARCH=gfx942:sramecc+:xnack- GPUCOMPILE_LIBHIP=%s/libfakehip.so %s/hip.prog callback", dir, dir);
    out = t_sh(cmd, &st);
    CHECK_MSG(st == 0 && out && !strstr(out, "hipModuleLoad") && strstr(out, "error 1: gpucompile_runtime_load_offload_binary: -1: ") &&
              strstr(out, "gfx942") && strstr(out, "gfx1100"), "%s", out ? out : "");
    free(out);
    gpucompile_binary_free(bin);
}

/* Run-time selection goes by the triple each object carries: in one offload binary with
   NVPTX, AMDGPU and SPIR-V objects, SPIR-V objects named like an NVIDIA or AMD chip (valid
   targets) come first, and the CUDA and HIP runtimes still load their own vendor's object. */
static void test_runtime_select_by_triple(void) {
    static const char *const targets[] = {"#gpu.spirv<chip = \"sm_90\">", "#gpu.spirv<chip = \"gfx90a\">",
        "#nvvm.target<chip = \"sm_90\">", "#rocdl.target<chip = \"gfx90a\">", "#gpu.spirv"};
    static const char marks[] = "STNAV";
    gpucompile_binary *bin = NULL;
    unsigned char *data = NULL;
    size_t size = 0, i;
    char path[512], cmd[4096], *out;
    int st;
    CHECK(gpucompile_binary_create("tri", NULL, &bin) == GPUCOMPILE_OK);
    for (i = 0; bin && i < 5; i++) {
        gpucompile_object *o = fake_object(targets[i]);
        if (o) o->data[5] = (unsigned char)marks[i];
        CHECK(o && gpucompile_binary_add(bin, o) == GPUCOMPILE_OK);
    }
    CHECK(bin && gpucompile_binary_write_offload(bin, &data, &size) == GPUCOMPILE_OK);
    gpucompile_binary_free(bin);
    CHECK(data && t_save(dir, "tri.bin", data, size, path, sizeof path));
    gpucompile_free(NULL, data);
    if (!have_tools) SKIP("llc or cc missing");
    if (!fake_driver()) { CHECK(0); return; }
    snprintf(cmd, sizeof cmd, "cc -std=c11 -w -shared -fPIC -o %s/libfakehip.so tests/data/embed_fakehip.c 2>&1 && "
             "cc -std=c11 -O0 -Wall -Wextra -pedantic -Werror -I. -o %s/tri_cuda tests/data/embed_select.c -ldl -lpthread 2>&1 && "
             "cc -std=c11 -O0 -Wall -Wextra -pedantic -Werror -I. -DHIP -o %s/tri_hip tests/data/embed_select.c -ldl -lpthread 2>&1",
             dir, dir, dir);
    CHECK(t_sh_ok(cmd));
    snprintf(cmd, sizeof cmd, "FAKE_CUDA_CC=90 GPUCOMPILE_LIBCUDA=%s/libfakecuda.so %s/tri_cuda %s | grep -E 'ModuleLoad|module:'", dir, dir, path);
    out = t_sh(cmd, &st);
    CHECK_STR(out, "cuModuleLoadData image[5]=N -> module1\nmodule: loaded\n");
    free(out);
    snprintf(cmd, sizeof cmd, "FAKE_HIP_ARCH=gfx90a GPUCOMPILE_LIBHIP=%s/libfakehip.so %s/tri_hip %s | grep -E 'ModuleLoad|module:'", dir, dir, path);
    out = t_sh(cmd, &st);
    CHECK_STR(out, "hipModuleLoadData image[5]=A -> module1\nmodule: loaded\n");
    free(out);
}

int main(void) {
    char *p;
    int st;
    snprintf(dir, sizeof dir, "%s/gpucompile-embed-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(dir)) { printf("cannot make a scratch directory\n"); return 1; }
    p = t_sh("command -v llc >/dev/null && command -v cc >/dev/null", &st);
    free(p);
    have_tools = st == 0;
    RUN(test_select_first_ptx);
    RUN(test_select_index);
    RUN(test_select_target);
    RUN(test_refusals);
    RUN(test_c_identifiers_and_properties);
    RUN(test_existing_dtors);
    RUN(test_two_threads_load_once);
    RUN(test_emit_launch_inline);
    RUN(test_emit_launch_32bit_host);
    RUN(test_differential_mlir);
    RUN(test_runtime_select_embeds_offload);
    RUN(test_runtime_stub_libcuda);
    RUN(test_runtime_fake_driver);
    RUN(test_runtime_select_on_device);
    RUN(test_runtime_hip_fake);
    RUN(test_runtime_select_by_triple);
    {
        char cmd[512];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
        if (getenv("EMBED_KEEP")) printf("kept %s\n", dir); /* for a look at the programs and traces */
        else free(t_sh(cmd, &st));
    }
    return TEST_END("embed");
}
