; A constant table (clang's copy of a private array's initializer) that the lowering leaves
; named only by constant expressions nothing uses (reduced from darktable's basic.cl, with a
; kernel that takes an image): deleted, not declared in UniformConstant, which a shader may not
; have for an array (spirv-val: VUID-StandaloneSpirv-UniformConstant-04655). tests/cli_vulkan.sh.
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64-G1"
target triple = "spirv64"

@table = private addrspace(2) constant [3 x float] [float 0xC7EFFFFFE0000000, float 0xC7EFFFFFE0000000, float 0xC7EFFFFFE0000000]

define spir_kernel void @image(target("spirv.Image", void, 1, 0, 0, 0, 0, 0, 1) %0, <4 x i32> %1) {
  %3 = bitcast <4 x i32> %1 to <16 x i8>
  %4 = extractelement <16 x i8> %3, i64 0
  %5 = icmp eq i8 %4, 0
  br i1 %5, label %6, label %common.ret

common.ret:                                       ; preds = %6, %2
  ret void

6:                                                ; preds = %2
  tail call spir_func void @_Z12write_imagef14ocl_image2d_woDv2_iDv4_f(target("spirv.Image", void, 1, 0, 0, 0, 0, 0, 1) %0, <2 x i32> zeroinitializer, <4 x float> zeroinitializer)
  br label %common.ret
}

define spir_kernel void @copy() {
  call void @llvm.memcpy.p0.p2.i64(ptr poison, ptr addrspace(2) @table, i64 12, i1 false)
  %1 = call spir_func float @_Z3maxff()
  unreachable
}

declare spir_func void @_Z12write_imagef14ocl_image2d_woDv2_iDv4_f(target("spirv.Image", void, 1, 0, 0, 0, 0, 0, 1), <2 x i32>, <4 x float>)

declare spir_func float @_Z3maxff()

declare void @llvm.memcpy.p0.p2.i64(ptr noalias writeonly captures(none), ptr addrspace(2) noalias readonly captures(none), i64, i1 immarg) #0

attributes #0 = { nocallback nofree nounwind willreturn memory(argmem: readwrite) }
