; A push-constant block of several types for Vulkan (float, i32, <2 x float>, i64, double; the
; offsets follow the data layout: 0, 4, 8, 16, 24), read outside the entry block (LLVM 22
; crashes on that at -O1 and up: the loads move into the entry block). out[i] = the sum, as float.
target triple = "spirv1.6-unknown-vulkan1.3-compute"
%Mix = type { float, i32, <2 x float>, i64, double }
@mix = external hidden addrspace(13) externally_initialized global %Mix
@.out = private unnamed_addr constant [4 x i8] c"out\00"
define void @mixed() #0 {
entry:
  %i = call i32 @llvm.spv.thread.id.i32(i32 0)
  %h = call target("spirv.VulkanBuffer", [0 x float], 12, 1) @llvm.spv.resource.handlefrombinding.tspirv.VulkanBuffer_a0f32_12_1t(i32 0, i32 0, i32 1, i32 0, ptr @.out)
  %c = icmp ult i32 %i, 64
  br i1 %c, label %body, label %done
body:
  %a = load float, ptr addrspace(13) @mix
  %bp = getelementptr inbounds %Mix, ptr addrspace(13) @mix, i32 0, i32 1
  %b = load i32, ptr addrspace(13) %bp
  %vp = getelementptr inbounds %Mix, ptr addrspace(13) @mix, i32 0, i32 2
  %v = load <2 x float>, ptr addrspace(13) %vp
  %lp = getelementptr inbounds %Mix, ptr addrspace(13) @mix, i32 0, i32 3
  %l = load i64, ptr addrspace(13) %lp
  %dp = getelementptr inbounds %Mix, ptr addrspace(13) @mix, i32 0, i32 4
  %d = load double, ptr addrspace(13) %dp
  %bf = sitofp i32 %b to float
  %v1 = extractelement <2 x float> %v, i32 1
  %lf = sitofp i64 %l to float
  %df = fptrunc double %d to float
  %s1 = fadd float %a, %bf
  %s2 = fadd float %s1, %v1
  %s3 = fadd float %s2, %lf
  %s4 = fadd float %s3, %df
  %p = call ptr addrspace(11) @llvm.spv.resource.getpointer.p11.tspirv.VulkanBuffer_a0f32_12_1t(target("spirv.VulkanBuffer", [0 x float], 12, 1) %h, i32 %i)
  store float %s4, ptr addrspace(11) %p
  br label %done
done:
  ret void
}
declare i32 @llvm.spv.thread.id.i32(i32)
declare target("spirv.VulkanBuffer", [0 x float], 12, 1) @llvm.spv.resource.handlefrombinding.tspirv.VulkanBuffer_a0f32_12_1t(i32, i32, i32, i32, ptr)
declare ptr addrspace(11) @llvm.spv.resource.getpointer.p11.tspirv.VulkanBuffer_a0f32_12_1t(target("spirv.VulkanBuffer", [0 x float], 12, 1), i32)
attributes #0 = { "hlsl.shader"="compute" "hlsl.numthreads"="64,1,1" }
