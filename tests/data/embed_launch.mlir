// The launches of tests/data/embed_main.c written in MLIR, for the differential test: the same
// binary bytes as test_embed.c's hand-made object, one launch on a stream, one synchronous.
module attributes {gpu.container_module} {
  gpu.binary @embtest [#gpu.object<#nvvm.target<chip = "sm_90">, bin = "\7FELF\02\01\00fake cubin">]
  llvm.func @launch_async(%gx: i64, %gy: i64, %gz: i64, %bx: i64, %by: i64, %bz: i64, %smem: i32, %stream: !llvm.ptr,
                          %a: f32, %x: !llvm.ptr, %y: !llvm.ptr, %n: i32) {
    gpu.launch_func <%stream : !llvm.ptr> @embtest::@saxpy blocks in (%gx, %gy, %gz) threads in (%bx, %by, %bz) : i64
        dynamic_shared_memory_size %smem args(%a : f32, %x : !llvm.ptr, %y : !llvm.ptr, %n : i32)
    llvm.return
  }
  llvm.func @launch_sync(%gx: i64, %gy: i64, %gz: i64, %bx: i64, %by: i64, %bz: i64,
                         %a: f32, %x: !llvm.ptr, %y: !llvm.ptr, %n: i32) {
    gpu.launch_func @embtest::@saxpy blocks in (%gx, %gy, %gz) threads in (%bx, %by, %bz) : i64
        args(%a : f32, %x : !llvm.ptr, %y : !llvm.ptr, %n : i32)
    llvm.return
  }
}
