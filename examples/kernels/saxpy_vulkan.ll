; saxpy for Vulkan: y[i] = a * x[i] + y[i] for i < n; a and n in the push-constant block,
; x (set 0, binding 0, read-only) and y (binding 1) storage buffers; 64 invocations a workgroup.
target triple = "spirv1.6-unknown-vulkan1.3-compute"
%PC = type { float, i32 }
@pc = external hidden addrspace(13) externally_initialized global %PC
@.x = private unnamed_addr constant [2 x i8] c"x\00"
@.y = private unnamed_addr constant [2 x i8] c"y\00"
define void @saxpy() #0 {
entry:
  %id = call i32 @llvm.spv.thread.id.i32(i32 0)
  %a = load float, ptr addrspace(13) @pc
  %np = getelementptr inbounds %PC, ptr addrspace(13) @pc, i32 0, i32 1
  %n = load i32, ptr addrspace(13) %np
  %hx = call target("spirv.VulkanBuffer", [0 x float], 12, 0) @llvm.spv.resource.handlefrombinding.tspirv.VulkanBuffer_a0f32_12_0t(i32 0, i32 0, i32 1, i32 0, ptr @.x)
  %hy = call target("spirv.VulkanBuffer", [0 x float], 12, 1) @llvm.spv.resource.handlefrombinding.tspirv.VulkanBuffer_a0f32_12_1t(i32 0, i32 1, i32 1, i32 0, ptr @.y)
  %c = icmp ult i32 %id, %n
  br i1 %c, label %body, label %done
body:
  %px = call ptr addrspace(11) @llvm.spv.resource.getpointer.p11.tspirv.VulkanBuffer_a0f32_12_0t(target("spirv.VulkanBuffer", [0 x float], 12, 0) %hx, i32 %id)
  %py = call ptr addrspace(11) @llvm.spv.resource.getpointer.p11.tspirv.VulkanBuffer_a0f32_12_1t(target("spirv.VulkanBuffer", [0 x float], 12, 1) %hy, i32 %id)
  %x = load float, ptr addrspace(11) %px
  %y = load float, ptr addrspace(11) %py
  %m = fmul float %a, %x
  %s = fadd float %m, %y
  store float %s, ptr addrspace(11) %py
  br label %done
done:
  ret void
}
declare i32 @llvm.spv.thread.id.i32(i32)
declare target("spirv.VulkanBuffer", [0 x float], 12, 0) @llvm.spv.resource.handlefrombinding.tspirv.VulkanBuffer_a0f32_12_0t(i32, i32, i32, i32, ptr)
declare target("spirv.VulkanBuffer", [0 x float], 12, 1) @llvm.spv.resource.handlefrombinding.tspirv.VulkanBuffer_a0f32_12_1t(i32, i32, i32, i32, ptr)
declare ptr addrspace(11) @llvm.spv.resource.getpointer.p11.tspirv.VulkanBuffer_a0f32_12_0t(target("spirv.VulkanBuffer", [0 x float], 12, 0), i32)
declare ptr addrspace(11) @llvm.spv.resource.getpointer.p11.tspirv.VulkanBuffer_a0f32_12_1t(target("spirv.VulkanBuffer", [0 x float], 12, 1), i32)
attributes #0 = { "hlsl.shader"="compute" "hlsl.numthreads"="64,1,1" }
