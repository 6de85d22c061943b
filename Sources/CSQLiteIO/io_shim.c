#include "faultline_io.h"
#include <pthread.h>
#include <string.h>

// Scopes are never reused: a file keeps the index of the scope it opened in
// for its whole life, so a closed scope's slot must not be handed out again.
#define FL_MAX_SCOPES 1024
#define FL_MAX_DIRECTORY 512

typedef struct fl_scope {
    int open;
    size_t length;
    char directory[FL_MAX_DIRECTORY];
    fl_io_counts counts;
    // The armed fault.
    int armed, kind, result_code, torn, persistent;
    long long at, seen;
    // After a torn write nothing more reaches the disk.
    int dead;
} fl_scope;

typedef struct fl_file {
    sqlite3_file base;
    int scope;
    // A write-ahead log or a rollback journal: its writes also count as journal growth.
    int journal;
    sqlite3_file *real;
} fl_file;

static pthread_mutex_t fl_lock = PTHREAD_MUTEX_INITIALIZER;
static fl_scope fl_scopes[FL_MAX_SCOPES];
static int fl_scope_count = 0;
static sqlite3_vfs fl_vfs;
static sqlite3_vfs *fl_root = NULL;

static int fl_error_for(int kind) {
    switch (kind) {
    case FL_IO_OPEN: return SQLITE_CANTOPEN;
    case FL_IO_READ: return SQLITE_IOERR_READ;
    case FL_IO_WRITE: return SQLITE_IOERR_WRITE;
    case FL_IO_TRUNCATE: return SQLITE_IOERR_TRUNCATE;
    default: return SQLITE_IOERR_FSYNC;
    }
}

// Counts one operation of `kind` moving `bytes`; returns SQLITE_OK to go on,
// or the error to report. Sets *torn when this write is the torn one.
static int fl_check(int scope, int kind, long long bytes, int *torn) {
    if (scope < 0) return SQLITE_OK;
    int rc = SQLITE_OK;
    pthread_mutex_lock(&fl_lock);
    fl_scope *s = &fl_scopes[scope];
    s->counts.operations[kind] += 1;
    if (kind == FL_IO_READ) s->counts.bytes_read += bytes;
    if (kind == FL_IO_WRITE) s->counts.bytes_written += bytes;
    if (s->dead && (kind == FL_IO_WRITE || kind == FL_IO_TRUNCATE || kind == FL_IO_SYNC)) {
        rc = fl_error_for(kind);
    } else if (s->armed && s->kind == kind) {
        s->seen += 1;
        if (s->seen == s->at || (s->persistent && s->seen > s->at)) {
            rc = s->result_code ? s->result_code : fl_error_for(kind);
            s->counts.faults_injected += 1;
            if (s->torn && kind == FL_IO_WRITE) {
                if (torn) *torn = 1;
                s->dead = 1;
            }
        }
    }
    pthread_mutex_unlock(&fl_lock);
    return rc;
}

static sqlite3_file *fl_real(sqlite3_file *file) { return ((fl_file *)file)->real; }
static int fl_scope_of(sqlite3_file *file) { return ((fl_file *)file)->scope; }

// MARK: - The file methods: count, maybe fail, else forward.

static int fl_close(sqlite3_file *file) {
    sqlite3_file *real = fl_real(file);
    int rc = real->pMethods ? real->pMethods->xClose(real) : SQLITE_OK;
    file->pMethods = NULL;
    return rc;
}

static int fl_read(sqlite3_file *file, void *buffer, int amount, sqlite3_int64 offset) {
    int rc = fl_check(fl_scope_of(file), FL_IO_READ, amount, NULL);
    if (rc != SQLITE_OK) return rc;
    sqlite3_file *real = fl_real(file);
    return real->pMethods->xRead(real, buffer, amount, offset);
}

// Records a write of `amount` bytes at `offset` into a journal of `scope`.
static void fl_note_journal_write(int scope, int amount, sqlite3_int64 offset) {
    if (scope < 0) return;
    pthread_mutex_lock(&fl_lock);
    fl_scope *s = &fl_scopes[scope];
    s->counts.journal_bytes_written += amount;
    if (offset + amount > s->counts.journal_peak) s->counts.journal_peak = offset + amount;
    pthread_mutex_unlock(&fl_lock);
}

