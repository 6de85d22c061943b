/// The entities a save touched, marked by index: marking costs a store,
/// where a `Set<Int>` hashed the entity of every saved row.
struct EntityMarks {
    private var marked: [Bool]

    init(entityCount: Int) { marked = Array(repeating: false, count: entityCount) }

    mutating func mark(_ entityIndex: Int) { marked[entityIndex] = true }

    /// The entities whose derived attributes may have changed with the
    /// marked ones (`dependents[e]`: the entities deriving from `e`).
    func stale(_ dependents: [Set<Int>]) -> Set<Int> {
        var stale = Set<Int>()
        for (entity, isMarked) in marked.enumerated() where isMarked { stale.formUnion(dependents[entity]) }
        return stale
    }
}
