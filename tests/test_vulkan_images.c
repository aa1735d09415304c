/* OpenCL images on Vulkan: tests/data/vulkan_images.cl (clang -target spirv64 -O2) compiled for
   #gpu.vulkan by the library (the lowering's image bindings, the backend's image repairs),
   checked by spirv-val --target-env vulkan1.3, and run on the first Vulkan device (lavapipe here)
   through the runtime's mgpuImage* and mgpuLaunchKernel with the kernels' own parameters, under
   the Khronos validation layer where it is installed (no message allowed), against answers
   computed here: a blur through a linear sampler with normalized coordinates, a 1D image through
   repeat and mirrored-repeat samplers, read_imageh / write_imageh, a colour conversion
   from an 8-bit unorm image into a float storage image, integer images read and written (one read
   and written in place), a constant sampler with integer coordinates, a 3D image, an image array,
   the size queries, signed 8-, 16- and 32-bit integer images, image1d_buffer_t, depth images, and the channel order and data type queries (from the launch's push
   constants; the reflection's image parameters say where). */
#define GPUCOMPILE_VULKAN_RUNTIME
#include "test.h"
#include "gpucompile_vulkan.h"

static char dir[256];
static int have_tools, have_device;
static void *module;


enum { IMAGE2D = 0x10F1, IMAGE3D = 0x10F2, IMAGE2D_ARRAY = 0x10F3, R = 0x10B0, RG = 0x10B2, RGBA = 0x10B5, UNORM8 = 0x10D2, HALF = 0x10DD, UINT32 = 0x10DC,
       FLOAT = 0x10DE };
enum { W = 13, H = 7 }; /* odd sizes: rows are not a power of two */

static void *fn(const char *name) { return module ? mgpuModuleGetFunction(module, name) : NULL; }

/* Two W x H images, a (written with in) and b: 1, or 0 when either cannot be made. */
static int two_images(void **a, int order_a, int type_a, const void *in, void **b, int order_b, int type_b) {
    *a = mgpuImageCreate(IMAGE2D, order_a, type_a, W, H, 0, 0, NULL);
    *b = mgpuImageCreate(IMAGE2D, order_b, type_b, W, H, 0, 0, NULL);
    CHECK(*a && *b);
    if (*a) mgpuImageWrite(*a, in, NULL);
    return *a && *b;
}

static void launch2d(const char *name, int w, int h, void **args, int n) {
    mgpuLaunchKernel(fn(name), (w + 7) / 8, (h + 7) / 8, 1, 8, 8, 1, 0, NULL, args, NULL, (size_t)n);
}

/* tests/data/STEM.cl -> the library (format bin) -> spirv-val: its words in *obj */
static int compile(const char *stem, gpucompile_object **obj) {
    char cmd[1024], ll[512], spv[512], name[64];
    gpucompile_target *t = NULL;
    gpucompile_options o;
    t_log log;
    *obj = NULL;
    snprintf(ll, sizeof ll, "%s/%s.ll", dir, stem);
    snprintf(cmd, sizeof cmd, "clang -cl-std=CL2.0 -target spirv64 -O2 -emit-llvm -S tests/data/%s.cl -o '%s'", stem, ll);
    CHECK(t_sh_ok(cmd));
    memset(&log, 0, sizeof log);
    memset(&o, 0, sizeof o);
    o.logger = t_logger(&log);
    CHECK(gpucompile_target_parse("#gpu.vulkan", (size_t)-1, NULL, NULL, &t) == GPUCOMPILE_OK);
    CHECK_MSG(t && gpucompile_compile_file(ll, t, &o, obj) == GPUCOMPILE_OK, "%s", log.text);
    gpucompile_target_free(t);
    if (!*obj) return 0;
    snprintf(name, sizeof name, "%.40s.spv", stem);
    CHECK(t_save(dir, name, (*obj)->data, (*obj)->size, spv, sizeof spv));
    snprintf(cmd, sizeof cmd, "spirv-val --target-env vulkan1.3 '%s'", spv);
    CHECK(t_sh_ok(cmd));
    return 1;
}

