; Per-function target-cpu / target-features that must not override the target machine.
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @k(ptr addrspace(1) %p) #0 {
  store float 1.0, ptr addrspace(1) %p
  ret void
}

attributes #0 = { "target-cpu"="sm_35" "target-features"="+ptx42" }
