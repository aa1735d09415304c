/* gpucompile_lower.h - pointer kernels into a binding model: OpenCL C and CUDA-style kernels
   (pointer and scalar parameters, work-item builtins, local memory, barriers, atomics, OpenCL's
   math) rewritten, after optimization, into the resource model of an API that binds buffers
   (each pointer parameter a buffer at a binding, the scalars in one block, local memory as
   workgroup arrays, OpenCL's images as image bindings), with the kernels' parameter order
   recorded. The LLVM C API only.

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
   fills one; every field is needed but the images' (NULL: images refused). */
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
    /* a function (i32 id, i32 default) -> i32 that the code generator makes a specialization
       constant (a value given when the pipeline is made): what lets sizes be set at launch (see
       GPUCOMPILE_LOWER_LAUNCH_SIZE); NULL: the target has none, every size is compiled in */
    const char *spec_constant;
    /* Where the target has spec_constant: the first of GPUCOMPILE_LOWER_LAUNCH_VALUES specialization
       constant ids that the launch gives besides the sizes (GPUCOMPILE_LOWER_SPEC_WORK_DIM ...) */
    unsigned launch_spec;
    /* 32: every address is below 2^31 bytes (WebGPU's buffers), so that an extension of a 32-bit
       index computation is read as exact whether or not it carries nsw/nuw; 0: 64-bit addresses */
    unsigned index_bits;
    /* OpenCL images (image_type NULL: the target has none, and an image or sampler parameter is
       refused by name). image_type: the target extension type of an image's handle, with
       OpenCL's parameters (sampled type; Dim, Depth, Arrayed, MS, Sampled: 1 read through a
       sampler or fetched, 2 a storage image; Format); sampled_type: an image and its sampler in
       one handle (the same parameters). image_read, image_write: intrinsics (handle, i32 index)
       -> <4 x T> and (handle, i32 index, <4 x T>), overloaded on (result, handle) and (handle,
       texel). The index is an i32 only, so a coordinate vector goes through image_coordinate, a
       function (the coordinate) -> i32 whose result the backend replaces by its argument; and a
       read whose index is image_size's result, a function (<N x i32> poison) -> i32, is a query
       of the image's N sizes (width, height, depth or layers), the first N lanes of the read
       (read as the image's type: a float one's lanes are the integers' bits).
       Both names are declared in the module (the backend removes them); a read of a sampled_type
       handle samples (at level 0). */
    const char *image_type, *sampled_type, *image_read, *image_write, *image_coordinate, *image_size;
    /* the type of a sampler parameter; it and image_type are also how clang spells OpenCL's image
       and sampler parameters for spirv64 (the names LLVM's SPIR-V code generator shares) */
    const char *sampler_type;
    /* OpenCL's sub-groups (cl_khr_subgroups; NULL: the target has none, each function refused
       by name): intrinsics () -> i32: the sub-group's size, the work-item's id in it, the
       sub-group's id in the workgroup; (T) -> T over the sub-group: the sum, the minimum and
       maximum (signed or floating), the unsigned minimum and maximum; (i1) -> i1: all, any;
       (T, i32 id) -> T: the value of the work-item id. Those of T overloaded on T. */
    const char *subgroup[11];
} gpucompile_lower_target;
/* Zero means default. */
typedef struct gpucompile_lower_options {
    /* the workgroup size of a kernel without reqd_work_group_size; 0,0,0: set at launch where the
       target has spec_constant (64,1,1 until a launch says otherwise), else 64,1,1 */
    unsigned local_size[3];
    /* bytes of workgroup memory for each local pointer parameter; 0: the launch's sharedMemBytes
       where the target has spec_constant, else 4096 */
    unsigned local_bytes;
    /* CUDA's warp for NVVM's warp functions (shuffles, votes, lane ids): its lanes, a power of two
       up to 32; 0: 32, CUDA's. A kernel that calls them needs sub-groups of exactly that size
       (GPUCOMPILE_LOWER_SUBGROUP_SIZE); a smaller one suits code whose answers hold for it (a
       shuffle's width no wider) on a device whose sub-groups are smaller. */
    unsigned warp_size;
} gpucompile_lower_options;
/* The string, beside a kernel's parameter string in the target's params_metadata, that says the
   kernel needs sub-groups of exactly N work-items (NVVM's warp functions): "gpucompile.subgroup_size
   NAME N". The backend records it for its runtime, which makes the kernel's pipeline with that
   size or refuses to load it. */
#define GPUCOMPILE_LOWER_SUBGROUP_SIZE "gpucompile.subgroup_size"
/* What the lowering leaves for the backend where a size is set at launch (target->spec_constant):
   an entry point whose workgroup size the launch gives has the string attribute
   GPUCOMPILE_LOWER_LAUNCH_SIZE (its size_attribute holds the default), and its work-item sizes
   read spec_constant(0, 1, 2: the dimension; the default). A workgroup array whose length the
   launch's sharedMemBytes gives (a local pointer parameter, CUDA's extern __shared__ array) has
   the metadata GPUCOMPILE_LOWER_LAUNCH_LENGTH, !{i32 ID}: the backend makes its length the
   specialization constant ID (GPUCOMPILE_LOWER_FIRST_LENGTH and up; the IR's length, 4096
   bytes, is a placeholder). */
#define GPUCOMPILE_LOWER_LAUNCH_SIZE "gpucompile.launch_size"
#define GPUCOMPILE_LOWER_LAUNCH_LENGTH "gpucompile.launch_length"
#define GPUCOMPILE_LOWER_FIRST_LENGTH 3
/* What else the launch gives (target->spec_constant), as specialization constants at
   target->launch_spec plus these: the work dimension (get_work_dim; default 3, as an mgpu* launch
   is three-dimensional), the global offset in each dimension (get_global_offset, added to
   get_global_id; default 0), and the launch's number of workgroups in each dimension when the
   runtime splits it into several dispatches (default 0: the dispatch's own, the NumWorkgroups
   built-in). Specialization constants, not push constants: a launch with the defaults runs the
   pipeline made at load, the kernel's scalars keep the whole push block, and the driver folds the
   values into the code. */
#define GPUCOMPILE_LOWER_SPEC_WORK_DIM 0
#define GPUCOMPILE_LOWER_SPEC_OFFSET 1 /* + dimension */
#define GPUCOMPILE_LOWER_SPEC_GROUPS 4 /* + dimension */
#define GPUCOMPILE_LOWER_LAUNCH_VALUES 7
/* options from a target's flags workgroup_size = "X,Y,Z" (kernels without reqd_work_group_size),
   local_memory = "BYTES" (each local pointer parameter's) and warp_size = "N" (CUDA's warp): the
   flags of every target that lowers pointer kernels. A malformed flag fails job. */
GPUCOMPILE_API gpucompile_result gpucompile_lower_flags(gpucompile_job *job, const gpucompile_target *target, gpucompile_lower_options *options);
/* Rewrites module's kernels in place (see above). Errors go to job (gpucompile_job_fail) when
   job is not NULL, else to logger (may be NULL). GPUCOMPILE_OK, or the first error's result
   (the module is then in an unspecified state: dispose of it). *lowered (may be NULL): kernels. */
GPUCOMPILE_API gpucompile_result gpucompile_lower_kernels(gpucompile_job *job, LLVMModuleRef module, const gpucompile_lower_target *target,
                                                          const gpucompile_lower_options *options, const gpucompile_logger *logger, int *lowered);
/* 64-bit integer code computed in 32 bits (see [section: lowering], 32-bit integers where the
   values fit): what feeds a truncation to i32, comparisons and conversions to floating point of
   extended 32-bit values, exactly; loop counters as a 32-bit size_t has them; so that a module
   declares Int64 only for what needs it. gpucompile_lower_kernels does it; a backend calls it for
   modules it did not lower. The number rewritten. */
GPUCOMPILE_API int gpucompile_lower_narrow(LLVMModuleRef module);
/* Calls of LLVM intrinsics that a shader's code generator may not select, whoever wrote them
   (the optimizer makes llvm.cttz of a counting loop, llvm.uadd.sat of a compare and select),
   rewritten as plain IR: llvm.ctlz, llvm.cttz, llvm.[us]add.sat, llvm.[us]sub.sat, llvm.abs and
   llvm.ctpop but of 32 bits, llvm.fshl, llvm.fshr, llvm.copysign, llvm.bswap (imported otherwise:
   Linkage); and the NaN tests fcmp uno and ord (a shader has no OpUnordered).
   gpucompile_lower_kernels does it last, after gpucompile_lower_narrow (which counts the bits of
   a 64-bit value whose top half is zero in 32 bits); a backend calls it for modules it did not
   lower and after passes of its own. The number rewritten. */
GPUCOMPILE_API int gpucompile_lower_expand(LLVMModuleRef module);
/* 1 when fn is a kernel to lower (a defined spir_kernel, ptx_kernel or amdgpu_kernel function). */
GPUCOMPILE_API int gpucompile_is_pointer_kernel(LLVMValueRef fn);
/* 1 when module has a kernel to lower (a defined spir_kernel, ptx_kernel or amdgpu_kernel
   function): what a backend checks before its own input rules. */
