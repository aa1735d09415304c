/* gpucompile_spirv.h - the SPIR-V backend of gpucompile: #gpu.spirv / #xevm.target to a SPIR-V
   module (LLVM's SPIR-V code generator, LLVM 22), and an mgpu* runtime over OpenCL 3.0 that
   loads it (clCreateProgramWithIL) on any OpenCL device that takes SPIR-V.

   Include gpucompile.h first. The implementation is compiled where GPUCOMPILE_IMPLEMENTATION
   (with the core's) or GPUCOMPILE_SPIRV_IMPLEMENTATION (in a file of its own; not with
   GPUCOMPILE_STATIC) is defined; it registers itself at start-up. GPUCOMPILE_SPIRV_RUNTIME in one file adds the mgpu* runtime over OpenCL (instead of
   the CUDA or HIP one: one runtime per program).

   Targets: #gpu.spirv<O, triple, chip, features, flags, link> (ours) and MLIR 22's
   #xevm.target<O, triple, chip, flags, linkFiles>; triple "spirv64-unknown-unknown" (or
   spirv32-/spirv-), chip "bmg" by default. The chip names the device family for MLIR's XeVM
   and is not given to LLVM (its SPIR-V code generator knows no processors).
   Inputs: LLVM IR with spir_kernel functions and OpenCL builtins as LLVM's SPIR-V backend takes
   them (`declare spir_func i64 @_Z13get_global_idj(i32)`), as clang-22 emits OpenCL C for
   spirv64. Formats: llvm (bitcode), isa (SPIR-V assembly text, as spirv-as reads it), bin (the
   SPIR-V module, as clCreateProgramWithIL takes it). On an LLVM without the SPIRV target
   (Debian's LLVM 19) the target fails verification, saying so.

   The runtime: libOpenCL.so.1 (OpenCL.dll) opened on first use, or gpucompile_runtime_set_library()
   / $GPUCOMPILE_LIBOPENCL; the first device (of mgpuSetDefaultDevice's ordinal, over all
   platforms) whose CL_DEVICE_IL_VERSION names SPIR-V. Its arch (gpucompile_runtime_device_arch)
   is "spirv", which run-time selection answers with the binary's SPIR-V module. Memory is
   shared virtual memory (clSVMAlloc; fine-grained where the device has it), so pointer
   arguments are plain pointers. A stream is a command queue. Launch: global size grid * block,
   local size block. Argument sizes come from the SPIR-V module itself (the kernel's OpFunction
   type), so host code from gpucompile --host or MLIR needs nothing extra; a caller may instead
   pass `extra` as an array of size_t sizes, one per parameter. A kernel parameter that is a pointer to
   Workgroup (local) memory is OpenCL's form of dynamic shared memory: it gets the launch's
   sharedMemBytes (clSetKernelArg with a NULL value), whatever the host passed for it. Images:
   mgpuImageCreate (clCreateImage), mgpuImageWrite / mgpuImageRead (on the stream's queue),
   mgpuImageFree; an image parameter takes the handle as a pointer parameter does, a sampler_t
   parameter an int32_t of OpenCL C's sampler bits (one cl_sampler per value, kept). */
#ifndef GPUCOMPILE_SPIRV_H
#define GPUCOMPILE_SPIRV_H
#define GPUCOMPILE_SPIRV_WORDS /* gpucompile_runtime.h's walk over a module's instructions, for the implementation */
#if defined(GPUCOMPILE_H) /* the backend; the runtime alone needs neither LLVM nor gpucompile.h */
#ifdef __cplusplus
extern "C" {
#endif
GPUCOMPILE_API const gpucompile_backend *gpucompile_spirv_backend(void);
/* 1 when the LLVM in use has the SPIR-V code generator. */
GPUCOMPILE_API int gpucompile_spirv_available(void);
#ifdef __cplusplus
}
#endif
#elif !defined(GPUCOMPILE_SPIRV_RUNTIME)
#error "gpucompile_spirv.h: include gpucompile.h first (or define GPUCOMPILE_SPIRV_RUNTIME for the runtime alone)"
#endif
#endif /* GPUCOMPILE_SPIRV_H */

/* ==== [section: selection] ===============================================================
   What the backend and the runtime share, with no LLVM: the rule that picks an object for a
   device. */
#if ((defined(GPUCOMPILE_H) && (defined(GPUCOMPILE_IMPLEMENTATION) || defined(GPUCOMPILE_SPIRV_IMPLEMENTATION))) || \
     defined(GPUCOMPILE_SPIRV_RUNTIME)) && !defined(GPUCOMPILE_SPIRV__SELECTION_IMPLEMENTED)
#define GPUCOMPILE_SPIRV__SELECTION_IMPLEMENTED
#if defined(GPUCOMPILE_SPIRV_RUNTIME) && !defined(GPUCOMPILE_RUNTIME_IMPLEMENTATION)
#define GPUCOMPILE_RUNTIME_IMPLEMENTATION
#endif
#if (defined(GPUCOMPILE_IMPLEMENTATION) || defined(GPUCOMPILE_SPIRV_IMPLEMENTATION)) && !defined(GPUCOMPILE_BACKEND_IMPLEMENTATION)
#define GPUCOMPILE_BACKEND_IMPLEMENTATION /* the backend helpers of gpucompile_runtime.h, also without the core */
#endif
#include "gpucompile_runtime.h"
#ifdef __cplusplus
extern "C" {
#endif
#define GPUCOMPILE_SPIRV__TRIPLES "spirv,spirv32,spirv64,!*-*-vulkan*" /* OpenCL's SPIR-V triples, not Vulkan's */
#define GPUCOMPILE_SPIRV__MAGIC "\x03\x02\x23\x07" /* 0x07230203, little-endian: a module's first word */

/* The device "spirv" (an OpenCL device that takes SPIR-V) takes a SPIR-V module: an object of
   a SPIR-V triple in format bin (NULL: none), never one for Vulkan (spirv-unknown-vulkan1.3-compute:
   gpucompile_vulkan.h's); -2 for another device. An object without a triple
   (an offload entry of another writer) is told by its chip: not NVIDIA's or AMD's names. */
GPUCOMPILE_PRIVATE int gpucompile_spirv__score(const char *triple, const char *chip, const char *format, const char *features,
                                                const char *device, const char **why) {
    (void)features;
    if (strcmp(device, "spirv") != 0) return -2;
    if (!format || strcmp(format, "bin") != 0 || !chip || !gpucompile_triple_in(GPUCOMPILE_SPIRV__TRIPLES, triple)) return -1;
    if ((!triple || !*triple) && (strncmp(chip, "sm_", 3) == 0 || strncmp(chip, "compute_", 8) == 0 || strncmp(chip, "gfx", 3) == 0))
        return -1;
    *why = "SPIR-V module";
    return 1;
}
#ifdef __cplusplus
}
#endif
#endif /* selection */

