; A kernel calling a function from tests/data/mylib.ll.
target triple = "nvptx64-nvidia-cuda"

declare float @mylib_scale(float)

define ptx_kernel void @scale(ptr addrspace(1) %p) {
  %v = load float, ptr addrspace(1) %p
  %s = call float @mylib_scale(float %v)
  store float %s, ptr addrspace(1) %p
  ret void
}