static void test_compile(void) {
    gpucompile_object *obj;
    if (!have_tools) SKIP("no clang / spirv-val / LLVM SPIR-V target");
    if (!compile("vulkan_images", &obj)) return;
    gpucompile_runtime_set_error_callback(t_on_runtime_error, NULL);
    module = mgpuModuleLoad(obj->data, obj->size);
    gpucompile_object_free(obj);
    if (!module && !gpucompile_vulkan_runtime_info_get(NULL)) SKIP("no Vulkan device: %s", t_runtime_error);
    CHECK(module != NULL);
    have_device = module != NULL;
}

/* The reflection: each image parameter's bindings, their kinds and the sampler they name. */
static void test_reflection(void) {
    const gpucompile_vulkan_kernel *k;
    int i, kinds[4] = {0, 0, 0, 0};
    if (!have_device) SKIP("no Vulkan device");
    k = gpucompile_vulkan_function_kernel(fn("blur"));
    CHECK(k != NULL);
    if (!k) return;
    CHECK(k->num_params == 4 && k->params[0].kind == GPUCOMPILE_VULKAN_PARAM_IMAGE && k->params[1].kind == GPUCOMPILE_VULKAN_PARAM_SAMPLER &&
          k->params[2].kind == GPUCOMPILE_VULKAN_PARAM_IMAGE && k->params[3].kind == GPUCOMPILE_VULKAN_PARAM_BINDING);
    for (i = 0; i < k->num_bindings; i++) {
        const gpucompile_vulkan_binding *b = &k->bindings[i];
        if (b->descriptor_type <= 3) kinds[b->descriptor_type]++;
        if (b->descriptor_type == 1) CHECK(b->param == 0 && b->sampler_param == 1 && b->dim == 1 && !b->integer);
        if (b->descriptor_type == 3) CHECK(b->param == 2 && !b->read_only);
    }
    CHECK_MSG(kinds[1] == 1 && kinds[2] == 1 && kinds[3] == 1, "%d image-and-sampler, %d sampled, %d storage", kinds[1], kinds[2], kinds[3]);
    k = gpucompile_vulkan_function_kernel(fn("edge"));
    for (i = 0; k && i < k->num_bindings; i++)
        if (k->bindings[i].descriptor_type == 1) CHECK(k->bindings[i].sampler_param == -1 && k->bindings[i].sampler_bits == 0x12);
}

static float at(const float *p, int x, int y, int c) { /* clamped to the edge */
    x = x < 0 ? 0 : x >= W ? W - 1 : x;
    y = y < 0 ? 0 : y >= H ? H - 1 : y;
    return p[(y * W + x) * 4 + c];
}

static int near(float a, float b) { return a - b < 1e-4f && b - a < 1e-4f; }

/* A 3x3 box blur through a linear, normalized, clamp-to-edge sampler at texel centres, and a
   read halfway between two texels (their mean); the image's sizes. */
static void test_blur(void) {
    float in[W * H * 4], out[W * H * 4], *mid;
    int x, y, c, bad = 0, bad_mid = 0, smp = 0x20 | 2 | 1; /* LINEAR | CLAMP_TO_EDGE | NORMALIZED */
    void *a, *b, *args[4];
    if (!have_device) SKIP("no Vulkan device");
    for (x = 0; x < W * H * 4; x++) in[x] = (float)((x * 37) % 101) / 8.0f;
    mid = (float *)mgpuMemAlloc(W * H * 4 * sizeof *mid + 16, NULL, true);
    if (!two_images(&a, RGBA, FLOAT, in, &b, RGBA, FLOAT) || !mid) return;
    args[0] = &a; args[1] = &smp; args[2] = &b; args[3] = &mid;
    launch2d("blur", W, H, args, 4);
    mgpuImageRead(out, b, NULL);
    for (y = 0; y < H; y++)
        for (x = 0; x < W; x++)
            for (c = 0; c < 4; c++) {
                float s = 0, want_mid = (at(in, x, y, c) + at(in, x + 1, y, c)) / 2;
                int dx, dy;
                for (dy = -1; dy <= 1; dy++)
                    for (dx = -1; dx <= 1; dx++) s += at(in, x + dx, y + dy, c);
                bad += !near(out[(y * W + x) * 4 + c], s / 9);
                bad_mid += !near(mid[(y * W + x) * 4 + c], want_mid);
            }
    CHECK_MSG(bad == 0, "%d wrong; (0,0): %g, want %g", bad, (double)out[0], 0.0);
    CHECK_MSG(bad_mid == 0, "%d wrong halfway reads; (0,0): %g", bad_mid, (double)mid[0]);
    CHECK_MSG(mid[W * H * 4] == W && mid[W * H * 4 + 1] == H, "sizes %g x %g", (double)mid[W * H * 4], (double)mid[W * H * 4 + 1]);
    mgpuImageFree(a, NULL);
    mgpuImageFree(b, NULL);
    mgpuMemFree(mid, NULL);
}

