/* gpucompile_lower.h - pointer kernels into a binding model: OpenCL C and CUDA-style kernels
   (pointer and scalar parameters, work-item builtins, local memory, barriers, atomics, OpenCL's
   math) rewritten, after optimization, into the resource model of an API that binds buffers
   (each pointer parameter a buffer at a binding, the scalars in one block, local memory as
   workgroup arrays), with the kernels' parameter order recorded. The LLVM C API only.

   Include gpucompile.h first. The implementation is compiled where GPUCOMPILE_IMPLEMENTATION
   (with the core's) or GPUCOMPILE_LOWER_IMPLEMENTATION (in a file of its own; not with
   GPUCOMPILE_STATIC) is defined. A backend that takes pointer kernels includes this header and
   fills a gpucompile_lower_target; the calls and what they refuse are in [section: lowering]. */
#ifndef GPUCOMPILE_LOWER_H
#define GPUCOMPILE_LOWER_H
#if !defined(GPUCOMPILE_H)
#error "gpucompile_lower.h: include gpucompile.h first"
#endif
#ifdef __cplusplus
extern "C" {
#endif
/* What a target gives the lowering: the points where the IR it writes is the target's own (its
   code generator's intrinsics, types, attributes and address spaces) and its limits. A backend
   fills one; every field is needed. */
typedef struct gpucompile_lower_target {
    const char *name;           /* the diagnostics' origin */
    const char *api;            /* in messages: "a pointer stored to memory (API's buffers hold no pointers)" */
    const char *work_item[4];   /* intrinsics (i32 dimension) -> i32: the global id, local id, group id, number of groups */
    const char *barrier;        /* intrinsic: a workgroup barrier that orders workgroup memory */
    const char *buffer_type;    /* target extension type of a buffer's handle: (array of the element; class, writable) */
    unsigned buffer_class;      /* its first integer parameter (the storage class) */
    const char *buffer_binding; /* intrinsic (i32 set, binding, count, index, ptr name) -> handle, overloaded on the handle */
    const char *buffer_element; /* intrinsic (handle, i32 index) -> the element's address, overloaded on (address, handle) */
    unsigned buffer_space, push_space, private_space; /* address spaces: a buffer's elements, the scalars' block, private memory */
    const char *entry_attribute, *entry_value; /* the string attribute that makes an entry point */
    const char *size_attribute;                /* the attribute of its workgroup size, "X,Y,Z" */
    const char *params_metadata;               /* the named metadata of the parameter strings */
    unsigned max_params, max_push_bytes;       /* a kernel's parameters; the scalars' block */
    /* 32: every address is below 2^31 bytes (WebGPU's buffers), so that an extension of a 32-bit
       index computation is read as exact whether or not it carries nsw/nuw; 0: 64-bit addresses */
    unsigned index_bits;
} gpucompile_lower_target;
/* Zero means default. */
typedef struct gpucompile_lower_options {
    unsigned local_size[3]; /* the workgroup size of a kernel without reqd_work_group_size (64,1,1) */
    unsigned local_bytes;   /* bytes of workgroup memory for each local pointer parameter (4096) */
} gpucompile_lower_options;
/* Rewrites module's kernels in place (see above). Errors go to job (gpucompile_job_fail) when
   job is not NULL, else to logger (may be NULL). GPUCOMPILE_OK, or the first error's result
   (the module is then in an unspecified state: dispose of it). *lowered (may be NULL): kernels. */
GPUCOMPILE_API gpucompile_result gpucompile_lower_kernels(gpucompile_job *job, LLVMModuleRef module, const gpucompile_lower_target *target,
                                                          const gpucompile_lower_options *options, const gpucompile_logger *logger, int *lowered);
/* 1 when fn is a kernel to lower (a defined spir_kernel, ptx_kernel or amdgpu_kernel function). */
GPUCOMPILE_API int gpucompile_is_pointer_kernel(LLVMValueRef fn);
/* 1 when module has a kernel to lower (a defined spir_kernel, ptx_kernel or amdgpu_kernel
   function): what a backend checks before its own input rules. */
GPUCOMPILE_API int gpucompile_has_pointer_kernels(LLVMModuleRef module);
/* Before optimization: every defined function but the kernels made alwaysinline (noinline and
   optnone removed from all), so that the optimizer leaves no call that passes a pointer (which a
   binding model cannot express) and infers the address spaces of what it inlined. The number of functions. */
GPUCOMPILE_API int gpucompile_inline_helpers(LLVMModuleRef module);
#ifdef __cplusplus
}
#endif
#endif /* GPUCOMPILE_LOWER_H */

/* ==== [section: lowering] ============================================================
   OpenCL/CUDA-style kernels (pointer and scalar parameters, work-item builtins, local memory,
   barriers, atomics) rewritten, after optimization, into the shape the target's code generator
   takes: the LLVM C API only. The names written are the target table's (gpucompile_lower_target:
   its intrinsics, handle type, attributes, address spaces); the analysis is the same for every
   target.

   gpucompile_lower_kernels(job, module, target, options, logger): every kernel of module (a
   spir_kernel, ptx_kernel or amdgpu_kernel function) becomes an entry point `void @k()` with the
   target's entry_attribute and size_attribute ("X,Y,Z": reqd_work_group_size, else
   options.local_size, default 64,1,1):
   - a global (addrspace 1) or constant (addrspace 2) pointer parameter: a storage buffer, set 0,
     binding = the parameter's index (after the parameters of the module's earlier kernels: LLVM
     22 makes one variable of each (set, binding) in a module, so two kernels must not share
     one unless their types agree), of its one element type (read-only when nothing stores to
     it): a handle from the target's buffer_binding, every access an element index into it
     (buffer_element), derived from the getelementptrs, phis and selects between the parameter
     and the access.
     One binding per parameter, not one heap binding with offsets: each allocation of an mgpu*
     runtime is a buffer of its own (a heap would need one buffer for all of them, or an array
     of descriptors), a binding has one element type in LLVM 22 (two are merged into an invalid
     variable), so a heap would still need a binding per element type and an offset in the
     scalars' block per parameter, costing its bytes (128 on many devices) and an add per access.
   - a scalar parameter: bytes of the module's one scalars' block (push_space; a driver may
     refuse a module with two), a struct of 32-bit words, loaded in the entry block; each kernel
     lays its scalars out from offset 0, so the block is as long as the longest kernel's (at most
     max_push_bytes).
   - a local (addrspace 3) pointer parameter: a workgroup array of options.local_bytes (default
     4096) bytes: a binding model has no dynamic workgroup memory, so the launch's sharedMemBytes
     may use up to that; local (addrspace 3) variables: workgroup arrays of their access type.
   - OpenCL's work-item functions (get_global_id, ...), the __spirv_BuiltIn* variables and
     functions, NVVM's special registers: the target's work_item intrinsics, the local size a
     constant; barrier/work_group_barrier/__spirv_ControlBarrier/llvm.nvvm.barrier0: its barrier
     (what the code generator makes of it may need the backend's repair); OpenCL 1.x atomic_* and
     atom_* functions: atomicrmw / cmpxchg; OpenCL math functions: LLVM's intrinsics.
   - the original parameter order: named metadata (the target's params_metadata), one string per
     kernel, "gpucompile.params NAME T0 T1 ...", a token per parameter: bN (binding N), pO:S (S
     bytes at offset O of the scalars' block), lB (local memory: the launch may ask for up to B
     bytes), - (unused). The backend adds the strings to the module it writes, its reflection
     reader gives them back, and its runtime's launch then takes params[] in the kernel's own
     order.
   Refused before llc, naming the function and the instruction: a pointer stored to or loaded from
   memory, a pointer parameter accessed as two element types, a pointer passed to a call, a
   pointer compared, converted or returned, a pointer that may point into two parameters, an
   address that is not a whole number of elements off its parameter, function pointers (indirect
   calls, a function's address taken), recursion, printf, a generic pointer parameter, a
   variable in global memory (a constant table is private memory), a fence without a barrier. */