/* ==== [section: backend] ================================================================= */
#if defined(GPUCOMPILE_H) && (defined(GPUCOMPILE_IMPLEMENTATION) || defined(GPUCOMPILE_SPIRV_IMPLEMENTATION)) && \
    !defined(GPUCOMPILE_SPIRV_IMPLEMENTED)
#define GPUCOMPILE_SPIRV_IMPLEMENTED
#define GPUCOMPILE_BACKEND_IMPLEMENTATION /* the backend helpers of gpucompile_runtime.h, also without the core */
#include "gpucompile_runtime.h"
#ifdef __cplusplus
extern "C" {
#endif

/* An LLVM built without the SPIR-V target (Debian's LLVM 19) has none of its initialisers:
   they are looked up at run time. */
GPUCOMPILE_DEF int gpucompile_spirv_available(void) { return gpucompile_llvm_target_available("SPIRV"); }

GPUCOMPILE_PRIVATE void gpucompile_spirv__initialize(void) { gpucompile_llvm_target_initialize("SPIRV"); }

GPUCOMPILE_PRIVATE gpucompile_result gpucompile_spirv__verify(const gpucompile_target *t, const gpucompile_logger *logger) {
    const char *triple = gpucompile_target_triple(t);
    if (!gpucompile_triple_in(GPUCOMPILE_SPIRV__TRIPLES, triple))
        return gpucompile_log_target(logger, "The target triple '%.200s' is not a SPIR-V triple of OpenCL (spirv64-..., spirv32-... or spirv-...; Vulkan's are not).", triple);
    if (t->upstream && *gpucompile_target_features(t)) return gpucompile_log_target(logger, "#xevm.target takes no features.");
    if (!gpucompile_spirv_available())
        return gpucompile_log_target(logger, "LLVM %d here has no SPIR-V code generator (the SPIRV target; LLVM 22 has it).", LLVM_VERSION_MAJOR);
    return GPUCOMPILE_OK;
}

/* c, fast, cold, spir_func, spir_kernel */
GPUCOMPILE_PRIVATE int gpucompile_spirv__cc_ok(unsigned cc) { return cc == 0 || cc == 8 || cc == 9 || cc == 75 || cc == 76; }

/* Run-time selection: the rule is in [section: selection]. */
GPUCOMPILE_PRIVATE int gpucompile_spirv__select_score(const gpucompile_object *o, const char *device, const char **why) {
    return gpucompile_spirv__score(o ? o->triple : NULL, o ? o->chip : NULL, o ? gpucompile_format_string(o->format) : NULL, NULL,
                                   device, why);
}

/* LLVM's SPIR-V code generator knows no processors (it would warn on stderr about "bmg"). */
GPUCOMPILE_PRIVATE gpucompile_result gpucompile_spirv__configure(gpucompile_job *job) {
    gpucompile_job_free(job, job->cpu);
    job->cpu = gpucompile_job_strdup(job, "");
    return job->cpu ? GPUCOMPILE_OK : GPUCOMPILE_ERROR_OUT_OF_MEMORY;
}

GPUCOMPILE_PRIVATE int gpucompile_spirv__is_kernel(gpucompile_job *job, LLVMValueRef fn) {
    (void)job;
    return LLVMGetFunctionCallConv(fn) == 76; /* spir_kernel */
}

/* OpenCL C's get_image_channel_data_type answers CLK_SNORM_INT8 (0x10D0) and up; SPIR-V's
   OpImageQueryFormat answers its Image Channel Data Type (SnormInt8 0 and up), to which the
   OpenCL SPIR-V environment adds 0x10D0, as the Khronos translator writes. LLVM 22 writes the
   built-in's call as the instruction alone (Intel's CPU runtime then answers 7 for
   CL_SIGNED_INT8), so each call's result gets the 0x10D0 here (get_image_channel_order stays a
   call the driver's library answers). After linking: library code's calls too. */
GPUCOMPILE_PRIVATE gpucompile_result gpucompile_spirv__post_link(gpucompile_job *job) {
    LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetModuleContext(job->module));
    LLVMValueRef fn;
    for (fn = LLVMGetFirstFunction(job->module); fn; fn = LLVMGetNextFunction(fn)) {
        LLVMUseRef u, next;
        if (!LLVMIsDeclaration(fn) || strncmp(gpucompile_value_name(fn), "_Z27get_image_channel_data_type", 31) != 0) continue;
        for (u = LLVMGetFirstUse(fn); u; u = next) {
            LLVMValueRef call = LLVMGetUser(u), add;
            next = LLVMGetNextUse(u);
            if (!LLVMIsACallInst(call) || LLVMGetCalledValue(call) != fn) continue;
            LLVMPositionBuilderBefore(b, LLVMGetNextInstruction(call));
            add = LLVMBuildAdd(b, call, LLVMConstInt(LLVMTypeOf(call), 0x10D0, 0), "");
            LLVMReplaceAllUsesWith(call, add);
            LLVMSetOperand(add, 0, call);
        }
    }
    LLVMDisposeBuilder(b);
    return GPUCOMPILE_OK;
}

/* The OpEntryPoint Kernel names of a SPIR-V module, added to obj when add (else only checked). */
GPUCOMPILE_PRIVATE gpucompile_result gpucompile_spirv__entry_points(gpucompile_object *obj, int add) {
    gpucompile_spirv_inst w;
    gpucompile_result r;
    gpucompile_spirv_begin(&w, obj->data, obj->size);
    while (gpucompile_spirv_next(&w)) {
        if (w.op == 15 && w.wc > 3 && gpucompile_spirv_operand(&w, 1) == 6) { /* OpEntryPoint Kernel */
            const char *name = (const char *)w.d + 4 * (w.at + 3);
            const char *end = (const char *)memchr(name, 0, 4 * (w.wc - 3));
            if (!end) return GPUCOMPILE_ERROR_INVALID_BINARY;
            if (add && (r = gpucompile_object_add_kernel_n(obj, name, (size_t)(end - name))) != GPUCOMPILE_OK) return r;
        }
    }
    return w.bad ? GPUCOMPILE_ERROR_INVALID_BINARY : GPUCOMPILE_OK;
}