/* RGBA8 unorm in (read without a sampler), float out (a storage image): luma in r, g, b. */
static void test_colour(void) {
    unsigned char in[W * H * 4];
    float out[W * H * 4];
    int i, bad = 0;
    void *a, *b, *args[2];
    if (!have_device) SKIP("no Vulkan device");
    for (i = 0; i < W * H * 4; i++) in[i] = (unsigned char)(i * 29 + 7);
    if (!two_images(&a, RGBA, UNORM8, in, &b, RGBA, FLOAT)) return;
    args[0] = &a; args[1] = &b;
    launch2d("luma", W, H, args, 2);
    mgpuImageRead(out, b, NULL);
    for (i = 0; i < W * H; i++) {
        float l = 0.299f * in[i * 4] / 255.0f + 0.587f * in[i * 4 + 1] / 255.0f + 0.114f * in[i * 4 + 2] / 255.0f;
        bad += !near(out[i * 4], l) || !near(out[i * 4 + 1], l) || !near(out[i * 4 + 2], l) || !near(out[i * 4 + 3], in[i * 4 + 3] / 255.0f);
    }
    CHECK_MSG(bad == 0, "%d wrong; 0: %g %g %g %g", bad, (double)out[0], (double)out[1], (double)out[2], (double)out[3]);
    mgpuImageFree(a, NULL);
    mgpuImageFree(b, NULL);
}

/* read_imageh / write_imageh: float texels read as halves, doubled, written (exact for these). */
static void test_halves(void) {
    float in[W * H * 4], out[W * H * 4];
    int i, bad = 0;
    void *a, *b, *args[2];
    if (!have_device) SKIP("no Vulkan device");
    for (i = 0; i < W * H * 4; i++) in[i] = (float)(i % 64) * 0.125f - 3.0f;
    if (!two_images(&a, RGBA, FLOAT, in, &b, RGBA, FLOAT)) return;
    args[0] = &a; args[1] = &b;
    launch2d("halves", W, H, args, 2);
    mgpuImageRead(out, b, NULL);
    for (i = 0; i < W * H * 4; i++) bad += out[i] != 2 * in[i];
    CHECK_MSG(bad == 0, "%d wrong; 1: %g", bad, (double)out[1]);
    mgpuImageFree(a, NULL);
    mgpuImageFree(b, NULL);
}

/* read_imageui / write_imageui: one image read, one written; then a read_write image (its own
   module: see vulkan_images_rw.cl), refused by name where the device cannot read a storage image
   without its format (lavapipe 22.3). */
