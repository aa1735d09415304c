; clang 19: clang -x cuda --cuda-device-only -nocudalib --cuda-gpu-arch=sm_80 -O1 -emit-llvm, trimmed:
;   extern __shared__ float smem[];
;   __device__ __noinline__ float stage(float v, unsigned t) { smem[t] = v; __syncthreads(); return smem[t ^ 1]; }
;   __global__ void swap_pairs(float *out, const float *in) { unsigned t = threadIdx.x; out[t] = stage(in[t], t); }
;   __global__ void scale(float *out, float s) { out[threadIdx.x] *= s; }
; Dynamic shared memory (sized at launch) reached through a called function: swap_pairs uses it,
; scale does not.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@smem = external dso_local local_unnamed_addr addrspace(3) global [0 x float], align 4

define dso_local noundef float @_Z5stagefj(float noundef %0, i32 noundef %1) local_unnamed_addr #0 {
  %3 = zext i32 %1 to i64
  %4 = getelementptr inbounds [0 x float], ptr addrspacecast (ptr addrspace(3) @smem to ptr), i64 0, i64 %3
  store float %0, ptr %4, align 4
  tail call void @llvm.nvvm.bar.sync(i32 0)
  %5 = xor i32 %1, 1
  %6 = zext i32 %5 to i64
  %7 = getelementptr inbounds [0 x float], ptr addrspacecast (ptr addrspace(3) @smem to ptr), i64 0, i64 %6
  %8 = load float, ptr %7, align 4
  ret float %8
}

declare void @llvm.nvvm.bar.sync(i32) #1

define dso_local void @_Z10swap_pairsPfPKf(ptr nocapture noundef writeonly %0, ptr nocapture noundef readonly %1) local_unnamed_addr #2 {
  %3 = tail call range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %4 = zext nneg i32 %3 to i64
  %5 = getelementptr inbounds float, ptr %1, i64 %4
  %6 = load float, ptr %5, align 4
  %7 = tail call contract noundef float @_Z5stagefj(float noundef %6, i32 noundef %3) #3
  %8 = getelementptr inbounds float, ptr %0, i64 %4
  store float %7, ptr %8, align 4
  ret void
}

declare noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x()

define dso_local void @_Z5scalePff(ptr nocapture noundef %0, float noundef %1) local_unnamed_addr #2 {
  %3 = tail call range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %4 = zext nneg i32 %3 to i64
  %5 = getelementptr inbounds float, ptr %0, i64 %4
  %6 = load float, ptr %5, align 4
  %7 = fmul contract float %6, %1
  store float %7, ptr %5, align 4
  ret void
}

attributes #0 = { convergent mustprogress noinline norecurse nounwind "target-cpu"="sm_80" "target-features"="+ptx85,+sm_80" }
attributes #1 = { convergent nocallback nounwind }
attributes #2 = { convergent mustprogress norecurse nounwind "target-cpu"="sm_80" "target-features"="+ptx85,+sm_80" "uniform-work-group-size"="true" }
attributes #3 = { convergent nounwind }

!nvvm.annotations = !{!0, !1}
!llvm.module.flags = !{!2}

!0 = !{ptr @_Z10swap_pairsPfPKf, !"kernel", i32 1}
!1 = !{ptr @_Z5scalePff, !"kernel", i32 1}
!2 = !{i32 4, !"nvvm-reflect-ftz", i32 0}
