#ifndef FAULTLINE_CSQLITE_SHIM_H
#define FAULTLINE_CSQLITE_SHIM_H
#include <sqlite3.h>

// SQLITE_TRANSIENT and SQLITE_STATIC are casts of integers to function pointers,
// which Swift cannot import as macros.
static inline sqlite3_destructor_type faultline_sqlite_transient(void) { return SQLITE_TRANSIENT; }
static inline sqlite3_destructor_type faultline_sqlite_static(void) { return SQLITE_STATIC; }
// A non-NULL pointer for empty text: a NULL pointer would bind SQL NULL.
static inline const char *faultline_empty_text(void) { return ""; }
// sqlite3_db_config is variadic, which Swift cannot call. Returns whether the
// connection's triggers are on afterwards, -1 on failure.
static inline int faultline_enable_triggers(sqlite3 *db, int on) {
    int enabled = -1;
    if (sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_TRIGGER, on, &enabled) != SQLITE_OK) return -1;
    return enabled;
}
#endif
