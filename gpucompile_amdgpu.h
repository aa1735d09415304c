/* gpucompile_amdgpu.h - the AMDGPU backend of gpucompile: #gpu.amdgpu / #rocdl.target to an
   HSA code object (ROCm device libraries chosen by flags, chip and ABI; object, then ld.lld).

   Include gpucompile.h first. The implementation is compiled where GPUCOMPILE_IMPLEMENTATION
   (or GPUCOMPILE_AMDGPU_IMPLEMENTATION together with the core's implementation) is defined; it
   registers itself, so #gpu.amdgpu targets compile with no further call.
*/
#ifndef GPUCOMPILE_AMDGPU_H
#define GPUCOMPILE_AMDGPU_H
#ifndef GPUCOMPILE_H
#error "gpucompile_amdgpu.h: include gpucompile.h first"
#endif
#ifdef __cplusplus
extern "C" {
#endif

/* The backend table (also registered automatically). */
GPUCOMPILE_API const gpucompile_backend *gpucompile_amdgpu_backend(void);

#ifdef __cplusplus
}
#endif
#endif /* GPUCOMPILE_AMDGPU_H */

#if (defined(GPUCOMPILE_IMPLEMENTATION) || defined(GPUCOMPILE_AMDGPU_IMPLEMENTATION)) && !defined(GPUCOMPILE_AMDGPU_IMPLEMENTED)
#define GPUCOMPILE_AMDGPU_IMPLEMENTED
#ifndef GPUCOMPILE_IMPLEMENTED
#error "gpucompile_amdgpu.h: the backend's implementation needs the core's (GPUCOMPILE_IMPLEMENTATION) in the same file"
#endif
#ifdef __cplusplus
extern "C" {
#endif

GPUCOMPILE__PRIVATE void gpucompile_amdgpu__initialize(void) {
    LLVMInitializeAMDGPUTargetInfo();
    LLVMInitializeAMDGPUTarget();
    LLVMInitializeAMDGPUTargetMC();
    LLVMInitializeAMDGPUAsmPrinter();
    LLVMInitializeAMDGPUAsmParser();
}

GPUCOMPILE__PRIVATE int gpucompile_amdgpu__is_kernel(gpucompile_job *job, LLVMValueRef fn) {
    (void)job;
    return LLVMGetFunctionCallConv(fn) == 91 /* amdgpu_kernel */;
}

GPUCOMPILE_DEF const gpucompile_backend *gpucompile_amdgpu_backend(void) {
    static gpucompile_backend b;
    if (!b.name) {
        gpucompile_backend t;
        memset(&t, 0, sizeof t);
        t.name = "amdgpu";
        t.kind = GPUCOMPILE_TARGET_AMDGPU;
        t.intrinsic_prefixes = "amdgcn,r600";
        t.initialize = gpucompile_amdgpu__initialize;
        t.is_kernel = gpucompile_amdgpu__is_kernel;
        t.bin_from = LLVMObjectFile;
        b = t;
    }
    return &b;
}

GPUCOMPILE__CONSTRUCTOR(gpucompile_amdgpu__register) { gpucompile_register_backend(gpucompile_amdgpu_backend()); }

#ifdef __cplusplus
}
#endif
#endif /* GPUCOMPILE_AMDGPU_IMPLEMENTATION */
