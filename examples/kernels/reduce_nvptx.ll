; reduce: out[blockIdx.x] = sum of in[] over the block, a tree in shared memory
; (NVPTX, ptx_kernel calling convention; 256 threads per block, 1 KiB of shared memory)
target triple = "nvptx64-nvidia-cuda"

@partial = internal addrspace(3) global [256 x float] undef, align 4

define ptx_kernel void @reduce(ptr addrspace(1) %in, ptr addrspace(1) %out, i32 %n) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %base = mul i32 %ctaid, %ntid
  %i = add i32 %base, %tid
  %inb = icmp slt i32 %i, %n
  br i1 %inb, label %load, label %store
load:
  %idx = sext i32 %i to i64
  %pin = getelementptr float, ptr addrspace(1) %in, i64 %idx
  %v = load float, ptr addrspace(1) %pin
  br label %store
store:
  %val = phi float [ %v, %load ], [ 0.0, %entry ]
  %tid64 = zext i32 %tid to i64
  %slot = getelementptr [256 x float], ptr addrspace(3) @partial, i64 0, i64 %tid64
  store float %val, ptr addrspace(3) %slot
  call void @llvm.nvvm.barrier0()
  br label %loop
loop:
  %stride = phi i32 [ 128, %store ], [ %next, %step ]
  %active = icmp ult i32 %tid, %stride
  br i1 %active, label %add, label %step
add:
  %other = add i32 %tid, %stride
  %other64 = zext i32 %other to i64
  %pother = getelementptr [256 x float], ptr addrspace(3) @partial, i64 0, i64 %other64
  %a = load float, ptr addrspace(3) %slot
  %b = load float, ptr addrspace(3) %pother
  %s = fadd float %a, %b
  store float %s, ptr addrspace(3) %slot
  br label %step
step:
  call void @llvm.nvvm.barrier0()
  %next = lshr i32 %stride, 1
  %more = icmp ne i32 %next, 0
  br i1 %more, label %loop, label %done
done:
  %first = icmp eq i32 %tid, 0
  br i1 %first, label %write, label %exit
write:
  %total = load float, ptr addrspace(3) @partial
  %ctaid64 = zext i32 %ctaid to i64
  %pout = getelementptr float, ptr addrspace(1) %out, i64 %ctaid64
  store float %total, ptr addrspace(1) %pout
  br label %exit
exit:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare void @llvm.nvvm.barrier0()
