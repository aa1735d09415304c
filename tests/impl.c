/* The implementation, alone in its translation unit (tests and users include the headers only). */
#define GPUCOMPILE_IMPLEMENTATION
#include "gpucompile.h"
#include "gpucompile_nvptx.h"
#include "gpucompile_amdgpu.h"
#include "gpucompile_spirv.h"
#include "gpucompile_vulkan.h"
#include "gpucompile_webgpu.h"