static void test_integer(void) {
    uint32_t in[W * H * 4], acc[W * H * 4], out[W * H * 4];
    int i, bad = 0;
    void *a, *b, *rw = NULL, *args[2];
    gpucompile_object *obj;
    if (!have_device) SKIP("no Vulkan device");
    for (i = 0; i < W * H * 4; i++) {
        in[i] = (uint32_t)i * 2654435761u;
        acc[i] = (uint32_t)i;
    }
    if (!two_images(&a, RGBA, UINT32, in, &b, RGBA, UINT32)) return;
    args[0] = &a; args[1] = &b;
    launch2d("ints", W, H, args, 2);
    mgpuImageRead(out, b, NULL);
    for (i = 0; i < W * H * 4; i++) {
        int k = i % 4, x = i / 4 % W, y = i / 4 / W;
        bad += out[i] != (in[i] ^ (uint32_t)(k == 0 ? x : k == 1 ? y : k == 2 ? 7 : 9));
    }
    CHECK_MSG(bad == 0, "%d wrong; 0: %u", bad, out[0]);
    if (compile("vulkan_images_rw", &obj)) {
        int before = t_runtime_errors;
        rw = mgpuModuleLoad(obj->data, obj->size);
        gpucompile_object_free(obj);
        if (!rw) { /* the one report expected */
            CHECK_MSG(strstr(t_runtime_error, "lacks shaderStorageImageReadWithoutFormat") != NULL, "%s", t_runtime_error);
            CHECK(t_runtime_errors == before + 1);
            t_runtime_errors = before;
            printf("  read_write image: the device lacks shaderStorageImageReadWithoutFormat (refused by name)\n");
        }
    }
    if (rw) {
        mgpuImageWrite(b, acc, NULL);
        mgpuLaunchKernel(mgpuModuleGetFunction(rw, "accumulate"), (W + 7) / 8, (H + 7) / 8, 1, 8, 8, 1, 0, NULL, args, NULL, 2);
        mgpuImageRead(out, b, NULL);
        for (i = 0, bad = 0; i < W * H * 4; i++) bad += out[i] != (uint32_t)i + in[i];
        CHECK_MSG(bad == 0, "read_write: %d wrong", bad);
        mgpuModuleUnload(rw);
    }
    mgpuImageFree(a, NULL);
    mgpuImageFree(b, NULL);
}

/* A constant sampler (unnormalized, clamp to edge, nearest) with integer coordinates: each
   pixel's left neighbour, the first column its own. */
static void test_constant_sampler(void) {
    float in[W * H], *out;
    int i, bad = 0;
    void *a, *args[2];
    if (!have_device) SKIP("no Vulkan device");
    for (i = 0; i < W * H; i++) in[i] = (float)i * 0.25f;
    a = mgpuImageCreate(IMAGE2D, R, FLOAT, W, H, 0, 0, NULL);
    out = (float *)mgpuMemAlloc(W * H * sizeof *out, NULL, true);
    CHECK(a && out);
    if (!a || !out) return;
    mgpuImageWrite(a, in, NULL);
    args[0] = &a; args[1] = &out;
    launch2d("edge", W, H, args, 2);
    for (i = 0; i < W * H; i++) bad += out[i] != in[i % W ? i - 1 : i];
    CHECK_MSG(bad == 0, "%d wrong; 1: %g", bad, (double)out[1]);
    mgpuImageFree(a, NULL);
    mgpuMemFree(out, NULL);
}

/* A 3D image (int4 coordinates) and an image array: read, written to a buffer with their sizes. */
static void test_3d_and_array(void) {
    enum { D = 3, L = 4 };
    float in3[W * H * D], inl[W * H * L], *out;
    int i, bad = 0;
    void *a, *b, *args[3];
    if (!have_device) SKIP("no Vulkan device");
    for (i = 0; i < W * H * D; i++) in3[i] = (float)i + 0.5f;
    for (i = 0; i < W * H * L; i++) inl[i] = (float)i * 3.0f;
    a = mgpuImageCreate(IMAGE3D, R, FLOAT, W, H, D, 0, NULL);
    b = mgpuImageCreate(IMAGE2D_ARRAY, R, FLOAT, W, H, 0, L, NULL);
    out = (float *)mgpuMemAlloc((W * H * (D + L) + 8) * sizeof *out, NULL, true);
    CHECK(a && b && out);
    if (!a || !b || !out) return;
    mgpuImageWrite(a, in3, NULL);
    mgpuImageWrite(b, inl, NULL);
    args[0] = &a; args[1] = &b; args[2] = &out;
    mgpuLaunchKernel(fn("volume"), (W + 7) / 8, (H + 7) / 8, L, 8, 8, 1, 0, NULL, args, NULL, 3);
    for (i = 0; i < W * H * D; i++) bad += out[i] != in3[i];
    for (i = 0; i < W * H * L; i++) bad += out[W * H * D + i] != inl[i];
    {
        const int *s = (const int *)(out + W * H * (D + L));
        CHECK_MSG(s[0] == W && s[1] == H && s[2] == D && s[3] == L && s[4] == W && s[5] == H, "sizes %d %d %d %d %d %d", s[0], s[1], s[2], s[3], s[4], s[5]);
    }
    CHECK_MSG(bad == 0, "%d wrong", bad);
    mgpuImageFree(a, NULL);
    mgpuImageFree(b, NULL);
    mgpuMemFree(out, NULL);
}

