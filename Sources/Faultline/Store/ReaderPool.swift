import FaultlineSQLite
import Synchronization

/// Lets a connection sit in a pool; only ever used by the thread holding it.
final class ConnectionBox: @unchecked Sendable {
    let connection: Connection
    /// The reader's data version after its last read, and this coordinator's
    /// commit count then (see ExternalCommits.swift).
    var dataVersion: UInt32?
    var localCommits = 0
    init(_ connection: Connection) { self.connection = connection }
}

/// A coordinator's idle reader connections.
///
/// A fault fired alone takes a reader and gives it back around one short
/// statement, so the pool's own cost is paid per fault: the reader given
/// back last waits in one atomic slot, taken and refilled without a lock;
/// the others, when reads overlap, wait in a locked list.
///
/// Invariants: a box is in at most one place, the slot or the list, and in
/// neither while a thread holds it; the slot owns one retain of its box.
/// Giving back releases what the holder wrote, taking acquires it, so the
/// next holder sees the box as the last one left it.
final class ReaderPool: Sendable {
    /// The slot: a retained box's address, 0 when empty (an address, as
    /// pointers are not `Sendable`).
    private let last = Atomic<UInt>(0)
    private let others = Locked<[ConnectionBox]>([])

    init() {}

    deinit { _ = takeLast() }

    /// An idle reader, nil when none is.
    func take() -> ConnectionBox? {
        takeLast() ?? others.withLock { $0.popLast() }
    }

    /// Gives a reader back.
    func give(_ box: ConnectionBox) {
        let address = UInt(bitPattern: Unmanaged.passRetained(box).toOpaque())
        if last.compareExchange(expected: 0, desired: address, ordering: .releasing).exchanged { return }
        Unmanaged.passUnretained(box).release()
        others.withLock { $0.append(box) }
    }

    private func takeLast() -> ConnectionBox? {
        let address = last.exchange(0, ordering: .acquiring)
        guard let raw = UnsafeMutableRawPointer(bitPattern: address) else { return nil }
        return Unmanaged<ConnectionBox>.fromOpaque(raw).takeRetainedValue()
    }

    /// Runs `body` on every idle reader, none of which another thread can
    /// take meanwhile (counters read or reset).
    func forEachIdle(_ body: (ConnectionBox) -> Void) {
        let slotted = takeLast()
        others.withLock { idle in
            idle.forEach(body)
            if let slotted { body(slotted) }
        }
        if let slotted { give(slotted) }
    }
}
