; clang 22: clang -x cuda --cuda-device-only -nocudalib --cuda-gpu-arch=sm_80 -O2 -emit-llvm -S vulkan_warps.cu (CUDA 13's headers);
; the parameter then put in the global address space (clang leaves CUDA's pointers generic)
source_filename = "vulkan_warps.cu"
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; Function Attrs: convergent mustprogress noinline norecurse nounwind memory(argmem: write, inaccessiblemem: readwrite)
define dso_local ptx_kernel void @warps(ptr addrspace(1) noundef writeonly captures(none) %0) local_unnamed_addr #0 {
  %2 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %3 = mul nuw nsw i32 %2, 3
  %4 = add nuw nsw i32 %3, 1
  %5 = tail call noundef i32 @llvm.nvvm.shfl.sync.down.i32(i32 -1, i32 %4, i32 4, i32 6175)
  %6 = add nsw i32 %5, %4
  %7 = tail call noundef i32 @llvm.nvvm.shfl.sync.down.i32(i32 -1, i32 %6, i32 2, i32 6175)
  %8 = add nsw i32 %7, %6
  %9 = tail call noundef i32 @llvm.nvvm.shfl.sync.down.i32(i32 -1, i32 %8, i32 1, i32 6175)
  %10 = and i32 %2, 7
  %11 = tail call noundef i32 @llvm.nvvm.shfl.sync.up.i32(i32 -1, i32 %4, i32 1, i32 6144)
  %12 = icmp eq i32 %10, 0
  %13 = select i1 %12, i32 0, i32 %11
  %14 = add nsw i32 %13, %4
  %15 = tail call noundef i32 @llvm.nvvm.shfl.sync.up.i32(i32 -1, i32 %14, i32 2, i32 6144)
  %16 = icmp samesign ult i32 %10, 2
  %17 = select i1 %16, i32 0, i32 %15
  %18 = add nsw i32 %17, %14
  %19 = tail call noundef i32 @llvm.nvvm.shfl.sync.up.i32(i32 -1, i32 %18, i32 4, i32 6144)
  %20 = tail call noundef i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %4, i32 4, i32 6175)
  %21 = add nsw i32 %20, %4
  %22 = tail call noundef i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %21, i32 2, i32 6175)
  %23 = add nsw i32 %22, %21
  %24 = tail call noundef i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %23, i32 1, i32 6175)
  %25 = add nsw i32 %24, %23
  %26 = icmp samesign ult i32 %10, 4
  %27 = select i1 %26, i32 0, i32 %19
  %28 = add nsw i32 %27, %18
  %29 = add nsw i32 %9, %8
  %30 = and i32 %2, 1016
  %31 = tail call i32 @llvm.nvvm.read.ptx.sreg.laneid()
  %32 = and i32 %31, 24
  %33 = icmp eq i32 %10, 0
  %34 = mul nuw nsw i32 %30, 24
  %35 = add nuw nsw i32 %34, 92
  %36 = icmp ne i32 %29, %35
  %37 = select i1 %33, i1 %36, i1 false
  %38 = zext i1 %37 to i32
  %39 = add nuw nsw i32 %10, 1
  %40 = mul nuw nsw i32 %30, 3
  %41 = or disjoint i32 %40, 1
  %42 = mul nuw nsw i32 %41, %39
  %43 = mul nuw nsw i32 %10, 3
  %44 = mul nuw nsw i32 %43, %39
  %45 = lshr i32 %44, 1
  %46 = add nuw nsw i32 %42, %45
  %47 = icmp eq i32 %28, %46
  %48 = select i1 %47, i32 0, i32 2
  %49 = icmp eq i32 %25, %35
  %50 = select i1 %49, i32 0, i32 4
  %51 = tail call noundef i32 @llvm.nvvm.shfl.sync.idx.i32(i32 -1, i32 %4, i32 5, i32 6175)
  %52 = add nuw nsw i32 %40, 16
  %53 = icmp eq i32 %51, %52
  %54 = select i1 %53, i32 0, i32 8
  %55 = uitofp nneg i32 %4 to float
  %56 = fmul contract float %55, 1.500000e+00
  %57 = tail call contract noundef float @llvm.nvvm.shfl.sync.idx.f32(i32 -1, float %56, i32 2, i32 6175)
  %58 = or disjoint i32 %40, 7
  %59 = uitofp nneg i32 %58 to float
  %60 = fmul contract float %59, 1.500000e+00
  %61 = fcmp contract une float %57, %60
  %62 = select i1 %61, i32 16, i32 0
  %63 = tail call noundef i32 @llvm.nvvm.shfl.sync.down.i32(i32 -1, i32 %4, i32 5, i32 6175)
  %64 = icmp samesign ult i32 %10, 3
  %65 = add nuw nsw i32 %3, 16
  %66 = select i1 %64, i32 %65, i32 %4
  %67 = icmp eq i32 %63, %66
  %68 = select i1 %67, i32 0, i32 32
  %69 = tail call noundef i32 @llvm.nvvm.shfl.sync.up.i32(i32 -1, i32 %4, i32 2, i32 6144)
  %70 = icmp samesign ugt i32 %10, 1
  %71 = add nsw i32 %3, -5
  %72 = select i1 %70, i32 %71, i32 %4
  %73 = icmp eq i32 %69, %72
  %74 = select i1 %73, i32 0, i32 64
  %75 = tail call noundef i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %4, i32 1, i32 6175)
  %76 = xor i32 %2, 1
  %77 = mul nuw nsw i32 %76, 3
  %78 = add nuw nsw i32 %77, 1
  %79 = icmp eq i32 %75, %78
  %80 = select i1 %79, i32 0, i32 128
  %81 = tail call i1 @llvm.nvvm.vote.all.sync(i32 -1, i1 true)
  br i1 %81, label %82, label %86

