/* The CUDA side of the mgpu* runtime in a file of its own, beside the NVPTX backend's
   (tests/split/main.c): no LLVM, no gpucompile.h. */
#define GPUCOMPILE_NVPTX_RUNTIME
#include "gpucompile_nvptx.h"
