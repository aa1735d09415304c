; saxpy: y[i] = a * x[i] + y[i] (NVPTX, ptx_kernel calling convention)
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @saxpy(float %a, ptr addrspace(1) %x, ptr addrspace(1) %y, i32 %n) {
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
  %vx = load float, ptr addrspace(1) %px
  %vy = load float, ptr addrspace(1) %py
  %m = fmul float %a, %vx
  %s = fadd float %m, %vy
  store float %s, ptr addrspace(1) %py
  br label %exit
exit:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
