#include "CSQLiteReference.h"
#include <stddef.h>
#include <stdio.h>

static void finish_execution(sqlite3_stmt *statement, fl_ref_counters *counters) {
    counters->statements_executed += 1;
    counters->vm_steps += sqlite3_stmt_status(statement, SQLITE_STMTSTATUS_VM_STEP, 1);
}

int fl_ref_open(const char *path, sqlite3 **db) {
    int rc = sqlite3_open_v2(path, db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, NULL);
    if (rc != SQLITE_OK) return rc;
    sqlite3_busy_timeout(*db, 5000);
    return sqlite3_exec(*db, "PRAGMA foreign_keys = ON; PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;",
                        NULL, NULL, NULL);
}

int fl_ref_close(sqlite3 *db) { return sqlite3_close_v2(db); }

int fl_ref_exec(sqlite3 *db, const char *sql, fl_ref_counters *counters) {
    // Counted as one execution per call; DDL is set-up work, never measured.
    counters->statements_executed += 1;
    return sqlite3_exec(db, sql, NULL, NULL, NULL);
}

int fl_ref_prepare(sqlite3 *db, const char *sql, sqlite3_stmt **statement, fl_ref_counters *counters) {
    counters->statements_prepared += 1;
    return sqlite3_prepare_v3(db, sql, -1, SQLITE_PREPARE_PERSISTENT, statement, NULL);
}

void fl_ref_finalize(sqlite3_stmt *statement) { sqlite3_finalize(statement); }

