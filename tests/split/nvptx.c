/* The NVPTX backend's implementation in a file of its own: the core's declarations only, so it
   reaches the core through the public API and its backend helpers (tests/split/main.c). */
#include "gpucompile.h"
#define GPUCOMPILE_NVPTX_IMPLEMENTATION
#include "gpucompile_nvptx.h"
