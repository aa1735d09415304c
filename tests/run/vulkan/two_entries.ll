; Two entry points in one module, one binding and one push-constant block shared by both:
; fill writes v[i] = i, twice doubles v[i], for i < n. 32 threads per workgroup.
target triple = "spirv1.6-unknown-vulkan1.3-compute"

%Push = type { i32 }
@pc = external hidden addrspace(13) externally_initialized global %Push
@v.name = private unnamed_addr constant [2 x i8] c"v\00"

define void @fill() #0 {
entry:
  %i = call i32 @llvm.spv.thread.id.i32(i32 0)
  %n = load i32, ptr addrspace(13) @pc
  %in = icmp ult i32 %i, %n
  br i1 %in, label %body, label %done
body:
  %h = call target("spirv.VulkanBuffer", [0 x i32], 12, 1) @llvm.spv.resource.handlefrombinding.tspirv.VulkanBuffer_a0i32_12_1t(i32 0, i32 0, i32 1, i32 0, ptr @v.name)
  %p = call ptr addrspace(11) @llvm.spv.resource.getpointer.p11.tspirv.VulkanBuffer_a0i32_12_1t(target("spirv.VulkanBuffer", [0 x i32], 12, 1) %h, i32 %i)
  store i32 %i, ptr addrspace(11) %p
  br label %done
done:
  ret void
}

define void @twice() #0 {
entry:
  %i = call i32 @llvm.spv.thread.id.i32(i32 0)
  %n = load i32, ptr addrspace(13) @pc
  %in = icmp ult i32 %i, %n
  br i1 %in, label %body, label %done
body:
  %h = call target("spirv.VulkanBuffer", [0 x i32], 12, 1) @llvm.spv.resource.handlefrombinding.tspirv.VulkanBuffer_a0i32_12_1t(i32 0, i32 0, i32 1, i32 0, ptr @v.name)
  %p = call ptr addrspace(11) @llvm.spv.resource.getpointer.p11.tspirv.VulkanBuffer_a0i32_12_1t(target("spirv.VulkanBuffer", [0 x i32], 12, 1) %h, i32 %i)
  %x = load i32, ptr addrspace(11) %p
  %y = shl i32 %x, 1
  store i32 %y, ptr addrspace(11) %p
  br label %done
done:
  ret void
}

declare i32 @llvm.spv.thread.id.i32(i32)
declare target("spirv.VulkanBuffer", [0 x i32], 12, 1) @llvm.spv.resource.handlefrombinding.tspirv.VulkanBuffer_a0i32_12_1t(i32, i32, i32, i32, ptr)
declare ptr addrspace(11) @llvm.spv.resource.getpointer.p11.tspirv.VulkanBuffer_a0i32_12_1t(target("spirv.VulkanBuffer", [0 x i32], 12, 1), i32)

attributes #0 = { "hlsl.shader"="compute" "hlsl.numthreads"="32,1,1" }
