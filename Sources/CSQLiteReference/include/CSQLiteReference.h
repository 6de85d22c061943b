#ifndef FAULTLINE_CSQLITEREFERENCE_H
#define FAULTLINE_CSQLITEREFERENCE_H
// The raw SQLite reference loops: the SQLite C API driven by hand, as a C
// programmer would write it (one prepared statement, bind/step/reset, static
// bindings). Every benchmark suite reports its lines as a ratio to these.
//
// Each loop counts its own work (statements executed, rows, VM steps) the way
// FaultlineSQLite does, so reports compare like with like.
#include <stdint.h>
#include <sqlite3.h>

typedef struct fl_ref_counters {
    int64_t statements_prepared;
    int64_t statements_executed;
    int64_t rows_returned;
    int64_t vm_steps;
} fl_ref_counters;

// Column values for `count` articles, as parallel arrays. Text is UTF-8 with
// explicit lengths; the pointers must stay valid while a loop runs.
typedef struct fl_ref_articles {
    int64_t count;
    const char *const *titles;
    const int32_t *title_lengths;
    const char *const *bodies;
    const int32_t *body_lengths;
    const int64_t *views;
    const double *created;
    const int64_t *category_ids;
} fl_ref_articles;

// Opens a file database with WAL, synchronous=NORMAL and foreign keys on.
// Returns an SQLite result code; *db is set (or NULL) either way.
int fl_ref_open(const char *path, sqlite3 **db);
int fl_ref_close(sqlite3 *db);
// Runs semicolon-separated SQL (DDL) with sqlite3_exec.
int fl_ref_exec(sqlite3 *db, const char *sql, fl_ref_counters *counters);
int fl_ref_prepare(sqlite3 *db, const char *sql, sqlite3_stmt **statement, fl_ref_counters *counters);
void fl_ref_finalize(sqlite3_stmt *statement);

// INSERT with parameters (title, body, views, created, category_id), one row
// per article: in one transaction when `one_transaction`, otherwise each row
// in its own (autocommit). Returns SQLITE_OK or the failing code.
int fl_ref_insert(sqlite3 *db, sqlite3_stmt *insert, sqlite3_stmt *begin, sqlite3_stmt *commit,
                  const fl_ref_articles *articles, int one_transaction, fl_ref_counters *counters);

// INSERT into a table in Core Data's layout, parameters
// (Z_PK, Z_ENT, Z_OPT, title, body, views, created, category key), keys
// first_key, first_key + 1, …, one transaction: what a Core Data-shaped insert
// costs when driven by hand (the store's triggers run as for any insert).
int fl_ref_insert_keyed(sqlite3_stmt *insert, sqlite3_stmt *begin, sqlite3_stmt *commit,
                        const fl_ref_articles *articles, int64_t first_key, int64_t entity_number,
                        fl_ref_counters *counters);

// The same rows and keys, each in a transaction of its own: BEGIN IMMEDIATE,
// INSERT, COMMIT per row — what one save per object costs when driven by hand.
int fl_ref_insert_keyed_each(sqlite3_stmt *insert, sqlite3_stmt *begin, sqlite3_stmt *commit,
                             const fl_ref_articles *articles, int64_t first_key, int64_t entity_number,
                             fl_ref_counters *counters);

// What one save per new object sends in Core Data's terms, by hand, per row:
// BEGIN IMMEDIATE; the key reservation (`reserve`: Z_MAX = ?1 WHERE Z_ENT = ?2
// AND Z_MAX = ?3); the INSERT; the category's version bump, since its to-many
// changed (`bump`: Z_OPT = ?1 WHERE Z_PK = ?2 AND Z_OPT = ?3, versions by
// category ID - 1, updated as written); COMMIT. A reservation or bump that
// changes no row returns SQLITE_CONSTRAINT.
int fl_ref_save_each(sqlite3_stmt *insert, sqlite3_stmt *begin, sqlite3_stmt *commit, sqlite3_stmt *reserve,
                     sqlite3_stmt *bump, const fl_ref_articles *articles, int64_t first_key, int64_t entity_number,
                     int64_t *category_versions, int64_t category_count, fl_ref_counters *counters);

// UPDATE with parameters (value, key) for each of `count` pairs, in one
// transaction: bind, step, reset per row. Returns SQLITE_OK or the failing code.
int fl_ref_update_pairs(sqlite3_stmt *update, sqlite3_stmt *begin, sqlite3_stmt *commit,
                        const int64_t *values, const int64_t *keys, int64_t count,
                        fl_ref_counters *counters);

// Steps a query with no parameters to the end, reading every column of every
// row; returns a checksum of what it read (so the work cannot be optimised out).
int64_t fl_ref_read_all(sqlite3_stmt *query, fl_ref_counters *counters, int *result_code);

// Binds `text` (UTF-8, `length` bytes, static: it must outlive the call) to
// parameter 1 of `query`, then reads it as `fl_ref_read_all` does: every
// column of every row. Returns a checksum.
int64_t fl_ref_read_all_text(sqlite3_stmt *query, const char *text, int32_t length,
                             fl_ref_counters *counters, int *result_code);

// Steps a query whose first column is an integer (e.g. `SELECT COUNT(*)`);
// returns that column of the first row (0 when there is none).
int64_t fl_ref_scalar(sqlite3_stmt *query, fl_ref_counters *counters, int *result_code);

// Binds each key to parameter 1 of `query`, steps it, reads every column of
// the row; returns a checksum.
int64_t fl_ref_lookup(sqlite3_stmt *query, const int64_t *keys, int64_t count,
                      fl_ref_counters *counters, int *result_code);

// Binds `parent_keys` as one JSON array to parameter 1 of `query` (a SELECT
// whose WHERE reads `IN (SELECT value FROM json_each(?))`), steps it to the
// end reading every column of every row, and stores column 0 (the child's
// key) of the first `child_capacity` rows in `child_keys`; *child_count is how
// many were stored. One statement for any number of parents. Returns a checksum.
int64_t fl_ref_read_children(sqlite3_stmt *query, const int64_t *parent_keys, int64_t count,
                             int64_t *child_keys, int64_t child_capacity, int64_t *child_count,
                             fl_ref_counters *counters, int *result_code);
#endif
