/* 04_embed_and_launch.c - compile a kernel, embed it in host code, and run it on the GPU.

   What it shows: the host side. saxpy (examples/kernels/saxpy_nvptx.ll, or INPUT.ll) is compiled
   to a cubin for sm_90 (when the CUDA toolkit can make one) and to PTX for sm_75 (which the
   driver JIT-compiles for any newer GPU); both go into one binary whose handler picks the object
   at run time for the GPU present (gpucompile_binary_set_handler(..., RUNTIME)). The binary is
   embedded into a host LLVM module (gpucompile_embed_binary), which gets
   void saxpy_saxpy_launch(gridX, gridY, gridZ, blockX, blockY, blockZ, smem, stream, args).
   Here the host module is compiled in process by LLVM's MCJIT and its calls to the mgpu*
   runtime resolve to gpucompile's own CUDA runtime (GPUCOMPILE_NVPTX_RUNTIME below); a compiler
   would instead write it out (gpucompile_write_host_module, or `gpucompile --host`) for llc.
   Then: device memory, one synchronous launch (stream NULL), the result checked on the host.
   Without a GPU (no driver, the toolkit's stub libcuda, no device) the runtime says why on
   stderr, the example prints "no GPU: ..." after building everything else, and exits 0.
   With OUT.ll it also writes the host module there.

   Build: cc -std=c11 examples/04_embed_and_launch.c -I. $(llvm-config-22 --cflags --ldflags --libs) -ldl -lpthread -o ex04
   Run:   ./ex04 [INPUT.ll [OUT.ll]]
*/
#define GPUCOMPILE_IMPLEMENTATION
#define GPUCOMPILE_NVPTX_RUNTIME
#include "gpucompile.h"
#include "gpucompile_nvptx.h"

#include <llvm-c/Analysis.h>
#include <llvm-c/ExecutionEngine.h>
#include <llvm-c/Support.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef void (*launch_fn)(intptr_t, intptr_t, intptr_t, intptr_t, intptr_t, intptr_t, int32_t, void *, void **);

/* LLVMAddSymbol takes a void *: copied, as ISO C has no cast from a function pointer. */
static void add_symbol(const char *name, void (*fn)(void)) {
    void *p;
    memcpy(&p, &fn, sizeof p);
    LLVMAddSymbol(name, p);
}

static void log_to_stderr(const gpucompile_diagnostic *d, void *user_data) {
    (void)user_data;
    if (d->severity == GPUCOMPILE_SEVERITY_NOTE) return;
    fprintf(stderr, "%s: %s\n", gpucompile_severity_string(d->severity), d->message);
}

/* One object of the binary: chip and format; NULL when this machine cannot make it. */
static gpucompile_object *compile(const char *input, const char *chip, gpucompile_format format, const gpucompile_logger *logger) {
    gpucompile_target t = gpucompile_target_defaults(GPUCOMPILE_TARGET_NVPTX);
    gpucompile_options o;
    gpucompile_object *obj = NULL;
    memset(&o, 0, sizeof o);
    o.format = format;
    if (logger) o.logger = *logger;
    t.chip = chip;
    if (gpucompile_compile_file(input, &t, &o, &obj) != GPUCOMPILE_OK) return NULL;
    printf("compiled %s for %s: %zu bytes\n", gpucompile_format_string(format), chip, obj->size);
    return obj;
}

/* The binary: a sm_90 cubin where the toolkit can make one, and PTX for everything else. */
static gpucompile_binary *make_binary(const char *input, const gpucompile_logger *logger) {
    gpucompile_binary *bin = NULL;
    gpucompile_object *cubin = compile(input, "sm_90", GPUCOMPILE_FORMAT_BIN, NULL); /* quiet: optional */
    gpucompile_object *ptx = compile(input, "sm_75", GPUCOMPILE_FORMAT_ISA, logger);
    if (!cubin) printf("no cubin (CUDA toolkit missing?): the PTX alone\n");
    if (!ptx || gpucompile_binary_create("saxpy", NULL, &bin) != GPUCOMPILE_OK) {
        gpucompile_object_free(cubin);
        gpucompile_object_free(ptx);
        return NULL;
    }
    if (cubin) gpucompile_binary_add(bin, cubin);
    gpucompile_binary_add(bin, ptx);
    gpucompile_binary_set_handler(bin, GPUCOMPILE_HANDLER_RUNTIME, 0, NULL);
    return bin;
}

