import CSQLite
import CSQLiteIO
import Foundation

/// The file operations a scope counts and can fail.
public enum IOOperation: Int, CaseIterable, Sendable, CustomStringConvertible {
    case open, read, write, truncate, sync

    var kind: Int32 {
        switch self {
        case .open: Int32(FL_IO_OPEN)
        case .read: Int32(FL_IO_READ)
        case .write: Int32(FL_IO_WRITE)
        case .truncate: Int32(FL_IO_TRUNCATE)
        case .sync: Int32(FL_IO_SYNC)
        }
    }

    public var description: String {
        switch self {
        case .open: "open"
        case .read: "read"
        case .write: "write"
        case .truncate: "truncate"
        case .sync: "sync"
        }
    }
}

/// What an injected fault does to the operation it hits.
public enum IOFaultEffect: Sendable, Equatable, CustomStringConvertible {
    /// The operation fails with SQLite's I/O error for it (`SQLITE_IOERR_WRITE`,
    /// `_READ`, `_FSYNC`, `_TRUNCATE`; `SQLITE_CANTOPEN` for an open).
    case ioError
    /// The operation fails with `SQLITE_FULL`: the disk is full.
    case diskFull
    /// Writes only: the first half of the write reaches the file, the write
    /// fails, and no later write, truncate or sync of the scope reaches the
    /// disk until the fault is cleared — a power cut in the middle of a write.
    case tornWrite

    public var description: String {
        switch self {
        case .ioError: "I/O error"
        case .diskFull: "disk full"
        case .tornWrite: "torn write"
        }
    }
}

/// A fault at one operation of a scope.
public struct IOFault: Sendable, Equatable, CustomStringConvertible {
    public var operation: IOOperation
    /// Which of the operations of that kind fails, counting from 1 after the
    /// fault is injected.
    public var occurrence: Int
    public var effect: IOFaultEffect
    /// When set, every later operation of the kind fails as well (a disk that
    /// stays full), until the fault is cleared.
    public var persistent: Bool

    public init(_ operation: IOOperation, occurrence: Int, effect: IOFaultEffect = .ioError, persistent: Bool = false) {
        self.operation = operation
        self.occurrence = occurrence
        self.effect = effect
        self.persistent = persistent
    }

    public var description: String {
        "\(effect) at \(operation) #\(occurrence)\(persistent ? " and after" : "")"
    }
}

/// What a scope's files did since it opened or its counts were reset.
public struct IOCounts: Sendable, Equatable {
    public var operations: [IOOperation: Int] = [:]
    public var bytesRead = 0
    public var bytesWritten = 0
    /// How many operations an injected fault failed.
    public var faultsInjected = 0
    /// Bytes written to write-ahead logs and rollback journals (part of `bytesWritten`).
    public var journalBytesWritten = 0
    /// How large a write-ahead log or rollback journal grew: the furthest
    /// offset a write into one reached since `IOScope.resetJournalPeak()`.
    /// A high-water mark, so a difference keeps the later value.
    public var journalPeakBytes = 0

    public init() {}

    public subscript(operation: IOOperation) -> Int { operations[operation] ?? 0 }

    /// What happened between `earlier` and `later`.
    public static func - (later: IOCounts, earlier: IOCounts) -> IOCounts {
        var difference = IOCounts()
        for operation in IOOperation.allCases {
            difference.operations[operation] = later[operation] - earlier[operation]
        }
        difference.bytesRead = later.bytesRead - earlier.bytesRead
        difference.bytesWritten = later.bytesWritten - earlier.bytesWritten
        difference.faultsInjected = later.faultsInjected - earlier.faultsInjected
        difference.journalBytesWritten = later.journalBytesWritten - earlier.journalBytesWritten
        difference.journalPeakBytes = later.journalPeakBytes
        return difference
    }
}

public enum IOScopeError: Error, Equatable, CustomStringConvertible {
    case installFailed(code: Int32)
    case unavailable(directory: String)

    public var description: String {
        switch self {
        case .installFailed(let code): "cannot install the counting VFS (SQLite code \(code))"
        case .unavailable(let directory): "cannot open an I/O scope for \(directory): path too long, or every scope taken"
        }
    }
}

/// The SQLite files under one directory, seen through a VFS shim that counts
/// their opens, reads, writes, truncates and syncs and can fail any one of
/// them (CSQLiteIO). The shim becomes the process's default VFS when the first
/// scope opens; files outside every scope pass straight through it.
public final class IOScope: @unchecked Sendable {
    private let scope: Int32
    public let directory: String

    /// Every SQLite file whose path starts with `directory` and that opens
    /// after this call belongs to the scope.
    public init(directory: String) throws {
        let installed = fl_io_install()
        guard installed == SQLITE_OK else { throw IOScopeError.installFailed(code: installed) }
        let prefix = directory.hasSuffix("/") ? directory : directory + "/"
        let scope = fl_io_scope_open(prefix)
        guard scope >= 0 else { throw IOScopeError.unavailable(directory: directory) }
        self.scope = scope
        self.directory = prefix
    }

    deinit { fl_io_scope_close(scope) }

    public var counts: IOCounts {
        let raw = fl_io_scope_counts(scope)
        var counts = IOCounts()
        withUnsafeBytes(of: raw.operations) { buffer in
            let values = buffer.bindMemory(to: Int64.self)
            for operation in IOOperation.allCases {
                counts.operations[operation] = Int(values[Int(operation.kind)])
            }
        }
        counts.bytesRead = Int(raw.bytes_read)
        counts.bytesWritten = Int(raw.bytes_written)
        counts.faultsInjected = Int(raw.faults_injected)
        counts.journalBytesWritten = Int(raw.journal_bytes_written)
        counts.journalPeakBytes = Int(raw.journal_peak)
        return counts
    }

    public func resetCounts() { fl_io_scope_reset_counts(scope) }

    /// Starts `journalPeakBytes` afresh, leaving the other counts running.
    public func resetJournalPeak() { fl_io_scope_reset_journal_peak(scope) }

    /// Arms `fault`; it replaces any fault armed before.
    public func inject(_ fault: IOFault) {
        // 0 asks the shim for the operation's own I/O error code.
        let code: Int32 = fault.effect == .diskFull ? SQLITE_FULL : 0
        let torn: Int32 = fault.effect == .tornWrite && fault.operation == .write ? 1 : 0
        fl_io_scope_arm(scope, fault.operation.kind, Int64(fault.occurrence), code, torn, fault.persistent ? 1 : 0)
    }

    /// Clears the armed fault: every operation succeeds again.
    public func clearFault() { fl_io_scope_disarm(scope) }
}

extension IOScopeError: LocalizedError {
    /// The description, so `localizedDescription` (what services log) says what
    /// happened instead of "The operation could not be completed".
    public var errorDescription: String? { description }
}
