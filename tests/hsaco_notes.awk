# llvm-readelf --notes of an hsaco, one line per metadata-note kernel ("K" and its entries) and
# one per other line ("T"), to be sorted: two hsacos whose kernels are the same, in any order,
# give the same lines. The NT_AMDGPU_METADATA count is a line too ("N" and the count).
# -v loose=1 leaves out the register, spill and private-segment counts (register allocation
# may differ in a module read back from bitcode: LLVM's bitcode writer drops use-list order).
loose && /^    \.(sgpr|vgpr|agpr)_(count|spill_count):|^    \.private_segment_fixed_size:/ { next }
/NT_AMDGPU_METADATA/ { notes++ }
/^amdhsa\.kernels:/ { k = 1; next }
k && /^  - / { if (cur != "") print "K " cur; cur = $0; next }
k && /^    / { cur = cur "|" $0; next }
/^[a-z]/ { if (cur != "") print "K " cur; cur = ""; k = 0 }
!k && !/Data size|NT_AMDGPU_METADATA/ { print "T " $0 }
END { if (cur != "") print "K " cur; print "N " notes + 0 }