/* A 1D image through a normalized nearest sampler with repeat, then mirrored repeat (a sampler
   each), at coordinates from -2 to 2. */
static void test_wrap(void) {
    float in[W], *out;
    int i, mode, bad = 0;
    void *a, *args[3];
    if (!have_device) SKIP("no Vulkan device");
    for (i = 0; i < W; i++) in[i] = (float)(i * i);
    a = mgpuImageCreate(0x10F4 /* IMAGE1D */, R, FLOAT, W, 0, 0, 0, NULL);
    out = (float *)mgpuMemAlloc(4 * W * sizeof *out, NULL, true);
    CHECK(a && out);
    if (!a || !out) return;
    mgpuImageWrite(a, in, NULL);
    for (mode = 6; mode <= 8; mode += 2) { /* CLK_ADDRESS_REPEAT, CLK_ADDRESS_MIRRORED_REPEAT */
        int smp = 0x10 | mode | 1;
        args[0] = &a; args[1] = &smp; args[2] = &out;
        mgpuLaunchKernel(fn("wrap"), 1, 1, 1, 64, 1, 1, 0, NULL, args, NULL, 3);
        for (i = 0; i < 4 * W; i++) {
            int j = i % (2 * W), t = mode == 6 ? i % W : j < W ? j : 2 * W - 1 - j;
            bad += out[i] != in[t];
        }
        CHECK_MSG(bad == 0, "mode %d: %d wrong; 0: %g", mode, bad, (double)out[0]);
    }
    mgpuImageFree(a, NULL);
    mgpuMemFree(out, NULL);
}

/* get_image_channel_order / _data_type of images of several formats, the same kernel launched
   with others; the sizes of images the kernel only asks about (no binding: from the launch too);
   the reflection: which parameters take the launch's words, and where. */
