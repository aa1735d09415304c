/* Drives a host module's launch code against tests/data/embed_double.c. Built with one of
   -DLAUNCH=<binary>_<kernel>_launch (ours: two launches, on a stream and synchronous),
   -DLAUNCH=... -DTHREADS (two threads launching first at the same time), -DINLINE (functions
   made with gpucompile_emit_launch: inline_i32 / inline_i64), -DMLIR (mlir-translate's
   launch_async / launch_sync). The kernel takes (float a, float *x, float *y, int n). */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#if defined(THREADS)
#include <pthread.h>
#endif

void embed_double_name(const void *p, const char *name);
void embed_double_set_load_delay(int ms);
extern const char *embed_double_sig;

static float a = 2.5f;
static void *x = (void *)0x1000, *y = (void *)0x2000;
static int n = 100;
static void *args[4] = {&a, &x, &y, &n};
static char stream_token;
static void *stream = &stream_token;

#if defined(MLIR)
void launch_async(int64_t, int64_t, int64_t, int64_t, int64_t, int64_t, int32_t, void *, float, void *, void *, int32_t);
void launch_sync(int64_t, int64_t, int64_t, int64_t, int64_t, int64_t, float, void *, void *, int32_t);
#elif defined(INLINE)
void inline_i32(int32_t, int32_t, int32_t, int32_t, int32_t, int32_t, int32_t, void *, void **);
void inline_i64_sync(int64_t, int64_t, int64_t, int64_t, int64_t, int64_t, void **);
#else
void LAUNCH(intptr_t, intptr_t, intptr_t, intptr_t, intptr_t, intptr_t, int32_t, void *, void **);
#endif

#if defined(THREADS)
static pthread_barrier_t barrier;
static void *launcher(void *arg) {
    pthread_barrier_wait(&barrier);
    LAUNCH(1, 1, 1, 32, 1, 1, 0, stream, args);
    return arg;
}
#endif

int main(void) {
    embed_double_name(args, "ARGS");
    embed_double_name(stream, "STREAM");
    embed_double_name(x, "X");
    embed_double_name(y, "Y");
    embed_double_sig = "fppi";
#if defined(MLIR)
    launch_async(3, 2, 1, 64, 1, 1, 16, stream, a, x, y, n);
    launch_sync(5, 1, 1, 128, 1, 1, a, x, y, n);
#elif defined(INLINE)
    inline_i32(3, 2, 1, 64, 1, 1, 16, stream, args);
    inline_i64_sync(5, 1, 1, 128, 1, 1, args);
#elif defined(THREADS)
    {
        pthread_t t[2];
        int i;
        embed_double_set_load_delay(100); /* widens the window in which both find it unloaded */
        pthread_barrier_init(&barrier, NULL, 2);
        for (i = 0; i < 2; i++) pthread_create(&t[i], NULL, launcher, NULL);
        for (i = 0; i < 2; i++) pthread_join(t[i], NULL);
    }
#else
    LAUNCH(3, 2, 1, 64, 1, 1, 16, stream, args);
    LAUNCH(5, 1, 1, 128, 1, 1, 0, NULL, args);
#endif
    printf("main returns\n");
    fflush(stdout);
    return 0;
}
