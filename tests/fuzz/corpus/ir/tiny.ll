define ptx_kernel void @k(ptr %p) {
  store i32 1, ptr %p
  ret void
}
