/* Threads: 8 threads x 20 compiles at once, of different kernels for both backends,
   each result byte-identical to the same compile done serially first. Targets are parsed once
   and shared by every thread (the header says they may be); every thread has its own options
   and logger. Some compiles go through a caller's LLVMModuleRef made in the thread's own
   context, the others through IR bytes. Formats llvm and isa always; bin wherever its tool is
   here (the CUDA toolkit, ld.lld), for AMDGPU also with code generation in 2 and 3 partitions
   (options.jobs: threads of a compile's own). */
#include "test.h"
#include <pthread.h>
#include <llvm-c/IRReader.h>

#define THREADS 8
#define PER_THREAD 20

typedef struct task {
    const char *path, *target_text;
    gpucompile_format format;
    int jobs;                  /* options.jobs */
    gpucompile_target *target; /* parsed once, shared */
    char *ir;                  /* the file's bytes, shared */
    size_t ir_size;
    unsigned char *ref[2];     /* the serial results: from bytes, from a module */
    size_t ref_size[2];
    int ref_kernels;
} task;

static task tasks[64];
static int num_tasks;

typedef struct worker {
    int id, done, mismatches, failures;
    char first_error[1024];
} worker;

static void add_task(const char *path, const char *target, gpucompile_format f) {
    task *t = &tasks[num_tasks];
    memset(t, 0, sizeof *t);
    t->path = path;
    t->target_text = target;
    t->format = f;
    if (gpucompile_target_parse(target, (size_t)-1, NULL, NULL, &t->target) != GPUCOMPILE_OK) return;
    t->ir = t_read(path, &t->ir_size);
    if (t->ir) num_tasks++;
    else gpucompile_target_free(t->target);
}

/* One compile of t; through a module of the caller's own context when via_module. */
static gpucompile_result compile(const task *t, int via_module, t_log *l, gpucompile_object **o) {
    gpucompile_options opts;
    gpucompile_result r;
    memset(&opts, 0, sizeof opts);
    opts.format = t->format;
    opts.jobs = t->jobs;
    opts.logger = t_logger(l);
    if (!via_module) return gpucompile_compile_ir(t->ir, t->ir_size, t->path, t->target, &opts, o);
    {
        LLVMContextRef c = LLVMContextCreate();
        LLVMMemoryBufferRef mb = LLVMCreateMemoryBufferWithMemoryRangeCopy(t->ir, t->ir_size, t->path);
        LLVMModuleRef m = NULL;
        char *msg = NULL;
        if (LLVMParseIRInContext(c, mb, &m, &msg)) { /* takes mb */
            if (msg) LLVMDisposeMessage(msg);
            LLVMContextDispose(c);
            *o = NULL;
            return GPUCOMPILE_ERROR_INVALID_INPUT;
        }
        r = gpucompile_compile_module(m, t->target, &opts, o);
        LLVMDisposeModule(m);
        LLVMContextDispose(c);
    }
    return r;
}

/* Thread w compiles tasks w*3, w*3+1, ...: at any moment the threads work on different kernels,
   targets and formats. Every 4th compile goes through a module. */
static void *work(void *arg) {
    worker *w = (worker *)arg;
    t_log *l = (t_log *)malloc(sizeof(t_log));
    int i;
    if (!l) { w->failures = PER_THREAD; return NULL; }
    for (i = 0; i < PER_THREAD; i++) {
        const task *t = &tasks[(w->id * 3 + i) % num_tasks];
        gpucompile_object *o = NULL;
        int m = i % 4 == 3;
        gpucompile_result r = compile(t, m, l, &o);
        w->done++;
        if (r != GPUCOMPILE_OK || !o) {
            if (!w->failures++)
                snprintf(w->first_error, sizeof w->first_error, "%.100s %.100s %.10s: %.100s: %.400s", t->path, t->target_text,
                         gpucompile_format_string(t->format), gpucompile_result_string(r), l->text);
            continue;
        }
        if (o->size != t->ref_size[m] || memcmp(o->data, t->ref[m], o->size) != 0 || o->num_kernels != t->ref_kernels) {
            if (!w->mismatches++ && !w->failures)
                snprintf(w->first_error, sizeof w->first_error, "%.100s %.100s %.10s: %zu bytes, serial %zu", t->path,
                         t->target_text, gpucompile_format_string(t->format), o->size, t->ref_size[m]);
        }
        gpucompile_object_free(o);
    }
    free(l);
    return NULL;
}

static const char *const kernels_nv[] = {"examples/kernels/saxpy_nvptx.ll", "examples/kernels/math_nvptx.ll",
                                         "examples/kernels/reduce_nvptx.ll"};
static const char *const kernels_amd[] = {"examples/kernels/saxpy_amdgpu.ll", "examples/kernels/math_amdgpu.ll",
                                          "examples/kernels/reduce_amdgpu.ll"};
static const char *const chips_nv[] = {"#gpu.nvptx<chip = \"sm_80\">", "#gpu.nvptx<O = 3, chip = \"sm_90\", flags = {ftz}>",
                                       "#nvvm.target<chip = \"sm_75\">"};
static const char *const chips_amd[] = {"#gpu.amdgpu<chip = \"gfx90a\">", "#gpu.amdgpu<chip = \"gfx1100\">",
                                        "#rocdl.target<O = 1, chip = \"gfx906\">"};

