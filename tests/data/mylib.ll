; A user bitcode library: one function the kernel uses, one it does not.
define float @mylib_scale(float %x) {
  %r = fmul float %x, 3.0
  ret float %r
}

define float @mylib_unused(float %x) {
  %r = fadd float %x, 1.0
  ret float %r
}
