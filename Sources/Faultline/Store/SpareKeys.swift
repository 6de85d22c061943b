/// Primary keys a writer reserved for its saves beyond what they used, by
/// root entity number: later saves take theirs from here and write no
/// `Z_PRIMARYKEY` update, one statement and one dirty page fewer a commit.
///
/// Core Data reserves exactly the keys of each save. Here a hierarchy's
/// reservations grow: the first reserves exactly (a store saved once has
/// `Z_MAX` equal to its largest key, as Core Data leaves it), each further
/// one that finds no spare keys adds 1, 2, 4, … up to 64 keys beyond what it
/// needs. `Z_MAX` may then run ahead of the largest `Z_PK`; every writer,
/// Core Data included, reserves above `Z_MAX`, so spare keys are never handed
/// out twice, and keys unused when the writer goes away are gaps.
///
/// Invariant: the spare keys of a hierarchy lie in (largest key used, `Z_MAX`]
/// as this writer last committed `Z_MAX`. Hence they are used only by a
/// writer's outermost transaction (`isUsable`), all are dropped when a
/// transaction fails (its reservation rolled back with it) and when another
/// connection committed since this writer's last commit (nothing it did to
/// `Z_PRIMARYKEY` is trusted). Keys of Core Data's persistent history are
/// never spared: their order is the commit order history readers rely on.
final class SpareKeys: @unchecked Sendable {
    static let largestExtra = 64

    /// By root entity number; read and written only under the writer's lock,
    /// hence no dynamic exclusivity checks (a pair on every save).
    @exclusivity(unchecked) private var spare: [ClosedRange<Int64>?] = []
    @exclusivity(unchecked) private var extra: [Int] = []
    /// Whether the writer's current transaction is its outermost one.
    @exclusivity(unchecked) var isUsable = false

    /// `count` spare keys of the hierarchy, taken; nil when fewer are spare.
    func take(_ count: Int64, rootEntityNumber root: Int) -> ClosedRange<Int64>? {
        guard isUsable, root >= 0, root < spare.count, let keys = spare[root],
              Int64(keys.count) >= count else { return nil }
        let taken = keys.lowerBound ... keys.lowerBound + count - 1
        spare[root] = taken.upperBound < keys.upperBound ? (taken.upperBound + 1) ... keys.upperBound : nil
        return taken
    }

    /// Every spare key of the hierarchy, taken (for a save they are too few for).
    func takeAll(rootEntityNumber root: Int) -> ClosedRange<Int64>? {
        guard isUsable, root >= 0, root < spare.count else { return nil }
        defer { spare[root] = nil }
        return spare[root]
    }

    /// Keys to reserve beyond a save's own, and the next reservation's extra grown.
    func extraToReserve(rootEntityNumber root: Int) -> Int64 {
        guard isUsable, root >= 0, root < Int(BookkeepingStatements.firstFrameworkEntityNumber) else { return 0 }
        if root >= extra.count {
            extra += Array(repeating: 0, count: root + 1 - extra.count)
            spare += Array(repeating: nil, count: root + 1 - spare.count)
        }
        let now = extra[root]
        extra[root] = min(max(now * 2, 1), Self.largestExtra)
        return Int64(now)
    }

    /// Keeps `keys`, just reserved in the current transaction, for later saves.
    func keep(_ keys: ClosedRange<Int64>, rootEntityNumber root: Int) {
        guard isUsable, root >= 0, root < spare.count else { return }
        spare[root] = keys
    }

    /// Forgets every spare key (they become gaps); the growth starts over.
    /// In place: a save after another process's commit allocates nothing here.
    func removeAll() {
        for root in spare.indices { spare[root] = nil }
        for root in extra.indices { extra[root] = 0 }
    }
}