/* An object's kernels: none added unless the whole module reads. */
GPUCOMPILE_PRIVATE gpucompile_result gpucompile_spirv__find_kernels(gpucompile_object *obj) {
    gpucompile_result r;
    if (obj->num_kernels || obj->format != GPUCOMPILE_FORMAT_BIN) return GPUCOMPILE_OK;
    if (obj->size / 4 < 5 || memcmp(obj->data, GPUCOMPILE_SPIRV__MAGIC, 4) != 0) return GPUCOMPILE_ERROR_INVALID_BINARY;
    if ((r = gpucompile_spirv__entry_points(obj, 0)) != GPUCOMPILE_OK) return r;
    return gpucompile_spirv__entry_points(obj, 1);
}

/* The module's words: blocks LLVM 22 gave an earlier compile's id get their own
   (gpucompile_spirv_relabel). Assembly text is LLVM's as it is. */
GPUCOMPILE_PRIVATE gpucompile_result gpucompile_spirv__finish(gpucompile_job *job, gpucompile_format format) {
    size_t n = LLVMGetBufferSize(job->emitted);
    uint32_t *w;
    int relabeled;
    if (format != GPUCOMPILE_FORMAT_BIN || n % 4) return GPUCOMPILE_OK;
    if (!(w = (uint32_t *)gpucompile_job_alloc(job, n))) return GPUCOMPILE_ERROR_OUT_OF_MEMORY;
    memcpy(w, LLVMGetBufferStart(job->emitted), n);
    if ((relabeled = gpucompile_spirv_relabel(w, n / 4)) < 0) {
        gpucompile_job_free(job, w);
        return gpucompile_job_fail(job, GPUCOMPILE_ERROR_LLVM, GPUCOMPILE_SPIRV_RELABEL_FAILED);
    }
    if (relabeled)
        gpucompile_job_log(job, GPUCOMPILE_SEVERITY_NOTE, GPUCOMPILE_OK, "spirv", GPUCOMPILE_SPIRV_RELABELED, relabeled);
    job->result_data = (unsigned char *)w;
    job->result_size = n;
    return GPUCOMPILE_OK;
}

GPUCOMPILE_PRIVATE void gpucompile_spirv__fill(gpucompile_backend *t) {
    gpucompile_backend_names(t, GPUCOMPILE_TARGET_CUSTOM, "spirv", "gpu.spirv", "xevm.target", "spirv64-unknown-unknown", "bmg");
    t->params[0] = "O,triple,chip,features,flags,link";
    t->params[1] = "O,triple,chip,flags,link"; /* MLIR's #xevm.target has no features */
    t->link_name[1] = "linkFiles";
    t->intrinsic_prefixes = "spv";
    /* OpenCL builtins (mangled) and SPIR-V ones: the code generator's; clang's call for a
       program-scope sampler_t, which it writes as OpConstantSampler */
    t->allowed_undefined = "_Z*,__spirv_*,__translate_sampler_initializer";
    t->shared_address_space = 3; /* OpenCL local (Workgroup) */
    t->initialize = gpucompile_spirv__initialize;
    t->configure = gpucompile_spirv__configure;
    t->post_link = gpucompile_spirv__post_link;
    t->is_kernel = gpucompile_spirv__is_kernel;
    t->bin_from = LLVMObjectFile; /* the SPIR-V module as it is */
    t->finish = gpucompile_spirv__finish;
    t->emitted_wrong = gpucompile_spirv_ids_wrong; /* LLVM 22 keeps its module analysis in a static: block ids of an earlier compile, one compile at a time */
    t->find_kernels = gpucompile_spirv__find_kernels;
    t->verify = gpucompile_spirv__verify;
    t->calling_convention_ok = gpucompile_spirv__cc_ok;
    t->select_score = gpucompile_spirv__select_score;
    t->device_help = "spirv (an OpenCL device that takes SPIR-V)";
    t->triples = GPUCOMPILE_SPIRV__TRIPLES;
    /* SYCL's: LLVM's offload model gives that kind to the SPIR-V images its runtime hands
       to an OpenCL driver (clCreateProgramWithIL); there is no OpenCL kind */
    t->offload_kind = 8;
    t->image_kind_bin = 6; /* IMG_SPIRV */
    t->cache_version = "spirv 2"; /* 2: get_image_channel_data_type's 0x10D0 */
    t->help = "OpenCL devices that take SPIR-V (an LLVM with the SPIRV target: 22):\n"
              "SPIR-V assembly text and modules for clCreateProgramWithIL";
}

GPUCOMPILE_BACKEND_DEFINE(spirv)

#ifdef __cplusplus
}
#endif
#endif /* GPUCOMPILE_SPIRV_IMPLEMENTATION */

/* ==== [section: runtime (host embedding)] ================================================
   The mgpu* runtime ABI over OpenCL 3.0 (see the top of this file). Opt in: define
   GPUCOMPILE_SPIRV_RUNTIME in one file. A missing libOpenCL, no platform, or no device that
   takes SPIR-V is reported once and remembered; every later call fails quietly. */
#if defined(GPUCOMPILE_SPIRV_RUNTIME) && !defined(GPUCOMPILE_SPIRV_RUNTIME_IMPLEMENTED)
#define GPUCOMPILE_SPIRV_RUNTIME_IMPLEMENTED
#define GPUCOMPILE_RUNTIME_VENDOR /* gpucompile_runtime.h refuses a second vendor runtime */
#include "gpucompile_runtime.h"
#include <limits.h>
#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32)
#define GPUCOMPILE_SPIRV__LIBOPENCL "OpenCL.dll"
#else
#define GPUCOMPILE_SPIRV__LIBOPENCL "libOpenCL.so.1"
#endif

/* An image of mgpuImageCreate: its cl_mem, an image1d_buffer's buffer, the region a copy covers. */
typedef struct gpucompile_spirv__image {
    void *mem, *buffer;
    size_t region[3];
    struct gpucompile_spirv__image *next;
} gpucompile_spirv__image;

