; Four kernels that share what partitions must join: an internal helper and a linkonce_odr
; one that returns an aggregate (NVPTX aligns an internal function's .param to 16, so its
; internal copies are not the same PTX), functions whose address is taken (an indirect call),
; a visible and an internal mutable global, a global whose initializer names another, an
; internal constant table, a static and a dynamic (extern __shared__) shared array, and
; vprintf. With -j 2 or 3 the kernels fall into different partitions (tests/cli_ptxjoin.sh).
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@counter = addrspace(1) global i32 0, align 4
@hits = internal addrspace(1) global [4 x i32] zeroinitializer, align 4
@counter_ptr = addrspace(1) global ptr addrspace(1) @counter, align 8
@coeffs = internal addrspace(4) constant [4 x float] [float 1.0, float 2.0, float 3.0, float 4.0], align 4
@tile = internal addrspace(3) global [64 x float] undef, align 4
@dyn = external addrspace(3) global [0 x float], align 4
@fmt = private unnamed_addr addrspace(1) constant [4 x i8] c"%d\0A\00", align 1

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @vprintf(ptr, ptr)

define internal float @scale(float %x, i32 %i) #0 {
  %m = and i32 %i, 3
  %p = getelementptr [4 x float], ptr addrspace(4) @coeffs, i32 0, i32 %m
  %c = load float, ptr addrspace(4) %p, align 4
  %r = fmul float %x, %c
  ret float %r
}

define linkonce_odr { float, float } @pair(float %a, float %b) #0 {
  %s = fadd float %a, %b
  %d = fsub float %a, %b
  %r0 = insertvalue { float, float } undef, float %s, 0
  %r1 = insertvalue { float, float } %r0, float %d, 1
  ret { float, float } %r1
}

define linkonce_odr float @twice(float %x) #0 {
  %r = fmul float %x, 2.0
  ret float %r
}

define internal float @half(float %x) #0 {
  %r = fmul float %x, 0.5
  ret float %r
}

define internal void @count(i32 %i) #0 {
  %m = and i32 %i, 3
  %p = getelementptr [4 x i32], ptr addrspace(1) @hits, i32 0, i32 %m
  %o = atomicrmw add ptr addrspace(1) %p, i32 1 monotonic, align 4
  %cp = load ptr addrspace(1), ptr addrspace(1) @counter_ptr, align 8
  %o2 = atomicrmw add ptr addrspace(1) %cp, i32 1 monotonic, align 4
  ret void
}

define ptx_kernel void @k_scale(ptr addrspace(1) %out, ptr addrspace(1) %in) {
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %pi = getelementptr float, ptr addrspace(1) %in, i32 %t
  %x = load float, ptr addrspace(1) %pi, align 4
  %y = call float @scale(float %x, i32 %t)
  %pr = call { float, float } @pair(float %x, float %y)
  %s = extractvalue { float, float } %pr, 0
  %ps = getelementptr [64 x float], ptr addrspace(3) @tile, i32 0, i32 %t
  store float %s, ptr addrspace(3) %ps, align 4
  %l = load float, ptr addrspace(3) %ps, align 4
  %po = getelementptr float, ptr addrspace(1) %out, i32 %t
  store float %l, ptr addrspace(1) %po, align 4
  call void @count(i32 %t)
  ret void
}

define ptx_kernel void @k_pair(ptr addrspace(1) %out, ptr addrspace(1) %in) {
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %pi = getelementptr float, ptr addrspace(1) %in, i32 %t
  %x = load float, ptr addrspace(1) %pi, align 4
  %pr = call { float, float } @pair(float %x, float 1.0)
  %d = extractvalue { float, float } %pr, 1
  %y = call float @scale(float %d, i32 %t)
  %pd = getelementptr [0 x float], ptr addrspace(3) @dyn, i32 0, i32 %t
  store float %y, ptr addrspace(3) %pd, align 4
  %l = load float, ptr addrspace(3) %pd, align 4
  %po = getelementptr float, ptr addrspace(1) %out, i32 %t
  store float %l, ptr addrspace(1) %po, align 4
  call void @count(i32 %t)
  ret void
}

define ptx_kernel void @k_indirect(ptr addrspace(1) %out, i32 %sel) {
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %c = icmp eq i32 %sel, 0
  %f = select i1 %c, ptr @twice, ptr @half
  %x = uitofp i32 %t to float
  %y = call float %f(float %x)
  %pd = getelementptr [0 x float], ptr addrspace(3) @dyn, i32 0, i32 %t
  store float %y, ptr addrspace(3) %pd, align 4
  %po = getelementptr float, ptr addrspace(1) %out, i32 %t
  store float %y, ptr addrspace(1) %po, align 4
  ret void
}

define ptx_kernel void @k_print(ptr addrspace(1) %out) {
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %buf = alloca i32, align 4
  store i32 %t, ptr %buf, align 4
  %r = call i32 @vprintf(ptr addrspacecast (ptr addrspace(1) @fmt to ptr), ptr %buf)
  %v = load i32, ptr addrspace(1) @counter, align 4
  %x = uitofp i32 %v to float
  %tw = call float @twice(float %x)
  %po = getelementptr float, ptr addrspace(1) %out, i32 %t
  store float %tw, ptr addrspace(1) %po, align 4
  call void @count(i32 %t)
  ret void
}

attributes #0 = { noinline }