static void test_channels(void) {
    static const int fmt[2][6] = {{RGBA, UNORM8, R, FLOAT, RG, HALF}, {R, FLOAT, RGBA, HALF, RGBA, UINT32}};
    static const int size[3][2] = {{5, 3}, {W, H}, {2, 9}};
    const gpucompile_vulkan_kernel *k;
    const gpucompile_vulkan_param *q;
    int *out, run, kk = 1000;
    void *img[4], *args[6];
    if (!have_device) SKIP("no Vulkan device");
    k = gpucompile_vulkan_function_kernel(fn("channels"));
    CHECK(k && k->num_params == 6);
    if (!k || k->num_params != 6) return;
    q = k->params;
    CHECK_MSG(q[0].kind == GPUCOMPILE_VULKAN_PARAM_IMAGE && q[0].size == 20 && q[1].kind == GPUCOMPILE_VULKAN_PARAM_PUSH &&
              q[2].kind == GPUCOMPILE_VULKAN_PARAM_IMAGE && q[2].size == 4 && q[3].size == 20 && q[4].size == 0 && q[5].size == 20,
              "sizes %u %u %u %u %u", q[0].size, q[1].size, q[2].size, q[3].size, q[5].size);
    CHECK_MSG(q[1].value >= q[0].push + 20 && q[2].push >= q[1].value + 4 && q[3].push >= q[2].push + 4 && q[5].push >= q[3].push + 20 &&
              q[5].push + 20 <= k->push_size, "offsets %u %u %u %u %u", q[0].push, q[1].value, q[2].push, q[3].push, q[5].push);
    out = (int *)mgpuMemAlloc(16 * sizeof *out, NULL, true);
    CHECK(out != NULL);
    for (run = 0; run < 2 && out; run++) {
        float texel[W * H * 4];
        int i;
        for (i = 0; i < 3; i++) img[i] = mgpuImageCreate(IMAGE2D, fmt[run][2 * i], fmt[run][2 * i + 1], size[i][0], size[i][1], 0, 0, NULL);
        img[3] = mgpuImageCreate(IMAGE2D_ARRAY, R, run ? UINT32 : FLOAT, 4, 5, 0, 6, NULL);
        CHECK(img[0] && img[1] && img[2] && img[3]);
        if (!img[0] || !img[1] || !img[2] || !img[3]) break;
        for (i = 0; i < W * H * 4; i++) texel[i] = 5.0f; /* b: R FLOAT, then RGBA HALF (5.0 = 0x4500) */
        if (run) for (i = 0; i < W * H * 4; i++) ((uint16_t *)texel)[i] = 0x4500;
        mgpuImageWrite(img[1], texel, NULL);
        args[0] = &img[0]; args[1] = &kk; args[2] = &img[1]; args[3] = &img[2]; args[4] = &out; args[5] = &img[3];
        mgpuLaunchKernel(fn("channels"), 1, 1, 1, 1, 1, 1, 0, NULL, args, NULL, 6);
        CHECK_MSG(out[0] == fmt[run][0] + kk && out[1] == fmt[run][1] && out[2] == fmt[run][2] && out[3] == fmt[run][3] &&
                  out[4] == fmt[run][5] - fmt[run][4] && out[5] == 5 + W,
                  "run %d: %x %x %x %x %d %d", run, out[0], out[1], out[2], out[3], out[4], out[5]);
        CHECK_MSG(out[6] == 503 && out[7] == 209 && out[8] == 60405, "run %d: sizes %d %d %d", run, out[6], out[7], out[8]);
        for (i = 0; i < 4; i++) mgpuImageFree(img[i], NULL);
    }
    mgpuMemFree(out, NULL);
}

/* read_imagei / write_imagei of CL_SIGNED_INT8, 16 and 32 images (the first two through the
   unsigned format of their bits, their sign and saturation by the launch's data type): each
   texel times -3 plus x, saturated to the type; the first lane through a sampler, sign-extended. */
static void test_signed(void) {
    enum { SINT8 = 0x10D7, SINT16 = 0x10D8, SINT32 = 0x10D9 };
    static const int types[3] = {SINT8, SINT16, SINT32};
    long long lo, hi;
    int t, i, smp = 0x10, *first;
    void *a, *b, *args[4];
    if (!have_device) SKIP("no Vulkan device");
    first = (int *)mgpuMemAlloc(W * H * sizeof *first, NULL, true);
    CHECK(first != NULL);
    for (t = 0; t < 3 && first; t++) {
        int bytes = 1 << t, bad = 0, bad_first = 0;
        unsigned char in[W * H * 4 * 4], out[W * H * 4 * 4];
        lo = -(1ll << (8 * bytes - 1)), hi = (1ll << (8 * bytes - 1)) - 1;
        for (i = 0; i < W * H * 4; i++) { /* both signs, the extremes among them */
            long long v = i % 7 == 0 ? lo : i % 7 == 1 ? hi : (long long)((i * 2654435761u) % (unsigned)(hi + 1)) * (i % 2 ? -1 : 1);
            memcpy(in + (size_t)i * (size_t)bytes, &v, (size_t)bytes); /* little-endian: the low bytes */
        }
        if (!two_images(&a, RGBA, types[t], in, &b, RGBA, types[t]) || !first) break;
        args[0] = &a; args[1] = &smp; args[2] = &b; args[3] = &first;
        launch2d("signed_ints", W, H, args, 4);
        mgpuImageRead(out, b, NULL);
        for (i = 0; i < W * H * 4; i++) {
            long long v = 0, got = 0, want;
            memcpy(&v, in + (size_t)i * (size_t)bytes, (size_t)bytes);
            memcpy(&got, out + (size_t)i * (size_t)bytes, (size_t)bytes);
            v = (v << (64 - 8 * bytes)) >> (64 - 8 * bytes);
            got = (got << (64 - 8 * bytes)) >> (64 - 8 * bytes);
            want = (long long)(int32_t)((uint32_t)v * (uint32_t)-3 + (uint32_t)(i / 4 % W)); /* int arithmetic wraps */
            want = want < lo ? lo : want > hi ? hi : want;
            bad += got != want;
            if (i % 4 == 0) bad_first += first[i / 4] != v;
        }
        CHECK_MSG(bad == 0 && bad_first == 0, "type %x: %d wrong, %d first lanes wrong", types[t], bad, bad_first);
        mgpuImageFree(a, NULL);
        mgpuImageFree(b, NULL);
    }
    mgpuMemFree(first, NULL);
}