/* cl.h's cl_image_desc (OpenCL 2.0's: the union's first member, buffer) */
typedef struct gpucompile_spirv__image_desc {
    unsigned type;
    size_t width, height, depth, array_size, row_pitch, slice_pitch;
    unsigned mip_levels, samples;
    void *buffer;
} gpucompile_spirv__image_desc;

/* The OpenCL entry points we use (cl.h's types reduced to what the ABI needs). */
typedef struct gpucompile_spirv__cl {
    void *platform, *device, *context, *queue; /* queue: for calls without a stream */
    int fine_grain;                              /* CL_DEVICE_SVM_FINE_GRAIN_BUFFER */
    /* the images made and not freed: a launch, a copy or a free tells them from anything else by
       this list (a SPIR-V module says which parameters are images, not what the host passed) */
    gpucompile_spirv__image *images;
    void *samplers[64]; /* per sampler_t value (its bits < 64): made at its first launch, kept to the end */
    int (*GetPlatformIDs)(unsigned, void **, unsigned *);
    int (*GetDeviceIDs)(void *, unsigned long long, unsigned, void **, unsigned *);
    int (*GetDeviceInfo)(void *, unsigned, size_t, void *, size_t *);
    void *(*CreateContext)(const intptr_t *, unsigned, void *const *, void (*)(const char *, const void *, size_t, void *), void *, int *);
    void *(*CreateCommandQueueWithProperties)(void *, void *, const unsigned long long *, int *);
    int (*ReleaseCommandQueue)(void *);
    int (*Finish)(void *);
    void *(*CreateProgramWithIL)(void *, const void *, size_t, int *);
    int (*BuildProgram)(void *, unsigned, void *const *, const char *, void (*)(void *, void *), void *);
    int (*GetProgramBuildInfo)(void *, void *, unsigned, size_t, void *, size_t *);
    int (*ReleaseProgram)(void *);
    void *(*CreateKernel)(void *, const char *, int *);
    int (*ReleaseKernel)(void *);
    int (*SetKernelArg)(void *, unsigned, size_t, const void *);
    int (*SetKernelArgSVMPointer)(void *, unsigned, const void *);
    int (*EnqueueNDRangeKernel)(void *, void *, unsigned, const size_t *, const size_t *, const size_t *, unsigned, const void *, void *);
    void *(*SVMAlloc)(void *, unsigned long long, size_t, unsigned);
    void (*SVMFree)(void *, void *);
    int (*EnqueueSVMMemcpy)(void *, unsigned, void *, const void *, size_t, unsigned, const void *, void *);
    int (*EnqueueSVMMemFill)(void *, void *, const void *, size_t, size_t, unsigned, const void *, void *);
    void *(*CreateBuffer)(void *, unsigned long long, size_t, void *, int *);
    void *(*CreateImage)(void *, unsigned long long, const unsigned *, const gpucompile_spirv__image_desc *, void *, int *);
    int (*ReleaseMemObject)(void *);
    int (*EnqueueWriteImage)(void *, void *, unsigned, const size_t *, const size_t *, size_t, size_t, const void *, unsigned, const void *, void *);
    int (*EnqueueReadImage)(void *, void *, unsigned, const size_t *, const size_t *, size_t, size_t, void *, unsigned, const void *, void *);
    void *(*CreateSamplerWithProperties)(void *, const unsigned long long *, int *);
} gpucompile_spirv__cl;
static gpucompile_spirv__cl gpucompile_spirv__rt;

/* Reports an OpenCL error code by name, and what it concerns (may be NULL). */
GPUCOMPILE_PRIVATE void gpucompile_spirv__rt_check_for(int r, const char *call, const char *what) {
    static const struct { int code; const char *text; } known[] = {
        {-1, "CL_DEVICE_NOT_FOUND: no OpenCL device"}, {-4, "CL_MEM_OBJECT_ALLOCATION_FAILURE"},
        {-5, "CL_OUT_OF_RESOURCES"}, {-6, "CL_OUT_OF_HOST_MEMORY"}, {-10, "CL_IMAGE_FORMAT_NOT_SUPPORTED"},
        {-11, "CL_BUILD_PROGRAM_FAILURE"}, {-30, "CL_INVALID_VALUE"}, {-36, "CL_INVALID_COMMAND_QUEUE"},
        {-38, "CL_INVALID_MEM_OBJECT"}, {-39, "CL_INVALID_IMAGE_FORMAT_DESCRIPTOR"}, {-40, "CL_INVALID_IMAGE_SIZE"},
        {-41, "CL_INVALID_SAMPLER"}, {-42, "CL_INVALID_BINARY"},
        {-44, "CL_INVALID_PROGRAM"}, {-45, "CL_INVALID_PROGRAM_EXECUTABLE"}, {-46, "CL_INVALID_KERNEL_NAME"},
        {-48, "CL_INVALID_KERNEL"}, {-49, "CL_INVALID_ARG_INDEX"}, {-50, "CL_INVALID_ARG_VALUE"},
        {-51, "CL_INVALID_ARG_SIZE"}, {-52, "CL_INVALID_KERNEL_ARGS"}, {-53, "CL_INVALID_WORK_DIMENSION"},
        {-54, "CL_INVALID_WORK_GROUP_SIZE"}, {-55, "CL_INVALID_WORK_ITEM_SIZE"}, {-65, "CL_INVALID_IMAGE_DESCRIPTOR"},
        {-1001, "CL_PLATFORM_NOT_FOUND_KHR: no OpenCL platform (no ICD?)"}};
    char msg[384];
    const char *name = "OpenCL error";
    size_t i;
    if (r == 0) return;
    for (i = 0; i < sizeof known / sizeof known[0]; i++)
        if (known[i].code == r) name = known[i].text;
    snprintf(msg, sizeof msg, "%s (%d)%s%s", name, r, what ? ": " : "", what ? what : "");
    gpucompile_runtime_report(call, r, msg);
}

GPUCOMPILE_PRIVATE void gpucompile_spirv__rt_check(int r, const char *call) { gpucompile_spirv__rt_check_for(r, call, NULL); }

