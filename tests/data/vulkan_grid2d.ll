; A 2D grid for Vulkan: out[y * width + x] = x + 1000 * y, 8x8 workgroups; width and height in
; the push-constant block.
target triple = "spirv1.6-unknown-vulkan1.3-compute"
%Size = type { i32, i32 }
@size = external hidden addrspace(13) externally_initialized global %Size
@.out = private unnamed_addr constant [4 x i8] c"out\00"
define void @grid() #0 {
entry:
  %x = call i32 @llvm.spv.thread.id.i32(i32 0)
  %y = call i32 @llvm.spv.thread.id.i32(i32 1)
  %w = load i32, ptr addrspace(13) @size
  %hp = getelementptr inbounds %Size, ptr addrspace(13) @size, i32 0, i32 1
  %h = load i32, ptr addrspace(13) %hp
  %h0 = call target("spirv.VulkanBuffer", [0 x i32], 12, 1) @llvm.spv.resource.handlefrombinding.tspirv.VulkanBuffer_a0i32_12_1t(i32 0, i32 0, i32 1, i32 0, ptr @.out)
  %inx = icmp ult i32 %x, %w
  %iny = icmp ult i32 %y, %h
  %in = and i1 %inx, %iny
  br i1 %in, label %body, label %done
body:
  %row = mul i32 %y, %w
  %i = add i32 %row, %x
  %ky = mul i32 %y, 1000
  %v = add i32 %ky, %x
  %p = call ptr addrspace(11) @llvm.spv.resource.getpointer.p11.tspirv.VulkanBuffer_a0i32_12_1t(target("spirv.VulkanBuffer", [0 x i32], 12, 1) %h0, i32 %i)
  store i32 %v, ptr addrspace(11) %p
  br label %done
done:
  ret void
}
declare i32 @llvm.spv.thread.id.i32(i32)
declare target("spirv.VulkanBuffer", [0 x i32], 12, 1) @llvm.spv.resource.handlefrombinding.tspirv.VulkanBuffer_a0i32_12_1t(i32, i32, i32, i32, ptr)
declare ptr addrspace(11) @llvm.spv.resource.getpointer.p11.tspirv.VulkanBuffer_a0i32_12_1t(target("spirv.VulkanBuffer", [0 x i32], 12, 1), i32)
attributes #0 = { "hlsl.shader"="compute" "hlsl.numthreads"="8,8,1" }
