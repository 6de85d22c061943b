import Foundation
import Testing
import FaultlineSQLite
@testable import Faultline

/// Runs one operation on a store once to count its file operations, then once
/// per counted operation with a fault injected there (every effect that
/// applies to it), each time on a fresh copy of the same store. After every
/// attempt the store must hold exactly the state before or the state after the
/// operation, pass `PRAGMA integrity_check`, and the operation must have either
/// thrown a typed error or — when SQLite absorbed the fault, as it does for a
/// checkpoint after the commit — left the state after.
final class IOFaultSweep {
    /// What can go wrong at each kind of operation.
    static let effects: [IOOperation: [IOFaultEffect]] = [
        .open: [.ioError], .read: [.ioError], .write: [.ioError, .diskFull, .tornWrite],
        .truncate: [.ioError], .sync: [.ioError],
    ]

    /// One run of the operation: where its store is and the fault, if any.
    struct Attempt {
        let store: URL
        let fault: IOFault?
        fileprivate let sweep: IOFaultSweep

        /// Call right before the operation: from here its file operations count.
        func arm() {
            sweep.scope.resetCounts()
            if let fault { sweep.scope.inject(fault) }
        }

        /// Arms the fault, runs `operation`; when it throws, checks the
        /// failure (`failed(with:)`) and runs it again.
        func armedAndRetried(_ operation: () throws -> Void) throws {
            arm()
            do {
                try operation()
            } catch {
                try failed(with: error)
                try operation()
            }
        }

        /// Call when the operation threw: checks the error is a typed I/O
        /// error, clears the fault and checks the file holds the state before.
        func failed(with error: any Error) throws {
            sweep.errors.append(error)
            #expect(IOFaultSweep.isTypedIOError(error), "\(sweep.name), \(fault.map { "\($0)" } ?? "no fault"): \(error)")
            sweep.scope.clearFault()
            let allowed = sweep.failureMayCommit ? [sweep.before, sweep.after] : [sweep.before]
            try sweep.expectState(of: store, is: allowed, "after the failed operation (\(fault.map { "\($0)" } ?? "no fault"))")
        }
    }

    /// A store's content: every table's rows and every schema entry (IOFaultSweep.content).
    typealias State = [String: [[SQLValue]]]

    let name: String
    private let root: URL
    fileprivate let scope: IOScope
    private let template: URL?
    fileprivate var before: State = [:]
    fileprivate var after: State = [:]
    fileprivate var errors: [any Error] = []
    private let excludingMetadata: Bool
    /// Whether a failed operation may leave the state after: opening a
    /// container migrates (and commits) before it opens the connections it
    /// keeps, which can fail on their own. A save or batch request that
    /// throws must leave the state before.
    fileprivate let failureMayCommit: Bool

    /// Injection points per kind of operation, from the counting run.
    private(set) var points: [IOOperation: Int] = [:]
    /// Attempts whose fault made the operation throw, and attempts whose fault SQLite absorbed.
    private(set) var failures = 0
    private(set) var absorbed = 0

    /// `prepare` writes the store the operation starts from (nil: the
    /// operation starts from no file). `excludingMetadata`: Z_METADATA is left
    /// out of the comparison (a new store's UUID differs on every run).
    init(_ name: String, excludingMetadata: Bool = false, failureMayCommit: Bool = false, prepare: ((URL) throws -> Void)?) throws {
        self.name = name
        self.excludingMetadata = excludingMetadata
        self.failureMayCommit = failureMayCommit
        root = FileManager.default.temporaryDirectory.appendingPathComponent("faultline-faults-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        if let prepare {
            let url = root.appendingPathComponent("template.sqlite")
            try prepare(url)
            // Checkpointed into one file, so a copy is the whole store.
            try Connection(.file(url.path)).execute("PRAGMA wal_checkpoint(TRUNCATE)")
            template = url
        } else {
            template = nil
        }
        // The scope opens after the template is written: only attempts count.
        scope = try IOScope(directory: root.path)
    }

    deinit { try? FileManager.default.removeItem(at: root) }