/* image1d_buffer_t (a 1D image on Vulkan): RGBA UINT8 texels reversed into another one, its
   width; one wider than maxImageDimension1D refused by name. */
static void test_1d_buffer(void) {
    enum { N = 1000 };
    unsigned char in[N * 4], out[N * 4];
    int i, bad = 0, *width;
    void *a, *b, *args[3];
    if (!have_device) SKIP("no Vulkan device");
    for (i = 0; i < N * 4; i++) in[i] = (unsigned char)(i * 13 + 5);
    a = mgpuImageCreate(0x10F6 /* IMAGE1D_BUFFER */, RGBA, 0x10DA /* UNSIGNED_INT8 */, N, 0, 0, 0, NULL);
    b = mgpuImageCreate(0x10F6, RGBA, 0x10DA, N, 0, 0, 0, NULL);
    width = (int *)mgpuMemAlloc(sizeof *width, NULL, true);
    CHECK(a && b && width);
    if (!a || !b || !width) return;
    mgpuImageWrite(a, in, NULL);
    args[0] = &a; args[1] = &b; args[2] = &width;
    mgpuLaunchKernel(fn("texels"), (N + 63) / 64, 1, 1, 64, 1, 1, 0, NULL, args, NULL, 3);
    mgpuImageRead(out, b, NULL);
    for (i = 0; i < N * 4; i++) bad += out[i] != in[i / 4 * 4 + 3 - i % 4];
    CHECK_MSG(bad == 0 && *width == N, "%d wrong; width %d", bad, *width);
    mgpuImageFree(a, NULL);
    mgpuImageFree(b, NULL);
    mgpuMemFree(width, NULL);
    {
        int before = t_runtime_errors;
        CHECK(mgpuImageCreate(0x10F6, RGBA, 0x10DA, 1 << 30, 0, 0, 0, NULL) == NULL && strstr(t_runtime_error, "maxImageDimension1D"));
        CHECK(t_runtime_errors == before + 1);
        t_runtime_errors = before;
    }
}

/* Depth images (CL_DEPTH of CL_FLOAT and CL_UNORM_INT16, a 2D one and an array): read
   fetched and through a nearest sampler, written, the channel order. */
static void test_depth(void) {
    enum { DEPTH = 0x10BD, UNORM16 = 0x10D3, L = 3 };
    float in[W * H], layers[W * H * L], *out;
    uint16_t back[W * H];
    int i, bad = 0, smp = 0x10;
    void *a, *b, *c, *args[5];
    if (!have_device) SKIP("no Vulkan device");
    for (i = 0; i < W * H; i++) in[i] = (float)(i * 7 % 100);
    for (i = 0; i < W * H * L; i++) layers[i] = (float)i * 0.5f;
    a = mgpuImageCreate(IMAGE2D, DEPTH, FLOAT, W, H, 0, 0, NULL);
    b = mgpuImageCreate(IMAGE2D, DEPTH, UNORM16, W, H, 0, 0, NULL);
    c = mgpuImageCreate(IMAGE2D_ARRAY, DEPTH, FLOAT, W, H, 0, L, NULL);
    out = (float *)mgpuMemAlloc((2 * W * H + 1) * sizeof *out, NULL, true);
    CHECK(a && b && c && out);
    if (!a || !b || !c || !out) return;
    mgpuImageWrite(a, in, NULL);
    mgpuImageWrite(c, layers, NULL);
    args[0] = &a; args[1] = &smp; args[2] = &b; args[3] = &c; args[4] = &out;
    launch2d("depth", W, H, args, 5);
    mgpuImageRead(back, b, NULL);
    for (i = 0; i < W * H; i++) {
        int want = (int)(in[i] / 100.0f * 65535.0f + 0.5f);
        bad += out[i] != 2 * in[i] || out[W * H + i] != layers[W * H + i] || back[i] - want > 1 || want - back[i] > 1;
    }
    CHECK_MSG(bad == 0, "%d wrong; 1: %g %g %u", bad, (double)out[1], (double)out[W * H + 1], back[1]);
    CHECK_MSG(out[2 * W * H] == (float)DEPTH, "channel order %g", (double)out[2 * W * H]);
    mgpuImageFree(a, NULL);
    mgpuImageFree(b, NULL);
    mgpuImageFree(c, NULL);
    mgpuMemFree(out, NULL);
}

