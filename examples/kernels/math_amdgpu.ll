; math: out[i] = exp(x[i]) + sin(x[i]) * sqrt(x[i]) through the ROCm device library (ocml),
; with blocks of 256 work-items. Needs ocml and the oclc control libraries the flags select.
target triple = "amdgcn-amd-amdhsa"

define amdgpu_kernel void @math(ptr addrspace(1) %x, ptr addrspace(1) %out, i32 %n) #0 {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %bid = call i32 @llvm.amdgcn.workgroup.id.x()
  %base = shl i32 %bid, 8
  %i = add i32 %base, %tid
  %inb = icmp slt i32 %i, %n
  br i1 %inb, label %body, label %exit
body:
  %idx = sext i32 %i to i64
  %px = getelementptr inbounds float, ptr addrspace(1) %x, i64 %idx
  %v = load float, ptr addrspace(1) %px, align 4
  %e = call float @__ocml_exp_f32(float %v)
  %s = call float @__ocml_sin_f32(float %v)
  %q = call float @__ocml_sqrt_f32(float %v)
  %sq = fmul float %s, %q
  %r = fadd float %e, %sq
  %po = getelementptr inbounds float, ptr addrspace(1) %out, i64 %idx
  store float %r, ptr addrspace(1) %po, align 4
  br label %exit
exit:
  ret void
}

declare float @__ocml_exp_f32(float)
declare float @__ocml_sin_f32(float)
declare float @__ocml_sqrt_f32(float)
declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.workgroup.id.x()

attributes #0 = { "amdgpu-flat-work-group-size"="1,256" }