static int fl_write(sqlite3_file *file, const void *buffer, int amount, sqlite3_int64 offset) {
    int torn = 0;
    int rc = fl_check(fl_scope_of(file), FL_IO_WRITE, amount, &torn);
    if (rc == SQLITE_OK && ((fl_file *)file)->journal) fl_note_journal_write(fl_scope_of(file), amount, offset);
    sqlite3_file *real = fl_real(file);
    if (torn && amount > 1) real->pMethods->xWrite(real, buffer, amount / 2, offset);
    if (rc != SQLITE_OK) return rc;
    return real->pMethods->xWrite(real, buffer, amount, offset);
}

static int fl_truncate(sqlite3_file *file, sqlite3_int64 size) {
    int rc = fl_check(fl_scope_of(file), FL_IO_TRUNCATE, 0, NULL);
    if (rc != SQLITE_OK) return rc;
    sqlite3_file *real = fl_real(file);
    return real->pMethods->xTruncate(real, size);
}

static int fl_sync(sqlite3_file *file, int flags) {
    int rc = fl_check(fl_scope_of(file), FL_IO_SYNC, 0, NULL);
    if (rc != SQLITE_OK) return rc;
    sqlite3_file *real = fl_real(file);
    return real->pMethods->xSync(real, flags);
}

static int fl_file_size(sqlite3_file *file, sqlite3_int64 *size) {
    sqlite3_file *real = fl_real(file);
    return real->pMethods->xFileSize(real, size);
}

static int fl_lock_file(sqlite3_file *file, int level) {
    sqlite3_file *real = fl_real(file);
    return real->pMethods->xLock(real, level);
}

static int fl_unlock_file(sqlite3_file *file, int level) {
    sqlite3_file *real = fl_real(file);
    return real->pMethods->xUnlock(real, level);
}

static int fl_check_reserved_lock(sqlite3_file *file, int *result) {
    sqlite3_file *real = fl_real(file);
    return real->pMethods->xCheckReservedLock(real, result);
}

static int fl_file_control(sqlite3_file *file, int op, void *argument) {
    sqlite3_file *real = fl_real(file);
    return real->pMethods->xFileControl(real, op, argument);
}

static int fl_sector_size(sqlite3_file *file) {
    sqlite3_file *real = fl_real(file);
    return real->pMethods->xSectorSize(real);
}

static int fl_device_characteristics(sqlite3_file *file) {
    sqlite3_file *real = fl_real(file);
    return real->pMethods->xDeviceCharacteristics(real);
}

static int fl_shm_map(sqlite3_file *file, int page, int size, int extend, void volatile **memory) {
    sqlite3_file *real = fl_real(file);
    return real->pMethods->xShmMap(real, page, size, extend, memory);
}

static int fl_shm_lock(sqlite3_file *file, int offset, int n, int flags) {
    sqlite3_file *real = fl_real(file);
    return real->pMethods->xShmLock(real, offset, n, flags);
}

static void fl_shm_barrier(sqlite3_file *file) {
    sqlite3_file *real = fl_real(file);
    real->pMethods->xShmBarrier(real);
}

static int fl_shm_unmap(sqlite3_file *file, int delete_flag) {
    sqlite3_file *real = fl_real(file);
    return real->pMethods->xShmUnmap(real, delete_flag);
}

static int fl_fetch(sqlite3_file *file, sqlite3_int64 offset, int amount, void **pointer) {
    sqlite3_file *real = fl_real(file);
    return real->pMethods->xFetch(real, offset, amount, pointer);
}

static int fl_unfetch(sqlite3_file *file, sqlite3_int64 offset, void *pointer) {
    sqlite3_file *real = fl_real(file);
    return real->pMethods->xUnfetch(real, offset, pointer);
}

// One table per version the real file's methods have, so SQLite sees the
// same capabilities (shared memory, memory mapping) through the shim.
#define FL_METHODS(version)                                                                                   \
    {version,          fl_close,        fl_read,          fl_write,        fl_truncate,  fl_sync,            \
     fl_file_size,     fl_lock_file,    fl_unlock_file,   fl_check_reserved_lock, fl_file_control,           \
     fl_sector_size,   fl_device_characteristics, fl_shm_map, fl_shm_lock, fl_shm_barrier, fl_shm_unmap,     \
     fl_fetch,         fl_unfetch}
static const sqlite3_io_methods fl_methods[3] = {FL_METHODS(1), FL_METHODS(2), FL_METHODS(3)};

// MARK: - The VFS: files join the scope whose directory holds them.