/* saxpy on the GPU through the launch function, checked on the host: 0 when right. */
static int run_saxpy(launch_fn launch) {
    enum { N = 1 << 20 };
    float a = 2.0f, *x = (float *)malloc(N * sizeof(float)), *y = (float *)malloc(N * sizeof(float));
    void *dx, *dy, *args[4];
    int n = N, i, bad = 0;
    if (!x || !y) { free(x); free(y); return 1; }
    for (i = 0; i < N; i++) { x[i] = (float)i; y[i] = 1.0f; }
    dx = mgpuMemAlloc(N * sizeof(float), NULL, 0);
    dy = mgpuMemAlloc(N * sizeof(float), NULL, 0);
    mgpuMemcpy(dx, x, N * sizeof(float), NULL);
    mgpuMemcpy(dy, y, N * sizeof(float), NULL);
    mgpuStreamSynchronize(NULL);
    args[0] = &a; /* cuLaunchKernel's form: pointers to each argument */
    args[1] = &dx;
    args[2] = &dy;
    args[3] = &n;
    launch((N + 255) / 256, 1, 1, 256, 1, 1, 0, NULL, args); /* stream NULL: synchronous */
    mgpuMemcpy(y, dy, N * sizeof(float), NULL);
    mgpuStreamSynchronize(NULL);
    for (i = 0; i < N; i++)
        if (y[i] != 2.0f * (float)i + 1.0f) bad++; /* exact: small integers, one fma or mul+add */
    printf("saxpy on %s: %d of %d wrong\n", gpucompile_runtime_device_arch(), bad, N);
    mgpuMemFree(dx, NULL);
    mgpuMemFree(dy, NULL);
    free(x);
    free(y);
    return bad != 0;
}

int main(int argc, char **argv) {
    const char *input = argc > 1 ? argv[1] : "examples/kernels/saxpy_nvptx.ll";
    gpucompile_logger logger;
    gpucompile_embed_options eo;
    gpucompile_binary *bin;
    LLVMContextRef ctx;
    LLVMModuleRef host = NULL;
    LLVMExecutionEngineRef ee = NULL;
    char *err = NULL;
    launch_fn launch;
    int rc = 1;
    memset(&logger, 0, sizeof logger);
    logger.func = log_to_stderr;
    if (!(bin = make_binary(input, &logger))) return 1;

    /* embed: the whole binary, the object chosen when the first launch loads it */
    memset(&eo, 0, sizeof eo);
    eo.logger = logger;
    ctx = LLVMContextCreate();
    if (gpucompile_host_module_create(ctx, "host", NULL, &logger, &host) != GPUCOMPILE_OK ||
        gpucompile_embed_binary(host, bin, &eo) != GPUCOMPILE_OK || LLVMVerifyModule(host, LLVMPrintMessageAction, NULL))
        goto done;
    if (argc > 2 && gpucompile_write_host_module(bin, NULL, argv[2], &eo) == GPUCOMPILE_OK) printf("wrote %s\n", argv[2]);

    /* the host code, compiled in process; its mgpu* calls go to this program's runtime */
    LLVMLinkInMCJIT();
    LLVMInitializeNativeTarget();
    LLVMInitializeNativeAsmPrinter();
    add_symbol("mgpuModuleLoad", (void (*)(void))mgpuModuleLoad);
    add_symbol("mgpuModuleLoadJIT", (void (*)(void))mgpuModuleLoadJIT);
    add_symbol("mgpuModuleUnload", (void (*)(void))mgpuModuleUnload);
    add_symbol("mgpuModuleGetFunction", (void (*)(void))mgpuModuleGetFunction);
    add_symbol("mgpuLaunchKernel", (void (*)(void))mgpuLaunchKernel);
    add_symbol("mgpuStreamCreate", (void (*)(void))mgpuStreamCreate);
    add_symbol("mgpuStreamSynchronize", (void (*)(void))mgpuStreamSynchronize);
    add_symbol("mgpuStreamDestroy", (void (*)(void))mgpuStreamDestroy);
    add_symbol("gpucompile_runtime_load_offload_binary", (void (*)(void))gpucompile_runtime_load_offload_binary);
    if (LLVMCreateExecutionEngineForModule(&ee, host, &err)) { /* takes the module */
        fprintf(stderr, "MCJIT: %s\n", err);
        LLVMDisposeMessage(err);
        goto done;
    }
    host = NULL;
    launch = (launch_fn)(uintptr_t)LLVMGetFunctionAddress(ee, "saxpy_saxpy_launch");
    if (!launch) goto done;
    printf("host code ready: saxpy_saxpy_launch at %p\n", (void *)(uintptr_t)launch);

    if (!gpucompile_runtime_available()) { /* the runtime has said why on stderr */
        printf("no GPU: nothing launched (the binary, the host module and its launch code were built)\n");
        rc = 0;
        goto done;
    }
    rc = run_saxpy(launch);
done:
    if (ee) {
        LLVMRunStaticDestructors(ee); /* the host module's destructor unloads the GPU module */
        LLVMDisposeExecutionEngine(ee);
    }
    if (host) LLVMDisposeModule(host);
    LLVMContextDispose(ctx);
    gpucompile_binary_free(bin);
    return rc;
}
