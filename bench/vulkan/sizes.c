/* The sizes rows of bench/vulkan.sh, timed: sized_reduce.cl compiled twice by gpucompile, its
   sizes set at launch (LAUNCH.spv) and compiled in (FIXED.spv: workgroup_size 64, local_memory
   256), launched through gpucompile_vulkan.h's runtime alone (NULL stream: each launch submitted
   and waited for). Usage: sizes LAUNCH.spv FIXED.spv REPEATS
   Prints one line: "new MS repeat MS fixed MS repeat256 MS pipelines N", where new is the median
   first launch of a block size not launched before (32, 128, 256, 512: its pipeline made, lavapipe
   compiling at that dispatch), repeat the median launch at a size launched before (64, the
   default), fixed the median launch of the compiled-in module at the same size, repeat256 the
   median launch at 256 (a pipeline made at a launch). Launches interleaved; answers checked. */
#define GPUCOMPILE_VULKAN_RUNTIME
#include "gpucompile_vulkan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int errors;

static void on_error(const char *call, int code, const char *message, void *user_data) {
    (void)user_data;
    fprintf(stderr, "%s failed (%d): %s\n", call, code, message);
    errors++;
}

static double now_ms(void) {
    struct timespec t;
    timespec_get(&t, TIME_UTC);
    return 1000.0 * (double)t.tv_sec + (double)t.tv_nsec / 1e6;
}

static int cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n) {
    qsort(v, (size_t)n, sizeof *v, cmp);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static void *load(const char *path) {
    FILE *f = fopen(path, "rb");
    long size;
    void *p = NULL, *m = NULL;
    if (f && !fseek(f, 0, SEEK_END) && (size = ftell(f)) > 0 && !fseek(f, 0, SEEK_SET) && (p = malloc((size_t)size)) &&
        fread(p, 1, (size_t)size, f) == (size_t)size)
        m = mgpuModuleLoad(p, (size_t)size);
    if (f) fclose(f);
    free(p);
    return m;
}

/* One launch of blocks of b threads over n elements: its milliseconds; *wrong += wrong sums. */
static double launch(void *fn, float *in, float *out, int n, int b, int *wrong) {
    void *scratch = NULL, *args[4];
    int g, i;
    double t;
    args[0] = &in; args[1] = &out; args[2] = &scratch; args[3] = &n;
    t = now_ms();
    mgpuLaunchKernel(fn, n / b, 1, 1, b, 1, 1, b * 4, NULL, args, NULL, 4);
    t = now_ms() - t;
    for (g = 0; g < n / b; g++) {
        float want = 0;
        for (i = g * b; i < (g + 1) * b; i++) want += in[i];
        *wrong += out[g] != want;
    }
    return t;
}

int main(int argc, char **argv) {
    static const int fresh[4] = {32, 128, 256, 512};
    gpucompile_vulkan_runtime_info info;
    void *ml, *mf, *fl, *ff;
    float *in, *out;
    double news[4], *rep, *fix;
    int n = 4096, i, reps, wrong = 0;
    if (argc != 4 || (reps = atoi(argv[3])) < 1) return fprintf(stderr, "usage: sizes LAUNCH.spv FIXED.spv REPEATS\n"), 2;
    gpucompile_runtime_set_error_callback(on_error, NULL);
    if (!gpucompile_runtime_available()) return 77;
    ml = load(argv[1]);
    mf = load(argv[2]);
    fl = ml ? mgpuModuleGetFunction(ml, "sized_reduce") : NULL;
    ff = mf ? mgpuModuleGetFunction(mf, "sized_reduce") : NULL;
    in = (float *)mgpuMemAlloc((size_t)n * 4, NULL, true);
    out = (float *)mgpuMemAlloc((size_t)n * 4, NULL, true);
    rep = (double *)malloc(sizeof *rep * (size_t)reps * 2); /* at 64, then at 256 */
    fix = (double *)malloc(sizeof *fix * (size_t)reps);
    if (!fl || !ff || !in || !out || !rep || !fix) return fprintf(stderr, "cannot load the modules\n"), 1;
    for (i = 0; i < n; i++) in[i] = (float)(i % 5);
    launch(fl, in, out, n, 64, &wrong); /* the first dispatch of each module: lavapipe compiles it */
    launch(ff, in, out, n, 64, &wrong);
    for (i = 0; i < 4; i++) news[i] = launch(fl, in, out, n, fresh[i], &wrong);
    for (i = 0; i < reps; i++) {
        rep[i] = launch(fl, in, out, n, 64, &wrong);
        fix[i] = launch(ff, in, out, n, 64, &wrong);
        rep[reps + i] = launch(fl, in, out, n, 256, &wrong);
    }
    gpucompile_vulkan_runtime_info_get(&info);
    if (wrong || errors) return fprintf(stderr, "%d wrong sums, %d errors\n", wrong, errors), 1;
    printf("new %.3f repeat %.4f fixed %.4f repeat256 %.4f pipelines %u\n", median(news, 4), median(rep, reps), median(fix, reps),
           median(rep + reps, reps), info.pipelines);
    mgpuModuleUnload(ml);
    mgpuModuleUnload(mf);
    return 0;
}
