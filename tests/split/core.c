/* The core's implementation alone: no backend in this file (tests/split/main.c). */
#define GPUCOMPILE_IMPLEMENTATION
#include "gpucompile.h"
