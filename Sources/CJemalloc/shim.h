#ifndef FAULTLINE_CJEMALLOC_SHIM_H
#define FAULTLINE_CJEMALLOC_SHIM_H
#include <jemalloc/jemalloc.h>
#endif
