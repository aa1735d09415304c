/* 03_in_memory_module.c - build a kernel with the LLVM C API, compile it, read the result from
   memory. No file is read or written.

   What it shows: the input of a compile can be your own LLVMModuleRef, as a compiler that
   generates GPU code would have it. The module is built here (a ptx_kernel `saxpy` doing
   y[i] = a * x[i] + y[i], i from llvm.nvvm.read.ptx.sreg.{tid,ctaid,ntid}.x), handed to
   gpucompile_compile_module, which borrows it: it is copied into a private LLVM context and
   left unchanged, so you keep using (and disposing of) it. The result is an object in memory:
   here the PTX text (NUL-terminated), printed on stdout, and the optimized bitcode (format
   llvm), read back with LLVM to list what it defines.

   Build: cc -std=c11 examples/03_in_memory_module.c -I. $(llvm-config-22 --cflags --ldflags --libs) -ldl -lpthread -o ex03
   Run:   ./ex03 [CHIP]          (default sm_80; the PTX goes to stdout, a summary to stderr)
*/
#define GPUCOMPILE_IMPLEMENTATION
#include "gpucompile.h"
#include "gpucompile_nvptx.h"

#include <llvm-c/Analysis.h>
#include <llvm-c/BitReader.h>
#include <stdio.h>
#include <string.h>

/* A call to a no-argument NVVM special-register intrinsic (i32 result). */
static LLVMValueRef sreg(LLVMModuleRef m, LLVMBuilderRef b, const char *name) {
    unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
    LLVMValueRef fn = LLVMGetIntrinsicDeclaration(m, id, NULL, 0);
    LLVMTypeRef ty = LLVMIntrinsicGetType(LLVMGetModuleContext(m), id, NULL, 0);
    return LLVMBuildCall2(b, ty, fn, NULL, 0, name + 5);
}

/* define ptx_kernel void @saxpy(float %a, ptr addrspace(1) %x, ptr addrspace(1) %y, i32 %n) */
static LLVMModuleRef build_saxpy(LLVMContextRef ctx) {
    LLVMModuleRef m = LLVMModuleCreateWithNameInContext("saxpy", ctx);
    LLVMTypeRef f32 = LLVMFloatTypeInContext(ctx), i32 = LLVMInt32TypeInContext(ctx);
    LLVMTypeRef i64 = LLVMInt64TypeInContext(ctx), global_ptr = LLVMPointerTypeInContext(ctx, 1);
    LLVMTypeRef params[4];
    LLVMTypeRef fty;
    LLVMValueRef fn, i, px, py, sum, idx;
    LLVMBasicBlockRef entry, body, done;
    LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx);

    params[0] = f32;
    params[1] = global_ptr;
    params[2] = global_ptr;
    params[3] = i32;
    fty = LLVMFunctionType(LLVMVoidTypeInContext(ctx), params, 4, 0);
    LLVMSetTarget(m, "nvptx64-nvidia-cuda");
    fn = LLVMAddFunction(m, "saxpy", fty);
    LLVMSetFunctionCallConv(fn, LLVMPTXKernelCallConv); /* without it: a .func, no .entry */
    entry = LLVMAppendBasicBlockInContext(ctx, fn, "entry");
    body = LLVMAppendBasicBlockInContext(ctx, fn, "body");
    done = LLVMAppendBasicBlockInContext(ctx, fn, "done");

    /* i = ctaid.x * ntid.x + tid.x; if (i < n) ... */
    LLVMPositionBuilderAtEnd(b, entry);
    i = LLVMBuildMul(b, sreg(m, b, "llvm.nvvm.read.ptx.sreg.ctaid.x"), sreg(m, b, "llvm.nvvm.read.ptx.sreg.ntid.x"), "base");
    i = LLVMBuildAdd(b, i, sreg(m, b, "llvm.nvvm.read.ptx.sreg.tid.x"), "i");
    LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntSLT, i, LLVMGetParam(fn, 3), "inb"), body, done);

    /* y[i] = a * x[i] + y[i] */
    LLVMPositionBuilderAtEnd(b, body);
    idx = LLVMBuildSExt(b, i, i64, "idx");
    px = LLVMBuildGEP2(b, f32, LLVMGetParam(fn, 1), &idx, 1, "px");
    py = LLVMBuildGEP2(b, f32, LLVMGetParam(fn, 2), &idx, 1, "py");
    sum = LLVMBuildFMul(b, LLVMGetParam(fn, 0), LLVMBuildLoad2(b, f32, px, "vx"), "ax");
    sum = LLVMBuildFAdd(b, sum, LLVMBuildLoad2(b, f32, py, "vy"), "sum");
    LLVMBuildStore(b, sum, py);
    LLVMBuildBr(b, done);

    LLVMPositionBuilderAtEnd(b, done);
    LLVMBuildRetVoid(b);
    LLVMDisposeBuilder(b);
    return m;
}

