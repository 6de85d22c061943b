#ifndef FAULTLINE_CALLGRIND_H
#define FAULTLINE_CALLGRIND_H

// Valgrind's client requests for the suites' instruction counts: a program
// run under `valgrind --tool=callgrind --collect-atstart=no` collects only
// between two toggles. Outside valgrind each request is a few no-op
// instructions. Built without valgrind's headers, nothing is available.

/// 1 when valgrind's headers were there at build time.
int fl_callgrind_available(void);
/// 1 when the process runs under valgrind.
int fl_running_on_valgrind(void);
/// Switches callgrind's collection on or off.
void fl_callgrind_toggle_collect(void);

#endif