GPUCOMPILE_API int gpucompile_has_pointer_kernels(LLVMModuleRef module);
/* Before optimization: every defined function but the kernels made alwaysinline and internal
   (noinline and optnone removed from all), so that the optimizer leaves no call that passes a
   pointer (which a binding model cannot express), infers the address spaces of what it inlined,
   and keeps no helper (a module that links nothing exports none). The number of functions. */
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
   options.local_size, default 64,1,1; without reqd_work_group_size and options.local_size, and
   where the target has spec_constant, the size is the launch's: GPUCOMPILE_LOWER_LAUNCH_SIZE):
   - a global (addrspace 1) or constant (addrspace 2) pointer parameter: a storage buffer, its
     binding the kernel's own count of buffers before it (each kernel's from 0, so that a module
     of many kernels fits a device's limits), in a descriptor set of the kernel's own (its index
     among the module's kernels: LLVM 22 makes one variable of each (set, binding) in a module,
     and two kernels' binding 0 may differ in type), which the backend makes set 0 in the module
     it writes (after code generation), of its one element type (read-only when nothing
     stores to it): a handle from the target's buffer_binding, every access an element index into it
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
   - a local (addrspace 3) pointer parameter: a workgroup array of its access type whose length
     the launch's sharedMemBytes gives (GPUCOMPILE_LOWER_LAUNCH_LENGTH: a binding model has no
     dynamic workgroup memory, a specialization constant stands in), or of options.local_bytes
     bytes when given (or the target has no spec_constant: 4096), compiled in, which the launch's
     sharedMemBytes may use up to; local (addrspace 3) variables: workgroup arrays of their access
     type; CUDA's extern __shared__ arrays (declarations in addrspace 3) the launch's, as local
     parameters are (each its own array: two of them do not alias, as they do in CUDA).
   - OpenCL's work-item functions (get_global_id, ...), the __spirv_BuiltIn* variables and
     functions, NVVM's special registers: the target's work_item intrinsics, the local size a
     constant, or spec_constant(dimension) where the launch gives it; the work dimension, the global
     offset and a split launch's number of workgroups the launch's (GPUCOMPILE_LOWER_SPEC_WORK_DIM),
     else 3, 0 and the dispatch's; barrier/work_group_barrier/__spirv_ControlBarrier/llvm.nvvm.barrier0: its barrier
     (what the code generator makes of it may need the backend's repair); OpenCL 1.x atomic_* and
     atom_* functions: atomicrmw / cmpxchg; OpenCL C's built-in library (math, integer, common,
     geometric, relational, shuffles, conversions): IR at each call (gpucompile_lower__library).
   - OpenCL's sub-group functions and NVVM's warp functions (CUDA's shuffles, votes, ballots, lane
     ids): the target's subgroup intrinsics (gpucompile_lower__subgroup, gpucompile_lower__warp); a
     kernel that calls the latter needs sub-groups of its warp's size (options.warp_size, 32), which
     the string GPUCOMPILE_LOWER_SUBGROUP_SIZE in params_metadata says.
   - the original parameter order: named metadata (the target's params_metadata), one string per
     kernel, "gpucompile.params NAME T0 T1 ...", a token per parameter: bN (binding N of set 0), pO:S (S
     bytes at offset O of the scalars' block), lB (local memory: the launch may ask for up to B
     bytes; l0: the launch's sharedMemBytes sizes it), - (unused). The backend adds the strings to the module it writes, its reflection
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
#define GPUCOMPILE_BACKEND_IMPLEMENTATION /* the backend helpers of gpucompile_runtime.h, also without the core */
#include "gpucompile_runtime.h"
#include <llvm-c/Transforms/PassBuilder.h> /* LLVMRunPasses: the scalarizer (gpucompile_lower__passes) */
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
    int launch;                  /* the function being rewritten takes its workgroup size from the launch */
    int size_launch, bytes_launch; /* options: kernels without reqd_work_group_size, local memory set at launch */
    unsigned next_spec;          /* the next array length's specialization constant */
    unsigned def_wg[3];          /* the workgroup size of a kernel without reqd_work_group_size */
    /* offsets of the pointers derived from the base being rewritten (element units, i64) */
    LLVMValueRef *ptrs, *offs;
    int nptrs, cap;
    int quiet; /* trying: a refusal is no error (private arrays the rewrite leaves as they are) */
    LLVMValueRef base;
    long long es; /* the base's element size */
    int inline_after; /* functions of the module's own made for calls (async copies): inlined once the calls are done */
    unsigned warp;    /* CUDA's warp: its lanes (options.warp_size) */
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
    char where[512], why[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    return gpucompile_lower__fail(w, GPUCOMPILE_ERROR_UNSUPPORTED, "%s: %s", gpucompile_instruction_where(in, where, sizeof where), why);
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

/* The target's specialization constant id (default def) at the builder. */
GPUCOMPILE_PRIVATE LLVMValueRef gpucompile_lower__spec(gpucompile_lower__state *w, unsigned id, unsigned def) {
    LLVMTypeRef ps[2], ft;
    LLVMValueRef f = LLVMGetNamedFunction(w->m, w->t->spec_constant), args[2];
    ps[0] = ps[1] = w->i32;
    ft = LLVMFunctionType(w->i32, ps, 2, 0);
    if (!f) f = LLVMAddFunction(w->m, w->t->spec_constant, ft);
    args[0] = LLVMConstInt(w->i32, id, 0);
    args[1] = LLVMConstInt(w->i32, def, 0);
    return LLVMBuildCall2(w->b, ft, f, args, 2, "");
}

/* The workgroup size in dimension dim: compiled in, or the launch's (specialization constant dim). */
GPUCOMPILE_PRIVATE LLVMValueRef gpucompile_lower__local_size(gpucompile_lower__state *w, int dim) {
    return w->launch ? gpucompile_lower__spec(w, (unsigned)dim, w->wg[dim]) : LLVMConstInt(w->i32, w->wg[dim], 0);
}

/* The launch value GPUCOMPILE_LOWER_SPEC_* which (default def) at the builder; def where the target
   has no specialization constants. */
GPUCOMPILE_PRIVATE LLVMValueRef gpucompile_lower__launch_value(gpucompile_lower__state *w, unsigned which, unsigned def) {
    return w->t->spec_constant ? gpucompile_lower__spec(w, w->t->launch_spec + which, def) : LLVMConstInt(w->i32, def, 0);
}

/* The builtin's value in dimension dim (a constant 0..2) as an i32, at the builder. raw: the global
   id without the global offset (what get_global_linear_id counts from). */
GPUCOMPILE_PRIVATE LLVMValueRef gpucompile_lower__builtin_at(gpucompile_lower__state *w, int kind, int dim, int raw) {
    LLVMValueRef arg, f, v;
    if (kind == GPUCOMPILE_LOWER__B_LOCAL_SIZE) return gpucompile_lower__local_size(w, dim);
    if (kind == GPUCOMPILE_LOWER__B_OFFSET) return gpucompile_lower__launch_value(w, GPUCOMPILE_LOWER_SPEC_OFFSET + (unsigned)dim, 0);
    if (kind == GPUCOMPILE_LOWER__B_GLOBAL_SIZE)
        return LLVMBuildMul(w->b, gpucompile_lower__builtin_at(w, GPUCOMPILE_LOWER__B_NUM_GROUPS, dim, 0), gpucompile_lower__local_size(w, dim), "");
    f = gpucompile_lower__intrinsic(w, w->t->work_item[kind - GPUCOMPILE_LOWER__B_GLOBAL_ID], &w->i32, 1);
    arg = LLVMConstInt(w->i32, (unsigned)dim, 0);
    if (!f) return NULL;
    v = gpucompile_lower__call(w, f, &arg, 1);
    if (!w->t->spec_constant) return v;
    if (kind == GPUCOMPILE_LOWER__B_GLOBAL_ID && !raw) /* OpenCL's global id counts from the offset */
        return LLVMBuildAdd(w->b, v, gpucompile_lower__builtin_at(w, GPUCOMPILE_LOWER__B_OFFSET, dim, 0), "");
    if (kind == GPUCOMPILE_LOWER__B_NUM_GROUPS) { /* a launch split into dispatches: the whole launch's */
        LLVMValueRef g = gpucompile_lower__launch_value(w, GPUCOMPILE_LOWER_SPEC_GROUPS + (unsigned)dim, 0);
        return LLVMBuildSelect(w->b, LLVMBuildICmp(w->b, LLVMIntNE, g, LLVMConstInt(w->i32, 0, 0), ""), g, v, "");
    }
    return v;
}

GPUCOMPILE_PRIVATE LLVMValueRef gpucompile_lower__builtin_dim(gpucompile_lower__state *w, int kind, int dim) {
    return gpucompile_lower__builtin_at(w, kind, dim, 0);
}

/* The builtin's value (type t) for dimension d (a value, or -1 with fixed), at the builder:
   outside 0..2 the ids are 0 and the sizes 1, as OpenCL says. */
GPUCOMPILE_PRIVATE LLVMValueRef gpucompile_lower__builtin(gpucompile_lower__state *w, int kind, LLVMValueRef d, int fixed, LLVMTypeRef t) {
    int sizes = kind == GPUCOMPILE_LOWER__B_NUM_GROUPS || kind == GPUCOMPILE_LOWER__B_LOCAL_SIZE || kind == GPUCOMPILE_LOWER__B_GLOBAL_SIZE;
    LLVMValueRef v;
    int k;
    if (kind == GPUCOMPILE_LOWER__B_WORK_DIM) return LLVMBuildZExtOrBitCast(w->b, gpucompile_lower__launch_value(w, GPUCOMPILE_LOWER_SPEC_WORK_DIM, 3), t, "");
    if (kind == GPUCOMPILE_LOWER__B_LOCAL_LINEAR || kind == GPUCOMPILE_LOWER__B_GLOBAL_LINEAR) {
        int id = kind == GPUCOMPILE_LOWER__B_LOCAL_LINEAR ? GPUCOMPILE_LOWER__B_LOCAL_ID : GPUCOMPILE_LOWER__B_GLOBAL_ID;
        LLVMValueRef x = gpucompile_lower__builtin_at(w, id, 0, 1), y = gpucompile_lower__builtin_at(w, id, 1, 1), z = gpucompile_lower__builtin_at(w, id, 2, 1);
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
    if (op == LLVMAShr && LLVMIsAConstantInt(LLVMGetOperand(v, 1)) && LLVMIsAInstruction(LLVMGetOperand(v, 0))) {
        /* the optimizer's sign extension of a 32-bit index: ashr (shl x, a), b and ashr (mul x,
           c << a), b with a >= b are sext(trunc(x) [* c]) << (a - b); with a constant d << a added
           before the shift (x + d: an index off a constant), sext(trunc(x) [* c] + d) << (a - b),
           and the same with x subtracted from it (d - x: an index counted down) */
        LLVMValueRef in = LLVMGetOperand(v, 0), x, add = NULL;
        unsigned long long sb = LLVMConstIntGetZExtValue(LLVMGetOperand(v, 1)), k, sa = 0, c = 1;
        LLVMTypeRef nt;
        int down = LLVMGetInstructionOpcode(in) == LLVMSub && LLVMIsAConstantInt(LLVMGetOperand(in, 0)) && LLVMIsAInstruction(LLVMGetOperand(in, 1));
        if (down || (LLVMGetInstructionOpcode(in) == LLVMAdd && LLVMIsAConstantInt(LLVMGetOperand(in, 1)) && LLVMIsAInstruction(LLVMGetOperand(in, 0)))) {
            add = LLVMGetOperand(in, down ? 0 : 1);
            in = LLVMGetOperand(in, down ? 1 : 0);
        }
        if ((LLVMGetInstructionOpcode(in) != LLVMShl && LLVMGetInstructionOpcode(in) != LLVMMul) || !LLVMIsAConstantInt(LLVMGetOperand(in, 1))) return NULL;
        k = LLVMConstIntGetZExtValue(LLVMGetOperand(in, 1));
        if (LLVMGetInstructionOpcode(in) == LLVMShl) sa = k;
        else if (k) {
            while (!(k & 1)) { k >>= 1; sa++; }
            c = k;
        }
        if (sa < sb || sa >= 64 || sa - sb >= 32) return NULL;
        if (add && (LLVMConstIntGetZExtValue(add) & ((1ull << sa) - 1))) return NULL;
        nt = LLVMIntTypeInContext(w->ctx, (unsigned)(64 - sa));
        x = LLVMBuildTrunc(w->b, LLVMGetOperand(in, 0), nt, "");
        if (c != 1) x = LLVMBuildMul(w->b, x, LLVMConstInt(nt, c, 0), "");
        if (add) {
            LLVMValueRef d = LLVMConstInt(nt, LLVMConstIntGetZExtValue(add) >> sa, 0);
            x = down ? LLVMBuildSub(w->b, d, x, "") : LLVMBuildAdd(w->b, x, d, "");
        }
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
    if (op == LLVMAdd || op == LLVMSub || (op == LLVMOr && LLVMGetIsDisjoint(v))) {
        LLVMValueRef a = gpucompile_lower__scaled(w, LLVMGetOperand(v, 0), scale, depth + 1);
        LLVMValueRef c = a ? gpucompile_lower__scaled(w, LLVMGetOperand(v, 1), scale, depth + 1) : NULL;
        return c ? (op == LLVMSub ? LLVMBuildSub(w->b, a, c, "") : LLVMBuildAdd(w->b, a, c, "")) : NULL;
    }
    if (op == LLVMPHI) { /* the optimizer's copies of one computation in each predecessor (partial redundancy
                            elimination, after a loop): the computation, whose operands, taken on every
                            edge, are there at the phi */
        LLVMValueRef x = LLVMGetIncomingValue(v, 0), y;
        unsigned k, n = LLVMCountIncoming(v);
        int i, ops = LLVMIsAInstruction(x) ? LLVMGetNumOperands(x) : -1;
        for (k = 1; k < n && ops >= 0; k++) {
            if ((y = LLVMGetIncomingValue(v, k)) == x) continue;
            if (!LLVMIsAInstruction(y) || LLVMGetInstructionOpcode(y) != LLVMGetInstructionOpcode(x) || LLVMGetNumOperands(y) != ops) return NULL;
            for (i = 0; i < ops; i++)
                if (LLVMGetOperand(x, (unsigned)i) != LLVMGetOperand(y, (unsigned)i)) return NULL;
        }
        return ops < 0 || LLVMGetInstructionOpcode(x) == LLVMPHI ? NULL : gpucompile_lower__scaled(w, x, scale, depth + 1);
    }
    if (op == LLVMSelect) { /* one of two byte offsets (silx's `i < n ? i : 0` folded into the address) */
        LLVMValueRef a = gpucompile_lower__scaled(w, LLVMGetOperand(v, 1), scale, depth + 1);
        LLVMValueRef c = a ? gpucompile_lower__scaled(w, LLVMGetOperand(v, 2), scale, depth + 1) : NULL;
        return c ? LLVMBuildSelect(w->b, LLVMGetOperand(v, 0), a, c, "") : NULL;
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
                return gpucompile_lower__refuse(w, user, LLVMIsDeclaration(callee) ? "a pointer passed to a function the module does not define (C99's "
                                                "`inline` without `static` gives no body of its own, which clang does not emit: make it `static inline`)"
                                                : "a pointer passed to a call (%s has no pointers to buffers: inline the callee)", w->t->api);
            t = LLVMTypeOf(user);
            u->writes = 1;
        } else if (LLVMIsAICmpInst(user)) {
            LLVMValueRef o = LLVMGetOperand(user, LLVMGetOperand(user, 0) == p);
            if (LLVMIsAConstantExpr(o) && LLVMGetConstOpcode(o) == LLVMAddrSpaceCast) o = LLVMGetOperand(o, 0);
            return gpucompile_lower__refuse(w, user, LLVMIsNull(o) ? "a pointer compared with NULL (a %s binding always holds a buffer and a launch "
                                            "passes none for NULL: an optional buffer needs a flag of its own)" : "pointers compared (compare indices instead)", w->t->api);
        }
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

/* An atomic operation at address a, sequentially consistent at device scope: LLVM's default
   (system) scope is CrossDevice, which a shader may not use, and a monotonic one gets LLVM 22's
   null struct index. With cmp, a compare-and-swap of v for cmp (its { old, stored } pair). */
GPUCOMPILE_PRIVATE LLVMValueRef gpucompile_lower__atomic(gpucompile_lower__state *w, LLVMAtomicRMWBinOp op, LLVMValueRef a, LLVMValueRef cmp, LLVMValueRef v) {
    LLVMAtomicOrdering o = LLVMAtomicOrderingSequentiallyConsistent;
#if LLVM_VERSION_MAJOR >= 20 /* sync scopes in the C API; LLVM 19 has no SPIR-V target, so this never runs there */
    unsigned scope = LLVMGetSyncScopeID(w->ctx, "device", 6);
    return cmp ? LLVMBuildAtomicCmpXchgSyncScope(w->b, a, cmp, v, o, o, scope) : LLVMBuildAtomicRMWSyncScope(w->b, op, a, v, o, scope);
#else
    return cmp ? LLVMBuildAtomicCmpXchg(w->b, a, cmp, v, o, o, 0) : LLVMBuildAtomicRMW(w->b, op, a, v, o, 0);
#endif
}

/* An OpenCL atomic function call as the instruction it is, on address a. */
GPUCOMPILE_PRIVATE LLVMValueRef gpucompile_lower__atomic_call(gpucompile_lower__state *w, LLVMValueRef call, LLVMValueRef a) {
    char buf[128];
    const char *args, *plain = gpucompile_lower__demangle(gpucompile_lower__callee_name(call), buf, sizeof buf, &args);
    LLVMAtomicRMWBinOp op;
    LLVMValueRef v;
    int n;
    if (!gpucompile_lower__atomic_op(plain, args, &op, &n)) return NULL;
    LLVMPositionBuilderBefore(w->b, call);
    v = n ? LLVMGetOperand(call, n) : LLVMConstInt(LLVMTypeOf(call), 1, 0);
    if (n == 2) return LLVMBuildExtractValue(w->b, gpucompile_lower__atomic(w, op, a, LLVMGetOperand(call, 1), v), 0, "");
    return gpucompile_lower__atomic(w, op, a, NULL, v);
}

/* OpenCL 2.0's atomic functions (atomic_fetch_<op>, atomic_exchange, atomic_load, atomic_store,
   atomic_compare_exchange_strong/_weak, each also _explicit; atomic_init, atomic_flag_test_and_set,
   atomic_flag_clear) as the instructions OpenCL 1.x's become, at the builder, on their (generic)
   pointer, which the rewrite then follows like any other; their order and scope arguments aside
   (sequentially consistent at device scope: at least what they ask). A load is an `or` of 0,
   a store an exchange; of atomic_float and _double only exchanges, stores and initializations.
   NULL: none of these. */
GPUCOMPILE_PRIVATE LLVMValueRef gpucompile_lower__atomic2(gpucompile_lower__state *w, LLVMValueRef call, const char *plain, const char *args) {
    static const struct { const char *name; LLVMAtomicRMWBinOp op; } t[] = {
        {"atomic_fetch_add", LLVMAtomicRMWBinOpAdd}, {"atomic_fetch_sub", LLVMAtomicRMWBinOpSub}, {"atomic_fetch_or", LLVMAtomicRMWBinOpOr},
        {"atomic_fetch_xor", LLVMAtomicRMWBinOpXor}, {"atomic_fetch_and", LLVMAtomicRMWBinOpAnd}, {"atomic_fetch_min", LLVMAtomicRMWBinOpMin},
        {"atomic_fetch_max", LLVMAtomicRMWBinOpMax}, {"atomic_exchange", LLVMAtomicRMWBinOpXchg}, {"atomic_store", LLVMAtomicRMWBinOpXchg},
        {"atomic_init", LLVMAtomicRMWBinOpXchg}, {"atomic_load", LLVMAtomicRMWBinOpOr}, {"atomic_compare_exchange_strong", LLVMAtomicRMWBinOpXchg},
        {"atomic_compare_exchange_weak", LLVMAtomicRMWBinOpXchg}, {"atomic_flag_test_and_set", LLVMAtomicRMWBinOpXchg},
        {"atomic_flag_clear", LLVMAtomicRMWBinOpXchg}};
    const char *a = strstr(args, "U7_Atomic");
    size_t n = strlen(plain), k;
    LLVMValueRef p = LLVMGetOperand(call, 0), v, x;
    LLVMAtomicRMWBinOp op;
    int cas, flag, fp;
    if (n > 9 && strcmp(plain + n - 9, "_explicit") == 0) n -= 9;
    for (k = 0; k < sizeof t / sizeof t[0]; k++)
        if (strlen(t[k].name) == n && strncmp(plain, t[k].name, n) == 0) break;
    if (k == sizeof t / sizeof t[0] || !a || !strchr("ijlmfd", a[9])) return NULL;
    op = t[k].op;
    if (a[9] == 'j' || a[9] == 'm') op = op == LLVMAtomicRMWBinOpMin ? LLVMAtomicRMWBinOpUMin : op == LLVMAtomicRMWBinOpMax ? LLVMAtomicRMWBinOpUMax : op;
    cas = k == 11 || k == 12;
    flag = k >= 13;
    fp = a[9] == 'f' || a[9] == 'd';
    if (fp && (cas || op != LLVMAtomicRMWBinOpXchg)) return NULL; /* cmpxchg and arithmetic of integers only */
    if (k == 9) return LLVMBuildStore(w->b, LLVMGetOperand(call, 1), p); /* atomic_init: before any other access */
    if (flag) v = LLVMConstInt(w->i32, k == 13, 0);
    else if (k == 10) v = LLVMConstNull(LLVMTypeOf(call));
    else v = LLVMGetOperand(call, cas ? 2u : 1u);
    if (cas) { /* the expected value read from, and the old one written to, its private variable */
        LLVMValueRef e = LLVMGetOperand(call, 1);
        if ((LLVMIsAAddrSpaceCastInst(e) || (LLVMIsAConstantExpr(e) && LLVMGetConstOpcode(e) == LLVMAddrSpaceCast)) &&
            LLVMGetPointerAddressSpace(LLVMTypeOf(LLVMGetOperand(e, 0))) == 0)
            e = LLVMGetOperand(e, 0);
        x = gpucompile_lower__atomic(w, op, p, LLVMBuildLoad2(w->b, LLVMTypeOf(v), e, ""), v);
        LLVMBuildStore(w->b, LLVMBuildExtractValue(w->b, x, 0, ""), e);
        x = LLVMBuildExtractValue(w->b, x, 1, "");
        return LLVMTypeOf(call) == LLVMTypeOf(x) ? x : LLVMBuildZExt(w->b, x, LLVMTypeOf(call), "");
    }
    x = gpucompile_lower__atomic(w, op, p, NULL, v);
    return k == 13 ? LLVMBuildICmp(w->b, LLVMIntNE, x, LLVMConstNull(w->i32), "") : x;
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
            unsigned bits = (unsigned)w->es * 8, lanes = 1, per = n, j, l;
            /* of vector elements (a float2 buffer read as float4), the elements' lanes in one vector */
            int vec = LLVMGetTypeKind(bt) == LLVMVectorTypeKind;
            unsigned m = vec ? LLVMGetVectorSize(bt) : 1;
            LLVMTypeRef wide, vt = n == 1 ? bt : LLVMVectorType(vec ? LLVMGetElementType(bt) : bt, n * m);
            LLVMValueRef v = NULL, parts = NULL, whole = NULL;
            /* of integer elements, a vector lane by lane where one integer of it all would pass
               64 bits (a float4 over ints: LLVM 22 stops the process on an i128) */
            if (ints && bits * n > 64 && LLVMGetTypeKind(t) == LLVMVectorTypeKind && n % LLVMGetVectorSize(t) == 0) lanes = LLVMGetVectorSize(t), per = n / lanes;
            if (ints && bits * per > 64)
                return gpucompile_lower__refuse(w, in, "an access of %u bytes of a buffer of %u-byte integers, more than 8 bytes of them in one "
                                                       "value (LLVM 22 stops the process on integers wider than 64 bits)", (unsigned)(w->es * n), (unsigned)w->es);
            wide = ints ? LLVMIntTypeInContext(w->ctx, bits * per) : NULL;
            LLVMPositionBuilderBefore(w->b, in);
            if (LLVMIsAStoreInst(in)) {
                whole = LLVMGetOperand(in, 0);
                if (!ints && !direct) whole = LLVMBuildBitCast(w->b, whole, vt, "");
            } else
                v = n > 1 && !(ints && lanes == 1) ? LLVMGetPoison(direct ? t : ints ? t : vt) : NULL;
            for (j = 0; j < lanes; j++) {
                LLVMValueRef acc = ints ? LLVMConstInt(wide, 0, 0) : NULL;
                if (whole) {
                    parts = lanes > 1 ? LLVMBuildExtractElement(w->b, whole, LLVMConstInt(w->i32, j, 0), "") : whole;
                    if (ints && LLVMTypeOf(parts) != wide) parts = LLVMBuildBitCast(w->b, parts, wide, "");
                }
                for (k = j * per; k < (j + 1) * per; k++) {
                    unsigned q = k - j * per;
                    LLVMValueRef ak = k ? gpucompile_lower__address(w, handle, array, LLVMBuildAdd(w->b, idx, LLVMConstInt(w->i64, k, 0), ""), in) : a;
                    LLVMPositionBuilderBefore(w->b, in);
                    if (whole) {
                        LLVMValueRef e, mask[16];
                        if (ints) e = LLVMBuildTrunc(w->b, q ? LLVMBuildLShr(w->b, parts, LLVMConstInt(wide, q * bits, 0), "") : parts, bt, "");
                        else if (n == 1) e = parts;
                        else if (!vec) e = LLVMBuildExtractElement(w->b, parts, LLVMConstInt(w->i32, k, 0), "");
                        else {
                            for (l = 0; l < m && l < 16; l++) mask[l] = LLVMConstInt(w->i32, k * m + l, 0);
                            e = LLVMBuildShuffleVector(w->b, parts, LLVMGetPoison(vt), LLVMConstVector(mask, m), "");
                        }
                        LLVMBuildStore(w->b, e, ak);
                    } else {
                        LLVMValueRef e = LLVMBuildLoad2(w->b, bt, ak, "");
                        if (ints) {
                            e = LLVMBuildZExt(w->b, e, wide, "");
                            acc = LLVMBuildOr(w->b, acc, q ? LLVMBuildShl(w->b, e, LLVMConstInt(wide, q * bits, 0), "") : e, "");
                        } else if (n == 1 || !vec)
                            v = n == 1 ? e : LLVMBuildInsertElement(w->b, v, e, LLVMConstInt(w->i32, k, 0), "");
                        else
                            for (l = 0; l < m; l++)
                                v = LLVMBuildInsertElement(w->b, v, LLVMBuildExtractElement(w->b, e, LLVMConstInt(w->i32, l, 0), ""), LLVMConstInt(w->i32, k * m + l, 0), "");
                    }
                }
                if (!whole && ints) /* the lane (or the whole value) put together */
                    v = lanes > 1 ? LLVMBuildInsertElement(w->b, v, LLVMBuildBitCast(w->b, acc, LLVMGetElementType(t), ""), LLVMConstInt(w->i32, j, 0), "") : acc;
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

/* ---- OpenCL C's built-in library, as IR at each call ----
   A call of one of OpenCL C's built-in functions (math, integer, common, geometric, relational,
   vector data) becomes IR where it stands: LLVM's intrinsics where the target's code generator
   maps them (GLSL.std.450 for LLVM 22's SPIR-V shaders), instructions built here for the rest.
   Why built here and not linked from a bitcode library: the header stays one file with no build
   step and no file to find at run time (Debian's libclc packages have no SPIR-V or clspv
   library, only amdgcn, r600 and nvptx ones), the C API makes the IR (no LLVM version's bitcode
   baked in), and one handler serves every scalar and vector overload at the types at hand.
   What LLVM 22's SPIR-V code generator cannot take for a shader is avoided: llvm.ctlz/cttz,
   the saturating intrinsics, llvm.ldexp/frexp/exp10 (not legalized), i128 (no such type),
   fcmp uno/ord (OpUnordered needs Kernel), 64-bit llvm.ctpop (OpBitCount takes 32 bits). */

/* One call being rewritten: its arguments (a scalar where the result is a vector of it: the
   overloads that take a vector and a scalar, splatted), types and signedness. */
typedef struct gpucompile_lower__cl {
    gpucompile_lower__state *w;
    LLVMBuilderRef b;
    LLVMValueRef in, a[4];
    unsigned n;
    LLVMTypeRef t, et; /* the result's type and its element type */
    int sign;          /* the first argument's mangled type is a signed integer */
    int native;        /* native_ or half_: GLSL.std.450's precision will do */
} gpucompile_lower__cl;

GPUCOMPILE_PRIVATE LLVMTypeRef gpucompile_lower__elem(LLVMTypeRef t) {
    return LLVMGetTypeKind(t) == LLVMVectorTypeKind ? LLVMGetElementType(t) : t;
}

GPUCOMPILE_PRIVATE unsigned gpucompile_lower__lanes(LLVMTypeRef t) {
    return LLVMGetTypeKind(t) == LLVMVectorTypeKind ? LLVMGetVectorSize(t) : 1;
}

GPUCOMPILE_PRIVATE int gpucompile_lower__is_fp(LLVMTypeRef t) {
    LLVMTypeKind k = LLVMGetTypeKind(gpucompile_lower__elem(t));
    return k == LLVMHalfTypeKind || k == LLVMFloatTypeKind || k == LLVMDoubleTypeKind || k == LLVMBFloatTypeKind;
}

GPUCOMPILE_PRIVATE unsigned gpucompile_lower__bits(LLVMTypeRef t) {
    LLVMTypeRef e = gpucompile_lower__elem(t);
    switch (LLVMGetTypeKind(e)) {
    case LLVMIntegerTypeKind: return LLVMGetIntTypeWidth(e);
    case LLVMHalfTypeKind: case LLVMBFloatTypeKind: return 16;
    case LLVMFloatTypeKind: return 32;
    case LLVMDoubleTypeKind: return 64;
    default: return 0;
    }
}

/* t with its elements e (a vector of as many, or e) */
GPUCOMPILE_PRIVATE LLVMTypeRef gpucompile_lower__like(LLVMTypeRef t, LLVMTypeRef e) {
    return LLVMGetTypeKind(t) == LLVMVectorTypeKind ? LLVMVectorType(e, LLVMGetVectorSize(t)) : e;
}

/* the integer type of t's width and shape (float4 -> <4 x i32>) */
GPUCOMPILE_PRIVATE LLVMTypeRef gpucompile_lower__int_like(LLVMTypeRef t) {
    return gpucompile_lower__like(t, LLVMIntTypeInContext(LLVMGetTypeContext(t), gpucompile_lower__bits(t)));
}

GPUCOMPILE_PRIVATE LLVMValueRef gpucompile_lower__splat_const(LLVMTypeRef t, LLVMValueRef c) {
    LLVMValueRef v[16];
    unsigned k, n = gpucompile_lower__lanes(t);
    if (LLVMGetTypeKind(t) != LLVMVectorTypeKind) return c;
    for (k = 0; k < n && k < 16; k++) v[k] = c;
    return LLVMConstVector(v, n < 16 ? n : 16);
}

/* constants of type t, every lane the same */
GPUCOMPILE_PRIVATE LLVMValueRef gpucompile_lower__kf(LLVMTypeRef t, double d) {
    return gpucompile_lower__splat_const(t, LLVMConstReal(gpucompile_lower__elem(t), d));
}

GPUCOMPILE_PRIVATE LLVMValueRef gpucompile_lower__ki(LLVMTypeRef t, unsigned long long v) {
    return gpucompile_lower__splat_const(t, LLVMConstInt(gpucompile_lower__elem(t), v, 0));
}

/* v (a scalar) in every lane of vector type t */
GPUCOMPILE_PRIVATE LLVMValueRef gpucompile_lower__splat(gpucompile_lower__state *w, LLVMValueRef v, LLVMTypeRef t) {
    LLVMValueRef x;
    if (LLVMGetTypeKind(t) != LLVMVectorTypeKind || LLVMTypeOf(v) == t) return v;
    x = LLVMBuildInsertElement(w->b, LLVMGetPoison(t), v, LLVMConstInt(w->i32, 0, 0), "");
    return LLVMBuildShuffleVector(w->b, x, LLVMGetPoison(t), LLVMConstNull(LLVMVectorType(w->i32, LLVMGetVectorSize(t))), "");
}

/* the intrinsic name overloaded on t, called with ops; NULL when this LLVM has none */
GPUCOMPILE_PRIVATE LLVMValueRef gpucompile_lower__intr(gpucompile_lower__state *w, const char *name, LLVMTypeRef t, LLVMValueRef *ops, unsigned n) {
    LLVMValueRef f = gpucompile_lower__intrinsic(w, name, &t, 1);
    return f ? gpucompile_lower__call(w, f, ops, n) : NULL;
}

GPUCOMPILE_PRIVATE LLVMValueRef gpucompile_lower__intr1(gpucompile_lower__state *w, const char *name, LLVMValueRef x) {
    return gpucompile_lower__intr(w, name, LLVMTypeOf(x), &x, 1);
}

GPUCOMPILE_PRIVATE LLVMValueRef gpucompile_lower__intr2(gpucompile_lower__state *w, const char *name, LLVMValueRef x, LLVMValueRef y) {
    LLVMValueRef ops[2];
    if (!x || !y) return NULL;
    ops[0] = x;
    ops[1] = y;
    return gpucompile_lower__intr(w, name, LLVMTypeOf(x), ops, 2);
}

/* llvm.is.fpclass(x, mask): an i1 (vector) without fcmp uno (which needs Kernel in SPIR-V) */
GPUCOMPILE_PRIVATE LLVMValueRef gpucompile_lower__fpclass(gpucompile_lower__state *w, LLVMValueRef x, unsigned mask) {
    LLVMValueRef ops[2];
    ops[0] = x;
    ops[1] = LLVMConstInt(w->i32, mask, 0);
    return gpucompile_lower__intr(w, "llvm.is.fpclass", LLVMTypeOf(x), ops, 2);
}
#define GPUCOMPILE_LOWER__NAN 0x003u    /* is.fpclass: signalling and quiet NaN */
#define GPUCOMPILE_LOWER__INF 0x204u    /* -inf, +inf */
#define GPUCOMPILE_LOWER__NORMAL 0x108u /* -normal, +normal */
#define GPUCOMPILE_LOWER__FINITE 0x1f8u /* neither NaN nor infinite */
#define GPUCOMPILE_LOWER__ZERO 0x060u   /* -0, +0 */
#define GPUCOMPILE_LOWER__SUB 0x090u    /* subnormal */

/* An OpenCL relational result from an i1 (vector): a scalar's is 1 or 0, a vector's lanes -1 or 0. */
GPUCOMPILE_PRIVATE LLVMValueRef gpucompile_lower__truth(gpucompile_lower__cl *c, LLVMValueRef cond) {
    if (!cond) return NULL;
    return LLVMGetTypeKind(c->t) == LLVMVectorTypeKind ? LLVMBuildSExt(c->b, cond, c->t, "") : LLVMBuildZExt(c->b, cond, c->t, "");
}

/* ---- integer functions ---- */
GPUCOMPILE_PRIVATE LLVMValueRef gpucompile_lower__popcount(gpucompile_lower__state *w, LLVMValueRef x) {
    LLVMTypeRef t = LLVMTypeOf(x), t32 = gpucompile_lower__like(t, w->i32);
    unsigned bits = gpucompile_lower__bits(t);
    LLVMValueRef lo, hi;
    if (bits == 32) return gpucompile_lower__intr1(w, "llvm.ctpop", x);
    if (bits < 32) return LLVMBuildTrunc(w->b, gpucompile_lower__intr1(w, "llvm.ctpop", LLVMBuildZExt(w->b, x, t32, "")), t, "");
    /* 64 bits: two halves (a shader's OpBitCount takes 32-bit integers) */
    lo = gpucompile_lower__intr1(w, "llvm.ctpop", LLVMBuildTrunc(w->b, x, t32, ""));
    hi = gpucompile_lower__intr1(w, "llvm.ctpop", LLVMBuildTrunc(w->b, LLVMBuildLShr(w->b, x, gpucompile_lower__ki(t, 32), ""), t32, ""));
    return LLVMBuildZExt(w->b, LLVMBuildAdd(w->b, lo, hi, ""), t, "");
}

GPUCOMPILE_PRIVATE LLVMValueRef gpucompile_lower__clz(gpucompile_lower__state *w, LLVMValueRef x) {
    LLVMTypeRef t = LLVMTypeOf(x);
    unsigned bits = gpucompile_lower__bits(t), s;
    for (s = 1; s < bits; s *= 2) x = LLVMBuildOr(w->b, x, LLVMBuildLShr(w->b, x, gpucompile_lower__ki(t, s), ""), ""); /* every bit below the highest set */
    return LLVMBuildSub(w->b, gpucompile_lower__ki(t, bits), gpucompile_lower__popcount(w, x), "");
}

/* llvm.fshl (right: llvm.fshr) as shifts, the count modulo the width (OpenCL's rotate is
   fshl(x, x, n)): LLVM 22 makes llvm.fshl an exported function (Linkage). The other half shifted
   by one and then by width - 1 - n, so that n = 0 shifts nothing in. */
GPUCOMPILE_PRIVATE LLVMValueRef gpucompile_lower__funnel(gpucompile_lower__state *w, LLVMValueRef hi, LLVMValueRef lo, LLVMValueRef n, int right) {
    LLVMTypeRef t = LLVMTypeOf(hi);
    LLVMValueRef m = gpucompile_lower__ki(t, gpucompile_lower__bits(t) - 1), one = gpucompile_lower__ki(t, 1), s = LLVMBuildAnd(w->b, n, m, "");
    LLVMValueRef r = LLVMBuildXor(w->b, s, m, "");
    if (right) return LLVMBuildOr(w->b, LLVMBuildLShr(w->b, lo, s, ""), LLVMBuildShl(w->b, LLVMBuildShl(w->b, hi, one, ""), r, ""), "");
    return LLVMBuildOr(w->b, LLVMBuildShl(w->b, hi, s, ""), LLVMBuildLShr(w->b, LLVMBuildLShr(w->b, lo, one, ""), r, ""), "");
}

GPUCOMPILE_PRIVATE LLVMValueRef gpucompile_lower__ctz(gpucompile_lower__state *w, LLVMValueRef x) { /* the bits below the lowest set one */
    return gpucompile_lower__popcount(w, LLVMBuildAnd(w->b, LLVMBuildNot(w->b, x, ""), LLVMBuildSub(w->b, x, gpucompile_lower__ki(LLVMTypeOf(x), 1), ""), ""));
}

/* the unsigned high half of a * b from products of half-width pieces (no type of twice the width:
   64 bits, and 32 bits where a target has no 64-bit integers) */
GPUCOMPILE_PRIVATE LLVMValueRef gpucompile_lower__umul_hi(gpucompile_lower__state *w, LLVMValueRef a, LLVMValueRef b) {
    LLVMTypeRef t = LLVMTypeOf(a);
    unsigned half = gpucompile_lower__bits(t) / 2;
    LLVMValueRef lo = gpucompile_lower__ki(t, (1ull << half) - 1), k = gpucompile_lower__ki(t, half), a0, a1, b0, b1, p00, p01, p10, p11, mid;
    a0 = LLVMBuildAnd(w->b, a, lo, "");
    a1 = LLVMBuildLShr(w->b, a, k, "");
    b0 = LLVMBuildAnd(w->b, b, lo, "");
    b1 = LLVMBuildLShr(w->b, b, k, "");
    p00 = LLVMBuildMul(w->b, a0, b0, "");
    p01 = LLVMBuildMul(w->b, a0, b1, "");
    p10 = LLVMBuildMul(w->b, a1, b0, "");
    p11 = LLVMBuildMul(w->b, a1, b1, "");
    mid = LLVMBuildAdd(w->b, LLVMBuildAdd(w->b, LLVMBuildLShr(w->b, p00, k, ""), LLVMBuildAnd(w->b, p01, lo, ""), ""), LLVMBuildAnd(w->b, p10, lo, ""), "");
    return LLVMBuildAdd(w->b, LLVMBuildAdd(w->b, p11, LLVMBuildLShr(w->b, p01, k, ""), ""), LLVMBuildAdd(w->b, LLVMBuildLShr(w->b, p10, k, ""), LLVMBuildLShr(w->b, mid, k, ""), ""), "");
}

/* the high half of a * b (signed or not): at twice the width below 32 bits, else in pieces (a
   64-bit product would make a kernel of ints declare Int64) */
GPUCOMPILE_PRIVATE LLVMValueRef gpucompile_lower__mul_hi(gpucompile_lower__state *w, LLVMValueRef a, LLVMValueRef b, int sign) {
    LLVMTypeRef t = LLVMTypeOf(a);
    unsigned bits = gpucompile_lower__bits(t);
    LLVMValueRef m, hi;
    if (bits < 32) {
        LLVMTypeRef wt = gpucompile_lower__like(t, LLVMIntTypeInContext(w->ctx, 2 * bits));
        a = sign ? LLVMBuildSExt(w->b, a, wt, "") : LLVMBuildZExt(w->b, a, wt, "");
        b = sign ? LLVMBuildSExt(w->b, b, wt, "") : LLVMBuildZExt(w->b, b, wt, "");
        m = LLVMBuildMul(w->b, a, b, "");
        return LLVMBuildTrunc(w->b, LLVMBuildLShr(w->b, m, gpucompile_lower__ki(wt, bits), ""), t, "");
    }
    hi = gpucompile_lower__umul_hi(w, a, b);
    if (sign) { /* the unsigned product's high half less b where a < 0 and a where b < 0 */
        LLVMValueRef z = gpucompile_lower__ki(t, 0);
        hi = LLVMBuildSub(w->b, hi, LLVMBuildSelect(w->b, LLVMBuildICmp(w->b, LLVMIntSLT, a, z, ""), b, z, ""), "");
        hi = LLVMBuildSub(w->b, hi, LLVMBuildSelect(w->b, LLVMBuildICmp(w->b, LLVMIntSLT, b, z, ""), a, z, ""), "");
    }
    return hi;
}

/* the smallest and largest value of integer type t */
GPUCOMPILE_PRIVATE LLVMValueRef gpucompile_lower__imin(LLVMTypeRef t, int sign) {
    return gpucompile_lower__ki(t, sign ? 1ull << (gpucompile_lower__bits(t) - 1) : 0);
}

GPUCOMPILE_PRIVATE LLVMValueRef gpucompile_lower__imax(LLVMTypeRef t, int sign) {
    unsigned bits = gpucompile_lower__bits(t);
    unsigned long long all = bits >= 64 ? ~0ull : (1ull << bits) - 1;
    return gpucompile_lower__ki(t, sign ? all >> 1 : all);
}

GPUCOMPILE_PRIVATE LLVMValueRef gpucompile_lower__add_sat(gpucompile_lower__state *w, LLVMValueRef a, LLVMValueRef b, int sign) {
    LLVMTypeRef t = LLVMTypeOf(a);
    LLVMValueRef s = LLVMBuildAdd(w->b, a, b, ""), z = gpucompile_lower__ki(t, 0), ov;
    if (!sign) return LLVMBuildSelect(w->b, LLVMBuildICmp(w->b, LLVMIntULT, s, a, ""), gpucompile_lower__imax(t, 0), s, "");
    ov = LLVMBuildICmp(w->b, LLVMIntSLT, LLVMBuildAnd(w->b, LLVMBuildXor(w->b, s, a, ""), LLVMBuildXor(w->b, s, b, ""), ""), z, "");
    return LLVMBuildSelect(w->b, ov, LLVMBuildSelect(w->b, LLVMBuildICmp(w->b, LLVMIntSLT, a, z, ""), gpucompile_lower__imin(t, 1), gpucompile_lower__imax(t, 1), ""), s, "");
}

GPUCOMPILE_PRIVATE LLVMValueRef gpucompile_lower__sub_sat(gpucompile_lower__state *w, LLVMValueRef a, LLVMValueRef b, int sign) {
    LLVMTypeRef t = LLVMTypeOf(a);
    LLVMValueRef d = LLVMBuildSub(w->b, a, b, ""), z = gpucompile_lower__ki(t, 0), ov;
    if (!sign) return LLVMBuildSelect(w->b, LLVMBuildICmp(w->b, LLVMIntULT, a, b, ""), z, d, "");
    ov = LLVMBuildICmp(w->b, LLVMIntSLT, LLVMBuildAnd(w->b, LLVMBuildXor(w->b, a, b, ""), LLVMBuildXor(w->b, a, d, ""), ""), z, "");
    return LLVMBuildSelect(w->b, ov, LLVMBuildSelect(w->b, LLVMBuildICmp(w->b, LLVMIntSLT, a, z, ""), gpucompile_lower__imin(t, 1), gpucompile_lower__imax(t, 1), ""), d, "");
}

/* mad_sat: a * b + c saturated; at twice the width below 32 bits, else as a (hi, lo) pair of twice
   the width (no Int64 for ints) */
GPUCOMPILE_PRIVATE LLVMValueRef gpucompile_lower__mad_sat(gpucompile_lower__state *w, LLVMValueRef a, LLVMValueRef b, LLVMValueRef c, int sign) {
    LLVMTypeRef t = LLVMTypeOf(a);
    unsigned bits = gpucompile_lower__bits(t);
    LLVMValueRef lo, hi, lo2, carry, z = gpucompile_lower__ki(t, 0), fits, top = gpucompile_lower__ki(t, bits - 1);
    if (bits < 32) {
        LLVMTypeRef wt = gpucompile_lower__like(t, LLVMIntTypeInContext(w->ctx, 2 * bits));
        LLVMValueRef v;
        a = sign ? LLVMBuildSExt(w->b, a, wt, "") : LLVMBuildZExt(w->b, a, wt, "");
        b = sign ? LLVMBuildSExt(w->b, b, wt, "") : LLVMBuildZExt(w->b, b, wt, "");
        c = sign ? LLVMBuildSExt(w->b, c, wt, "") : LLVMBuildZExt(w->b, c, wt, "");
        v = LLVMBuildAdd(w->b, LLVMBuildMul(w->b, a, b, ""), c, "");
        if (sign) v = gpucompile_lower__intr2(w, "llvm.smax", v, sign ? LLVMBuildSExt(w->b, gpucompile_lower__imin(t, 1), wt, "") : NULL);
        v = gpucompile_lower__intr2(w, sign ? "llvm.smin" : "llvm.umin", v, LLVMBuildZExt(w->b, gpucompile_lower__imax(t, sign), wt, ""));
        return v ? LLVMBuildTrunc(w->b, v, t, "") : NULL;
    }
    hi = gpucompile_lower__mul_hi(w, a, b, sign);
    lo = LLVMBuildMul(w->b, a, b, "");
    lo2 = LLVMBuildAdd(w->b, lo, c, "");
    carry = LLVMBuildZExt(w->b, LLVMBuildICmp(w->b, LLVMIntULT, lo2, lo, ""), t, "");
    hi = LLVMBuildAdd(w->b, hi, carry, "");
    if (!sign) return LLVMBuildSelect(w->b, LLVMBuildICmp(w->b, LLVMIntEQ, hi, z, ""), lo2, gpucompile_lower__imax(t, 0), "");
    hi = LLVMBuildAdd(w->b, hi, LLVMBuildAShr(w->b, c, top, ""), ""); /* c's sign extension */
    fits = LLVMBuildICmp(w->b, LLVMIntEQ, hi, LLVMBuildAShr(w->b, lo2, top, ""), "");
    return LLVMBuildSelect(w->b, fits, lo2,
                           LLVMBuildSelect(w->b, LLVMBuildICmp(w->b, LLVMIntSLT, hi, z, ""), gpucompile_lower__imin(t, 1), gpucompile_lower__imax(t, 1), ""), "");
}

GPUCOMPILE_PRIVATE LLVMValueRef gpucompile_lower__ext(gpucompile_lower__cl *c, LLVMValueRef x, LLVMTypeRef t) {
    return c->sign ? LLVMBuildSExt(c->b, x, t, "") : LLVMBuildZExt(c->b, x, t, "");
}

/* the integer functions, by name; NULL: not one (or an overload left to the refusal) */
GPUCOMPILE_PRIVATE LLVMValueRef gpucompile_lower__integer(gpucompile_lower__cl *c, const char *f) {
    gpucompile_lower__state *w = c->w;
    LLVMValueRef *a = c->a, one;
    LLVMOpcode sh = c->sign ? LLVMAShr : LLVMLShr;
    if (gpucompile_lower__is_fp(c->t) || LLVMGetTypeKind(c->et) != LLVMIntegerTypeKind) return NULL;
    one = gpucompile_lower__ki(c->t, 1);
    if (c->n == 1) {
        /* LLVM's intrinsics, which gpucompile_lower_expand writes out after the narrowing (a count
           of a size_t's bits in 32 bits) */
        if (strcmp(f, "abs") == 0 || strcmp(f, "clz") == 0 || strcmp(f, "ctz") == 0) {
            LLVMValueRef ops[2];
            if (*f == 'a' && !c->sign) return a[0];
            ops[0] = a[0];
            ops[1] = LLVMConstInt(LLVMInt1TypeInContext(w->ctx), 0, 0);
            return gpucompile_lower__intr(w, *f == 'a' ? "llvm.abs" : f[1] == 'l' ? "llvm.ctlz" : "llvm.cttz", c->t, ops, 2);
        }
        return strcmp(f, "popcount") == 0 ? gpucompile_lower__intr(w, "llvm.ctpop", c->t, a, 1) : NULL;
    }
    if (c->n == 2) {
        if (strcmp(f, "min") == 0) return gpucompile_lower__intr2(w, c->sign ? "llvm.smin" : "llvm.umin", a[0], a[1]);
        if (strcmp(f, "max") == 0) return gpucompile_lower__intr2(w, c->sign ? "llvm.smax" : "llvm.umax", a[0], a[1]);
        if (strcmp(f, "abs_diff") == 0)
            return LLVMBuildSub(c->b, gpucompile_lower__intr2(w, c->sign ? "llvm.smax" : "llvm.umax", a[0], a[1]),
                                gpucompile_lower__intr2(w, c->sign ? "llvm.smin" : "llvm.umin", a[0], a[1]), "");
        if (strcmp(f, "add_sat") == 0) return gpucompile_lower__add_sat(w, a[0], a[1], c->sign);
        if (strcmp(f, "sub_sat") == 0) return gpucompile_lower__sub_sat(w, a[0], a[1], c->sign);
        if (strcmp(f, "hadd") == 0 || strcmp(f, "rhadd") == 0) { /* (a >> 1) + (b >> 1) + the carry of the low bits: no overflow */
            LLVMValueRef low = f[0] == 'r' ? LLVMBuildOr(c->b, a[0], a[1], "") : LLVMBuildAnd(c->b, a[0], a[1], "");
            return LLVMBuildAdd(c->b, LLVMBuildAdd(c->b, LLVMBuildBinOp(c->b, sh, a[0], one, ""), LLVMBuildBinOp(c->b, sh, a[1], one, ""), ""),
                                LLVMBuildAnd(c->b, low, one, ""), "");
        }
        if (strcmp(f, "mul_hi") == 0) return gpucompile_lower__mul_hi(w, a[0], a[1], c->sign);
        if (strcmp(f, "rotate") == 0) return gpucompile_lower__funnel(w, a[0], a[0], a[1], 0);
        if (strcmp(f, "mul24") == 0) return LLVMBuildMul(c->b, a[0], a[1], "");
        if (strcmp(f, "upsample") == 0 && LLVMTypeOf(a[0]) != c->t) { /* (hi << bits) | lo, at twice the width */
            unsigned bits = gpucompile_lower__bits(LLVMTypeOf(a[0]));
            return LLVMBuildOr(c->b, LLVMBuildShl(c->b, LLVMBuildZExt(c->b, a[0], c->t, ""), gpucompile_lower__ki(c->t, bits), ""),
                               LLVMBuildZExt(c->b, a[1], c->t, ""), "");
        }
        return NULL;
    }
    if (c->n == 3) {
        if (strcmp(f, "clamp") == 0)
            return gpucompile_lower__intr2(w, c->sign ? "llvm.smin" : "llvm.umin", gpucompile_lower__intr2(w, c->sign ? "llvm.smax" : "llvm.umax", a[0], a[1]), a[2]);
        if (strcmp(f, "mad_hi") == 0) return LLVMBuildAdd(c->b, gpucompile_lower__mul_hi(w, a[0], a[1], c->sign), a[2], "");
        if (strcmp(f, "mad_sat") == 0) return gpucompile_lower__mad_sat(w, a[0], a[1], a[2], c->sign);
        if (strcmp(f, "mad24") == 0) return LLVMBuildAdd(c->b, LLVMBuildMul(c->b, a[0], a[1], ""), a[2], "");
    }
    return NULL;
}

/* ---- relational functions and the selections (any type) ---- */
GPUCOMPILE_PRIVATE LLVMValueRef gpucompile_lower__relational(gpucompile_lower__cl *c, const char *f) {
    static const struct { const char *name; LLVMRealPredicate p; } cmp[] = {
        {"isequal", LLVMRealOEQ}, {"isnotequal", LLVMRealUNE}, {"isgreater", LLVMRealOGT}, {"isgreaterequal", LLVMRealOGE},
        {"isless", LLVMRealOLT}, {"islessequal", LLVMRealOLE}, {"islessgreater", LLVMRealONE}};
    static const struct { const char *name; unsigned mask; } cls[] = {
        {"isnan", GPUCOMPILE_LOWER__NAN}, {"isinf", GPUCOMPILE_LOWER__INF}, {"isfinite", GPUCOMPILE_LOWER__FINITE}, {"isnormal", GPUCOMPILE_LOWER__NORMAL}};
    gpucompile_lower__state *w = c->w;
    LLVMValueRef *a = c->a;
    size_t i;
    LLVMTypeRef at = c->n ? LLVMTypeOf(a[0]) : NULL;
    if (!at) return NULL;
    if (c->n == 2 && gpucompile_lower__is_fp(at) && LLVMTypeOf(a[1]) == at) {
        for (i = 0; i < sizeof cmp / sizeof cmp[0]; i++)
            if (strcmp(f, cmp[i].name) == 0) return gpucompile_lower__truth(c, LLVMBuildFCmp(c->b, cmp[i].p, a[0], a[1], ""));
        if (strcmp(f, "isordered") == 0 || strcmp(f, "isunordered") == 0) {
            LLVMValueRef u = LLVMBuildOr(c->b, gpucompile_lower__fpclass(w, a[0], GPUCOMPILE_LOWER__NAN), gpucompile_lower__fpclass(w, a[1], GPUCOMPILE_LOWER__NAN), "");
            return gpucompile_lower__truth(c, f[2] == 'o' ? LLVMBuildNot(c->b, u, "") : u);
        }
    }
    if (c->n == 1 && gpucompile_lower__is_fp(at)) {
        for (i = 0; i < sizeof cls / sizeof cls[0]; i++)
            if (strcmp(f, cls[i].name) == 0) return gpucompile_lower__truth(c, gpucompile_lower__fpclass(w, a[0], cls[i].mask));
        if (strcmp(f, "signbit") == 0)
            return gpucompile_lower__truth(c, LLVMBuildICmp(c->b, LLVMIntSLT, LLVMBuildBitCast(c->b, a[0], gpucompile_lower__int_like(at), ""),
                                                            gpucompile_lower__ki(gpucompile_lower__int_like(at), 0), ""));
    }
    if (c->n == 1 && LLVMGetTypeKind(gpucompile_lower__elem(at)) == LLVMIntegerTypeKind && (strcmp(f, "any") == 0 || strcmp(f, "all") == 0)) {
        /* the sign bit of any or of every lane */
        LLVMValueRef m = LLVMBuildICmp(c->b, LLVMIntSLT, a[0], gpucompile_lower__ki(at, 0), ""), r;
        unsigned k, n = gpucompile_lower__lanes(at);
        if (LLVMGetTypeKind(at) != LLVMVectorTypeKind) return LLVMBuildZExt(c->b, m, c->t, "");
        r = LLVMBuildExtractElement(c->b, m, LLVMConstInt(w->i32, 0, 0), "");
        for (k = 1; k < n; k++) {
            LLVMValueRef e = LLVMBuildExtractElement(c->b, m, LLVMConstInt(w->i32, k, 0), "");
            r = f[1] == 'n' ? LLVMBuildOr(c->b, r, e, "") : LLVMBuildAnd(c->b, r, e, "");
        }
        return LLVMBuildZExt(c->b, r, c->t, "");
    }
    if (c->n == 3 && strcmp(f, "bitselect") == 0 && LLVMTypeOf(a[1]) == at && LLVMTypeOf(a[2]) == at) { /* (a & ~c) | (b & c) */
        LLVMTypeRef it = gpucompile_lower__int_like(at);
        LLVMValueRef x = LLVMBuildBitCast(c->b, a[0], it, ""), y = LLVMBuildBitCast(c->b, a[1], it, ""), m = LLVMBuildBitCast(c->b, a[2], it, "");
        LLVMValueRef r = LLVMBuildOr(c->b, LLVMBuildAnd(c->b, x, LLVMBuildNot(c->b, m, ""), ""), LLVMBuildAnd(c->b, y, m, ""), "");
        return LLVMBuildBitCast(c->b, r, at, "");
    }
    if (c->n == 3 && strcmp(f, "select") == 0 && LLVMTypeOf(a[1]) == at && gpucompile_lower__lanes(LLVMTypeOf(a[2])) == gpucompile_lower__lanes(at) &&
        LLVMGetTypeKind(gpucompile_lower__elem(LLVMTypeOf(a[2]))) == LLVMIntegerTypeKind) {
        /* a scalar's condition: c != 0; a vector's: each lane's sign bit */
        LLVMValueRef z = gpucompile_lower__ki(LLVMTypeOf(a[2]), 0);
        LLVMValueRef m = LLVMBuildICmp(c->b, LLVMGetTypeKind(at) == LLVMVectorTypeKind ? LLVMIntSLT : LLVMIntNE, a[2], z, "");
        return LLVMBuildSelect(c->b, m, a[1], a[0], "");
    }
    return NULL;
}

/* shuffle(x, mask), shuffle2(x, y, mask): a constant mask as a shufflevector, else lane by lane
   (each mask lane taken modulo the lanes it chooses from, as OpenCL says) */
GPUCOMPILE_PRIVATE LLVMValueRef gpucompile_lower__shuffle(gpucompile_lower__cl *c, const char *f) {
    gpucompile_lower__state *w = c->w;
    int two = strcmp(f, "shuffle2") == 0;
    LLVMValueRef x, y, mask, r, idx[16];
    unsigned k, n, m;
    if (!two && strcmp(f, "shuffle") != 0) return NULL;
    if (c->n != (two ? 3u : 2u) || LLVMGetTypeKind(c->t) != LLVMVectorTypeKind) return NULL;
    x = c->a[0];
    y = two ? c->a[1] : LLVMGetPoison(LLVMTypeOf(x));
    mask = c->a[two ? 2 : 1];
    if (LLVMGetTypeKind(LLVMTypeOf(x)) != LLVMVectorTypeKind || LLVMGetTypeKind(LLVMTypeOf(mask)) != LLVMVectorTypeKind) return NULL;
    n = LLVMGetVectorSize(LLVMTypeOf(x));
    m = LLVMGetVectorSize(c->t);
    if (m > 16 || (n & (n - 1))) return NULL;
    if (LLVMIsAConstant(mask)) {
        for (k = 0; k < m; k++) {
            LLVMValueRef e = LLVMGetAggregateElement(mask, k);
            if (!e || !LLVMIsAConstantInt(e)) break;
            idx[k] = LLVMConstInt(w->i32, LLVMConstIntGetZExtValue(e) & ((two ? 2 * n : n) - 1), 0);
        }
        if (k == m) return LLVMBuildShuffleVector(c->b, x, y, LLVMConstVector(idx, m), "");
    }
    r = LLVMGetPoison(c->t);
    for (k = 0; k < m; k++) {
        LLVMValueRef i = LLVMBuildExtractElement(c->b, mask, LLVMConstInt(w->i32, k, 0), ""), lane, e;
        LLVMTypeRef it = LLVMTypeOf(i);
        lane = LLVMBuildAnd(c->b, i, LLVMConstInt(it, n - 1, 0), "");
        e = LLVMBuildExtractElement(c->b, x, lane, "");
        if (two)
            e = LLVMBuildSelect(c->b, LLVMBuildICmp(c->b, LLVMIntEQ, LLVMBuildAnd(c->b, i, LLVMConstInt(it, n, 0), ""), LLVMConstInt(it, 0, 0), ""), e,
                                LLVMBuildExtractElement(c->b, y, lane, ""), "");
        r = LLVMBuildInsertElement(c->b, r, e, LLVMConstInt(w->i32, k, 0), "");
    }
    return r;
}

/* ---- common and geometric functions (floating point) ---- */
GPUCOMPILE_PRIVATE LLVMValueRef gpucompile_lower__dot(gpucompile_lower__state *w, LLVMValueRef x, LLVMValueRef y) {
    LLVMValueRef p = LLVMBuildFMul(w->b, x, y, ""), s;
    unsigned k, n;
    if (LLVMGetTypeKind(LLVMTypeOf(p)) != LLVMVectorTypeKind) return p;
    n = LLVMGetVectorSize(LLVMTypeOf(p));
    s = LLVMBuildExtractElement(w->b, p, LLVMConstInt(w->i32, 0, 0), "");
    for (k = 1; k < n; k++) s = LLVMBuildFAdd(w->b, s, LLVMBuildExtractElement(w->b, p, LLVMConstInt(w->i32, k, 0), ""), "");
    return s;
}

/* length: the largest |lane| scaled out first, so that the squares neither overflow nor vanish */
GPUCOMPILE_PRIVATE LLVMValueRef gpucompile_lower__length(gpucompile_lower__state *w, LLVMValueRef x) {
    LLVMTypeRef t = LLVMTypeOf(x), et = gpucompile_lower__elem(t);
    LLVMValueRef ax = gpucompile_lower__intr1(w, "llvm.fabs", x), m, s, r;
    unsigned k, n = gpucompile_lower__lanes(t);
    if (n == 1) return ax;
    m = LLVMBuildExtractElement(w->b, ax, LLVMConstInt(w->i32, 0, 0), "");
    for (k = 1; k < n; k++) m = gpucompile_lower__intr2(w, "llvm.maxnum", m, LLVMBuildExtractElement(w->b, ax, LLVMConstInt(w->i32, k, 0), ""));
    /* scaled by m: an infinite lane gives inf, a zero vector 0 */
    s = LLVMBuildFDiv(w->b, x, gpucompile_lower__splat(w, m, t), "");
    r = LLVMBuildFMul(w->b, gpucompile_lower__intr1(w, "llvm.sqrt", gpucompile_lower__dot(w, s, s)), m, "");
    r = LLVMBuildSelect(w->b, LLVMBuildFCmp(w->b, LLVMRealOEQ, m, LLVMConstReal(et, 0.0), ""), LLVMConstReal(et, 0.0), r, "");
    return LLVMBuildSelect(w->b, gpucompile_lower__fpclass(w, m, GPUCOMPILE_LOWER__INF), m, r, "");
}

GPUCOMPILE_PRIVATE LLVMValueRef gpucompile_lower__geometric(gpucompile_lower__cl *c, const char *f) {
    gpucompile_lower__state *w = c->w;
    LLVMValueRef *a = c->a;
    if (strncmp(f, "fast_", 5) == 0) f += 5; /* the same, within the precision OpenCL allows them */
    if (c->n == 2 && strcmp(f, "dot") == 0) return gpucompile_lower__dot(w, a[0], a[1]);
    if (c->n == 2 && strcmp(f, "distance") == 0) return gpucompile_lower__length(w, LLVMBuildFSub(c->b, a[0], a[1], ""));
    if (c->n == 1 && strcmp(f, "length") == 0) return gpucompile_lower__length(w, a[0]);
    if (c->n == 1 && strcmp(f, "normalize") == 0) {
        LLVMValueRef l = gpucompile_lower__length(w, a[0]), r;
        r = LLVMBuildFDiv(c->b, a[0], gpucompile_lower__splat(w, l, c->t), "");
        return LLVMBuildSelect(c->b, LLVMBuildFCmp(c->b, LLVMRealOEQ, l, LLVMConstReal(c->et, 0.0), ""), a[0], r, "");
    }
    if (c->n == 2 && strcmp(f, "cross") == 0 && (gpucompile_lower__lanes(c->t) == 3 || gpucompile_lower__lanes(c->t) == 4)) {
        /* (y1 z2 - z1 y2, z1 x2 - x1 z2, x1 y2 - y1 x2[, 0]) */
        LLVMValueRef e[2][3], r = LLVMConstNull(c->t);
        unsigned k, i;
        for (i = 0; i < 2; i++)
            for (k = 0; k < 3; k++) e[i][k] = LLVMBuildExtractElement(c->b, a[i], LLVMConstInt(w->i32, k, 0), "");
        for (k = 0; k < 3; k++) {
            unsigned p = (k + 1) % 3, q = (k + 2) % 3;
            LLVMValueRef v = LLVMBuildFSub(c->b, LLVMBuildFMul(c->b, e[0][p], e[1][q], ""), LLVMBuildFMul(c->b, e[0][q], e[1][p], ""), "");
            r = LLVMBuildInsertElement(c->b, r, v, LLVMConstInt(w->i32, k, 0), "");
        }
        return r;
    }
    return NULL;
}

GPUCOMPILE_PRIVATE LLVMValueRef gpucompile_lower__common(gpucompile_lower__cl *c, const char *f) {
    gpucompile_lower__state *w = c->w;
    LLVMValueRef *a = c->a, z = gpucompile_lower__kf(c->t, 0.0), one = gpucompile_lower__kf(c->t, 1.0);
    if (c->n == 1 && strcmp(f, "degrees") == 0) return LLVMBuildFMul(c->b, a[0], gpucompile_lower__kf(c->t, 57.295779513082320876798), "");
    if (c->n == 1 && strcmp(f, "radians") == 0) return LLVMBuildFMul(c->b, a[0], gpucompile_lower__kf(c->t, 0.017453292519943295769237), "");
    if (c->n == 1 && strcmp(f, "sign") == 0) { /* 1, -1, the zero itself, 0 for NaN */
        LLVMValueRef r = LLVMBuildSelect(c->b, LLVMBuildFCmp(c->b, LLVMRealOEQ, a[0], z, ""), a[0], z, "");
        r = LLVMBuildSelect(c->b, LLVMBuildFCmp(c->b, LLVMRealOLT, a[0], z, ""), gpucompile_lower__kf(c->t, -1.0), r, "");
        return LLVMBuildSelect(c->b, LLVMBuildFCmp(c->b, LLVMRealOGT, a[0], z, ""), one, r, "");
    }
    if (c->n == 2 && (strcmp(f, "min") == 0 || strcmp(f, "fmin") == 0)) return gpucompile_lower__intr2(w, "llvm.minnum", a[0], a[1]);
    if (c->n == 2 && (strcmp(f, "max") == 0 || strcmp(f, "fmax") == 0)) return gpucompile_lower__intr2(w, "llvm.maxnum", a[0], a[1]);
    if (c->n == 2 && strcmp(f, "step") == 0) return LLVMBuildSelect(c->b, LLVMBuildFCmp(c->b, LLVMRealOLT, a[1], a[0], ""), z, one, "");
    if (c->n == 3 && strcmp(f, "clamp") == 0) return gpucompile_lower__intr2(w, "llvm.minnum", gpucompile_lower__intr2(w, "llvm.maxnum", a[0], a[1]), a[2]);
    if (c->n == 3 && strcmp(f, "mix") == 0) return LLVMBuildFAdd(c->b, a[0], LLVMBuildFMul(c->b, LLVMBuildFSub(c->b, a[1], a[0], ""), a[2], ""), "");
    if (c->n == 3 && strcmp(f, "smoothstep") == 0) { /* t = clamp((x - e0) / (e1 - e0), 0, 1); t * t * (3 - 2 t) */
        LLVMValueRef t = LLVMBuildFDiv(c->b, LLVMBuildFSub(c->b, a[2], a[0], ""), LLVMBuildFSub(c->b, a[1], a[0], ""), "");
        t = gpucompile_lower__intr2(w, "llvm.minnum", gpucompile_lower__intr2(w, "llvm.maxnum", t, z), one);
        if (!t) return NULL;
        return LLVMBuildFMul(c->b, LLVMBuildFMul(c->b, t, t, ""), LLVMBuildFSub(c->b, gpucompile_lower__kf(c->t, 3.0), LLVMBuildFMul(c->b, gpucompile_lower__kf(c->t, 2.0), t, ""), ""), "");
    }
    return NULL;
}

/* ---- conversions: convert_T[N][_sat][_rte|_rtz|_rtp|_rtn] ---- */
GPUCOMPILE_PRIVATE LLVMValueRef gpucompile_lower__convert(gpucompile_lower__cl *c, const char *f) {
    gpucompile_lower__state *w = c->w;
    LLVMValueRef x = c->n == 1 ? c->a[0] : NULL;
    LLVMTypeRef st = x ? LLVMTypeOf(x) : NULL, dt = c->t;
    const char *p = f + 8;
    int dsign, sat, to_fp = gpucompile_lower__is_fp(dt), from_fp = st && gpucompile_lower__is_fp(st);
    unsigned sb, db;
    const char *mode = "";
    if (strncmp(f, "convert_", 8) != 0 || !x || gpucompile_lower__lanes(st) != gpucompile_lower__lanes(dt)) return NULL;
    dsign = *p != 'u';
    while (*p && *p != '_') p++;
    sat = strncmp(p, "_sat", 4) == 0;
    if (sat) p += 4;
    if (*p == '_') mode = p + 1;
    sb = gpucompile_lower__bits(st);
    db = gpucompile_lower__bits(dt);
    if (!from_fp && !to_fp) {
        if (sat) { /* at the wider width, the source's value compared in its own signedness */
            LLVMTypeRef wt = sb >= db ? st : dt;
            LLVMValueRef v = sb >= db ? x : gpucompile_lower__ext(c, x, dt);
            if (db < sb) { /* narrower: both ends (an unsigned source's lower end is 0) */
                LLVMValueRef hi = LLVMBuildZExt(c->b, gpucompile_lower__imax(dt, dsign), wt, ""), lo = dsign ? LLVMBuildSExt(c->b, gpucompile_lower__imin(dt, 1), wt, "") : gpucompile_lower__ki(wt, 0);
                if (c->sign) v = gpucompile_lower__intr2(w, "llvm.smin", gpucompile_lower__intr2(w, "llvm.smax", v, lo), hi);
                else v = gpucompile_lower__intr2(w, "llvm.umin", v, hi);
                return v ? LLVMBuildTrunc(c->b, v, dt, "") : NULL;
            }
            if (c->sign && !dsign) return gpucompile_lower__intr2(w, "llvm.smax", v, gpucompile_lower__ki(wt, 0)); /* negatives to 0 */
            if (!c->sign && dsign && db == sb) return gpucompile_lower__intr2(w, "llvm.umin", v, gpucompile_lower__imax(wt, 1));
            return v; /* every value fits */
        }
        if (db == sb) return x;
        return db < sb ? LLVMBuildTrunc(c->b, x, dt, "") : gpucompile_lower__ext(c, x, dt);
    }
    if (from_fp && to_fp) return db == sb ? x : db < sb ? LLVMBuildFPTrunc(c->b, x, dt, "") : LLVMBuildFPExt(c->b, x, dt, "");
    if (!from_fp) return c->sign ? LLVMBuildSIToFP(c->b, x, dt, "") : LLVMBuildUIToFP(c->b, x, dt, "");
    /* float to integer: rounded as asked (toward zero by default), saturated or not */
    if (strcmp(mode, "rte") == 0) x = gpucompile_lower__intr1(w, "llvm.rint", x);
    else if (strcmp(mode, "rtp") == 0) x = gpucompile_lower__intr1(w, "llvm.ceil", x);
    else if (strcmp(mode, "rtn") == 0) x = gpucompile_lower__intr1(w, "llvm.floor", x);
    if (!x) return NULL;
    if (sat) { /* NaN -> 0; beyond the range: its ends; the bounds are powers of two, exact in any float */
        double top = dsign ? (double)(1ull << (db - 1)) : 2.0 * (double)(1ull << (db - 1)), bottom = dsign ? -top : 0.0;
        LLVMValueRef ok = LLVMBuildAnd(c->b, LLVMBuildFCmp(c->b, LLVMRealOLT, x, gpucompile_lower__kf(st, top), ""),
                                       LLVMBuildFCmp(c->b, LLVMRealOGE, x, gpucompile_lower__kf(st, bottom), ""), "");
        LLVMValueRef safe = LLVMBuildSelect(c->b, ok, x, gpucompile_lower__kf(st, 0.0), "");
        LLVMValueRef v = dsign ? LLVMBuildFPToSI(c->b, safe, dt, "") : LLVMBuildFPToUI(c->b, safe, dt, "");
        v = LLVMBuildSelect(c->b, LLVMBuildFCmp(c->b, LLVMRealOGE, x, gpucompile_lower__kf(st, top), ""), gpucompile_lower__imax(dt, dsign), v, "");
        return LLVMBuildSelect(c->b, LLVMBuildFCmp(c->b, LLVMRealOLT, x, gpucompile_lower__kf(st, bottom), ""), gpucompile_lower__imin(dt, dsign), v, "");
    }
    return dsign ? LLVMBuildFPToSI(c->b, x, dt, "") : LLVMBuildFPToUI(c->b, x, dt, "");
}

/* ---- math functions ---- */
/* a float call built at OpenCL's precision here rather than by GLSL.std.450's instruction */
GPUCOMPILE_PRIVATE int gpucompile_lower__precise(const gpucompile_lower__cl *c) {
    return !c->native && LLVMGetTypeKind(gpucompile_lower__elem(c->n ? LLVMTypeOf(c->a[0]) : c->t)) == LLVMFloatTypeKind;
}
GPUCOMPILE_PRIVATE LLVMValueRef gpucompile_lower__trig(gpucompile_lower__state *w, LLVMValueRef x, char which);
GPUCOMPILE_PRIVATE LLVMValueRef gpucompile_lower__acos(gpucompile_lower__state *w, LLVMValueRef x, char which);
GPUCOMPILE_PRIVATE LLVMValueRef gpucompile_lower__atan_pos(gpucompile_lower__state *w, LLVMValueRef a);
GPUCOMPILE_PRIVATE LLVMValueRef gpucompile_lower__copysign(gpucompile_lower__state *w, LLVMValueRef x, LLVMValueRef y);

/* those with an intrinsic of their own (GLSL.std.450 in LLVM 22's shaders; its transcendental
   instructions take 16- and 32-bit floats only: f64 = 0) */
GPUCOMPILE_PRIVATE const char *gpucompile_lower__math(const char *f, unsigned n, int *f64) {
    static const struct { const char *cl, *llvm; unsigned n; int f64; } t[] = {
        {"sin", "llvm.sin", 1, 0}, {"cos", "llvm.cos", 1, 0}, {"tan", "llvm.tan", 1, 0}, {"asin", "llvm.asin", 1, 0}, {"acos", "llvm.acos", 1, 0},
        {"atan", "llvm.atan", 1, 0}, {"sinh", "llvm.sinh", 1, 0}, {"cosh", "llvm.cosh", 1, 0}, {"tanh", "llvm.tanh", 1, 0}, {"exp", "llvm.exp", 1, 0},
        {"exp2", "llvm.exp2", 1, 0}, {"sqrt", "llvm.sqrt", 1, 1}, {"fabs", "llvm.fabs", 1, 1},
        {"floor", "llvm.floor", 1, 1}, {"ceil", "llvm.ceil", 1, 1}, {"trunc", "llvm.trunc", 1, 1}, {"rint", "llvm.rint", 1, 1},
        {"fmin", "llvm.minnum", 2, 1}, {"fmax", "llvm.maxnum", 2, 1},
{"fma", "llvm.fma", 3, 1}, {"mad", "llvm.fmuladd", 3, 1}};
    size_t i;
    for (i = 0; i < sizeof t / sizeof t[0]; i++)
        if (t[i].n == n && strcmp(f, t[i].cl) == 0) {
            *f64 = t[i].f64;
            return t[i].llvm;
        }
    return NULL;
}

GPUCOMPILE_PRIVATE LLVMValueRef gpucompile_lower__math_call(gpucompile_lower__cl *c, const char *f, const char **why) {
    gpucompile_lower__state *w = c->w;
    LLVMValueRef *a = c->a;
    int f64 = 0;
    const char *m = gpucompile_lower__math(f, c->n, &f64);
    if (c->n == 1 && strcmp(f, "round") == 0) { /* halves away from zero: GLSL's Round may take them to even (lavapipe does) */
        LLVMValueRef t = gpucompile_lower__intr1(w, "llvm.trunc", a[0]), one = gpucompile_lower__kf(c->t, 1.0);
        LLVMValueRef up = LLVMBuildFCmp(c->b, LLVMRealOGE, gpucompile_lower__intr1(w, "llvm.fabs", LLVMBuildFSub(c->b, a[0], t, "")), gpucompile_lower__kf(c->t, 0.5), "");
        LLVMValueRef step = LLVMBuildSelect(c->b, LLVMBuildFCmp(c->b, LLVMRealOLT, a[0], gpucompile_lower__kf(c->t, 0.0), ""), LLVMBuildFNeg(c->b, one, ""), one, "");
        return LLVMBuildSelect(c->b, up, LLVMBuildFAdd(c->b, t, step, ""), t, "");
    }
    if (c->n == 1 && gpucompile_lower__precise(c)) { /* where GLSL.std.450's misses OpenCL's limit */
        if (strcmp(f, "sin") == 0 || strcmp(f, "cos") == 0 || strcmp(f, "tan") == 0) return gpucompile_lower__trig(w, a[0], f[0] == 's' ? 's' : f[0]);
        if (strcmp(f, "acos") == 0 || strcmp(f, "asin") == 0) return gpucompile_lower__acos(w, a[0], f[1] == 's' ? 's' : 'c');
        if (strcmp(f, "atan") == 0) return gpucompile_lower__copysign(w, gpucompile_lower__atan_pos(w, gpucompile_lower__intr1(w, "llvm.fabs", a[0])), a[0]);
    }
    if (m) {
        if (!f64 && LLVMGetTypeKind(c->et) == LLVMDoubleTypeKind) {
            *why = "double-precision: GLSL.std.450 has it for 16- and 32-bit floats only";
            return NULL;
        }
        return gpucompile_lower__intr(w, m, c->t, a, c->n);
    }
    if (c->n == 1 && strcmp(f, "rsqrt") == 0) return LLVMBuildFDiv(c->b, gpucompile_lower__kf(c->t, 1.0), gpucompile_lower__intr1(w, "llvm.sqrt", a[0]), "");
    if (c->n == 1 && strcmp(f, "recip") == 0) return LLVMBuildFDiv(c->b, gpucompile_lower__kf(c->t, 1.0), a[0], "");
    if (c->n == 2 && strcmp(f, "divide") == 0) return LLVMBuildFDiv(c->b, a[0], a[1], "");
    return NULL;
}

/* ---- math functions built from GLSL.std.450's (float) and bit operations ---- */
/* the float format of t: mantissa bits, exponent bias */
GPUCOMPILE_PRIVATE unsigned gpucompile_lower__mant(LLVMTypeRef t) {
    unsigned bits = gpucompile_lower__bits(t);
    return bits == 64 ? 52 : bits == 32 ? 23 : 10;
}

/* 2^k as a double (no <math.h> in the header) */
GPUCOMPILE_PRIVATE double gpucompile_lower__pow2(int k) {
    double r = 1.0;
    for (; k > 0; k--) r *= 2.0;
    for (; k < 0; k++) r *= 0.5;
    return r;
}

/* +-inf or a quiet NaN of t's float format, from its bits */
GPUCOMPILE_PRIVATE LLVMValueRef gpucompile_lower__special(gpucompile_lower__state *w, LLVMTypeRef t, int nan, int neg) {
    LLVMTypeRef it = gpucompile_lower__int_like(t);
    unsigned bits = gpucompile_lower__bits(t), mant = gpucompile_lower__mant(t);
    unsigned long long v = (((1ull << (bits - mant - 1)) - 1) << mant) | (nan ? 1ull << (mant - 1) : 0) | (neg ? 1ull << (bits - 1) : 0);
    return LLVMBuildBitCast(w->b, gpucompile_lower__ki(it, v), t, "");
}

/* copysign by the bits (LLVM 22 cannot select llvm.copysign for a shader) */
GPUCOMPILE_PRIVATE LLVMValueRef gpucompile_lower__copysign(gpucompile_lower__state *w, LLVMValueRef x, LLVMValueRef y) {
    LLVMTypeRef t = LLVMTypeOf(x), it = gpucompile_lower__int_like(t);
    LLVMValueRef sm = gpucompile_lower__ki(it, 1ull << (gpucompile_lower__bits(t) - 1));
    LLVMValueRef v = LLVMBuildOr(w->b, LLVMBuildAnd(w->b, LLVMBuildBitCast(w->b, x, it, ""), LLVMBuildNot(w->b, sm, ""), ""),
                                 LLVMBuildAnd(w->b, LLVMBuildBitCast(w->b, y, it, ""), sm, ""), "");
    return LLVMBuildBitCast(w->b, v, t, "");
}

/* atan2(y, x) with C99 Annex F's zeros, infinities and NaNs, which GLSL's Atan leaves undefined
   (lavapipe gives 3pi/4 for atan2(0, 0)): the sign is y's, the size pi or 0 by x's sign where y is
   0 or x infinite, pi/2, pi/4 or 3pi/4 where y is infinite. */
GPUCOMPILE_PRIVATE LLVMValueRef gpucompile_lower__atan2(gpucompile_lower__state *w, LLVMValueRef y, LLVMValueRef x, int precise) {
    LLVMTypeRef t = LLVMTypeOf(y);
    LLVMValueRef r = precise ? NULL : gpucompile_lower__intr2(w, "llvm.atan2", y, x), pi = gpucompile_lower__kf(t, 3.14159265358979323846), z = gpucompile_lower__kf(t, 0);
    LLVMValueRef xneg = LLVMBuildFCmp(w->b, LLVMRealOLT, gpucompile_lower__copysign(w, gpucompile_lower__kf(t, 1), x), z, "");
    LLVMValueRef xinf = gpucompile_lower__fpclass(w, x, GPUCOMPILE_LOWER__INF), yinf = gpucompile_lower__fpclass(w, y, GPUCOMPILE_LOWER__INF);
    LLVMValueRef yfin = gpucompile_lower__fpclass(w, y, GPUCOMPILE_LOWER__FINITE);
    LLVMValueRef flat = LLVMBuildOr(w->b, LLVMBuildFCmp(w->b, LLVMRealOEQ, y, z, ""), LLVMBuildAnd(w->b, xinf, yfin, ""), "");
    LLVMValueRef nan = LLVMBuildOr(w->b, gpucompile_lower__fpclass(w, x, GPUCOMPILE_LOWER__NAN), gpucompile_lower__fpclass(w, y, GPUCOMPILE_LOWER__NAN), "");
    if (precise) { /* atan of the smaller |.| over the larger, then pi/2 - r and pi - r by where (x, y) lies */
        LLVMValueRef ax = gpucompile_lower__intr1(w, "llvm.fabs", x), ay = gpucompile_lower__intr1(w, "llvm.fabs", y), swap = LLVMBuildFCmp(w->b, LLVMRealOGT, ay, ax, "");
        r = gpucompile_lower__atan_pos(w, LLVMBuildFDiv(w->b, gpucompile_lower__intr2(w, "llvm.minnum", ax, ay), gpucompile_lower__intr2(w, "llvm.maxnum", ax, ay), ""));
        r = LLVMBuildSelect(w->b, swap, LLVMBuildFSub(w->b, gpucompile_lower__kf(t, 1.57079632679489661923), r, ""), r, "");
        r = LLVMBuildSelect(w->b, xneg, LLVMBuildFSub(w->b, pi, r, ""), r, "");
    }
    r = LLVMBuildSelect(w->b, flat, LLVMBuildSelect(w->b, xneg, pi, z, ""), r, "");
    r = LLVMBuildSelect(w->b, yinf, LLVMBuildSelect(w->b, xinf, LLVMBuildSelect(w->b, xneg, gpucompile_lower__kf(t, 2.35619449019234492885), gpucompile_lower__kf(t, 0.78539816339744830962), ""),
                                                    gpucompile_lower__kf(t, 1.57079632679489661923), ""), r, "");
    return LLVMBuildSelect(w->b, nan, LLVMBuildFAdd(w->b, x, y, ""), gpucompile_lower__copysign(w, r, y), "");
}

GPUCOMPILE_PRIVATE LLVMValueRef gpucompile_lower__fsel(gpucompile_lower__state *w, LLVMValueRef x, unsigned mask, LLVMValueRef then, LLVMValueRef v) {
    return LLVMBuildSelect(w->b, gpucompile_lower__fpclass(w, x, mask), then, v, "");
}

GPUCOMPILE_PRIVATE LLVMValueRef gpucompile_lower__fma(gpucompile_lower__state *w, LLVMValueRef a, LLVMValueRef b, LLVMValueRef c) {
    LLVMValueRef ops[3];
    ops[0] = a;
    ops[1] = b;
    ops[2] = c;
    return gpucompile_lower__intr(w, "llvm.fma", LLVMTypeOf(a), ops, 3);
}

/* 2^(x * hi) for the constant hi + lo (a log2 of a base split in two floats): the product's
   rounding error (fma) and lo folded in as 2^e ~ 1 + e ln 2, so that the argument's rounding does
   not grow with |x| (exp10, exp) */
GPUCOMPILE_PRIVATE LLVMValueRef gpucompile_lower__exp_base(gpucompile_lower__state *w, LLVMValueRef x, double hi, double lo) {
    LLVMTypeRef t = LLVMTypeOf(x);
    LLVMValueRef h = gpucompile_lower__kf(t, hi), p = LLVMBuildFMul(w->b, x, h, ""), e, r0, r;
    e = LLVMBuildFAdd(w->b, gpucompile_lower__fma(w, x, h, LLVMBuildFNeg(w->b, p, "")), LLVMBuildFMul(w->b, x, gpucompile_lower__kf(t, lo), ""), "");
    r0 = gpucompile_lower__intr1(w, "llvm.exp2", p);
    r = gpucompile_lower__fma(w, r0, LLVMBuildFMul(w->b, e, gpucompile_lower__kf(t, 0.69314718055994530942), ""), r0);
    return LLVMBuildSelect(w->b, gpucompile_lower__fpclass(w, e, GPUCOMPILE_LOWER__FINITE), r, r0, "");
}

/* x * 2^n (n: integers of x's shape), in three steps of at most 2^+-127 each (a float's 2^k
   from its exponent bits), n clamped to what can change a float */
GPUCOMPILE_PRIVATE LLVMValueRef gpucompile_lower__ldexp(gpucompile_lower__state *w, LLVMValueRef x, LLVMValueRef n) {
    LLVMTypeRef t = LLVMTypeOf(x), it = gpucompile_lower__int_like(t);
    unsigned mant = gpucompile_lower__mant(t), bias = (1u << (gpucompile_lower__bits(t) - mant - 2)) - 1, k;
    LLVMValueRef parts[3], m = LLVMBuildIntCast2(w->b, n, it, 1, "");
    long long lim = 3 * (long long)bias;
    m = gpucompile_lower__intr2(w, "llvm.smin", gpucompile_lower__intr2(w, "llvm.smax", m, gpucompile_lower__ki(it, (unsigned long long)-lim)), gpucompile_lower__ki(it, (unsigned long long)lim));
    if (!m) return NULL;
    parts[0] = LLVMBuildSDiv(w->b, m, gpucompile_lower__ki(it, 3), "");
    parts[1] = LLVMBuildSDiv(w->b, LLVMBuildSub(w->b, m, parts[0], ""), gpucompile_lower__ki(it, 2), "");
    parts[2] = LLVMBuildSub(w->b, LLVMBuildSub(w->b, m, parts[0], ""), parts[1], "");
    for (k = 0; k < 3; k++) {
        LLVMValueRef s = LLVMBuildShl(w->b, LLVMBuildAdd(w->b, parts[k], gpucompile_lower__ki(it, bias), ""), gpucompile_lower__ki(it, mant), "");
        x = LLVMBuildFMul(w->b, x, LLVMBuildBitCast(w->b, s, t, ""), "");
    }
    return x;
}

/* The unbiased exponent of x (finite, not 0) as an integer of x's shape; subnormals scaled up first */
GPUCOMPILE_PRIVATE LLVMValueRef gpucompile_lower__exponent(gpucompile_lower__state *w, LLVMValueRef x, LLVMValueRef *scaled) {
    LLVMTypeRef t = LLVMTypeOf(x), it = gpucompile_lower__int_like(t);
    unsigned mant = gpucompile_lower__mant(t), ebits = gpucompile_lower__bits(t) - mant - 1, bias = (1u << (ebits - 1)) - 1;
    LLVMValueRef sub = gpucompile_lower__fpclass(w, x, GPUCOMPILE_LOWER__SUB), big, bi, e;
    big = LLVMBuildFMul(w->b, x, gpucompile_lower__kf(t, gpucompile_lower__pow2((int)mant + 1)), "");
    x = LLVMBuildSelect(w->b, sub, big, x, "");
    bi = LLVMBuildBitCast(w->b, x, it, "");
    e = LLVMBuildAnd(w->b, LLVMBuildLShr(w->b, bi, gpucompile_lower__ki(it, mant), ""), gpucompile_lower__ki(it, (1u << ebits) - 1), "");
    e = LLVMBuildSub(w->b, e, LLVMBuildSelect(w->b, sub, gpucompile_lower__ki(it, bias + mant + 1), gpucompile_lower__ki(it, bias), ""), "");
    if (scaled) *scaled = x;
    return e;
}

/* log(1 + f) for f in [sqrt(1/2) - 1, sqrt(2) - 1]: 2 atanh(s), s = f / (2 + f), by its series
   (no cancellation to lose: Mesa's compiler may fold (1 + x) - 1 into x, so no trick that needs
   that rounding exactly is used) */
GPUCOMPILE_PRIVATE LLVMValueRef gpucompile_lower__log_series(gpucompile_lower__state *w, LLVMValueRef f) {
    static const double k[] = {1.0 / 11, 1.0 / 9, 1.0 / 7, 1.0 / 5, 1.0 / 3};
    LLVMTypeRef t = LLVMTypeOf(f);
    LLVMValueRef sv = LLVMBuildFDiv(w->b, f, LLVMBuildFAdd(w->b, f, gpucompile_lower__kf(t, 2.0), ""), ""), s2 = LLVMBuildFMul(w->b, sv, sv, ""), p, two_s;
    unsigned i;
    p = gpucompile_lower__kf(t, k[0]);
    for (i = 1; i < sizeof k / sizeof k[0]; i++) p = LLVMBuildFAdd(w->b, LLVMBuildFMul(w->b, p, s2, ""), gpucompile_lower__kf(t, k[i]), "");
    two_s = LLVMBuildFMul(w->b, sv, gpucompile_lower__kf(t, 2.0), "");
    return LLVMBuildFAdd(w->b, two_s, LLVMBuildFMul(w->b, two_s, LLVMBuildFMul(w->b, s2, p, ""), ""), ""); /* the small part last */
}

/* log(x) in pieces (float): x = m 2^e with m in [sqrt(1/2), sqrt(2)), log(m) = 2 atanh(s),
   s = (m - 1) / (m + 1), by its series; *e: e as a float (log_f: m - 1 itself). GLSL.std.450's Log and Log2 are
   absolute-error instructions (hundreds of ULP near 1, measured on lavapipe): this is within 2. */
GPUCOMPILE_PRIVATE LLVMValueRef gpucompile_lower__log_f(gpucompile_lower__state *w, LLVMValueRef x, LLVMValueRef *ef) {
    LLVMTypeRef t = LLVMTypeOf(x), it = gpucompile_lower__int_like(t);
    unsigned mant = gpucompile_lower__mant(t), ebits = gpucompile_lower__bits(t) - mant - 1;
    LLVMValueRef xs, e = gpucompile_lower__exponent(w, x, &xs), m, big, f;
    unsigned long long keep = ~(((1ull << ebits) - 1) << mant), zero_exp = (((1ull << (ebits - 1)) - 1) << mant);
    m = LLVMBuildBitCast(w->b, LLVMBuildOr(w->b, LLVMBuildAnd(w->b, LLVMBuildBitCast(w->b, xs, it, ""), gpucompile_lower__ki(it, keep), ""), gpucompile_lower__ki(it, zero_exp), ""), t, "");
    big = LLVMBuildFCmp(w->b, LLVMRealOGT, m, gpucompile_lower__kf(t, 1.41421356237309504880), "");
    m = LLVMBuildSelect(w->b, big, LLVMBuildFMul(w->b, m, gpucompile_lower__kf(t, 0.5), ""), m, "");
    e = LLVMBuildAdd(w->b, e, LLVMBuildZExt(w->b, big, it, ""), "");
    f = LLVMBuildFSub(w->b, m, gpucompile_lower__kf(t, 1.0), "");
    *ef = LLVMBuildSIToFP(w->b, e, t, "");
    return f;
}

GPUCOMPILE_PRIVATE LLVMValueRef gpucompile_lower__log_m(gpucompile_lower__state *w, LLVMValueRef x, LLVMValueRef *ef) {
    return gpucompile_lower__log_series(w, gpucompile_lower__log_f(w, x, ef));
}

/* log, log2, log10 (which: 'e', '2', 'a'): e log(2) + log(m) in the base, the special values of x */
GPUCOMPILE_PRIVATE LLVMValueRef gpucompile_lower__log(gpucompile_lower__state *w, LLVMValueRef x, char which) {
    LLVMTypeRef t = LLVMTypeOf(x);
    LLVMValueRef ef, l = gpucompile_lower__log_m(w, x, &ef), r, z = gpucompile_lower__kf(t, 0.0);
    /* the base's log 2 in a high part whose product with e is exact, and the rest */
    double hi = which == 'e' ? 0.693145751953125 : which == 'a' ? 0.301025390625 : 1.0;
    double lo = which == 'e' ? 1.4286068202862268e-06 : which == 'a' ? 4.6050389811980175e-06 : 0.0;
    double scale = which == 'e' ? 1.0 : which == 'a' ? 0.43429448190325182765 : 1.44269504088896340736;
    if (which != 'e') l = LLVMBuildFMul(w->b, l, gpucompile_lower__kf(t, scale), "");
    r = LLVMBuildFAdd(w->b, LLVMBuildFMul(w->b, ef, gpucompile_lower__kf(t, hi), ""), LLVMBuildFAdd(w->b, l, LLVMBuildFMul(w->b, ef, gpucompile_lower__kf(t, lo), ""), ""), "");
    r = LLVMBuildSelect(w->b, LLVMBuildFCmp(w->b, LLVMRealOEQ, x, z, ""), gpucompile_lower__special(w, t, 0, 1), r, "");
    r = LLVMBuildSelect(w->b, LLVMBuildFCmp(w->b, LLVMRealOLT, x, z, ""), gpucompile_lower__special(w, t, 1, 0), r, "");
    return gpucompile_lower__fsel(w, x, GPUCOMPILE_LOWER__INF | GPUCOMPILE_LOWER__NAN, LLVMBuildFAdd(w->b, x, x, ""), r); /* +inf, NaN: itself; -inf: NaN below */
}

/* sinpi/cospi of |x|: r = |x| mod 2 (exact), r = k/2 + f with |f| <= 1/4, then sin or cos of pi f */
GPUCOMPILE_PRIVATE LLVMValueRef gpucompile_lower__sinpi(gpucompile_lower__state *w, LLVMValueRef x, int cosine) {
    LLVMTypeRef t = LLVMTypeOf(x), it = gpucompile_lower__int_like(t);
    LLVMValueRef ax = gpucompile_lower__intr1(w, "llvm.fabs", x), r, k, f, pf, s, c, ki, b0, b1, v, neg, z = gpucompile_lower__kf(t, 0.0);
    r = LLVMBuildFSub(w->b, ax, LLVMBuildFMul(w->b, gpucompile_lower__intr1(w, "llvm.floor", LLVMBuildFMul(w->b, ax, gpucompile_lower__kf(t, 0.5), "")),
                                               gpucompile_lower__kf(t, 2.0), ""), "");
    k = gpucompile_lower__intr1(w, "llvm.rint", LLVMBuildFMul(w->b, r, gpucompile_lower__kf(t, 2.0), ""));
    f = LLVMBuildFSub(w->b, r, LLVMBuildFMul(w->b, k, gpucompile_lower__kf(t, 0.5), ""), "");
    pf = LLVMBuildFMul(w->b, f, gpucompile_lower__kf(t, 3.14159265358979323846), "");
    s = gpucompile_lower__intr1(w, "llvm.sin", pf);
    c = gpucompile_lower__intr1(w, "llvm.cos", pf);
    ki = LLVMBuildFPToSI(w->b, gpucompile_lower__fsel(w, k, GPUCOMPILE_LOWER__FINITE, k, z), it, "");
    b0 = LLVMBuildTrunc(w->b, ki, gpucompile_lower__like(t, LLVMInt1TypeInContext(w->ctx)), "");
    b1 = LLVMBuildTrunc(w->b, LLVMBuildLShr(w->b, ki, gpucompile_lower__ki(it, 1), ""), gpucompile_lower__like(t, LLVMInt1TypeInContext(w->ctx)), "");
    /* sinpi: s, c, -s, -c; cospi: c, -s, -c, s (k = 0..3) */
    v = cosine ? LLVMBuildSelect(w->b, b0, s, c, "") : LLVMBuildSelect(w->b, b0, c, s, "");
    neg = cosine ? LLVMBuildXor(w->b, b0, b1, "") : b1;
    v = LLVMBuildSelect(w->b, neg, LLVMBuildFNeg(w->b, v, ""), v, "");
    if (cosine) return LLVMBuildSelect(w->b, LLVMBuildFCmp(w->b, LLVMRealOEQ, v, z, ""), z, v, ""); /* cospi(n + 1/2) = +0 */
    v = LLVMBuildSelect(w->b, LLVMBuildFCmp(w->b, LLVMRealOEQ, v, z, ""), z, v, "");
    return gpucompile_lower__fsel(w, x, 0x03cu /* negative */, LLVMBuildFNeg(w->b, v, ""), v); /* odd: sinpi(-x) = -sinpi(x), sinpi(-n) = -0 */
}

/* log(1 + x): the series itself near 0, log(1 + x) elsewhere */
GPUCOMPILE_PRIVATE LLVMValueRef gpucompile_lower__log1p(gpucompile_lower__state *w, LLVMValueRef x) {
    LLVMTypeRef t = LLVMTypeOf(x);
    LLVMValueRef lu = gpucompile_lower__log(w, LLVMBuildFAdd(w->b, x, gpucompile_lower__kf(t, 1.0), ""), 'e');
    LLVMValueRef small = LLVMBuildAnd(w->b, LLVMBuildFCmp(w->b, LLVMRealOGT, x, gpucompile_lower__kf(t, -0.29289321881345247560), ""),
                                     LLVMBuildFCmp(w->b, LLVMRealOLT, x, gpucompile_lower__kf(t, 0.41421356237309504880), ""), "");
    return LLVMBuildSelect(w->b, small, gpucompile_lower__log_series(w, x), lu, "");
}

/* ---- OpenCL's precision where GLSL.std.450's falls short (float) ----
   A shader's GLSL.std.450 Sin, Cos, Asin, Acos, Atan and Pow have no precision given, and lavapipe's miss
   OpenCL's limits (sin of 1.33e36 gave -1; asin ~3700 ULP off, acos, atan, atan2 5 to 20, pow 16+
   at 8.2e30): these are built here from polynomials (Cephes' for sin, cos, tan, asin, acos and
   atan; fitted to the host's long-double libm on Chebyshev nodes for erf, erfc, tgamma and
   lgamma), with integer arithmetic or bit masks where exactness matters: on lavapipe an fma's
   error term fma(a, b, -(a * b)) is 0, and Mesa's compiler folds (a + b) - a into b and
   exp2(a) exp2(b) into exp2(a + b), so no double-float trick that needs them is used. The
   half-precision and native_ forms keep GLSL.std.450's. */

/* k[0] + k[1] u + ... + k[n-1] u^(n-1) (Horner); where sel (an i1 of u's shape) holds, k2's instead */
GPUCOMPILE_PRIVATE LLVMValueRef gpucompile_lower__poly(gpucompile_lower__state *w, LLVMValueRef u, const double *k, const double *k2, LLVMValueRef sel, unsigned n) {
    LLVMTypeRef t = LLVMTypeOf(u);
    LLVMValueRef r = NULL;
    unsigned i = n;
    while (i-- > 0) {
        LLVMValueRef c = gpucompile_lower__kf(t, k[i]);
        if (k2) c = LLVMBuildSelect(w->b, sel, gpucompile_lower__kf(t, k2[i]), c, "");
        r = r ? LLVMBuildFAdd(w->b, LLVMBuildFMul(w->b, r, u, ""), c, "") : c;
    }
    return r;
}

/* |x| (a float's, finite, from pi/4 up) = (q + r / (pi/2)) pi/2 with |r| <= pi/4; *q: q (i32 lanes).
   Payne and Hanek's reduction in 32-bit integers: x's mantissa m times the 96 bits of 2/pi that
   matter at x's exponent (those above weigh multiples of 4, those below less than 2^-60), modulo
   2^96; the quadrant is the top two bits, the rest the fraction, normalized and times pi/2. */
GPUCOMPILE_PRIVATE LLVMValueRef gpucompile_lower__trig_reduce(gpucompile_lower__state *w, LLVMValueRef ax, LLVMValueRef *q) {
    static const unsigned two_over_pi[8] = {0, 0xa2f9836eu, 0x4e441529u, 0xfc2757d1u, 0xf534ddc0u, 0xdb629599u, 0x3c439041u, 0xfe5163abu}; /* after 32 zero bits */
    LLVMTypeRef it = gpucompile_lower__int_like(LLVMTypeOf(ax));
    LLVMBuilderRef b = w->b;
    LLVMValueRef bits = LLVMBuildBitCast(b, ax, it, ""), e, m, pos, wi, sh, word[4], v[3], lo0, hi0, lo1, hi1, p2, w1, w2, hi, lo, neg, z, k, s, p, r, scale;
    unsigned i, j;
    e = LLVMBuildSub(b, LLVMBuildLShr(b, bits, gpucompile_lower__ki(it, 23), ""), gpucompile_lower__ki(it, 127), "");
    e = gpucompile_lower__intr2(w, "llvm.smin", gpucompile_lower__intr2(w, "llvm.smax", e, gpucompile_lower__ki(it, (unsigned long long)-1)), gpucompile_lower__ki(it, 127));
    if (!e) return NULL;
    m = LLVMBuildOr(b, LLVMBuildAnd(b, bits, gpucompile_lower__ki(it, 0x7fffff), ""), gpucompile_lower__ki(it, 0x800000), "");
    pos = LLVMBuildAdd(b, e, gpucompile_lower__ki(it, 7), ""); /* the first bit that matters: x's ulp times it weighs 2 */
    wi = LLVMBuildLShr(b, pos, gpucompile_lower__ki(it, 5), "");
    sh = LLVMBuildAnd(b, pos, gpucompile_lower__ki(it, 31), "");
    for (i = 0; i < 4; i++) { /* the words wi .. wi + 3 of the table, chosen by selects (wi <= 4) */
        LLVMValueRef idx = LLVMBuildAdd(b, wi, gpucompile_lower__ki(it, i), "");
        word[i] = gpucompile_lower__ki(it, two_over_pi[7]);
        for (j = 7; j-- > 0;)
            word[i] = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntEQ, idx, gpucompile_lower__ki(it, j), ""), gpucompile_lower__ki(it, two_over_pi[j]), word[i], "");
    }
    for (i = 0; i < 3; i++) v[i] = gpucompile_lower__funnel(w, word[i], word[i + 1], sh, 0); /* v[0]: the top 32 of the 96 bits */
    lo0 = LLVMBuildMul(b, m, v[2], "");
    hi0 = gpucompile_lower__umul_hi(w, m, v[2]);
    lo1 = LLVMBuildMul(b, m, v[1], "");
    hi1 = gpucompile_lower__umul_hi(w, m, v[1]);
    p2 = LLVMBuildMul(b, m, v[0], "");
    w1 = LLVMBuildAdd(b, hi0, lo1, "");
    w2 = LLVMBuildAdd(b, LLVMBuildAdd(b, hi1, p2, ""), LLVMBuildZExt(b, LLVMBuildICmp(b, LLVMIntULT, w1, lo1, ""), it, ""), "");
    /* the fraction's top 64 bits (hi, lo), signed: from 1/2 on it is f - 1 of the next quadrant */
    hi = LLVMBuildOr(b, LLVMBuildShl(b, w2, gpucompile_lower__ki(it, 2), ""), LLVMBuildLShr(b, w1, gpucompile_lower__ki(it, 30), ""), "");
    lo = LLVMBuildOr(b, LLVMBuildShl(b, w1, gpucompile_lower__ki(it, 2), ""), LLVMBuildLShr(b, lo0, gpucompile_lower__ki(it, 30), ""), "");
    neg = LLVMBuildICmp(b, LLVMIntSLT, hi, gpucompile_lower__ki(it, 0), "");
    *q = LLVMBuildAdd(b, LLVMBuildLShr(b, w2, gpucompile_lower__ki(it, 30), ""), LLVMBuildZExt(b, neg, it, ""), "");
    z = LLVMBuildNeg(b, lo, "");
    hi = LLVMBuildSelect(b, neg, LLVMBuildAdd(b, LLVMBuildNot(b, hi, ""), LLVMBuildZExt(b, LLVMBuildICmp(b, LLVMIntEQ, lo, gpucompile_lower__ki(it, 0), ""), it, ""), ""), hi, "");
    lo = LLVMBuildSelect(b, neg, z, lo, "");
    z = LLVMBuildICmp(b, LLVMIntEQ, hi, gpucompile_lower__ki(it, 0), ""); /* normalized: the first set bit on top */
    k = LLVMBuildSelect(b, z, gpucompile_lower__ki(it, 32), gpucompile_lower__ki(it, 0), "");
    hi = LLVMBuildSelect(b, z, lo, hi, "");
    lo = LLVMBuildSelect(b, z, gpucompile_lower__ki(it, 0), lo, "");
    s = gpucompile_lower__clz(w, hi);
    hi = gpucompile_lower__funnel(w, hi, lo, s, 0);
    p = gpucompile_lower__umul_hi(w, hi, gpucompile_lower__ki(it, 0xc90fdaa2u)); /* pi/2 in 2^31 units */
    scale = LLVMBuildBitCast(b, LLVMBuildShl(b, LLVMBuildSub(b, LLVMBuildSub(b, gpucompile_lower__ki(it, 96), k, ""), s, ""), gpucompile_lower__ki(it, 23), ""), LLVMTypeOf(ax), "");
    r = LLVMBuildFMul(b, LLVMBuildUIToFP(b, p, LLVMTypeOf(ax), ""), scale, "");
    return LLVMBuildSelect(b, neg, LLVMBuildFNeg(b, r, ""), r, "");
}

/* sin, cos or tan (which: 's', 'c', 't') of a float: r and the quadrant q of |x| (|x| itself below
   pi/4), Cephes' sinf, cosf and tanf polynomials on r, chosen and signed by q and x's sign */
GPUCOMPILE_PRIVATE LLVMValueRef gpucompile_lower__trig(gpucompile_lower__state *w, LLVMValueRef x, char which) {
    static const double ks[] = {-1.6666654611e-1, 8.3321608736e-3, -1.9515295891e-4};
    static const double kc[] = {4.166664568298827e-2, -1.388731625493765e-3, 2.443315711809948e-5};
    static const double kt[] = {3.33331568548e-1, 1.33387994085e-1, 5.34112807005e-2, 2.44301354525e-2, 3.11992232697e-3, 9.38540185543e-3};
    LLVMTypeRef t = LLVMTypeOf(x), it = gpucompile_lower__int_like(t), i1 = gpucompile_lower__like(t, LLVMInt1TypeInContext(w->ctx));
    LLVMBuilderRef b = w->b;
    LLVMValueRef ax = gpucompile_lower__intr1(w, "llvm.fabs", x), q, r = gpucompile_lower__trig_reduce(w, ax, &q), small, z, v, s, c, odd, flip;
    if (!r) return NULL;
    small = LLVMBuildFCmp(b, LLVMRealOLT, ax, gpucompile_lower__kf(t, 0.78539816339744830962), "");
    r = LLVMBuildSelect(b, small, ax, r, "");
    q = LLVMBuildSelect(b, small, gpucompile_lower__ki(it, 0), q, "");
    if (which == 'c') q = LLVMBuildAdd(b, q, gpucompile_lower__ki(it, 1), ""); /* cos x = sin(x + pi/2) */
    odd = LLVMBuildTrunc(b, q, i1, "");
    z = LLVMBuildFMul(b, r, r, "");
    if (which == 't') {
        v = LLVMBuildFAdd(b, r, LLVMBuildFMul(b, LLVMBuildFMul(b, r, z, ""), gpucompile_lower__poly(w, z, kt, NULL, NULL, 6), ""), "");
        v = LLVMBuildSelect(b, odd, LLVMBuildFDiv(b, gpucompile_lower__kf(t, -1.0), v, ""), v, "");
        flip = NULL;
    } else {
        s = LLVMBuildFAdd(b, r, LLVMBuildFMul(b, LLVMBuildFMul(b, r, z, ""), gpucompile_lower__poly(w, z, ks, NULL, NULL, 3), ""), "");
        c = LLVMBuildFAdd(b, LLVMBuildFSub(b, gpucompile_lower__kf(t, 1.0), LLVMBuildFMul(b, z, gpucompile_lower__kf(t, 0.5), ""), ""),
                          LLVMBuildFMul(b, LLVMBuildFMul(b, z, z, ""), gpucompile_lower__poly(w, z, kc, NULL, NULL, 3), ""), "");
        v = LLVMBuildSelect(b, odd, c, s, "");
        flip = LLVMBuildTrunc(b, LLVMBuildLShr(b, q, gpucompile_lower__ki(it, 1), ""), i1, "");
    }
    if (which != 'c') { /* odd functions: x's sign */
        LLVMValueRef xneg = LLVMBuildICmp(b, LLVMIntSLT, LLVMBuildBitCast(b, x, it, ""), gpucompile_lower__ki(it, 0), "");
        flip = flip ? LLVMBuildXor(b, flip, xneg, "") : xneg;
    }
    v = LLVMBuildSelect(b, flip, LLVMBuildFNeg(b, v, ""), v, "");
    /* inf and NaN: NaN from x's bits (WGSL has no NaN constant, naga refuses one) */
    return gpucompile_lower__fsel(w, x, GPUCOMPILE_LOWER__INF | GPUCOMPILE_LOWER__NAN,
                                  LLVMBuildBitCast(b, LLVMBuildOr(b, LLVMBuildBitCast(b, x, it, ""), gpucompile_lower__ki(it, 0x7fc00000u), ""), t, ""), v);
}

/* atan(a) for a >= 0 (Cephes' atanf: a reduced below tan(pi/8) by pi/4 or pi/2 steps) */
GPUCOMPILE_PRIVATE LLVMValueRef gpucompile_lower__atan_pos(gpucompile_lower__state *w, LLVMValueRef a) {
    static const double k[] = {-3.33329491539e-1, 1.99777106478e-1, -1.38776856032e-1, 8.05374449538e-2};
    LLVMTypeRef t = LLVMTypeOf(a);
    LLVMBuilderRef b = w->b;
    LLVMValueRef one = gpucompile_lower__kf(t, 1.0), big = LLVMBuildFCmp(b, LLVMRealOGT, a, gpucompile_lower__kf(t, 2.414213562373095), "");
    LLVMValueRef mid = LLVMBuildFCmp(b, LLVMRealOGT, a, gpucompile_lower__kf(t, 0.4142135623730950), ""), y0, u, z;
    y0 = LLVMBuildSelect(b, big, gpucompile_lower__kf(t, 1.57079632679489661923), LLVMBuildSelect(b, mid, gpucompile_lower__kf(t, 0.78539816339744830962), gpucompile_lower__kf(t, 0.0), ""), "");
    u = LLVMBuildSelect(b, big, LLVMBuildFDiv(b, gpucompile_lower__kf(t, -1.0), a, ""),
                        LLVMBuildSelect(b, mid, LLVMBuildFDiv(b, LLVMBuildFSub(b, a, one, ""), LLVMBuildFAdd(b, a, one, ""), ""), a, ""), "");
    z = LLVMBuildFMul(b, u, u, "");
    return LLVMBuildFAdd(b, y0, LLVMBuildFAdd(b, u, LLVMBuildFMul(b, LLVMBuildFMul(b, u, z, ""), gpucompile_lower__poly(w, z, k, NULL, NULL, 4), ""), ""), "");
}

/* acos or asin (which: 'c', 's'; Cephes' acosf and asinf: asin's polynomial on x up to 1/2, else on
   sqrt((1 - |x|) / 2)) */
GPUCOMPILE_PRIVATE LLVMValueRef gpucompile_lower__acos(gpucompile_lower__state *w, LLVMValueRef x, char which) {
    static const double k[] = {1.6666752422e-1, 7.4953002686e-2, 4.5470025998e-2, 2.4181311049e-2, 4.2163199048e-2};
    LLVMTypeRef t = LLVMTypeOf(x);
    LLVMBuilderRef b = w->b;
    LLVMValueRef ax = gpucompile_lower__intr1(w, "llvm.fabs", x), big = LLVMBuildFCmp(b, LLVMRealOGT, ax, gpucompile_lower__kf(t, 0.5), ""), a, z, p, two_p;
    LLVMValueRef half_pi = gpucompile_lower__kf(t, 1.57079632679489661923);
    a = LLVMBuildSelect(b, big, gpucompile_lower__intr1(w, "llvm.sqrt", LLVMBuildFMul(b, LLVMBuildFSub(b, gpucompile_lower__kf(t, 1.0), ax, ""), gpucompile_lower__kf(t, 0.5), "")),
                        which == 's' ? ax : x, "");
    z = LLVMBuildFMul(b, a, a, "");
    p = LLVMBuildFAdd(b, a, LLVMBuildFMul(b, LLVMBuildFMul(b, a, z, ""), gpucompile_lower__poly(w, z, k, NULL, NULL, 5), ""), ""); /* asin(a) */
    two_p = LLVMBuildFMul(b, p, gpucompile_lower__kf(t, 2.0), "");
    if (which == 's') return gpucompile_lower__copysign(w, LLVMBuildSelect(b, big, LLVMBuildFSub(b, half_pi, two_p, ""), p, ""), x);
    return LLVMBuildSelect(b, big, LLVMBuildSelect(b, LLVMBuildFCmp(b, LLVMRealOLT, x, gpucompile_lower__kf(t, 0.0), ""),
                                                   LLVMBuildFSub(b, gpucompile_lower__kf(t, 3.14159265358979323846), two_p, ""), two_p, ""),
                           LLVMBuildFSub(b, half_pi, p, ""), "");
}

/* erf(|x|) below 1: x P(x^2) (fitted on [0, 1]) */
GPUCOMPILE_PRIVATE LLVMValueRef gpucompile_lower__erf_small(gpucompile_lower__state *w, LLVMValueRef x) {
    static const double k[] = {1.128379167e+00, -3.761263848e-01, 1.128378262e-01, -2.686543831e-02, 5.221053413e-03, -8.484396551e-04, 1.126825389e-04, -9.673590812e-06};
    return LLVMBuildFMul(w->b, x, gpucompile_lower__poly(w, LLVMBuildFMul(w->b, x, x, ""), k, NULL, NULL, 8), "");
}

/* erfc(v) for v from 3/4 on: e^-v^2 H(v) / v, H fitted in v below 2 and in 1/v above (relative
   error 3e-8 each); v past 10.1: 0. e^-v^2 = 2^-(h^2 L1) 2^-(h^2 L2 + (v^2 - h^2) L), h: v with 8
   significant bits (by its bits), L1: log2(e) with 8, so that h^2 L1 is exact (v^2 rounded would not
   do, nor its fma error term: that left erfc 100 ULP off on lavapipe); its integer
   part as 2^n by ldexp, one exp2 for the rest (Mesa's compiler merges exp2(a) exp2(b) into
   exp2(a + b), which would round h^2 L1 again) */
GPUCOMPILE_PRIVATE LLVMValueRef gpucompile_lower__erfc_big(gpucompile_lower__state *w, LLVMValueRef v) {
    static const double below2[] = {4.720318486e-01, 8.986212083e-02, -6.075505912e-02, 3.416987189e-02, -1.701143977e-02, 7.730247385e-03,
                                    -3.263037179e-03, 1.285432942e-03, -4.834651606e-04, 1.977730119e-04, -6.816832886e-05};
    static const double above2[] = {5.416332031e-01, -1.346010143e-01, -1.355838496e-01, 2.080724788e-01, -8.154725714e-02, -1.584573139e-01,
                                    3.415560438e-01, -2.660663181e-01, -1.928364979e-01, 8.742303735e-01, -9.706936365e-01};
    LLVMTypeRef t = LLVMTypeOf(v);
    LLVMBuilderRef b = w->b;
    LLVMTypeRef it = gpucompile_lower__int_like(t);
    LLVMValueRef x = gpucompile_lower__intr2(w, "llvm.minnum", v, gpucompile_lower__kf(t, 10.1)), xh, h2, e, n, isfar, u, h;
    xh = LLVMBuildBitCast(b, LLVMBuildAnd(b, LLVMBuildBitCast(b, x, it, ""), gpucompile_lower__ki(it, 0xffff0000u), ""), t, "");
    h2 = LLVMBuildFMul(b, xh, xh, "");
    e = LLVMBuildFMul(b, LLVMBuildFMul(b, h2, gpucompile_lower__kf(t, 1.4375), ""), gpucompile_lower__kf(t, -1.0), "");
    u = LLVMBuildFMul(b, LLVMBuildFSub(b, x, xh, ""), LLVMBuildFAdd(b, x, xh, ""), ""); /* v^2 - h^2 */
    u = LLVMBuildFAdd(b, LLVMBuildFMul(b, h2, gpucompile_lower__kf(t, 1.44269504088896340736 - 1.4375), ""), LLVMBuildFMul(b, u, gpucompile_lower__kf(t, 1.44269504088896340736), ""), "");
    n = gpucompile_lower__intr1(w, "llvm.floor", e);
    e = gpucompile_lower__intr1(w, "llvm.exp2", LLVMBuildFSub(b, LLVMBuildFSub(b, e, n, ""), u, ""));
    e = gpucompile_lower__ldexp(w, e, LLVMBuildFPToSI(b, n, it, ""));
    isfar = LLVMBuildFCmp(b, LLVMRealOGE, x, gpucompile_lower__kf(t, 2.0), "");
    u = LLVMBuildSelect(b, isfar, LLVMBuildFSub(b, LLVMBuildFDiv(b, gpucompile_lower__kf(t, 1.0), x, ""), gpucompile_lower__kf(t, 0.3), ""),
                        LLVMBuildFSub(b, x, gpucompile_lower__kf(t, 1.375), ""), "");
    h = gpucompile_lower__poly(w, u, below2, above2, isfar, 11);
    return LLVMBuildSelect(b, LLVMBuildFCmp(b, LLVMRealOGE, v, gpucompile_lower__kf(t, 10.1), ""), gpucompile_lower__kf(t, 0.0),
                           LLVMBuildFDiv(b, LLVMBuildFMul(b, e, h, ""), x, ""), "");
}

/* tgamma(v) for v > 0: v below 1 as tgamma(v + 1) / v; a = f + n with f in [1, 2) (exact: f keeps a's
   last bit), tgamma(f) fitted, times f (f + 1) ... (f + n - 1), each f + k exact; inf past 35.1 */
GPUCOMPILE_PRIVATE LLVMValueRef gpucompile_lower__tgamma_pos(gpucompile_lower__state *w, LLVMValueRef v) {
    static const double k[] = {8.862269246e-01, 3.233828362e-02, 4.148137082e-01, -1.072858207e-01, 1.446336499e-01, -7.772028495e-02,
                               5.880590467e-02, -3.625772053e-02, 2.438126141e-02, -2.374981865e-02, 1.634585786e-02};
    LLVMTypeRef t = LLVMTypeOf(v);
    LLVMBuilderRef b = w->b;
    LLVMValueRef one = gpucompile_lower__kf(t, 1.0), small = LLVMBuildFCmp(b, LLVMRealOLT, v, one, ""), a, n, f, r;
    unsigned i;
    a = LLVMBuildSelect(b, small, LLVMBuildFAdd(b, v, one, ""), gpucompile_lower__intr2(w, "llvm.minnum", v, gpucompile_lower__kf(t, 35.5)), "");
    n = LLVMBuildFSub(b, gpucompile_lower__intr1(w, "llvm.floor", a), one, "");
    f = LLVMBuildFSub(b, a, n, "");
    r = gpucompile_lower__poly(w, LLVMBuildFSub(b, f, gpucompile_lower__kf(t, 1.5), ""), k, NULL, NULL, 11);
    for (i = 0; i < 35; i++)
        r = LLVMBuildFMul(b, r, LLVMBuildSelect(b, LLVMBuildFCmp(b, LLVMRealOLT, gpucompile_lower__kf(t, (double)i), n, ""),
                                                LLVMBuildFAdd(b, f, gpucompile_lower__kf(t, (double)i), ""), one, ""), "");
    r = LLVMBuildSelect(b, small, LLVMBuildFDiv(b, r, v, ""), r, "");
    return LLVMBuildSelect(b, LLVMBuildFCmp(b, LLVMRealOGT, v, gpucompile_lower__kf(t, 35.1), ""), gpucompile_lower__special(w, t, 0, 0), r, "");
}

/* lgamma(v) for v >= 0: (a - 1)(a - 2) P(a) on [3/4, 11/4] (fitted: no cancellation at its zeros),
   less log v where a = v + 1; log tgamma(a) below 10; Stirling's series above */
GPUCOMPILE_PRIVATE LLVMValueRef gpucompile_lower__lgamma_pos(gpucompile_lower__state *w, LLVMValueRef v) {
    static const double k[] = {4.501393172e-01, -1.194813630e-01, 4.451995724e-02, -1.906003193e-02, 8.783960623e-03, -4.179593243e-03, 2.051966158e-03,
                               -1.210823420e-03, 6.615468539e-04, -5.663713008e-05, -5.371029600e-06, -2.268940273e-04, 1.322979261e-04};
    LLVMTypeRef t = LLVMTypeOf(v);
    LLVMBuilderRef b = w->b;
    LLVMValueRef one = gpucompile_lower__kf(t, 1.0), small = LLVMBuildFCmp(b, LLVMRealOLT, v, gpucompile_lower__kf(t, 0.75), ""), a, mid, big, l, rm, rs, ia, r;
    a = LLVMBuildSelect(b, small, LLVMBuildFAdd(b, v, one, ""), v, "");
    mid = LLVMBuildFCmp(b, LLVMRealOLT, a, gpucompile_lower__kf(t, 2.75), "");
    big = LLVMBuildFCmp(b, LLVMRealOGE, a, gpucompile_lower__kf(t, 10.0), "");
    l = gpucompile_lower__log(w, LLVMBuildSelect(b, small, v, LLVMBuildSelect(b, big, a, gpucompile_lower__tgamma_pos(w, gpucompile_lower__intr2(w, "llvm.minnum", a, gpucompile_lower__kf(t, 10.0))), ""), ""), 'e');
    rm = LLVMBuildFMul(b, LLVMBuildFMul(b, LLVMBuildFSub(b, a, one, ""), LLVMBuildFSub(b, a, gpucompile_lower__kf(t, 2.0), ""), ""),
                       gpucompile_lower__poly(w, LLVMBuildFSub(b, a, gpucompile_lower__kf(t, 1.75), ""), k, NULL, NULL, 13), "");
    rm = LLVMBuildSelect(b, small, LLVMBuildFSub(b, rm, l, ""), rm, "");
    ia = LLVMBuildFDiv(b, one, a, "");
    rs = LLVMBuildFMul(b, ia, LLVMBuildFSub(b, gpucompile_lower__kf(t, 1.0 / 12), LLVMBuildFMul(b, LLVMBuildFMul(b, ia, ia, ""), gpucompile_lower__kf(t, 1.0 / 360), ""), ""), "");
    rs = LLVMBuildFAdd(b, LLVMBuildFSub(b, LLVMBuildFMul(b, a, LLVMBuildFSub(b, l, one, ""), ""), LLVMBuildFMul(b, l, gpucompile_lower__kf(t, 0.5), ""), ""), /* a (l - 1): no overflow before the result's */
                       LLVMBuildFAdd(b, gpucompile_lower__kf(t, 0.91893853320467274178), rs, ""), "");
    r = LLVMBuildSelect(b, mid, rm, LLVMBuildSelect(b, big, rs, l, ""), "");
    return gpucompile_lower__fsel(w, v, GPUCOMPILE_LOWER__INF, v, r);
}

/* tgamma or lgamma (which: 't', 'l') of a float; sign: where not NULL, lgamma_r's sign of tgamma
   (an i32 of x's shape: 1 or -1, 0 at zero and the negative integers). Below 0 by reflection,
   gamma(x) gamma(-x) = -pi / (x sin(pi x)) (-x exact) */
GPUCOMPILE_PRIVATE LLVMValueRef gpucompile_lower__gamma(gpucompile_lower__state *w, LLVMValueRef x, char which, LLVMValueRef *sign) {
    LLVMTypeRef t = LLVMTypeOf(x), it = gpucompile_lower__int_like(t);
    LLVMBuilderRef b = w->b;
    LLVMValueRef z = gpucompile_lower__kf(t, 0.0), v = gpucompile_lower__intr1(w, "llvm.fabs", x), neg = LLVMBuildFCmp(b, LLVMRealOLT, x, z, "");
    LLVMValueRef sp = gpucompile_lower__sinpi(w, x, 0), pole = LLVMBuildAnd(b, neg, LLVMBuildFCmp(b, LLVMRealOEQ, sp, z, ""), ""), r, p;
    if (which == 't') {
        p = gpucompile_lower__tgamma_pos(w, v);
        r = LLVMBuildFDiv(b, gpucompile_lower__kf(t, -3.14159265358979323846), LLVMBuildFMul(b, LLVMBuildFMul(b, x, sp, ""), p, ""), "");
        r = LLVMBuildSelect(b, neg, r, p, "");
        r = LLVMBuildSelect(b, LLVMBuildFCmp(b, LLVMRealOEQ, x, z, ""), gpucompile_lower__copysign(w, gpucompile_lower__special(w, t, 0, 0), x), r, "");
        r = LLVMBuildSelect(b, pole, gpucompile_lower__special(w, t, 1, 0), r, ""); /* the negative integers and -inf */
        return gpucompile_lower__fsel(w, x, GPUCOMPILE_LOWER__NAN, x, r);
    }
    p = gpucompile_lower__lgamma_pos(w, v);
    r = LLVMBuildFSub(b, LLVMBuildFSub(b, gpucompile_lower__log(w, LLVMBuildFDiv(b, gpucompile_lower__kf(t, 3.14159265358979323846), gpucompile_lower__intr1(w, "llvm.fabs", sp), ""), 'e'),
                                       gpucompile_lower__log(w, v, 'e'), ""), p, "");
    r = LLVMBuildSelect(b, neg, r, p, "");
    r = LLVMBuildSelect(b, pole, gpucompile_lower__special(w, t, 0, 0), r, "");
    r = gpucompile_lower__fsel(w, x, GPUCOMPILE_LOWER__INF, gpucompile_lower__special(w, t, 0, 0), r);
    r = gpucompile_lower__fsel(w, x, GPUCOMPILE_LOWER__NAN, x, r);
    if (sign) {
        LLVMValueRef s = LLVMBuildSelect(b, LLVMBuildAnd(b, neg, LLVMBuildFCmp(b, LLVMRealOLT, sp, z, ""), ""), gpucompile_lower__ki(it, (unsigned long long)-1), gpucompile_lower__ki(it, 1), "");
        s = LLVMBuildSelect(b, LLVMBuildOr(b, pole, LLVMBuildFCmp(b, LLVMRealOEQ, x, z, ""), ""), gpucompile_lower__ki(it, 0), s, "");
        *sign = s;
    }
    return r;
}

/* the float of x's top 12 significant bits (by its bits: the rest, x less it, is exact), so that
   the product of two is exact */
GPUCOMPILE_PRIVATE LLVMValueRef gpucompile_lower__hi12(gpucompile_lower__state *w, LLVMValueRef x) {
    LLVMTypeRef it = gpucompile_lower__int_like(LLVMTypeOf(x));
    return LLVMBuildBitCast(w->b, LLVMBuildAnd(w->b, LLVMBuildBitCast(w->b, x, it, ""), gpucompile_lower__ki(it, 0xfffff000u), ""), LLVMTypeOf(x), "");
}

/* ax^y for ax >= 0 (float; pow's signs and zeros are the caller's): 2^(y log2 ax) with y log2 ax
   in pieces, so that its rounding (2^-17 of it at 100) does not reach the result. log2 ax = e + a
   + l: log(m) = 2 s + s^3 P(s^2), s = (m - 1) / (m + 1) as s_h (12 bits) + s_l, s_l from the
   exact remainder, a = 2 s_h k_h exact (k_h: 1/log 2's 12 top bits). y log2 ax: the exact
   products of 12-bit halves (y_h e, y_l e, y_h a_h), each less its nearest integer (exact), plus
   the small rest; 2^n by ldexp, one exp2 for the fraction. No error term by an fma or a two-sum:
   on lavapipe an fma's is 0 and Mesa's compiler folds (a + b) - a into b. one: pow's 1^y = 1 for
   every y (powr's 1^inf, 0^0 and inf^0 are NaN) */
GPUCOMPILE_PRIVATE LLVMValueRef gpucompile_lower__pow_pos(gpucompile_lower__state *w, LLVMValueRef ax, LLVMValueRef y, int one) {
    static const double k[] = {2.0 / 3, 2.0 / 5, 2.0 / 7, 2.0 / 9, 2.0 / 11, 2.0 / 13};
    const double inv_ln2 = 1.44269504088896340736, kh = 1.4423828125; /* kh: its 12 top bits */
    LLVMTypeRef t = LLVMTypeOf(ax), it = gpucompile_lower__int_like(t);
    LLVMBuilderRef b = w->b;
    LLVMValueRef ef, f = gpucompile_lower__log_f(w, ax, &ef), den, sv, sh, fh, r, sl, s1, s2, lo, a, ah, ll, yh, yl, part[3], zl, n, v, zs;
    LLVMValueRef z = gpucompile_lower__kf(t, 0.0), inf = gpucompile_lower__special(w, t, 0, 0), big;
    unsigned i;
    den = LLVMBuildFAdd(b, f, gpucompile_lower__kf(t, 2.0), "");
    sv = LLVMBuildFDiv(b, f, den, "");
    sh = gpucompile_lower__hi12(w, sv);
    fh = gpucompile_lower__hi12(w, f);
    r = LLVMBuildFSub(b, LLVMBuildFSub(b, LLVMBuildFSub(b, f, LLVMBuildFMul(b, sh, gpucompile_lower__kf(t, 2.0), ""), ""), LLVMBuildFMul(b, sh, fh, ""), ""),
                      LLVMBuildFMul(b, sh, LLVMBuildFSub(b, f, fh, ""), ""), ""); /* f - s_h (2 + f) */
    sl = LLVMBuildFDiv(b, r, den, "");
    s1 = LLVMBuildFAdd(b, sh, sl, "");
    s2 = LLVMBuildFMul(b, s1, s1, "");
    lo = LLVMBuildFAdd(b, LLVMBuildFMul(b, sl, gpucompile_lower__kf(t, 2.0), ""), LLVMBuildFMul(b, LLVMBuildFMul(b, s1, s2, ""), gpucompile_lower__poly(w, s2, k, NULL, NULL, 6), ""), "");
    a = LLVMBuildFMul(b, LLVMBuildFMul(b, sh, gpucompile_lower__kf(t, 2.0), ""), gpucompile_lower__kf(t, kh), "");
    ll = LLVMBuildFAdd(b, LLVMBuildFMul(b, LLVMBuildFMul(b, sh, gpucompile_lower__kf(t, 2.0), ""), gpucompile_lower__kf(t, inv_ln2 - kh), ""),
                       LLVMBuildFMul(b, lo, gpucompile_lower__kf(t, inv_ln2), ""), "");
    yh = gpucompile_lower__hi12(w, y);
    yl = LLVMBuildFSub(b, y, yh, "");
    ah = gpucompile_lower__hi12(w, a);
    part[0] = LLVMBuildFMul(b, yh, ef, "");
    part[1] = LLVMBuildFMul(b, yl, ef, "");
    part[2] = LLVMBuildFMul(b, yh, ah, "");
    zl = LLVMBuildFAdd(b, LLVMBuildFAdd(b, LLVMBuildFMul(b, yh, LLVMBuildFSub(b, a, ah, ""), ""), LLVMBuildFMul(b, yl, a, ""), ""), LLVMBuildFMul(b, y, ll, ""), "");
    zs = zl;
    n = z;
    for (i = 0; i < 3; i++) {
        LLVMValueRef ni = gpucompile_lower__intr1(w, "llvm.rint", part[i]);
        zl = LLVMBuildFAdd(b, zl, LLVMBuildFSub(b, part[i], ni, ""), "");
        n = LLVMBuildFAdd(b, n, ni, "");
        zs = LLVMBuildFAdd(b, zs, part[i], "");
    }
    n = gpucompile_lower__intr2(w, "llvm.minnum", gpucompile_lower__intr2(w, "llvm.maxnum", n, gpucompile_lower__kf(t, -400.0)), gpucompile_lower__kf(t, 400.0));
    v = gpucompile_lower__intr1(w, "llvm.exp2", zl);
    v = gpucompile_lower__ldexp(w, v, LLVMBuildFPToSI(b, gpucompile_lower__fsel(w, n, GPUCOMPILE_LOWER__NAN, z, n), it, ""));
    v = gpucompile_lower__fsel(w, zs, GPUCOMPILE_LOWER__NAN, zs, v);
    v = LLVMBuildSelect(b, LLVMBuildFCmp(b, LLVMRealOGT, zs, gpucompile_lower__kf(t, 129.0), ""), inf, v, "");
    v = LLVMBuildSelect(b, LLVMBuildFCmp(b, LLVMRealOLT, zs, gpucompile_lower__kf(t, -160.0), ""), z, v, "");
    v = gpucompile_lower__fsel(w, ax, GPUCOMPILE_LOWER__NAN, ax, v); /* log_f reads a NaN's bits as a number */
    v = gpucompile_lower__fsel(w, ax, GPUCOMPILE_LOWER__ZERO, LLVMBuildSelect(b, LLVMBuildFCmp(b, LLVMRealOLT, y, z, ""), inf, z, ""), v); /* and 0's */
    if (!one) /* powr: 0^0, inf^0 NaN */
        v = LLVMBuildSelect(b, LLVMBuildAnd(b, LLVMBuildFCmp(b, LLVMRealOEQ, y, z, ""), gpucompile_lower__fpclass(w, ax, GPUCOMPILE_LOWER__ZERO | GPUCOMPILE_LOWER__INF), ""),
                            gpucompile_lower__special(w, t, 1, 0), v, "");
    /* the infinities: ax = inf, y = +-inf (2^(y log2 ax) as the limit) */
    v = gpucompile_lower__fsel(w, ax, GPUCOMPILE_LOWER__INF, LLVMBuildSelect(b, LLVMBuildFCmp(b, LLVMRealOGT, y, z, ""), inf, z, ""), v);
    big = LLVMBuildFCmp(b, LLVMRealOGT, ax, gpucompile_lower__kf(t, 1.0), "");
    v = gpucompile_lower__fsel(w, y, GPUCOMPILE_LOWER__INF, LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntEQ, big, LLVMBuildFCmp(b, LLVMRealOGT, y, z, ""), ""), inf, z, ""), v);
    v = gpucompile_lower__fsel(w, y, GPUCOMPILE_LOWER__NAN, y, gpucompile_lower__fsel(w, ax, GPUCOMPILE_LOWER__NAN, ax, v));
    return LLVMBuildSelect(b, LLVMBuildFCmp(b, LLVMRealOEQ, ax, gpucompile_lower__kf(t, 1.0), ""),
                           LLVMBuildSelect(b, gpucompile_lower__fpclass(w, y, one ? GPUCOMPILE_LOWER__NAN : GPUCOMPILE_LOWER__NAN | GPUCOMPILE_LOWER__INF),
                                           one ? gpucompile_lower__kf(t, 1.0) : gpucompile_lower__special(w, t, 1, 0), gpucompile_lower__kf(t, 1.0), ""), v, "");
}

/* The OpenCL math functions that GLSL.std.450 lacks, built from its own; f: the name */
GPUCOMPILE_PRIVATE LLVMValueRef gpucompile_lower__math_built(gpucompile_lower__cl *c, const char *f, const char **why) {
    gpucompile_lower__state *w = c->w;
    LLVMValueRef *a = c->a, x = c->n ? a[0] : NULL, z, one, ax;
    LLVMTypeRef t, it;
    int glsl;
    if (!x || !gpucompile_lower__is_fp(LLVMTypeOf(x))) return NULL;
    t = LLVMTypeOf(x);
    it = gpucompile_lower__int_like(t);
    z = gpucompile_lower__kf(t, 0.0);
    one = gpucompile_lower__kf(t, 1.0);
    glsl = LLVMGetTypeKind(gpucompile_lower__elem(t)) != LLVMDoubleTypeKind; /* those that use GLSL.std.450's transcendental functions */
#define GPUCOMPILE_LOWER__NEEDS_GLSL() do { if (!glsl) { *why = "double-precision: GLSL.std.450 has its functions for 16- and 32-bit floats only"; return NULL; } } while (0)
    ax = gpucompile_lower__intr1(w, "llvm.fabs", x);
    if (c->n == 1) {
        if (strcmp(f, "exp10") == 0) { GPUCOMPILE_LOWER__NEEDS_GLSL(); return gpucompile_lower__exp_base(w, x, 3.32192802429199219, 3.32192809488736234787 - 3.32192802429199219); }
        if (strcmp(f, "exp") == 0) { GPUCOMPILE_LOWER__NEEDS_GLSL(); return gpucompile_lower__exp_base(w, x, 1.44269502162933350, 1.44269504088896340736 - 1.44269502162933350); }
        if ((strcmp(f, "log") == 0 || strcmp(f, "log2") == 0 || strcmp(f, "log10") == 0)) {
            GPUCOMPILE_LOWER__NEEDS_GLSL(); /* the series' terms are a float's */
            return gpucompile_lower__log(w, x, f[3] == 0 ? 'e' : f[3] == '2' ? '2' : 'a');
        }
        if (strcmp(f, "expm1") == 0) { /* Kahan: u = e^x rounded, (u - 1) * x / log(u) */
            LLVMValueRef u, d, r;
            GPUCOMPILE_LOWER__NEEDS_GLSL();
            u = gpucompile_lower__exp_base(w, x, 1.44269502162933350, 1.44269504088896340736 - 1.44269502162933350);
            d = LLVMBuildFSub(c->b, u, one, "");
            r = LLVMBuildFDiv(c->b, LLVMBuildFMul(c->b, d, x, ""), gpucompile_lower__log(w, u, 'e'), "");
            r = LLVMBuildSelect(c->b, LLVMBuildFCmp(c->b, LLVMRealOEQ, u, one, ""), x, r, "");
            r = LLVMBuildSelect(c->b, LLVMBuildFCmp(c->b, LLVMRealOLT, x, gpucompile_lower__kf(t, -20.0), ""), gpucompile_lower__kf(t, -1.0), r, "");
            return gpucompile_lower__fsel(w, u, GPUCOMPILE_LOWER__INF, u, r);
        }
        if (strcmp(f, "log1p") == 0) { GPUCOMPILE_LOWER__NEEDS_GLSL(); return gpucompile_lower__log1p(w, x); }
        if (strcmp(f, "cbrt") == 0) { /* 2^(log2|x| / 3), one Newton step, x's sign; subnormals scaled by 2^48 */
            LLVMValueRef tiny, s, r;
            GPUCOMPILE_LOWER__NEEDS_GLSL();
            tiny = LLVMBuildFCmp(c->b, LLVMRealOLT, ax, gpucompile_lower__kf(t, gpucompile_lower__pow2(-100)), "");
            s = LLVMBuildSelect(c->b, tiny, LLVMBuildFMul(c->b, ax, gpucompile_lower__kf(t, gpucompile_lower__pow2(48)), ""), ax, "");
            r = gpucompile_lower__intr1(w, "llvm.exp2", LLVMBuildFMul(c->b, gpucompile_lower__intr1(w, "llvm.log2", s), gpucompile_lower__kf(t, 1.0 / 3.0), ""));
            r = LLVMBuildFSub(c->b, r, LLVMBuildFMul(c->b, LLVMBuildFSub(c->b, r, LLVMBuildFDiv(c->b, s, LLVMBuildFMul(c->b, r, r, ""), ""), ""), gpucompile_lower__kf(t, 1.0 / 3.0), ""), "");
            r = LLVMBuildSelect(c->b, tiny, LLVMBuildFMul(c->b, r, gpucompile_lower__kf(t, gpucompile_lower__pow2(-16)), ""), r, "");
            r = gpucompile_lower__copysign(w, r, x);
            return gpucompile_lower__fsel(w, x, GPUCOMPILE_LOWER__ZERO | GPUCOMPILE_LOWER__INF | GPUCOMPILE_LOWER__NAN, x, r);
        }
        if (strcmp(f, "sinpi") == 0 || strcmp(f, "cospi") == 0) { GPUCOMPILE_LOWER__NEEDS_GLSL(); return gpucompile_lower__sinpi(w, x, f[0] == 'c'); }
        if (strcmp(f, "tanpi") == 0) {
            GPUCOMPILE_LOWER__NEEDS_GLSL();
            return LLVMBuildFDiv(c->b, gpucompile_lower__sinpi(w, x, 0), gpucompile_lower__sinpi(w, x, 1), "");
        }
        if (strcmp(f, "asinpi") == 0 || strcmp(f, "acospi") == 0 || strcmp(f, "atanpi") == 0) {
            GPUCOMPILE_LOWER__NEEDS_GLSL();
            LLVMValueRef r = !gpucompile_lower__precise(c) ? gpucompile_lower__intr1(w, f[1] == 's' ? "llvm.asin" : f[1] == 'c' ? "llvm.acos" : "llvm.atan", x)
                             : f[1] == 't' ? gpucompile_lower__copysign(w, gpucompile_lower__atan_pos(w, ax), x) : gpucompile_lower__acos(w, x, f[1]);
            return LLVMBuildFMul(c->b, r, gpucompile_lower__kf(t, 0.31830988618379067154), "");
        }
        if (strcmp(f, "asinh") == 0) { /* sign(x) log1p(|x| + x^2 / (1 + sqrt(1 + x^2))); log(|x|) + log 2 for large |x| */
            LLVMValueRef x2 = LLVMBuildFMul(c->b, ax, ax, ""), r, big;
            GPUCOMPILE_LOWER__NEEDS_GLSL();
            r = gpucompile_lower__log1p(w, LLVMBuildFAdd(c->b, ax, LLVMBuildFDiv(c->b, x2, LLVMBuildFAdd(c->b, one, gpucompile_lower__intr1(w, "llvm.sqrt", LLVMBuildFAdd(c->b, one, x2, "")), ""), ""), ""));
            big = LLVMBuildFAdd(c->b, gpucompile_lower__log(w, ax, 'e'), gpucompile_lower__kf(t, 0.69314718055994530942), "");
            r = LLVMBuildSelect(c->b, LLVMBuildFCmp(c->b, LLVMRealOGT, ax, gpucompile_lower__kf(t, 4096.0), ""), big, r, "");
            return gpucompile_lower__copysign(w, r, x);
        }
        if (strcmp(f, "acosh") == 0) { /* log1p(t + sqrt(2t + t^2)), t = x - 1; log(x) + log 2 for large x */
            LLVMValueRef tt = LLVMBuildFSub(c->b, x, one, ""), r, big;
            GPUCOMPILE_LOWER__NEEDS_GLSL();
            r = gpucompile_lower__log1p(w, LLVMBuildFAdd(c->b, tt, gpucompile_lower__intr1(w, "llvm.sqrt", LLVMBuildFMul(c->b, tt, LLVMBuildFAdd(c->b, tt, gpucompile_lower__kf(t, 2.0), ""), "")), ""));
            big = LLVMBuildFAdd(c->b, gpucompile_lower__log(w, x, 'e'), gpucompile_lower__kf(t, 0.69314718055994530942), "");
            return LLVMBuildSelect(c->b, LLVMBuildFCmp(c->b, LLVMRealOGT, x, gpucompile_lower__kf(t, 4096.0), ""), big, r, "");
        }
        if (strcmp(f, "atanh") == 0) { /* sign(x) log1p(2|x| / (1 - |x|)) / 2 */
            LLVMValueRef r;
            GPUCOMPILE_LOWER__NEEDS_GLSL();
            r = gpucompile_lower__log1p(w, LLVMBuildFDiv(c->b, LLVMBuildFMul(c->b, ax, gpucompile_lower__kf(t, 2.0), ""), LLVMBuildFSub(c->b, one, ax, ""), ""));
            return gpucompile_lower__copysign(w, LLVMBuildFMul(c->b, r, gpucompile_lower__kf(t, 0.5), ""), x);
        }
        if (strcmp(f, "erf") == 0 || strcmp(f, "erfc") == 0 || strcmp(f, "tgamma") == 0 || strcmp(f, "lgamma") == 0) {
            LLVMValueRef e;
            if (LLVMGetTypeKind(gpucompile_lower__elem(t)) != LLVMFloatTypeKind) {
                *why = "not built for half or double (their polynomials are fitted for float)";
                return NULL;
            }
            if (f[0] != 'e') return gpucompile_lower__gamma(w, x, f[0], NULL);
            e = gpucompile_lower__erfc_big(w, ax);
            if (f[3] == 'c') { /* 1 - erf below 3/4, 2 - erfc(-x) below -3/4 */
                LLVMValueRef r = LLVMBuildSelect(c->b, LLVMBuildFCmp(c->b, LLVMRealOLT, x, z, ""), LLVMBuildFSub(c->b, gpucompile_lower__kf(t, 2.0), e, ""), e, "");
                return LLVMBuildSelect(c->b, LLVMBuildFCmp(c->b, LLVMRealOLT, ax, gpucompile_lower__kf(t, 0.75), ""), LLVMBuildFSub(c->b, one, gpucompile_lower__erf_small(w, x), ""), r, "");
            }
            e = LLVMBuildSelect(c->b, LLVMBuildFCmp(c->b, LLVMRealOLT, ax, one, ""), gpucompile_lower__erf_small(w, ax), LLVMBuildFSub(c->b, one, e, ""), "");
            return gpucompile_lower__copysign(w, e, x);
        }
        if (strcmp(f, "logb") == 0 || strcmp(f, "ilogb") == 0) { /* the exponent; 0: -inf (FP_ILOGB0, INT_MIN), inf: inf (INT_MAX), NaN: NaN (FP_ILOGBNAN, INT_MAX) */
            LLVMValueRef e = gpucompile_lower__exponent(w, x, NULL);
            if (f[0] == 'i') {
                e = LLVMBuildIntCast2(c->b, e, c->t, 1, "");
                e = gpucompile_lower__fsel(w, x, GPUCOMPILE_LOWER__ZERO, gpucompile_lower__imin(c->t, 1), e);
                return gpucompile_lower__fsel(w, x, GPUCOMPILE_LOWER__INF | GPUCOMPILE_LOWER__NAN, gpucompile_lower__imax(c->t, 1), e);
            }
            e = LLVMBuildSIToFP(c->b, e, t, "");
            e = gpucompile_lower__fsel(w, x, GPUCOMPILE_LOWER__ZERO, gpucompile_lower__special(w, t, 0, 1), e);
            return gpucompile_lower__fsel(w, x, GPUCOMPILE_LOWER__INF | GPUCOMPILE_LOWER__NAN, ax, e);
        }
    }
    if (c->n == 2 && LLVMTypeOf(a[1]) == t) {
        LLVMValueRef y = a[1], ay = gpucompile_lower__intr1(w, "llvm.fabs", y);
        LLVMValueRef nan = LLVMBuildOr(c->b, gpucompile_lower__fpclass(w, x, GPUCOMPILE_LOWER__NAN), gpucompile_lower__fpclass(w, y, GPUCOMPILE_LOWER__NAN), "");
        if (strcmp(f, "hypot") == 0) { /* max * sqrt(1 + (min / max)^2); inf wins over NaN */
            LLVMValueRef mx = gpucompile_lower__intr2(w, "llvm.maxnum", ax, ay), mn = gpucompile_lower__intr2(w, "llvm.minnum", ax, ay), q, r;
            q = LLVMBuildFDiv(c->b, mn, mx, "");
            r = LLVMBuildFMul(c->b, mx, gpucompile_lower__intr1(w, "llvm.sqrt", gpucompile_lower__fma(w, q, q, one)), "");
            r = LLVMBuildSelect(c->b, LLVMBuildFCmp(c->b, LLVMRealOEQ, mx, z, ""), z, r, "");
            r = LLVMBuildSelect(c->b, nan, LLVMBuildFAdd(c->b, x, y, ""), r, "");
            return LLVMBuildSelect(c->b, LLVMBuildOr(c->b, gpucompile_lower__fpclass(w, x, GPUCOMPILE_LOWER__INF), gpucompile_lower__fpclass(w, y, GPUCOMPILE_LOWER__INF), ""),
                                   gpucompile_lower__special(w, t, 0, 0), r, "");
        }
        if (strcmp(f, "copysign") == 0) return gpucompile_lower__copysign(w, x, y);
        if (strcmp(f, "atan2") == 0) {
            GPUCOMPILE_LOWER__NEEDS_GLSL();
            return gpucompile_lower__atan2(w, x, y, gpucompile_lower__precise(c));
        }
        if (strcmp(f, "fdim") == 0)
            return LLVMBuildSelect(c->b, nan, LLVMBuildFAdd(c->b, x, y, ""), LLVMBuildSelect(c->b, LLVMBuildFCmp(c->b, LLVMRealOGT, x, y, ""), LLVMBuildFSub(c->b, x, y, ""), z, ""), "");
        if (strcmp(f, "maxmag") == 0 || strcmp(f, "minmag") == 0) {
            int mx = f[1] == 'a';
            LLVMValueRef r = gpucompile_lower__intr2(w, mx ? "llvm.maxnum" : "llvm.minnum", x, y);
            r = LLVMBuildSelect(c->b, LLVMBuildFCmp(c->b, mx ? LLVMRealOGT : LLVMRealOLT, ay, ax, ""), y, r, "");
            return LLVMBuildSelect(c->b, LLVMBuildFCmp(c->b, mx ? LLVMRealOGT : LLVMRealOLT, ax, ay, ""), x, r, "");
        }
        if (strcmp(f, "nextafter") == 0) { /* the neighbour toward y: one step of the bits */
            LLVMValueRef ix = LLVMBuildBitCast(c->b, x, it, ""), up, r, tiny;
            up = LLVMBuildXor(c->b, LLVMBuildFCmp(c->b, LLVMRealOLT, x, y, ""), LLVMBuildICmp(c->b, LLVMIntSLT, ix, gpucompile_lower__ki(it, 0), ""), "");
            r = LLVMBuildBitCast(c->b, LLVMBuildSelect(c->b, up, LLVMBuildAdd(c->b, ix, gpucompile_lower__ki(it, 1), ""), LLVMBuildSub(c->b, ix, gpucompile_lower__ki(it, 1), ""), ""), t, "");
            tiny = gpucompile_lower__copysign(w, LLVMBuildBitCast(c->b, gpucompile_lower__ki(it, 1), t, ""), y);
            r = LLVMBuildSelect(c->b, LLVMBuildFCmp(c->b, LLVMRealOEQ, x, z, ""), tiny, r, "");
            r = LLVMBuildSelect(c->b, LLVMBuildFCmp(c->b, LLVMRealOEQ, x, y, ""), y, r, "");
            return LLVMBuildSelect(c->b, nan, LLVMBuildFAdd(c->b, x, y, ""), r, "");
        }
        if (strcmp(f, "fmod") == 0) return LLVMBuildFRem(c->b, x, y, "");
        if (strcmp(f, "remainder") == 0) { /* x - y rint(x / y); x where x is finite and y infinite (Annex F: not inf * 0) */
            LLVMValueRef q = gpucompile_lower__intr1(w, "llvm.rint", LLVMBuildFDiv(c->b, x, y, ""));
            LLVMValueRef keep = LLVMBuildAnd(c->b, gpucompile_lower__fpclass(w, y, GPUCOMPILE_LOWER__INF), gpucompile_lower__fpclass(w, x, GPUCOMPILE_LOWER__FINITE), "");
            LLVMValueRef r = gpucompile_lower__fma(w, LLVMBuildFNeg(c->b, q, ""), y, x);
            r = LLVMBuildSelect(c->b, LLVMBuildFCmp(c->b, LLVMRealOEQ, r, z, ""), gpucompile_lower__copysign(w, z, x), r, ""); /* a zero has x's sign */
            return LLVMBuildSelect(c->b, keep, x, r, "");
        }
        if (strcmp(f, "atan2pi") == 0) {
            GPUCOMPILE_LOWER__NEEDS_GLSL();
            return LLVMBuildFMul(c->b, gpucompile_lower__atan2(w, x, y, gpucompile_lower__precise(c)), gpucompile_lower__kf(t, 0.31830988618379067154), "");
        }
        if (strcmp(f, "pow") == 0 || strcmp(f, "powr") == 0) { /* GLSL's Pow is defined for x > 0 only: the signs and zeros here */
            LLVMValueRef r, yi, odd, half_y;
            GPUCOMPILE_LOWER__NEEDS_GLSL();
            r = gpucompile_lower__precise(c) ? gpucompile_lower__pow_pos(w, ax, y, f[3] != 'r') : gpucompile_lower__intr2(w, "llvm.pow", ax, y);
            if (f[3] == 'r') return LLVMBuildSelect(c->b, LLVMBuildFCmp(c->b, LLVMRealOLT, x, z, ""), gpucompile_lower__special(w, t, 1, 0), r, "");
            yi = LLVMBuildFCmp(c->b, LLVMRealOEQ, gpucompile_lower__intr1(w, "llvm.trunc", y), y, "");
            half_y = LLVMBuildFMul(c->b, y, gpucompile_lower__kf(t, 0.5), "");
            odd = LLVMBuildAnd(c->b, yi, LLVMBuildFCmp(c->b, LLVMRealONE, gpucompile_lower__intr1(w, "llvm.trunc", half_y), half_y, ""), "");
            r = LLVMBuildSelect(c->b, LLVMBuildAnd(c->b, LLVMBuildFCmp(c->b, LLVMRealOEQ, ax, z, ""), LLVMBuildFCmp(c->b, LLVMRealOLT, y, z, ""), ""), gpucompile_lower__special(w, t, 0, 0),
                                LLVMBuildSelect(c->b, LLVMBuildFCmp(c->b, LLVMRealOEQ, ax, z, ""), LLVMBuildSelect(c->b, LLVMBuildFCmp(c->b, LLVMRealOEQ, y, z, ""), one, z, ""), r, ""), "");
            /* a negative x, not 0 nor -inf, to a non-integer: NaN (-inf's is inf or 0, as |x|'s) */
            r = LLVMBuildSelect(c->b, LLVMBuildAnd(c->b, gpucompile_lower__fpclass(w, x, 0x018u /* negative normal or subnormal */), LLVMBuildNot(c->b, yi, ""), ""), gpucompile_lower__special(w, t, 1, 0), r, "");
            r = LLVMBuildSelect(c->b, LLVMBuildAnd(c->b, odd, gpucompile_lower__fpclass(w, x, 0x03cu /* negative */), ""), LLVMBuildFNeg(c->b, r, ""), r, "");
            r = gpucompile_lower__fsel(w, y, GPUCOMPILE_LOWER__NAN, LLVMBuildSelect(c->b, LLVMBuildFCmp(c->b, LLVMRealOEQ, x, one, ""), one, y, ""), r); /* 1^NaN = 1 */
            return LLVMBuildSelect(c->b, LLVMBuildFCmp(c->b, LLVMRealOEQ, y, z, ""), one, r, "");
        }
    }
    if (c->n == 2 && strcmp(f, "ldexp") == 0 && LLVMGetTypeKind(t) == LLVMVectorTypeKind && LLVMGetTypeKind(LLVMTypeOf(a[1])) == LLVMIntegerTypeKind)
        a[1] = gpucompile_lower__splat(w, a[1], gpucompile_lower__like(t, LLVMTypeOf(a[1]))); /* ldexp(floatN, int) */
    if (c->n == 2 && gpucompile_lower__lanes(LLVMTypeOf(a[1])) == gpucompile_lower__lanes(t) && LLVMGetTypeKind(gpucompile_lower__elem(LLVMTypeOf(a[1]))) == LLVMIntegerTypeKind) {
        LLVMValueRef nv = a[1];
        if (strcmp(f, "ldexp") == 0) return gpucompile_lower__ldexp(w, x, nv);
        if (strcmp(f, "pown") == 0 || strcmp(f, "rootn") == 0) {
            LLVMValueRef yf = LLVMBuildSIToFP(c->b, nv, t, ""), r, odd = LLVMBuildTrunc(c->b, nv, gpucompile_lower__like(t, LLVMInt1TypeInContext(w->ctx)), "");
            GPUCOMPILE_LOWER__NEEDS_GLSL();
            if (f[0] == 'r') yf = LLVMBuildFDiv(c->b, one, yf, "");
            r = gpucompile_lower__precise(c) ? gpucompile_lower__pow_pos(w, ax, yf, 1) : gpucompile_lower__intr2(w, "llvm.pow", ax, yf);
            r = LLVMBuildSelect(c->b, LLVMBuildFCmp(c->b, LLVMRealOEQ, ax, z, ""),
                                LLVMBuildSelect(c->b, LLVMBuildFCmp(c->b, LLVMRealOLT, yf, z, ""), gpucompile_lower__special(w, t, 0, 0), z, ""), r, "");
            if (f[0] == 'r') r = LLVMBuildSelect(c->b, LLVMBuildAnd(c->b, LLVMBuildFCmp(c->b, LLVMRealOLT, x, z, ""), LLVMBuildNot(c->b, odd, ""), ""), gpucompile_lower__special(w, t, 1, 0), r, "");
            r = LLVMBuildSelect(c->b, LLVMBuildAnd(c->b, odd, gpucompile_lower__fpclass(w, x, 0x03cu), ""), LLVMBuildFNeg(c->b, r, ""), r, "");
            return LLVMBuildSelect(c->b, LLVMBuildICmp(c->b, LLVMIntEQ, nv, gpucompile_lower__ki(LLVMTypeOf(nv), 0), ""), f[0] == 'p' ? one : gpucompile_lower__special(w, t, 1, 0), r, "");
        }
    }
    return NULL;
#undef GPUCOMPILE_LOWER__NEEDS_GLSL
}

/* The functions with a pointer out-parameter (fract, modf, frexp, sincos, remquo): the value the
   pointer receives stored through it (the rewrite then treats that store like any other). */
GPUCOMPILE_PRIVATE LLVMValueRef gpucompile_lower__math_out(gpucompile_lower__cl *c, const char *f, const char **why) {
    gpucompile_lower__state *w = c->w;
    LLVMValueRef *a = c->a, x, p, r = NULL, o = NULL, st;
    LLVMTypeRef t;
    if (c->n < 2 || LLVMGetTypeKind(LLVMTypeOf(a[c->n - 1])) != LLVMPointerTypeKind || !gpucompile_lower__is_fp(LLVMTypeOf(a[0]))) return NULL;
    x = a[0];
    t = LLVMTypeOf(x);
    p = a[c->n - 1];
    if (c->n == 2 && strcmp(f, "fract") == 0) { /* min(x - floor(x), the float below 1); inf: +-0 */
        LLVMValueRef fl = gpucompile_lower__intr1(w, "llvm.floor", x);
        double below = gpucompile_lower__bits(t) == 64 ? 1.0 - gpucompile_lower__pow2(-53) : gpucompile_lower__bits(t) == 32 ? 1.0 - gpucompile_lower__pow2(-24) : 1.0 - gpucompile_lower__pow2(-11);
        r = gpucompile_lower__intr2(w, "llvm.minnum", LLVMBuildFSub(c->b, x, fl, ""), gpucompile_lower__kf(t, below));
        r = gpucompile_lower__fsel(w, x, GPUCOMPILE_LOWER__INF, gpucompile_lower__copysign(w, gpucompile_lower__kf(t, 0.0), x), r);
        r = gpucompile_lower__fsel(w, x, GPUCOMPILE_LOWER__NAN, x, r);
        o = fl;
    } else if (c->n == 2 && strcmp(f, "modf") == 0) { /* x - trunc(x) with x's sign; inf: +-0 */
        LLVMValueRef i = gpucompile_lower__intr1(w, "llvm.trunc", x);
        r = gpucompile_lower__fsel(w, x, GPUCOMPILE_LOWER__INF, gpucompile_lower__kf(t, 0.0), LLVMBuildFSub(c->b, x, i, ""));
        r = gpucompile_lower__copysign(w, r, x);
        o = i;
    } else if (c->n == 2 && strcmp(f, "frexp") == 0) { /* mantissa in [1/2, 1) and exponent from the bits; 0, inf, NaN: x and 0 */
        LLVMTypeRef it = gpucompile_lower__int_like(t);
        unsigned mant = gpucompile_lower__mant(t), ebits = gpucompile_lower__bits(t) - mant - 1;
        unsigned long long keep = ~(((1ull << ebits) - 1) << mant), half = (((1ull << (ebits - 1)) - 2) << mant);
        LLVMValueRef s, e = gpucompile_lower__exponent(w, x, &s), m, special = gpucompile_lower__fpclass(w, x, GPUCOMPILE_LOWER__ZERO | GPUCOMPILE_LOWER__INF | GPUCOMPILE_LOWER__NAN);
        m = LLVMBuildBitCast(c->b, LLVMBuildOr(c->b, LLVMBuildAnd(c->b, LLVMBuildBitCast(c->b, s, it, ""), gpucompile_lower__ki(it, keep), ""), gpucompile_lower__ki(it, half), ""), t, "");
        r = LLVMBuildSelect(c->b, special, x, m, "");
        e = LLVMBuildSelect(c->b, special, gpucompile_lower__ki(it, 0), LLVMBuildAdd(c->b, e, gpucompile_lower__ki(it, 1), ""), "");
        o = LLVMBuildIntCast2(c->b, e, gpucompile_lower__like(t, w->i32), 1, "");
    } else if (c->n == 2 && strcmp(f, "sincos") == 0) {
        if (LLVMGetTypeKind(gpucompile_lower__elem(t)) == LLVMDoubleTypeKind) {
            *why = "double-precision: GLSL.std.450 has its functions for 16- and 32-bit floats only";
            return NULL;
        }
        r = gpucompile_lower__precise(c) ? gpucompile_lower__trig(w, x, 's') : gpucompile_lower__intr1(w, "llvm.sin", x);
        o = gpucompile_lower__precise(c) ? gpucompile_lower__trig(w, x, 'c') : gpucompile_lower__intr1(w, "llvm.cos", x);
    } else if (c->n == 2 && strcmp(f, "lgamma_r") == 0) {
        if (LLVMGetTypeKind(gpucompile_lower__elem(t)) != LLVMFloatTypeKind) {
            *why = "not built for half or double (their polynomials are fitted for float)";
            return NULL;
        }
        r = gpucompile_lower__gamma(w, x, 'l', &o);
    } else if (c->n == 3 && strcmp(f, "remquo") == 0 && LLVMTypeOf(a[1]) == t) { /* x - y n, n = rint(x / y); the pointer gets n's low 7 bits with its sign */
        LLVMTypeRef it = gpucompile_lower__like(t, w->i32);
        LLVMValueRef q = gpucompile_lower__intr1(w, "llvm.rint", LLVMBuildFDiv(c->b, x, a[1], "")), qi;
        r = gpucompile_lower__fma(w, LLVMBuildFNeg(c->b, q, ""), a[1], x);
        qi = LLVMBuildFPToSI(c->b, gpucompile_lower__fsel(w, q, GPUCOMPILE_LOWER__FINITE, gpucompile_lower__intr1(w, "llvm.fabs", LLVMBuildFRem(c->b, q, gpucompile_lower__kf(t, 128.0), "")), gpucompile_lower__kf(t, 0.0)), it, "");
        o = LLVMBuildSelect(c->b, LLVMBuildFCmp(c->b, LLVMRealOLT, q, gpucompile_lower__kf(t, 0.0), ""), LLVMBuildNeg(c->b, qi, ""), qi, "");
    }
    if (!r || !o) return NULL;
    st = LLVMBuildStore(c->b, o, p);
    LLVMSetAlignment(st, LLVMABIAlignmentOfType(w->dl, gpucompile_lower__elem(LLVMTypeOf(o))));
    return r;
}

/* The type of OpenCL C's that a mangled pointer parameter at s points to (a scalar or Dv<N>_ of
   one, any address space and qualifiers), or NULL. */
GPUCOMPILE_PRIVATE LLVMTypeRef gpucompile_lower__pointee(gpucompile_lower__state *w, const char *s) {
    unsigned long lanes = 0;
    LLVMTypeRef t;
    char *end;
    if (*s++ != 'P') return NULL;
    if (strncmp(s, "U3AS", 4) == 0 && s[4]) s += 5;
    while (*s == 'K' || *s == 'V' || *s == 'r') s++;
    if (strncmp(s, "Dv", 2) == 0) {
        lanes = strtoul(s + 2, &end, 10);
        s = *end == '_' ? end + 1 : end;
    }
    switch (*s) {
    case 'c': case 'a': case 'h': t = LLVMInt8TypeInContext(w->ctx); break;
    case 's': case 't': t = LLVMInt16TypeInContext(w->ctx); break;
    case 'i': case 'j': t = w->i32; break;
    case 'l': case 'm': t = w->i64; break;
    case 'f': t = LLVMFloatTypeInContext(w->ctx); break;
    case 'd': t = LLVMDoubleTypeInContext(w->ctx); break;
    case 'D': t = s[1] == 'h' ? LLVMHalfTypeInContext(w->ctx) : NULL; break;
    default: t = NULL;
    }
    return t && lanes ? LLVMVectorType(t, (unsigned)lanes) : t;
}

/* OpenCL's sub-group functions (cl_khr_subgroups) at the builder, through the target's
   subgroup intrinsics: the sizes and ids (get_sub_group_size the work-items the sub-group has,
   the last one of a workgroup perhaps fewer), all, any, broadcast, reductions of add, min and
   max, and their inclusive and exclusive scans, made of the value of the work-item d below
   (d = 1, 2, 4, ... 64: a sub-group has at most 128), each work-item's steps in uniform control
   flow as OpenCL has the calls. NULL: another function, or *why says why it is not built. */
/* Why the target's sub-group intrinsics cannot be called (none on the target, or one missing
   from this LLVM, which would be called as NULL), or NULL: each may be. */
GPUCOMPILE_PRIVATE const char *gpucompile_lower__no_subgroups(const gpucompile_lower__state *w) {
    const char *const *sg = w->t->subgroup;
    int k;
    if (!sg[0]) return "sub-groups: not on this target";
    for (k = 0; k < 11; k++)
        if (!sg[k] || !LLVMLookupIntrinsicID(sg[k], strlen(sg[k]))) return "no sub-group intrinsics in this LLVM";
    return NULL;
}

GPUCOMPILE_PRIVATE LLVMValueRef gpucompile_lower__subgroup(gpucompile_lower__state *w, LLVMValueRef in, const char *plain, const char *args, const char **why) {
    static const char *const ids[] = {"get_sub_group_size", "get_max_sub_group_size", "get_num_sub_groups", "get_enqueued_num_sub_groups",
                                      "get_sub_group_id", "get_sub_group_local_id"};
    const char *const *sg = w->t->subgroup;
    LLVMTypeRef t = LLVMTypeOf(in), it[1];
    LLVMValueRef size, x, lid, f, a[2];
    int k, op, sign = *args && strchr("cail", *args) != NULL, fp = gpucompile_lower__is_fp(t), scan, excl, d;
    for (k = 0; k < 6 && strcmp(plain, ids[k]) != 0; k++) {}
    if (k == 6 && strncmp(plain, "sub_group_", 10) != 0) return NULL;
    if ((*why = gpucompile_lower__no_subgroups(w)) != NULL) return NULL;
    f = gpucompile_lower__intrinsic(w, sg[0], NULL, 0);
    size = gpucompile_lower__call(w, f, NULL, 0);
    if (k < 6) {
        LLVMValueRef total = NULL, id;
        for (d = 0; d < 3; d++) {
            LLVMValueRef s = gpucompile_lower__builtin_dim(w, GPUCOMPILE_LOWER__B_LOCAL_SIZE, d);
            total = total ? LLVMBuildMul(w->b, total, s, "") : s;
        }
        if (k == 1) return size;
        if (k == 2 || k == 3) return LLVMBuildUDiv(w->b, LLVMBuildAdd(w->b, total, LLVMBuildSub(w->b, size, LLVMConstInt(w->i32, 1, 0), ""), ""), size, "");
        id = gpucompile_lower__call(w, gpucompile_lower__intrinsic(w, sg[k == 5 ? 1 : 2], NULL, 0), NULL, 0);
        if (k > 3) return id;
        x = LLVMBuildSub(w->b, total, LLVMBuildMul(w->b, id, size, ""), ""); /* what is left for this sub-group */
        return LLVMBuildSelect(w->b, LLVMBuildICmp(w->b, LLVMIntULT, x, size, ""), x, size, "");
    }
    if (strcmp(plain, "sub_group_all") == 0 || strcmp(plain, "sub_group_any") == 0) {
        a[0] = LLVMBuildICmp(w->b, LLVMIntNE, LLVMGetOperand(in, 0), LLVMConstNull(LLVMTypeOf(LLVMGetOperand(in, 0))), "");
        x = gpucompile_lower__call(w, gpucompile_lower__intrinsic(w, sg[plain[12] == 'l' ? 8 : 9], NULL, 0), a, 1);
        return LLVMBuildZExt(w->b, x, t, "");
    }
    it[0] = t;
    lid = gpucompile_lower__call(w, gpucompile_lower__intrinsic(w, sg[1], NULL, 0), NULL, 0);
    if (strcmp(plain, "sub_group_broadcast") == 0 && LLVMGetTypeKind(t) != LLVMVectorTypeKind) {
        a[0] = LLVMGetOperand(in, 0);
        a[1] = LLVMBuildIntCast2(w->b, LLVMGetOperand(in, 1), w->i32, 0, "");
        return gpucompile_lower__call(w, gpucompile_lower__intrinsic(w, sg[10], it, 1), a, 2);
    }
    scan = strncmp(plain, "sub_group_scan_", 15) == 0;
    excl = scan && strncmp(plain + 15, "exclusive_", 10) == 0;
    if (strncmp(plain, "sub_group_reduce_", 17) == 0) op = 17;
    else if (scan && (excl || strncmp(plain + 15, "inclusive_", 10) == 0)) op = 25;
    else op = 0;
    if (!op || LLVMGetTypeKind(t) == LLVMVectorTypeKind || (strcmp(plain + op, "add") != 0 && strcmp(plain + op, "min") != 0 && strcmp(plain + op, "max") != 0)) {
        *why = "not built (of OpenCL's sub-group functions: the sizes and ids, all, any, broadcast, reduce and scan)";
        return NULL;
    }
    op = plain[op + 1] == 'd' ? 0 : plain[op + 1] == 'i' ? 1 : 2; /* add, min, max */
    x = LLVMGetOperand(in, 0);
    if (!scan) {
        a[0] = x;
        return gpucompile_lower__call(w, gpucompile_lower__intrinsic(w, sg[op == 0 ? 3 : 3 + op + (!fp && !sign ? 2 : 0)], it, 1), a, 1);
    }
    for (d = 1; d <= 64; d *= 2) { /* x: the scan over the work-items d and fewer below */
        LLVMValueRef has = LLVMBuildICmp(w->b, LLVMIntUGE, lid, LLVMConstInt(w->i32, (unsigned)d, 0), ""), y, c;
        a[0] = x;
        a[1] = LLVMBuildSelect(w->b, has, LLVMBuildSub(w->b, lid, LLVMConstInt(w->i32, (unsigned)d, 0), ""), lid, "");
        y = gpucompile_lower__call(w, gpucompile_lower__intrinsic(w, sg[10], it, 1), a, 2);
        if (op == 0) c = fp ? LLVMBuildFAdd(w->b, x, y, "") : LLVMBuildAdd(w->b, x, y, "");
        else if (fp) c = LLVMBuildSelect(w->b, LLVMBuildFCmp(w->b, op == 1 ? LLVMRealOLT : LLVMRealOGT, y, x, ""), y, x, "");
        else c = LLVMBuildSelect(w->b, LLVMBuildICmp(w->b, op == 1 ? (sign ? LLVMIntSLT : LLVMIntULT) : (sign ? LLVMIntSGT : LLVMIntUGT), y, x, ""), y, x, "");
        x = LLVMBuildSelect(w->b, has, c, x, "");
    }
    if (excl) { /* the work-item below's, the identity for the first */
        LLVMValueRef first = LLVMBuildICmp(w->b, LLVMIntEQ, lid, LLVMConstInt(w->i32, 0, 0), ""), id;
        unsigned bits = fp ? 0 : LLVMGetIntTypeWidth(t);
        a[0] = x;
        a[1] = LLVMBuildSelect(w->b, first, lid, LLVMBuildSub(w->b, lid, LLVMConstInt(w->i32, 1, 0), ""), "");
        x = gpucompile_lower__call(w, gpucompile_lower__intrinsic(w, sg[10], it, 1), a, 2);
        if (op == 0) id = LLVMConstNull(t);
        else if (fp) id = LLVMConstRealOfString(t, op == 1 ? "inf" : "-inf");
        else if (op == 1) id = sign ? LLVMConstInt(t, (1ull << (bits - 1)) - 1, 0) : LLVMConstAllOnes(t);
        else id = sign ? LLVMConstInt(t, 1ull << (bits - 1), 0) : LLVMConstNull(t);
        x = LLVMBuildSelect(w->b, first, id, x, "");
    }
    return x;
}

/* async_work_group_copy(dst, src, n, event) and async_work_group_strided_copy(dst, src, n,
   stride, event) at the builder: the work-items of the group copy elements id, id + size, ...
   (id the local linear id, size the group's), synchronously, in a loop of a function of the
   module's own that gpucompile_lower_kernels inlines after the calls are done (the rewrite then
   follows dst and src like any pointers); the event returned is the one given (none:
   wait_group_events is a barrier, which makes the copies seen). NULL: an element type this
   does not know. */
GPUCOMPILE_PRIVATE LLVMValueRef gpucompile_lower__async_copy(gpucompile_lower__state *w, LLVMValueRef in, const char *args, int strided) {
    LLVMTypeRef t = gpucompile_lower__pointee(w, args), pt[7];
    LLVMValueRef f, a[7], i, next, one = LLVMConstInt(w->i64, 1, 0), at, sz;
    LLVMBasicBlockRef entry, check, body, done;
    LLVMBuilderRef b;
    int k, to_local = LLVMGetPointerAddressSpace(LLVMTypeOf(LLVMGetOperand(in, 0))) == 3;
    if (!t) return NULL;
    for (k = 0; k < 2; k++) pt[k] = LLVMTypeOf(LLVMGetOperand(in, (unsigned)k));
    for (k = 2; k < 7; k++) pt[k] = w->i64;
    f = LLVMAddFunction(w->m, "gpucompile.async_copy", LLVMFunctionType(LLVMVoidTypeInContext(w->ctx), pt, 7, 0));
    LLVMSetLinkage(f, LLVMInternalLinkage);
    LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(w->ctx, LLVMGetEnumAttributeKindForName("alwaysinline", 12), 0));
    /* the arguments: dst, src, n, dst's stride, src's stride, the first element, the step */
    a[0] = LLVMGetOperand(in, 0);
    a[1] = LLVMGetOperand(in, 1);
    a[2] = LLVMBuildIntCast2(w->b, LLVMGetOperand(in, 2), w->i64, 0, "");
    a[3] = strided && !to_local ? LLVMBuildIntCast2(w->b, LLVMGetOperand(in, 3), w->i64, 0, "") : one;
    a[4] = strided && to_local ? LLVMBuildIntCast2(w->b, LLVMGetOperand(in, 3), w->i64, 0, "") : one;
    a[5] = gpucompile_lower__builtin(w, GPUCOMPILE_LOWER__B_LOCAL_LINEAR, NULL, 0, w->i64);
    for (sz = NULL, k = 0; k < 3; k++) {
        LLVMValueRef d = gpucompile_lower__builtin_dim(w, GPUCOMPILE_LOWER__B_LOCAL_SIZE, k);
        sz = sz ? LLVMBuildMul(w->b, sz, d, "") : d;
    }
    a[6] = LLVMBuildZExt(w->b, sz, w->i64, "");
    LLVMBuildCall2(w->b, LLVMGlobalGetValueType(f), f, a, 7, "");
    b = LLVMCreateBuilderInContext(w->ctx);
    entry = LLVMAppendBasicBlockInContext(w->ctx, f, "entry");
    check = LLVMAppendBasicBlockInContext(w->ctx, f, "check");
    body = LLVMAppendBasicBlockInContext(w->ctx, f, "copy");
    done = LLVMAppendBasicBlockInContext(w->ctx, f, "done");
    LLVMPositionBuilderAtEnd(b, entry);
    LLVMBuildBr(b, check);
    LLVMPositionBuilderAtEnd(b, check);
    i = LLVMBuildPhi(b, w->i64, "");
    LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntULT, i, LLVMGetParam(f, 2), ""), body, done);
    LLVMPositionBuilderAtEnd(b, body);
    at = LLVMBuildMul(b, i, LLVMGetParam(f, 4), "");
    at = LLVMBuildLoad2(b, t, LLVMBuildGEP2(b, t, LLVMGetParam(f, 1), &at, 1, ""), "");
    next = LLVMBuildMul(b, i, LLVMGetParam(f, 3), "");
    LLVMBuildStore(b, at, LLVMBuildGEP2(b, t, LLVMGetParam(f, 0), &next, 1, ""));
    next = LLVMBuildAdd(b, i, LLVMGetParam(f, 6), "");
    LLVMBuildBr(b, check);
    a[0] = LLVMGetParam(f, 5);
    LLVMAddIncoming(i, a, &entry, 1);
    LLVMAddIncoming(i, &next, &body, 1);
    LLVMPositionBuilderAtEnd(b, done);
    LLVMBuildRetVoid(b);
    LLVMDisposeBuilder(b);
    w->inline_after = 1;
    return LLVMGetOperand(in, strided ? 4u : 3u);
}

/* OpenCL's built-in function plain (demangled; args: its mangled parameters) called by in, as IR
   at the builder; NULL when it is none this rewrite makes (then *why may say why). */
GPUCOMPILE_PRIVATE LLVMValueRef gpucompile_lower__library(gpucompile_lower__state *w, LLVMValueRef in, const char *plain, const char *args, const char **why) {
    gpucompile_lower__cl c;
    const char *f = plain, *p = args;
    LLVMValueRef v = NULL, splats[4] = {NULL, NULL, NULL, NULL};
    unsigned k;
    memset(&c, 0, sizeof c);
    c.w = w;
    c.b = w->b;
    c.in = in;
    c.t = LLVMTypeOf(in);
    c.et = gpucompile_lower__elem(c.t);
    c.n = LLVMGetNumArgOperands(in);
    if (c.n > 4 || !*args) return NULL; /* OpenCL's functions are mangled */
    if (strncmp(p, "Dv", 2) == 0) { /* a vector: Dv4_i */
        p += 2;
        while (*p >= '0' && *p <= '9') p++;
        if (*p == '_') p++;
    }
    c.sign = *p && strchr("casil", *p) != NULL; /* char (signed on SPIR), signed char, short, int, long */
    for (k = 0; k < c.n; k++) {
        c.a[k] = LLVMGetOperand(in, k);
        if (LLVMGetTypeKind(c.t) == LLVMVectorTypeKind && LLVMTypeOf(c.a[k]) == c.et) c.a[k] = splats[k] = gpucompile_lower__splat(w, c.a[k], c.t);
    }
    if (strncmp(f, "native_", 7) == 0) f += 7; /* native_ and half_: within the precision they allow */
    else if (strncmp(f, "half_", 5) == 0) f += 5;
    c.native = f != plain;
    if (LLVMGetTypeKind(c.t) == LLVMVoidTypeKind) return NULL;
    if (!v) v = gpucompile_lower__integer(&c, f);
    if (!v) v = gpucompile_lower__relational(&c, f);
    if (!v) v = gpucompile_lower__shuffle(&c, f);
    if (!v) v = gpucompile_lower__convert(&c, f);
    if (!v && (gpucompile_lower__is_fp(c.t) || (c.n && gpucompile_lower__is_fp(LLVMTypeOf(c.a[0]))))) {
        if (gpucompile_lower__is_fp(c.t)) v = gpucompile_lower__common(&c, f);
        if (!v && gpucompile_lower__is_fp(c.t)) v = gpucompile_lower__geometric(&c, f);
        if (!v && !*why) v = gpucompile_lower__math_call(&c, f, why);
        if (!v && !*why) v = gpucompile_lower__math_built(&c, f, why);
        if (!v && !*why) v = gpucompile_lower__math_out(&c, f, why);
    }
    for (k = 0; !v && k < c.n; k++) /* not rewritten: no splat left behind */
        if (splats[k] && LLVMIsAShuffleVectorInst(splats[k])) {
            LLVMValueRef ins = LLVMGetOperand(splats[k], 0);
            LLVMInstructionEraseFromParent(splats[k]);
            if (LLVMIsAInstruction(ins) && !LLVMGetFirstUse(ins)) LLVMInstructionEraseFromParent(ins);
        }
    return v;
}

/* ---- half in memory: vload_half, vstore_half (16-bit integers, converted by their bits: exact,
   each rounding mode as OpenCL defines it, whatever the device's float controls) ---- */
/* the float of half bits h (i16, or a vector of them): exact */
GPUCOMPILE_PRIVATE LLVMValueRef gpucompile_lower__from_half(gpucompile_lower__state *w, LLVMValueRef h) {
    LLVMTypeRef t = gpucompile_lower__like(LLVMTypeOf(h), w->i32), ft = gpucompile_lower__like(t, LLVMFloatTypeInContext(w->ctx));
    LLVMBuilderRef b = w->b;
    LLVMValueRef x = LLVMBuildZExt(b, h, t, ""), e = LLVMBuildAnd(b, LLVMBuildLShr(b, x, gpucompile_lower__ki(t, 10), ""), gpucompile_lower__ki(t, 31), "");
    LLVMValueRef m = LLVMBuildAnd(b, x, gpucompile_lower__ki(t, 0x3ff), ""), m13 = LLVMBuildShl(b, m, gpucompile_lower__ki(t, 13), "");
    LLVMValueRef normal = LLVMBuildOr(b, LLVMBuildShl(b, LLVMBuildAdd(b, e, gpucompile_lower__ki(t, 112), ""), gpucompile_lower__ki(t, 23), ""), m13, "");
    LLVMValueRef special = LLVMBuildOr(b, m13, gpucompile_lower__ki(t, 0x7f800000), ""); /* inf, NaN */
    LLVMValueRef sub = LLVMBuildBitCast(b, LLVMBuildFMul(b, LLVMBuildUIToFP(b, m, ft, ""), gpucompile_lower__kf(ft, 0x1p-24), ""), t, ""); /* exact */
    LLVMValueRef v = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntEQ, e, gpucompile_lower__ki(t, 0), ""), sub,
                                     LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntEQ, e, gpucompile_lower__ki(t, 31), ""), special, normal, ""), "");
    v = LLVMBuildOr(b, v, LLVMBuildShl(b, LLVMBuildAnd(b, x, gpucompile_lower__ki(t, 0x8000), ""), gpucompile_lower__ki(t, 16), ""), "");
    return LLVMBuildBitCast(b, v, ft, "");
}

