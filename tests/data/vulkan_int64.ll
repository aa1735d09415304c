; A 64-bit store: needs the Int64 capability, which #gpu.vulkan allows and a target that does not list it refuses.
target triple = "spirv1.6-unknown-vulkan1.3-compute"
@.b = private unnamed_addr constant [2 x i8] c"b\00"
@.l = private unnamed_addr constant [2 x i8] c"l\00"
define void @k() #0 {
  %i = call i32 @llvm.spv.thread.id.i32(i32 0)
  %h = call target("spirv.VulkanBuffer", [0 x i64], 12, 1) @llvm.spv.resource.handlefrombinding.tspirv.VulkanBuffer_a0i64_12_1t(i32 0, i32 0, i32 1, i32 0, ptr @.l)
  %p = call ptr addrspace(11) @llvm.spv.resource.getpointer.p11.tspirv.VulkanBuffer_a0i64_12_1t(target("spirv.VulkanBuffer", [0 x i64], 12, 1) %h, i32 %i)
  %w = zext i32 %i to i64
  %v = mul i64 %w, 4294967296
  store i64 %v, ptr addrspace(11) %p
  ret void
}
declare target("spirv.VulkanBuffer", [0 x i64], 12, 1) @llvm.spv.resource.handlefrombinding.tspirv.VulkanBuffer_a0i64_12_1t(i32, i32, i32, i32, ptr)
declare ptr addrspace(11) @llvm.spv.resource.getpointer.p11.tspirv.VulkanBuffer_a0i64_12_1t(target("spirv.VulkanBuffer", [0 x i64], 12, 1), i32)
declare i32 @llvm.spv.thread.id.i32(i32)
declare target("spirv.VulkanBuffer", [0 x float], 12, 1) @llvm.spv.resource.handlefrombinding.tspirv.VulkanBuffer_a0f32_12_1t(i32, i32, i32, i32, ptr)
declare ptr addrspace(11) @llvm.spv.resource.getpointer.p11.tspirv.VulkanBuffer_a0f32_12_1t(target("spirv.VulkanBuffer", [0 x float], 12, 1), i32)
attributes #0 = { "hlsl.shader"="compute" "hlsl.numthreads"="64,1,1" }
