; saxpy: y[i] = a * x[i] + y[i] (AMDGPU, amdgpu_kernel calling convention). The block size is
; read from the HSA dispatch packet (workgroup_size_x, an i16 at offset 4), which code object
; v4 and v5 both provide.
target triple = "amdgcn-amd-amdhsa"

define amdgpu_kernel void @saxpy(float %a, ptr addrspace(1) %x, ptr addrspace(1) %y, i32 %n) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %bid = call i32 @llvm.amdgcn.workgroup.id.x()
  %dp = call ptr addrspace(4) @llvm.amdgcn.dispatch.ptr()
  %pbs = getelementptr inbounds i8, ptr addrspace(4) %dp, i64 4
  %bs16 = load i16, ptr addrspace(4) %pbs, align 4
  %bs = zext i16 %bs16 to i32
  %base = mul i32 %bid, %bs
  %i = add i32 %base, %tid
  %inb = icmp slt i32 %i, %n
  br i1 %inb, label %body, label %exit
body:
  %idx = sext i32 %i to i64
  %px = getelementptr inbounds float, ptr addrspace(1) %x, i64 %idx
  %py = getelementptr inbounds float, ptr addrspace(1) %y, i64 %idx
  %vx = load float, ptr addrspace(1) %px, align 4
  %vy = load float, ptr addrspace(1) %py, align 4
  %m = fmul float %a, %vx
  %s = fadd float %m, %vy
  store float %s, ptr addrspace(1) %py, align 4
  br label %exit
exit:
  ret void
}

declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.workgroup.id.x()
declare ptr addrspace(4) @llvm.amdgcn.dispatch.ptr()
