; saxpy in the shape LLVM's SPIR-V backend takes for Vulkan compute: y[i] = a * x[i] + y[i]
; for i < n. Bindings: x (set 0, binding 0, read only), y (set 0, binding 1); push
; constants: { float a; uint n }; 64 threads per workgroup.
target triple = "spirv1.6-unknown-vulkan1.3-compute"

%Push = type { float, i32 }
@pc = external hidden addrspace(13) externally_initialized global %Push
@x.name = private unnamed_addr constant [2 x i8] c"x\00"
@y.name = private unnamed_addr constant [2 x i8] c"y\00"

define void @saxpy() #0 {
entry:
  %gid = call i32 @llvm.spv.thread.id.i32(i32 0)
  %np = getelementptr inbounds %Push, ptr addrspace(13) @pc, i32 0, i32 1
  %n = load i32, ptr addrspace(13) %np
  %ap = getelementptr inbounds %Push, ptr addrspace(13) @pc, i32 0, i32 0
  %a = load float, ptr addrspace(13) %ap
  %in = icmp ult i32 %gid, %n
  br i1 %in, label %body, label %done
body:
  %xh = call target("spirv.VulkanBuffer", [0 x float], 12, 0) @llvm.spv.resource.handlefrombinding.tspirv.VulkanBuffer_a0f32_12_0t(i32 0, i32 0, i32 1, i32 0, ptr @x.name)
  %yh = call target("spirv.VulkanBuffer", [0 x float], 12, 1) @llvm.spv.resource.handlefrombinding.tspirv.VulkanBuffer_a0f32_12_1t(i32 0, i32 1, i32 1, i32 0, ptr @y.name)
  %xp = call ptr addrspace(11) @llvm.spv.resource.getpointer.p11.tspirv.VulkanBuffer_a0f32_12_0t(target("spirv.VulkanBuffer", [0 x float], 12, 0) %xh, i32 %gid)
  %yp = call ptr addrspace(11) @llvm.spv.resource.getpointer.p11.tspirv.VulkanBuffer_a0f32_12_1t(target("spirv.VulkanBuffer", [0 x float], 12, 1) %yh, i32 %gid)
  %xv = load float, ptr addrspace(11) %xp
  %yv = load float, ptr addrspace(11) %yp
  %m = fmul float %a, %xv
  %s = fadd float %m, %yv
  store float %s, ptr addrspace(11) %yp
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