/* the half bits (i16) of float f, rounded by mode: 'e' to nearest even, 'z' toward zero, 'p' up,
   'n' down. The magnitude's bits shifted to half's unit (2^-24 below 2^-14, its exponent's ulp
   above), rounded on the bits shifted out; past half's range the mode's largest finite or inf. */
GPUCOMPILE_PRIVATE LLVMValueRef gpucompile_lower__to_half(gpucompile_lower__state *w, LLVMValueRef f, char mode) {
    LLVMTypeRef t = gpucompile_lower__like(LLVMTypeOf(f), w->i32);
    LLVMBuilderRef b = w->b;
    LLVMValueRef u = LLVMBuildBitCast(b, f, t, ""), zero = gpucompile_lower__ki(t, 0), one = gpucompile_lower__ki(t, 1);
    LLVMValueRef sign = LLVMBuildAnd(b, LLVMBuildLShr(b, u, gpucompile_lower__ki(t, 16), ""), gpucompile_lower__ki(t, 0x8000), "");
    LLVMValueRef neg = LLVMBuildICmp(b, LLVMIntNE, sign, zero, "");
    LLVMValueRef a = LLVMBuildAnd(b, u, gpucompile_lower__ki(t, 0x7fffffff), ""), e = LLVMBuildLShr(b, a, gpucompile_lower__ki(t, 23), "");
    LLVMValueRef small = LLVMBuildICmp(b, LLVMIntULT, a, gpucompile_lower__ki(t, 0x38800000), ""); /* below 2^-14: a subnormal half */
    LLVMValueRef m = LLVMBuildOr(b, LLVMBuildAnd(b, a, gpucompile_lower__ki(t, 0x7fffff), ""),
                                 LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntEQ, e, zero, ""), zero, gpucompile_lower__ki(t, 0x800000), ""), "");
    LLVMValueRef sh = LLVMBuildSub(b, gpucompile_lower__ki(t, 126), e, ""), bits, h, rem, halfway, up, inexact, big;
    sh = LLVMBuildSelect(b, small, LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntUGT, sh, gpucompile_lower__ki(t, 31), ""), gpucompile_lower__ki(t, 31), sh, ""),
                         gpucompile_lower__ki(t, 13), "");
    bits = LLVMBuildSelect(b, small, m, LLVMBuildSub(b, a, gpucompile_lower__ki(t, 0x38000000), ""), ""); /* rebiased: 127 - 15 = 112 */
    h = LLVMBuildLShr(b, bits, sh, "");
    rem = LLVMBuildSub(b, bits, LLVMBuildShl(b, h, sh, ""), "");
    halfway = LLVMBuildShl(b, one, LLVMBuildSub(b, sh, one, ""), "");
    inexact = LLVMBuildICmp(b, LLVMIntNE, rem, zero, "");
    if (mode == 'z') up = NULL;
    else if (mode == 'p') up = LLVMBuildAnd(b, inexact, LLVMBuildNot(b, neg, ""), "");
    else if (mode == 'n') up = LLVMBuildAnd(b, inexact, neg, "");
    else
        up = LLVMBuildOr(b, LLVMBuildICmp(b, LLVMIntUGT, rem, halfway, ""),
                         LLVMBuildAnd(b, LLVMBuildICmp(b, LLVMIntEQ, rem, halfway, ""), LLVMBuildTrunc(b, h, LLVMTypeOf(inexact), ""), ""), "");
    if (up) h = LLVMBuildAdd(b, h, LLVMBuildZExt(b, up, t, ""), ""); /* a carry moves into the exponent, to inf past 65504 */
    /* from 2^16 on: inf, or the largest finite where the mode rounds toward zero */
    big = mode == 'z' ? gpucompile_lower__ki(t, 0x7bff) : mode == 'e' ? gpucompile_lower__ki(t, 0x7c00)
          : LLVMBuildSelect(b, neg, gpucompile_lower__ki(t, mode == 'p' ? 0x7bff : 0x7c00), gpucompile_lower__ki(t, mode == 'p' ? 0x7c00 : 0x7bff), "");
    h = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntUGE, a, gpucompile_lower__ki(t, 0x47800000), ""), big, h, "");
    h = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntEQ, a, gpucompile_lower__ki(t, 0x7f800000), ""), gpucompile_lower__ki(t, 0x7c00), h, "");
    h = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntUGT, a, gpucompile_lower__ki(t, 0x7f800000), ""), gpucompile_lower__ki(t, 0x7e00), h, "");
    return LLVMBuildTrunc(b, LLVMBuildOr(b, h, sign, ""), gpucompile_lower__like(t, LLVMInt16TypeInContext(w->ctx)), "");
}