/* What the runtime refuses: an image where a buffer goes, a format it has no Vulkan one for. */
static void test_refusals(void) {
    void *p, *args[4];
    int smp = 0x10;
    float *buf;
    if (!have_device) SKIP("no Vulkan device");
    t_runtime_errors = 0;
    CHECK(mgpuImageCreate(IMAGE2D, 0x10B8 /* CL_INTENSITY */, FLOAT, 4, 4, 0, 0, NULL) == NULL && strstr(t_runtime_error, "no Vulkan format"));
    buf = (float *)mgpuMemAlloc(64, NULL, true);
    p = buf;
    args[0] = &p; args[1] = &smp; args[2] = &p; args[3] = &p;
    launch2d("blur", 4, 4, args, 4);
    CHECK(strstr(t_runtime_error, "is not an image from mgpuImageCreate") != NULL);
    { /* a 3D image: sampled with normalized coordinates, refused with unnormalized ones */
        float v[27], got = -1;
        int i;
        for (i = 0; i < 27; i++) v[i] = (float)i;
        p = mgpuImageCreate(IMAGE3D, R, FLOAT, 3, 3, 3, 0, NULL);
        mgpuImageWrite(p, v, NULL);
        smp = 0x10 | 2 | 1;
        args[0] = &p; args[2] = &buf;
        mgpuLaunchKernel(fn("sample3d"), 1, 1, 1, 1, 1, 1, 0, NULL, args, NULL, 3);
        memcpy(&got, buf, sizeof got);
        CHECK_MSG(got == 13.0f, "the middle texel: %g", (double)got);
        smp = 0x10 | 2;
        mgpuLaunchKernel(fn("sample3d"), 1, 1, 1, 1, 1, 1, 0, NULL, args, NULL, 3);
        CHECK(strstr(t_runtime_error, "unnormalized coordinates on a 3D image") != NULL);
        mgpuImageFree(p, NULL);
    }
    CHECK(t_runtime_errors == 3);
    t_runtime_errors = 0;
    mgpuMemFree(buf, NULL);
}

static void test_quiet(void) {
    gpucompile_vulkan_runtime_info info;
    if (!have_device) SKIP("no Vulkan device");
    CHECK(gpucompile_vulkan_runtime_info_get(&info));
    if (getenv("GPUCOMPILE_VULKAN_VALIDATION")) CHECK(info.validation);
    CHECK_MSG(t_runtime_errors == 0, "%d reports; the last: %s", t_runtime_errors, t_runtime_error);
}

int main(void) {
    if (!t_vulkan_start(dir, sizeof dir, "vkimg", &have_tools)) return 1; /* the validation layer: no message allowed */
    RUN(test_compile);
    RUN(test_reflection);
    RUN(test_blur);
    RUN(test_colour);
    RUN(test_halves);
    RUN(test_integer);
    RUN(test_constant_sampler);
    RUN(test_3d_and_array);
    RUN(test_wrap);
    RUN(test_channels);
    RUN(test_signed);
    RUN(test_1d_buffer);
    RUN(test_depth);
    RUN(test_quiet);
    RUN(test_refusals);
    t_vulkan_end(dir, module);
    return TEST_END("test_vulkan_images");
}
