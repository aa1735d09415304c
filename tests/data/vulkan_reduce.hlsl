// A workgroup reduction in HLSL, as clang 22 compiles it for Vulkan (clang -cc1 -triple
// spirv1.6-unknown-vulkan1.3-compute -x hlsl -hlsl-entry reduce -emit-llvm -O1): Debian ships no
// hlsl.h, so the types and the barrier are declared here.
typedef unsigned int uint;
typedef vector<uint, 3> uint3;
__attribute__((clang_builtin_alias(__builtin_hlsl_group_memory_barrier_with_group_sync))) void GroupMemoryBarrierWithGroupSync();
StructuredBuffer<float> In : register(t0);
RWStructuredBuffer<float> Out : register(u1);
groupshared float tile[64];
[numthreads(64, 1, 1)]
void reduce(uint3 gid : SV_DispatchThreadID, uint3 lid : SV_GroupThreadID, uint3 grp : SV_GroupID) {
    tile[lid.x] = In[gid.x];
    for (uint s = 32; s > 0; s >>= 1) {
        GroupMemoryBarrierWithGroupSync();
        if (lid.x < s) tile[lid.x] += tile[lid.x + s];
    }
    GroupMemoryBarrierWithGroupSync();
    if (lid.x == 0) Out[grp.x] = tile[0];
}