// The innermost open scope whose directory holds `path` (the newest of equals):
// a scope over the whole temporary directory, opened later by another user of
// the shim in the same process, must not take the files of a scope inside it.
static int fl_scope_for(const char *path) {
    if (!path) return -1;
    int found = -1;
    size_t longest = 0;
    pthread_mutex_lock(&fl_lock);
    for (int index = fl_scope_count - 1; index >= 0; index--) {
        fl_scope *s = &fl_scopes[index];
        if (s->open && s->length > longest && strncmp(path, s->directory, s->length) == 0) {
            found = index;
            longest = s->length;
        }
    }
    pthread_mutex_unlock(&fl_lock);
    return found;
}

static int fl_open(sqlite3_vfs *vfs, const char *name, sqlite3_file *file, int flags, int *out_flags) {
    (void)vfs;
    fl_file *shim = (fl_file *)file;
    shim->base.pMethods = NULL;
    shim->real = (sqlite3_file *)&shim[1];
    shim->scope = fl_scope_for(name);
    shim->journal = (flags & (SQLITE_OPEN_WAL | SQLITE_OPEN_MAIN_JOURNAL)) != 0;
    int rc = fl_check(shim->scope, FL_IO_OPEN, 0, NULL);
    if (rc != SQLITE_OK) return rc;
    rc = fl_root->xOpen(fl_root, name, shim->real, flags, out_flags);
    if (rc != SQLITE_OK || !shim->real->pMethods) return rc;
    int version = shim->real->pMethods->iVersion;
    if (version < 1) version = 1;
    if (version > 3) version = 3;
    shim->base.pMethods = &fl_methods[version - 1];
    return SQLITE_OK;
}

static int fl_delete(sqlite3_vfs *vfs, const char *name, int sync_directory) {
    (void)vfs;
    return fl_root->xDelete(fl_root, name, sync_directory);
}

static int fl_access(sqlite3_vfs *vfs, const char *name, int flags, int *result) {
    (void)vfs;
    return fl_root->xAccess(fl_root, name, flags, result);
}

static int fl_full_pathname(sqlite3_vfs *vfs, const char *name, int size, char *out) {
    (void)vfs;
    return fl_root->xFullPathname(fl_root, name, size, out);
}

static void *fl_dl_open(sqlite3_vfs *vfs, const char *name) {
    (void)vfs;
    return fl_root->xDlOpen(fl_root, name);
}

static void fl_dl_error(sqlite3_vfs *vfs, int size, char *message) {
    (void)vfs;
    fl_root->xDlError(fl_root, size, message);
}

static void (*fl_dl_sym(sqlite3_vfs *vfs, void *handle, const char *symbol))(void) {
    (void)vfs;
    return fl_root->xDlSym(fl_root, handle, symbol);
}

static void fl_dl_close(sqlite3_vfs *vfs, void *handle) {
    (void)vfs;
    fl_root->xDlClose(fl_root, handle);
}

static int fl_randomness(sqlite3_vfs *vfs, int size, char *out) {
    (void)vfs;
    return fl_root->xRandomness(fl_root, size, out);
}

static int fl_sleep(sqlite3_vfs *vfs, int microseconds) {
    (void)vfs;
    return fl_root->xSleep(fl_root, microseconds);
}

static int fl_current_time(sqlite3_vfs *vfs, double *now) {
    (void)vfs;
    return fl_root->xCurrentTime(fl_root, now);
}

static int fl_get_last_error(sqlite3_vfs *vfs, int size, char *out) {
    (void)vfs;
    return fl_root->xGetLastError ? fl_root->xGetLastError(fl_root, size, out) : 0;
}

static int fl_current_time_int64(sqlite3_vfs *vfs, sqlite3_int64 *now) {
    (void)vfs;
    return fl_root->xCurrentTimeInt64(fl_root, now);
}

static int fl_set_system_call(sqlite3_vfs *vfs, const char *name, sqlite3_syscall_ptr call) {
    (void)vfs;
    return fl_root->xSetSystemCall(fl_root, name, call);
}

static sqlite3_syscall_ptr fl_get_system_call(sqlite3_vfs *vfs, const char *name) {
    (void)vfs;
    return fl_root->xGetSystemCall(fl_root, name);
}

static const char *fl_next_system_call(sqlite3_vfs *vfs, const char *name) {
    (void)vfs;
    return fl_root->xNextSystemCall(fl_root, name);
}

