; A compare-and-swap (OpenCL's atomic_cmpxchg): LLVM 22 alone crashes on it for Vulkan (signal 11
; in "SPIRV legalize bitcast": the pointer cast to the { i32, i1 } result it makes has no handler);
; gpucompile writes it as llvm.spv.cmpxchg and repairs the result (tests/cli_vulkan.sh).
target triple = "spirv1.6-unknown-vulkan1.3-compute"
@.c = private unnamed_addr constant [2 x i8] c"c\00"
define void @k() #0 {
  %i = call i32 @llvm.spv.thread.id.i32(i32 0)
  %h = call target("spirv.VulkanBuffer", [0 x i32], 12, 1) @llvm.spv.resource.handlefrombinding.tspirv.VulkanBuffer_a0i32_12_1t(i32 0, i32 0, i32 1, i32 0, ptr @.c)
  %p = call ptr addrspace(11) @llvm.spv.resource.getpointer.p11.tspirv.VulkanBuffer_a0i32_12_1t(target("spirv.VulkanBuffer", [0 x i32], 12, 1) %h, i32 0)
  %n = add i32 %i, 1
  %x = cmpxchg ptr addrspace(11) %p, i32 %i, i32 %n seq_cst seq_cst
  ret void
}
declare i32 @llvm.spv.thread.id.i32(i32)
declare target("spirv.VulkanBuffer", [0 x i32], 12, 1) @llvm.spv.resource.handlefrombinding.tspirv.VulkanBuffer_a0i32_12_1t(i32, i32, i32, i32, ptr)
declare ptr addrspace(11) @llvm.spv.resource.getpointer.p11.tspirv.VulkanBuffer_a0i32_12_1t(target("spirv.VulkanBuffer", [0 x i32], 12, 1), i32)
attributes #0 = { "hlsl.shader"="compute" "hlsl.numthreads"="64,1,1" }