GPUCOMPILE_PRIVATE const char *gpucompile_spirv__rt_load(void *lib) {
    static const char *const names[] = {"clGetPlatformIDs", "clGetDeviceIDs", "clGetDeviceInfo", "clCreateContext",
        "clCreateCommandQueueWithProperties", "clReleaseCommandQueue", "clFinish", "clCreateProgramWithIL", "clBuildProgram",
        "clGetProgramBuildInfo", "clReleaseProgram", "clCreateKernel", "clReleaseKernel", "clSetKernelArg",
        "clSetKernelArgSVMPointer", "clEnqueueNDRangeKernel", "clSVMAlloc", "clSVMFree", "clEnqueueSVMMemcpy", "clEnqueueSVMMemFill",
        "clCreateBuffer", "clCreateImage", "clReleaseMemObject", "clEnqueueWriteImage", "clEnqueueReadImage", "clCreateSamplerWithProperties"};
    gpucompile_spirv__cl *c = &gpucompile_spirv__rt;
    void *fns[] = {&c->GetPlatformIDs, &c->GetDeviceIDs, &c->GetDeviceInfo, &c->CreateContext, &c->CreateCommandQueueWithProperties,
        &c->ReleaseCommandQueue, &c->Finish, &c->CreateProgramWithIL, &c->BuildProgram, &c->GetProgramBuildInfo, &c->ReleaseProgram,
        &c->CreateKernel, &c->ReleaseKernel, &c->SetKernelArg, &c->SetKernelArgSVMPointer, &c->EnqueueNDRangeKernel, &c->SVMAlloc,
        &c->SVMFree, &c->EnqueueSVMMemcpy, &c->EnqueueSVMMemFill, &c->CreateBuffer, &c->CreateImage, &c->ReleaseMemObject,
        &c->EnqueueWriteImage, &c->EnqueueReadImage, &c->CreateSamplerWithProperties};
    size_t i;
    for (i = 0; i < sizeof names / sizeof names[0]; i++)
        if (!gpucompile_dlfn(lib, names[i], fns[i])) return names[i];
    return NULL;
}

/* The mgpuSetDefaultDevice'th device, over all platforms, whose IL versions name SPIR-V. */
GPUCOMPILE_PRIVATE int gpucompile_spirv__rt_start(int *ordinal, char *arch, size_t arch_size, const char **call) {
    gpucompile_spirv__cl *c = &gpucompile_spirv__rt;
    void *platforms[16], *devices[16];
    unsigned np = 0, nd, i, j;
    int r, seen = 0;
    char il[256];
    *call = "clGetPlatformIDs";
    if ((r = c->GetPlatformIDs(16, platforms, &np)) != 0) return r;
    for (i = 0; i < np && i < 16 && !c->device; i++) {
        nd = 0;
        if (c->GetDeviceIDs(platforms[i], 0xFFFFFFFFull /* CL_DEVICE_TYPE_ALL */, 16, devices, &nd) != 0) continue;
        for (j = 0; j < nd && j < 16 && !c->device; j++) {
            il[0] = 0;
            if (c->GetDeviceInfo(devices[j], 0x105B /* CL_DEVICE_IL_VERSION */, sizeof il, il, NULL) != 0 || !strstr(il, "SPIR-V")) continue;
            if (seen++ == *ordinal) { c->platform = platforms[i]; c->device = devices[j]; }
        }
    }
    *call = "clGetDeviceIDs";
    if (!c->device) return -1;
    {
        unsigned long long svm = 0;
        intptr_t props[3];
        props[0] = 0x1084; /* CL_CONTEXT_PLATFORM */
        props[1] = (intptr_t)c->platform;
        props[2] = 0;
        if (c->GetDeviceInfo(c->device, 0x1053 /* CL_DEVICE_SVM_CAPABILITIES */, sizeof svm, &svm, NULL) == 0) c->fine_grain = (svm & 2) != 0;
        *call = "clCreateContext";
        c->context = c->CreateContext(props, 1, &c->device, NULL, NULL, &r);
        if (r != 0) return r;
        *call = "clCreateCommandQueueWithProperties";
        c->queue = c->CreateCommandQueueWithProperties(c->context, c->device, NULL, &r);
        if (r != 0) return r;
    }
    snprintf(arch, arch_size, "spirv");
    return 0;
}

/* A loaded module: the program and a copy of the SPIR-V module (for the kernels' signatures). */
typedef struct gpucompile_spirv__module {
    void *program;
    unsigned char *spirv;
    size_t size;
    struct gpucompile_spirv__function *functions;
} gpucompile_spirv__module;

/* A kernel: per parameter its size and kind (0 by value, 1 global pointer, 2 local memory, 3 image,
   4 sampler). */
typedef struct gpucompile_spirv__function {
    void *kernel;
    unsigned num_params;
    size_t *sizes;
    unsigned char *kinds;
    struct gpucompile_spirv__function *next;
} gpucompile_spirv__function;

GPUCOMPILE_PRIVATE void *gpucompile_spirv__rt_module_load(const void *data, size_t size) {
    gpucompile_spirv__cl *c = &gpucompile_spirv__rt;
    gpucompile_spirv__module *m;
    int r = 0;
    gpucompile_spirv_inst w;
    if (!data || size < 20 || size % 4 || memcmp(data, GPUCOMPILE_SPIRV__MAGIC, 4) != 0) {
        gpucompile_runtime_report("clCreateProgramWithIL", -42, "not a SPIR-V module (little-endian, magic 0x07230203)");
        return NULL;
    }
    /* every instruction's word count fits: Intel's CPU runtime loops forever on a count of 0 */
    gpucompile_spirv_begin(&w, data, size);
    while (gpucompile_spirv_next(&w)) {}
    if (w.bad) {
        gpucompile_runtime_report("clCreateProgramWithIL", -42, "a malformed SPIR-V module (an instruction's word count is 0 or runs past the end)");
        return NULL;
    }
    if (!(m = (gpucompile_spirv__module *)calloc(1, sizeof *m)) || !(m->spirv = (unsigned char *)malloc(size))) {
        free(m);
        gpucompile_runtime_report("mgpuModuleLoad", -6, "out of host memory");
        return NULL;
    }
    memcpy(m->spirv, data, size);
    m->size = size;
    m->program = c->CreateProgramWithIL(c->context, data, size, &r);
    if (r == 0 && (r = c->BuildProgram(m->program, 1, &c->device, "", NULL, NULL)) != 0) {
        size_t n = 0;
        char *log = NULL;
        if (c->GetProgramBuildInfo(m->program, c->device, 0x1183 /* CL_PROGRAM_BUILD_LOG */, 0, NULL, &n) == 0 && n > 1 &&
            (log = (char *)malloc(n + 1)) != NULL && c->GetProgramBuildInfo(m->program, c->device, 0x1183, n, log, NULL) == 0) {
            log[n] = 0;
            gpucompile_runtime_report("clBuildProgram", r, log); /* the compiler's words */
        }
        free(log);
    }
    gpucompile_spirv__rt_check(r, m->program && r != 0 ? "clBuildProgram" : "clCreateProgramWithIL");
    if (r != 0) {
        if (m->program) c->ReleaseProgram(m->program);
        free(m->spirv);
        free(m);
        return NULL;
    }
    return m;
}