/* the float of double d rounded to odd (toward zero, the last bit set where inexact): exact or
   between the same two halves as d with the same tie-breaking bit, so that a half rounded from it
   in any mode is d's own (a float rounded to nearest could round d twice). Past float's range:
   the largest float, odd, which every mode takes to the half it takes d to. */
GPUCOMPILE_PRIVATE LLVMValueRef gpucompile_lower__odd_float(gpucompile_lower__state *w, LLVMValueRef d) {
    LLVMTypeRef ft = gpucompile_lower__like(LLVMTypeOf(d), LLVMFloatTypeInContext(w->ctx)), it = gpucompile_lower__like(ft, w->i32);
    LLVMBuilderRef b = w->b;
    LLVMValueRef f = LLVMBuildFPTrunc(b, d, ft, ""), back = LLVMBuildFPExt(b, f, LLVMTypeOf(d), ""), u = LLVMBuildBitCast(b, f, it, "");
    LLVMValueRef away = LLVMBuildFCmp(b, LLVMRealOGT, gpucompile_lower__intr1(w, "llvm.fabs", back), gpucompile_lower__intr1(w, "llvm.fabs", d), "");
    u = LLVMBuildSelect(b, away, LLVMBuildSub(b, u, gpucompile_lower__ki(it, 1), ""), u, ""); /* toward zero: one step less in magnitude */
    u = LLVMBuildSelect(b, LLVMBuildFCmp(b, LLVMRealONE, back, d, ""), LLVMBuildOr(b, u, gpucompile_lower__ki(it, 1), ""), u, "");
    return LLVMBuildBitCast(b, u, ft, "");
}

