; Two kernels calling one noinline function, with debug information (clang 19's -g of a small
; CUDA file): with -j 2 each partition's PTX has its .file table, .loc lines and DWARF sections.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; Function Attrs: convergent mustprogress noinline nounwind
define dso_local noundef float @_Z5twicef(float noundef %0) #0 !dbg !10 {
  %2 = alloca float, align 4
  store float %0, ptr %2, align 4
    #dbg_declare(ptr %2, !15, !DIExpression(), !16)
  %3 = load float, ptr %2, align 4, !dbg !17
  %4 = fmul contract float %3, 2.000000e+00, !dbg !18
  ret float %4, !dbg !19
}

; Function Attrs: convergent mustprogress noinline norecurse nounwind
define dso_local void @_Z2k1Pf(ptr noundef %0) #1 !dbg !20 {
  %2 = alloca ptr, align 8
  %3 = alloca i32, align 4
  store ptr %0, ptr %2, align 8
    #dbg_declare(ptr %2, !24, !DIExpression(), !25)
    #dbg_declare(ptr %3, !26, !DIExpression(), !28)
  %4 = call range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !29
  store i32 %4, ptr %3, align 4, !dbg !28
  %5 = load ptr, ptr %2, align 8, !dbg !30
  %6 = load i32, ptr %3, align 4, !dbg !31
  %7 = sext i32 %6 to i64, !dbg !30
  %8 = getelementptr inbounds float, ptr %5, i64 %7, !dbg !30
  %9 = load float, ptr %8, align 4, !dbg !30
  %10 = call contract noundef float @_Z5twicef(float noundef %9) #3, !dbg !32
  %11 = load ptr, ptr %2, align 8, !dbg !33
  %12 = load i32, ptr %3, align 4, !dbg !34
  %13 = sext i32 %12 to i64, !dbg !33
  %14 = getelementptr inbounds float, ptr %11, i64 %13, !dbg !33
  store float %10, ptr %14, align 4, !dbg !35
  ret void, !dbg !36
}

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x() #2

; Function Attrs: convergent mustprogress noinline norecurse nounwind
define dso_local void @_Z2k2Pf(ptr noundef %0) #1 !dbg !37 {
  %2 = alloca ptr, align 8
  %3 = alloca i32, align 4
  store ptr %0, ptr %2, align 8
    #dbg_declare(ptr %2, !38, !DIExpression(), !39)
    #dbg_declare(ptr %3, !40, !DIExpression(), !41)
  %4 = call range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !42
  store i32 %4, ptr %3, align 4, !dbg !41
  %5 = load ptr, ptr %2, align 8, !dbg !43
  %6 = load i32, ptr %3, align 4, !dbg !44
  %7 = sext i32 %6 to i64, !dbg !43
  %8 = getelementptr inbounds float, ptr %5, i64 %7, !dbg !43
  %9 = load float, ptr %8, align 4, !dbg !43
  %10 = call contract noundef float @_Z5twicef(float noundef %9) #3, !dbg !45
  %11 = fadd contract float %10, 1.000000e+00, !dbg !46
  %12 = load ptr, ptr %2, align 8, !dbg !47
  %13 = load i32, ptr %3, align 4, !dbg !48
  %14 = sext i32 %13 to i64, !dbg !47
  %15 = getelementptr inbounds float, ptr %12, i64 %14, !dbg !47
  store float %11, ptr %15, align 4, !dbg !49
  ret void, !dbg !50
}

attributes #0 = { convergent mustprogress noinline nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_80" "target-features"="+ptx85,+sm_80" }
attributes #1 = { convergent mustprogress noinline norecurse nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_80" "target-features"="+ptx85,+sm_80" "uniform-work-group-size"="true" }
attributes #2 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #3 = { convergent nounwind }

!llvm.dbg.cu = !{!0}
!nvvm.annotations = !{!2, !3}
!llvm.module.flags = !{!4, !5, !6, !7, !8}
!llvm.ident = !{!9}

