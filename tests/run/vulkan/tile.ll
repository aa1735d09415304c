; Workgroup memory from LLVM IR (a [64 x float] tile in address space 3): the reflection counts
; its 256 bytes. Each thread writes 1.0 to its tile slot and copies it to o[thread].
target triple = "spirv1.6-unknown-vulkan1.3-compute"
@tile = internal addrspace(3) global [64 x float] poison
@o.name = private unnamed_addr constant [2 x i8] c"o\00"
define void @k() #0 {
entry:
  %t = call i32 @llvm.spv.thread.id.in.group.i32(i32 0)
  %p = getelementptr inbounds [64 x float], ptr addrspace(3) @tile, i32 0, i32 %t
  store float 1.0, ptr addrspace(3) %p
  %h = call target("spirv.VulkanBuffer", [0 x float], 12, 1) @llvm.spv.resource.handlefrombinding.tspirv.VulkanBuffer_a0f32_12_1t(i32 0, i32 0, i32 1, i32 0, ptr @o.name)
  %q = call ptr addrspace(11) @llvm.spv.resource.getpointer.p11.tspirv.VulkanBuffer_a0f32_12_1t(target("spirv.VulkanBuffer", [0 x float], 12, 1) %h, i32 %t)
  %x = load float, ptr addrspace(3) %p
  store float %x, ptr addrspace(11) %q
  ret void
}
declare i32 @llvm.spv.thread.id.in.group.i32(i32)
declare target("spirv.VulkanBuffer", [0 x float], 12, 1) @llvm.spv.resource.handlefrombinding.tspirv.VulkanBuffer_a0f32_12_1t(i32, i32, i32, i32, ptr)
declare ptr addrspace(11) @llvm.spv.resource.getpointer.p11.tspirv.VulkanBuffer_a0f32_12_1t(target("spirv.VulkanBuffer", [0 x float], 12, 1), i32)
attributes #0 = { "hlsl.shader"="compute" "hlsl.numthreads"="64,1,1" }