/* NVVM's warp functions (CUDA's __shfl*_sync, __all_sync, __any_sync, __uni_sync, __ballot_sync,
   __activemask, %laneid, %warpsize, %lanemask_*) at the builder, through the target's subgroup
   intrinsics, for a warp of w->warp lanes: the kernel gets the attribute
   GPUCOMPILE_LOWER__WARP_ATTR, and the lowering records that it needs sub-groups of that size
   (CUDA code reads a lane as threadIdx.x % 32; clang folds warpSize to 32). A shuffle is PTX's
   shfl.sync: c's bits 0-4 the clamp, 8-12 the segment mask, a source lane past the clamp or the
   warp the caller's own value (the .p forms return whether it was in range); its member mask only
   says who waits, which a sub-group's shuffle needs not. A vote or ballot counts the lanes of its
   member mask only (all of them are active, as CUDA requires); a ballot is the sum of each lane's
   bit. NULL: another function, or *why says why it is not built. */
#define GPUCOMPILE_LOWER__WARP_ATTR "gpucompile.warp"
GPUCOMPILE_PRIVATE LLVMValueRef gpucompile_lower__warp(gpucompile_lower__state *w, LLVMValueRef in, const char *name, const char **why) {
    static const char *const known[] = {"shfl.", "vote.", "activemask", "read.ptx.sreg.laneid", "read.ptx.sreg.warpsize", "read.ptx.sreg.lanemask.",
                                        "match.", "redux.sync.", "elect.sync"};
    const char *const *sg = w->t->subgroup;
    const char *f = name + 10, *mode;
    LLVMBuilderRef b = w->b;
    LLVMTypeRef t = LLVMTypeOf(in), it[1];
    LLVMValueRef lane, one = LLVMConstInt(w->i32, 1, 0), a[2], fn = LLVMGetBasicBlockParent(LLVMGetInstructionParent(in));
    unsigned kind, n = LLVMGetNumArgOperands(in), sync;
    if (strncmp(name, "llvm.nvvm.", 10) != 0) return NULL;
    for (kind = 0; kind < sizeof known / sizeof known[0] && strncmp(f, known[kind], strlen(known[kind])) != 0; kind++) {}
    if (kind == sizeof known / sizeof known[0]) return NULL;
    if (kind >= 6) {
        *why = "not built (of NVVM's warp functions: shfl, vote, activemask, laneid, warpsize, lanemask)";
        return NULL;
    }
    if ((*why = gpucompile_lower__no_subgroups(w)) != NULL) return NULL;
    LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex, LLVMCreateStringAttribute(w->ctx, GPUCOMPILE_LOWER__WARP_ATTR, (unsigned)strlen(GPUCOMPILE_LOWER__WARP_ATTR), "", 0));
    if (strcmp(f, "read.ptx.sreg.warpsize") == 0) return LLVMConstInt(w->i32, w->warp, 0);
    lane = gpucompile_lower__call(w, gpucompile_lower__intrinsic(w, sg[1], NULL, 0), NULL, 0);
    if (strcmp(f, "read.ptx.sreg.laneid") == 0) return lane;
    if (strncmp(f, "read.ptx.sreg.lanemask.", 23) == 0) { /* eq, lt, le, gt, ge: the lanes at, below, ... the caller's */
        LLVMValueRef at = LLVMBuildShl(b, one, lane, ""), below = LLVMBuildSub(b, at, one, ""), to = LLVMBuildOr(b, below, at, "");
        f += 23;
        return strcmp(f, "eq") == 0 ? at : strcmp(f, "lt") == 0 ? below : strcmp(f, "le") == 0 ? to : strcmp(f, "gt") == 0 ? LLVMBuildNot(b, to, "") : LLVMBuildNot(b, below, "");
    }
    if (strncmp(f, "shfl.", 5) == 0) { /* shfl[.sync].MODE.TYPE[p]: ([mask,] a, b, c) */
        LLVMValueRef x, bv, c, seg, min, max, j, ok, src, d;
        sync = strncmp(f + 5, "sync.", 5) == 0;
        mode = f + (sync ? 10 : 5);
        x = LLVMGetOperand(in, sync);
        bv = LLVMBuildAnd(b, LLVMGetOperand(in, sync + 1), LLVMConstInt(w->i32, 31, 0), "");
        c = LLVMGetOperand(in, sync + 2);
        seg = LLVMBuildAnd(b, LLVMBuildLShr(b, c, LLVMConstInt(w->i32, 8, 0), ""), LLVMConstInt(w->i32, 31, 0), "");
        min = LLVMBuildAnd(b, lane, seg, "");
        max = LLVMBuildOr(b, min, LLVMBuildAnd(b, LLVMBuildAnd(b, c, LLVMConstInt(w->i32, 31, 0), ""), LLVMBuildNot(b, seg, ""), ""), "");
        if (strncmp(mode, "up.", 3) == 0) {
            j = LLVMBuildSub(b, lane, bv, "");
            ok = LLVMBuildICmp(b, LLVMIntSGE, j, max, "");
        } else {
            if (strncmp(mode, "down.", 5) == 0) j = LLVMBuildAdd(b, lane, bv, "");
            else if (strncmp(mode, "bfly.", 5) == 0) j = LLVMBuildXor(b, lane, bv, "");
            else j = LLVMBuildOr(b, min, LLVMBuildAnd(b, bv, LLVMBuildNot(b, seg, ""), ""), ""); /* idx */
            ok = LLVMBuildICmp(b, LLVMIntULE, j, max, "");
        }
        ok = LLVMBuildAnd(b, ok, LLVMBuildICmp(b, LLVMIntULT, j, LLVMConstInt(w->i32, w->warp, 0), ""), "");
        src = LLVMBuildSelect(b, ok, j, lane, "");
        it[0] = LLVMTypeOf(x);
        a[0] = x;
        a[1] = src;
        d = gpucompile_lower__call(w, gpucompile_lower__intrinsic(w, sg[10], it, 1), a, 2);
        if (LLVMGetTypeKind(t) != LLVMStructTypeKind) return d;
        return LLVMBuildInsertValue(b, LLVMBuildInsertValue(b, LLVMGetPoison(t), d, 0, ""), ok, 1, "");
    }
    { /* vote.MODE[.sync] ([mask,] p), activemask (): over the member mask's lanes */
        LLVMValueRef mask = n == 2 ? LLVMGetOperand(in, 0) : LLVMConstAllOnes(w->i32), p = n ? LLVMGetOperand(in, n - 1) : LLVMConstInt(LLVMInt1TypeInContext(w->ctx), 1, 0);
        LLVMValueRef member = LLVMBuildTrunc(b, LLVMBuildLShr(b, mask, lane, ""), LLVMInt1TypeInContext(w->ctx), ""), all, any;
        LLVMValueRef p_in = LLVMBuildAnd(b, p, member, "");
        if (strncmp(f, "vote.ballot", 11) == 0 || kind == 2) {
            it[0] = w->i32;
            a[0] = LLVMBuildShl(b, LLVMBuildZExt(b, p_in, w->i32, ""), lane, "");
            return gpucompile_lower__call(w, gpucompile_lower__intrinsic(w, sg[3], it, 1), a, 1);
        }
        a[0] = LLVMBuildOr(b, p, LLVMBuildNot(b, member, ""), "");
        all = gpucompile_lower__call(w, gpucompile_lower__intrinsic(w, sg[8], NULL, 0), a, 1);
        a[0] = p_in;
        any = gpucompile_lower__call(w, gpucompile_lower__intrinsic(w, sg[9], NULL, 0), a, 1);
        if (strncmp(f, "vote.all", 8) == 0) return all;
        if (strncmp(f, "vote.any", 8) == 0) return any;
        return LLVMBuildOr(b, all, LLVMBuildNot(b, any, ""), ""); /* uni: all true or none */
    }
}