static int run_to_done(sqlite3_stmt *statement, fl_ref_counters *counters) {
    int rc = sqlite3_step(statement);
    finish_execution(statement, counters);
    sqlite3_reset(statement);
    return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

int fl_ref_insert(sqlite3 *db, sqlite3_stmt *insert, sqlite3_stmt *begin, sqlite3_stmt *commit,
                  const fl_ref_articles *a, int one_transaction, fl_ref_counters *counters) {
    (void)db;
    int rc;
    if (one_transaction && (rc = run_to_done(begin, counters)) != SQLITE_OK) return rc;
    for (int64_t i = 0; i < a->count; i++) {
        sqlite3_bind_text(insert, 1, a->titles[i], a->title_lengths[i], SQLITE_STATIC);
        sqlite3_bind_text(insert, 2, a->bodies[i], a->body_lengths[i], SQLITE_STATIC);
        sqlite3_bind_int64(insert, 3, a->views[i]);
        sqlite3_bind_double(insert, 4, a->created[i]);
        sqlite3_bind_int64(insert, 5, a->category_ids[i]);
        if ((rc = run_to_done(insert, counters)) != SQLITE_OK) return rc;
    }
    if (one_transaction && (rc = run_to_done(commit, counters)) != SQLITE_OK) return rc;
    return SQLITE_OK;
}

static int insert_keyed_row(sqlite3_stmt *insert, const fl_ref_articles *a, int64_t i, int64_t first_key,
                            int64_t entity_number, fl_ref_counters *counters) {
    sqlite3_bind_int64(insert, 1, first_key + i);
    sqlite3_bind_int64(insert, 2, entity_number);
    sqlite3_bind_int64(insert, 3, 1);
    sqlite3_bind_text(insert, 4, a->titles[i], a->title_lengths[i], SQLITE_STATIC);
    sqlite3_bind_text(insert, 5, a->bodies[i], a->body_lengths[i], SQLITE_STATIC);
    sqlite3_bind_int64(insert, 6, a->views[i]);
    sqlite3_bind_double(insert, 7, a->created[i]);
    sqlite3_bind_int64(insert, 8, a->category_ids[i]);
    return run_to_done(insert, counters);
}

int fl_ref_insert_keyed(sqlite3_stmt *insert, sqlite3_stmt *begin, sqlite3_stmt *commit,
                        const fl_ref_articles *a, int64_t first_key, int64_t entity_number,
                        fl_ref_counters *counters) {
    int rc;
    if ((rc = run_to_done(begin, counters)) != SQLITE_OK) return rc;
    for (int64_t i = 0; i < a->count; i++) {
        if ((rc = insert_keyed_row(insert, a, i, first_key, entity_number, counters)) != SQLITE_OK) return rc;
    }
    return run_to_done(commit, counters);
}

int fl_ref_insert_keyed_each(sqlite3_stmt *insert, sqlite3_stmt *begin, sqlite3_stmt *commit,
                             const fl_ref_articles *a, int64_t first_key, int64_t entity_number,
                             fl_ref_counters *counters) {
    int rc;
    for (int64_t i = 0; i < a->count; i++) {
        if ((rc = run_to_done(begin, counters)) != SQLITE_OK) return rc;
        if ((rc = insert_keyed_row(insert, a, i, first_key, entity_number, counters)) != SQLITE_OK) return rc;
        if ((rc = run_to_done(commit, counters)) != SQLITE_OK) return rc;
    }
    return SQLITE_OK;
}

int fl_ref_save_each(sqlite3_stmt *insert, sqlite3_stmt *begin, sqlite3_stmt *commit, sqlite3_stmt *reserve,
                     sqlite3_stmt *bump, const fl_ref_articles *a, int64_t first_key, int64_t entity_number,
                     int64_t *category_versions, int64_t category_count, fl_ref_counters *counters) {
    int rc;
    for (int64_t i = 0; i < a->count; i++) {
        int64_t key = first_key + i;
        int64_t category = a->category_ids[i];
        if (category < 1 || category > category_count) return SQLITE_RANGE;
        if ((rc = run_to_done(begin, counters)) != SQLITE_OK) return rc;
        sqlite3_bind_int64(reserve, 1, key);
        sqlite3_bind_int64(reserve, 2, entity_number);
        sqlite3_bind_int64(reserve, 3, key - 1);
        if ((rc = run_to_done(reserve, counters)) != SQLITE_OK) return rc;
        if (sqlite3_changes(sqlite3_db_handle(reserve)) != 1) return SQLITE_CONSTRAINT;
        if ((rc = insert_keyed_row(insert, a, i, first_key, entity_number, counters)) != SQLITE_OK) return rc;
        int64_t version = category_versions[category - 1];
        sqlite3_bind_int64(bump, 1, version + 1);
        sqlite3_bind_int64(bump, 2, category);
        sqlite3_bind_int64(bump, 3, version);
        if ((rc = run_to_done(bump, counters)) != SQLITE_OK) return rc;
        if (sqlite3_changes(sqlite3_db_handle(bump)) != 1) return SQLITE_CONSTRAINT;
        category_versions[category - 1] = version + 1;
        if ((rc = run_to_done(commit, counters)) != SQLITE_OK) return rc;
    }
    return SQLITE_OK;
}

int fl_ref_update_pairs(sqlite3_stmt *update, sqlite3_stmt *begin, sqlite3_stmt *commit,
                        const int64_t *values, const int64_t *keys, int64_t count,
                        fl_ref_counters *counters) {
    int rc;
    if ((rc = run_to_done(begin, counters)) != SQLITE_OK) return rc;
    for (int64_t i = 0; i < count; i++) {
        sqlite3_bind_int64(update, 1, values[i]);
        sqlite3_bind_int64(update, 2, keys[i]);
        if ((rc = run_to_done(update, counters)) != SQLITE_OK) return rc;
    }
    return run_to_done(commit, counters);
}

static int64_t read_row(sqlite3_stmt *query) {
    int64_t sum = 0;
    int columns = sqlite3_column_count(query);
    for (int c = 0; c < columns; c++) {
        switch (sqlite3_column_type(query, c)) {
        case SQLITE_INTEGER: sum += sqlite3_column_int64(query, c); break;
        case SQLITE_FLOAT: sum += (int64_t)sqlite3_column_double(query, c); break;
        case SQLITE_TEXT: {
            const unsigned char *text = sqlite3_column_text(query, c);
            int length = sqlite3_column_bytes(query, c);
            sum += length + (length > 0 ? text[0] : 0);
            break;
        }
        case SQLITE_BLOB: sum += sqlite3_column_bytes(query, c); break;
        default: break;
        }
    }
    return sum;
}

int64_t fl_ref_read_all(sqlite3_stmt *query, fl_ref_counters *counters, int *result_code) {
    int64_t sum = 0;
    int rc;
    while ((rc = sqlite3_step(query)) == SQLITE_ROW) {
        counters->rows_returned += 1;
        sum += read_row(query);
    }
    finish_execution(query, counters);
    sqlite3_reset(query);
    *result_code = rc == SQLITE_DONE ? SQLITE_OK : rc;
    return sum;
}

int64_t fl_ref_read_all_text(sqlite3_stmt *query, const char *text, int32_t length,
                             fl_ref_counters *counters, int *result_code) {
    sqlite3_bind_text(query, 1, text, length, SQLITE_STATIC);
    int64_t sum = fl_ref_read_all(query, counters, result_code);
    sqlite3_clear_bindings(query);
    return sum;
}

int64_t fl_ref_scalar(sqlite3_stmt *query, fl_ref_counters *counters, int *result_code) {
    int64_t value = 0;
    int rc = sqlite3_step(query);
    if (rc == SQLITE_ROW) {
        counters->rows_returned += 1;
        value = sqlite3_column_int64(query, 0);
        rc = SQLITE_DONE;
    }
    finish_execution(query, counters);
    sqlite3_reset(query);
    *result_code = rc == SQLITE_DONE ? SQLITE_OK : rc;
    return value;
}

int64_t fl_ref_lookup(sqlite3_stmt *query, const int64_t *keys, int64_t count,
                      fl_ref_counters *counters, int *result_code) {
    int64_t sum = 0;
    *result_code = SQLITE_OK;
    for (int64_t i = 0; i < count; i++) {
        sqlite3_bind_int64(query, 1, keys[i]);
        int rc;
        while ((rc = sqlite3_step(query)) == SQLITE_ROW) {
            counters->rows_returned += 1;
            sum += read_row(query);
        }
        finish_execution(query, counters);
        sqlite3_reset(query);
        if (rc != SQLITE_DONE) { *result_code = rc; return sum; }
    }
    return sum;
}

int64_t fl_ref_read_children(sqlite3_stmt *query, const int64_t *parent_keys, int64_t count,
                             int64_t *child_keys, int64_t child_capacity, int64_t *child_count,
                             fl_ref_counters *counters, int *result_code) {
    int64_t sum = 0;
    *child_count = 0;
    *result_code = SQLITE_OK;
    // The keys as one JSON array, read back by json_each(?): at most 20
    // digits and a comma per key, plus the brackets.
    size_t capacity = (size_t)count * 21 + 3;
    char *list = sqlite3_malloc64(capacity);
    if (list == NULL) { *result_code = SQLITE_NOMEM; return 0; }
    size_t length = 0;
    list[length++] = '[';
    for (int64_t i = 0; i < count; i++) {
        length += (size_t)snprintf(list + length, capacity - length, i == 0 ? "%lld" : ",%lld",
                                   (long long)parent_keys[i]);
    }
    list[length++] = ']';
    list[length] = '\0';
    sqlite3_bind_text(query, 1, list, (int)length, sqlite3_free);
    int rc;
    while ((rc = sqlite3_step(query)) == SQLITE_ROW) {
        counters->rows_returned += 1;
        sum += read_row(query);
        if (*child_count < child_capacity) { child_keys[(*child_count)++] = sqlite3_column_int64(query, 0); }
    }
    finish_execution(query, counters);
    sqlite3_reset(query);
    sqlite3_clear_bindings(query);
    if (rc != SQLITE_DONE) { *result_code = rc; }
    return sum;
}
