// A 2D grid of 8x8 workgroups: out[y * width + x] = x * 1000 + y, inside width x height.
#version 450
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) writeonly buffer Out { uint v[]; } dst;
layout(push_constant) uniform P { uint width; uint height; } pc;
void main() {
    uvec2 g = gl_GlobalInvocationID.xy;
    if (g.x < pc.width && g.y < pc.height) dst.v[g.y * pc.width + g.x] = g.x * 1000u + g.y;
}
