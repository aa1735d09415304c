; A loop whose code differs between O0 and O3 (unrolling, strength reduction).
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @sum(ptr addrspace(1) %p, i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %acc = phi float [ 0.0, %entry ], [ %acc1, %loop ]
  %idx = sext i32 %i to i64
  %q = getelementptr float, ptr addrspace(1) %p, i64 %idx
  %v = load float, ptr addrspace(1) %q
  %acc1 = fadd float %acc, %v
  %i1 = add i32 %i, 1
  %c = icmp slt i32 %i1, 64
  br i1 %c, label %loop, label %done
done:
  store float %acc1, ptr addrspace(1) %p
  ret void
}
