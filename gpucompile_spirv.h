/* gpucompile_spirv.h - the SPIR-V backend of gpucompile: #gpu.spirv / #xevm.target to a SPIR-V
   module (LLVM's SPIR-V code generator, LLVM 22), and an mgpu* runtime over OpenCL 3.0 that
   loads it (clCreateProgramWithIL) on any OpenCL device that takes SPIR-V.

   Include gpucompile.h first. The implementation is compiled where GPUCOMPILE_IMPLEMENTATION
   (or GPUCOMPILE_SPIRV_IMPLEMENTATION together with the core's) is defined; it registers
   itself. GPUCOMPILE_SPIRV_RUNTIME in one file adds the mgpu* runtime over OpenCL (instead of
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
   pass `extra` as an array of paramsCount size_t sizes. A kernel parameter that is a pointer to
   Workgroup (local) memory is OpenCL's form of dynamic shared memory: it gets the launch's
   sharedMemBytes (clSetKernelArg with a NULL value), whatever the host passed for it. */
#ifndef GPUCOMPILE_SPIRV_H
#define GPUCOMPILE_SPIRV_H
#ifndef GPUCOMPILE_H
#error "gpucompile_spirv.h: include gpucompile.h first"
#endif
#ifdef __cplusplus
extern "C" {
#endif
GPUCOMPILE_API const gpucompile_backend *gpucompile_spirv_backend(void);
/* 1 when the LLVM in use has the SPIR-V code generator. */
GPUCOMPILE_API int gpucompile_spirv_available(void);
#ifdef __cplusplus
}
#endif
#endif /* GPUCOMPILE_SPIRV_H */

