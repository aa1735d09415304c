; A getelementptr on llvm.spv.resource.getpointer's result: LLVM 22's code generator crashes on it.
target triple = "spirv1.6-unknown-vulkan1.3-compute"
@.b = private unnamed_addr constant [2 x i8] c"b\00"
define void @k() #0 {
  %i = call i32 @llvm.spv.thread.id.i32(i32 0)
  %h = call target("spirv.VulkanBuffer", [0 x float], 12, 1) @llvm.spv.resource.handlefrombinding.tspirv.VulkanBuffer_a0f32_12_1t(i32 0, i32 0, i32 1, i32 0, ptr @.b)
  %p = call ptr addrspace(11) @llvm.spv.resource.getpointer.p11.tspirv.VulkanBuffer_a0f32_12_1t(target("spirv.VulkanBuffer", [0 x float], 12, 1) %h, i32 %i)
  %q = getelementptr float, ptr addrspace(11) %p, i32 1
  store float 1.0, ptr addrspace(11) %q
  ret void
}
declare i32 @llvm.spv.thread.id.i32(i32)
declare target("spirv.VulkanBuffer", [0 x float], 12, 1) @llvm.spv.resource.handlefrombinding.tspirv.VulkanBuffer_a0f32_12_1t(i32, i32, i32, i32, ptr)
declare ptr addrspace(11) @llvm.spv.resource.getpointer.p11.tspirv.VulkanBuffer_a0f32_12_1t(target("spirv.VulkanBuffer", [0 x float], 12, 1), i32)
attributes #0 = { "hlsl.shader"="compute" "hlsl.numthreads"="64,1,1" }
