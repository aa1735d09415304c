module attributes {gpu.container_module} {
  gpu.binary @m <#gpu.select_object<#rocdl.target<chip = "gfx90a">>> [#gpu.object<#rocdl.target<chip = "gfx90a">, "x">, #gpu.object<#nvvm.target, properties = {kernels = ["a", "b"]}, offload = "BC">]
}
