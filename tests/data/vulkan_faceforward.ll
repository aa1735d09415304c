; A select of opposites on a product compared with zero, reduced from pyFAI's separate.cl
; (filter_vertical: OpenCL's round of a product, as the lowering writes it). LLVM 22's SPIR-V
; code generator rewrites it into GLSL's FaceForward and crashes in its pre-legalizer; the
; Vulkan backend writes the inverse comparison first.
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64-G1"
target triple = "spirv64-unknown-unknown"

define spir_kernel void @k(ptr addrspace(1) %a, ptr addrspace(1) %o, float %s) {
entry:
  %i = call spir_func i64 @_Z13get_global_idj(i32 0)
  %p = getelementptr inbounds float, ptr addrspace(1) %a, i64 %i
  %x = load float, ptr addrspace(1) %p, align 4
  %m = fmul float %x, %s
  %t = call float @llvm.trunc.f32(float %m)
  %neg = fcmp olt float %m, 0.000000e+00
  %one = select i1 %neg, float -1.000000e+00, float 1.000000e+00
  %r = fadd float %t, %one
  %q = getelementptr inbounds float, ptr addrspace(1) %o, i64 %i
  store float %r, ptr addrspace(1) %q, align 4
  ret void
}

declare spir_func i64 @_Z13get_global_idj(i32)
declare float @llvm.trunc.f32(float)