    /// Counts, then injects a fault at every operation. `operate` opens what
    /// it needs, calls `attempt.arm()` right before the operation, and on a
    /// thrown error calls `attempt.failed(with:)`, checks what it holds in
    /// memory and runs the operation again.
    func run(_ operate: (Attempt) throws -> Void) throws {
        let counting = try fresh(0)
        before = try content(of: counting, missingAsEmpty: true)
        try operate(Attempt(store: counting, fault: nil, sweep: self))
        let counts = scope.counts
        try #require(errors.isEmpty, "\(name): the operation failed without a fault: \(errors)")
        after = try content(of: counting)
        #expect(after != before, "\(name): the operation changed nothing")
        points = Dictionary(uniqueKeysWithValues: IOOperation.allCases.map { ($0, counts[$0]) })

        var attemptNumber = 0
        for operation in IOOperation.allCases {
            for occurrence in stride(from: 1, through: counts[operation], by: 1) {
                for effect in Self.effects[operation] ?? [] {
                    attemptNumber += 1
                    let fault = IOFault(operation, occurrence: occurrence, effect: effect)
                    let store = try fresh(attemptNumber)
                    let errorsBefore = errors.count
                    try operate(Attempt(store: store, fault: fault, sweep: self))
                    let injected = scope.counts.faultsInjected
                    scope.clearFault()
                    #expect(injected >= 1, "\(name): \(fault) was never reached (the operation's I/O is not deterministic)")
                    if errors.count > errorsBefore { failures += 1 } else if injected >= 1 { absorbed += 1 }
                    try expectState(of: store, is: [after], "after \(fault) and the retry")
                    try? FileManager.default.removeItem(at: store.deletingLastPathComponent())
                }
            }
        }
    }

    /// A summary for the test log: injection points per kind, attempts, outcomes.
    var summary: String {
        let kinds = IOOperation.allCases.map { "\($0) \(points[$0] ?? 0)" }.joined(separator: ", ")
        return "\(name): injection points \(kinds); \(failures) attempts failed cleanly and recovered, \(absorbed) faults absorbed by SQLite"
    }

    private func fresh(_ number: Int) throws -> URL {
        let directory = root.appendingPathComponent("attempt-\(number)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let store = directory.appendingPathComponent("store.sqlite")
        if let template { try FileManager.default.copyItem(at: template, to: store) }
        return store
    }

    fileprivate func expectState(of store: URL, is allowed: [State], _ moment: String) throws {
        let state = try content(of: store, missingAsEmpty: true)
        if !allowed.contains(state) {
            let nearest = allowed.last ?? [:]
            let differing = Set(state.keys).union(nearest.keys).filter { state[$0] != nearest[$0] }.sorted()
            let detail = differing.prefix(3).map { table in
                let extra = (state[table] ?? []).filter { !(nearest[table] ?? []).contains($0) }
                let missing = (nearest[table] ?? []).filter { !(state[table] ?? []).contains($0) }
                return "\(table): extra \(extra.prefix(4)), missing \(missing.prefix(4))"
            }.joined(separator: "; ")
            Issue.record("\(name): the store is neither before nor after \(moment): \(detail)")
        }
        if FileManager.default.fileExists(atPath: store.path) {
            let connection = try Connection(.file(store.path))
            #expect(try connection.scalar("PRAGMA integrity_check") == .text("ok"), "\(name): integrity \(moment)")
        }
    }

    /// Every row of every table and every schema entry, sorted; a missing file
    /// is empty. Z_METADATA counts by its UUID and the model hash it records
    /// (its property list's bytes vary with dictionary order).
    private func content(of store: URL, missingAsEmpty: Bool = false) throws -> State {
        if missingAsEmpty, !FileManager.default.fileExists(atPath: store.path) { return [:] }
        // Read-write, as an app reopening the store would: it recovers the WAL.
        let connection = try Connection(.file(store.path))
        var result: State = [:]
        for row in try connection.rows("SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'") {
            guard case .text(let name) = row[1] else { continue }
            result["schema:" + name] = [row]
            guard row[0] == .text("table") else { continue }
            if name == "Z_METADATA" {
                let metadata = try StoreBootstrap.metadata(on: connection)
                let hash: SQLValue = if case .string(let hash)? = metadata.additional[StoreBootstrap.modelVersionHashKey] { .text(hash) } else { .null }
                result[name] = [[.text(excludingMetadata ? "" : metadata.uuid), hash]]
                continue
            }
            result[name] = try connection.rows("SELECT * FROM \"\(name)\"").sorted { "\($0)" < "\($1)" }
        }
        return result
    }

    /// SQLite's I/O errors, a full disk, a file that cannot be opened — as
    /// SQLiteError, or wrapped by the layer that met it.
    static func isTypedIOError(_ error: any Error) -> Bool {
        switch error {
        case let error as SQLiteError: return [.ioError, .full, .cantOpen].contains(error.code)
        case SaveError.unfulfilledFaults(let failures): return failures.allSatisfy { isTypedIOError($0.underlying) }
        default: return false
        }
    }
}