static void log_to_stderr(const gpucompile_diagnostic *d, void *user_data) {
    (void)user_data;
    if (d->severity != GPUCOMPILE_SEVERITY_NOTE)
        fprintf(stderr, "%s: %s\n", gpucompile_severity_string(d->severity), d->message);
}

/* The optimized bitcode, read back from memory into a context of our own. */
static int list_functions(const gpucompile_object *bc) {
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRange((const char *)bc->data, bc->size, "bitcode", 0);
    LLVMModuleRef m = NULL;
    LLVMValueRef f;
    int ok = LLVMParseBitcodeInContext2(ctx, buf, &m) == 0; /* does not take the buffer */
    LLVMDisposeMemoryBuffer(buf);
    if (ok) {
        for (f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
            size_t len;
            const char *name = LLVMGetValueName2(f, &len);
            fprintf(stderr, "bitcode: %s %.*s\n", LLVMIsDeclaration(f) ? "declares" : "defines", (int)len, name);
        }
        LLVMDisposeModule(m);
    }
    LLVMContextDispose(ctx);
    return ok;
}

int main(int argc, char **argv) {
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMModuleRef module = build_saxpy(ctx);
    gpucompile_target target = gpucompile_target_defaults(GPUCOMPILE_TARGET_NVPTX);
    gpucompile_options options;
    gpucompile_object *ptx = NULL, *bc = NULL;
    gpucompile_result r;
    char *error = NULL;
    int status = 1;

    /* Codegen does not verify; gpucompile does, but a generator wants its own message. */
    if (LLVMVerifyModule(module, LLVMReturnStatusAction, &error)) {
        fprintf(stderr, "invalid module: %s\n", error);
        goto done;
    }

    target.chip = argc > 1 ? argv[1] : "sm_80"; /* borrowed; everything else: MLIR's defaults */
    memset(&options, 0, sizeof options);
    options.logger.func = log_to_stderr;
    options.format = GPUCOMPILE_FORMAT_ISA;
    r = gpucompile_compile_module(module, &target, &options, &ptx);
    if (r != GPUCOMPILE_OK) {
        fprintf(stderr, "compile failed: %s\n", gpucompile_result_string(r));
        goto done;
    }
    options.format = GPUCOMPILE_FORMAT_LLVM;
    r = gpucompile_compile_module(module, &target, &options, &bc);
    if (r != GPUCOMPILE_OK || !list_functions(bc)) {
        fprintf(stderr, "bitcode failed: %s\n", gpucompile_result_string(r));
        goto done;
    }

    fprintf(stderr, "target %s: %zu bytes of PTX, %d kernel(s), first %s; %zu bytes of bitcode\n", ptx->target,
            ptx->size, ptx->num_kernels, ptx->num_kernels ? ptx->kernels[0].name : "-", bc->size);
    fwrite(ptx->data, 1, ptx->size, stdout);
    /* Still ours, unchanged: dispose of it as usual. */
    fprintf(stderr, "module still has %s\n", LLVMGetNamedFunction(module, "saxpy") ? "saxpy" : "nothing");
    status = 0;
done:
    LLVMDisposeMessage(error);
    gpucompile_object_free(bc);
    gpucompile_object_free(ptx);
    LLVMDisposeModule(module);
    LLVMContextDispose(ctx);
    return status;
}
