/* CUDA's warp functions (clang's CUDA headers: __shfl*_sync, __all_sync, __any_sync, __uni_sync,
   __ballot_sync, __activemask; NVVM's %laneid and %lanemask_lt) on segments of 8 lanes (each
   shuffle's width 8), so that the answers hold for a warp of 8 lanes as for CUDA's 32: each thread
   writes the bits of the checks that failed (0: all held), its value v = 3 * threadIdx.x + 1.
   tests/data/vulkan_warps_nvptx.ll is clang's output (the command there); tests/test_vulkan_ptr.c
   compiles it for warps of 8 and of 32 and runs, in blocks of 64, what the device's sub-groups
   allow. */
#define W 8
#define FULL 0xffffffffu

extern "C" __global__ void warps(int *o) {
    int t = threadIdx.x + blockIdx.x * blockDim.x, lane = threadIdx.x % W, b = threadIdx.x - lane, v = 3 * threadIdx.x + 1, bad = 0;
    unsigned seg = __nvvm_read_ptx_sreg_laneid() & ~(W - 1u); /* the segment's first lane in the warp */
    int s = v, p = v, x = v;
    for (int d = W / 2; d > 0; d /= 2) s += __shfl_down_sync(FULL, s, d, W);         /* a reduction: lane 0 has the sum */
    for (int d = 1; d < W; d *= 2) { int y = __shfl_up_sync(FULL, p, d, W); if (lane >= d) p += y; } /* an inclusive prefix */
    for (int d = W / 2; d > 0; d /= 2) x += __shfl_xor_sync(FULL, x, d, W);          /* a butterfly: every lane has the sum */
    bad |= (lane == 0 && s != 24 * b + 92) << 0;
    bad |= (p != (lane + 1) * (3 * b + 1) + 3 * lane * (lane + 1) / 2) << 1;
    bad |= (x != 24 * b + 92) << 2;
    bad |= (__shfl_sync(FULL, v, 5, W) != 3 * (b + 5) + 1) << 3;
    bad |= (__shfl_sync(FULL, 1.5f * v, 2, W) != 1.5f * (3 * (b + 2) + 1)) << 4;
    bad |= (__shfl_down_sync(FULL, v, 5, W) != (lane < 3 ? v + 15 : v)) << 5;   /* past the segment: its own */
    bad |= (__shfl_up_sync(FULL, v, 2, W) != (lane >= 2 ? v - 6 : v)) << 6;
    bad |= (__shfl_xor_sync(FULL, v, 1, W) != 3 * (int)(threadIdx.x ^ 1) + 1) << 7;
    bad |= (__all_sync(FULL, v > 0) != 1 || __all_sync(FULL, lane != 3) != 0) << 8;
    bad |= (__any_sync(FULL, lane == 7) != 1 || __any_sync(FULL, v < 0) != 0) << 9;
    bad |= (__uni_sync(FULL, v > 0) != 1 || __uni_sync(FULL, lane < 4) != 0) << 10;
    bad |= (((__ballot_sync(FULL, lane & 1) >> seg) & 0xff) != 0xaa || __builtin_popcount((__ballot_sync(FULL, lane & 1) >> seg) & 0xff) != 4) << 11;
    bad |= (((__activemask() >> seg) & 0xff) != 0xff) << 12;
    bad |= ((int)(__nvvm_read_ptx_sreg_laneid() % W) != lane || __builtin_popcount(__nvvm_read_ptx_sreg_lanemask_lt() & (0xffu << seg)) != lane) << 13;
    if (lane < 4) { /* a partial mask: lanes 0-3 of each segment */
        bad |= (((__ballot_sync(0x0f0f0f0fu, 1) >> seg) & 0xff) != 0x0f) << 14;
        bad |= (__all_sync(0x0f0f0f0fu, lane < 4) != 1 || __any_sync(0x0f0f0f0fu, lane >= 4) != 0) << 15;
    }
    o[t] = bad;
}
