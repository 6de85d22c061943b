import Faultline
import FaultlineBench

/// What one save does to `count` items, each a different way into the
/// controllers: a sort key, the predicate's key, a key nothing reads, new
/// items, deleted items, a move to another section.
enum ChangeKind: String, CaseIterable {
    case sortKey, predicateKey, unrelatedKey, insert, delete, sectionMove

    /// Makes the change in `context` (not saved). Items are picked by a seeded
    /// generator, so every iteration changes the same ones.
    func apply(count: Int, rows: Int, in context: ManagedObjectContext) throws {
        var random = SeededRandom(seed: 23)
        var picked = Set<Int>()
        while picked.count < count { picked.insert(Int.random(in: 0..<rows, using: &random)) }
        let items = try context.fetch(FetchRequest(entityName: "Item", predicate: try FetchPredicate(
            format: "rank IN %@", picked.map { ObservingModel.values(of: $0).rank })))
        guard items.count == count || self == .insert else {
            throw ObservingError("\(rawValue): found \(items.count) of the \(count) items to change")
        }
        for (position, item) in items.enumerated() {
            let index = picked.sorted()[position % picked.count]
            switch self {
            case .sortKey: try item.setValue(Int64(rows * 10 + index * 10 + 5), forKey: "rank")
            case .predicateKey: try item.setValue(!(item.value(forKey: "visible") as? Bool ?? false), forKey: "visible")
            case .unrelatedKey: try item.setValue("changed \(index)", forKey: "note")
            case .delete: context.delete(item)
            case .sectionMove:
                let group = ObservingModel.values(of: index + 1).group
                try item.setValue(group, forKey: "group")
            case .insert: break
            }
        }
        if self == .insert {
            for index in picked.sorted() {
                let item = try context.insertNewObject(forEntityName: "Item")
                try item.setValue(ObservingModel.values(of: index).group, forKey: "group")
                try item.setValue(Int64(index * 10 + 3), forKey: "rank")
                try item.setValue(true, forKey: "visible")
            }
        }
    }
}