82:                                               ; preds = %1
  %83 = icmp ne i32 %10, 3
  %84 = tail call i1 @llvm.nvvm.vote.all.sync(i32 -1, i1 %83)
  %85 = select i1 %84, i32 256, i32 0
  br label %86

86:                                               ; preds = %82, %1
  %87 = phi i32 [ 256, %1 ], [ %85, %82 ]
  %88 = icmp eq i32 %10, 7
  %89 = tail call i1 @llvm.nvvm.vote.any.sync(i32 -1, i1 %88)
  br i1 %89, label %90, label %93

90:                                               ; preds = %86
  %91 = tail call i1 @llvm.nvvm.vote.any.sync(i32 -1, i1 false)
  %92 = select i1 %91, i32 512, i32 0
  br label %93

93:                                               ; preds = %90, %86
  %94 = phi i32 [ 512, %86 ], [ %92, %90 ]
  %95 = tail call i1 @llvm.nvvm.vote.uni.sync(i32 -1, i1 true)
  br i1 %95, label %96, label %99

96:                                               ; preds = %93
  %97 = tail call i1 @llvm.nvvm.vote.uni.sync(i32 -1, i1 %26)
  %98 = select i1 %97, i32 1024, i32 0
  br label %99

99:                                               ; preds = %96, %93
  %100 = phi i32 [ 1024, %93 ], [ %98, %96 ]
  %101 = and i32 %2, 1
  %102 = icmp ne i32 %101, 0
  %103 = tail call noundef i32 @llvm.nvvm.vote.ballot.sync(i32 -1, i1 %102)
  %104 = lshr i32 %103, %32
  %105 = and i32 %104, 255
  %106 = icmp eq i32 %105, 170
  br i1 %106, label %107, label %114

107:                                              ; preds = %99
  %108 = tail call noundef i32 @llvm.nvvm.vote.ballot.sync(i32 -1, i1 %102)
  %109 = lshr i32 %108, %32
  %110 = and i32 %109, 255
  %111 = tail call range(i32 0, 9) i32 @llvm.ctpop.i32(i32 %110)
  %112 = icmp eq i32 %111, 4
  %113 = select i1 %112, i32 0, i32 2048
  br label %114

114:                                              ; preds = %107, %99
  %115 = phi i32 [ 2048, %99 ], [ %113, %107 ]
  %116 = tail call noundef i32 @llvm.nvvm.activemask()
  %117 = lshr i32 %116, %32
  %118 = and i32 %117, 255
  %119 = icmp eq i32 %118, 255
  %120 = select i1 %119, i32 0, i32 4096
  %121 = and i32 %31, 7
  %122 = icmp eq i32 %121, %10
  %123 = tail call i32 @llvm.nvvm.read.ptx.sreg.lanemask.lt()
  %124 = shl nuw i32 255, %32
  %125 = and i32 %124, %123
  %126 = tail call range(i32 0, 33) i32 @llvm.ctpop.i32(i32 %125)
  %127 = icmp eq i32 %126, %10
  %128 = select i1 %122, i1 %127, i1 false
  %129 = select i1 %128, i32 0, i32 8192
  %130 = or disjoint i32 %129, %38
  %131 = or disjoint i32 %130, %48
  %132 = or disjoint i32 %131, %50
  %133 = or disjoint i32 %132, %54
  %134 = or disjoint i32 %133, %62
  %135 = or i32 %134, %68
  %136 = or i32 %135, %74
  %137 = or i32 %136, %80
  %138 = or i32 %137, %87
  %139 = or i32 %138, %94
  %140 = or i32 %139, %100
  %141 = or i32 %140, %115
  %142 = or i32 %141, %120
  br i1 %26, label %143, label %157