static void test_threads_match_serial(void) {
    pthread_t th[THREADS];
    worker w[THREADS];
    int i, k, done = 0, mism = 0, fails = 0, nv_bin, amd_bin;
    num_tasks = 0;
    /* format bin wherever its tool is here (a bin that fails then is a failure, not left out) */
    nv_bin = t_cuda() != NULL;
    amd_bin = t_have("ld.lld");
    if (!nv_bin) t__skipped++, printf("  SKIP NVPTX bin: no CUDA toolkit (ptxas)\n");
    if (!amd_bin) t__skipped++, printf("  SKIP AMDGPU bin: no ld.lld\n");
    for (k = 0; k < 3; k++) {
        add_task(kernels_nv[k], chips_nv[k], GPUCOMPILE_FORMAT_ISA);
        add_task(kernels_amd[k], chips_amd[k], GPUCOMPILE_FORMAT_ISA);
        add_task(kernels_nv[k], chips_nv[(k + 1) % 3], GPUCOMPILE_FORMAT_LLVM);
        add_task(kernels_amd[k], chips_amd[(k + 1) % 3], GPUCOMPILE_FORMAT_LLVM);
        if (nv_bin) add_task(kernels_nv[k], chips_nv[(k + 2) % 3], GPUCOMPILE_FORMAT_BIN);
        if (amd_bin) add_task(kernels_amd[k], chips_amd[(k + 2) % 3], GPUCOMPILE_FORMAT_BIN);
    }
    for (k = 2; amd_bin && k <= 3; k++) { /* partitions, each on its own thread */
        add_task("tests/data/dynshared_amdgpu.ll", chips_amd[k == 2 ? 0 : 2], GPUCOMPILE_FORMAT_BIN); /* wave64 */
        if (num_tasks) tasks[num_tasks - 1].jobs = k;
    }
    CHECK(num_tasks >= 12);
    for (i = 0; i < num_tasks; i++) { /* the serial references */
        int m;
        for (m = 0; m < 2; m++) {
            t_log l;
            gpucompile_object *o = NULL;
            gpucompile_result r = compile(&tasks[i], m, &l, &o);
            CHECK_MSG(r == GPUCOMPILE_OK, "serial %s %s: %s", tasks[i].path, tasks[i].target_text, l.text);
            if (!o) return;
            tasks[i].ref[m] = o->data;
            tasks[i].ref_size[m] = o->size;
            tasks[i].ref_kernels = o->num_kernels;
            o->data = NULL;
            gpucompile_object_free(o);
        }
        /* Only format llvm may differ between the two ways in (bitcode's symbol table order
           follows the module's history); what the code generator makes may not. */
        if (tasks[i].format != GPUCOMPILE_FORMAT_LLVM)
            CHECK_MSG(tasks[i].ref_size[0] == tasks[i].ref_size[1] && memcmp(tasks[i].ref[0], tasks[i].ref[1], tasks[i].ref_size[0]) == 0,
                      "%s %s %s: the module path differs", tasks[i].path, tasks[i].target_text,
                      gpucompile_format_string(tasks[i].format));
    }
    for (i = 0; i < THREADS; i++) {
        memset(&w[i], 0, sizeof w[i]);
        w[i].id = i;
        CHECK(pthread_create(&th[i], NULL, work, &w[i]) == 0);
    }
    for (i = 0; i < THREADS; i++) {
        pthread_join(th[i], NULL);
        done += w[i].done;
        mism += w[i].mismatches;
        fails += w[i].failures;
        CHECK_MSG(w[i].failures == 0 && w[i].mismatches == 0, "thread %d: %d failed, %d differ: %s", i, w[i].failures,
                  w[i].mismatches, w[i].first_error);
    }
    CHECK(done == THREADS * PER_THREAD);
    printf("  %d tasks (bin: NVPTX %s, AMDGPU %s); %d compiles on %d threads: %d failed, %d differ from serial\n",
           num_tasks, nv_bin ? "yes" : "no", amd_bin ? "yes" : "no", done, THREADS, fails, mism);
    for (i = 0; i < num_tasks; i++) {
        free(tasks[i].ir);
        gpucompile_free(NULL, tasks[i].ref[0]);
        gpucompile_free(NULL, tasks[i].ref[1]);
        gpucompile_target_free(tasks[i].target);
    }
}

/* Parsing, verifying and printing targets on 8 threads at once: the same canonical text. */
static void *parse_work(void *arg) {
    int *bad = (int *)arg, i;
    for (i = 0; i < 2000; i++) {
        const char *text = i % 2 ? chips_nv[i % 3] : chips_amd[i % 3];
        gpucompile_target *t = NULL;
        char buf[512];
        if (gpucompile_target_parse(text, (size_t)-1, NULL, NULL, &t) != GPUCOMPILE_OK ||
            gpucompile_target_verify(t, NULL) != GPUCOMPILE_OK) { (*bad)++; continue; }
        gpucompile_target_print(t, buf, sizeof buf);
        if (strcmp(buf, text) != 0) (*bad)++;
        gpucompile_target_free(t);
    }
    return NULL;
}

static void test_threads_parse_targets(void) {
    pthread_t th[THREADS];
    int bad[THREADS], i;
    for (i = 0; i < THREADS; i++) {
        bad[i] = 0;
        CHECK(pthread_create(&th[i], NULL, parse_work, &bad[i]) == 0);
    }
    for (i = 0; i < THREADS; i++) {
        pthread_join(th[i], NULL);
        CHECK_MSG(bad[i] == 0, "thread %d: %d bad round trips", i, bad[i]);
    }
}

int main(void) {
    (void)t_sh;
    RUN(test_threads_match_serial);
    RUN(test_threads_parse_targets);
    return TEST_END("threads");
}