/* ---- calls: builtins, barriers, math; refusals ---- */
GPUCOMPILE_PRIVATE gpucompile_result gpucompile_lower__calls_in(gpucompile_lower__state *w, LLVMValueRef fn) {
    LLVMBasicBlockRef bb;
    LLVMValueRef in, next;
    for (bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
        for (in = LLVMGetFirstInstruction(bb); in; in = next) {
            LLVMValueRef callee, v = NULL;
            const char *name, *args, *plain, *why = NULL;
            char buf[128];
            int kind, dim;
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
            } else if (strncmp(plain, "atomic_", 7) == 0 && (v = gpucompile_lower__atomic2(w, in, plain, args)) != NULL) {
                if (LLVMIsAStoreInst(v) || LLVMGetTypeKind(LLVMTypeOf(in)) == LLVMVoidTypeKind) { /* nothing to replace */
                    LLVMInstructionEraseFromParent(in);
                    continue;
                }
            } else if ((v = gpucompile_lower__subgroup(w, in, plain, args, &why)) != NULL || why ||
                       (v = gpucompile_lower__warp(w, in, name, &why)) != NULL || why) {
                if (!v) return gpucompile_lower__refuse(w, in, "%s: %s", plain, why);
            } else if (strncmp(plain, "async_work_group_", 17) == 0 && (strcmp(plain + 17, "copy") == 0 || strcmp(plain + 17, "strided_copy") == 0)) {
                if (!(v = gpucompile_lower__async_copy(w, in, args, plain[17] == 's')))
                    return gpucompile_lower__refuse(w, in, "%s of this element type: not built", plain);
            } else if (strcmp(plain, "wait_group_events") == 0 || strcmp(plain, "prefetch") == 0) { /* a barrier; nothing */
                LLVMValueRef f = plain[0] == 'w' ? gpucompile_lower__intrinsic(w, w->t->barrier, NULL, 0) : NULL;
                if (f) gpucompile_lower__call(w, f, NULL, 0);
                else if (plain[0] == 'w') return gpucompile_lower__fail(w, GPUCOMPILE_ERROR_LLVM, "no %s in this LLVM", w->t->barrier);
                LLVMInstructionEraseFromParent(in);
                continue;
            } else if (strcmp(plain, "printf") == 0 || strcmp(name, "vprintf") == 0) {
                return gpucompile_lower__refuse(w, in, "printf (a %s shader has no output stream)", w->t->api);
            } else if (strcmp(plain, "mem_fence") == 0 || strcmp(plain, "read_mem_fence") == 0 || strcmp(plain, "write_mem_fence") == 0 ||
                       strcmp(plain, "atomic_work_item_fence") == 0) {
                return gpucompile_lower__refuse(w, in, "a fence without a barrier (LLVM 22 writes an invalid OpMemoryBarrier)");
            } else if ((strncmp(plain, "vload", 5) == 0 || strncmp(plain, "vstore", 6) == 0) &&
                       ((plain[plain[1] == 'l' ? 5 : 6] >= '1' && plain[plain[1] == 'l' ? 5 : 6] <= '9') || strstr(plain, "_half"))) {
                /* vloadN(offset, p) / vstoreN(data, offset, p): N elements at p + offset * N,
                   as a load or store of the vector (split into the buffer's elements later);
                   vload_halfN / vstore_halfN[_rte,_rtz,_rtp,_rtn] (vloada_/vstorea_: 3 lanes
                   at offset * 4): the halves as 16-bit integers, converted by their bits */
                int st = plain[1] == 's', half = strstr(plain, "_half") != NULL, aligned = plain[st ? 6 : 5] == 'a';
                const char *rt = strstr(plain, "_rt");
                LLVMValueRef data = st ? LLVMGetOperand(in, 0) : NULL, off = LLVMGetOperand(in, st ? 1u : 0u), ptr = LLVMGetOperand(in, st ? 2u : 1u), g, x;
                LLVMTypeRef vt = st ? LLVMTypeOf(data) : LLVMTypeOf(in), et;
                LLVMValueRef cast = LLVMIsAAddrSpaceCastInst(ptr) ? ptr : NULL;
                unsigned lanes = LLVMGetTypeKind(vt) == LLVMVectorTypeKind ? LLVMGetVectorSize(vt) : 1;
                if (!half && lanes == 1) continue;
                if (half && LLVMGetTypeKind(gpucompile_lower__elem(vt)) != LLVMFloatTypeKind && (!st || LLVMGetTypeKind(gpucompile_lower__elem(vt)) != LLVMDoubleTypeKind))
                    return gpucompile_lower__refuse(w, in, "%s: not of a float or double", plain);
                if (half) vt = gpucompile_lower__like(vt, LLVMInt16TypeInContext(w->ctx));
                et = gpucompile_lower__elem(vt);
                if (cast) ptr = LLVMGetOperand(cast, 0);
                off = LLVMBuildMul(w->b, LLVMBuildIntCast2(w->b, off, w->i64, 0, ""), LLVMConstInt(w->i64, aligned && lanes == 3 ? 4 : lanes, 0), "");
                if (half || lanes == 3) { /* lane by lane: a buffer of 16-bit elements (vstorea_half3's are 4 apart: not a vector of 3),
                                             or of a vector of 3's (a buffer of them would be 12 bytes apart, which no layout has) */
                    unsigned k;
                    if (half && st && LLVMGetTypeKind(gpucompile_lower__elem(LLVMTypeOf(data))) == LLVMDoubleTypeKind) data = gpucompile_lower__odd_float(w, data);
                    if (half && st) data = gpucompile_lower__to_half(w, data, rt ? rt[3] : 'e');
                    v = lanes > 1 ? LLVMGetPoison(vt) : NULL;
                    for (k = 0; k < lanes; k++) {
                        LLVMValueRef at = LLVMBuildAdd(w->b, off, LLVMConstInt(w->i64, k, 0), ""), lane = LLVMConstInt(w->i32, k, 0);
                        g = LLVMBuildGEP2(w->b, et, ptr, &at, 1, "");
                        if (st) x = LLVMBuildStore(w->b, lanes > 1 ? LLVMBuildExtractElement(w->b, data, lane, "") : data, g);
                        else x = LLVMBuildLoad2(w->b, et, g, "");
                        LLVMSetAlignment(x, LLVMABIAlignmentOfType(w->dl, et));
                        if (!st) v = lanes > 1 ? LLVMBuildInsertElement(w->b, v, x, lane, "") : x;
                    }
                    if (half && !st) v = gpucompile_lower__from_half(w, v);
                } else {
                    g = LLVMBuildGEP2(w->b, et, ptr, &off, 1, "");
                    if (st) x = LLVMBuildStore(w->b, data, g);
                    else x = v = LLVMBuildLoad2(w->b, vt, g, "");
                    LLVMSetAlignment(x, LLVMABIAlignmentOfType(w->dl, et));
                }
                if (!st) LLVMReplaceAllUsesWith(in, v);
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
            } else if ((v = gpucompile_lower__library(w, in, plain, args, &why)) != NULL) {
                LLVMReplaceAllUsesWith(in, v);
                LLVMInstructionEraseFromParent(in);
                continue;
            } else if (why) {
                return gpucompile_lower__refuse(w, in, "%s: %s", plain, why);
            } else
                continue;
            if (!v) return gpucompile_lower__fail(w, GPUCOMPILE_ERROR_LLVM, "no %s in this LLVM", w->t->work_item[0]);
            LLVMReplaceAllUsesWith(in, v);
            LLVMInstructionEraseFromParent(in);
        }
    return GPUCOMPILE_OK;
}

GPUCOMPILE_PRIVATE void gpucompile_lower__wg_size(gpucompile_lower__state *w, LLVMValueRef fn, const unsigned def[3], unsigned out[3]);
/* The functions gpucompile_lower__calls_in made (async copies' loops) inlined, and the events
   those calls returned no more: OpenCL's event_t variables, written and never read now
   (wait_group_events is a barrier), go with their stores. */
GPUCOMPILE_PRIVATE gpucompile_result gpucompile_lower__inline_made(gpucompile_lower__state *w) {
    LLVMPassBuilderOptionsRef pbo = LLVMCreatePassBuilderOptions();
    LLVMErrorRef err = LLVMRunPasses(w->m, "always-inline", NULL, pbo);
    LLVMValueRef in, next;
    LLVMDisposePassBuilderOptions(pbo);
    if (err) {
        char *msg = LLVMGetErrorMessage(err);
        gpucompile_lower__fail(w, GPUCOMPILE_ERROR_LLVM, "LLVM's always-inline pass: %s", msg);
        LLVMDisposeErrorMessage(msg);
        return w->r;
    }
    for (in = gpucompile_next_instruction(w->m, NULL); in; in = next) {
        next = gpucompile_next_instruction(w->m, in);
        if (LLVMIsAAllocaInst(in) && LLVMGetTypeKind(LLVMGetAllocatedType(in)) == LLVMTargetExtTypeKind) {
            LLVMValueRef user;
            while (LLVMGetFirstUse(in) && (user = LLVMGetUser(LLVMGetFirstUse(in))) != NULL &&
                   (LLVMIsAStoreInst(user) || (LLVMIsACallInst(user) && strncmp(gpucompile_lower__callee_name(user), "llvm.lifetime.", 14) == 0))) {
                if (user == next) next = gpucompile_next_instruction(w->m, next);
                LLVMInstructionEraseFromParent(user);
            }
            if (!LLVMGetFirstUse(in)) LLVMInstructionEraseFromParent(in);
        }
    }
    return GPUCOMPILE_OK;
}


