#ifndef FAULTLINE_IO_H
#define FAULTLINE_IO_H
#include <sqlite3.h>

// A VFS shim over SQLite's default VFS that counts the file operations of the
// database files under a directory ("a scope") and can fail one of them: the
// Nth open, read, write, truncate or sync with a chosen result code, or tear
// the Nth write in half and let nothing reach the disk after it, as a power
// cut would. Files outside every scope pass straight through.

enum {
    FL_IO_OPEN = 0,
    FL_IO_READ,
    FL_IO_WRITE,
    FL_IO_TRUNCATE,
    FL_IO_SYNC,
    FL_IO_KINDS
};

typedef struct fl_io_counts {
    long long operations[FL_IO_KINDS];
    long long bytes_read;
    long long bytes_written;
    long long faults_injected;
    /// Bytes written to write-ahead logs and rollback journals (part of bytes_written).
    long long journal_bytes_written;
    /// The furthest a write into a write-ahead log or rollback journal
    /// reached (offset + length) since fl_io_scope_reset_journal_peak: how
    /// large the journal grew.
    long long journal_peak;
} fl_io_counts;

/// Registers the shim as the process's default VFS (once); SQLITE_OK or
/// SQLite's error.
int fl_io_install(void);
/// A new scope for the files whose path starts with `directory` (which ends
/// in '/'); -1 when the directory is too long or every scope is taken.
int fl_io_scope_open(const char *directory);
/// No new file joins the scope; its open files keep counting.
void fl_io_scope_close(int scope);
fl_io_counts fl_io_scope_counts(int scope);
void fl_io_scope_reset_counts(int scope);
/// Starts measuring journal_peak afresh; the other counts go on.
void fl_io_scope_reset_journal_peak(int scope);
/// From now on, the `at`-th operation of `kind` (counting from 1) fails with
/// `result_code` (0: the operation's own I/O error code); with `persistent`, every later one of that kind fails too.
/// With `torn` (writes only) the write puts its first half on disk, fails,
/// and every later write, truncate and sync of the scope fails.
void fl_io_scope_arm(int scope, int kind, long long at, int result_code, int torn, int persistent);
/// Clears the armed fault and a torn write's aftermath.
void fl_io_scope_disarm(int scope);

#endif
