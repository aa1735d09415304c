/* The pointer-kernel lowering's implementation in a file of its own: the core's declarations
   only (tests/split/main.c); the Vulkan backend's file (vulkan.c) calls it. */
#include "gpucompile.h"
#define GPUCOMPILE_LOWER_IMPLEMENTATION
#include "gpucompile_lower.h"
