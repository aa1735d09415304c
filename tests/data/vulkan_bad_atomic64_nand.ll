; A 64-bit nand (no OpenCL built-in writes one): no SPIR-V atomic does it, and LLVM 22 stops on
; 64-bit atomics for Vulkan; refused by name.
target triple = "spirv1.6-unknown-vulkan1.3-compute"
@.c = private unnamed_addr constant [2 x i8] c"c\00"
define void @k() #0 {
  %i = call i32 @llvm.spv.thread.id.i32(i32 0)
  %h = call target("spirv.VulkanBuffer", [0 x i64], 12, 1) @llvm.spv.resource.handlefrombinding.tspirv.VulkanBuffer_a0i64_12_1t(i32 0, i32 0, i32 1, i32 0, ptr @.c)
  %p = call ptr addrspace(11) @llvm.spv.resource.getpointer.p11.tspirv.VulkanBuffer_a0i64_12_1t(target("spirv.VulkanBuffer", [0 x i64], 12, 1) %h, i32 0)
  %v = zext i32 %i to i64
  %o = atomicrmw nand ptr addrspace(11) %p, i64 %v seq_cst
  ret void
}
declare i32 @llvm.spv.thread.id.i32(i32)
declare target("spirv.VulkanBuffer", [0 x i64], 12, 1) @llvm.spv.resource.handlefrombinding.tspirv.VulkanBuffer_a0i64_12_1t(i32, i32, i32, i32, ptr)
declare ptr addrspace(11) @llvm.spv.resource.getpointer.p11.tspirv.VulkanBuffer_a0i64_12_1t(target("spirv.VulkanBuffer", [0 x i64], 12, 1), i32)
attributes #0 = { "hlsl.shader"="compute" "hlsl.numthreads"="64,1,1" }