GPUCOMPILE_PRIVATE void gpucompile_spirv__rt_module_unload(void *module) {
    gpucompile_spirv__module *m = (gpucompile_spirv__module *)module;
    gpucompile_spirv__function *f, *next;
    for (f = m->functions; f; f = next) {
        next = f->next;
        gpucompile_spirv__rt.ReleaseKernel(f->kernel);
        free(f->sizes);
        free(f);
    }
    gpucompile_spirv__rt.ReleaseProgram(m->program);
    free(m->spirv);
    free(m);
}

/* The parameters of entry point name from the module: each one's size and kind. */
GPUCOMPILE_PRIVATE int gpucompile_spirv__signature(const gpucompile_spirv__module *m, const char *name, gpucompile_spirv__function *f) {
    gpucompile_spirv_inst w;
    size_t i, bound, ptr = 8;
    size_t *size, *fntype;
    unsigned char *kind;
    unsigned entry = 0, type = 0, p;
    int ok = 0;
    bound = gpucompile_spirv_begin(&w, m->spirv, m->size) ? gpucompile_spirv_word(&w, 3) : 0; /* loading checked the header */
    size = (size_t *)calloc(bound ? bound : 1, sizeof *size);
    kind = (unsigned char *)calloc(bound ? bound : 1, 1);
    fntype = (size_t *)calloc(bound ? bound : 1, sizeof *fntype);
    if (!size || !kind || !fntype) goto done;
    while (gpucompile_spirv_next(&w)) { /* entry point, addressing model, type sizes, function types */
        const unsigned op = w.op;
        unsigned a[5], k;
        for (k = 0; k < 5; k++) a[k] = gpucompile_spirv_operand(&w, k);
        if (op == 14 && w.wc > 1) ptr = a[1] == 1 ? 4 : 8; /* OpMemoryModel Physical32 / Physical64 */
        if (op == 15 && w.wc > 3 && a[1] == 6) { /* OpEntryPoint Kernel */
            const char *label = (const char *)w.d + 4 * (w.at + 3);
            if (memchr(label, 0, 4 * (w.wc - 3)) && strcmp(label, name) == 0) entry = a[2];
        }
        if (w.wc > 2 && a[1] < bound) {
            unsigned id = a[1];
            if (op == 21 || op == 22) size[id] = a[2] / 8; /* OpTypeInt, OpTypeFloat */
            if (op == 23 && w.wc > 3 && a[2] < bound) size[id] = size[a[2]] * (a[3] == 3 ? 4 : a[3]); /* OpTypeVector */
            if (op == 32 && w.wc > 3) { size[id] = ptr; kind[id] = a[2] == 4 ? 2 : 1; } /* OpTypePointer (Workgroup: local) */
            if (op == 33) fntype[id] = w.at; /* OpTypeFunction */
        }
        if ((op == 25 || op == 26) && a[1] < bound) { size[a[1]] = ptr; kind[a[1]] = op == 25 ? 3 : 4; } /* OpTypeImage, OpTypeSampler: handles */
        if (op == 54 && w.wc > 4 && a[2] == entry && entry) type = a[4]; /* OpFunction */
    }
    if (w.bad || !type || type >= bound || !fntype[type]) goto done;
    i = fntype[type];
    f->num_params = gpucompile_spirv_count(gpucompile_spirv_word(&w, i)) - 3;
    f->sizes = (size_t *)calloc(f->num_params + 1, sizeof *f->sizes + 1);
    if (!f->sizes) goto done;
    f->kinds = (unsigned char *)(f->sizes + f->num_params + 1);
    for (p = 0; p < f->num_params; p++) {
        unsigned t = gpucompile_spirv_word(&w, i + 3 + p);
        if (t >= bound || !size[t]) goto done; /* a struct or other by-value aggregate: unknown size */
        f->sizes[p] = size[t];
        f->kinds[p] = kind[t];
    }
    ok = 1;
done:
    free(size);
    free(kind);
    free(fntype);
    return ok;
}

GPUCOMPILE_PRIVATE void *gpucompile_spirv__rt_get_function(void *module, const char *name) {
    gpucompile_spirv__module *m = (gpucompile_spirv__module *)module;
    gpucompile_spirv__function *f;
    int r = 0;
    if (!m || !name) return NULL;
    if (!(f = (gpucompile_spirv__function *)calloc(1, sizeof *f))) return NULL;
    f->kernel = gpucompile_spirv__rt.CreateKernel(m->program, name, &r);
    if (r != 0) {
        gpucompile_spirv__rt_check(r, "clCreateKernel");
        free(f);
        return NULL;
    }
    if (!gpucompile_spirv__signature(m, name, f)) {
        gpucompile_runtime_report("mgpuModuleGetFunction", -52, "the SPIR-V module gives no parameter sizes for this kernel");
        gpucompile_spirv__rt.ReleaseKernel(f->kernel);
        free(f->sizes);
        free(f);
        return NULL;
    }
    gpucompile_lock(); /* the module owns its functions: freed with it */
    f->next = m->functions;
    m->functions = f;
    gpucompile_unlock();
    return f;
}

/* The image of mgpuImageCreate that handle is, or NULL; unlinked from the list with unlink.
   The lock is held. */
GPUCOMPILE_PRIVATE gpucompile_spirv__image *gpucompile_spirv__image_find(const void *handle, int unlink) {
    gpucompile_spirv__image **p;
    for (p = &gpucompile_spirv__rt.images; *p; p = &(*p)->next)
        if (*p == handle) {
            gpucompile_spirv__image *im = *p;
            if (unlink) *p = im->next;
            return im;
        }
    return NULL;
}

/* The cl_sampler for OpenCL C's sampler_t bits (CLK_NORMALIZED_COORDS_TRUE 1, CLK_ADDRESS_* 0 to
   8, CLK_FILTER_NEAREST 0x10 or LINEAR 0x20; neither is nearest), made at the first launch that
   passes them. *r: the error; bits that are no sampler are CL_INVALID_SAMPLER. The lock is held. */
