; As clang 19 writes CUDA for sm_80 with CUDA 12.5's headers: "+ptx85" on every function, and
; inline PTX that needs PTX 7.6 (bmsk, as in CUB), which sm_80's minimum (7.0) lacks:
;   __device__ unsigned mask(unsigned pos, unsigned len) {
;     unsigned r; asm("bmsk.clamp.b32 %0, %1, %2;" : "=r"(r) : "r"(pos), "r"(len)); return r; }
;   __global__ void masks(unsigned *out) { out[threadIdx.x] = mask(threadIdx.x, 4); }
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define dso_local i32 @_Z4maskjj(i32 %pos, i32 %len) local_unnamed_addr #0 {
  %r = tail call i32 asm "bmsk.clamp.b32 $0, $1, $2;", "=r,r,r"(i32 %pos, i32 %len)
  ret i32 %r
}

define dso_local void @_Z5masksPj(ptr nocapture noundef writeonly %out) local_unnamed_addr #1 {
  %t = tail call range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %m = tail call i32 @_Z4maskjj(i32 %t, i32 4)
  %i = zext nneg i32 %t to i64
  %p = getelementptr inbounds i32, ptr %out, i64 %i
  store i32 %m, ptr %p, align 4
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

attributes #0 = { convergent mustprogress noinline nounwind "target-cpu"="sm_80" "target-features"="+ptx85,+sm_80" }
attributes #1 = { convergent mustprogress norecurse nounwind "target-cpu"="sm_80" "target-features"="+ptx85,+sm_80" "uniform-work-group-size"="true" }

!nvvm.annotations = !{!0}
!0 = !{ptr @_Z5masksPj, !"kernel", i32 1}