#if (defined(GPUCOMPILE_IMPLEMENTATION) || defined(GPUCOMPILE_LOWER_IMPLEMENTATION)) && !defined(GPUCOMPILE_LOWER_IMPLEMENTED)
#define GPUCOMPILE_LOWER_IMPLEMENTED
#if defined(GPUCOMPILE_STATIC) && !defined(GPUCOMPILE_IMPLEMENTED)
#error "gpucompile_lower.h: with GPUCOMPILE_STATIC the implementation goes in the core's file (GPUCOMPILE_IMPLEMENTATION)"
#endif
#if !defined(GPUCOMPILE_BACKEND_IMPLEMENTATION)
#define GPUCOMPILE_BACKEND_IMPLEMENTATION /* the backend helpers of gpucompile_runtime.h, also without the core */
#endif
#include "gpucompile_runtime.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef __cplusplus
extern "C" {
#endif

/* One lowering: where errors go, the module, and the memo of offsets for one base. */
typedef struct gpucompile_lower__state {
    gpucompile_job *job;
    const gpucompile_logger *logger;
    const gpucompile_lower_target *t;
    LLVMModuleRef m;
    LLVMContextRef ctx;
    LLVMBuilderRef b;
    LLVMTargetDataRef dl;
    LLVMTypeRef i32, i64;
    gpucompile_result r;
    unsigned wg[3];
    /* offsets of the pointers derived from the base being rewritten (element units, i64) */
    LLVMValueRef *ptrs, *offs;
    int nptrs, cap;
    int quiet; /* trying: a refusal is no error (private arrays the rewrite leaves as they are) */
    LLVMValueRef base;
    long long es; /* the base's element size */
} gpucompile_lower__state;

GPUCOMPILE_PRIVATE gpucompile_result gpucompile_lower__fail(gpucompile_lower__state *w, gpucompile_result r, const char *fmt, ...) {
    char msg[2048];
    va_list ap;
    if (w->quiet) return r;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (w->r == GPUCOMPILE_OK) w->r = r;
    if (w->job) gpucompile_job_fail(w->job, r, "%s", msg);
    else if (w->logger && w->logger->func) {
        gpucompile_diagnostic d;
        d.severity = GPUCOMPILE_SEVERITY_ERROR;
        d.result = r;
        d.stage = GPUCOMPILE_STAGE_OPTIMIZE;
        d.origin = w->t ? w->t->name : "lower";
        d.message = msg;
        w->logger->func(&d, w->logger->user_data);
    }
    return r;
}

/* Refuses instruction in of its function: "function 'f': `instruction`: why". */
GPUCOMPILE_PRIVATE gpucompile_result gpucompile_lower__refuse(gpucompile_lower__state *w, LLVMValueRef in, const char *fmt, ...) {
    LLVMValueRef fn = LLVMIsAInstruction(in) ? LLVMGetBasicBlockParent(LLVMGetInstructionParent(in)) : NULL;
    char *text = LLVMPrintValueToString(in), why[1024];
    const char *t = text ? text : "";
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    while (*t == ' ') t++;
    gpucompile_lower__fail(w, GPUCOMPILE_ERROR_UNSUPPORTED, "function '%s': `%.300s`: %s", fn ? gpucompile_value_name(fn) : "?", t, why);
    if (text) LLVMDisposeMessage(text);
    return GPUCOMPILE_ERROR_UNSUPPORTED;
}

GPUCOMPILE_DEF int gpucompile_is_pointer_kernel(LLVMValueRef fn) {
    unsigned cc = fn ? LLVMGetFunctionCallConv(fn) : 0;
    return fn && !LLVMIsDeclaration(fn) && (cc == LLVMSPIRKERNELCallConv || cc == LLVMPTXKernelCallConv || cc == LLVMAMDGPUKERNELCallConv);
}

GPUCOMPILE_PRIVATE const char *gpucompile_lower__callee_name(LLVMValueRef in) {
    LLVMValueRef f;
    if (!LLVMIsACallInst(in)) return "";
    f = LLVMGetCalledValue(in);
    return f && LLVMIsAFunction(f) ? gpucompile_value_name(f) : "";
}

/* An Itanium-mangled OpenCL function's plain name (`_Z13get_global_idj` -> get_global_id) into
   buf; *args: what follows it (the parameter types). The name itself when it is not mangled. */
GPUCOMPILE_PRIVATE const char *gpucompile_lower__demangle(const char *name, char *buf, size_t size, const char **args) {
    char *end;
    unsigned long n;
    *args = "";
    if (strncmp(name, "_Z", 2) != 0 || name[2] < '1' || name[2] > '9') return name;
    n = strtoul(name + 2, &end, 10);
    if (n == 0 || n >= size || strlen(end) < n) return name;
    memcpy(buf, end, n);
    buf[n] = 0;
    *args = end + n;
    return buf;
}

GPUCOMPILE_PRIVATE LLVMValueRef gpucompile_lower__intrinsic(gpucompile_lower__state *w, const char *name, LLVMTypeRef *types, size_t n) {
    unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
    return id ? LLVMGetIntrinsicDeclaration(w->m, id, types, n) : NULL;
}

GPUCOMPILE_PRIVATE LLVMValueRef gpucompile_lower__call(gpucompile_lower__state *w, LLVMValueRef fn, LLVMValueRef *args, unsigned n) {
    return LLVMBuildCall2(w->b, LLVMGlobalGetValueType(fn), fn, args, n, "");
}

/* ---- work-item builtins ---- */
enum { GPUCOMPILE_LOWER__B_NONE, GPUCOMPILE_LOWER__B_GLOBAL_ID, GPUCOMPILE_LOWER__B_LOCAL_ID, GPUCOMPILE_LOWER__B_GROUP_ID,
       GPUCOMPILE_LOWER__B_NUM_GROUPS, GPUCOMPILE_LOWER__B_LOCAL_SIZE, GPUCOMPILE_LOWER__B_GLOBAL_SIZE, GPUCOMPILE_LOWER__B_OFFSET,
       GPUCOMPILE_LOWER__B_WORK_DIM, GPUCOMPILE_LOWER__B_LOCAL_LINEAR, GPUCOMPILE_LOWER__B_GLOBAL_LINEAR };

/* Which builtin a name is (OpenCL's, the SPIR-V translator's, NVVM's); *dim: a fixed dimension
   (NVVM's .x/.y/.z) or -1 (an argument). */
GPUCOMPILE_PRIVATE int gpucompile_lower__builtin_kind(const char *name, int *dim) {
    static const struct { const char *name; int kind; } t[] = {
        {"get_global_id", GPUCOMPILE_LOWER__B_GLOBAL_ID}, {"get_local_id", GPUCOMPILE_LOWER__B_LOCAL_ID},
        {"get_group_id", GPUCOMPILE_LOWER__B_GROUP_ID}, {"get_num_groups", GPUCOMPILE_LOWER__B_NUM_GROUPS},
        {"get_local_size", GPUCOMPILE_LOWER__B_LOCAL_SIZE}, {"get_enqueued_local_size", GPUCOMPILE_LOWER__B_LOCAL_SIZE},
        {"get_global_size", GPUCOMPILE_LOWER__B_GLOBAL_SIZE}, {"get_global_offset", GPUCOMPILE_LOWER__B_OFFSET},
        {"get_work_dim", GPUCOMPILE_LOWER__B_WORK_DIM}, {"get_local_linear_id", GPUCOMPILE_LOWER__B_LOCAL_LINEAR},
        {"get_global_linear_id", GPUCOMPILE_LOWER__B_GLOBAL_LINEAR},
        {"__spirv_BuiltInGlobalInvocationId", GPUCOMPILE_LOWER__B_GLOBAL_ID}, {"__spirv_BuiltInLocalInvocationId", GPUCOMPILE_LOWER__B_LOCAL_ID},
        {"__spirv_BuiltInWorkgroupId", GPUCOMPILE_LOWER__B_GROUP_ID}, {"__spirv_BuiltInNumWorkgroups", GPUCOMPILE_LOWER__B_NUM_GROUPS},
        {"__spirv_BuiltInWorkgroupSize", GPUCOMPILE_LOWER__B_LOCAL_SIZE}, {"__spirv_BuiltInEnqueuedWorkgroupSize", GPUCOMPILE_LOWER__B_LOCAL_SIZE},
        {"__spirv_BuiltInGlobalSize", GPUCOMPILE_LOWER__B_GLOBAL_SIZE}, {"__spirv_BuiltInGlobalOffset", GPUCOMPILE_LOWER__B_OFFSET},
        {"__spirv_BuiltInWorkDim", GPUCOMPILE_LOWER__B_WORK_DIM}, {"__spirv_BuiltInLocalInvocationIndex", GPUCOMPILE_LOWER__B_LOCAL_LINEAR},
        {"__spirv_BuiltInGlobalLinearId", GPUCOMPILE_LOWER__B_GLOBAL_LINEAR}};
    static const struct { const char *name; int kind; } nv[] = {
        {"llvm.nvvm.read.ptx.sreg.tid.", GPUCOMPILE_LOWER__B_LOCAL_ID}, {"llvm.nvvm.read.ptx.sreg.ctaid.", GPUCOMPILE_LOWER__B_GROUP_ID},
        {"llvm.nvvm.read.ptx.sreg.ntid.", GPUCOMPILE_LOWER__B_LOCAL_SIZE}, {"llvm.nvvm.read.ptx.sreg.nctaid.", GPUCOMPILE_LOWER__B_NUM_GROUPS}};
    char buf[128];
    const char *args, *plain = gpucompile_lower__demangle(name, buf, sizeof buf, &args);
    size_t i;
    *dim = -1;
    for (i = 0; i < sizeof t / sizeof t[0]; i++)
        if (strcmp(plain, t[i].name) == 0) return t[i].kind;
    for (i = 0; i < sizeof nv / sizeof nv[0]; i++) {
        size_t n = strlen(nv[i].name);
        if (strncmp(name, nv[i].name, n) == 0 && name[n] >= 'x' && name[n] <= 'z' && !name[n + 1]) {
            *dim = name[n] - 'x';
            return nv[i].kind;
        }
    }
    return GPUCOMPILE_LOWER__B_NONE;
}

/* The builtin's value in dimension dim (a constant 0..2) as an i32, at the builder. */
GPUCOMPILE_PRIVATE LLVMValueRef gpucompile_lower__builtin_dim(gpucompile_lower__state *w, int kind, int dim) {
    LLVMValueRef arg, f;
    if (kind == GPUCOMPILE_LOWER__B_LOCAL_SIZE) return LLVMConstInt(w->i32, w->wg[dim], 0);
    if (kind == GPUCOMPILE_LOWER__B_OFFSET) return LLVMConstInt(w->i32, 0, 0);
    if (kind == GPUCOMPILE_LOWER__B_GLOBAL_SIZE)
        return LLVMBuildMul(w->b, gpucompile_lower__builtin_dim(w, GPUCOMPILE_LOWER__B_NUM_GROUPS, dim), LLVMConstInt(w->i32, w->wg[dim], 0), "");
    f = gpucompile_lower__intrinsic(w, w->t->work_item[kind - GPUCOMPILE_LOWER__B_GLOBAL_ID], &w->i32, 1);
    arg = LLVMConstInt(w->i32, (unsigned)dim, 0);
    return f ? gpucompile_lower__call(w, f, &arg, 1) : NULL;
}

/* The builtin's value (type t) for dimension d (a value, or -1 with fixed), at the builder:
   outside 0..2 the ids are 0 and the sizes 1, as OpenCL says. */
GPUCOMPILE_PRIVATE LLVMValueRef gpucompile_lower__builtin(gpucompile_lower__state *w, int kind, LLVMValueRef d, int fixed, LLVMTypeRef t) {
    int sizes = kind == GPUCOMPILE_LOWER__B_NUM_GROUPS || kind == GPUCOMPILE_LOWER__B_LOCAL_SIZE || kind == GPUCOMPILE_LOWER__B_GLOBAL_SIZE;
    LLVMValueRef v;
    int k;
    if (kind == GPUCOMPILE_LOWER__B_WORK_DIM) return LLVMConstInt(t, 3, 0); /* mgpu* launches are three-dimensional */
    if (kind == GPUCOMPILE_LOWER__B_LOCAL_LINEAR || kind == GPUCOMPILE_LOWER__B_GLOBAL_LINEAR) {
        int id = kind == GPUCOMPILE_LOWER__B_LOCAL_LINEAR ? GPUCOMPILE_LOWER__B_LOCAL_ID : GPUCOMPILE_LOWER__B_GLOBAL_ID;
        LLVMValueRef x = gpucompile_lower__builtin_dim(w, id, 0), y = gpucompile_lower__builtin_dim(w, id, 1), z = gpucompile_lower__builtin_dim(w, id, 2);
        LLVMValueRef sx = gpucompile_lower__builtin_dim(w, id == GPUCOMPILE_LOWER__B_LOCAL_ID ? GPUCOMPILE_LOWER__B_LOCAL_SIZE : GPUCOMPILE_LOWER__B_GLOBAL_SIZE, 0);
        LLVMValueRef sy = gpucompile_lower__builtin_dim(w, id == GPUCOMPILE_LOWER__B_LOCAL_ID ? GPUCOMPILE_LOWER__B_LOCAL_SIZE : GPUCOMPILE_LOWER__B_GLOBAL_SIZE, 1);
        v = LLVMBuildAdd(w->b, LLVMBuildMul(w->b, LLVMBuildAdd(w->b, LLVMBuildMul(w->b, z, sy, ""), y, ""), sx, ""), x, "");
        return LLVMBuildZExtOrBitCast(w->b, v, t, "");
    }
    if (fixed >= 0) v = fixed < 3 ? gpucompile_lower__builtin_dim(w, kind, fixed) : LLVMConstInt(w->i32, (unsigned)sizes, 0);
    else if (LLVMIsAConstantInt(d)) {
        unsigned long long c = LLVMConstIntGetZExtValue(d);
        v = c < 3 ? gpucompile_lower__builtin_dim(w, kind, (int)c) : LLVMConstInt(w->i32, (unsigned)sizes, 0);
    } else { /* a dimension known at run time: each one, chosen */
        LLVMValueRef di = LLVMBuildIntCast2(w->b, d, w->i32, 0, "");
        v = LLVMConstInt(w->i32, (unsigned)sizes, 0);
        for (k = 2; k >= 0; k--)
            v = LLVMBuildSelect(w->b, LLVMBuildICmp(w->b, LLVMIntEQ, di, LLVMConstInt(w->i32, (unsigned)k, 0), ""),
                                gpucompile_lower__builtin_dim(w, kind, k), v, "");
    }
    if (!v) return NULL;
    return LLVMGetTypeKind(t) == LLVMIntegerTypeKind && LLVMGetIntTypeWidth(t) > 32 ? LLVMBuildZExt(w->b, v, t, "") : LLVMBuildIntCast2(w->b, v, t, 0, "");
}

/* ---- math: OpenCL's functions as LLVM's intrinsics (GLSL.std.450 in LLVM 22's SPIR-V for shaders) ---- */
GPUCOMPILE_PRIVATE const char *gpucompile_lower__math(const char *plain, const char *args, int *nargs) {
    static const struct { const char *cl, *llvm; int n; } t[] = {
        {"sin", "llvm.sin", 1}, {"cos", "llvm.cos", 1}, {"tan", "llvm.tan", 1}, {"asin", "llvm.asin", 1}, {"acos", "llvm.acos", 1},
        {"atan", "llvm.atan", 1}, {"sinh", "llvm.sinh", 1}, {"cosh", "llvm.cosh", 1}, {"tanh", "llvm.tanh", 1}, {"exp", "llvm.exp", 1},
        {"exp2", "llvm.exp2", 1}, {"log", "llvm.log", 1}, {"log2", "llvm.log2", 1}, {"sqrt", "llvm.sqrt", 1}, {"fabs", "llvm.fabs", 1},
        {"floor", "llvm.floor", 1}, {"ceil", "llvm.ceil", 1}, {"trunc", "llvm.trunc", 1}, {"round", "llvm.round", 1}, {"rint", "llvm.rint", 1},
        {"pow", "llvm.pow", 2}, {"powr", "llvm.pow", 2}, {"fmin", "llvm.minnum", 2}, {"fmax", "llvm.maxnum", 2}, {"atan2", "llvm.atan2", 2},
        {"copysign", "llvm.copysign", 2}, {"fma", "llvm.fma", 3}, {"mad", "llvm.fmuladd", 3},
        {"native_sin", "llvm.sin", 1}, {"native_cos", "llvm.cos", 1}, {"native_exp", "llvm.exp", 1}, {"native_log", "llvm.log", 1},
        {"native_sqrt", "llvm.sqrt", 1}, {"native_exp2", "llvm.exp2", 1}, {"native_log2", "llvm.log2", 1}, {"native_powr", "llvm.pow", 2},
        {"half_sin", "llvm.sin", 1}, {"half_cos", "llvm.cos", 1}, {"half_exp", "llvm.exp", 1}, {"half_log", "llvm.log", 1},
        {"half_sqrt", "llvm.sqrt", 1}};
    size_t i;
    const char *p = args;
    while (*p == 'D' || *p == 'v' || (*p >= '0' && *p <= '9') || *p == '_') p++; /* Dv4_f */
    if (*p != 'f' && *p != 'd' && *p != 'h' && *p != 'D') return NULL;       /* float, double, half */
    for (i = 0; i < sizeof t / sizeof t[0]; i++)
        if (strcmp(plain, t[i].cl) == 0) {
            *nargs = t[i].n;
            return t[i].llvm;
        }
    return NULL;
}

/* OpenCL's integer min/max/abs: LLVM's intrinsics (signedness from the mangled argument). */
GPUCOMPILE_PRIVATE const char *gpucompile_lower__int_math(const char *plain, const char *args, int *nargs) {
    const char *p = args;
    int sign;
    while (*p == 'D' || *p == 'v' || (*p >= '0' && *p <= '9') || *p == '_') p++;
    if (!*p || !strchr("cahstijlm", *p)) return NULL;
    sign = strchr("casil", *p) != NULL;
    *nargs = 2;
    if (strcmp(plain, "min") == 0) return sign ? "llvm.smin" : "llvm.umin";
    if (strcmp(plain, "max") == 0) return sign ? "llvm.smax" : "llvm.umax";
    return NULL;
}

/* ---- atomics: OpenCL 1.x functions ---- */
GPUCOMPILE_PRIVATE int gpucompile_lower__atomic_op(const char *plain, const char *args, LLVMAtomicRMWBinOp *op, int *operands) {
    static const struct { const char *name; LLVMAtomicRMWBinOp op; int n; } t[] = {
        {"add", LLVMAtomicRMWBinOpAdd, 1}, {"sub", LLVMAtomicRMWBinOpSub, 1}, {"inc", LLVMAtomicRMWBinOpAdd, 0},
        {"dec", LLVMAtomicRMWBinOpSub, 0}, {"xchg", LLVMAtomicRMWBinOpXchg, 1}, {"and", LLVMAtomicRMWBinOpAnd, 1},
        {"or", LLVMAtomicRMWBinOpOr, 1}, {"xor", LLVMAtomicRMWBinOpXor, 1}, {"min", LLVMAtomicRMWBinOpMin, 1},
        {"max", LLVMAtomicRMWBinOpMax, 1}, {"cmpxchg", LLVMAtomicRMWBinOpXchg, 2}};
    const char *s, *p;
    size_t i;
    if (strncmp(plain, "atomic_", 7) == 0) s = plain + 7;
    else if (strncmp(plain, "atom_", 5) == 0) s = plain + 5;
    else return 0;
    for (i = 0; i < sizeof t / sizeof t[0]; i++)
        if (strcmp(s, t[i].name) == 0) break;
    if (i == sizeof t / sizeof t[0]) return 0;
    *op = t[i].op;
    *operands = t[i].n;
    /* the pointee type: the last letter of "PU3AS1Vj" (j, m: unsigned; f: float) */
    p = strchr(args, 'V');
    if (p && (p[1] == 'j' || p[1] == 'm')) {
        if (*op == LLVMAtomicRMWBinOpMin) *op = LLVMAtomicRMWBinOpUMin;
        if (*op == LLVMAtomicRMWBinOpMax) *op = LLVMAtomicRMWBinOpUMax;
    }
    if (p && p[1] == 'f' && *op != LLVMAtomicRMWBinOpXchg) return 0;
    return 1;
}

/* ---- addresses: a pointer derived from a base as an element index (i64) ---- */
GPUCOMPILE_PRIVATE LLVMValueRef gpucompile_lower__i64(gpucompile_lower__state *w, LLVMValueRef v) {
    return LLVMTypeOf(v) == w->i64 ? v : LLVMBuildSExtOrBitCast(w->b, v, w->i64, ""); /* getelementptr indices are signed */
}

/* index * scale bytes in elements of es, at the builder; NULL when that is not a whole number. */
GPUCOMPILE_PRIVATE LLVMValueRef gpucompile_lower__scaled(gpucompile_lower__state *w, LLVMValueRef v, long long scale, int depth) {
    LLVMOpcode op;
    if (LLVMIsAConstantInt(v)) {
        long long c = LLVMConstIntGetSExtValue(v) * scale;
        return c % w->es ? NULL : LLVMConstInt(w->i64, (unsigned long long)(c / w->es), 1);
    }
    if (scale % w->es == 0) {
        LLVMValueRef x = gpucompile_lower__i64(w, v);
        return scale == w->es ? x : LLVMBuildMul(w->b, x, LLVMConstInt(w->i64, (unsigned long long)(scale / w->es), 1), "");
    }
    if (depth > 6 || !LLVMIsAInstruction(v) || (LLVMTypeOf(v) != w->i64 && LLVMTypeOf(v) != w->i32)) return NULL; /* i32: 32-bit size_t (spirv32) */
    op = LLVMGetInstructionOpcode(v);
    if (op == LLVMShl && LLVMIsAConstantInt(LLVMGetOperand(v, 1)) && LLVMConstIntGetZExtValue(LLVMGetOperand(v, 1)) < 32)
        return gpucompile_lower__scaled(w, LLVMGetOperand(v, 0), scale << LLVMConstIntGetZExtValue(LLVMGetOperand(v, 1)), depth + 1);
    if (op == LLVMMul && LLVMIsAConstantInt(LLVMGetOperand(v, 1)))
        return gpucompile_lower__scaled(w, LLVMGetOperand(v, 0), scale * LLVMConstIntGetSExtValue(LLVMGetOperand(v, 1)), depth + 1);
    if (op == LLVMAShr && LLVMIsAConstantInt(LLVMGetOperand(v, 1)) && LLVMIsAInstruction(LLVMGetOperand(v, 0)) &&
        (LLVMGetInstructionOpcode(LLVMGetOperand(v, 0)) == LLVMShl || LLVMGetInstructionOpcode(LLVMGetOperand(v, 0)) == LLVMMul) &&
        LLVMIsAConstantInt(LLVMGetOperand(LLVMGetOperand(v, 0), 1))) {
        /* the optimizer's sign extension of a 32-bit index: ashr (shl x, a), b and ashr (mul x,
           c << a), b with a >= b are sext(trunc(x) [* c]) << (a - b) */
        LLVMValueRef in = LLVMGetOperand(v, 0), x;
        unsigned long long sb = LLVMConstIntGetZExtValue(LLVMGetOperand(v, 1)), k = LLVMConstIntGetZExtValue(LLVMGetOperand(in, 1)), sa = 0, c = 1;
        LLVMTypeRef nt;
        if (LLVMGetInstructionOpcode(in) == LLVMShl) sa = k;
        else if (k) {
            while (!(k & 1)) { k >>= 1; sa++; }
            c = k;
        }
        if (sa < sb || sa >= 64 || sa - sb >= 32) return NULL;
        nt = LLVMIntTypeInContext(w->ctx, (unsigned)(64 - sa));
        x = LLVMBuildTrunc(w->b, LLVMGetOperand(in, 0), nt, "");
        if (c != 1) x = LLVMBuildMul(w->b, x, LLVMConstInt(nt, c, 0), "");
        return gpucompile_lower__scaled(w, LLVMBuildSExt(w->b, x, w->i64, ""), scale << (sa - sb), depth + 1);
    }
    if ((op == LLVMSExt || op == LLVMZExt) && LLVMIsAInstruction(LLVMGetOperand(v, 0))) {
        /* an extension of a product or sum that cannot wrap: the extension moves inside */
        LLVMValueRef x = LLVMGetOperand(v, 0), a, c;
        LLVMOpcode xo = LLVMGetInstructionOpcode(x);
        int sgn = op == LLVMSExt;
        if (!(xo == LLVMShl || xo == LLVMMul || xo == LLVMAdd) || (!(sgn ? LLVMGetNSW(x) : LLVMGetNUW(x)) && w->t->index_bits != 32)) return NULL;
        a = sgn ? LLVMBuildSExt(w->b, LLVMGetOperand(x, 0), w->i64, "") : LLVMBuildZExt(w->b, LLVMGetOperand(x, 0), w->i64, "");
        if (xo != LLVMAdd && LLVMIsAConstantInt(LLVMGetOperand(x, 1))) {
            unsigned long long k = LLVMConstIntGetZExtValue(LLVMGetOperand(x, 1));
            if (xo == LLVMShl && k >= 32) return NULL;
            return gpucompile_lower__scaled(w, a, xo == LLVMShl ? scale << k : scale * LLVMConstIntGetSExtValue(LLVMGetOperand(x, 1)), depth + 1);
        }
        if (xo != LLVMAdd) return NULL;
        c = sgn ? LLVMBuildSExt(w->b, LLVMGetOperand(x, 1), w->i64, "") : LLVMBuildZExt(w->b, LLVMGetOperand(x, 1), w->i64, "");
        a = gpucompile_lower__scaled(w, a, scale, depth + 1);
        c = a ? gpucompile_lower__scaled(w, c, scale, depth + 1) : NULL;
        return c ? LLVMBuildAdd(w->b, a, c, "") : NULL;
    }
    if (op == LLVMAdd || (op == LLVMOr && LLVMGetIsDisjoint(v))) {
        LLVMValueRef a = gpucompile_lower__scaled(w, LLVMGetOperand(v, 0), scale, depth + 1);
        LLVMValueRef c = a ? gpucompile_lower__scaled(w, LLVMGetOperand(v, 1), scale, depth + 1) : NULL;
        return c ? LLVMBuildAdd(w->b, a, c, "") : NULL;
    }
    return NULL;
}

GPUCOMPILE_PRIVATE LLVMValueRef gpucompile_lower__offset(gpucompile_lower__state *w, LLVMValueRef p, LLVMValueRef at, int depth);

/* A getelementptr's (an instruction's or a constant's) offset from its pointer operand, in
   elements, built before at; NULL when not a whole number of them (refused by the caller). */
GPUCOMPILE_PRIVATE LLVMValueRef gpucompile_lower__gep_offset(gpucompile_lower__state *w, LLVMValueRef g, LLVMValueRef at) {
    LLVMTypeRef t = LLVMGetGEPSourceElementType(g);
    LLVMValueRef sum = NULL, base;
    int k, n = LLVMGetNumOperands(g);
    if (!(base = gpucompile_lower__offset(w, LLVMGetOperand(g, 0), at, 1))) return NULL;
    LLVMPositionBuilderBefore(w->b, at);
    for (k = 1; k < n; k++) {
        LLVMValueRef ix = LLVMGetOperand(g, (unsigned)k), part;
        long long stride;
        if (k > 1) {
            LLVMTypeKind tk = LLVMGetTypeKind(t);
            if (tk == LLVMStructTypeKind) {
                unsigned f = (unsigned)LLVMConstIntGetZExtValue(ix);
                long long off = (long long)LLVMOffsetOfElement(w->dl, t, f);
                t = LLVMStructGetTypeAtIndex(t, f);
                if (off % w->es) return NULL;
                part = LLVMConstInt(w->i64, (unsigned long long)(off / w->es), 1);
                sum = sum ? LLVMBuildAdd(w->b, sum, part, "") : part;
                continue;
            }
            if (tk != LLVMArrayTypeKind && tk != LLVMVectorTypeKind) return NULL;
            t = LLVMGetElementType(t);
        }
        stride = (long long)LLVMABISizeOfType(w->dl, t);
        if (!(part = gpucompile_lower__scaled(w, ix, stride, 0))) return NULL;
        sum = sum ? LLVMBuildAdd(w->b, sum, part, "") : part;
    }
    return sum ? LLVMBuildAdd(w->b, base, sum, "") : base;
}

/* p's offset from the base in elements (i64), defined where p is (at: the instruction that
   uses p when p is a constant); NULL when it cannot be (the caller refuses). */
GPUCOMPILE_PRIVATE LLVMValueRef gpucompile_lower__offset(gpucompile_lower__state *w, LLVMValueRef p, LLVMValueRef at, int depth) {
    LLVMValueRef v = NULL;
    int i;
    if (p == w->base) return LLVMConstInt(w->i64, 0, 0);
    for (i = 0; i < w->nptrs; i++)
        if (w->ptrs[i] == p) return w->offs[i];
    if (depth > 64) return NULL;
    if (LLVMIsAConstantExpr(p) && LLVMGetConstOpcode(p) == LLVMGetElementPtr)
        return gpucompile_lower__gep_offset(w, p, at); /* not memoized: built at each user */
    if (LLVMIsAConstantExpr(p) && LLVMGetConstOpcode(p) == LLVMAddrSpaceCast) return gpucompile_lower__offset(w, LLVMGetOperand(p, 0), at, depth + 1);
    if (LLVMIsAAddrSpaceCastInst(p)) return gpucompile_lower__offset(w, LLVMGetOperand(p, 0), p, depth + 1);
    if (!LLVMIsAInstruction(p)) return NULL;
    if (w->nptrs == w->cap) {
        int nc = w->cap ? 2 * w->cap : 64;
        LLVMValueRef *np = (LLVMValueRef *)realloc(w->ptrs, (size_t)nc * sizeof *np), *no;
        if (np) w->ptrs = np;
        no = np ? (LLVMValueRef *)realloc(w->offs, (size_t)nc * sizeof *no) : NULL;
        if (!no) return NULL;
        w->offs = no;
        w->cap = nc;
    }
    if (LLVMIsAGetElementPtrInst(p)) {
        LLVMValueRef next = LLVMGetNextInstruction(p);
        v = gpucompile_lower__gep_offset(w, p, next);
    } else if (LLVMIsAPHINode(p)) {
        unsigned k, n = LLVMCountIncoming(p);
        LLVMBasicBlockRef bb = LLVMGetInstructionParent(p);
        int slot = w->nptrs++;
        LLVMPositionBuilder(w->b, bb, LLVMGetFirstInstruction(bb));
        v = LLVMBuildPhi(w->b, w->i64, "");
        w->ptrs[slot] = p; /* memoized first: a loop's phi reaches itself */
        w->offs[slot] = v;
        for (k = 0; k < n; k++) {
            LLVMBasicBlockRef from = LLVMGetIncomingBlock(p, k);
            LLVMValueRef in = gpucompile_lower__offset(w, LLVMGetIncomingValue(p, k), LLVMGetBasicBlockTerminator(from), depth + 1);
            if (!in) return NULL;
            LLVMAddIncoming(v, &in, &from, 1);
        }
        return v;
    } else if (LLVMIsASelectInst(p)) {
        LLVMValueRef a = gpucompile_lower__offset(w, LLVMGetOperand(p, 1), p, depth + 1);
        LLVMValueRef c = a ? gpucompile_lower__offset(w, LLVMGetOperand(p, 2), p, depth + 1) : NULL;
        if (!c) return NULL;
        LLVMPositionBuilderBefore(w->b, p);
        v = LLVMBuildSelect(w->b, LLVMGetOperand(p, 0), a, c, "");
    }
    if (!v) return NULL;
    w->ptrs[w->nptrs] = p;
    w->offs[w->nptrs++] = v;
    return v;
}

/* ---- the accesses of one base (a pointer parameter or a workgroup variable) ---- */
typedef struct gpucompile_lower__access {
    LLVMValueRef in;   /* load, store, atomicrmw, cmpxchg, or a call of an OpenCL atomic */
    LLVMTypeRef type;  /* what it reads or writes */
} gpucompile_lower__access;

typedef struct gpucompile_lower__uses {
    LLVMValueRef derived[512];
    int nderived;
    gpucompile_lower__access acc[1024];
    int nacc, writes;
    LLVMTypeRef type;
} gpucompile_lower__uses;

GPUCOMPILE_PRIVATE int gpucompile_lower__has(const gpucompile_lower__uses *u, LLVMValueRef v) {
    int i;
    for (i = 0; i < u->nderived; i++)
        if (u->derived[i] == v) return 1;
    return 0;
}

/* Every pointer derived from p and every access through them, into u; refused (naming the
   instruction) when a use cannot be expressed in a binding model's buffers. */
GPUCOMPILE_PRIVATE gpucompile_result gpucompile_lower__collect(gpucompile_lower__state *w, LLVMValueRef p, gpucompile_lower__uses *u) {
    LLVMUseRef use;
    for (use = LLVMGetFirstUse(p); use; use = LLVMGetNextUse(use)) {
        LLVMValueRef user = LLVMGetUser(use), callee;
        LLVMTypeRef t = NULL;
        char buf[128];
        const char *args, *plain;
        if (LLVMIsAGetElementPtrInst(user) || LLVMIsAPHINode(user) || LLVMIsASelectInst(user) ||
            (LLVMIsAConstantExpr(user) && (LLVMGetConstOpcode(user) == LLVMGetElementPtr || LLVMGetConstOpcode(user) == LLVMAddrSpaceCast)) ||
            (LLVMIsAAddrSpaceCastInst(user) && LLVMGetPointerAddressSpace(LLVMTypeOf(user)) == 4)) { /* a generic pointer: the same address */
            if (LLVMIsAGetElementPtrInst(user) && LLVMGetOperand(user, 0) != p)
                return gpucompile_lower__refuse(w, user, "a pointer used as an index");
            if (LLVMIsASelectInst(user) && LLVMGetOperand(user, 0) == p) return gpucompile_lower__refuse(w, user, "a pointer used as a condition");
            if (gpucompile_lower__has(u, user)) continue;
            if (u->nderived == (int)(sizeof u->derived / sizeof u->derived[0]))
                return gpucompile_lower__refuse(w, user, "more derived pointers than the rewrite follows (512)");
            u->derived[u->nderived++] = user;
            { /* a nested refusal's result (in a quiet try w->r stays OK) */
                gpucompile_result r = gpucompile_lower__collect(w, user, u);
                if (r != GPUCOMPILE_OK) return r;
            }
            continue;
        }
        if (LLVMIsALoadInst(user)) t = LLVMTypeOf(user);
        else if (LLVMIsAStoreInst(user)) {
            if (LLVMGetOperand(user, 0) == p) return gpucompile_lower__refuse(w, user, "a pointer stored to memory (%s's buffers hold no pointers)", w->t->api);
            t = LLVMTypeOf(LLVMGetOperand(user, 0));
            u->writes = 1;
        } else if (LLVMIsAAtomicRMWInst(user) || LLVMIsAAtomicCmpXchgInst(user)) {
            if (LLVMGetOperand(user, 0) != p) return gpucompile_lower__refuse(w, user, "a pointer stored to memory (%s's buffers hold no pointers)", w->t->api);
            t = LLVMTypeOf(LLVMGetOperand(user, LLVMIsAAtomicRMWInst(user) ? 1 : 2));
            u->writes = 1;
        } else if (LLVMIsACallInst(user) && (callee = LLVMGetCalledValue(user)) && LLVMIsAFunction(callee)) {
            LLVMAtomicRMWBinOp op;
            int n;
            const char *name = gpucompile_value_name(callee);
            plain = gpucompile_lower__demangle(name, buf, sizeof buf, &args);
            if (strncmp(name, "llvm.lifetime.", 14) == 0) continue;
            if (!gpucompile_lower__atomic_op(plain, args, &op, &n) || LLVMGetOperand(user, 0) != p)
                return gpucompile_lower__refuse(w, user, "a pointer passed to a call (%s has no pointers to buffers: inline the callee)", w->t->api);
            t = LLVMTypeOf(user);
            u->writes = 1;
        } else if (LLVMIsAICmpInst(user))
            return gpucompile_lower__refuse(w, user, "pointers compared (compare indices instead)");
        else
            return gpucompile_lower__refuse(w, user, "a pointer converted, passed or returned (%s's buffers are reached only through indices)", w->t->api);
        if (!u->type || LLVMStoreSizeOfType(w->dl, t) < LLVMStoreSizeOfType(w->dl, u->type)) u->type = t; /* the narrowest: the element (see pk_element) */
        if (u->nacc == (int)(sizeof u->acc / sizeof u->acc[0])) return gpucompile_lower__refuse(w, user, "more accesses than the rewrite follows (1024)");
        u->acc[u->nacc].in = user;
        u->acc[u->nacc++].type = t;
    }
    return GPUCOMPILE_OK;
}

/* Is t a number or a vector of numbers (what splits into elements)? */
GPUCOMPILE_PRIVATE int gpucompile_lower__numeric(LLVMTypeRef t) {
    LLVMTypeKind k = LLVMGetTypeKind(t);
    if (k == LLVMVectorTypeKind) k = LLVMGetTypeKind(LLVMGetElementType(t));
    return k == LLVMIntegerTypeKind || k == LLVMHalfTypeKind || k == LLVMFloatTypeKind || k == LLVMDoubleTypeKind || k == LLVMBFloatTypeKind;
}

/* The buffer's element type when accesses differ (a float buffer read as float4, an int one
   written as long): the narrowest, every other access a whole number of them (split into
   element accesses); atomics only of the element type itself. Refused otherwise. */
GPUCOMPILE_PRIVATE gpucompile_result gpucompile_lower__element(gpucompile_lower__state *w, gpucompile_lower__uses *u) {
    unsigned long long es = LLVMStoreSizeOfType(w->dl, u->type);
    int i;
    for (i = 0; i < u->nacc; i++) {
        LLVMTypeRef t = u->acc[i].type;
        const char *why = NULL;
        if (t == u->type) continue;
        if (!gpucompile_lower__numeric(t) || !gpucompile_lower__numeric(u->type) || LLVMStoreSizeOfType(w->dl, t) % es ||
            LLVMABISizeOfType(w->dl, u->type) != es)
            why = "not a whole number of the buffer's narrowest element";
        else if (!LLVMIsALoadInst(u->acc[i].in) && !LLVMIsAStoreInst(u->acc[i].in))
            why = "an atomic access of another type than the buffer's other accesses";
        if (why) {
            char *a = LLVMPrintTypeToString(u->type), *c = LLVMPrintTypeToString(t), msg[300];
            snprintf(msg, sizeof msg, "one pointer accessed as %s and as %s: %s (a %s buffer has one element type)", a, c, why, w->t->api);
            LLVMDisposeMessage(a);
            LLVMDisposeMessage(c);
            return gpucompile_lower__refuse(w, u->acc[i].in, "%s", msg);
        }
    }
    return GPUCOMPILE_OK;
}

/* Whether v is a derived pointer that reaches two bases: a phi or select with an operand
   neither the base nor derived from it. */
GPUCOMPILE_PRIVATE gpucompile_result gpucompile_lower__one_base(gpucompile_lower__state *w, LLVMValueRef base, const gpucompile_lower__uses *u) {
    int i;
    for (i = 0; i < u->nderived; i++) {
        LLVMValueRef d = u->derived[i];
        unsigned k, n;
        if (LLVMIsAPHINode(d)) {
            for (k = 0, n = LLVMCountIncoming(d); k < n; k++) {
                LLVMValueRef v = LLVMGetIncomingValue(d, k);
                if (v != base && !gpucompile_lower__has(u, v) && !LLVMIsUndef(v))
                    return gpucompile_lower__refuse(w, d, "a pointer that may point into two parameters or variables (one buffer each)");
            }
        } else if (LLVMIsASelectInst(d)) {
            for (k = 1; k < 3; k++) {
                LLVMValueRef v = LLVMGetOperand(d, k);
                if (v != base && !gpucompile_lower__has(u, v))
                    return gpucompile_lower__refuse(w, d, "a pointer that may point into two parameters or variables (one buffer each)");
            }
        }
    }
    return GPUCOMPILE_OK;
}

/* The address an access uses, from its element index (i64, truncated to the i32 a shader's
   indices are): the target's buffer_element(handle, index) for a buffer, one getelementptr off the array for
   workgroup memory (the shape LLVM 22 takes), before the access. */
GPUCOMPILE_PRIVATE LLVMValueRef gpucompile_lower__address(gpucompile_lower__state *w, LLVMValueRef handle, LLVMValueRef array, LLVMValueRef index,
                                                               LLVMValueRef at) {
    LLVMValueRef ix;
    LLVMPositionBuilderBefore(w->b, at);
    ix = LLVMBuildTrunc(w->b, index, w->i32, "");
    if (LLVMIsAConstant(ix)) ix = LLVMBuildFreeze(w->b, ix, ""); /* else the getelementptr folds into a constant, which LLVM 22 crashes on */
    if (handle) {
        LLVMTypeRef tys[2];
        LLVMValueRef f, args[2];
        tys[0] = LLVMPointerTypeInContext(w->ctx, w->t->buffer_space);
        tys[1] = LLVMTypeOf(handle);
        if (!(f = gpucompile_lower__intrinsic(w, w->t->buffer_element, tys, 2))) return NULL;
        args[0] = handle;
        args[1] = ix;
        return gpucompile_lower__call(w, f, args, 2);
    } else {
        LLVMValueRef idx[2];
        idx[0] = LLVMConstInt(w->i32, 0, 0);
        idx[1] = ix;
        return LLVMBuildGEP2(w->b, LLVMIsAAllocaInst(array) ? LLVMGetAllocatedType(array) : LLVMGlobalGetValueType(array), array, idx, 2, "");
    }
}

/* An OpenCL atomic function call as the instruction it is, on address a. */
GPUCOMPILE_PRIVATE LLVMValueRef gpucompile_lower__atomic_call(gpucompile_lower__state *w, LLVMValueRef call, LLVMValueRef a) {
    char buf[128];
    const char *args, *plain = gpucompile_lower__demangle(gpucompile_lower__callee_name(call), buf, sizeof buf, &args);
    LLVMAtomicRMWBinOp op;
    LLVMTypeRef t = LLVMTypeOf(call);
    int n;
    /* sequentially consistent at device scope: LLVM's default (system) scope is CrossDevice,
       which a shader may not use, and a monotonic one gets LLVM 22's null struct index */
    LLVMAtomicOrdering o = LLVMAtomicOrderingSequentiallyConsistent;
    if (!gpucompile_lower__atomic_op(plain, args, &op, &n)) return NULL;
    LLVMPositionBuilderBefore(w->b, call);
#if LLVM_VERSION_MAJOR >= 20 /* sync scopes in the C API; LLVM 19 has no SPIR-V target, so this never runs there */
    if (n == 2) {
        LLVMValueRef x = LLVMBuildAtomicCmpXchgSyncScope(w->b, a, LLVMGetOperand(call, 1), LLVMGetOperand(call, 2), o, o,
                                                         LLVMGetSyncScopeID(w->ctx, "device", 6));
        return LLVMBuildExtractValue(w->b, x, 0, "");
    }
    return LLVMBuildAtomicRMWSyncScope(w->b, op, a, n ? LLVMGetOperand(call, 1) : LLVMConstInt(t, 1, 0), o,
                                       LLVMGetSyncScopeID(w->ctx, "device", 6));
#else
    if (n == 2) return LLVMBuildExtractValue(w->b, LLVMBuildAtomicCmpXchg(w->b, a, LLVMGetOperand(call, 1), LLVMGetOperand(call, 2), o, o, 0), 0, "");
    return LLVMBuildAtomicRMW(w->b, op, a, n ? LLVMGetOperand(call, 1) : LLVMConstInt(t, 1, 0), o, 0);
#endif
}

/* Rewrites every access of base (collected in u) to address elements of handle's buffer or of
   array (workgroup memory); the derived pointers, dead then, are erased. */
GPUCOMPILE_PRIVATE gpucompile_result gpucompile_lower__rewrite(gpucompile_lower__state *w, LLVMValueRef base, gpucompile_lower__uses *u,
                                                                    LLVMValueRef handle, LLVMValueRef array) {
    int i;
    w->base = base;
    w->nptrs = 0;
    w->es = (long long)LLVMABISizeOfType(w->dl, u->type);
    if (w->es <= 0) return gpucompile_lower__refuse(w, u->acc[0].in, "an access of no size");
    for (i = 0; i < u->nacc; i++) {
        LLVMValueRef in = u->acc[i].in, p, idx, a;
        unsigned op = LLVMIsAStoreInst(in) ? 1u : 0u;
        p = LLVMGetOperand(in, op);
        if (!(idx = gpucompile_lower__offset(w, p, in, 0)))
            return gpucompile_lower__refuse(w, in, "an address that is not a whole number of elements off its parameter or variable "
                                                     "(the buffer model indexes elements of one type)");
        if (!(a = gpucompile_lower__address(w, handle, array, idx, in))) return gpucompile_lower__fail(w, GPUCOMPILE_ERROR_LLVM, "no %s in this LLVM", w->t->buffer_element);
        if (u->acc[i].type != u->type) { /* a wider access: one per element, put together */
            LLVMTypeRef t = u->acc[i].type, bt = u->type;
            unsigned k, n = (unsigned)(LLVMStoreSizeOfType(w->dl, t) / (unsigned long long)w->es);
            /* the parts: the elements of a vector of the element type; of an integer element,
               shifts of one wide integer (LLVM 22 crashes on a bitcast to a vector of i8);
               else a vector bitcast */
            int direct = LLVMGetTypeKind(t) == LLVMVectorTypeKind && LLVMGetElementType(t) == bt;
            int ints = !direct && LLVMGetTypeKind(bt) == LLVMIntegerTypeKind;
            unsigned bits = (unsigned)w->es * 8;
            LLVMTypeRef wide = ints ? LLVMIntTypeInContext(w->ctx, bits * n) : NULL, vt = n == 1 ? bt : LLVMVectorType(bt, n);
            LLVMValueRef v = NULL, parts = NULL;
            LLVMPositionBuilderBefore(w->b, in);
            if (LLVMIsAStoreInst(in)) {
                parts = LLVMGetOperand(in, 0);
                if (ints && LLVMTypeOf(parts) != wide) parts = LLVMBuildBitCast(w->b, parts, wide, "");
                else if (!ints && !direct) parts = LLVMBuildBitCast(w->b, parts, vt, "");
            } else
                v = ints ? LLVMConstInt(wide, 0, 0) : n > 1 ? LLVMGetPoison(direct ? t : vt) : NULL;
            for (k = 0; k < n; k++) {
                LLVMValueRef ak = k ? gpucompile_lower__address(w, handle, array, LLVMBuildAdd(w->b, idx, LLVMConstInt(w->i64, k, 0), ""), in) : a;
                LLVMPositionBuilderBefore(w->b, in);
                if (LLVMIsAStoreInst(in)) {
                    LLVMValueRef e = ints ? LLVMBuildTrunc(w->b, k ? LLVMBuildLShr(w->b, parts, LLVMConstInt(wide, k * bits, 0), "") : parts, bt, "")
                                          : n == 1 ? parts : LLVMBuildExtractElement(w->b, parts, LLVMConstInt(w->i32, k, 0), "");
                    LLVMBuildStore(w->b, e, ak);
                } else {
                    LLVMValueRef e = LLVMBuildLoad2(w->b, bt, ak, "");
                    if (ints) {
                        e = LLVMBuildZExt(w->b, e, wide, "");
                        v = LLVMBuildOr(w->b, v, k ? LLVMBuildShl(w->b, e, LLVMConstInt(wide, k * bits, 0), "") : e, "");
                    } else
                        v = n == 1 ? e : LLVMBuildInsertElement(w->b, v, e, LLVMConstInt(w->i32, k, 0), "");
                }
            }
            if (!LLVMIsAStoreInst(in)) LLVMReplaceAllUsesWith(in, LLVMTypeOf(v) == t ? v : LLVMBuildBitCast(w->b, v, t, ""));
            LLVMInstructionEraseFromParent(in);
            continue;
        }
        if (LLVMIsACallInst(in)) {
            LLVMValueRef x = gpucompile_lower__atomic_call(w, in, a);
            LLVMReplaceAllUsesWith(in, x);
            LLVMInstructionEraseFromParent(in);
        } else {
            LLVMSetOperand(in, op, a);
#if LLVM_VERSION_MAJOR >= 20
            /* LLVM's default (system) scope is CrossDevice, which a shader may not use */
            if ((LLVMIsAAtomicRMWInst(in) || LLVMIsAAtomicCmpXchgInst(in)) && LLVMGetAtomicSyncScopeID(in) == LLVMGetSyncScopeID(w->ctx, "", 0))
                LLVMSetAtomicSyncScopeID(in, LLVMGetSyncScopeID(w->ctx, "device", 6));
#endif
        }
    }
    for (i = u->nderived - 1; i >= 0; i--) { /* users after their pointers: erased in reverse */
        LLVMValueRef d = u->derived[i];
        if (LLVMIsAInstruction(d)) LLVMReplaceAllUsesWith(d, LLVMGetPoison(LLVMTypeOf(d)));
    }
    for (i = u->nderived - 1; i >= 0; i--)
        if (LLVMIsAInstruction(u->derived[i])) LLVMInstructionEraseFromParent(u->derived[i]);
    return GPUCOMPILE_OK;
}

/* ---- calls: builtins, barriers, math; refusals ---- */
GPUCOMPILE_PRIVATE gpucompile_result gpucompile_lower__calls_in(gpucompile_lower__state *w, LLVMValueRef fn) {
    LLVMBasicBlockRef bb;
    LLVMValueRef in, next;
    for (bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
        for (in = LLVMGetFirstInstruction(bb); in; in = next) {
            LLVMValueRef callee, v = NULL;
            const char *name, *args, *plain, *m;
            char buf[128];
            int kind, dim, n;
            next = LLVMGetNextInstruction(in);
            if (LLVMIsALoadInst(in) && LLVMGetTypeKind(LLVMTypeOf(in)) == LLVMPointerTypeKind)
                return gpucompile_lower__refuse(w, in, "a pointer loaded from memory (%s's buffers hold no pointers)", w->t->api);
            if (LLVMIsAFenceInst(in)) return gpucompile_lower__refuse(w, in, "a fence without a barrier (LLVM 22 writes an invalid OpMemoryBarrier)");
            if (!LLVMIsACallInst(in)) continue;
            callee = LLVMGetCalledValue(in);
            if (!callee || !LLVMIsAFunction(callee))
                return gpucompile_lower__refuse(w, in, "an indirect call (function pointers cannot be expressed in a %s shader)", w->t->api);
            name = gpucompile_value_name(callee);
            plain = gpucompile_lower__demangle(name, buf, sizeof buf, &args);
            LLVMPositionBuilderBefore(w->b, in);
            if ((kind = gpucompile_lower__builtin_kind(name, &dim)) != GPUCOMPILE_LOWER__B_NONE) {
                v = gpucompile_lower__builtin(w, kind, dim < 0 && LLVMGetNumArgOperands(in) ? LLVMGetOperand(in, 0) : LLVMConstInt(w->i32, 0, 0),
                                               dim, LLVMTypeOf(in));
            } else if (strcmp(plain, "barrier") == 0 || strcmp(plain, "work_group_barrier") == 0 || strcmp(plain, "__spirv_ControlBarrier") == 0 ||
                       strcmp(name, "llvm.nvvm.barrier0") == 0 || strncmp(name, "llvm.nvvm.barrier.cta.sync", 26) == 0) {
                LLVMValueRef f = gpucompile_lower__intrinsic(w, w->t->barrier, NULL, 0);
                if (!f) return gpucompile_lower__fail(w, GPUCOMPILE_ERROR_LLVM, "no %s in this LLVM", w->t->barrier);
                v = gpucompile_lower__call(w, f, NULL, 0);
            } else if (strcmp(plain, "printf") == 0 || strcmp(name, "vprintf") == 0) {
                return gpucompile_lower__refuse(w, in, "printf (a %s shader has no output stream)", w->t->api);
            } else if (strcmp(plain, "mem_fence") == 0 || strcmp(plain, "read_mem_fence") == 0 || strcmp(plain, "write_mem_fence") == 0 ||
                       strcmp(plain, "atomic_work_item_fence") == 0) {
                return gpucompile_lower__refuse(w, in, "a fence without a barrier (LLVM 22 writes an invalid OpMemoryBarrier)");
            } else if ((m = gpucompile_lower__math(plain, args, &n)) != NULL || (m = gpucompile_lower__int_math(plain, args, &n)) != NULL) {
                LLVMTypeRef t = LLVMTypeOf(in);
                LLVMValueRef f = gpucompile_lower__intrinsic(w, m, &t, 1), ops[3];
                int k;
                if (!f || (int)LLVMGetNumArgOperands(in) != n) continue; /* left for the undefined-function check */
                for (k = 0; k < n; k++) ops[k] = LLVMGetOperand(in, (unsigned)k);
                v = gpucompile_lower__call(w, f, ops, (unsigned)n);
            } else if (strcmp(plain, "rsqrt") == 0 || strcmp(plain, "native_rsqrt") == 0 || strcmp(plain, "half_rsqrt") == 0) {
                LLVMTypeRef t = LLVMTypeOf(in);
                LLVMValueRef f = gpucompile_lower__intrinsic(w, "llvm.sqrt", &t, 1), x = LLVMGetOperand(in, 0);
                if (!f) continue;
                v = LLVMBuildFDiv(w->b, LLVMConstReal(LLVMGetTypeKind(t) == LLVMVectorTypeKind ? LLVMGetElementType(t) : t, 1.0), gpucompile_lower__call(w, f, &x, 1), "");
                if (LLVMGetTypeKind(t) == LLVMVectorTypeKind) continue; /* a vector's needs a splat: left as it is */
            } else if (strcmp(plain, "clamp") == 0 && LLVMGetNumArgOperands(in) == 3 && LLVMTypeOf(LLVMGetOperand(in, 1)) == LLVMTypeOf(in)) {
                LLVMTypeRef t = LLVMTypeOf(in);
                const char *lo, *hi;
                LLVMValueRef fl, fh, ops[2];
                int fp = gpucompile_lower__math("fabs", args, &n) != NULL;
                lo = fp ? "llvm.maxnum" : gpucompile_lower__int_math("max", args, &n);
                hi = fp ? "llvm.minnum" : gpucompile_lower__int_math("min", args, &n);
                if (!lo || !hi || !(fl = gpucompile_lower__intrinsic(w, lo, &t, 1)) || !(fh = gpucompile_lower__intrinsic(w, hi, &t, 1))) continue;
                ops[0] = LLVMGetOperand(in, 0);
                ops[1] = LLVMGetOperand(in, 1);
                ops[0] = gpucompile_lower__call(w, fl, ops, 2);
                ops[1] = LLVMGetOperand(in, 2);
                v = gpucompile_lower__call(w, fh, ops, 2);
            } else if (strcmp(plain, "mix") == 0 && LLVMGetNumArgOperands(in) == 3 && LLVMTypeOf(LLVMGetOperand(in, 2)) == LLVMTypeOf(in)) {
                LLVMValueRef a0 = LLVMGetOperand(in, 0);
                v = LLVMBuildFAdd(w->b, a0, LLVMBuildFMul(w->b, LLVMBuildFSub(w->b, LLVMGetOperand(in, 1), a0, ""), LLVMGetOperand(in, 2), ""), "");
            } else if ((strncmp(plain, "vload", 5) == 0 || strncmp(plain, "vstore", 6) == 0) && plain[plain[1] == 'l' ? 5 : 6] >= '1' &&
                       plain[plain[1] == 'l' ? 5 : 6] <= '9') {
                /* vloadN(offset, p) / vstoreN(data, offset, p): N elements at p + offset * N,
                   as a load or store of the vector (split into the buffer's elements later) */
                int st = plain[1] == 's';
                LLVMValueRef data = st ? LLVMGetOperand(in, 0) : NULL, off = LLVMGetOperand(in, st ? 1u : 0u), ptr = LLVMGetOperand(in, st ? 2u : 1u), g, x;
                LLVMTypeRef vt = st ? LLVMTypeOf(data) : LLVMTypeOf(in), et;
                LLVMValueRef cast = LLVMIsAAddrSpaceCastInst(ptr) ? ptr : NULL;
                if (LLVMGetTypeKind(vt) != LLVMVectorTypeKind) continue;
                et = LLVMGetElementType(vt);
                if (cast) ptr = LLVMGetOperand(cast, 0);
                off = LLVMBuildMul(w->b, LLVMBuildIntCast2(w->b, off, w->i64, 0, ""), LLVMConstInt(w->i64, LLVMGetVectorSize(vt), 0), "");
                g = LLVMBuildGEP2(w->b, et, ptr, &off, 1, "");
                if (st) x = LLVMBuildStore(w->b, data, g);
                else x = v = LLVMBuildLoad2(w->b, vt, g, "");
                LLVMSetAlignment(x, LLVMABIAlignmentOfType(w->dl, et));
                if (st) {
                    LLVMInstructionEraseFromParent(in);
                    if (cast && !LLVMGetFirstUse(cast)) {
                        if (cast == next) next = LLVMGetNextInstruction(cast);
                        LLVMInstructionEraseFromParent(cast);
                    }
                    continue;
                }
                LLVMReplaceAllUsesWith(in, v);
                LLVMInstructionEraseFromParent(in);
                if (cast && !LLVMGetFirstUse(cast)) {
                    if (cast == next) next = LLVMGetNextInstruction(cast);
                    LLVMInstructionEraseFromParent(cast);
                }
                continue;
            } else if ((strncmp(name, "llvm.memcpy.", 12) == 0 || strncmp(name, "llvm.memmove.", 13) == 0 || strncmp(name, "llvm.memset.", 12) == 0) &&
                       LLVMGetNumArgOperands(in) >= 3 && LLVMIsAConstantInt(LLVMGetOperand(in, 2)) && LLVMConstIntGetZExtValue(LLVMGetOperand(in, 2)) <= 4096 &&
                       (name[8] != 's' || LLVMIsAConstantInt(LLVMGetOperand(in, 1)))) {
                /* a copy or fill of a constant size: 32-bit words (bytes for a tail), all loads
                   before the stores, so that the addresses are element accesses like any other
                   (a shader has no memcpy of buffers) */
                unsigned long long len = LLVMConstIntGetZExtValue(LLVMGetOperand(in, 2)), off = 0, k = 0, nw = 0;
                int set = name[8] == 's'; /* llvm.memset */
                LLVMValueRef dst = LLVMGetOperand(in, 0), src = LLVMGetOperand(in, 1), vals[1024];
                LLVMTypeRef i8 = LLVMInt8TypeInContext(w->ctx);
                unsigned char byte = set ? (unsigned char)LLVMConstIntGetZExtValue(src) : 0;
                unsigned long long word = byte * 0x01010101ull;
                for (off = 0; off < len && nw < 1024; nw++) {
                    int wide = len - off >= 4;
                    LLVMValueRef o = LLVMConstInt(w->i64, off, 0), p;
                    if (set) vals[nw] = wide ? LLVMConstInt(w->i32, word, 0) : LLVMConstInt(i8, byte, 0);
                    else {
                        p = LLVMBuildGEP2(w->b, i8, src, &o, 1, "");
                        vals[nw] = LLVMBuildLoad2(w->b, wide ? w->i32 : i8, p, "");
                        LLVMSetAlignment(vals[nw], 1);
                    }
                    off += wide ? 4 : 1;
                }
                for (off = 0, k = 0; k < nw; k++) {
                    LLVMValueRef o = LLVMConstInt(w->i64, off, 0), p = LLVMBuildGEP2(w->b, i8, dst, &o, 1, ""), st = LLVMBuildStore(w->b, vals[k], p);
                    LLVMSetAlignment(st, 1);
                    off += LLVMTypeOf(vals[k]) == w->i32 ? 4 : 1;
                }
                LLVMInstructionEraseFromParent(in);
                continue;
            } else if (strcmp(plain, "mul24") == 0 && LLVMGetNumArgOperands(in) == 2) {
                v = LLVMBuildMul(w->b, LLVMGetOperand(in, 0), LLVMGetOperand(in, 1), "");
            } else if (strcmp(plain, "mad24") == 0 && LLVMGetNumArgOperands(in) == 3) {
                v = LLVMBuildAdd(w->b, LLVMBuildMul(w->b, LLVMGetOperand(in, 0), LLVMGetOperand(in, 1), ""), LLVMGetOperand(in, 2), "");
            } else
                continue;
            if (!v) return gpucompile_lower__fail(w, GPUCOMPILE_ERROR_LLVM, "no %s in this LLVM", w->t->work_item[0]);
            LLVMReplaceAllUsesWith(in, v);
            LLVMInstructionEraseFromParent(in);
        }
    return GPUCOMPILE_OK;
}

/* A load of a __spirv_BuiltIn* variable (or of an element: off bytes in) as the builtin's value. */
GPUCOMPILE_PRIVATE void gpucompile_lower__builtin_load(gpucompile_lower__state *w, int kind, LLVMValueRef ld, long long off) {
    LLVMTypeRef t = LLVMTypeOf(ld);
    LLVMValueRef v;
    LLVMPositionBuilderBefore(w->b, ld);
    if (LLVMGetTypeKind(t) == LLVMVectorTypeKind) {
        unsigned k, n = LLVMGetVectorSize(t);
        v = LLVMGetPoison(t);
        for (k = 0; k < n && k < 3; k++)
            v = LLVMBuildInsertElement(w->b, v, gpucompile_lower__builtin(w, kind, NULL, (int)k, LLVMGetElementType(t)), LLVMConstInt(w->i32, k, 0), "");
    } else {
        long long es = (long long)LLVMABISizeOfType(w->dl, t);
        v = gpucompile_lower__builtin(w, kind, NULL, es ? (int)(off / es) : 0, t);
    }
    LLVMReplaceAllUsesWith(ld, v);
    LLVMInstructionEraseFromParent(ld);
}

/* The __spirv_BuiltIn* variables (the SPIR-V translator's form): each load of one, of the whole
   vector or of an element at a constant getelementptr, as the builtin's value. */
GPUCOMPILE_PRIVATE gpucompile_result gpucompile_lower__builtin_vars(gpucompile_lower__state *w) {
    LLVMValueRef g, next, users[256];
    for (g = LLVMGetFirstGlobal(w->m); g; g = next) {
        int kind, dim, n = 0, i;
        LLVMUseRef use;
        next = LLVMGetNextGlobal(g);
        if ((kind = gpucompile_lower__builtin_kind(gpucompile_value_name(g), &dim)) == GPUCOMPILE_LOWER__B_NONE) continue;
        for (use = LLVMGetFirstUse(g); use && n < 256; use = LLVMGetNextUse(use)) users[n++] = LLVMGetUser(use);
        for (i = 0; i < n; i++) {
            LLVMValueRef user = users[i], lds[64];
            int k, nops, nl = 0;
            LLVMTypeRef st;
            long long off;
            if (LLVMIsALoadInst(user)) {
                gpucompile_lower__builtin_load(w, kind, user, 0);
                continue;
            }
            if (!(LLVMIsAConstantExpr(user) && LLVMGetConstOpcode(user) == LLVMGetElementPtr) && !LLVMIsAGetElementPtrInst(user))
                return gpucompile_lower__refuse(w, LLVMIsAInstruction(user) ? user : g, "a work-item variable used other than by loads");
            nops = LLVMGetNumOperands(user);
            st = LLVMGetGEPSourceElementType(user);
            for (k = 1; k < nops; k++)
                if (!LLVMIsAConstantInt(LLVMGetOperand(user, (unsigned)k))) break;
            if (k < nops || nops > 3) return gpucompile_lower__refuse(w, user, "a work-item variable read at a computed address");
            off = LLVMConstIntGetSExtValue(LLVMGetOperand(user, (unsigned)(nops - 1))) *
                  (long long)LLVMABISizeOfType(w->dl, nops == 3 ? LLVMGetElementType(st) : st);
            for (use = LLVMGetFirstUse(user); use && nl < 64; use = LLVMGetNextUse(use)) {
                if (!LLVMIsALoadInst(LLVMGetUser(use))) return gpucompile_lower__refuse(w, LLVMGetUser(use), "a work-item variable used other than by loads");
                lds[nl++] = LLVMGetUser(use);
            }
            for (k = 0; k < nl; k++) gpucompile_lower__builtin_load(w, kind, lds[k], off);
            if (LLVMIsAGetElementPtrInst(user)) LLVMInstructionEraseFromParent(user);
        }
        LLVMReplaceAllUsesWith(g, LLVMGetPoison(LLVMTypeOf(g))); /* dead constant expressions */
        LLVMDeleteGlobal(g);
    }
    return GPUCOMPILE_OK;
}

/* ---- the module ---- */
/* The workgroup size: reqd_work_group_size, else def. */
GPUCOMPILE_PRIVATE void gpucompile_lower__wg_size(gpucompile_lower__state *w, LLVMValueRef fn, const unsigned def[3], unsigned out[3]) {
    unsigned kind = LLVMGetMDKindIDInContext(w->ctx, "reqd_work_group_size", 20), k;
    size_t n = 0, i;
    LLVMValueMetadataEntry *md = LLVMGlobalCopyAllMetadata(fn, &n);
    memcpy(out, def, 3 * sizeof *out);
    for (i = 0; i < n; i++) {
        LLVMValueRef node, ops[3];
        if (LLVMValueMetadataEntriesGetKind(md, (unsigned)i) != kind) continue;
        node = LLVMMetadataAsValue(w->ctx, LLVMValueMetadataEntriesGetMetadata(md, (unsigned)i));
        if (LLVMGetMDNodeNumOperands(node) != 3) continue;
        LLVMGetMDNodeOperands(node, ops);
        for (k = 0; k < 3; k++)
            if (ops[k] && LLVMIsAConstantInt(ops[k]) && LLVMConstIntGetZExtValue(ops[k])) out[k] = (unsigned)LLVMConstIntGetZExtValue(ops[k]);
    }
    if (md) LLVMDisposeValueMetadataEntries(md);
}

/* Recursion: a call cycle through fn (colour: 0 new, 1 on the path, 2 done). */
GPUCOMPILE_PRIVATE gpucompile_result gpucompile_lower__cycles(gpucompile_lower__state *w, LLVMValueRef fn, LLVMValueRef *seen, int *colour, int *nseen, int depth) {
    LLVMBasicBlockRef bb;
    LLVMValueRef in;
    int me = -1, i;
    for (i = 0; i < *nseen; i++)
        if (seen[i] == fn) me = i;
    if (me >= 0 && colour[me] == 2) return GPUCOMPILE_OK;
    if (me < 0) {
        if (*nseen == 1024 || depth > 256) return GPUCOMPILE_OK;
        me = (*nseen)++;
        seen[me] = fn;
    }
    colour[me] = 1;
    for (bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
        for (in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in)) {
            LLVMValueRef f = LLVMIsACallInst(in) ? LLVMGetCalledValue(in) : NULL;
            if (!f || !LLVMIsAFunction(f) || LLVMIsDeclaration(f)) continue;
            for (i = 0; i < *nseen; i++)
                if (seen[i] == f && colour[i] == 1) return gpucompile_lower__refuse(w, in, "recursion (a %s shader has no call stack)", w->t->api);
            if (gpucompile_lower__cycles(w, f, seen, colour, nseen, depth + 1) != GPUCOMPILE_OK) return w->r;
        }
    colour[me] = 2;
    return GPUCOMPILE_OK;
}

/* What cannot be expressed, module-wide: function pointers, recursion, variables in global or
   constant memory. */
GPUCOMPILE_PRIVATE gpucompile_result gpucompile_lower__check(gpucompile_lower__state *w) {
    LLVMValueRef fn, g, seen[1024];
    int colour[1024], nseen = 0;
    for (fn = LLVMGetFirstFunction(w->m); fn; fn = LLVMGetNextFunction(fn)) {
        LLVMUseRef use;
        char buf[64];
        const char *args;
        if (strcmp(gpucompile_lower__demangle(gpucompile_value_name(fn), buf, sizeof buf, &args), "printf") == 0 && LLVMGetFirstUse(fn) &&
            LLVMIsAInstruction(LLVMGetUser(LLVMGetFirstUse(fn))))
            return gpucompile_lower__refuse(w, LLVMGetUser(LLVMGetFirstUse(fn)), "printf (a %s shader has no output stream)", w->t->api);
        for (use = LLVMGetFirstUse(fn); use; use = LLVMGetNextUse(use)) {
            LLVMValueRef user = LLVMGetUser(use);
            if (LLVMIsAInstruction(user) && !(LLVMIsACallInst(user) && LLVMGetCalledValue(user) == fn))
                return gpucompile_lower__refuse(w, user, "a function's address taken (function pointers cannot be expressed in a %s shader)", w->t->api);
        }
    }
    for (fn = LLVMGetFirstFunction(w->m); fn; fn = LLVMGetNextFunction(fn))
        if (gpucompile_is_pointer_kernel(fn) && gpucompile_lower__cycles(w, fn, seen, colour, &nseen, 0) != GPUCOMPILE_OK) return w->r;
    for (g = LLVMGetFirstGlobal(w->m); g; g = LLVMGetNextGlobal(g)) {
        unsigned as = LLVMGetPointerAddressSpace(LLVMTypeOf(g));
        int dim;
        if (!LLVMGetFirstUse(g) || gpucompile_lower__builtin_kind(gpucompile_value_name(g), &dim) != GPUCOMPILE_LOWER__B_NONE) continue;
        if ((as == 1 || as == 2) && !(LLVMIsGlobalConstant(g) && LLVMGetInitializer(g)))
            return gpucompile_lower__fail(w, GPUCOMPILE_ERROR_UNSUPPORTED, "global '%s': a variable in %s memory (a %s shader module has "
                                              "none: pass it as a buffer parameter)", gpucompile_value_name(g), as == 1 ? "global" : "constant");
    }
    return GPUCOMPILE_OK;
}

/* After the builtins are rewritten: pointers passed to functions the optimizer did not inline;
   late (after the rewrite, where generic pointers derived from one parameter or variable are
   gone): any generic pointer left. */
GPUCOMPILE_PRIVATE gpucompile_result gpucompile_lower__generic(gpucompile_lower__state *w, int late) {
    LLVMValueRef fn;
    for (fn = LLVMGetFirstFunction(w->m); fn; fn = LLVMGetNextFunction(fn)) {
        LLVMBasicBlockRef bb;
        LLVMValueRef in;
        for (bb = LLVMIsDeclaration(fn) ? NULL : LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
            for (in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in)) {
                LLVMTypeRef t = LLVMTypeOf(in);
                unsigned k, n;
                if (late) {
                    if (LLVMGetTypeKind(t) == LLVMPointerTypeKind && LLVMGetPointerAddressSpace(t) == 4)
                        return gpucompile_lower__refuse(w, in, "a generic pointer that is not one parameter's or variable's "
                                                                  "(OpenCL's generic address space: %s has none)", w->t->api);
                    continue;
                }
                if (!LLVMIsACallInst(in) || !LLVMIsAFunction(LLVMGetCalledValue(in)) || LLVMIsDeclaration(LLVMGetCalledValue(in))) continue;
                for (k = 0, n = LLVMGetNumArgOperands(in); k < n; k++)
                    if (LLVMGetTypeKind(LLVMTypeOf(LLVMGetOperand(in, k))) == LLVMPointerTypeKind)
                        return gpucompile_lower__refuse(w, in, "a pointer passed to a function that is not inlined (LLVM 22 cannot pass "
                                                                  "pointers between functions of a %s shader: inline the callee)", w->t->api);
            }
    }
    return GPUCOMPILE_OK;
}

/* Workgroup (addrspace 3) variables as arrays of the one type they are accessed as, each access
   one getelementptr off the array; constant tables (addrspace 1 or 2 constants: OpenCL's
   `constant float w[5] = {...}`) the same in private memory (the target's private_space) with their values,
   when they are arrays of the type they are read as. */
GPUCOMPILE_PRIVATE gpucompile_result gpucompile_lower__workgroup_vars(gpucompile_lower__state *w, gpucompile_lower__uses *u) {
    LLVMValueRef g, last = LLVMGetLastGlobal(w->m), next;
    int done = !last;
    for (g = LLVMGetFirstGlobal(w->m); !done; g = next) { /* up to the last one before: the arrays made here come after it */
        LLVMValueRef a;
        LLVMTypeRef at;
        unsigned long long size, es;
        char name[256];
        unsigned as;
        int dim;
        next = LLVMGetNextGlobal(g);
        done = g == last;
        as = LLVMGetPointerAddressSpace(LLVMTypeOf(g));
        if (LLVMIsDeclaration(g) || !(as == 3 || ((as == 1 || as == 2) && LLVMIsGlobalConstant(g))) ||
            gpucompile_lower__builtin_kind(gpucompile_value_name(g), &dim) != GPUCOMPILE_LOWER__B_NONE)
            continue;
        memset(u, 0, sizeof *u);
        if (gpucompile_lower__collect(w, g, u) != GPUCOMPILE_OK || gpucompile_lower__one_base(w, g, u) != GPUCOMPILE_OK) return w->r;
        if (!u->nacc) continue;
        if (gpucompile_lower__element(w, u) != GPUCOMPILE_OK) return w->r;
        size = LLVMABISizeOfType(w->dl, LLVMGlobalGetValueType(g));
        es = LLVMABISizeOfType(w->dl, u->type);
        at = as == 3 ? LLVMArrayType2(u->type, es ? (size + es - 1) / es : 1) : LLVMGlobalGetValueType(g);
        if (as != 3 && (LLVMGetTypeKind(at) != LLVMArrayTypeKind || LLVMGetElementType(at) != u->type))
            return gpucompile_lower__refuse(w, u->acc[0].in, "a constant table read as another type than its elements' (not rewritten)");
        snprintf(name, sizeof name, "%s", gpucompile_value_name(g));
        a = LLVMAddGlobalInAddressSpace(w->m, at, "", as == 3 ? 3 : w->t->private_space);
        LLVMSetLinkage(a, LLVMInternalLinkage);
        if (as == 3) LLVMSetInitializer(a, LLVMGetPoison(at)); /* workgroup memory starts undefined */
        else {
            LLVMSetInitializer(a, LLVMGetInitializer(g)); /* not marked constant: LLVM 22 puts a constant in UniformConstant, invalid for a shader */
        }
        LLVMSetAlignment(a, LLVMGetAlignment(g));
        if (gpucompile_lower__rewrite(w, g, u, NULL, a) != GPUCOMPILE_OK) return w->r;
        LLVMReplaceAllUsesWith(g, LLVMGetPoison(LLVMTypeOf(g)));
        LLVMDeleteGlobal(g);
        LLVMSetValueName2(a, name, strlen(name));
    }
    return GPUCOMPILE_OK;
}

/* Private arrays (allocas of a constant size in an entry block) as arrays of the one type they
   are accessed as, each access one getelementptr off the array: the optimizer's byte offsets into
   them crash LLVM 22's code generator as they do in workgroup memory. One whose uses the rewrite
   does not follow (a memset, a call) is left as it is. */
GPUCOMPILE_PRIVATE gpucompile_result gpucompile_lower__private_arrays(gpucompile_lower__state *w, LLVMValueRef fn, gpucompile_lower__uses *u) {
    LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(fn);
    LLVMValueRef in, list[256];
    int n = 0, i;
    for (in = LLVMGetFirstInstruction(entry); in && n < 256; in = LLVMGetNextInstruction(in))
        if (LLVMIsAAllocaInst(in) && LLVMIsAConstantInt(LLVMGetOperand(in, 0))) list[n++] = in;
    for (i = 0; i < n; i++) {
        LLVMValueRef a = list[i], na;
        LLVMUseRef use;
        unsigned long long size, es;
        LLVMTypeRef at;
        gpucompile_result r;
        memset(u, 0, sizeof *u);
        w->quiet = 1;
        r = gpucompile_lower__collect(w, a, u);
        if (r == GPUCOMPILE_OK) r = gpucompile_lower__one_base(w, a, u);
        if (r == GPUCOMPILE_OK && u->nacc) r = gpucompile_lower__element(w, u);
        w->quiet = 0;
        if (r != GPUCOMPILE_OK || !u->nacc) continue;
        size = LLVMABISizeOfType(w->dl, LLVMGetAllocatedType(a)) * LLVMConstIntGetZExtValue(LLVMGetOperand(a, 0));
        es = LLVMABISizeOfType(w->dl, u->type);
        if (!es || size % es) continue;
        at = LLVMArrayType2(u->type, size / es);
        LLVMPositionBuilderBefore(w->b, LLVMGetFirstInstruction(entry));
        na = LLVMBuildAlloca(w->b, at, "");
        LLVMSetAlignment(na, LLVMGetAlignment(a));
        if (gpucompile_lower__rewrite(w, a, u, NULL, na) != GPUCOMPILE_OK) return w->r;
        while ((use = LLVMGetFirstUse(a)) != NULL && LLVMIsACallInst(LLVMGetUser(use))) /* lifetime markers */
            LLVMInstructionEraseFromParent(LLVMGetUser(use));
        LLVMReplaceAllUsesWith(a, LLVMGetPoison(LLVMTypeOf(a)));
        LLVMInstructionEraseFromParent(a);
    }
    return GPUCOMPILE_OK;
}

/* A resource's name: a private constant string (LLVM 22 crashes on a null one). */
GPUCOMPILE_PRIVATE LLVMValueRef gpucompile_lower__name(gpucompile_lower__state *w, const char *kernel, LLVMValueRef param, unsigned i) {
    char text[128], gname[300];
    LLVMValueRef s, g;
    const char *pn = gpucompile_value_name(param);
    /* kernel.parameter: LLVM 22 makes one variable of each resource name in a module */
    if (*pn) snprintf(text, sizeof text, "%.60s.%.60s", kernel, pn);
    else snprintf(text, sizeof text, "%.60s.arg%u", kernel, i);
    snprintf(gname, sizeof gname, "%s.name", text);
    s = LLVMConstStringInContext2(w->ctx, text, strlen(text), 0);
    g = LLVMAddGlobalInAddressSpace(w->m, LLVMTypeOf(s), gname, 0); /* the name argument's type (a shader's globals default to private_space) */
    LLVMSetInitializer(g, s);
    LLVMSetGlobalConstant(g, 1);
    LLVMSetLinkage(g, LLVMPrivateLinkage);
    LLVMSetUnnamedAddress(g, LLVMGlobalUnnamedAddr);
    return g;
}

/* The push-constant block: 32-bit words (one struct of i32 members), each kernel's scalar
   parameters laid out from offset 0 in order, each at a multiple of 4 bytes and of its own
   alignment; the kernels of a module share the block (a driver may refuse a module with two), so it is
   as long as the longest kernel's, not the sum of them. */
typedef struct gpucompile_lower__push_plan {
    unsigned words; /* the block's */
} gpucompile_lower__push_plan;

GPUCOMPILE_PRIVATE int gpucompile_lower__is_scalar(LLVMTypeRef t) {
    LLVMTypeKind k = LLVMGetTypeKind(t);
    if (k == LLVMVectorTypeKind) k = LLVMGetTypeKind(LLVMGetElementType(t));
    return k == LLVMIntegerTypeKind || k == LLVMHalfTypeKind || k == LLVMFloatTypeKind || k == LLVMDoubleTypeKind;
}

/* The next parameter's offset in the block after *end bytes; *end past it. 0 when it is no
   scalar the block can hold (a size under 4 bytes or a multiple of 4). */
GPUCOMPILE_PRIVATE int gpucompile_lower__place(gpucompile_lower__state *w, LLVMTypeRef t, unsigned *end, unsigned *offset) {
    unsigned size = (unsigned)LLVMStoreSizeOfType(w->dl, t), align = LLVMABIAlignmentOfType(w->dl, t), off;
    if (!gpucompile_lower__is_scalar(t) || !size || (size > 4 && size % 4) || size > 64) return 0;
    if (align < 4) align = 4;
    off = (*end + align - 1) / align * align;
    *offset = off;
    *end = off + (size < 4 ? 4 : size);
    return 1;
}

/* A scalar parameter of type t read from the block's words at offset, in the entry block: each
   element from its word (or two, or part of one) by integer shifts (LLVM 22 crashes on some
   bitcasts between vectors and scalars). */
GPUCOMPILE_PRIVATE LLVMValueRef gpucompile_lower__push_load(gpucompile_lower__state *w, LLVMValueRef pc, LLVMTypeRef t, unsigned offset) {
    LLVMTypeRef st = LLVMGlobalGetValueType(pc), et = LLVMGetTypeKind(t) == LLVMVectorTypeKind ? LLVMGetElementType(t) : t;
    unsigned n = LLVMGetTypeKind(t) == LLVMVectorTypeKind ? LLVMGetVectorSize(t) : 1, esz = (unsigned)LLVMStoreSizeOfType(w->dl, et), j;
    LLVMValueRef v = n > 1 ? LLVMGetPoison(t) : NULL, words[16];
    LLVMTypeRef it = LLVMIntTypeInContext(w->ctx, esz * 8);
    memset(words, 0, sizeof words);
    for (j = 0; j < n; j++) {
        unsigned byte = offset + j * esz, wi = byte / 4 - offset / 4, k;
        LLVMValueRef x;
        for (k = wi; k < wi + (esz == 8 ? 2u : 1u) && k < 16; k++)
            if (!words[k]) {
                LLVMValueRef idx[2];
                idx[0] = LLVMConstInt(w->i32, 0, 0);
                idx[1] = LLVMConstInt(w->i32, offset / 4 + k, 0);
                words[k] = LLVMBuildLoad2(w->b, w->i32, LLVMConstInBoundsGEP2(st, pc, idx, 2), "");
            }
        if (wi + 1 >= 16 && esz == 8) return NULL;
        if (esz == 8)
            x = LLVMBuildOr(w->b, LLVMBuildZExt(w->b, words[wi], w->i64, ""),
                            LLVMBuildShl(w->b, LLVMBuildZExt(w->b, words[wi + 1], w->i64, ""), LLVMConstInt(w->i64, 32, 0), ""), "");
        else if (esz == 4)
            x = words[wi];
        else
            x = LLVMBuildTrunc(w->b, byte % 4 ? LLVMBuildLShr(w->b, words[wi], LLVMConstInt(w->i32, (byte % 4) * 8, 0), "") : words[wi], it, "");
        if (et != it) x = LLVMGetTypeKind(et) == LLVMIntegerTypeKind ? LLVMBuildTrunc(w->b, x, et, "") : LLVMBuildBitCast(w->b, x, et, "");
        v = n > 1 ? LLVMBuildInsertElement(w->b, v, x, LLVMConstInt(w->i32, j, 0), "") : x;
    }
    return v;
}

/* One kernel as an entry point (see the top of this section); its parameter string into md. */
GPUCOMPILE_PRIVATE gpucompile_result gpucompile_lower__kernel(gpucompile_lower__state *w, LLVMValueRef fn, const gpucompile_lower_options *o,
                                                                   LLVMValueRef pc, gpucompile_lower__uses *u, unsigned first_binding, gpucompile_buf *md) {
    LLVMBasicBlockRef first = LLVMGetEntryBasicBlock(fn), entry, bb;
    LLVMValueRef br, nf;
    unsigned i, n = LLVMCountParams(fn), end = 0;
    char name[256], numthreads[64];
    snprintf(name, sizeof name, "%s", gpucompile_value_name(fn));
    gpucompile_lower__wg_size(w, fn, o->local_size, w->wg);
    entry = LLVMInsertBasicBlockInContext(w->ctx, first, "entry");
    LLVMPositionBuilderAtEnd(w->b, entry);
    br = LLVMBuildBr(w->b, first);
    { /* the allocas stay in the entry block (variables of the function: OpVariable is only there) */
        LLVMValueRef in, nx;
        for (in = LLVMGetFirstInstruction(first); in; in = nx) {
            nx = LLVMGetNextInstruction(in);
            if (!LLVMIsAAllocaInst(in)) continue;
            LLVMInstructionRemoveFromParent(in);
            LLVMPositionBuilderBefore(w->b, br);
            LLVMInsertIntoBuilder(w->b, in);
        }
    }
    gpucompile_buf_printf(md, "gpucompile.params %s", name);
    if (n > w->t->max_params)
        return gpucompile_lower__fail(w, GPUCOMPILE_ERROR_UNSUPPORTED, "function '%s': %u parameters (at most %u)", name, n, w->t->max_params);
    for (i = 0; i < n; i++) {
        LLVMValueRef p = LLVMGetParam(fn, i);
        LLVMTypeRef t = LLVMTypeOf(p);
        if (LLVMGetTypeKind(t) != LLVMPointerTypeKind) {
            unsigned off;
            if (!LLVMGetFirstUse(p)) {
                gpucompile_buf_str(md, " -");
                continue;
            }
            if (!gpucompile_lower__place(w, t, &end, &off) || !pc) {
                char *ts = LLVMPrintTypeToString(t);
                gpucompile_lower__fail(w, GPUCOMPILE_ERROR_UNSUPPORTED, "function '%s': parameter %u: a %s (a push constant is a scalar or a vector "
                                           "of numbers; pointers to global, constant or local memory are buffers)", name, i, ts);
                LLVMDisposeMessage(ts);
                return w->r;
            }
            LLVMPositionBuilderBefore(w->b, br);
            LLVMReplaceAllUsesWith(p, gpucompile_lower__push_load(w, pc, t, off));
            gpucompile_buf_printf(md, " p%u:%u", off, (unsigned)LLVMStoreSizeOfType(w->dl, t));
            continue;
        }
        {
            unsigned as = LLVMGetPointerAddressSpace(t);
            LLVMValueRef handle = NULL, array = NULL;
            if (as != 1 && as != 2 && as != 3)
                return gpucompile_lower__fail(w, GPUCOMPILE_ERROR_UNSUPPORTED, "function '%s': parameter %u: a pointer to %s memory (address space %u) "
                                                "cannot be a %s entry point's parameter: only global, constant and local ones",
                                                name, i, as == 4 ? "generic" : "private", as, w->t->api);
            memset(u, 0, sizeof *u);
            if (gpucompile_lower__collect(w, p, u) != GPUCOMPILE_OK || gpucompile_lower__one_base(w, p, u) != GPUCOMPILE_OK) return w->r;
            if (!u->nacc) {
                gpucompile_buf_str(md, " -");
                continue;
            }
            if (gpucompile_lower__element(w, u) != GPUCOMPILE_OK) return w->r;
            if (as == 3) {
                unsigned long long es = LLVMABISizeOfType(w->dl, u->type), bytes = o->local_bytes;
                LLVMTypeRef at = LLVMArrayType2(u->type, es ? (bytes + es - 1) / es : 1);
                char an[300];
                snprintf(an, sizeof an, "%.200s.local%u", name, i);
                array = LLVMAddGlobalInAddressSpace(w->m, at, an, 3);
                LLVMSetLinkage(array, LLVMInternalLinkage);
                LLVMSetInitializer(array, LLVMGetPoison(at));
                LLVMSetAlignment(array, 16);
                gpucompile_buf_printf(md, " l%llu", (unsigned long long)LLVMABISizeOfType(w->dl, at));
            } else {
                LLVMTypeRef arr = LLVMArrayType2(u->type, 0), ht, f;
                unsigned ints[2];
                LLVMValueRef hf, args[5];
                ints[0] = w->t->buffer_class;
                ints[1] = u->writes && as == 1;
                ht = LLVMTargetExtTypeInContext(w->ctx, w->t->buffer_type, &arr, 1, ints, 2);
                if (!(hf = gpucompile_lower__intrinsic(w, w->t->buffer_binding, &ht, 1)))
                    return gpucompile_lower__fail(w, GPUCOMPILE_ERROR_LLVM, "no %s in this LLVM", w->t->buffer_binding);
                args[0] = LLVMConstInt(w->i32, 0, 0);
                args[1] = LLVMConstInt(w->i32, first_binding + i, 0);
                args[2] = LLVMConstInt(w->i32, 1, 0);
                args[3] = LLVMConstInt(w->i32, 0, 0);
                args[4] = gpucompile_lower__name(w, name, p, i);
                LLVMPositionBuilderBefore(w->b, br);
                f = LLVMGlobalGetValueType(hf);
                handle = LLVMBuildCall2(w->b, f, hf, args, 5, "");
                gpucompile_buf_printf(md, " b%u", first_binding + i);
            }
            if (gpucompile_lower__rewrite(w, p, u, handle, array) != GPUCOMPILE_OK) return w->r;
        }
    }
    /* the entry point: void @name() with the body moved over */
    nf = LLVMAddFunction(w->m, "", LLVMFunctionType(LLVMVoidTypeInContext(w->ctx), NULL, 0, 0));
    snprintf(numthreads, sizeof numthreads, "%u,%u,%u", w->wg[0], w->wg[1], w->wg[2]);
    LLVMAddAttributeAtIndex(nf, LLVMAttributeFunctionIndex, LLVMCreateStringAttribute(w->ctx, w->t->entry_attribute, (unsigned)strlen(w->t->entry_attribute),
                                                                                     w->t->entry_value, (unsigned)strlen(w->t->entry_value)));
    LLVMAddAttributeAtIndex(nf, LLVMAttributeFunctionIndex, LLVMCreateStringAttribute(w->ctx, w->t->size_attribute, (unsigned)strlen(w->t->size_attribute),
                                                                                     numthreads, (unsigned)strlen(numthreads)));
    while ((bb = LLVMGetFirstBasicBlock(fn)) != NULL) {
        LLVMRemoveBasicBlockFromParent(bb);
        LLVMAppendExistingBasicBlock(nf, bb);
    }
    for (i = 0; i < n; i++) LLVMReplaceAllUsesWith(LLVMGetParam(fn, i), LLVMGetPoison(LLVMTypeOf(LLVMGetParam(fn, i))));
    LLVMDeleteFunction(fn);
    LLVMSetValueName2(nf, name, strlen(name));
    return GPUCOMPILE_OK;
}

/* The scalars' block's size: the longest kernel's parameters (at most the target's max_push_bytes). */
GPUCOMPILE_PRIVATE gpucompile_result gpucompile_lower__plan(gpucompile_lower__state *w, gpucompile_lower__push_plan *pp) {
    LLVMValueRef fn;
    for (fn = LLVMGetFirstFunction(w->m); fn; fn = LLVMGetNextFunction(fn)) {
        unsigned i, n, end = 0, off;
        if (!gpucompile_is_pointer_kernel(fn)) continue;
        for (i = 0, n = LLVMCountParams(fn); i < n; i++) {
            LLVMValueRef p = LLVMGetParam(fn, i);
            if (LLVMGetTypeKind(LLVMTypeOf(p)) != LLVMPointerTypeKind && LLVMGetFirstUse(p)) gpucompile_lower__place(w, LLVMTypeOf(p), &end, &off);
        }
        if (end > w->t->max_push_bytes)
            return gpucompile_lower__fail(w, GPUCOMPILE_ERROR_UNSUPPORTED, "function '%s': its scalar parameters need %u bytes of push constants: "
                                              "above the %u bytes every %s device has", gpucompile_value_name(fn), end, w->t->max_push_bytes, w->t->api);
        if ((end + 3) / 4 > pp->words) pp->words = (end + 3) / 4;
    }
    return GPUCOMPILE_OK;
}

/* The type at the end of a getelementptr's indices (constant ones into structs), NULL if none. */
GPUCOMPILE_PRIVATE LLVMTypeRef gpucompile_lower__indexed(LLVMValueRef g) {
    LLVMTypeRef t = LLVMGetGEPSourceElementType(g);
    int k, n = LLVMGetNumOperands(g);
    for (k = 2; k < n; k++) {
        LLVMTypeKind tk = LLVMGetTypeKind(t);
        if (tk == LLVMStructTypeKind) {
            if (!LLVMIsAConstantInt(LLVMGetOperand(g, (unsigned)k))) return NULL;
            t = LLVMStructGetTypeAtIndex(t, (unsigned)LLVMConstIntGetZExtValue(LLVMGetOperand(g, (unsigned)k)));
        } else if (tk == LLVMArrayTypeKind || tk == LLVMVectorTypeKind)
            t = LLVMGetElementType(t);
        else
            return NULL;
    }
    return t;
}

/* Private and workgroup memory accessed in a shape LLVM 22's code generator takes: the variable
   itself as its own type, or one getelementptr off it of its type to an element of the access's
   type (byte offsets, a getelementptr off another one, a pointer chosen by a phi crash it in
   "SPIRV legalize bitcast"). What the rewrite left otherwise is refused here. */
GPUCOMPILE_PRIVATE gpucompile_result gpucompile_lower__shapes(gpucompile_lower__state *w) {
    LLVMValueRef fn, in;
    LLVMBasicBlockRef bb;
    for (fn = LLVMGetFirstFunction(w->m); fn; fn = LLVMGetNextFunction(fn))
        for (bb = LLVMIsDeclaration(fn) ? NULL : LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
            for (in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in)) {
                LLVMValueRef p, base;
                LLVMTypeRef t, bt;
                unsigned as;
                if (LLVMIsALoadInst(in)) { p = LLVMGetOperand(in, 0); t = LLVMTypeOf(in); }
                else if (LLVMIsAStoreInst(in)) { p = LLVMGetOperand(in, 1); t = LLVMTypeOf(LLVMGetOperand(in, 0)); }
                else if (LLVMIsAAtomicRMWInst(in)) { p = LLVMGetOperand(in, 0); t = LLVMTypeOf(LLVMGetOperand(in, 1)); }
                else if (LLVMIsAAtomicCmpXchgInst(in)) { p = LLVMGetOperand(in, 0); t = LLVMTypeOf(LLVMGetOperand(in, 2)); }
                else continue;
                as = LLVMGetPointerAddressSpace(LLVMTypeOf(p));
                if (as != 0 && as != 3 && as != w->t->private_space) continue; /* buffers and the scalars' block are the backend's */
                base = (LLVMIsAGetElementPtrInst(p) || (LLVMIsAConstantExpr(p) && LLVMGetConstOpcode(p) == LLVMGetElementPtr)) ? LLVMGetOperand(p, 0) : p;
                bt = LLVMIsAAllocaInst(base) ? LLVMGetAllocatedType(base) : LLVMIsAGlobalVariable(base) ? LLVMGlobalGetValueType(base) : NULL;
                if (bt && (base == p ? bt == t : LLVMGetGEPSourceElementType(p) == bt && gpucompile_lower__indexed(p) == t)) continue;
                return gpucompile_lower__refuse(w, in, as == 3 ? "workgroup memory addressed in a shape LLVM 22's code generator crashes on"
                                                                   : "private memory addressed in a shape LLVM 22's code generator crashes on "
                                                                     "(an array the rewrite could not index: passed to a call, or chosen by a phi)");
            }
    return GPUCOMPILE_OK;
}

/* Calls to functions the module does not define, left after the rewrite (LLVM 22 would import
   them, which needs the Linkage capability). */
GPUCOMPILE_PRIVATE gpucompile_result gpucompile_lower__undefined(gpucompile_lower__state *w) {
    LLVMValueRef fn, in;
    LLVMBasicBlockRef bb;
    for (fn = LLVMGetFirstFunction(w->m); fn; fn = LLVMGetNextFunction(fn))
        for (bb = LLVMIsDeclaration(fn) ? NULL : LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
            for (in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in)) {
                const char *c = gpucompile_lower__callee_name(in);
                if (*c && strncmp(c, "llvm.", 5) != 0 && LLVMIsDeclaration(LLVMGetCalledValue(in)))
                    return gpucompile_lower__refuse(w, in, "a call to a function the module does not define (not an OpenCL function this "
                                                             "rewrite knows; a %s shader module links nothing)", w->t->api);
            }
    return GPUCOMPILE_OK;
}

GPUCOMPILE_DEF gpucompile_result gpucompile_lower_kernels(gpucompile_job *job, LLVMModuleRef module, const gpucompile_lower_target *target,
                                                          const gpucompile_lower_options *options, const gpucompile_logger *logger, int *lowered) {
    gpucompile_lower_options o;
    gpucompile_lower__state w;
    gpucompile_lower__push_plan pp;
    gpucompile_lower__uses *u = NULL;
    gpucompile_buf md;
    LLVMValueRef fn, next, pc = NULL, kernels[256];
    int nk = 0, i, again;
    unsigned binding = 0;
    memset(&w, 0, sizeof w);
    memset(&pp, 0, sizeof pp);
    memset(&md, 0, sizeof md);
    if (lowered) *lowered = 0;
    w.job = job;
    w.logger = logger;
    w.t = target;
    if (!module || !target) return gpucompile_lower__fail(&w, GPUCOMPILE_ERROR_INVALID_ARGUMENT, "gpucompile_lower_kernels: no %s", module ? "target" : "module");
    memset(&o, 0, sizeof o);
    if (options) o = *options;
    if (!o.local_size[0]) o.local_size[0] = 64;
    if (!o.local_size[1]) o.local_size[1] = 1;
    if (!o.local_size[2]) o.local_size[2] = 1;
    if (!o.local_bytes) o.local_bytes = 4096;
    w.m = module;
    w.ctx = LLVMGetModuleContext(module);
    w.dl = LLVMGetModuleDataLayout(module);
    w.i32 = LLVMInt32TypeInContext(w.ctx);
    w.i64 = LLVMInt64TypeInContext(w.ctx);
    w.b = LLVMCreateBuilderInContext(w.ctx);
    memcpy(w.wg, o.local_size, sizeof w.wg);
    if (!(u = (gpucompile_lower__uses *)malloc(sizeof *u))) {
        gpucompile_lower__fail(&w, GPUCOMPILE_ERROR_OUT_OF_MEMORY, "out of memory");
        goto done;
    }
    for (fn = LLVMGetFirstFunction(module); fn; fn = LLVMGetNextFunction(fn))
        if (gpucompile_is_pointer_kernel(fn) && nk < 256) kernels[nk++] = fn;
    if (!nk) goto done;
    do { /* functions nothing calls (clang's copies of the OpenCL kernels): not rewritten, not refused */
        again = 0;
        for (fn = LLVMGetFirstFunction(module); fn; fn = next) {
            next = LLVMGetNextFunction(fn);
            if (!LLVMGetFirstUse(fn) && !gpucompile_is_pointer_kernel(fn)) {
                LLVMDeleteFunction(fn);
                again = 1;
            }
        }
    } while (again);
    if (gpucompile_lower__check(&w) != GPUCOMPILE_OK || gpucompile_lower__builtin_vars(&w) != GPUCOMPILE_OK) goto done;
    for (fn = LLVMGetFirstFunction(module); fn; fn = LLVMGetNextFunction(fn)) {
        int k;
        if (LLVMIsDeclaration(fn)) continue;
        for (k = 0; k < nk; k++)
            if (kernels[k] == fn) break;
        gpucompile_lower__wg_size(&w, fn, o.local_size, w.wg); /* a helper sees the default */
        if (gpucompile_lower__calls_in(&w, fn) != GPUCOMPILE_OK) goto done;
    }
    for (fn = LLVMGetFirstFunction(module); fn; fn = LLVMGetNextFunction(fn))
        if (!LLVMIsDeclaration(fn) && gpucompile_lower__private_arrays(&w, fn, u) != GPUCOMPILE_OK) goto done;
    if (gpucompile_lower__generic(&w, 0) != GPUCOMPILE_OK || gpucompile_lower__workgroup_vars(&w, u) != GPUCOMPILE_OK || gpucompile_lower__plan(&w, &pp) != GPUCOMPILE_OK) goto done;
    if (pp.words) {
        LLVMTypeRef st = LLVMStructCreateNamed(w.ctx, "gpucompile.push"), words[32];
        unsigned k;
        for (k = 0; k < pp.words; k++) words[k] = w.i32;
        LLVMStructSetBody(st, words, pp.words, 0);
        pc = LLVMAddGlobalInAddressSpace(module, st, "gpucompile.push", w.t->push_space);
        LLVMSetLinkage(pc, LLVMExternalLinkage);
        LLVMSetVisibility(pc, LLVMHiddenVisibility);
        LLVMSetExternallyInitialized(pc, 1);
    }
    for (i = 0; i < nk; i++) {
        LLVMValueRef s;
        md.len = 0;
        gpucompile_buf_str(&md, "");
        unsigned params = LLVMCountParams(kernels[i]);
        if (gpucompile_lower__kernel(&w, kernels[i], &o, pc, u, binding, &md) != GPUCOMPILE_OK) goto done;
        binding += params;
        if (md.oom) {
            gpucompile_lower__fail(&w, GPUCOMPILE_ERROR_OUT_OF_MEMORY, "out of memory");
            goto done;
        }
        s = LLVMMDStringInContext(w.ctx, md.data, (unsigned)md.len);
        LLVMAddNamedMetadataOperand(module, w.t->params_metadata, LLVMMDNodeInContext(w.ctx, &s, 1));
    }
    do { /* what only the kernels used: the OpenCL front end's copies of the kernels, helpers, declarations */
        again = 0;
        for (fn = LLVMGetFirstFunction(module); fn; fn = next) {
            next = LLVMGetNextFunction(fn);
            if (LLVMGetFirstUse(fn) || LLVMGetStringAttributeAtIndex(fn, LLVMAttributeFunctionIndex, w.t->entry_attribute, (unsigned)strlen(w.t->entry_attribute))) continue;
            LLVMDeleteFunction(fn);
            again = 1;
        }
    } while (again);
    {
        LLVMValueRef g, gnext;
        for (g = LLVMGetFirstGlobal(module); g; g = gnext) { /* unused variables: LLVM 22 would still declare them (a constant one as UniformConstant, invalid) */
            gnext = LLVMGetNextGlobal(g);
            if (!LLVMGetFirstUse(g) && g != pc) LLVMDeleteGlobal(g);
        }
    }
    for (fn = LLVMGetFirstFunction(module); fn; fn = LLVMGetNextFunction(fn)) /* a shader module exports nothing (else: Linkage) */
        if (!LLVMIsDeclaration(fn) && !LLVMGetStringAttributeAtIndex(fn, LLVMAttributeFunctionIndex, w.t->entry_attribute, (unsigned)strlen(w.t->entry_attribute))) LLVMSetLinkage(fn, LLVMInternalLinkage);
    if (gpucompile_lower__undefined(&w) != GPUCOMPILE_OK || gpucompile_lower__generic(&w, 1) != GPUCOMPILE_OK ||
        gpucompile_lower__shapes(&w) != GPUCOMPILE_OK)
        goto done;
    if (lowered) *lowered = nk;
done:
    if (md.data) gpucompile_free(md.a, md.data);
    free(u);
    free(w.ptrs);
    free(w.offs);
    LLVMDisposeBuilder(w.b);
    return w.r;
}

GPUCOMPILE_DEF int gpucompile_has_pointer_kernels(LLVMModuleRef module) {
    LLVMValueRef fn;
    for (fn = module ? LLVMGetFirstFunction(module) : NULL; fn; fn = LLVMGetNextFunction(fn))
        if (gpucompile_is_pointer_kernel(fn)) return 1;
    return 0;
}

GPUCOMPILE_DEF int gpucompile_inline_helpers(LLVMModuleRef module) {
    LLVMContextRef ctx;
    LLVMValueRef fn;
    unsigned always, never, optnone;
    int n = 0;
    if (!module) return 0;
    ctx = LLVMGetModuleContext(module);
    always = LLVMGetEnumAttributeKindForName("alwaysinline", 12);
    never = LLVMGetEnumAttributeKindForName("noinline", 8);
    optnone = LLVMGetEnumAttributeKindForName("optnone", 7);
    for (fn = LLVMGetFirstFunction(module); fn; fn = LLVMGetNextFunction(fn)) {
        if (LLVMIsDeclaration(fn)) continue;
        LLVMRemoveEnumAttributeAtIndex(fn, LLVMAttributeFunctionIndex, never);
        LLVMRemoveEnumAttributeAtIndex(fn, LLVMAttributeFunctionIndex, optnone); /* kernels too: -O0 front-end output is optimized */
        if (gpucompile_is_pointer_kernel(fn)) continue;
        LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(ctx, always, 0));
        n++;
    }
    return n;
}
#ifdef __cplusplus
}
#endif
#endif /* GPUCOMPILE_LOWER_IMPLEMENTED */
