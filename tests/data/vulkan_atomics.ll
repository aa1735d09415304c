; Atomics for Vulkan: an integer add (monotonic: LLVM 22 writes null constants), a umax
; (seq_cst) and a float add (SPV_EXT_shader_atomic_float_add) on storage buffers.
target triple = "spirv1.6-unknown-vulkan1.3-compute"
@.c = private unnamed_addr constant [2 x i8] c"c\00"
@.f = private unnamed_addr constant [2 x i8] c"f\00"
define void @count() #0 {
entry:
  %gid = call i32 @llvm.spv.thread.id.i32(i32 0)
  %h = call target("spirv.VulkanBuffer", [0 x i32], 12, 1) @llvm.spv.resource.handlefrombinding.tspirv.VulkanBuffer_a0i32_12_1t(i32 0, i32 0, i32 1, i32 0, ptr @.c)
  %p = call ptr addrspace(11) @llvm.spv.resource.getpointer.p11.tspirv.VulkanBuffer_a0i32_12_1t(target("spirv.VulkanBuffer", [0 x i32], 12, 1) %h, i32 0)
  %o = atomicrmw add ptr addrspace(11) %p, i32 1 monotonic
  %q = call ptr addrspace(11) @llvm.spv.resource.getpointer.p11.tspirv.VulkanBuffer_a0i32_12_1t(target("spirv.VulkanBuffer", [0 x i32], 12, 1) %h, i32 1)
  %o2 = atomicrmw umax ptr addrspace(11) %q, i32 %gid seq_cst
  %hf = call target("spirv.VulkanBuffer", [0 x float], 12, 1) @llvm.spv.resource.handlefrombinding.tspirv.VulkanBuffer_a0f32_12_1t(i32 0, i32 1, i32 1, i32 0, ptr @.f)
  %pf = call ptr addrspace(11) @llvm.spv.resource.getpointer.p11.tspirv.VulkanBuffer_a0f32_12_1t(target("spirv.VulkanBuffer", [0 x float], 12, 1) %hf, i32 0)
  %of = atomicrmw fadd ptr addrspace(11) %pf, float 1.0 monotonic
  ret void
}
declare i32 @llvm.spv.thread.id.i32(i32)
declare target("spirv.VulkanBuffer", [0 x i32], 12, 1) @llvm.spv.resource.handlefrombinding.tspirv.VulkanBuffer_a0i32_12_1t(i32, i32, i32, i32, ptr)
declare ptr addrspace(11) @llvm.spv.resource.getpointer.p11.tspirv.VulkanBuffer_a0i32_12_1t(target("spirv.VulkanBuffer", [0 x i32], 12, 1), i32)
declare target("spirv.VulkanBuffer", [0 x float], 12, 1) @llvm.spv.resource.handlefrombinding.tspirv.VulkanBuffer_a0f32_12_1t(i32, i32, i32, i32, ptr)
declare ptr addrspace(11) @llvm.spv.resource.getpointer.p11.tspirv.VulkanBuffer_a0f32_12_1t(target("spirv.VulkanBuffer", [0 x float], 12, 1), i32)
attributes #0 = { "hlsl.shader"="compute" "hlsl.numthreads"="64,1,1" }
