; OpenCL image built-ins for NVPTX, for the benchmark only: libclc has none for NVPTX, and all
; but one of darktable's kernels read and write images. An image here is a plain buffer: a
; 16-byte header (i32 width, i32 height) then 16-byte pixels, clamped to the edge. The same
; library goes to every tool chain the benchmark compares, so the work stays the same.
target triple = "nvptx64-nvidia-cuda"

define internal i64 @pixel(ptr addrspace(1) %img, <2 x i32> %c) alwaysinline {
  %w = load i32, ptr addrspace(1) %img, align 16
  %hp = getelementptr i8, ptr addrspace(1) %img, i64 4
  %h = load i32, ptr addrspace(1) %hp, align 4
  %x0 = extractelement <2 x i32> %c, i64 0
  %y0 = extractelement <2 x i32> %c, i64 1
  %wm = add i32 %w, -1
  %hm = add i32 %h, -1
  %x1 = call i32 @llvm.smax.i32(i32 %x0, i32 0)
  %x = call i32 @llvm.smin.i32(i32 %x1, i32 %wm)
  %y1 = call i32 @llvm.smax.i32(i32 %y0, i32 0)
  %y = call i32 @llvm.smin.i32(i32 %y1, i32 %hm)
  %row = mul i32 %y, %w
  %i = add i32 %row, %x
  %i64 = sext i32 %i to i64
  %off = shl i64 %i64, 4
  %o = add i64 %off, 16
  ret i64 %o
}

define ptr addrspace(4) @__translate_sampler_initializer(i32 %s) {
  %p = inttoptr i32 %s to ptr addrspace(4)
  ret ptr addrspace(4) %p
}

define <4 x float> @_Z11read_imagef14ocl_image2d_ro11ocl_samplerDv2_i(ptr addrspace(1) %img, ptr addrspace(4) %s, <2 x i32> %c) {
  %o = call i64 @pixel(ptr addrspace(1) %img, <2 x i32> %c)
  %p = getelementptr i8, ptr addrspace(1) %img, i64 %o
  %v = load <4 x float>, ptr addrspace(1) %p, align 16
  ret <4 x float> %v
}

define <4 x float> @_Z11read_imagef14ocl_image2d_ro11ocl_samplerDv2_f(ptr addrspace(1) %img, ptr addrspace(4) %s, <2 x float> %f) {
  %fl = call <2 x float> @llvm.floor.v2f32(<2 x float> %f)
  %c = fptosi <2 x float> %fl to <2 x i32>
  %v = call <4 x float> @_Z11read_imagef14ocl_image2d_ro11ocl_samplerDv2_i(ptr addrspace(1) %img, ptr addrspace(4) %s, <2 x i32> %c)
  ret <4 x float> %v
}

define <4 x i32> @_Z12read_imageui14ocl_image2d_ro11ocl_samplerDv2_i(ptr addrspace(1) %img, ptr addrspace(4) %s, <2 x i32> %c) {
  %o = call i64 @pixel(ptr addrspace(1) %img, <2 x i32> %c)
  %p = getelementptr i8, ptr addrspace(1) %img, i64 %o
  %v = load <4 x i32>, ptr addrspace(1) %p, align 16
  ret <4 x i32> %v
}

define void @_Z12write_imagef14ocl_image2d_woDv2_iDv4_f(ptr addrspace(1) %img, <2 x i32> %c, <4 x float> %v) {
  %o = call i64 @pixel(ptr addrspace(1) %img, <2 x i32> %c)
  %p = getelementptr i8, ptr addrspace(1) %img, i64 %o
  store <4 x float> %v, ptr addrspace(1) %p, align 16
  ret void
}

define void @_Z13write_imageui14ocl_image2d_woDv2_iDv4_j(ptr addrspace(1) %img, <2 x i32> %c, <4 x i32> %v) {
  %o = call i64 @pixel(ptr addrspace(1) %img, <2 x i32> %c)
  %p = getelementptr i8, ptr addrspace(1) %img, i64 %o
  store <4 x i32> %v, ptr addrspace(1) %p, align 16
  ret void
}

declare i32 @llvm.smax.i32(i32, i32)
declare i32 @llvm.smin.i32(i32, i32)
declare <2 x float> @llvm.floor.v2f32(<2 x float>)
