#if FAULTLINE_JEMALLOC
import CJemalloc
#endif
import Foundation

/// Allocation counts and bytes from jemalloc, which this process links as its
/// malloc (SQLite's, the Swift runtime's and Foundation's allocations all count).
/// Built without it (`FAULTLINE_NO_JEMALLOC`), or run with another malloc in
/// front of it (`LD_PRELOAD` of glibc's), `servesMalloc` is false and there is
/// nothing to count: jemalloc's statistics would read zero.
///
/// Counts are jemalloc's per-size-class request totals over all arenas
/// (`stats.arenas.<all>.small.nrequests` + `large.nrequests`). Requests served
/// from a thread cache reach those totals only when the cache is flushed, so a
/// snapshot flushes the calling thread's cache first and then refreshes the
/// statistics epoch. Bytes are `thread.allocated`: cumulative bytes allocated by
/// the calling thread (benchmarks measure single-threaded work).
public struct AllocationSnapshot: Sendable, Equatable {
    /// malloc/calloc/realloc/aligned allocations requested so far.
    public var count: UInt64
    /// Bytes requested so far by this thread.
    public var bytes: UInt64

    public static func - (after: AllocationSnapshot, before: AllocationSnapshot) -> AllocationSnapshot {
        AllocationSnapshot(count: after.count &- before.count, bytes: after.bytes &- before.bytes)
    }
}

public enum Allocations {
    /// Whether jemalloc is this process's malloc: a block Foundation allocates
    /// through malloc shows in jemalloc's count of this thread's bytes.
    public static let servesMalloc: Bool = {
        guard let before = readUInt64("thread.allocated") else { return false }
        let block = Data(count: 1 << 16)
        let after = readUInt64("thread.allocated") ?? before
        return withExtendedLifetime(block) { after &- before >= UInt64(block.count) }
    }()

    /// jemalloc's version string, e.g. "5.3.0-0-g54eaed1d8b56b1aa528be3bdd1877e59c56fa90c";
    /// nil unless it serves malloc.
    public static var version: String? {
        guard servesMalloc else { return nil }
        var pointer: UnsafePointer<CChar>?
        var size = MemoryLayout<UnsafePointer<CChar>?>.size
        guard control("version", &pointer, &size, nil, 0) == 0, let pointer else { return nil }
        return String(cString: pointer)
    }

    /// The settings that change what a run measures: jemalloc's purge delays
    /// and `MALLOC_CONF` when set, e.g. `dirty_decay_ms:10000 muzzy_decay_ms:0`.
    /// Freed pages purged sooner come back as page faults (system time) when
    /// the next iteration allocates, so reports with different settings do not
    /// compare on time. Nil unless jemalloc serves malloc.
    public static var settings: String? {
        guard servesMalloc, let dirty = readInt("opt.dirty_decay_ms"), let muzzy = readInt("opt.muzzy_decay_ms") else { return nil }
        var text = "dirty_decay_ms:\(dirty) muzzy_decay_ms:\(muzzy)"
        if let environment = ProcessInfo.processInfo.environment["MALLOC_CONF"], !environment.isEmpty {
            text += " (MALLOC_CONF=\(environment))"
        }
        return text
    }

    /// jemalloc's values in a `settings` text, without how they were asked
    /// for: `MALLOC_CONF` spelling out the defaults changes nothing.
    public static func effectiveSettings(_ settings: String) -> String {
        settings.components(separatedBy: " (MALLOC_CONF=")[0]
    }

    /// Totals so far. Not itself free: it flushes the thread cache, so take
    /// snapshots outside the measured region.
    public static func snapshot() -> AllocationSnapshot {
        control("thread.tcache.flush", nil, nil, nil, 0)
        _ = refreshEpoch()
        let small = readUInt64("stats.arenas.4096.small.nrequests") ?? 0
        let large = readUInt64("stats.arenas.4096.large.nrequests") ?? 0
        let bytes = readUInt64("thread.allocated") ?? 0
        return AllocationSnapshot(count: small &+ large, bytes: bytes)
    }

    @discardableResult
    private static func refreshEpoch() -> Bool {
        var epoch: UInt64 = 1
        return control("epoch", nil, nil, &epoch, MemoryLayout<UInt64>.size) == 0
    }

    /// A signed `ssize_t` option such as `opt.dirty_decay_ms` (-1: never purge).
    private static func readInt(_ name: String) -> Int? {
        var value = 0
        var size = MemoryLayout<Int>.size
        guard control(name, &value, &size, nil, 0) == 0 else { return nil }
        return value
    }

    private static func readUInt64(_ name: String) -> UInt64? {
        var value: UInt64 = 0
        var size = MemoryLayout<UInt64>.size
        guard control(name, &value, &size, nil, 0) == 0 else { return nil }
        return value
    }

    /// jemalloc's `mallctl`, or a failure when the build has no jemalloc.
    @discardableResult
    private static func control(
        _ name: String, _ old: UnsafeMutableRawPointer?, _ oldSize: UnsafeMutablePointer<Int>?,
        _ new: UnsafeMutableRawPointer?, _ newSize: Int
    ) -> Int32 {
        #if FAULTLINE_JEMALLOC
        return mallctl(name, old, oldSize, new, newSize)
        #else
        return -1
        #endif
    }
}
