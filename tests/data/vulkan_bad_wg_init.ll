; Workgroup memory with initial values: Vulkan has no way to give them.
target triple = "spirv1.6-unknown-vulkan1.3-compute"
@.b = private unnamed_addr constant [2 x i8] c"b\00"
@tile = internal addrspace(3) global [4 x float] [float 1.0, float 2.0, float 3.0, float 4.0]
define void @k() #0 {
  %i = call i32 @llvm.spv.thread.id.in.group.i32(i32 0)
  %h = call target("spirv.VulkanBuffer", [0 x float], 12, 1) @llvm.spv.resource.handlefrombinding.tspirv.VulkanBuffer_a0f32_12_1t(i32 0, i32 0, i32 1, i32 0, ptr @.b)
  %p = call ptr addrspace(11) @llvm.spv.resource.getpointer.p11.tspirv.VulkanBuffer_a0f32_12_1t(target("spirv.VulkanBuffer", [0 x float], 12, 1) %h, i32 %i)
  %q = getelementptr [4 x float], ptr addrspace(3) @tile, i32 0, i32 %i
  %v = load float, ptr addrspace(3) %q
  store float %v, ptr addrspace(11) %p
  ret void
}
declare i32 @llvm.spv.thread.id.in.group.i32(i32)
declare target("spirv.VulkanBuffer", [0 x float], 12, 1) @llvm.spv.resource.handlefrombinding.tspirv.VulkanBuffer_a0f32_12_1t(i32, i32, i32, i32, ptr)
declare ptr addrspace(11) @llvm.spv.resource.getpointer.p11.tspirv.VulkanBuffer_a0f32_12_1t(target("spirv.VulkanBuffer", [0 x float], 12, 1), i32)
attributes #0 = { "hlsl.shader"="compute" "hlsl.numthreads"="4,1,1" }