/* A load of a __spirv_BuiltIn* variable (or of an element: off bytes in) as the builtin's value. */
GPUCOMPILE_PRIVATE void gpucompile_lower__builtin_load(gpucompile_lower__state *w, int kind, LLVMValueRef ld, long long off) {
    LLVMTypeRef t = LLVMTypeOf(ld);
    LLVMValueRef v;
    gpucompile_lower__wg_size(w, LLVMGetBasicBlockParent(LLVMGetInstructionParent(ld)), w->def_wg, w->wg); /* its function's */
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
/* The workgroup size: reqd_work_group_size, else def; w->launch: def is the launch's. */
GPUCOMPILE_PRIVATE void gpucompile_lower__wg_size(gpucompile_lower__state *w, LLVMValueRef fn, const unsigned def[3], unsigned out[3]) {
    unsigned kind = LLVMGetMDKindIDInContext(w->ctx, "reqd_work_group_size", 20), k;
    size_t n = 0, i;
    LLVMValueMetadataEntry *md = LLVMGlobalCopyAllMetadata(fn, &n);
    memcpy(out, def, 3 * sizeof *out);
    w->launch = w->size_launch;
    for (i = 0; i < n; i++) {
        LLVMValueRef node, ops[3];
        if (LLVMValueMetadataEntriesGetKind(md, (unsigned)i) != kind) continue;
        node = LLVMMetadataAsValue(w->ctx, LLVMValueMetadataEntriesGetMetadata(md, (unsigned)i));
        if (LLVMGetMDNodeNumOperands(node) != 3) continue;
        LLVMGetMDNodeOperands(node, ops);
        for (k = 0; k < 3; k++)
            if (ops[k] && LLVMIsAConstantInt(ops[k]) && LLVMConstIntGetZExtValue(ops[k])) out[k] = (unsigned)LLVMConstIntGetZExtValue(ops[k]);
        w->launch = 0;
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

/* Marks a workgroup array whose length the launch gives: the next specialization constant. */
GPUCOMPILE_PRIVATE void gpucompile_lower__launch_length(gpucompile_lower__state *w, LLVMValueRef array) {
    LLVMMetadataRef id = LLVMValueAsMetadata(LLVMConstInt(w->i32, w->next_spec++, 0));
    LLVMGlobalSetMetadata(array, LLVMGetMDKindIDInContext(w->ctx, GPUCOMPILE_LOWER_LAUNCH_LENGTH, (unsigned)strlen(GPUCOMPILE_LOWER_LAUNCH_LENGTH)),
                          LLVMMDNodeInContext2(w->ctx, &id, 1));
}

/* The bytes of constant c at out (size bytes, zeroed), laid out as the data layout lays out its
   type: 1, or 0 where a value is not a number (a pointer, an expression, a half). */
GPUCOMPILE_PRIVATE int gpucompile_lower__const_bytes(gpucompile_lower__state *w, LLVMValueRef c, unsigned char *out, size_t size, int depth) {
    LLVMTypeRef t = LLVMTypeOf(c);
    LLVMTypeKind k = LLVMGetTypeKind(t);
    size_t bytes = (size_t)LLVMStoreSizeOfType(w->dl, t);
    unsigned i, n;
    LLVMBool lost;
    if (bytes > size || depth > 8) return 0;
    if (LLVMIsUndef(c) || LLVMIsNull(c)) return 1; /* zeroes */
    if (k == LLVMIntegerTypeKind && bytes <= 8 && LLVMIsAConstantInt(c)) {
        unsigned long long v = LLVMConstIntGetZExtValue(c);
        for (i = 0; i < bytes; i++) out[i] = (unsigned char)(v >> (8 * i));
        return 1;
    }
    if ((k == LLVMFloatTypeKind || k == LLVMDoubleTypeKind) && LLVMIsAConstantFP(c)) {
        double d = LLVMConstRealGetDouble(c, &lost);
        float f = (float)d;
        unsigned long long v = 0;
        uint32_t v32 = 0;
        if (k == LLVMDoubleTypeKind) memcpy(&v, &d, 8);
        else memcpy(&v32, &f, 4), v = v32;
        for (i = 0; i < bytes; i++) out[i] = (unsigned char)(v >> (8 * i));
        return 1;
    }
    if (k != LLVMArrayTypeKind && k != LLVMVectorTypeKind && k != LLVMStructTypeKind) return 0;
    n = k == LLVMStructTypeKind ? LLVMCountStructElementTypes(t) : k == LLVMArrayTypeKind ? (unsigned)LLVMGetArrayLength2(t) : LLVMGetVectorSize(t);
    for (i = 0; i < n; i++) {
        LLVMValueRef e = LLVMGetAggregateElement(c, i);
        size_t at = k == LLVMStructTypeKind ? (size_t)LLVMOffsetOfElement(w->dl, t, i)
                    : i * (size_t)(k == LLVMArrayTypeKind ? LLVMABISizeOfType(w->dl, LLVMGetElementType(t)) : LLVMStoreSizeOfType(w->dl, LLVMGetElementType(t)));
        if (!e || at > size || !gpucompile_lower__const_bytes(w, e, out + at, size - at, depth + 1)) return 0;
    }
    return 1;
}

/* Constant c (size bytes) as an array of t, a number or a vector of numbers, from its bytes;
   NULL where that cannot be (see gpucompile_lower__const_bytes, or not a whole number of t). */
GPUCOMPILE_PRIVATE LLVMValueRef gpucompile_lower__as_array(gpucompile_lower__state *w, LLVMValueRef c, size_t size, LLVMTypeRef t) {
    LLVMTypeRef et = LLVMGetTypeKind(t) == LLVMVectorTypeKind ? LLVMGetElementType(t) : t;
    LLVMTypeKind ek = LLVMGetTypeKind(et);
    unsigned lanes = LLVMGetTypeKind(t) == LLVMVectorTypeKind ? LLVMGetVectorSize(t) : 1, j;
    size_t es = (size_t)LLVMABISizeOfType(w->dl, t), eb = (size_t)LLVMStoreSizeOfType(w->dl, et), n, i;
    unsigned char *bytes;
    LLVMValueRef *items, lane[16], r = NULL;
    if (!c || !es || size % es || lanes > 16 || eb > 8 || (ek != LLVMIntegerTypeKind && ek != LLVMFloatTypeKind && ek != LLVMDoubleTypeKind) ||
        (size_t)LLVMStoreSizeOfType(w->dl, t) != lanes * eb)
        return NULL;
    n = size / es;
    bytes = (unsigned char *)calloc(size ? size : 1, 1);
    items = (LLVMValueRef *)calloc(n ? n : 1, sizeof *items);
    if (bytes && items && gpucompile_lower__const_bytes(w, c, bytes, size, 0)) {
        for (i = 0; i < n; i++) {
            for (j = 0; j < lanes; j++) {
                const unsigned char *b = bytes + i * es + j * eb;
                unsigned long long v = 0;
                unsigned q;
                for (q = 0; q < eb; q++) v |= (unsigned long long)b[q] << (8 * q);
                if (ek == LLVMIntegerTypeKind) lane[j] = LLVMConstInt(et, v, 0);
                else if (ek == LLVMFloatTypeKind) {
                    uint32_t v32 = (uint32_t)v;
                    float f;
                    memcpy(&f, &v32, 4);
                    lane[j] = LLVMConstReal(et, f);
                } else {
                    double d;
                    memcpy(&d, &v, 8);
                    lane[j] = LLVMConstReal(et, d);
                }
            }
            items[i] = lanes > 1 ? LLVMConstVector(lane, lanes) : lane[0];
        }
        r = LLVMConstArray2(t, items, n);
    }
    free(bytes);
    free(items);
    return r;
}

/* Workgroup (addrspace 3) variables as arrays of the one type they are accessed as, each access
   one getelementptr off the array; constant tables (addrspace 1 or 2 constants: OpenCL's
   `constant float w[5] = {...}`) the same in private memory (the target's private_space) with their values,
   when they are arrays of the type they are read as. CUDA's extern __shared__ arrays (workgroup
   declarations) where the target has spec_constant: arrays whose length the launch gives. */
GPUCOMPILE_PRIVATE gpucompile_result gpucompile_lower__workgroup_vars(gpucompile_lower__state *w, gpucompile_lower__uses *u) {
    LLVMValueRef g, last = LLVMGetLastGlobal(w->m), next;
    int done = !last;
    for (g = LLVMGetFirstGlobal(w->m); !done; g = next) { /* up to the last one before: the arrays made here come after it */
        LLVMValueRef a, table = NULL;
        LLVMTypeRef at;
        unsigned long long size, es;
        char name[256];
        unsigned as;
        int dim, dynamic;
        next = LLVMGetNextGlobal(g);
        done = g == last;
        as = LLVMGetPointerAddressSpace(LLVMTypeOf(g));
        dynamic = as == 3 && LLVMIsDeclaration(g) && w->t->spec_constant;
        if ((LLVMIsDeclaration(g) && !dynamic) || !(as == 3 || ((as == 1 || as == 2 || as == w->t->private_space) && LLVMIsGlobalConstant(g))) ||
            gpucompile_lower__builtin_kind(gpucompile_value_name(g), &dim) != GPUCOMPILE_LOWER__B_NONE)
            continue;
        memset(u, 0, sizeof *u);
        if (gpucompile_lower__collect(w, g, u) != GPUCOMPILE_OK || gpucompile_lower__one_base(w, g, u) != GPUCOMPILE_OK) return w->r;
        if (!u->nacc) continue;
        if (gpucompile_lower__element(w, u) != GPUCOMPILE_OK) return w->r;
        size = dynamic ? 4096 : LLVMABISizeOfType(w->dl, LLVMGlobalGetValueType(g)); /* dynamic: a placeholder */
        es = LLVMABISizeOfType(w->dl, u->type);
        at = as == 3 ? LLVMArrayType2(u->type, es ? (size + es - 1) / es : 1) : LLVMGlobalGetValueType(g);
        if (as != 3 && (LLVMGetTypeKind(at) != LLVMArrayTypeKind || LLVMGetElementType(at) != u->type)) { /* its bytes as the type read */
            LLVMValueRef init = gpucompile_lower__as_array(w, LLVMGetInitializer(g), (size_t)size, u->type);
            if (!init) return gpucompile_lower__refuse(w, u->acc[0].in, "a constant table read as another type than its elements' (its values "
                                                                          "not numbers, or not a whole number of the type read)");
            at = LLVMTypeOf(init);
            table = init;
        }
        snprintf(name, sizeof name, "%s", gpucompile_value_name(g));
        a = LLVMAddGlobalInAddressSpace(w->m, at, "", as == 3 ? 3 : w->t->private_space);
        LLVMSetLinkage(a, LLVMInternalLinkage);
        if (as == 3) LLVMSetInitializer(a, LLVMGetPoison(at)); /* workgroup memory starts undefined */
        if (dynamic) gpucompile_lower__launch_length(w, a);
        if (as != 3) {
            LLVMSetInitializer(a, table ? table : LLVMGetInitializer(g)); /* not marked constant: LLVM 22 puts a constant in UniformConstant, invalid for a shader */
        }
        LLVMSetAlignment(a, LLVMGetAlignment(g));
        if (gpucompile_lower__rewrite(w, g, u, NULL, a) != GPUCOMPILE_OK) return w->r;
        LLVMReplaceAllUsesWith(g, LLVMGetPoison(LLVMTypeOf(g)));
        LLVMDeleteGlobal(g);
        LLVMSetValueName2(a, name, strlen(name));
    }
    return GPUCOMPILE_OK;
}

/* 3-element vectors in private and workgroup memory loaded and stored as 4-element ones: clang
   stores a vector of 3 as one of 4 (its 16 bytes) and loads it as one of 3, two types the array
   rewrite below cannot make one array of (float3 v[2] was refused); the fourth lane is the
   padding either way. */
GPUCOMPILE_PRIVATE void gpucompile_lower__vec3_memory(gpucompile_lower__state *w, LLVMValueRef fn) {
    LLVMBasicBlockRef bb;
    LLVMValueRef in, next;
    for (bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
        for (in = LLVMGetFirstInstruction(bb); in; in = next) {
            int ld = LLVMIsALoadInst(in) != NULL;
            LLVMValueRef p, v, lanes[4];
            LLVMTypeRef t, t4;
            unsigned as, k;
            next = LLVMGetNextInstruction(in);
            if (!ld && !LLVMIsAStoreInst(in)) continue;
            p = LLVMGetOperand(in, ld ? 0 : 1);
            t = ld ? LLVMTypeOf(in) : LLVMTypeOf(LLVMGetOperand(in, 0));
            as = LLVMGetPointerAddressSpace(LLVMTypeOf(p));
            if ((as != 0 && as != 3 && as != w->t->private_space) || LLVMGetTypeKind(t) != LLVMVectorTypeKind || LLVMGetVectorSize(t) != 3 ||
                LLVMGetVolatile(in))
                continue;
            t4 = LLVMVectorType(LLVMGetElementType(t), 4);
            if (LLVMABISizeOfType(w->dl, t) != LLVMABISizeOfType(w->dl, t4)) continue;
            for (k = 0; k < 4; k++) lanes[k] = LLVMConstInt(w->i32, k, 0);
            LLVMPositionBuilderBefore(w->b, in);
            if (ld) {
                v = LLVMBuildLoad2(w->b, t4, p, "");
                LLVMSetAlignment(v, LLVMGetAlignment(in));
                LLVMReplaceAllUsesWith(in, LLVMBuildShuffleVector(w->b, v, LLVMGetPoison(t4), LLVMConstVector(lanes, 3), ""));
            } else {
                v = LLVMBuildShuffleVector(w->b, LLVMGetOperand(in, 0), LLVMGetPoison(t), LLVMConstVector(lanes, 4), "");
                LLVMSetAlignment(LLVMBuildStore(w->b, v, p), LLVMGetAlignment(in));
            }
            LLVMInstructionEraseFromParent(in);
        }
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

/* v, a chain of insertelements, with each extractelement of a constant lane from it made that
   lane's value, and the chain gone where nothing else uses it: the scalarizer has split a wide
   vector parameter's uses into lanes before its load is written here (a shader has no vector
   of more than 4). */
GPUCOMPILE_PRIVATE void gpucompile_lower__lanes_out(LLVMValueRef v) {
    LLVMUseRef u, un;
    for (u = LLVMGetFirstUse(v); u; u = un) {
        LLVMValueRef x = LLVMGetUser(u), c, lane = NULL;
        un = LLVMGetNextUse(u);
        if (!LLVMIsAExtractElementInst(x) || !LLVMIsAConstantInt(LLVMGetOperand(x, 1))) continue;
        for (c = v; c && LLVMIsAInsertElementInst(c) && !lane; c = LLVMGetOperand(c, 0))
            if (LLVMIsAConstantInt(LLVMGetOperand(c, 2)) && LLVMConstIntGetZExtValue(LLVMGetOperand(c, 2)) == LLVMConstIntGetZExtValue(LLVMGetOperand(x, 1)))
                lane = LLVMGetOperand(c, 1);
        if (!lane) continue;
        LLVMReplaceAllUsesWith(x, lane);
        LLVMInstructionEraseFromParent(x);
    }
    while (v && LLVMIsAInsertElementInst(v) && !LLVMGetFirstUse(v)) {
        LLVMValueRef prev = LLVMGetOperand(v, 0);
        LLVMInstructionEraseFromParent(v);
        v = prev;
    }
}

/* ---- images ----
   OpenCL's image built-ins become reads, writes and size queries of handles at bindings (the
   target's image_* names). Each image parameter gets a binding per way it is read: its own
   (a storage image when the kernel may write it; read_only: an image fetched without a sampler)
   and one per sampler it is read through, image and sampler as one handle: OpenCL pairs them
   only at the call, a constant sampler has no object of its own to bind, and LLVM 22 has no
   instruction that takes a sampler handle, so the pair is bound together and the sampler is
   made by whoever binds it (from a sampler parameter's bits, or the constant's). Each distinct
   sampled type (float, or int for read_imagei/ui and write_imagei/ui) its own binding too: a
   format is numeric one way or the other. */
typedef struct gpucompile_lower__image_binding {
    int sampled; /* 0 its own, 1 with a sampler */
    int integer;
    long sampler; /* with a sampler: the sampler parameter's index, or 0x10000 + the constant's bits */
    unsigned binding;
    LLVMValueRef handle;
} gpucompile_lower__image_binding;

/* Is t the target extension type `name` (an OpenCL image: printed as target("NAME", void, Dim,
   Depth, Arrayed, MS, Sampled, Format, Access))? 1 with dim (99: a multisampled image), depth,
   arrayed and access filled. */
GPUCOMPILE_PRIVATE int gpucompile_lower__image_kind(LLVMTypeRef t, const char *name, unsigned *dim, unsigned *depth, unsigned *arrayed, unsigned *access) {
    char *s;
    const char *q;
    unsigned v[7];
    int ok;
    if (LLVMGetTypeKind(t) != LLVMTargetExtTypeKind) return 0;
    s = LLVMPrintTypeToString(t);
    q = strchr(s, ',');
    ok = strncmp(s, "target(\"", 8) == 0 && strncmp(s + 8, name, strlen(name)) == 0 && s[8 + strlen(name)] == '"';
    if (ok && q && sscanf(q, ", void, %u, %u, %u, %u, %u, %u, %u", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6]) == 7) {
        *dim = v[3] ? 99 : v[0]; /* a multisampled image: none of these */
        *depth = v[1];
        *arrayed = v[2];
        *access = v[6];
    } else if (ok)
        *dim = *depth = *arrayed = *access = 0;
    LLVMDisposeMessage(s);
    return ok;
}

/* A declared function name.T (argument t) -> i32: the target's image_coordinate or image_size. */
GPUCOMPILE_PRIVATE LLVMValueRef gpucompile_lower__marker(gpucompile_lower__state *w, const char *name, LLVMValueRef arg) {
    LLVMTypeRef t = LLVMTypeOf(arg), ft = LLVMFunctionType(w->i32, &t, 1, 0);
    char fname[96];
    LLVMValueRef f;
    snprintf(fname, sizeof fname, "%s.%c%u", name, gpucompile_lower__is_fp(t) ? 'f' : 'i', gpucompile_lower__lanes(t));
    if (!(f = LLVMGetNamedFunction(w->m, fname))) f = LLVMAddFunction(w->m, fname, ft);
    return gpucompile_lower__call(w, f, &arg, 1);
}

/* The first n lanes of v (a scalar: itself; lanes past v's: zero). */
GPUCOMPILE_PRIVATE LLVMValueRef gpucompile_lower__lanes_of(gpucompile_lower__state *w, LLVMValueRef v, unsigned n) {
    LLVMValueRef mask[4];
    unsigned k, have = gpucompile_lower__lanes(LLVMTypeOf(v));
    if (LLVMGetTypeKind(LLVMTypeOf(v)) != LLVMVectorTypeKind) {
        if (n == 1) return v;
        v = LLVMBuildInsertElement(w->b, LLVMGetPoison(LLVMVectorType(LLVMTypeOf(v), 1)), v, LLVMConstInt(w->i32, 0, 0), "");
        have = 1;
    }
    if (n == 1) return LLVMBuildExtractElement(w->b, v, LLVMConstInt(w->i32, 0, 0), "");
    for (k = 0; k < n; k++) mask[k] = LLVMConstInt(w->i32, k < have ? k : have, 0);
    return LLVMBuildShuffleVector(w->b, v, LLVMConstNull(LLVMTypeOf(v)), LLVMConstVector(mask, n), "");
}

/* The binding of image parameter p for one way of reading it (found, or made at the next binding). */
GPUCOMPILE_PRIVATE gpucompile_lower__image_binding *gpucompile_lower__image_handle(gpucompile_lower__state *w, gpucompile_lower__image_binding *hb, int *nhb, int sampled, int integer,
                                                               long sampler, unsigned dim, unsigned arrayed, unsigned access, const char *kernel,
                                                               LLVMValueRef p, unsigned i, unsigned set, unsigned *binding, LLVMValueRef at) {
    int k;
    char kb[160];
    unsigned ints[6];
    LLVMTypeRef et = integer ? w->i32 : LLVMFloatTypeInContext(w->ctx), ht;
    LLVMValueRef hf, args[5];
    for (k = 0; k < *nhb; k++)
        if (hb[k].sampled == sampled && hb[k].sampler == sampler && (hb[k].integer == integer || integer < 0)) return &hb[k];
    if (*nhb == 16) return NULL;
    if (integer < 0) et = LLVMFloatTypeInContext(w->ctx), integer = 0; /* a size query: any */
    ints[0] = dim;
    /* Depth: unknown (2) for an image of its own, 0 (not a depth image) in an image-and-sampler:
       LLVM 22 mistakes one for the other where the two types are the same image type */
    ints[1] = sampled ? 0 : 2;
    ints[2] = arrayed;
    ints[3] = 0;        /* single-sampled */
    ints[4] = sampled || access == 0 ? 1 : 2; /* read through a sampler or fetched; else a storage image */
    ints[5] = 0;        /* the format: unknown (the image bound decides) */
    ht = LLVMTargetExtTypeInContext(w->ctx, sampled ? w->t->sampled_type : w->t->image_type, &et, 1, ints, 6);
    if (!(hf = gpucompile_lower__intrinsic(w, w->t->buffer_binding, &ht, 1))) return NULL;
    args[0] = LLVMConstInt(w->i32, set, 0);
    args[1] = LLVMConstInt(w->i32, *binding, 0);
    args[2] = LLVMConstInt(w->i32, 1, 0);
    args[3] = LLVMConstInt(w->i32, 0, 0);
    snprintf(kb, sizeof kb, "%.60s.b%u", kernel, *binding); /* a name per binding: LLVM 22 makes one variable of each name */
    args[4] = gpucompile_lower__name(w, kb, p, i);
    LLVMPositionBuilderBefore(w->b, at);
    hb[*nhb].sampled = sampled;
    hb[*nhb].integer = integer;
    hb[*nhb].sampler = sampler;
    hb[*nhb].binding = (*binding)++;
    hb[*nhb].handle = gpucompile_lower__call(w, hf, args, 5);
    return &hb[(*nhb)++];
}

/* The push-constant words image parameter p takes from the launch, placed as scalar parameters
   would be (the plan and the kernel's rewrite place them alike; *offset the first's): an image's
   channel order and data type are no property of its handle (the image bound at launch decides
   them), so a kernel that asks for them gets one word, order | data type << 16 (OpenCL's values);
   so does one that reads or writes it with read_imagei / write_imagei (an 8- or 16-bit signed
   image is bound through the unsigned format of its bits: see gpucompile_lower__image_signed);
   an image the kernel only asks about (no read or write) has no binding, whose numeric type would
   have to be the image's, unknown here: five words, that one, then its width, height, depth and
   layers. 0: none. */
GPUCOMPILE_PRIVATE unsigned gpucompile_lower__image_words(gpucompile_lower__state *w, LLVMValueRef p, unsigned *end, unsigned *offset) {
    LLVMUseRef use;
    char buf[64];
    const char *args_s, *plain;
    int channels = 0, access = 0;
    unsigned k, n, off;
    for (use = LLVMGetFirstUse(p); use; use = LLVMGetNextUse(use)) {
        plain = gpucompile_lower__demangle(gpucompile_lower__callee_name(LLVMGetUser(use)), buf, sizeof buf, &args_s);
        channels |= strncmp(plain, "get_image_channel_", 18) == 0 || strcmp(plain, "read_imagei") == 0 || strcmp(plain, "write_imagei") == 0;
        access |= strncmp(plain, "get_image_", 10) != 0;
    }
    n = !LLVMGetFirstUse(p) || (access && !channels) ? 0 : access ? 1 : 5;
    for (k = 0; k < n; k++) {
        gpucompile_lower__place(w, w->i32, end, &off);
        if (!k) *offset = off;
    }
    return n;
}

/* A signed integer image's texel v (int4) as read_imagei reads it (write 0) or as write_imagei
   writes it (write 1): the target's formats read integers as they are stored (no signed format
   here: a kernel's integer handles are unsigned), so by the launch's data type (the word at
   push_at) an 8- or 16-bit one's texels read are sign-extended, and those written saturated to
   its range (OpenCL's convert_char_sat / short_sat) and cut to its bits. */
GPUCOMPILE_PRIVATE LLVMValueRef gpucompile_lower__image_signed(gpucompile_lower__state *w, LLVMValueRef pc, unsigned push_at, LLVMValueRef v, int write) {
    LLVMValueRef type = LLVMBuildLShr(w->b, gpucompile_lower__push_load(w, pc, w->i32, push_at), LLVMConstInt(w->i32, 16, 0), ""), x[3], zero[4];
    LLVMValueRef is8 = LLVMBuildICmp(w->b, LLVMIntEQ, type, LLVMConstInt(w->i32, 0x10D7, 0), ""), is16 = LLVMBuildICmp(w->b, LLVMIntEQ, type, LLVMConstInt(w->i32, 0x10D8, 0), "");
    /* per 8-bit, 16-bit, other: the shift (a read); the mask, the least and the greatest value (a write) */
    static const unsigned long long by[4][3] = {{24, 16, 0}, {0xff, 0xffff, 0xffffffffu}, {0xffffff80u, 0xffff8000u, 0x80000000u}, {0x7f, 0x7fff, 0x7fffffff}};
    unsigned k, j;
    for (k = 0; k < 4; k++) zero[k] = LLVMConstInt(w->i32, 0, 0);
    for (j = 0; j < (write ? 3u : 1u); j++) { /* each value by the data type, in every lane */
        const unsigned long long *c = by[write ? j + 1 : 0];
        x[j] = LLVMBuildSelect(w->b, is8, LLVMConstInt(w->i32, c[0], 0), LLVMBuildSelect(w->b, is16, LLVMConstInt(w->i32, c[1], 0), LLVMConstInt(w->i32, c[2], 0), ""), "");
        x[j] = LLVMBuildInsertElement(w->b, LLVMGetPoison(LLVMTypeOf(v)), x[j], zero[0], "");
        x[j] = LLVMBuildShuffleVector(w->b, x[j], LLVMGetPoison(LLVMTypeOf(v)), LLVMConstVector(zero, 4), "");
    }
    if (!write) return LLVMBuildAShr(w->b, LLVMBuildShl(w->b, v, x[0], ""), x[0], "");
    v = LLVMBuildSelect(w->b, LLVMBuildICmp(w->b, LLVMIntSLT, v, x[1], ""), x[1], v, "");
    v = LLVMBuildSelect(w->b, LLVMBuildICmp(w->b, LLVMIntSGT, v, x[2], ""), x[2], v, "");
    return LLVMBuildAnd(w->b, v, x[0], "");
}

/* Image parameter i (p) of kernel `name`: each built-in call on it rewritten (see above); its
   bindings into md as `iB[:sJ|:kC][+B...][@O]` (B a binding; J the sampler parameter, C the
   constant sampler's bits; O the push-constant offset of its words, see above: `i@O` without a
   binding), `-` when unused. at: where the handles are made (the entry block's
   end); pc, end: the push-constant block and the end of its parameters so far. */
GPUCOMPILE_PRIVATE gpucompile_result gpucompile_lower__image(gpucompile_lower__state *w, const char *name, LLVMValueRef p, unsigned i, unsigned set,
                                                             unsigned *binding, gpucompile_buf *md, LLVMValueRef at, LLVMValueRef pc, unsigned *end) {
    gpucompile_lower__image_binding hb[16];
    int nhb = 0, k, pass;
    unsigned dim, depth, arrayed, access, n, push_at = 0, words;
    LLVMUseRef use, next;
    gpucompile_lower__image_kind(LLVMTypeOf(p), w->t->image_type, &dim, &depth, &arrayed, &access);
    if (dim == 5) dim = 0; /* an image1d_buffer_t: a 1D image's handle (read without a sampler, OpenCL's rule), the runtime's image1d_buffer one */
    if (dim > 2)
        return gpucompile_lower__fail(w, GPUCOMPILE_ERROR_UNSUPPORTED, "function '%s': parameter %u: a multisampled image (not yet on %s: "
                                      "image1d_t, image1d_buffer_t, image2d_t, image3d_t, their arrays and depth images are)", name, i, w->t->api);
    n = dim + 1 + arrayed; /* the coordinate's lanes */
    if ((words = gpucompile_lower__image_words(w, p, end, &push_at)) && !pc)
        return gpucompile_lower__fail(w, GPUCOMPILE_ERROR_LLVM, "function '%s': parameter %u: no push-constant block for its channel order or sizes", name, i);
    for (pass = 0; pass < 2; pass++) /* the reads and writes, then the size queries (through a binding already there) */
    for (use = LLVMGetFirstUse(p); use; use = next) {
        LLVMValueRef in = LLVMGetUser(use), h, v = NULL, c, idx, f, args[3];
        gpucompile_lower__image_binding *x;
        const char *args_s, *plain;
        char buf[64];
        unsigned nargs = LLVMIsACallInst(in) ? (unsigned)LLVMGetNumArgOperands(in) : 0;
        int query = 0, integer, sampled;
        long sampler = 0;
        next = LLVMGetNextUse(use);
        plain = gpucompile_lower__demangle(gpucompile_lower__callee_name(in), buf, sizeof buf, &args_s);
        if (!nargs || LLVMGetOperand(in, 0) != p)
            return gpucompile_lower__refuse(w, in, "an image used other than as the first argument of an image built-in");
        if ((strncmp(plain, "get_image_", 10) == 0) != pass) continue;
        LLVMPositionBuilderBefore(w->b, in);
        if (strncmp(plain, "get_image_", 10) == 0) {
            const char *q = plain + 10;
            query = strcmp(q, "width") == 0 ? 1 : strcmp(q, "height") == 0 ? 2 : strcmp(q, "depth") == 0 ? 3 :
                    strcmp(q, "array_size") == 0 ? 4 : strcmp(q, "dim") == 0 ? 5 : strcmp(q, "channel_order") == 0 ? 6 :
                    strcmp(q, "channel_data_type") == 0 ? 7 : 0;
            if (!query) return gpucompile_lower__refuse(w, in, "%s: not an image query this rewrite knows", plain);
        } else if (!((strncmp(plain, "read_image", 10) == 0 || strncmp(plain, "write_image", 11) == 0) &&
                     strchr("fih", plain[strlen(plain) - 1]) && strlen(strchr(plain, '_') + 6) <= 2))
            return gpucompile_lower__refuse(w, in, "%s: not an image built-in this rewrite knows (read_imagef/i/ui/h, write_imagef/i/ui/h, "
                                                   "get_image_width/height/depth/array_size/dim/channel_order/channel_data_type)", plain);
        if (query >= 6) { /* the launch's word (see gpucompile_lower__image_words) */
            LLVMValueRef c6 = gpucompile_lower__push_load(w, pc, w->i32, push_at);
            v = query == 6 ? LLVMBuildAnd(w->b, c6, LLVMConstInt(w->i32, 0xffff, 0), "") : LLVMBuildLShr(w->b, c6, LLVMConstInt(w->i32, 16, 0), "");
        } else if (query) {
            LLVMValueRef lanes;
            if (words == 5) { /* the launch's words, as the query's lanes: the sizes of its dimensions, then its layers */
                unsigned k2;
                lanes = LLVMConstNull(LLVMVectorType(w->i32, 4));
                for (k2 = 0; k2 <= dim + arrayed && k2 < 4; k2++)
                    lanes = LLVMBuildInsertElement(w->b, lanes, gpucompile_lower__push_load(w, pc, w->i32, push_at + 4 * (k2 <= dim ? k2 + 1 : 4)),
                                                   LLVMConstInt(w->i32, k2, 0), "");
            } else {
                if (!(x = gpucompile_lower__image_handle(w, hb, &nhb, 0, -1, 0, dim, arrayed, access, name, p, i, set, binding, at))) break;
                h = x->handle;
                LLVMPositionBuilderBefore(w->b, in);
                idx = gpucompile_lower__marker(w, w->t->image_size, LLVMGetPoison(n > 1 ? LLVMVectorType(w->i32, n) : w->i32));
                args[0] = h;
                args[1] = idx;
                {
                    LLVMTypeRef ty[2];
                    /* read as the image's own type (LLVM 22 mistypes the image of a read of another) */
                    ty[0] = LLVMVectorType(x->integer ? w->i32 : LLVMFloatTypeInContext(w->ctx), 4);
                    ty[1] = LLVMTypeOf(h);
                    if (!(f = gpucompile_lower__intrinsic(w, w->t->image_read, ty, 2))) break;
                }
                lanes = gpucompile_lower__call(w, f, args, 2);
                if (!x->integer) lanes = LLVMBuildBitCast(w->b, lanes, LLVMVectorType(w->i32, 4), "");
            }
            if (query == 5) { /* int2 (w, h) or int4 (w, h, d, 0) */
                LLVMValueRef m[4];
                m[0] = LLVMConstInt(w->i32, 0, 0);
                m[1] = LLVMConstInt(w->i32, 1, 0);
                m[2] = LLVMConstInt(w->i32, dim == 2 ? 2 : 4, 0);
                m[3] = LLVMConstInt(w->i32, 4, 0);
                v = LLVMBuildShuffleVector(w->b, lanes, LLVMConstNull(LLVMTypeOf(lanes)), LLVMConstVector(m, 4), "");
                v = gpucompile_lower__lanes_of(w, v, gpucompile_lower__lanes(LLVMTypeOf(in)));
            }
            else if ((query == 2 && dim < 1) || (query == 3 && dim < 2) || (query == 4 && !arrayed))
                v = LLVMConstInt(w->i32, 1, 0);
            else
                v = LLVMBuildExtractElement(w->b, lanes, LLVMConstInt(w->i32, query == 4 ? dim + 1 : (unsigned)query - 1, 0), "");
        } else {
            int write = plain[0] == 'w';
            LLVMValueRef coord = LLVMGetOperand(in, nargs == 3 && !write ? 2u : 1u), smp = nargs == 3 && !write ? LLVMGetOperand(in, 1) : NULL;
            LLVMTypeRef ty[2];
            integer = plain[strlen(plain) - 1] == 'i';
            sampled = smp != NULL;
            if (smp && LLVMIsAArgument(smp)) {
                unsigned j;
                for (j = 0; LLVMGetParam(LLVMGetParamParent(smp), j) != smp; j++) {}
                sampler = (long)j;
            } else if (smp && LLVMIsACallInst(smp) && strcmp(gpucompile_lower__callee_name(smp), "__translate_sampler_initializer") == 0 &&
                       LLVMIsAConstantInt(LLVMGetOperand(smp, 0)))
                sampler = 0x10000 + (long)(LLVMConstIntGetZExtValue(LLVMGetOperand(smp, 0)) & 0xffff);
            else if (smp)
                return gpucompile_lower__refuse(w, in, "%s: a sampler that is neither a parameter nor a constant", plain);
            if (write && access == 0) return gpucompile_lower__refuse(w, in, "%s of a read_only image", plain);
            if (sampled && access != 0) return gpucompile_lower__refuse(w, in, "%s of a %s image through a sampler (OpenCL samples read_only images)", plain,
                                                                  access == 1 ? "write_only" : "read_write");
            if (!(x = gpucompile_lower__image_handle(w, hb, &nhb, sampled, integer, sampler, dim, arrayed, access, name, p, i, set, binding, at))) break;
            h = x->handle;
            LLVMPositionBuilderBefore(w->b, in);
            c = gpucompile_lower__lanes_of(w, coord, n);
            if (sampled && !gpucompile_lower__is_fp(LLVMTypeOf(c))) { /* a texel's centre: unnormalized coordinates, nearest (OpenCL's rule for int ones) */
                LLVMTypeRef ft = gpucompile_lower__like(LLVMTypeOf(c), LLVMFloatTypeInContext(w->ctx));
                c = LLVMBuildSIToFP(w->b, c, ft, "");
                { /* the layer (an array's last lane): no half */
                    LLVMValueRef half[4];
                    unsigned k2;
                    for (k2 = 0; k2 < n; k2++) half[k2] = gpucompile_lower__kf(LLVMFloatTypeInContext(w->ctx), arrayed && k2 == n - 1 ? 0 : 0.5);
                    c = LLVMBuildFAdd(w->b, c, n > 1 ? LLVMConstVector(half, n) : half[0], "");
                }
            } else if (!sampled && gpucompile_lower__is_fp(LLVMTypeOf(c)))
                return gpucompile_lower__refuse(w, in, "%s with float coordinates and no sampler", plain);
            idx = gpucompile_lower__marker(w, w->t->image_coordinate, c);
            args[0] = h;
            args[1] = idx;
            { /* read_imageh / write_imageh: the floats' texels, converted; a depth image's: the first lane of a float4 */
                LLVMTypeRef texel = write ? LLVMTypeOf(LLVMGetOperand(in, 2)) : LLVMTypeOf(in), ft = LLVMVectorType(LLVMFloatTypeInContext(w->ctx), 4);
                int half = LLVMGetTypeKind(gpucompile_lower__elem(texel)) == LLVMHalfTypeKind;
                ty[0] = write ? LLVMTypeOf(h) : half || depth ? ft : texel;
                ty[1] = write ? (half || depth ? ft : texel) : LLVMTypeOf(h);
                if (!(f = gpucompile_lower__intrinsic(w, write ? w->t->image_write : w->t->image_read, ty, 2))) break;
                if (write) args[2] = half ? LLVMBuildFPExt(w->b, LLVMGetOperand(in, 2), ft, "") : LLVMGetOperand(in, 2);
                if (write && depth) args[2] = LLVMBuildInsertElement(w->b, LLVMConstNull(ft), args[2], LLVMConstInt(w->i32, 0, 0), "");
                if (write && strcmp(plain, "write_imagei") == 0) args[2] = gpucompile_lower__image_signed(w, pc, push_at, args[2], 1);
                v = gpucompile_lower__call(w, f, args, write ? 3u : 2u);
                if (half && !write) v = LLVMBuildFPTrunc(w->b, v, texel, "");
                if (depth && !write) v = LLVMBuildExtractElement(w->b, v, LLVMConstInt(w->i32, 0, 0), "");
                if (!write && strcmp(plain, "read_imagei") == 0) v = gpucompile_lower__image_signed(w, pc, push_at, v, 0);
            }
        }
        {
            LLVMValueRef smp = !query && nargs == 3 && plain[0] == 'r' ? LLVMGetOperand(in, 1) : NULL;
            LLVMReplaceAllUsesWith(in, v);
            LLVMInstructionEraseFromParent(in);
            if (smp && LLVMIsACallInst(smp) && !LLVMGetFirstUse(smp)) LLVMInstructionEraseFromParent(smp); /* a constant sampler's */
        }
    }
    if (LLVMGetFirstUse(p)) return gpucompile_lower__fail(w, GPUCOMPILE_ERROR_LLVM, "function '%s': parameter %u: no image handle (more than 16 ways to read it, "
                                           "or this LLVM lacks %s)", name, i, w->t->image_read);
    if (!nhb && !words) {
        gpucompile_buf_str(md, " -");
        return GPUCOMPILE_OK;
    }
    gpucompile_buf_str(md, " i");
    for (k = 0; k < nhb; k++) {
        gpucompile_buf_printf(md, k ? "+%u" : "%u", hb[k].binding);
        if (hb[k].sampled) gpucompile_buf_printf(md, hb[k].sampler >= 0x10000 ? ":k%ld" : ":s%ld", hb[k].sampler & 0xffff);
    }
    if (words) gpucompile_buf_printf(md, "@%u", push_at);
    return GPUCOMPILE_OK;
}

/* One kernel as an entry point (see the top of this section), its buffers in descriptor set
   `set` (the kernel's own: see the top of this section); its parameter string into md. */
GPUCOMPILE_PRIVATE gpucompile_result gpucompile_lower__kernel(gpucompile_lower__state *w, LLVMValueRef fn, const gpucompile_lower_options *o,
                                                                   LLVMValueRef pc, gpucompile_lower__uses *u, unsigned set, gpucompile_buf *md) {
    LLVMBasicBlockRef first = LLVMGetEntryBasicBlock(fn), entry, bb;
    LLVMValueRef br, nf;
    unsigned i, n = LLVMCountParams(fn), end = 0, binding = 0;
    char name[256], numthreads[64];
    int launch;
    snprintf(name, sizeof name, "%s", gpucompile_value_name(fn));
    gpucompile_lower__wg_size(w, fn, o->local_size, w->wg);
    launch = w->launch;
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
        if (LLVMGetTypeKind(t) == LLVMTargetExtTypeKind) { /* an image or a sampler */
            unsigned d, dp, a, acc;
            int image, sampler;
            if (!w->t->image_type)
                return gpucompile_lower__fail(w, GPUCOMPILE_ERROR_UNSUPPORTED, "function '%s': parameter %u: an OpenCL image or sampler (%s has no images yet)",
                                              name, i, w->t->api);
            image = gpucompile_lower__image_kind(t, w->t->image_type, &d, &dp, &a, &acc);
            sampler = !image && gpucompile_lower__image_kind(t, w->t->sampler_type, &d, &dp, &a, &acc);
            if (image) {
                if (gpucompile_lower__image(w, name, p, i, set, &binding, md, br, pc, &end) != GPUCOMPILE_OK) return w->r;
                continue;
            }
            if (sampler) { /* read at each image read through it (the image's binding names it) */
                gpucompile_buf_str(md, " s");
                continue;
            }
        }
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
            {
                LLVMValueRef v = gpucompile_lower__push_load(w, pc, t, off);
                LLVMReplaceAllUsesWith(p, v);
                gpucompile_lower__lanes_out(v);
            }
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
                if (w->bytes_launch) {
                    gpucompile_lower__launch_length(w, array);
                    gpucompile_buf_str(md, " l0");
                } else
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
                args[0] = LLVMConstInt(w->i32, set, 0);
                args[1] = LLVMConstInt(w->i32, binding, 0);
                args[2] = LLVMConstInt(w->i32, 1, 0);
                args[3] = LLVMConstInt(w->i32, 0, 0);
                args[4] = gpucompile_lower__name(w, name, p, i);
                LLVMPositionBuilderBefore(w->b, br);
                f = LLVMGlobalGetValueType(hf);
                handle = LLVMBuildCall2(w->b, f, hf, args, 5, "");
                gpucompile_buf_printf(md, " b%u", binding++);
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
    if (launch)
        LLVMAddAttributeAtIndex(nf, LLVMAttributeFunctionIndex, LLVMCreateStringAttribute(w->ctx, GPUCOMPILE_LOWER_LAUNCH_SIZE,
                                                                                         (unsigned)strlen(GPUCOMPILE_LOWER_LAUNCH_SIZE), "", 0));
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
            if (LLVMGetTypeKind(LLVMTypeOf(p)) == LLVMTargetExtTypeKind) gpucompile_lower__image_words(w, p, &end, &off);
            else if (LLVMGetTypeKind(LLVMTypeOf(p)) != LLVMPointerTypeKind && LLVMGetFirstUse(p)) gpucompile_lower__place(w, LLVMTypeOf(p), &end, &off);
        }
        if (end > w->t->max_push_bytes)
            return gpucompile_lower__fail(w, GPUCOMPILE_ERROR_UNSUPPORTED, "function '%s': its scalar parameters need %u bytes: above the %u bytes "
                                              "of the scalars' block", gpucompile_value_name(fn), end, w->t->max_push_bytes);
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
    LLVMValueRef in;
    for (in = gpucompile_next_instruction(w->m, NULL); in; in = gpucompile_next_instruction(w->m, in)) {
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

/* LLVM's own passes by name (pipeline: LLVMRunPasses' text), for the shapes LLVM 22's SPIR-V
   code generator fails on that an LLVM pass already rewrites. */
GPUCOMPILE_PRIVATE gpucompile_result gpucompile_lower__passes(gpucompile_lower__state *w, const char *pipeline) {
    LLVMPassBuilderOptionsRef pbo = LLVMCreatePassBuilderOptions();
    LLVMErrorRef err = LLVMRunPasses(w->m, pipeline, NULL, pbo);
    LLVMDisposePassBuilderOptions(pbo);
    if (err) {
        char *msg = LLVMGetErrorMessage(err);
        gpucompile_lower__fail(w, GPUCOMPILE_ERROR_LLVM, "LLVM's passes '%s': %s", pipeline, msg);
        LLVMDisposeErrorMessage(msg);
    }
    return w->r;
}

/* An instruction of fn that makes or takes a vector of more than 4 lanes, or of one (SPIR-V's
   vectors have 2 to 4), NULL if none. */
GPUCOMPILE_PRIVATE LLVMValueRef gpucompile_lower__wide(LLVMValueRef fn) {
    LLVMBasicBlockRef bb;
    LLVMValueRef in;
    for (bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
        for (in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in)) {
            int k, n = LLVMGetNumOperands(in);
            if (LLVMIsAExtractElementInst(in) && LLVMIsAArgument(LLVMGetOperand(in, 0)) && LLVMIsAConstantInt(LLVMGetOperand(in, 1)))
                continue; /* a lane of a kernel's parameter: read from its own word (gpucompile_lower__lanes_out) */
            for (k = -1; k < n; k++) {
                LLVMTypeRef t = LLVMTypeOf(k < 0 ? in : LLVMGetOperand(in, (unsigned)k));
                if (LLVMGetTypeKind(t) == LLVMVectorTypeKind && (LLVMGetVectorSize(t) > 4 || LLVMGetVectorSize(t) == 1)) return in; /* 1: not a SPIR-V vector */
            }
        }
    return NULL;
}

/* Vectors of more than 4 lanes (OpenCL's float8, int16, vload8, vstore16, ...): a shader
   has none (Vector16 is a Kernel capability) and LLVM 22's code generator stops on them ("unable
   to legalize instruction"). Where a module has one, LLVM's scalarizer splits every instruction on
   vectors, loads and stores among them, into scalars, before the buffers are rewritten: pieces
   of 4 lanes (its min-bits) would leave a compare's or a conversion's vector whole where its
   operands' and its result's elements differ in width. What it leaves wide is refused. */
/* A bitcast between vectors of other lane counts with more than 4 lanes on a side (OpenCL's
   as_uchar16 of an int4), which LLVM's scalarizer leaves whole: lane by lane (little-endian), each
   lane shifted out of or into the wider elements. */
GPUCOMPILE_PRIVATE LLVMValueRef gpucompile_lower__bitcast_lanes(gpucompile_lower__state *w, LLVMValueRef in) {
    LLVMTypeRef st = LLVMTypeOf(LLVMGetOperand(in, 0)), dt = LLVMTypeOf(in), se, de, si, di;
    LLVMValueRef src = LLVMGetOperand(in, 0), r;
    unsigned sn, dn, sb, db, k, t;
    if (LLVMGetTypeKind(st) != LLVMVectorTypeKind || LLVMGetTypeKind(dt) != LLVMVectorTypeKind) return NULL;
    sn = LLVMGetVectorSize(st), dn = LLVMGetVectorSize(dt);
    se = LLVMGetElementType(st), de = LLVMGetElementType(dt);
    sb = gpucompile_lower__bits(se), db = gpucompile_lower__bits(de);
    if (sn == dn || (sn <= 4 && dn <= 4) || !sb || !db || sn * sb != dn * db || (sb % db && db % sb)) return NULL;
    si = LLVMIntTypeInContext(w->ctx, sb), di = LLVMIntTypeInContext(w->ctx, db);
    LLVMPositionBuilderBefore(w->b, in);
    r = LLVMGetPoison(dt);
    for (k = 0; k < dn; k++) {
        LLVMValueRef v;
        if (db <= sb) { /* a piece of source lane k / (sb / db) */
            v = LLVMBuildBitCast(w->b, LLVMBuildExtractElement(w->b, src, LLVMConstInt(w->i32, k / (sb / db), 0), ""), si, "");
            v = LLVMBuildTrunc(w->b, LLVMBuildLShr(w->b, v, LLVMConstInt(si, db * (k % (sb / db)), 0), ""), di, "");
        } else /* source lanes k * n ... k * n + n - 1, the first lowest */
            for (v = LLVMConstInt(di, 0, 0), t = 0; t < db / sb; t++) {
                LLVMValueRef p = LLVMBuildBitCast(w->b, LLVMBuildExtractElement(w->b, src, LLVMConstInt(w->i32, k * (db / sb) + t, 0), ""), si, "");
                v = LLVMBuildOr(w->b, v, LLVMBuildShl(w->b, LLVMBuildZExt(w->b, p, di, ""), LLVMConstInt(di, sb * t, 0), ""), "");
            }
        r = LLVMBuildInsertElement(w->b, r, LLVMBuildBitCast(w->b, v, de, ""), LLVMConstInt(w->i32, k, 0), "");
    }
    return r;
}

/* A private variable's address as an integer (ptrtoint of an alloca: OpenCL's
   `(uintptr_t)&x`, to test its alignment): a shader's variables have none, and LLVM 22's code
   generator aborts on it ("Unable to meet SPIR-V requirements"). Where no integer becomes a
   pointer again (no inttoptr in the module), an address is only a number compared and computed
   with, so each variable gets one of its own: distinct, apart by its size, aligned to 4096 (each
   variable's alignment, up to that). Any other ptrtoint is refused by name. */
GPUCOMPILE_PRIVATE gpucompile_result gpucompile_lower__addresses(gpucompile_lower__state *w) {
    LLVMValueRef in, next;
    unsigned long long at = 4096;
    int back = 0;
    for (in = gpucompile_next_instruction(w->m, NULL); in; in = gpucompile_next_instruction(w->m, in))
        back |= LLVMGetInstructionOpcode(in) == LLVMIntToPtr;
    for (in = gpucompile_next_instruction(w->m, NULL); in; in = next) {
        LLVMValueRef a;
        next = gpucompile_next_instruction(w->m, in);
        if (LLVMGetInstructionOpcode(in) != LLVMPtrToInt) continue;
        a = LLVMGetOperand(in, 0);
        if (back || !LLVMIsAAllocaInst(a))
            return gpucompile_lower__refuse(w, in, "a pointer made an integer: a %s shader's memory has no addresses%s", w->t->api,
                                            back ? " (and the module makes integers pointers)" : "");
        LLVMReplaceAllUsesWith(in, LLVMConstInt(LLVMTypeOf(in), at, 0));
        LLVMInstructionEraseFromParent(in);
        at += (LLVMABISizeOfType(w->dl, LLVMGetAllocatedType(a)) + 4095) / 4096 * 4096;
    }
    return GPUCOMPILE_OK;
}

/* A volatile load or store of a vector of more than 4 lanes (OpenCL's `volatile long16 x = 0`),
   which LLVM's scalarizer leaves whole (it keeps volatile accesses as they are): lane by lane,
   each lane's access volatile, in lane order. The lanes' addresses: off a variable of the
   vector's own type, (0, lane) into it (the one shape of private memory the code generator
   takes, gpucompile_lower__shapes), else the element's type, lane. The load's value (the lanes
   put together), or the store, NULL when the instruction is no such access. */
GPUCOMPILE_PRIVATE LLVMValueRef gpucompile_lower__volatile_lanes(gpucompile_lower__state *w, LLVMValueRef in) {
    int store = LLVMIsAStoreInst(in) != NULL;
    LLVMValueRef p, r = NULL;
    LLVMTypeRef vt, et, bt;
    unsigned n, k, align, es;
    if ((!store && !LLVMIsALoadInst(in)) || !LLVMGetVolatile(in)) return NULL;
    vt = store ? LLVMTypeOf(LLVMGetOperand(in, 0)) : LLVMTypeOf(in);
    if (LLVMGetTypeKind(vt) != LLVMVectorTypeKind || (n = LLVMGetVectorSize(vt)) <= 4) return NULL;
    et = LLVMGetElementType(vt);
    es = (unsigned)LLVMABISizeOfType(w->dl, et);
    align = LLVMGetAlignment(in);
    p = LLVMGetOperand(in, store ? 1 : 0);
    bt = LLVMIsAAllocaInst(p) ? LLVMGetAllocatedType(p) : LLVMIsAGlobalVariable(p) ? LLVMGlobalGetValueType(p) : NULL;
    LLVMPositionBuilderBefore(w->b, in);
    if (!store) r = LLVMGetPoison(vt);
    for (k = 0; k < n; k++) {
        LLVMValueRef idx[2], a, lane;
        unsigned la = align;
        idx[0] = LLVMConstInt(w->i32, 0, 0);
        idx[1] = LLVMConstInt(w->i32, k, 0);
        a = bt == vt ? LLVMBuildGEP2(w->b, vt, p, idx, 2, "") : LLVMBuildGEP2(w->b, et, p, idx + 1, 1, "");
        while (la > 1 && (k * es) % la) la /= 2; /* the lane's own alignment */
        if (store) {
            lane = LLVMBuildStore(w->b, LLVMBuildExtractElement(w->b, LLVMGetOperand(in, 0), idx[1], ""), a);
        } else {
            lane = LLVMBuildLoad2(w->b, et, a, "");
            r = LLVMBuildInsertElement(w->b, r, lane, idx[1], "");
        }
        LLVMSetVolatile(lane, 1);
        if (la) LLVMSetAlignment(lane, la);
    }
    return store ? in : r;
}

GPUCOMPILE_PRIVATE gpucompile_result gpucompile_lower__split_wide(gpucompile_lower__state *w, int late) {
    LLVMValueRef fn, at = NULL, in, next, r;
    int round;
    for (round = 0; round < 2; round++) {
        for (in = gpucompile_next_instruction(w->m, NULL); in; in = next) {
            next = gpucompile_next_instruction(w->m, in);
            if ((LLVMGetInstructionOpcode(in) == LLVMBitCast && (r = gpucompile_lower__bitcast_lanes(w, in)) != NULL) ||
                (r = gpucompile_lower__volatile_lanes(w, in)) != NULL) {
                if (r != in) LLVMReplaceAllUsesWith(in, r);
                LLVMInstructionEraseFromParent(in);
            }
        }
        for (at = NULL, fn = LLVMGetFirstFunction(w->m); fn && !at; fn = LLVMGetNextFunction(fn))
            if (!LLVMIsDeclaration(fn)) at = gpucompile_lower__wide(fn);
        if (!at || round == 1) break;
        /* the second time without instcombine, which would fold the lanes of a bitcast above back into one */
        if (gpucompile_lower__passes(w, late ? "function(scalarizer<load-store;variable-insert-extract>,dce)"
                                             : "function(scalarizer<load-store;variable-insert-extract>,instcombine,dce)") != GPUCOMPILE_OK)
            return w->r;
        if (!late) return GPUCOMPILE_OK;
    }
    return at ? gpucompile_lower__refuse(w, at, "a vector of more than 4 lanes, or of one, that LLVM's scalarizer left whole (a %s shader has none)", w->t->api)
              : GPUCOMPILE_OK;
}

/* One of the image functions the backend replaces (target->image_coordinate, image_size). */
GPUCOMPILE_PRIVATE int gpucompile_lower__is_marker(const gpucompile_lower__state *w, const char *c) {
    return w->t->image_type && ((strncmp(c, w->t->image_coordinate, strlen(w->t->image_coordinate)) == 0 && c[strlen(w->t->image_coordinate)] == '.') ||
                                (strncmp(c, w->t->image_size, strlen(w->t->image_size)) == 0 && c[strlen(w->t->image_size)] == '.'));
}

/* Calls to functions the module does not define, left after the rewrite (LLVM 22 would import
   them, which needs the Linkage capability). */
GPUCOMPILE_PRIVATE gpucompile_result gpucompile_lower__undefined(gpucompile_lower__state *w) {
    LLVMValueRef in;
    for (in = gpucompile_next_instruction(w->m, NULL); in; in = gpucompile_next_instruction(w->m, in)) {
        const char *c = gpucompile_lower__callee_name(in);
        if (*c && strncmp(c, "llvm.", 5) != 0 && LLVMIsDeclaration(LLVMGetCalledValue(in)) &&
            !(w->t->spec_constant && strcmp(c, w->t->spec_constant) == 0) && !gpucompile_lower__is_marker(w, c))
            return gpucompile_lower__refuse(w, in, "a call to a function the module does not define (not an OpenCL function this "
                                                     "rewrite knows; a %s shader module links nothing)", w->t->api);
    }
    return GPUCOMPILE_OK;
}

/* ---- 32-bit integers where the values fit ----
   OpenCL's size_t is 64-bit on spirv64, so get_global_id and the index arithmetic off it are
   i64, and one i64 makes the module declare Int64, which many devices lack (most mobile GPUs).
   Computed in 32 bits instead, exactly: what feeds a truncation to i32 (the lowering's element
   indices: sums, products, shifts, bitwise operations, extensions of 32-bit values, phis and
   selects of them) has the same low 32 bits either way; a comparison of two extended 32-bit
   values (or constants that fit) has the same answer as one of the 32-bit values (a zero- and a
   sign-extended one: the unsigned comparison, decided by the sign where the sign-extended one is
   negative); a value whose top 32 bits are zero (gpucompile_lower__fits) counts as zero-extended;
   gpucompile_lower__kind says which values are extended ones, and takes loop counters to stay
   within 32 bits. What is left (a long in memory or a parameter) stays 64-bit. */
typedef struct gpucompile_lower__narrowing {
    LLVMBuilderRef b;
    LLVMTypeRef i32, i64;
    LLVMValueRef from[256], to[256]; /* to NULL: cannot be narrowed */
    int n;
    LLVMValueRef open[32]; /* the phis gpucompile_lower__fits is inside */
    int nopen;
    LLVMValueRef loops[32]; /* the phis gpucompile_lower__kind is inside */
    int nloops;
    int budget; /* the steps fits and kind may still take for this instruction (a DAG of sums
                   walked as a tree grows exponentially): none left, a value is not known */
} gpucompile_lower__narrowing;

/* v a call of llvm.ctpop, cttz or ctlz: 'p', 't', 'l'; else 0. */
GPUCOMPILE_PRIVATE int gpucompile_lower__bit_count(LLVMValueRef v) {
    const char *c = gpucompile_lower__callee_name(v);
    return strncmp(c, "llvm.ctpop.", 11) == 0 ? 'p' : strncmp(c, "llvm.cttz.", 10) == 0 ? 't' : strncmp(c, "llvm.ctlz.", 10) == 0 ? 'l' : 0;
}

/* Are the top 32 bits of v (i64) zero? Extensions of 32-bit values, constants below 2^32, and
   what cannot make a value larger (lshr, udiv, urem of one, and with one, phis and selects of
   them: a loop's counter halved each time, as `for (size_t s = n / 2; s > 0; s /= 2)`), and a
   count of bits (at most 64). */
GPUCOMPILE_PRIVATE int gpucompile_lower__fits(gpucompile_lower__narrowing *z, LLVMValueRef v, int depth) {
    LLVMOpcode op;
    int i, ok = 1;
    unsigned k, n;
    if (LLVMIsAConstantInt(v)) return LLVMConstIntGetZExtValue(v) <= 0xffffffffu;
    if (depth > 16 || !LLVMIsAInstruction(v) || --z->budget < 0) return 0;
    op = LLVMGetInstructionOpcode(v);
    if (op == LLVMZExt) return LLVMGetIntTypeWidth(LLVMTypeOf(LLVMGetOperand(v, 0))) <= 32;
    if (op == LLVMLShr || op == LLVMUDiv || op == LLVMURem) return gpucompile_lower__fits(z, LLVMGetOperand(v, 0), depth + 1);
    if (op == LLVMAnd) return gpucompile_lower__fits(z, LLVMGetOperand(v, 0), depth + 1) || gpucompile_lower__fits(z, LLVMGetOperand(v, 1), depth + 1);
    if (op == LLVMSelect) return gpucompile_lower__fits(z, LLVMGetOperand(v, 1), depth + 1) && gpucompile_lower__fits(z, LLVMGetOperand(v, 2), depth + 1);
    if (op == LLVMFreeze) return gpucompile_lower__fits(z, LLVMGetOperand(v, 0), depth + 1);
    if (op == LLVMCall) return gpucompile_lower__bit_count(v) != 0; /* at most 64 */
    if (op != LLVMPHI) return 0;
    for (i = 0; i < z->nopen; i++) /* around a loop: fits if what enters it does */
        if (z->open[i] == v) return 1;
    if (z->nopen == 32) return 0;
    z->open[z->nopen++] = v;
    for (k = 0, n = LLVMCountIncoming(v); k < n && ok; k++) ok = gpucompile_lower__fits(z, LLVMGetIncomingValue(v, k), depth + 1);
    z->nopen--;
    return ok;
}

GPUCOMPILE_PRIVATE LLVMValueRef gpucompile_lower__narrow(gpucompile_lower__narrowing *z, LLVMValueRef v, int depth);

/* v >> 32 in 32 bits where v's low 32 bits are zero: v = x << 32 (or more), sums and
   differences of such values (constants among them), their products with a value; else NULL.
   The optimizer writes a 32-bit index's sign extension, plus a constant or times a size, so:
   ashr (add (shl x, 32), c << 32), 32, ashr (mul (shl x, 32), y), 32. */
GPUCOMPILE_PRIVATE LLVMValueRef gpucompile_lower__high(gpucompile_lower__narrowing *z, LLVMValueRef v, int depth) {
    LLVMOpcode op;
    LLVMValueRef a, c, x;
    int i;
    if (LLVMIsAConstantInt(v))
        return (LLVMConstIntGetZExtValue(v) & 0xffffffffu) == 0 ? LLVMConstInt(z->i32, LLVMConstIntGetZExtValue(v) >> 32, 0) : NULL;
    if (depth > 24 || !LLVMIsAInstruction(v) || LLVMTypeOf(v) != z->i64) return NULL;
    op = LLVMGetInstructionOpcode(v);
    a = LLVMGetOperand(v, 0);
    if (op == LLVMShl && LLVMIsAConstantInt(LLVMGetOperand(v, 1)) && LLVMConstIntGetZExtValue(LLVMGetOperand(v, 1)) >= 32 &&
        LLVMConstIntGetZExtValue(LLVMGetOperand(v, 1)) < 64) {
        if (!(x = gpucompile_lower__narrow(z, a, depth + 1))) return NULL;
        LLVMPositionBuilderBefore(z->b, v);
        return LLVMBuildShl(z->b, x, LLVMConstInt(z->i32, LLVMConstIntGetZExtValue(LLVMGetOperand(v, 1)) - 32, 0), "");
    }
    if (op == LLVMAdd || op == LLVMSub) {
        if (!(x = gpucompile_lower__high(z, a, depth + 1)) || !(c = gpucompile_lower__high(z, LLVMGetOperand(v, 1), depth + 1))) return NULL;
        LLVMPositionBuilderBefore(z->b, v);
        return LLVMBuildBinOp(z->b, op, x, c, "");
    }
    if (op != LLVMMul) return NULL;
    for (i = 0; i < 2; i++)
        if ((x = gpucompile_lower__high(z, LLVMGetOperand(v, (unsigned)i), depth + 1)) != NULL &&
            (c = gpucompile_lower__narrow(z, LLVMGetOperand(v, (unsigned)!i), depth + 1)) != NULL) {
            LLVMPositionBuilderBefore(z->b, v);
            return LLVMBuildMul(z->b, x, c, "");
        }
    return NULL;
}

GPUCOMPILE_PRIVATE LLVMValueRef gpucompile_lower__narrow(gpucompile_lower__narrowing *z, LLVMValueRef v, int depth) {
    LLVMOpcode op;
    LLVMValueRef a, c, r = NULL;
    LLVMTypeRef t = LLVMTypeOf(v);
    int i, k;
    if (LLVMGetTypeKind(t) != LLVMIntegerTypeKind) return NULL;
    if (LLVMGetIntTypeWidth(t) == 32) return v;
    if (LLVMIsAConstantInt(v)) return LLVMConstInt(z->i32, LLVMConstIntGetZExtValue(v) & 0xffffffffu, 0);
    if (LLVMIsUndef(v)) return LLVMIsPoison(v) ? LLVMGetPoison(z->i32) : LLVMGetUndef(z->i32);
    if (LLVMGetIntTypeWidth(t) != 64 || depth > 24 || !LLVMIsAInstruction(v)) return NULL;
    for (i = 0; i < z->n; i++)
        if (z->from[i] == v) return z->to[i];
    if (z->n == 256) return NULL;
    op = LLVMGetInstructionOpcode(v);
    if (op == LLVMPHI) {
        unsigned k, n = LLVMCountIncoming(v);
        int at = z->n;
        LLVMBasicBlockRef bb = LLVMGetInstructionParent(v);
        LLVMPositionBuilder(z->b, bb, LLVMGetFirstInstruction(bb));
        r = LLVMBuildPhi(z->b, z->i32, "");
        z->from[z->n] = v;
        z->to[z->n++] = r;
        for (k = 0; k < n; k++) {
            LLVMBasicBlockRef from = LLVMGetIncomingBlock(v, k);
            LLVMValueRef x = gpucompile_lower__narrow(z, LLVMGetIncomingValue(v, k), depth + 1);
            if (!x) { /* r and what was made off it stay unused: deleted with the dead code */
                z->to[at] = NULL;
                z->n = at + 1;
                return NULL;
            }
            LLVMAddIncoming(r, &x, &from, 1);
        }
        return r;
    }
    if (op == LLVMZExt || op == LLVMSExt) {
        a = LLVMGetOperand(v, 0);
        if (LLVMGetIntTypeWidth(LLVMTypeOf(a)) > 32) return NULL;
        if (LLVMGetIntTypeWidth(LLVMTypeOf(a)) == 32) r = a;
        else {
            LLVMPositionBuilderBefore(z->b, v);
            r = op == LLVMZExt ? LLVMBuildZExt(z->b, a, z->i32, "") : LLVMBuildSExt(z->b, a, z->i32, "");
        }
    } else if (op == LLVMAdd || op == LLVMSub || op == LLVMMul || op == LLVMAnd || op == LLVMOr || op == LLVMXor || op == LLVMShl) {
        if (op == LLVMShl && (!LLVMIsAConstantInt(LLVMGetOperand(v, 1)) || LLVMConstIntGetZExtValue(LLVMGetOperand(v, 1)) >= 32)) return NULL;
        if (!(a = gpucompile_lower__narrow(z, LLVMGetOperand(v, 0), depth + 1)) || !(c = gpucompile_lower__narrow(z, LLVMGetOperand(v, 1), depth + 1)))
            return NULL;
        LLVMPositionBuilderBefore(z->b, v);
        r = LLVMBuildBinOp(z->b, op, a, c, "");
    } else if ((op == LLVMLShr || op == LLVMUDiv || op == LLVMURem) && gpucompile_lower__fits(z, LLVMGetOperand(v, 0), 0) &&
               (op == LLVMLShr || gpucompile_lower__fits(z, LLVMGetOperand(v, 1), 0))) { /* the top bits zero: the same low 32 bits */
        if (!(a = gpucompile_lower__narrow(z, LLVMGetOperand(v, 0), depth + 1)) || !(c = gpucompile_lower__narrow(z, LLVMGetOperand(v, 1), depth + 1)))
            return NULL;
        LLVMPositionBuilderBefore(z->b, v);
        r = LLVMBuildBinOp(z->b, op, a, c, "");
        if (op == LLVMLShr && !(LLVMIsAConstantInt(c) && LLVMConstIntGetZExtValue(c) < 32)) /* by 32 or more: the top bits' zeros */
            r = LLVMBuildSelect(z->b, LLVMBuildICmp(z->b, LLVMIntULT, c, LLVMConstInt(z->i32, 32, 0), ""), r, LLVMConstNull(z->i32), "");
    } else if (op == LLVMCall && (k = gpucompile_lower__bit_count(v)) != 0 && gpucompile_lower__fits(z, LLVMGetOperand(v, 0), 0)) {
        /* of a value whose top 32 bits are zero: its low word's count; cttz 64 for zero, ctlz 32 more */
        const char *name = k == 'p' ? "llvm.ctpop" : k == 't' ? "llvm.cttz" : "llvm.ctlz";
        unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
        LLVMValueRef f, x[2];
        if (!id || !(x[0] = gpucompile_lower__narrow(z, LLVMGetOperand(v, 0), depth + 1))) return NULL;
        f = LLVMGetIntrinsicDeclaration(LLVMGetGlobalParent(LLVMGetBasicBlockParent(LLVMGetInstructionParent(v))), id, &z->i32, 1);
        x[1] = LLVMConstNull(LLVMInt1TypeInContext(LLVMGetTypeContext(t)));
        LLVMPositionBuilderBefore(z->b, v);
        r = LLVMBuildCall2(z->b, LLVMGlobalGetValueType(f), f, x, k == 'p' ? 1 : 2, "");
        if (k == 't') r = LLVMBuildSelect(z->b, LLVMBuildICmp(z->b, LLVMIntEQ, x[0], LLVMConstNull(z->i32), ""), LLVMConstInt(z->i32, 64, 0), r, "");
        if (k == 'l') r = LLVMBuildAdd(z->b, r, LLVMConstInt(z->i32, 32, 0), "");
    } else if (op == LLVMAShr && LLVMIsAConstantInt(LLVMGetOperand(v, 1)) && LLVMConstIntGetZExtValue(LLVMGetOperand(v, 1)) <= 32 &&
               (a = gpucompile_lower__high(z, LLVMGetOperand(v, 0), depth + 1)) != NULL) {
        /* ashr (x << 32), b with b <= 32 (the optimizer's sign extension of a 32-bit index, scaled):
           its low 32 bits are x << (32 - b)'s */
        unsigned long long sh = 32 - LLVMConstIntGetZExtValue(LLVMGetOperand(v, 1));
        LLVMPositionBuilderBefore(z->b, v);
        r = sh ? LLVMBuildShl(z->b, a, LLVMConstInt(z->i32, sh, 0), "") : a;
    } else if (op == LLVMFreeze) {
        if (!(a = gpucompile_lower__narrow(z, LLVMGetOperand(v, 0), depth + 1))) return NULL;
        LLVMPositionBuilderBefore(z->b, v);
        r = LLVMBuildFreeze(z->b, a, "");
    } else if (op == LLVMSelect) {
        if (!(a = gpucompile_lower__narrow(z, LLVMGetOperand(v, 1), depth + 1)) || !(c = gpucompile_lower__narrow(z, LLVMGetOperand(v, 2), depth + 1)))
            return NULL;
        LLVMPositionBuilderBefore(z->b, v);
        r = LLVMBuildSelect(z->b, LLVMGetOperand(v, 0), a, c, "");
    }
    if (r && z->n < 256) {
        z->from[z->n] = v;
        z->to[z->n++] = r;
    }
    return r;
}

/* Both kinds' kind (gpucompile_lower__kind), 0 where they disagree. */
GPUCOMPILE_PRIVATE int gpucompile_lower__meet(int a, int c) {
    return !a || !c ? 0 : a == c || c == 'b' ? a : a == 'b' ? c : 0;
}

/* How v (i64) is its low 32 bits extended: 'z' (zero), 's' (sign), 'b' (both: in [0, 2^31)),
   0 when neither is known. Exact for constants, extensions, the optimizer's sign extension
   (ashr (shl x, 32), 32), values whose top bits are zero, and phis and selects of them. One
   more is taken, as a 32-bit size_t has it (*loop set): a loop's counter, a phi stepped by
   sums (or products, shifts) of itself and 32-bit values marked nsw (its kind 's') or nuw
   ('z'), and such a counter plus a 32-bit value, stay within 32 bits. That is the optimizer's
   int counter widened to 64 bits (its steps nsw since C's int does not overflow) and a
   size_t index loop below a 32-bit bound; it differs only where a step would pass 2^31 (2^32
   for 'z'). */
GPUCOMPILE_PRIVATE int gpucompile_lower__kind(gpucompile_lower__narrowing *z, LLVMValueRef v, int *loop, int depth) {
    LLVMOpcode op;
    unsigned w, k, n;
    int i, kv = 'b', inner = 0;
    if (LLVMIsAConstantInt(v)) {
        long long c = LLVMConstIntGetSExtValue(v);
        return c < -2147483648LL || c > 4294967295LL ? 0 : c < 0 ? 's' : c > 2147483647LL ? 'z' : 'b';
    }
    if (LLVMIsUndef(v)) return 'b';
    if (depth > 16 || !LLVMIsAInstruction(v) || --z->budget < 0) return 0;
    op = LLVMGetInstructionOpcode(v);
    if (op == LLVMZExt || op == LLVMSExt)
        return (w = LLVMGetIntTypeWidth(LLVMTypeOf(LLVMGetOperand(v, 0)))) > 32 ? 0 : op == LLVMSExt ? 's' : LLVMGetNNeg(v) ? 'b' : 'z';
    if (op == LLVMAShr && LLVMIsAConstantInt(LLVMGetOperand(v, 1)) && LLVMConstIntGetZExtValue(LLVMGetOperand(v, 1)) == 32 &&
        gpucompile_lower__high(z, LLVMGetOperand(v, 0), depth + 1))
        return 's'; /* what it builds is left unused: the narrowing removes dead code */
    if (gpucompile_lower__fits(z, v, 0)) return 'z';
    if (op == LLVMFreeze) return gpucompile_lower__kind(z, LLVMGetOperand(v, 0), loop, depth + 1);
    if (op == LLVMSelect) return gpucompile_lower__meet(gpucompile_lower__kind(z, LLVMGetOperand(v, 1), loop, depth + 1),
                                                        gpucompile_lower__kind(z, LLVMGetOperand(v, 2), loop, depth + 1));
    if (op == LLVMPHI) {
        for (i = 0; i < z->nloops; i++) /* around a loop: as what enters it */
            if (z->loops[i] == v) return *loop = 1, 'b';
        if (z->nloops == 32) return 0;
        z->loops[z->nloops++] = v;
        for (k = 0, n = LLVMCountIncoming(v); k < n && kv; k++) kv = gpucompile_lower__meet(kv, gpucompile_lower__kind(z, LLVMGetIncomingValue(v, k), loop, depth + 1));
        z->nloops--;
        return kv;
    }
    if (op != LLVMAdd && op != LLVMMul && !(op == LLVMShl && LLVMIsAConstantInt(LLVMGetOperand(v, 1)) && LLVMConstIntGetZExtValue(LLVMGetOperand(v, 1)) < 32))
        return 0;
    kv = gpucompile_lower__meet(gpucompile_lower__kind(z, LLVMGetOperand(v, 0), &inner, depth + 1), gpucompile_lower__kind(z, LLVMGetOperand(v, 1), &inner, depth + 1));
    if (!inner) return 0; /* of values that are not a counter: not known to fit */
    *loop = 1;
    if (kv == 'b') return LLVMGetNSW(v) && LLVMGetNUW(v) ? 'b' : LLVMGetNSW(v) ? 's' : LLVMGetNUW(v) ? 'z' : 0;
    return (kv == 's' && LLVMGetNSW(v)) || (kv == 'z' && LLVMGetNUW(v)) ? kv : 0;
}

/* A comparison's 64-bit operand as a 32-bit value (*out) and its kind, or 0. */
GPUCOMPILE_PRIVATE int gpucompile_lower__extended(gpucompile_lower__narrowing *z, LLVMValueRef v, LLVMValueRef *out) {
    int loop = 0, k = gpucompile_lower__kind(z, v, &loop, 0);
    return k && (*out = gpucompile_lower__narrow(z, v, 0)) != NULL ? k : 0;
}

/* in (an icmp of 64-bit integers) as 32-bit comparisons, or NULL. */
GPUCOMPILE_PRIVATE LLVMValueRef gpucompile_lower__narrow_cmp(gpucompile_lower__narrowing *z, LLVMValueRef in) {
    LLVMIntPredicate p = LLVMGetICmpPredicate(in), u;
    LLVMValueRef a, c, r, neg, l = LLVMGetOperand(in, 0);
    int ka, kc, tmp;
    if ((p == LLVMIntULT || p == LLVMIntUGT) && LLVMIsAConstantInt(LLVMGetOperand(in, 1)) && LLVMIsAInstruction(l) &&
        LLVMGetInstructionOpcode(l) == LLVMAdd && LLVMIsAConstantInt(LLVMGetOperand(l, 1)) && LLVMTypeOf(l) == z->i64) {
        /* (x + d) against k unsigned, x zero-extended, d < 0, k - d < 2^32 (the optimizer's range
           check of a switch on get_global_id: id - 1 < 6): a sum that wraps is above k either way */
        long long d = LLVMConstIntGetSExtValue(LLVMGetOperand(l, 1));
        unsigned long long k = LLVMConstIntGetZExtValue(LLVMGetOperand(in, 1));
        int loop = 0;
        ka = gpucompile_lower__kind(z, LLVMGetOperand(l, 0), &loop, 0);
        if ((ka == 'z' || ka == 'b') && d < 0 && d >= -2147483648LL && k - (unsigned long long)d < 4294967296ULL &&
            (a = gpucompile_lower__narrow(z, LLVMGetOperand(l, 0), 0)) != NULL) {
            LLVMPositionBuilderBefore(z->b, in);
            a = LLVMBuildAdd(z->b, a, LLVMConstInt(z->i32, (unsigned long long)d & 0xffffffffu, 0), "");
            return LLVMBuildICmp(z->b, p, a, LLVMConstInt(z->i32, k, 0), "");
        }
    }
    if (LLVMGetTypeKind(LLVMTypeOf(LLVMGetOperand(in, 0))) != LLVMIntegerTypeKind || LLVMGetIntTypeWidth(LLVMTypeOf(LLVMGetOperand(in, 0))) != 64 ||
        !(ka = gpucompile_lower__extended(z, LLVMGetOperand(in, 0), &a)) || !(kc = gpucompile_lower__extended(z, LLVMGetOperand(in, 1), &c)))
        return NULL;
    if (ka == 's' && kc == 'z') { /* the zero-extended one first */
        r = a; a = c; c = r;
        tmp = ka; ka = kc; kc = tmp;
        p = p == LLVMIntUGT ? LLVMIntULT : p == LLVMIntULT ? LLVMIntUGT : p == LLVMIntUGE ? LLVMIntULE : p == LLVMIntULE ? LLVMIntUGE :
            p == LLVMIntSGT ? LLVMIntSLT : p == LLVMIntSLT ? LLVMIntSGT : p == LLVMIntSGE ? LLVMIntSLE : p == LLVMIntSLE ? LLVMIntSGE : p;
    }
    u = p >= LLVMIntSGT ? (LLVMIntPredicate)(p - 4) : p; /* SGT..SLE -> UGT..ULE */
    LLVMPositionBuilderBefore(z->b, in);
    if (ka == 's' || kc == 's') {
        if (ka != 'z') return LLVMBuildICmp(z->b, p, a, c, ""); /* both sign-extended (or one that is both) */
        /* zext a against sext c: c negative is below every zext as signed, above every one as unsigned */
        r = LLVMBuildICmp(z->b, u, a, c, "");
        if (p == LLVMIntNE || p == LLVMIntULT || p == LLVMIntULE || p == LLVMIntSGT || p == LLVMIntSGE) { /* true where c < 0 */
            neg = LLVMBuildICmp(z->b, LLVMIntSLT, c, LLVMConstNull(z->i32), "");
            return LLVMBuildOr(z->b, neg, r, "");
        }
        neg = LLVMBuildICmp(z->b, LLVMIntSGE, c, LLVMConstNull(z->i32), "");
        return LLVMBuildAnd(z->b, neg, r, "");
    }
    return LLVMBuildICmp(z->b, u, a, c, ""); /* both zero-extended: non-negative, signed or not */
}

static int gpucompile_lower__ptr_cmp(const void *a, const void *b) {
    uintptr_t x = (uintptr_t) * (const LLVMValueRef *)a, y = (uintptr_t) * (const LLVMValueRef *)b;
    return x < y ? -1 : x > y;
}

/* Integer computations of fn that nothing with an effect uses, removed: the 64-bit code the
   narrowing left, loops of it too (a phi and its step use each other), the phis it could not
   finish. Calls but counts of bits, loads and atomics stay. */
GPUCOMPILE_PRIVATE void gpucompile_lower__dead_integers(LLVMValueRef fn) {
    LLVMBasicBlockRef bb;
    LLVMValueRef in, *r = NULL, *work;
    unsigned char *live;
    size_t n = 0, cap = 0, i, nw = 0;
    for (bb = LLVMIsDeclaration(fn) ? NULL : LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
        for (in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in)) {
            LLVMOpcode op = LLVMGetInstructionOpcode(in);
            if (LLVMGetTypeKind(LLVMTypeOf(in)) != LLVMIntegerTypeKind || (op == LLVMCall && !gpucompile_lower__bit_count(in)) || op == LLVMLoad ||
                op == LLVMAtomicRMW || op == LLVMAtomicCmpXchg)
                continue;
            if (n == cap) {
                LLVMValueRef *m = (LLVMValueRef *)realloc(r, (cap = cap ? 2 * cap : 256) * sizeof *r);
                if (!m) { free(r); return; } /* nothing removed: still correct */
                r = m;
            }
            r[n++] = in;
        }
    live = n ? (unsigned char *)calloc(n, 1) : NULL;
    work = n ? (LLVMValueRef *)malloc(n * sizeof *work) : NULL;
    if (!live || !work) { /* nothing removed: still correct */
        free(live); free(work); free(r);
        return;
    }
    qsort(r, n, sizeof *r, gpucompile_lower__ptr_cmp);
    for (i = 0; i < n; i++) { /* used by something that stays: live */
        LLVMUseRef u;
        for (u = LLVMGetFirstUse(r[i]); u && !live[i]; u = LLVMGetNextUse(u)) {
            LLVMValueRef user = LLVMGetUser(u);
            if (!bsearch(&user, r, n, sizeof *r, gpucompile_lower__ptr_cmp)) live[i] = 1;
        }
        if (live[i]) work[nw++] = r[i];
    }
    while (nw) { /* and what the live ones use */
        LLVMValueRef x = work[--nw];
        int k, ops = LLVMGetNumOperands(x);
        for (k = 0; k < ops; k++) {
            LLVMValueRef o = LLVMGetOperand(x, (unsigned)k), *at = (LLVMValueRef *)bsearch(&o, r, n, sizeof *r, gpucompile_lower__ptr_cmp);
            if (at && !live[at - r]) {
                live[at - r] = 1;
                work[nw++] = o;
            }
        }
    }
    for (i = 0; i < n; i++)
        if (!live[i]) LLVMReplaceAllUsesWith(r[i], LLVMGetPoison(LLVMTypeOf(r[i])));
    for (i = 0; i < n; i++)
        if (!live[i]) LLVMInstructionEraseFromParent(r[i]);
    free(live);
    free(work);
    free(r);
}

GPUCOMPILE_DEF int gpucompile_lower_narrow(LLVMModuleRef module) {
    gpucompile_lower__narrowing z;
    LLVMValueRef fn, in, next;
    LLVMBasicBlockRef bb;
    int count = 0;
    if (!module) return 0;
    memset(&z, 0, sizeof z);
    z.b = LLVMCreateBuilderInContext(LLVMGetModuleContext(module));
    z.i32 = LLVMInt32TypeInContext(LLVMGetModuleContext(module));
    z.i64 = LLVMInt64TypeInContext(LLVMGetModuleContext(module));
    for (fn = LLVMGetFirstFunction(module); fn; fn = LLVMGetNextFunction(fn)) {
        z.n = 0;
        for (bb = LLVMIsDeclaration(fn) ? NULL : LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
            for (in = LLVMGetFirstInstruction(bb); in; in = next) {
                LLVMValueRef r = NULL;
                next = LLVMGetNextInstruction(in);
                z.budget = 1 << 14;
                if (LLVMGetInstructionOpcode(in) == LLVMTrunc && LLVMTypeOf(in) == z.i32) r = gpucompile_lower__narrow(&z, LLVMGetOperand(in, 0), 0);
                else if (LLVMGetInstructionOpcode(in) == LLVMICmp) r = gpucompile_lower__narrow_cmp(&z, in);
                else if (LLVMGetInstructionOpcode(in) == LLVMUIToFP || LLVMGetInstructionOpcode(in) == LLVMSIToFP) { /* (float)get_global_id(0) */
                    int u = LLVMGetInstructionOpcode(in) == LLVMUIToFP, k;
                    LLVMValueRef x = LLVMGetOperand(in, 0);
                    if (LLVMTypeOf(x) == z.i64 && ((k = gpucompile_lower__extended(&z, x, &x)) == 'b' || k == (u ? 'z' : 's'))) {
                        LLVMPositionBuilderBefore(z.b, in);
                        r = u ? LLVMBuildUIToFP(z.b, x, LLVMTypeOf(in), "") : LLVMBuildSIToFP(z.b, x, LLVMTypeOf(in), "");
                    }
                }
                if (r) {
                    LLVMReplaceAllUsesWith(in, r);
                    LLVMInstructionEraseFromParent(in);
                    count++;
                }
            }
        gpucompile_lower__dead_integers(fn);
    }
    LLVMDisposeBuilder(z.b);
    return count;
}

GPUCOMPILE_DEF int gpucompile_lower_expand(LLVMModuleRef module) {
    static const char *const names[] = {"llvm.ctlz.", "llvm.cttz.", "llvm.uadd.sat.", "llvm.sadd.sat.", "llvm.usub.sat.", "llvm.ssub.sat.", "llvm.abs.",
                                        "llvm.fshl.", "llvm.fshr.", "llvm.copysign.", "llvm.bswap.", "llvm.ctpop."};
    gpucompile_lower__state w;
    LLVMValueRef in, next;
    int count = 0;
    if (!module) return 0;
    memset(&w, 0, sizeof w);
    w.m = module;
    w.ctx = LLVMGetModuleContext(module);
    w.b = LLVMCreateBuilderInContext(w.ctx);
    w.i32 = LLVMInt32TypeInContext(w.ctx);
    w.i64 = LLVMInt64TypeInContext(w.ctx);
    for (in = gpucompile_next_instruction(module, NULL); in; in = next) {
        LLVMValueRef f = LLVMIsACallInst(in) ? LLVMGetCalledValue(in) : NULL, a, r = NULL;
        const char *name = f && LLVMIsAFunction(f) ? LLVMGetValueName(f) : "";
        unsigned k;
        next = gpucompile_next_instruction(module, in);
        if (LLVMIsAFCmpInst(in) && (LLVMGetFCmpPredicate(in) == LLVMRealUNO || LLVMGetFCmpPredicate(in) == LLVMRealORD)) {
            /* OpUnordered and OpOrdered are the Kernel capability's; a shader tests NaN as x != x
               (OpFUnordNotEqual): isnan, isordered, isunordered, and what the optimizer makes of
               NaN checks */
            int uno = LLVMGetFCmpPredicate(in) == LLVMRealUNO;
            LLVMValueRef x = LLVMGetOperand(in, 0), y = LLVMGetOperand(in, 1);
            LLVMPositionBuilderBefore(w.b, in);
            x = LLVMBuildFCmp(w.b, uno ? LLVMRealUNE : LLVMRealOEQ, x, x, "");
            y = LLVMBuildFCmp(w.b, uno ? LLVMRealUNE : LLVMRealOEQ, y, y, "");
            r = uno ? LLVMBuildOr(w.b, x, y, "") : LLVMBuildAnd(w.b, x, y, "");
            LLVMReplaceAllUsesWith(in, r);
            LLVMInstructionEraseFromParent(in);
            count++;
            continue;
        }
        for (k = 0; k < sizeof names / sizeof *names; k++)
            if (strncmp(name, names[k], strlen(names[k])) == 0) break;
        if (k == sizeof names / sizeof *names) continue;
        a = LLVMGetOperand(in, 0);
        if ((k == 6 || k == 11) && gpucompile_lower__bits(LLVMTypeOf(a)) == 32) continue; /* GLSL's SAbs, OpBitCount */
        LLVMPositionBuilderBefore(w.b, in);
        switch (k) {
        case 0: r = gpucompile_lower__clz(&w, a); break;
        case 1: r = gpucompile_lower__ctz(&w, a); break;
        case 2: case 3: r = gpucompile_lower__add_sat(&w, a, LLVMGetOperand(in, 1), k == 3); break;
        case 4: case 5: r = gpucompile_lower__sub_sat(&w, a, LLVMGetOperand(in, 1), k == 5); break;
        case 6: {
            LLVMValueRef z = gpucompile_lower__ki(LLVMTypeOf(a), 0);
            r = LLVMBuildSelect(w.b, LLVMBuildICmp(w.b, LLVMIntSLT, a, z, ""), LLVMBuildSub(w.b, z, a, ""), a, "");
            break;
        }
        case 7: case 8: r = gpucompile_lower__funnel(&w, a, LLVMGetOperand(in, 1), LLVMGetOperand(in, 2), k == 8); break;
        case 9: r = gpucompile_lower__copysign(&w, a, LLVMGetOperand(in, 1)); break;
        case 11: r = gpucompile_lower__popcount(&w, a); break;
        default: { /* bswap: byte k to byte n - 1 - k, by shifts and masks */
            LLVMTypeRef t = LLVMTypeOf(a);
            unsigned bits = gpucompile_lower__bits(t), j;
            for (j = 0; j < bits / 8; j++) {
                LLVMValueRef byte = LLVMBuildAnd(w.b, LLVMBuildLShr(w.b, a, gpucompile_lower__ki(t, 8 * j), ""), gpucompile_lower__ki(t, 0xff), "");
                byte = LLVMBuildShl(w.b, byte, gpucompile_lower__ki(t, bits - 8 - 8 * j), "");
                r = r ? LLVMBuildOr(w.b, r, byte, "") : byte;
            }
            break;
        }
        }
        if (!r) continue;
        LLVMReplaceAllUsesWith(in, r);
        LLVMInstructionEraseFromParent(in);
        count++;
    }
    LLVMDisposeBuilder(w.b);
    return count;
}

GPUCOMPILE_DEF gpucompile_result gpucompile_lower_flags(gpucompile_job *job, const gpucompile_target *target, gpucompile_lower_options *options) {
    const char *ws = gpucompile_target_flag_value(target, "workgroup_size"), *lm = gpucompile_target_flag_value(target, "local_memory");
    const char *wp = gpucompile_target_flag_value(target, "warp_size");
    memset(options, 0, sizeof *options);
    if (ws && *ws == '"') ws++;
    if (lm && *lm == '"') lm++;
    if (wp && *wp == '"') wp++;
    if (wp && (sscanf(wp, "%u", &options->warp_size) != 1 || !options->warp_size || options->warp_size > 32 || (options->warp_size & (options->warp_size - 1))))
        return gpucompile_job_fail(job, GPUCOMPILE_ERROR_INVALID_TARGET, "flag warp_size: the lanes of CUDA's warp, a power of two up to 32");
    if (ws && sscanf(ws, "%u,%u,%u", &options->local_size[0], &options->local_size[1], &options->local_size[2]) < 1)
        return gpucompile_job_fail(job, GPUCOMPILE_ERROR_INVALID_TARGET, "flag workgroup_size: \"X,Y,Z\" (kernels without reqd_work_group_size)");
    if (lm && sscanf(lm, "%u", &options->local_bytes) != 1)
        return gpucompile_job_fail(job, GPUCOMPILE_ERROR_INVALID_TARGET, "flag local_memory: the bytes of each local pointer parameter");
    return GPUCOMPILE_OK;
}

/* Is v used: by an instruction, another variable's initializer, or a constant expression that
   is (the optimizer leaves constant expressions nothing uses, off a table it copied and
   dropped). */
GPUCOMPILE_PRIVATE int gpucompile_lower__live(LLVMValueRef v, int depth) {
    LLVMUseRef u;
    for (u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef user = LLVMGetUser(u);
        if (!LLVMIsAConstantExpr(user) || depth > 8 || gpucompile_lower__live(user, depth + 1)) return 1;
    }
    return 0;
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
    /* sizes not given are the launch's where the target can take them then */
    w.size_launch = target->spec_constant && !o.local_size[0] && !o.local_size[1] && !o.local_size[2];
    w.bytes_launch = target->spec_constant && !o.local_bytes;
    w.next_spec = GPUCOMPILE_LOWER_FIRST_LENGTH;
    if (!o.local_size[0]) o.local_size[0] = 64;
    if (!o.local_size[1]) o.local_size[1] = 1;
    if (!o.local_size[2]) o.local_size[2] = 1;
    if (!o.local_bytes) o.local_bytes = 4096;
    w.warp = o.warp_size ? o.warp_size : 32;
    if (w.warp > 32 || (w.warp & (w.warp - 1)))
        return gpucompile_lower__fail(&w, GPUCOMPILE_ERROR_INVALID_ARGUMENT, "gpucompile_lower_kernels: warp_size %u (a power of two up to 32)", w.warp);
    w.m = module;
    w.ctx = LLVMGetModuleContext(module);
    w.dl = LLVMGetModuleDataLayout(module);
    w.i32 = LLVMInt32TypeInContext(w.ctx);
    w.i64 = LLVMInt64TypeInContext(w.ctx);
    w.b = LLVMCreateBuilderInContext(w.ctx);
    memcpy(w.wg, o.local_size, sizeof w.wg);
    memcpy(w.def_wg, o.local_size, sizeof w.def_wg);
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
    if (w.inline_after && gpucompile_lower__inline_made(&w) != GPUCOMPILE_OK) goto done;
    if (gpucompile_lower__split_wide(&w, 0) != GPUCOMPILE_OK || gpucompile_lower__split_wide(&w, 1) != GPUCOMPILE_OK ||
        gpucompile_lower__addresses(&w) != GPUCOMPILE_OK)
        goto done;
    for (fn = LLVMGetFirstFunction(module); fn; fn = LLVMGetNextFunction(fn)) {
        if (LLVMIsDeclaration(fn)) continue;
        gpucompile_lower__vec3_memory(&w, fn);
        if (gpucompile_lower__private_arrays(&w, fn, u) != GPUCOMPILE_OK) goto done;
    }
    if (gpucompile_lower__generic(&w, 0) != GPUCOMPILE_OK || gpucompile_lower__workgroup_vars(&w, u) != GPUCOMPILE_OK || gpucompile_lower__plan(&w, &pp) != GPUCOMPILE_OK) goto done;
    if (pp.words) {
        LLVMTypeRef st = LLVMStructCreateNamed(w.ctx, "gpucompile.push"), *words = (LLVMTypeRef *)malloc(pp.words * sizeof *words);
        unsigned k;
        if (!words) {
            gpucompile_lower__fail(&w, GPUCOMPILE_ERROR_OUT_OF_MEMORY, "out of memory");
            goto done;
        }
        for (k = 0; k < pp.words; k++) words[k] = w.i32;
        LLVMStructSetBody(st, words, pp.words, 0);
        free(words);
        pc = LLVMAddGlobalInAddressSpace(module, st, "gpucompile.push", w.t->push_space);
        LLVMSetLinkage(pc, LLVMExternalLinkage);
        LLVMSetVisibility(pc, LLVMHiddenVisibility);
        LLVMSetExternallyInitialized(pc, 1);
    }
    for (i = 0; i < nk; i++) {
        LLVMValueRef s;
        int warp = LLVMGetStringAttributeAtIndex(kernels[i], LLVMAttributeFunctionIndex, GPUCOMPILE_LOWER__WARP_ATTR,
                                                 (unsigned)strlen(GPUCOMPILE_LOWER__WARP_ATTR)) != NULL;
        md.len = 0;
        if (warp) { /* the sub-group size it needs */
            gpucompile_buf_printf(&md, GPUCOMPILE_LOWER_SUBGROUP_SIZE " %s %u", gpucompile_value_name(kernels[i]), w.warp);
            s = LLVMMDStringInContext(w.ctx, md.data, (unsigned)md.len);
            LLVMAddNamedMetadataOperand(module, w.t->params_metadata, LLVMMDNodeInContext(w.ctx, &s, 1));
            md.len = 0;
        }
        gpucompile_buf_str(&md, "");
        if (gpucompile_lower__kernel(&w, kernels[i], &o, pc, u, (unsigned)i, &md) != GPUCOMPILE_OK) goto done;
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
            if (!gpucompile_lower__live(g, 0) && g != pc) {
                LLVMReplaceAllUsesWith(g, LLVMGetPoison(LLVMTypeOf(g))); /* what still names it: constant expressions nothing uses */
                LLVMDeleteGlobal(g);
            }
        }
    }
    for (fn = LLVMGetFirstFunction(module); fn; fn = LLVMGetNextFunction(fn)) /* a shader module exports nothing (else: Linkage) */
        if (!LLVMIsDeclaration(fn) && !LLVMGetStringAttributeAtIndex(fn, LLVMAttributeFunctionIndex, w.t->entry_attribute, (unsigned)strlen(w.t->entry_attribute))) LLVMSetLinkage(fn, LLVMInternalLinkage);
    if (gpucompile_lower__undefined(&w) != GPUCOMPILE_OK || gpucompile_lower__generic(&w, 1) != GPUCOMPILE_OK ||
        gpucompile_lower__shapes(&w) != GPUCOMPILE_OK)
        goto done;
    gpucompile_lower_narrow(module); /* the element indices this rewrite computes in 64 bits among them */
    gpucompile_lower_expand(module); /* what the passes above made of the library's IR; after the narrowing, which counts bits in 32 */
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
        LLVMSetLinkage(fn, LLVMInternalLinkage); /* gone once inlined: a kept external one is exported, which needs Linkage */
        n++;
    }
    return n;
}
#ifdef __cplusplus
}
#endif
#endif /* GPUCOMPILE_LOWER_IMPLEMENTED */