GPUCOMPILE_PRIVATE void *gpucompile_spirv__sampler(int32_t bits, int *r) {
    gpucompile_spirv__cl *c = &gpucompile_spirv__rt;
    unsigned long long props[7];
    unsigned address = (unsigned)bits >> 1 & 7;
    if (bits < 0 || bits > 0x3F || address > 4 || (bits & 0x30) == 0x30) {
        *r = -41;
        return NULL;
    }
    if (!c->samplers[bits]) {
        props[0] = 0x1152; props[1] = (unsigned)bits & 1;      /* CL_SAMPLER_NORMALIZED_COORDS */
        props[2] = 0x1153; props[3] = 0x1130 + address;        /* CL_SAMPLER_ADDRESSING_MODE: CL_ADDRESS_NONE + */
        props[4] = 0x1154; props[5] = bits & 0x20 ? 0x1141 : 0x1140; /* CL_SAMPLER_FILTER_MODE: LINEAR, NEAREST */
        props[6] = 0;
        c->samplers[bits] = c->CreateSamplerWithProperties(c->context, props, r);
    }
    return c->samplers[bits];
}

/* The arguments and the launch under one lock: a cl_kernel's arguments are shared state, and
   the enqueue captures them. extra, when given: one size_t per parameter, for the by-value ones.
   An image parameter takes the cl_mem of the image params[i] points to, a sampler one the
   cl_sampler for the int32_t bits params[i] points to: the module's parameter types say which
   (OpTypeImage, OpTypeSampler): for a program made from SPIR-V, Intel's CPU runtime answers
   clGetKernelArgInfo with CL_KERNEL_ARG_INFO_NOT_AVAILABLE, even built with -cl-kernel-arg-info. */
GPUCOMPILE_PRIVATE void gpucompile_spirv__rt_launch(void *function, const unsigned grid[3], const unsigned block[3], unsigned smem,
                                                   void *stream, void **params, void **extra) {
    gpucompile_spirv__cl *c = &gpucompile_spirv__rt;
    gpucompile_spirv__function *f = (gpucompile_spirv__function *)function;
    const size_t *sizes = (const size_t *)(void *)extra;
    size_t global[3], local[3];
    const char *call = NULL;
    char what[96];
    unsigned i;
    int r = 0;
    if (!f) return;
    what[0] = 0;
    for (i = 0; i < 3; i++) {
        global[i] = (size_t)grid[i] * block[i];
        local[i] = block[i];
    }
    gpucompile_lock();
    for (i = 0; i < f->num_params && r == 0; i++) {
        call = "clSetKernelArg";
        if (f->kinds[i] == 2) r = c->SetKernelArg(f->kernel, i, (size_t)(smem ? smem : 1), NULL);
        else if (!params || !params[i]) r = -50;
        else if (f->kinds[i] == 1) { call = "clSetKernelArgSVMPointer"; r = c->SetKernelArgSVMPointer(f->kernel, i, *(void **)params[i]); }
        else if (f->kinds[i] == 3) {
            gpucompile_spirv__image *im = gpucompile_spirv__image_find(*(void **)params[i], 0);
            r = im ? c->SetKernelArg(f->kernel, i, sizeof im->mem, &im->mem) : -38;
            if (!im) snprintf(what, sizeof what, "argument %u is an image parameter: not an image of mgpuImageCreate", i);
        } else if (f->kinds[i] == 4) {
            void *sampler = gpucompile_spirv__sampler(*(const int32_t *)params[i], &r);
            if (r == 0) r = c->SetKernelArg(f->kernel, i, sizeof sampler, &sampler);
            else snprintf(what, sizeof what, "argument %u is a sampler: bits 0x%X", i, (unsigned)*(const int32_t *)params[i]);
        } else r = c->SetKernelArg(f->kernel, i, sizes ? sizes[i] : f->sizes[i], params[i]);
    }
    if (r == 0) {
        call = "clEnqueueNDRangeKernel";
        r = c->EnqueueNDRangeKernel(stream ? stream : c->queue, f->kernel, 3, NULL, global, local, 0, NULL, NULL);
    }
    gpucompile_unlock();
    gpucompile_spirv__rt_check_for(r, call, what[0] ? what : NULL);
    if (r == 0 && !stream) gpucompile_spirv__rt_check(c->Finish(c->queue), "clFinish");
}

GPUCOMPILE_PRIVATE void *gpucompile_spirv__rt_stream_create(void) {
    void *q;
    int r = 0;
    q = gpucompile_spirv__rt.CreateCommandQueueWithProperties(gpucompile_spirv__rt.context, gpucompile_spirv__rt.device, NULL, &r);
    gpucompile_spirv__rt_check(r, "clCreateCommandQueueWithProperties");
    return r == 0 ? q : NULL;
}

GPUCOMPILE_PRIVATE void gpucompile_spirv__rt_stream_synchronize(void *stream) {
    gpucompile_spirv__rt_check(gpucompile_spirv__rt.Finish(stream ? stream : gpucompile_spirv__rt.queue), "clFinish");
}

GPUCOMPILE_PRIVATE void gpucompile_spirv__rt_stream_destroy(void *stream) {
    if (!stream) return;
    gpucompile_spirv__rt_check(gpucompile_spirv__rt.ReleaseCommandQueue(stream), "clReleaseCommandQueue");
}

/* Shared virtual memory: the device's pointers are the host's, fine-grained where the device
   has it (then isHostShared costs nothing more). */
GPUCOMPILE_PRIVATE void *gpucompile_spirv__rt_mem_alloc(uint64_t sizeBytes, int host_shared) {
    void *p;
    (void)host_shared;
    if (sizeBytes == 0) return NULL;
    p = gpucompile_spirv__rt.SVMAlloc(gpucompile_spirv__rt.context, 1 /* CL_MEM_READ_WRITE */ | (gpucompile_spirv__rt.fine_grain ? 1u << 10 : 0),
                                      (size_t)sizeBytes, 0);
    if (!p) gpucompile_runtime_report("clSVMAlloc", -4, "CL_MEM_OBJECT_ALLOCATION_FAILURE");
    return p;
}

