// A push-constant block of several types (std430 offsets 0, 4, 8, 16, 24, 32): each field is
// written back as bits, so the host checks what arrived where.
#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer Out { uint w[]; } dst;
layout(push_constant) uniform P { float f; int i; uint u; int64_t l; vec2 v; uint last; } pc;
void main() {
    dst.w[0] = floatBitsToUint(pc.f);
    dst.w[1] = uint(pc.i);
    dst.w[2] = pc.u;
    dst.w[3] = uint(pc.l & 0xffffffffl);
    dst.w[4] = uint(pc.l >> 32);
    dst.w[5] = floatBitsToUint(pc.v.x);
    dst.w[6] = floatBitsToUint(pc.v.y);
    dst.w[7] = pc.last;
}