!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus_14, file: !1, producer: "Debian clang version 19.1.7 (3~deb12u1)", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug, splitDebugInlining: false, nameTableKind: None)
!1 = !DIFile(filename: "dbgs.cu", directory: "/src")
!2 = !{ptr @_Z2k1Pf, !"kernel", i32 1}
!3 = !{ptr @_Z2k2Pf, !"kernel", i32 1}
!4 = !{i32 7, !"Dwarf Version", i32 2}
!5 = !{i32 2, !"Debug Info Version", i32 3}
!6 = !{i32 1, !"wchar_size", i32 4}
!7 = !{i32 4, !"nvvm-reflect-ftz", i32 0}
!8 = !{i32 7, !"frame-pointer", i32 2}
!9 = !{!"Debian clang version 19.1.7 (3~deb12u1)"}
!10 = distinct !DISubprogram(name: "twice", linkageName: "_Z5twicef", scope: !1, file: !1, line: 3, type: !11, scopeLine: 3, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !0, retainedNodes: !14)
!11 = !DISubroutineType(types: !12)
!12 = !{!13, !13}
!13 = !DIBasicType(name: "float", size: 32, encoding: DW_ATE_float)
!14 = !{}
!15 = !DILocalVariable(name: "x", arg: 1, scope: !10, file: !1, line: 3, type: !13)
!16 = !DILocation(line: 3, column: 56, scope: !10)
!17 = !DILocation(line: 3, column: 68, scope: !10)
!18 = !DILocation(line: 3, column: 70, scope: !10)
!19 = !DILocation(line: 3, column: 61, scope: !10)
!20 = distinct !DISubprogram(name: "k1", linkageName: "_Z2k1Pf", scope: !1, file: !1, line: 4, type: !21, scopeLine: 4, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !0, retainedNodes: !14)
!21 = !DISubroutineType(types: !22)
!22 = !{null, !23}
!23 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !13, size: 64)
!24 = !DILocalVariable(name: "p", arg: 1, scope: !20, file: !1, line: 4, type: !23)
!25 = !DILocation(line: 4, column: 27, scope: !20)
!26 = !DILocalVariable(name: "i", scope: !20, file: !1, line: 4, type: !27)
!27 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!28 = !DILocation(line: 4, column: 36, scope: !20)
!29 = !DILocation(line: 4, column: 40, scope: !20)
!30 = !DILocation(line: 4, column: 83, scope: !20)
!31 = !DILocation(line: 4, column: 85, scope: !20)
!32 = !DILocation(line: 4, column: 77, scope: !20)
!33 = !DILocation(line: 4, column: 70, scope: !20)
!34 = !DILocation(line: 4, column: 72, scope: !20)
!35 = !DILocation(line: 4, column: 75, scope: !20)
!36 = !DILocation(line: 4, column: 90, scope: !20)
!37 = distinct !DISubprogram(name: "k2", linkageName: "_Z2k2Pf", scope: !1, file: !1, line: 5, type: !21, scopeLine: 5, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !0, retainedNodes: !14)
!38 = !DILocalVariable(name: "p", arg: 1, scope: !37, file: !1, line: 5, type: !23)
!39 = !DILocation(line: 5, column: 27, scope: !37)
!40 = !DILocalVariable(name: "i", scope: !37, file: !1, line: 5, type: !27)
!41 = !DILocation(line: 5, column: 36, scope: !37)
!42 = !DILocation(line: 5, column: 40, scope: !37)
!43 = !DILocation(line: 5, column: 83, scope: !37)
!44 = !DILocation(line: 5, column: 85, scope: !37)
!45 = !DILocation(line: 5, column: 77, scope: !37)
!46 = !DILocation(line: 5, column: 89, scope: !37)
!47 = !DILocation(line: 5, column: 70, scope: !37)
!48 = !DILocation(line: 5, column: 72, scope: !37)
!49 = !DILocation(line: 5, column: 75, scope: !37)
!50 = !DILocation(line: 5, column: 97, scope: !37)