int fl_io_install(void) {
    int rc = SQLITE_OK;
    pthread_mutex_lock(&fl_lock);
    if (!fl_root) {
        sqlite3_vfs *root = sqlite3_vfs_find(NULL);
        if (!root) {
            rc = SQLITE_ERROR;
        } else {
            memset(&fl_vfs, 0, sizeof fl_vfs);
            fl_vfs.iVersion = root->iVersion < 3 ? root->iVersion : 3;
            fl_vfs.szOsFile = (int)sizeof(fl_file) + root->szOsFile;
            fl_vfs.mxPathname = root->mxPathname;
            fl_vfs.zName = "faultline-io";
            fl_vfs.xOpen = fl_open;
            fl_vfs.xDelete = fl_delete;
            fl_vfs.xAccess = fl_access;
            fl_vfs.xFullPathname = fl_full_pathname;
            fl_vfs.xDlOpen = fl_dl_open;
            fl_vfs.xDlError = fl_dl_error;
            fl_vfs.xDlSym = fl_dl_sym;
            fl_vfs.xDlClose = fl_dl_close;
            fl_vfs.xRandomness = fl_randomness;
            fl_vfs.xSleep = fl_sleep;
            fl_vfs.xCurrentTime = fl_current_time;
            fl_vfs.xGetLastError = fl_get_last_error;
            if (fl_vfs.iVersion >= 2) fl_vfs.xCurrentTimeInt64 = fl_current_time_int64;
            if (fl_vfs.iVersion >= 3) {
                fl_vfs.xSetSystemCall = fl_set_system_call;
                fl_vfs.xGetSystemCall = fl_get_system_call;
                fl_vfs.xNextSystemCall = fl_next_system_call;
            }
            fl_root = root;
            rc = sqlite3_vfs_register(&fl_vfs, 1);
            if (rc != SQLITE_OK) fl_root = NULL;
        }
    }
    pthread_mutex_unlock(&fl_lock);
    return rc;
}

int fl_io_scope_open(const char *directory) {
    size_t length = strlen(directory);
    if (length == 0 || length >= FL_MAX_DIRECTORY) return -1;
    int scope = -1;
    pthread_mutex_lock(&fl_lock);
    if (fl_scope_count < FL_MAX_SCOPES) {
        scope = fl_scope_count++;
        fl_scope *s = &fl_scopes[scope];
        memset(s, 0, sizeof *s);
        memcpy(s->directory, directory, length + 1);
        s->length = length;
        s->open = 1;
    }
    pthread_mutex_unlock(&fl_lock);
    return scope;
}

static int fl_valid(int scope) { return scope >= 0 && scope < fl_scope_count; }

void fl_io_scope_close(int scope) {
    pthread_mutex_lock(&fl_lock);
    if (fl_valid(scope)) {
        fl_scopes[scope].open = 0;
        fl_scopes[scope].armed = 0;
        fl_scopes[scope].dead = 0;
    }
    pthread_mutex_unlock(&fl_lock);
}

fl_io_counts fl_io_scope_counts(int scope) {
    fl_io_counts counts;
    memset(&counts, 0, sizeof counts);
    pthread_mutex_lock(&fl_lock);
    if (fl_valid(scope)) counts = fl_scopes[scope].counts;
    pthread_mutex_unlock(&fl_lock);
    return counts;
}

void fl_io_scope_reset_counts(int scope) {
    pthread_mutex_lock(&fl_lock);
    if (fl_valid(scope)) memset(&fl_scopes[scope].counts, 0, sizeof(fl_io_counts));
    pthread_mutex_unlock(&fl_lock);
}

void fl_io_scope_reset_journal_peak(int scope) {
    pthread_mutex_lock(&fl_lock);
    if (fl_valid(scope)) fl_scopes[scope].counts.journal_peak = 0;
    pthread_mutex_unlock(&fl_lock);
}

void fl_io_scope_arm(int scope, int kind, long long at, int result_code, int torn, int persistent) {
    pthread_mutex_lock(&fl_lock);
    if (fl_valid(scope) && kind >= 0 && kind < FL_IO_KINDS) {
        fl_scope *s = &fl_scopes[scope];
        s->armed = 1;
        s->kind = kind;
        s->at = at;
        s->seen = 0;
        s->result_code = result_code;
        s->torn = torn;
        s->persistent = persistent;
        s->dead = 0;
    }
    pthread_mutex_unlock(&fl_lock);
}

void fl_io_scope_disarm(int scope) {
    pthread_mutex_lock(&fl_lock);
    if (fl_valid(scope)) {
        fl_scopes[scope].armed = 0;
        fl_scopes[scope].dead = 0;
    }
    pthread_mutex_unlock(&fl_lock);
}
