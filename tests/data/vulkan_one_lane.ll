; A one-lane vector (<1 x float>, which SPIR-V has not: OpTypeVector takes 2 to 4 components)
; read from a private array of float2 (reduced from darktable's liquify.cl): the module is
; scalarized as one with a wide vector is, so that no <1 x T> and no vector of vectors is left.
target triple = "spirv64"
define spir_kernel void @k(ptr addrspace(1) %o, i64 %i) {
  %a = alloca [6 x <2 x float>], align 8
  %p = getelementptr <2 x float>, ptr %a, i64 %i
  store <2 x float> <float 1.0, float 2.0>, ptr %p, align 8
  %x = load <1 x float>, ptr %a, align 8
  %y = load <2 x float>, ptr %a, align 8
  %s = shufflevector <1 x float> %x, <1 x float> zeroinitializer, <4 x i32> zeroinitializer
  %t = shufflevector <2 x float> %y, <2 x float> zeroinitializer, <4 x i32> <i32 1, i32 1, i32 1, i32 1>
  %m = fmul <4 x float> %s, %t
  store <4 x float> %m, ptr addrspace(1) %o, align 16
  ret void
}
