/* The WebGPU backend's implementation in a file of its own: the core's and the Vulkan backend's
   declarations only (tests/split/main.c); it compiles through the Vulkan backend's table. */
#include "gpucompile.h"
#define GPUCOMPILE_WEBGPU_IMPLEMENTATION
#include "gpucompile_webgpu.h"
