; clang 19: clang -x hip --cuda-device-only -nogpulib --offload-arch=gfx90a -O1 -emit-llvm, trimmed
; (the same source as dynshared_nvptx.ll, with HIP's extern __shared__):
; dynamic LDS (sized at launch) reached through a called function: swap_pairs uses it, scale
; does not.
target datalayout = "e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

@smem = external hidden local_unnamed_addr addrspace(3) global [0 x float], align 4
@__hip_cuid_0 = addrspace(1) global i8 0
@llvm.compiler.used = appending addrspace(1) global [1 x ptr] [ptr addrspacecast (ptr addrspace(1) @__hip_cuid_0 to ptr)], section "llvm.metadata"

define internal fastcc noundef float @_Z5stagefj(float noundef %0, i32 noundef %1) unnamed_addr #0 {
  %3 = getelementptr inbounds [0 x float], ptr addrspace(3) @smem, i32 0, i32 %1
  store float %0, ptr addrspace(3) %3, align 4
  tail call void @llvm.amdgcn.s.barrier()
  %4 = xor i32 %1, 1
  %5 = getelementptr inbounds [0 x float], ptr addrspace(3) @smem, i32 0, i32 %4
  %6 = load float, ptr addrspace(3) %5, align 4
  ret float %6
}

declare void @llvm.amdgcn.s.barrier() #1

define protected amdgpu_kernel void @_Z10swap_pairsPfPKf(ptr addrspace(1) nocapture noundef writeonly %0, ptr addrspace(1) nocapture noundef readonly %1) local_unnamed_addr #2 {
  %3 = tail call noundef range(i32 0, 1024) i32 @llvm.amdgcn.workitem.id.x()
  %4 = zext nneg i32 %3 to i64
  %5 = getelementptr inbounds float, ptr addrspace(1) %1, i64 %4
  %6 = load float, ptr addrspace(1) %5, align 4
  %7 = tail call contract fastcc noundef float @_Z5stagefj(float noundef %6, i32 noundef %3) #5
  %8 = getelementptr inbounds float, ptr addrspace(1) %0, i64 %4
  store float %7, ptr addrspace(1) %8, align 4
  ret void
}

declare noundef i32 @llvm.amdgcn.workitem.id.x() #3

define protected amdgpu_kernel void @_Z5scalePff(ptr addrspace(1) nocapture noundef %0, float noundef %1) local_unnamed_addr #4 {
  %3 = tail call noundef range(i32 0, 1024) i32 @llvm.amdgcn.workitem.id.x()
  %4 = zext nneg i32 %3 to i64
  %5 = getelementptr inbounds float, ptr addrspace(1) %0, i64 %4
  %6 = load float, ptr addrspace(1) %5, align 4
  %7 = fmul contract float %6, %1
  store float %7, ptr addrspace(1) %5, align 4
  ret void
}

attributes #0 = { convergent mustprogress nofree noinline norecurse nounwind willreturn "amdgpu-waves-per-eu"="4,8" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="gfx90a" "target-features"="+wavefrontsize64" "uniform-work-group-size"="true" }
attributes #1 = { convergent mustprogress nocallback nofree nounwind willreturn }
attributes #2 = { convergent mustprogress nofree norecurse nounwind willreturn "amdgpu-flat-work-group-size"="1,1024" "amdgpu-waves-per-eu"="4,8" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="gfx90a" "target-features"="+wavefrontsize64" "uniform-work-group-size"="true" }
attributes #3 = { mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #4 = { mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: readwrite) "amdgpu-flat-work-group-size"="1,1024" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="gfx90a" "target-features"="+wavefrontsize64" "uniform-work-group-size"="true" }
attributes #5 = { convergent nounwind }
