/* The Vulkan backend's implementation in a file of its own: the core's declarations only, so it
   reaches the core through the public API and its backend helpers (tests/split/main.c). */
#include "gpucompile.h"
#define GPUCOMPILE_VULKAN_IMPLEMENTATION
#include "gpucompile_vulkan.h"
