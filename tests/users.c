/* A user of the API, compiled as C and as C++: the declarations alone must be clean. */
#include "gpucompile.h"
#include "gpucompile_nvptx.h"
#include "gpucompile_amdgpu.h"
#include "gpucompile_spirv.h"
#include "gpucompile_vulkan.h"
#include "gpucompile_webgpu.h"

int main(void) {
    gpucompile_target t = gpucompile_target_defaults(GPUCOMPILE_TARGET_NVPTX);
    char buf[256];
    gpucompile_target_print(&t, buf, sizeof buf);
    return gpucompile_target_verify(&t, NULL) == GPUCOMPILE_OK ? 0 : 1;
}
