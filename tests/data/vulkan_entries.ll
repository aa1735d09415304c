; Two entry points in one module for Vulkan, sharing one push-constant block (Mesa's driver
; refuses a module with two): fill writes value to buf[i], scale multiplies buf[i] by it.
target triple = "spirv1.6-unknown-vulkan1.3-compute"
%Args = type { float, i32 }
@args = external hidden addrspace(13) externally_initialized global %Args
@.buf = private unnamed_addr constant [4 x i8] c"buf\00"
define void @fill() #0 {
entry:
  %i = call i32 @llvm.spv.thread.id.i32(i32 0)
  %v = load float, ptr addrspace(13) @args
  %np = getelementptr inbounds %Args, ptr addrspace(13) @args, i32 0, i32 1
  %n = load i32, ptr addrspace(13) %np
  %h = call target("spirv.VulkanBuffer", [0 x float], 12, 1) @llvm.spv.resource.handlefrombinding.tspirv.VulkanBuffer_a0f32_12_1t(i32 0, i32 0, i32 1, i32 0, ptr @.buf)
  %c = icmp ult i32 %i, %n
  br i1 %c, label %body, label %done
body:
  %p = call ptr addrspace(11) @llvm.spv.resource.getpointer.p11.tspirv.VulkanBuffer_a0f32_12_1t(target("spirv.VulkanBuffer", [0 x float], 12, 1) %h, i32 %i)
  store float %v, ptr addrspace(11) %p
  br label %done
done:
  ret void
}
define void @scale() #1 {
entry:
  %i = call i32 @llvm.spv.thread.id.i32(i32 0)
  %v = load float, ptr addrspace(13) @args
  %np = getelementptr inbounds %Args, ptr addrspace(13) @args, i32 0, i32 1
  %n = load i32, ptr addrspace(13) %np
  %h = call target("spirv.VulkanBuffer", [0 x float], 12, 1) @llvm.spv.resource.handlefrombinding.tspirv.VulkanBuffer_a0f32_12_1t(i32 0, i32 0, i32 1, i32 0, ptr @.buf)
  %c = icmp ult i32 %i, %n
  br i1 %c, label %body, label %done
body:
  %p = call ptr addrspace(11) @llvm.spv.resource.getpointer.p11.tspirv.VulkanBuffer_a0f32_12_1t(target("spirv.VulkanBuffer", [0 x float], 12, 1) %h, i32 %i)
  %x = load float, ptr addrspace(11) %p
  %y = fmul float %x, %v
  store float %y, ptr addrspace(11) %p
  br label %done
done:
  ret void
}
declare i32 @llvm.spv.thread.id.i32(i32)
declare target("spirv.VulkanBuffer", [0 x float], 12, 1) @llvm.spv.resource.handlefrombinding.tspirv.VulkanBuffer_a0f32_12_1t(i32, i32, i32, i32, ptr)
declare ptr addrspace(11) @llvm.spv.resource.getpointer.p11.tspirv.VulkanBuffer_a0f32_12_1t(target("spirv.VulkanBuffer", [0 x float], 12, 1), i32)
attributes #0 = { "hlsl.shader"="compute" "hlsl.numthreads"="64,1,1" }
attributes #1 = { "hlsl.shader"="compute" "hlsl.numthreads"="32,1,1" }
