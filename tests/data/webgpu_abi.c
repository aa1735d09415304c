/* gpucompile_webgpu.h's own declarations of webgpu.h's structures against wgpu-native's real
   header (build-deps/webgpu/wgpu/resources/webgpu.h, as tests/cli_webgpu.sh finds it): the
   sizes and offsets of every field the runtime writes or reads. Dawn's of Chromium 133 differs
   in WGPUBindGroupLayoutEntry alone (no bindingArraySize: gpucompile_webgpu__layout_entry_133),
   checked against dawn-python's ctypes layout by the runs (tests/run/webgpu.sh). Compiles or not. */
#define GPUCOMPILE_WEBGPU_RUNTIME
#include "gpucompile_webgpu.h"
#include <webgpu.h>
#define SAME(ours, theirs) typedef char same_##ours[sizeof(gpucompile_webgpu__##ours) == sizeof(theirs) ? 1 : -1]
#define AT(ours, f, theirs, g) typedef char at_##ours##_##f[offsetof(gpucompile_webgpu__##ours, f) == offsetof(theirs, g) ? 1 : -1]
SAME(sv, WGPUStringView);
SAME(future, WGPUFuture);
SAME(chain, WGPUChainedStruct);
AT(chain, stype, WGPUChainedStruct, sType);
SAME(cbinfo, WGPUBufferMapCallbackInfo);
AT(cbinfo, mode, WGPUBufferMapCallbackInfo, mode);
AT(cbinfo, callback, WGPUBufferMapCallbackInfo, callback);
AT(cbinfo, userdata1, WGPUBufferMapCallbackInfo, userdata1);
SAME(errinfo, WGPUUncapturedErrorCallbackInfo);
AT(errinfo, callback, WGPUUncapturedErrorCallbackInfo, callback);
SAME(labeled, WGPUShaderModuleDescriptor);
SAME(spirv, WGPUShaderSourceSPIRV);
AT(spirv, code_size, WGPUShaderSourceSPIRV, codeSize);
AT(spirv, code, WGPUShaderSourceSPIRV, code);
SAME(buffer_desc, WGPUBufferDescriptor);
AT(buffer_desc, usage, WGPUBufferDescriptor, usage);
AT(buffer_desc, size, WGPUBufferDescriptor, size);
SAME(buffer_layout, WGPUBufferBindingLayout);
AT(buffer_layout, type, WGPUBufferBindingLayout, type);
SAME(layout_entry, WGPUBindGroupLayoutEntry);
AT(layout_entry, binding, WGPUBindGroupLayoutEntry, binding);
AT(layout_entry, visibility, WGPUBindGroupLayoutEntry, visibility);
AT(layout_entry, buffer, WGPUBindGroupLayoutEntry, buffer);
AT(layout_entry, storage_texture, WGPUBindGroupLayoutEntry, storageTexture);
SAME(list_desc, WGPUBindGroupLayoutDescriptor);
AT(list_desc, count, WGPUBindGroupLayoutDescriptor, entryCount);
SAME(pl_desc, WGPUPipelineLayoutDescriptor);
AT(pl_desc, layouts, WGPUPipelineLayoutDescriptor, bindGroupLayouts);
SAME(cp_desc, WGPUComputePipelineDescriptor);
AT(cp_desc, module, WGPUComputePipelineDescriptor, compute.module);
AT(cp_desc, entry_point, WGPUComputePipelineDescriptor, compute.entryPoint);
SAME(bg_entry, WGPUBindGroupEntry);
AT(bg_entry, buffer, WGPUBindGroupEntry, buffer);
AT(bg_entry, size, WGPUBindGroupEntry, size);
SAME(bg_desc, WGPUBindGroupDescriptor);
AT(bg_desc, entries, WGPUBindGroupDescriptor, entries);
SAME(pass_desc, WGPUComputePassDescriptor);
SAME(device_desc, WGPUDeviceDescriptor);
AT(device_desc, features, WGPUDeviceDescriptor, requiredFeatures);
AT(device_desc, lost, WGPUDeviceDescriptor, deviceLostCallbackInfo);
AT(device_desc, uncaptured, WGPUDeviceDescriptor, uncapturedErrorCallbackInfo);
SAME(adapter_info, WGPUAdapterInfo);
AT(adapter_info, description, WGPUAdapterInfo, description);
AT(adapter_info, backend_type, WGPUAdapterInfo, backendType);
AT(adapter_info, vendor_id, WGPUAdapterInfo, vendorID);
/* the numbers the runtime uses for webgpu.h (the Chromium-133 ones are gpucompile_webgpu__resolve's);
   webgpu.h's flags are const variables, so these are checked when it runs: exit 0 when all agree */
int main(void) {
    return !(WGPUBufferBindingType_Uniform == 2 && WGPUBufferBindingType_Storage == 3 && WGPUBufferBindingType_ReadOnlyStorage == 4 &&
             WGPUFeatureName_ShaderF16 == 11 && (int)WGPUSType_ShaderSourceSPIRV == (int)GPUCOMPILE_WEBGPU__STYPE_SPIRV &&
             (int)WGPUCallbackMode_AllowProcessEvents == (int)GPUCOMPILE_WEBGPU__MODE_PROCESS_EVENTS &&
             (int)WGPUCallbackMode_AllowSpontaneous == (int)GPUCOMPILE_WEBGPU__MODE_SPONTANEOUS &&
             (int)WGPUErrorFilter_Validation == (int)GPUCOMPILE_WEBGPU__FILTER_VALIDATION && (int)WGPUErrorType_NoError == (int)GPUCOMPILE_WEBGPU__NO_ERROR &&
             WGPUBufferUsage_Storage == GPUCOMPILE_WEBGPU__USAGE_STORAGE && WGPUBufferUsage_Uniform == GPUCOMPILE_WEBGPU__USAGE_UNIFORM &&
             WGPUBufferUsage_MapRead == GPUCOMPILE_WEBGPU__USAGE_MAP_READ && WGPUBufferUsage_CopySrc == GPUCOMPILE_WEBGPU__USAGE_COPY_SRC &&
             WGPUBufferUsage_CopyDst == GPUCOMPILE_WEBGPU__USAGE_COPY_DST && WGPUShaderStage_Compute == GPUCOMPILE_WEBGPU__STAGE_COMPUTE &&
             WGPUMapMode_Read == GPUCOMPILE_WEBGPU__MAP_READ && (int)WGPUMapAsyncStatus_Success == (int)GPUCOMPILE_WEBGPU__OK &&
             (int)WGPUDeviceLostReason_Destroyed == (int)GPUCOMPILE_WEBGPU__LOST_DESTROYED);
}