143:                                              ; preds = %114
  %144 = tail call noundef i32 @llvm.nvvm.vote.ballot.sync(i32 252645135, i1 true)
  %145 = lshr i32 %144, %32
  %146 = and i32 %145, 255
  %147 = icmp eq i32 %146, 15
  %148 = select i1 %147, i32 0, i32 16384
  %149 = tail call i1 @llvm.nvvm.vote.all.sync(i32 252645135, i1 true)
  br i1 %149, label %150, label %153

150:                                              ; preds = %143
  %151 = tail call i1 @llvm.nvvm.vote.any.sync(i32 252645135, i1 false)
  %152 = select i1 %151, i32 32768, i32 0
  br label %153

153:                                              ; preds = %150, %143
  %154 = phi i32 [ 32768, %143 ], [ %152, %150 ]
  %155 = or disjoint i32 %148, %154
  %156 = or i32 %155, %142
  br label %157

157:                                              ; preds = %153, %114
  %158 = phi i32 [ %156, %153 ], [ %142, %114 ]
  %159 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %160 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %161 = mul i32 %160, %159
  %162 = add i32 %161, %2
  %163 = sext i32 %162 to i64
  %164 = getelementptr inbounds i32, ptr addrspace(1) %0, i64 %163
  store i32 %158, ptr addrspace(1) %164, align 4, !tbaa !4
  ret void
}

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 32) i32 @llvm.nvvm.read.ptx.sreg.laneid() #1

; Function Attrs: mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare i32 @llvm.ctpop.i32(i32) #2

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef i32 @llvm.nvvm.read.ptx.sreg.lanemask.lt() #1

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x() #1

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() #1

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 1, 1025) i32 @llvm.nvvm.read.ptx.sreg.ntid.x() #1

; Function Attrs: convergent nocallback nounwind memory(inaccessiblemem: readwrite)
declare i32 @llvm.nvvm.shfl.sync.down.i32(i32, i32, i32, i32) #3

; Function Attrs: convergent nocallback nounwind memory(inaccessiblemem: readwrite)
declare i32 @llvm.nvvm.shfl.sync.up.i32(i32, i32, i32, i32) #3

; Function Attrs: convergent nocallback nounwind memory(inaccessiblemem: readwrite)
declare i32 @llvm.nvvm.shfl.sync.bfly.i32(i32, i32, i32, i32) #3

; Function Attrs: convergent nocallback nounwind memory(inaccessiblemem: readwrite)
declare i32 @llvm.nvvm.shfl.sync.idx.i32(i32, i32, i32, i32) #3

; Function Attrs: convergent nocallback nounwind memory(inaccessiblemem: readwrite)
declare float @llvm.nvvm.shfl.sync.idx.f32(i32, float, i32, i32) #3

; Function Attrs: convergent nocallback nounwind memory(inaccessiblemem: readwrite)
declare i1 @llvm.nvvm.vote.all.sync(i32, i1) #3

; Function Attrs: convergent nocallback nounwind memory(inaccessiblemem: readwrite)
declare i1 @llvm.nvvm.vote.any.sync(i32, i1) #3

; Function Attrs: convergent nocallback nounwind memory(inaccessiblemem: readwrite)
declare i1 @llvm.nvvm.vote.uni.sync(i32, i1) #3

; Function Attrs: convergent nocallback nounwind memory(inaccessiblemem: readwrite)
declare i32 @llvm.nvvm.vote.ballot.sync(i32, i1) #3

; Function Attrs: convergent nocallback nounwind memory(inaccessiblemem: readwrite)
declare i32 @llvm.nvvm.activemask() #3

attributes #0 = { convergent mustprogress noinline norecurse nounwind memory(argmem: write, inaccessiblemem: readwrite) "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_80" "target-features"="+ptx88,+sm_80" "uniform-work-group-size"="true" }
attributes #1 = { mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #2 = { mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none) }
attributes #3 = { convergent nocallback nounwind memory(inaccessiblemem: readwrite) }

!llvm.module.flags = !{!0, !1, !2}
!llvm.errno.tbaa = !{!4}

!0 = !{i32 1, !"wchar_size", i32 4}
!1 = !{i32 4, !"nvvm-reflect-ftz", i32 0}
!2 = !{i32 7, !"frame-pointer", i32 2}
!4 = !{!5, !5, i64 0}
!5 = !{!"int", !6, i64 0}
!6 = !{!"omnipotent char", !7, i64 0}
!7 = !{!"Simple C++ TBAA"}