#if (defined(GPUCOMPILE_IMPLEMENTATION) || defined(GPUCOMPILE_SPIRV_IMPLEMENTATION)) && !defined(GPUCOMPILE_SPIRV_IMPLEMENTED)
#define GPUCOMPILE_SPIRV_IMPLEMENTED
#ifdef __cplusplus
extern "C" {
#endif

/* LLVM's SPIRV initialisers, looked up at run time: an LLVM built without the target (Debian's
   LLVM 19) has none of them, and the program must still link. */
typedef struct gpucompile_spirv__llvm {
    int state; /* 0 not looked up, 1 found, -1 absent */
    void (*init[4])(void);
} gpucompile_spirv__llvm;
static gpucompile_spirv__llvm gpucompile_spirv__targets;

GPUCOMPILE_DEF int gpucompile_spirv_available(void) {
    static const char *const names[4] = {"LLVMInitializeSPIRVTargetInfo", "LLVMInitializeSPIRVTarget",
                                         "LLVMInitializeSPIRVTargetMC", "LLVMInitializeSPIRVAsmPrinter"};
    gpucompile_spirv__llvm *s = &gpucompile_spirv__targets;
    int i, ok;
    gpucompile__lock();
    if (s->state == 0) {
        void *self = gpucompile__dlopen(NULL);
        s->state = 1;
        for (i = 0; i < 4; i++)
            if (!gpucompile__dlfn(self, names[i], &s->init[i])) s->state = -1;
    }
    ok = s->state == 1;
    gpucompile__unlock();
    return ok;
}

GPUCOMPILE__PRIVATE void gpucompile_spirv__initialize(void) { /* under the core's lock, once */
    int i;
    if (gpucompile_spirv__targets.state == 1)
        for (i = 0; i < 4; i++) gpucompile_spirv__targets.init[i]();
}

GPUCOMPILE__PRIVATE gpucompile_result gpucompile_spirv__verify(const gpucompile_target *t, const gpucompile_logger *logger) {
    const char *triple = gpucompile_target_triple(t);
    if (!gpucompile__in_list("spirv,spirv32,spirv64", triple, strcspn(triple, "-"))) {
        gpucompile__logf(logger, GPUCOMPILE_SEVERITY_ERROR, GPUCOMPILE_ERROR_INVALID_TARGET, GPUCOMPILE_STAGE_TARGET,
                         "The target triple '%.200s' is not a SPIR-V triple (spirv64-..., spirv32-... or spirv-...).", triple);
        return GPUCOMPILE_ERROR_INVALID_TARGET;
    }
    if (!gpucompile_spirv_available()) {
        gpucompile__logf(logger, GPUCOMPILE_SEVERITY_ERROR, GPUCOMPILE_ERROR_INVALID_TARGET, GPUCOMPILE_STAGE_TARGET,
                         "LLVM %d here has no SPIR-V code generator (the SPIRV target; LLVM 22 has it).", LLVM_VERSION_MAJOR);
        return GPUCOMPILE_ERROR_INVALID_TARGET;
    }
    return GPUCOMPILE_OK;
}

/* LLVM's SPIR-V code generator knows no processors (it would warn on stderr about "bmg"). */
GPUCOMPILE__PRIVATE gpucompile_result gpucompile_spirv__configure(gpucompile_job *job) {
    gpucompile_job_free(job, job->cpu);
    job->cpu = gpucompile_job_strdup(job, "");
    return job->cpu ? GPUCOMPILE_OK : GPUCOMPILE_ERROR_OUT_OF_MEMORY;
}

GPUCOMPILE__PRIVATE int gpucompile_spirv__is_kernel(gpucompile_job *job, LLVMValueRef fn) {
    (void)job;
    return LLVMGetFunctionCallConv(fn) == 76; /* spir_kernel */
}

/* OpEntryPoint Kernel names of a SPIR-V module (little-endian words, as LLVM writes them). */
GPUCOMPILE__PRIVATE gpucompile_result gpucompile_spirv__find_kernels(gpucompile_object *obj) {
    const unsigned char *d = obj->data;
    size_t nw = obj->size / 4, i, n = 0, pass;
    if (obj->num_kernels || obj->format != GPUCOMPILE_FORMAT_BIN) return GPUCOMPILE_OK;
    if (nw < 5 || memcmp(d, "\x03\x02\x23\x07", 4) != 0) return GPUCOMPILE_ERROR_INVALID_BINARY;
    for (pass = 0; pass < 2; pass++) {
        for (i = 5; i < nw;) {
            unsigned w = (unsigned)d[4 * i] | (unsigned)d[4 * i + 1] << 8 | (unsigned)d[4 * i + 2] << 16 | (unsigned)d[4 * i + 3] << 24;
            size_t wc = w >> 16;
            if (wc == 0 || i + wc > nw) return GPUCOMPILE_ERROR_INVALID_BINARY;
            if ((w & 0xffff) == 15 && wc > 3 && d[4 * (i + 1)] == 6) { /* OpEntryPoint Kernel */
                const char *name = (const char *)d + 4 * (i + 3);
                const char *end = (const char *)memchr(name, 0, 4 * (wc - 3));
                size_t len = end ? (size_t)(end - name) : 0;
                if (!end) return GPUCOMPILE_ERROR_INVALID_BINARY;
                if (pass == 1) {
                    gpucompile_kernel *k = &obj->kernels[obj->num_kernels++];
                    memset(k, 0, sizeof *k);
                    k->num_params = k->registers = k->shared_bytes = k->max_threads = k->sgprs = k->vgprs = -1;
                    k->private_bytes = k->wavefront_size = k->kernarg_bytes = k->dynamic_shared = -1;
                    if (!(k->name = (char *)gpucompile__alloc(&obj->allocator, len + 1))) return GPUCOMPILE_ERROR_OUT_OF_MEMORY;
                    memcpy(k->name, name, len + 1);
                }
                n++;
            }
            i += wc;
        }
        if (pass == 0) {
            if (!n) return GPUCOMPILE_OK;
            obj->kernels = (gpucompile_kernel *)gpucompile__alloc(&obj->allocator, n * sizeof(gpucompile_kernel));
            if (!obj->kernels) return GPUCOMPILE_ERROR_OUT_OF_MEMORY;
        }
    }
    return GPUCOMPILE_OK;
}

GPUCOMPILE_DEF const gpucompile_backend *gpucompile_spirv_backend(void) {
    static gpucompile_backend b;
    if (!b.name) {
        gpucompile_backend t;
        memset(&t, 0, sizeof t);
        t.name = "spirv";
        t.kind = GPUCOMPILE_TARGET_SPIRV;
        t.intrinsic_prefixes = "spv";
        t.allowed_undefined = "_Z*,__spirv_*"; /* OpenCL builtins (mangled) and SPIR-V ones: the code generator's */
        t.shared_address_space = 3; /* OpenCL local (Workgroup) */
        t.initialize = gpucompile_spirv__initialize;
        t.configure = gpucompile_spirv__configure;
        t.is_kernel = gpucompile_spirv__is_kernel;
        t.bin_from = LLVMObjectFile; /* the SPIR-V module as it is */
        t.find_kernels = gpucompile_spirv__find_kernels;
        t.verify = gpucompile_spirv__verify;
        gpucompile__lock();
        if (!b.name) b = t;
        gpucompile__unlock();
    }
    return &b;
}

GPUCOMPILE__CONSTRUCTOR(gpucompile_spirv__register) { gpucompile_register_backend(gpucompile_spirv_backend()); }

#ifdef __cplusplus
}
#endif
#endif /* GPUCOMPILE_SPIRV_IMPLEMENTATION */
