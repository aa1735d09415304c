module attributes {gpu.container_module} {
  gpu.binary @kern  [#gpu.object<#rocdl.target<chip = "gfx90a">, kernels = <[#gpu.kernel_metadata<"saxpy", !llvm.func<void (f32, ptr<1>)>, metadata = {agpr_count = 0 : i64, group_segment_fixed_size = 0 : i64, reqd_workgroup_size = array<i32: -1, -1, -1>, sgpr_count = 10 : i64}>]>, bin = "\7FELF">, #gpu.object<#nvvm.target<O = 3, chip = "sm_90">, properties = {LLVMIRToISATimeInMs = 1 : i64, O = 3 : i32, section = "__s"}, assembly = ".visible .entry saxpy(\0A)\0A{\0Aret;\0A}\0A">]
  gpu.binary @"other-2" <#gpu.select_object<1 : i64>> [#gpu.object<#nvvm.target, properties = {kernels = ["a"]}, "x">, #gpu.object<#nvvm.target, kernels = <[#gpu.kernel_metadata<"b", !llvm.func<void ()>, arg_attrs = [], metadata = {num_regs = 4 : i64}>]>, offload = "BC">]
  func.func @host() attributes {s = "}"} {
    return // }
  }
}
