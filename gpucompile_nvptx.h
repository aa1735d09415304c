/* gpucompile_nvptx.h - the NVPTX backend of gpucompile: #gpu.nvptx / #nvvm.target to PTX,
   cubin and fatbin (libdevice, NVVMReflect flags, PTX versions, nvJitLink / ptxas / driver).

   Include gpucompile.h first. The implementation is compiled where GPUCOMPILE_IMPLEMENTATION
   (or GPUCOMPILE_NVPTX_IMPLEMENTATION together with the core's implementation) is defined; it
   registers itself, so #gpu.nvptx targets compile with no further call.
*/
#ifndef GPUCOMPILE_NVPTX_H
#define GPUCOMPILE_NVPTX_H
#ifndef GPUCOMPILE_H
#error "gpucompile_nvptx.h: include gpucompile.h first"
#endif
#ifdef __cplusplus
extern "C" {
#endif

/* The backend table (also registered automatically). */
GPUCOMPILE_API const gpucompile_backend *gpucompile_nvptx_backend(void);

#ifdef __cplusplus
}
#endif
#endif /* GPUCOMPILE_NVPTX_H */

#if (defined(GPUCOMPILE_IMPLEMENTATION) || defined(GPUCOMPILE_NVPTX_IMPLEMENTATION)) && !defined(GPUCOMPILE_NVPTX_IMPLEMENTED)
#define GPUCOMPILE_NVPTX_IMPLEMENTED
#ifndef GPUCOMPILE_IMPLEMENTED
#error "gpucompile_nvptx.h: the backend's implementation needs the core's (GPUCOMPILE_IMPLEMENTATION) in the same file"
#endif
#ifdef __cplusplus
extern "C" {
#endif

GPUCOMPILE__PRIVATE void gpucompile_nvptx__initialize(void) {
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
}

GPUCOMPILE__PRIVATE int gpucompile_nvptx__is_kernel(gpucompile_job *job, LLVMValueRef fn) {
    (void)job;
    return LLVMGetFunctionCallConv(fn) == 71 /* ptx_kernel */;
}

GPUCOMPILE_DEF const gpucompile_backend *gpucompile_nvptx_backend(void) {
    static gpucompile_backend b;
    if (!b.name) {
        gpucompile_backend t;
        memset(&t, 0, sizeof t);
        t.name = "nvptx";
        t.kind = GPUCOMPILE_TARGET_NVPTX;
        t.intrinsic_prefixes = "nvvm";
        t.allowed_undefined = "__nvvm_reflect";
        t.initialize = gpucompile_nvptx__initialize;
        t.is_kernel = gpucompile_nvptx__is_kernel;
        t.bin_from = LLVMAssemblyFile;
        b = t;
    }
    return &b;
}

GPUCOMPILE__CONSTRUCTOR(gpucompile_nvptx__register) { gpucompile_register_backend(gpucompile_nvptx_backend()); }

#ifdef __cplusplus
}
#endif
#endif /* GPUCOMPILE_NVPTX_IMPLEMENTATION */
