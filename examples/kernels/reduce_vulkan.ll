; A workgroup reduction for Vulkan: out[group] = the sum of in[] over the 64 invocations of a
; workgroup, through workgroup memory and barriers (the case LLVM 22 gets wrong without the
; WorkgroupMemory semantics on its barrier; -O2 unrolls it into byte-offset addresses).
target triple = "spirv1.6-unknown-vulkan1.3-compute"
@.in = private unnamed_addr constant [3 x i8] c"in\00"
@.out = private unnamed_addr constant [4 x i8] c"out\00"
@tile = internal addrspace(3) global [64 x float] poison
define void @reduce() #0 {
entry:
  %lid = call i32 @llvm.spv.thread.id.in.group.i32(i32 0)
  %gid = call i32 @llvm.spv.thread.id.i32(i32 0)
  %grp = call i32 @llvm.spv.group.id.i32(i32 0)
  %hin = call target("spirv.VulkanBuffer", [0 x float], 12, 0) @llvm.spv.resource.handlefrombinding.tspirv.VulkanBuffer_a0f32_12_0t(i32 0, i32 0, i32 1, i32 0, ptr @.in)
  %hout = call target("spirv.VulkanBuffer", [0 x float], 12, 1) @llvm.spv.resource.handlefrombinding.tspirv.VulkanBuffer_a0f32_12_1t(i32 0, i32 1, i32 1, i32 0, ptr @.out)
  %pin = call ptr addrspace(11) @llvm.spv.resource.getpointer.p11.tspirv.VulkanBuffer_a0f32_12_0t(target("spirv.VulkanBuffer", [0 x float], 12, 0) %hin, i32 %gid)
  %v = load float, ptr addrspace(11) %pin
  %slot = getelementptr [64 x float], ptr addrspace(3) @tile, i32 0, i32 %lid
  store float %v, ptr addrspace(3) %slot
  br label %loop
loop:
  %s = phi i32 [ 32, %entry ], [ %s2, %next ]
  call void @llvm.spv.group.memory.barrier.with.group.sync()
  %c = icmp ult i32 %lid, %s
  br i1 %c, label %add, label %next
add:
  %o = add i32 %lid, %s
  %po = getelementptr [64 x float], ptr addrspace(3) @tile, i32 0, i32 %o
  %a = load float, ptr addrspace(3) %slot
  %b = load float, ptr addrspace(3) %po
  %sum = fadd float %a, %b
  store float %sum, ptr addrspace(3) %slot
  br label %next
next:
  %s2 = lshr i32 %s, 1
  %more = icmp ne i32 %s2, 0
  br i1 %more, label %loop, label %end
end:
  call void @llvm.spv.group.memory.barrier.with.group.sync()
  %z = icmp eq i32 %lid, 0
  br i1 %z, label %write, label %done
write:
  %p0 = getelementptr [64 x float], ptr addrspace(3) @tile, i32 0, i32 0
  %r = load float, ptr addrspace(3) %p0
  %pout = call ptr addrspace(11) @llvm.spv.resource.getpointer.p11.tspirv.VulkanBuffer_a0f32_12_1t(target("spirv.VulkanBuffer", [0 x float], 12, 1) %hout, i32 %grp)
  store float %r, ptr addrspace(11) %pout
  br label %done
done:
  ret void
}
declare i32 @llvm.spv.thread.id.i32(i32)
declare i32 @llvm.spv.thread.id.in.group.i32(i32)
declare i32 @llvm.spv.group.id.i32(i32)
declare void @llvm.spv.group.memory.barrier.with.group.sync() #1
declare target("spirv.VulkanBuffer", [0 x float], 12, 0) @llvm.spv.resource.handlefrombinding.tspirv.VulkanBuffer_a0f32_12_0t(i32, i32, i32, i32, ptr)
declare target("spirv.VulkanBuffer", [0 x float], 12, 1) @llvm.spv.resource.handlefrombinding.tspirv.VulkanBuffer_a0f32_12_1t(i32, i32, i32, i32, ptr)
declare ptr addrspace(11) @llvm.spv.resource.getpointer.p11.tspirv.VulkanBuffer_a0f32_12_0t(target("spirv.VulkanBuffer", [0 x float], 12, 0), i32)
declare ptr addrspace(11) @llvm.spv.resource.getpointer.p11.tspirv.VulkanBuffer_a0f32_12_1t(target("spirv.VulkanBuffer", [0 x float], 12, 1), i32)
attributes #0 = { convergent "hlsl.shader"="compute" "hlsl.numthreads"="64,1,1" }
attributes #1 = { convergent }
