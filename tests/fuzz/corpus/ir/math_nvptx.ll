; math: y[i] = expf(x[i]) + sinf(x[i]) * sqrtf(x[i]) / (x[i] + 1) through libdevice
; (NVPTX, ptx_kernel calling convention; the __nv_* functions come from libdevice)
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @math(ptr addrspace(1) %x, ptr addrspace(1) %y, i32 %n) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %base = mul i32 %ctaid, %ntid
  %i = add i32 %base, %tid
  %inb = icmp slt i32 %i, %n
  br i1 %inb, label %body, label %exit
body:
  %idx = sext i32 %i to i64
  %px = getelementptr float, ptr addrspace(1) %x, i64 %idx
  %py = getelementptr float, ptr addrspace(1) %y, i64 %idx
  %v = load float, ptr addrspace(1) %px
  %e = call float @__nv_expf(float %v)
  %s = call float @__nv_sinf(float %v)
  %r = call float @__nv_sqrtf(float %v)
  %sr = fmul float %s, %r
  %d = fadd float %v, 1.0
  %q = fdiv float %sr, %d
  %sum = fadd float %e, %q
  store float %sum, ptr addrspace(1) %py
  br label %exit
exit:
  ret void
}

declare float @__nv_expf(float)
declare float @__nv_sinf(float)
declare float @__nv_sqrtf(float)
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
