#include "faultline_callgrind.h"

#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>

int fl_callgrind_available(void) { return 1; }
int fl_running_on_valgrind(void) { return RUNNING_ON_VALGRIND ? 1 : 0; }
void fl_callgrind_toggle_collect(void) { CALLGRIND_TOGGLE_COLLECT; }

#else

int fl_callgrind_available(void) { return 0; }
int fl_running_on_valgrind(void) { return 0; }
void fl_callgrind_toggle_collect(void) {}

#endif
