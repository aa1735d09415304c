/* First cache hit in a fresh process, per format: what a program that loads its cached kernels
   at start pays once (bench/run.sh's "first cache hit" rows). Usage:
       first_hit CACHE-DIR TARGET FORMAT INPUT [RUNS]
   compiles INPUT for TARGET and FORMAT with options.cache_dir = CACHE-DIR: the first call of
   the process, then RUNS-1 more (default 3); prints "first MS later MS from-cache" (later: the
   median of the others). Run it once to fill the cache, then again in a new process. */
#define GPUCOMPILE_IMPLEMENTATION
#include "gpucompile.h"
#include "gpucompile_nvptx.h"
#include "gpucompile_amdgpu.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    gpucompile_target *t = NULL;
    gpucompile_options o;
    double ms[64];
    int runs = argc > 5 ? atoi(argv[5]) : 3, i, hit = 1;
    if (argc < 5 || runs < 1 || runs > 64) {
        fprintf(stderr, "usage: first_hit CACHE-DIR TARGET FORMAT INPUT [RUNS]\n");
        return 2;
    }
    if (gpucompile_target_parse(argv[2], (size_t)-1, NULL, NULL, &t) != GPUCOMPILE_OK) return fprintf(stderr, "bad target\n"), 1;
    memset(&o, 0, sizeof o);
    o.cache_dir = argv[1];
    o.format = gpucompile_format_from_string(argv[3]);
    for (i = 0; i < runs; i++) {
        gpucompile_object *obj = NULL;
        double t0 = now_ms();
        gpucompile_result r = gpucompile_compile_file(argv[4], t, &o, &obj);
        ms[i] = now_ms() - t0;
        if (r != GPUCOMPILE_OK) return fprintf(stderr, "compile failed: %s\n", gpucompile_result_string(r)), 1;
        hit &= obj->from_cache != 0;
        gpucompile_object_free(obj);
    }
    if (runs > 1) qsort(ms + 1, (size_t)(runs - 1), sizeof ms[0], cmp_double);
    printf("%.3f %.3f %d\n", ms[0], runs > 1 ? ms[1 + (runs - 1) / 2] : ms[0], hit);
    gpucompile_target_free(t);
    return 0;
}
