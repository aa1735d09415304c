; reduce: each block of 256 work-items sums its 256 inputs in LDS (addrspace 3) with a tree of
; s_barrier steps; work-item 0 writes the block's sum to out[block].
target triple = "amdgcn-amd-amdhsa"

@tile = internal addrspace(3) global [256 x float] poison, align 4

define amdgpu_kernel void @reduce(ptr addrspace(1) %in, ptr addrspace(1) %out, i32 %n) #0 {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %bid = call i32 @llvm.amdgcn.workgroup.id.x()
  %base = shl i32 %bid, 8
  %i = add i32 %base, %tid
  %inb = icmp slt i32 %i, %n
  br i1 %inb, label %load, label %store
load:
  %idx = sext i32 %i to i64
  %pin = getelementptr inbounds float, ptr addrspace(1) %in, i64 %idx
  %vin = load float, ptr addrspace(1) %pin, align 4
  br label %store
store:
  %v0 = phi float [ %vin, %load ], [ 0.0, %entry ]
  %slot = getelementptr inbounds [256 x float], ptr addrspace(3) @tile, i32 0, i32 %tid
  store float %v0, ptr addrspace(3) %slot, align 4
  call void @sync()
  br label %loop
loop:
  %s = phi i32 [ 128, %store ], [ %s.next, %step.done ]
  %active = icmp ult i32 %tid, %s
  br i1 %active, label %step, label %step.done
step:
  %j = add i32 %tid, %s
  %other = getelementptr inbounds [256 x float], ptr addrspace(3) @tile, i32 0, i32 %j
  %a = load float, ptr addrspace(3) %slot, align 4
  %b = load float, ptr addrspace(3) %other, align 4
  %sum = fadd float %a, %b
  store float %sum, ptr addrspace(3) %slot, align 4
  br label %step.done
step.done:
  call void @sync()
  %s.next = lshr i32 %s, 1
  %more = icmp ne i32 %s.next, 0
  br i1 %more, label %loop, label %done
done:
  %first = icmp eq i32 %tid, 0
  br i1 %first, label %write, label %exit
write:
  %total = load float, ptr addrspace(3) %slot, align 4
  %bidx = zext i32 %bid to i64
  %pout = getelementptr inbounds float, ptr addrspace(1) %out, i64 %bidx
  store float %total, ptr addrspace(1) %pout, align 4
  br label %exit
exit:
  ret void
}

; A workgroup barrier with the fences that make LDS stores visible to the whole group.
define internal void @sync() alwaysinline {
  fence syncscope("workgroup") release
  call void @llvm.amdgcn.s.barrier()
  fence syncscope("workgroup") acquire
  ret void
}

declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.workgroup.id.x()
declare void @llvm.amdgcn.s.barrier()

attributes #0 = { "amdgpu-flat-work-group-size"="256,256" }