GPUCOMPILE_PRIVATE void gpucompile_spirv__rt_mem_free(void *ptr) {
    gpucompile_spirv__rt_check(gpucompile_spirv__rt.Finish(gpucompile_spirv__rt.queue), "clFinish");
    gpucompile_spirv__rt.SVMFree(gpucompile_spirv__rt.context, ptr);
}

GPUCOMPILE_PRIVATE void gpucompile_spirv__rt_mem_copy(void *dst, const void *src, size_t sizeBytes, void *stream) {
    gpucompile_spirv__rt_check(gpucompile_spirv__rt.EnqueueSVMMemcpy(stream ? stream : gpucompile_spirv__rt.queue, stream ? 0 : 1, dst, src,
                                                                     sizeBytes, 0, NULL, NULL), "clEnqueueSVMMemcpy");
}

GPUCOMPILE_PRIVATE void gpucompile_spirv__rt_mem_set32(void *dst, unsigned value, size_t count, void *stream) {
    gpucompile_spirv__rt_check(gpucompile_spirv__rt.EnqueueSVMMemFill(stream ? stream : gpucompile_spirv__rt.queue, dst, &value, 4,
                                                                      count * 4, 0, NULL, NULL), "clEnqueueSVMMemFill");
    if (!stream) gpucompile_spirv__rt_check(gpucompile_spirv__rt.Finish(gpucompile_spirv__rt.queue), "clFinish");
}

/* An image in the device's memory (CL_MEM_READ_WRITE: a kernel may read or write it); an
   image1d_buffer's pixels in a buffer of its own. */
GPUCOMPILE_PRIVATE void *gpucompile_spirv__rt_image_create(int32_t type, int32_t order, int32_t data_type, const size_t extent[4],
                                                          size_t pixel, const char *what, void *stream) {
    gpucompile_spirv__cl *c = &gpucompile_spirv__rt;
    gpucompile_spirv__image *im = (gpucompile_spirv__image *)calloc(1, sizeof *im);
    gpucompile_spirv__image_desc desc;
    unsigned format[2];
    const char *call = "clCreateBuffer";
    int r = 0;
    (void)stream;
    if (!im) {
        gpucompile_runtime_report("mgpuImageCreate", -6, "out of host memory");
        return NULL;
    }
    memset(&desc, 0, sizeof desc);
    format[0] = (unsigned)order;
    format[1] = (unsigned)data_type;
    desc.type = (unsigned)type;
    desc.width = im->region[0] = extent[0];
    desc.height = extent[1];
    desc.depth = extent[2];
    desc.array_size = extent[3];
    im->region[1] = type == 0x10F5 ? extent[3] : extent[1]; /* an image1d_array's layers are its rows */
    im->region[2] = type == 0x10F3 ? extent[3] : extent[2]; /* an image2d_array's its slices */
    if (type == 0x10F6) desc.buffer = im->buffer = c->CreateBuffer(c->context, 1 /* CL_MEM_READ_WRITE */, extent[0] * pixel, NULL, &r);
    if (r == 0) {
        call = "clCreateImage";
        im->mem = c->CreateImage(c->context, 1, format, &desc, NULL, &r);
    }
    if (r != 0) {
        gpucompile_spirv__rt_check_for(r, call, what);
        if (im->buffer) c->ReleaseMemObject(im->buffer);
        free(im);
        return NULL;
    }
    gpucompile_lock();
    im->next = c->images;
    c->images = im;
    gpucompile_unlock();
    return im;
}

/* On a stream: queued after its launches, and the host memory must stay until it is synchronized
   (as mgpuMemcpy's); without one, done when this returns. */
GPUCOMPILE_PRIVATE void gpucompile_spirv__rt_image_copy(void *image, void *host, int to_image, void *stream) {
    gpucompile_spirv__cl *c = &gpucompile_spirv__rt;
    static const size_t origin[3] = {0, 0, 0};
    gpucompile_spirv__image *im;
    void *q = stream ? stream : c->queue;
    gpucompile_lock();
    im = gpucompile_spirv__image_find(image, 0);
    gpucompile_unlock();
    if (!im) gpucompile_runtime_report(to_image ? "mgpuImageWrite" : "mgpuImageRead", -38, "not an image of mgpuImageCreate (or freed)");
    else if (to_image) gpucompile_spirv__rt_check(c->EnqueueWriteImage(q, im->mem, !stream, origin, im->region, 0, 0, host, 0, NULL, NULL), "clEnqueueWriteImage");
    else gpucompile_spirv__rt_check(c->EnqueueReadImage(q, im->mem, !stream, origin, im->region, 0, 0, host, 0, NULL, NULL), "clEnqueueReadImage");
}

/* No wait: OpenCL keeps the memory until the commands queued with it have finished. */
GPUCOMPILE_PRIVATE void gpucompile_spirv__rt_image_free(void *image, void *stream) {
    gpucompile_spirv__image *im;
    (void)stream;
    gpucompile_lock();
    im = gpucompile_spirv__image_find(image, 1);
    gpucompile_unlock();
    if (!im) {
        gpucompile_runtime_report("mgpuImageFree", -38, "not an image of mgpuImageCreate (or freed already)");
        return;
    }
    gpucompile_spirv__rt_check(gpucompile_spirv__rt.ReleaseMemObject(im->mem), "clReleaseMemObject");
    if (im->buffer) gpucompile_spirv__rt_check(gpucompile_spirv__rt.ReleaseMemObject(im->buffer), "clReleaseMemObject");
    free(im);
}

/* The vendor behind mgpu*; left NULL: image_format (the generic kinds), enter, leave, module_load_jit. */
GPUCOMPILE_RUNTIME_VENDOR_DEFINE(gpucompile_spirv__rt_) {
    v->name = "OpenCL"; v->launch_call = "clEnqueueNDRangeKernel"; v->kind = "an OpenCL library";
    v->env = "GPUCOMPILE_LIBOPENCL"; v->library = GPUCOMPILE_SPIRV__LIBOPENCL;
    v->what = "the OpenCL loader"; v->hint = "no OpenCL ICD loader installed? Debian: ocl-icd-libopencl1";
    v->image_create = gpucompile_spirv__rt_image_create;
    v->image_copy = gpucompile_spirv__rt_image_copy;
    v->image_free = gpucompile_spirv__rt_image_free;
    v->score = gpucompile_spirv__score;
}

#ifdef __cplusplus
}
#endif
#endif /* GPUCOMPILE_SPIRV_RUNTIME */
