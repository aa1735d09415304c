// A 3D grid of 4x4x4 workgroups: out[(z * h + y) * w + x] = x + 100 * y + 10000 * z inside w x h x d.
#version 450
layout(local_size_x = 4, local_size_y = 4, local_size_z = 4) in;
layout(set = 0, binding = 0) writeonly buffer Out { uint v[]; } dst;
layout(push_constant) uniform P { uint w; uint h; uint d; } pc;
void main() {
    uvec3 g = gl_GlobalInvocationID;
    if (g.x < pc.w && g.y < pc.h && g.z < pc.d) dst.v[(g.z * pc.h + g.y) * pc.w + g.x] = g.x + 100u * g.y + 10000u * g.z;
}
