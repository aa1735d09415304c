; saxpy for SPIR-V as LLVM IR: a spir_kernel and an OpenCL builtin as LLVM's SPIR-V backend takes them.
target triple = "spirv64-unknown-unknown"
declare spir_func i64 @_Z13get_global_idj(i32)
define spir_kernel void @saxpy(float %a, ptr addrspace(1) %x, ptr addrspace(1) %y, i32 %n) {
entry:
  %i = call spir_func i64 @_Z13get_global_idj(i32 0)
  %i32 = trunc i64 %i to i32
  %in = icmp slt i32 %i32, %n
  br i1 %in, label %body, label %exit
body:
  %px = getelementptr float, ptr addrspace(1) %x, i64 %i
  %py = getelementptr float, ptr addrspace(1) %y, i64 %i
  %vx = load float, ptr addrspace(1) %px
  %vy = load float, ptr addrspace(1) %py
  %ax = fmul float %a, %vx
  %s = fadd float %ax, %vy
  store float %s, ptr addrspace(1) %py
  br label %exit
exit:
  ret void
}
