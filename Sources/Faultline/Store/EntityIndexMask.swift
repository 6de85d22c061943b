/// A set of entity indexes asked once per row or registered object: an array
/// of flags, where a `Set<Int>` hashes the index on every question.
struct EntityIndexMask {
    private let flags: [Bool]

    init(_ entities: Set<Int>) {
        var flags = [Bool](repeating: false, count: (entities.max() ?? -1) + 1)
        for entity in entities where entity >= 0 { flags[entity] = true }
        self.flags = flags
    }

    /// Whether no entity is in the set.
    var isEmpty: Bool { !flags.contains(true) }

    @inline(__always)
    func contains(_ entityIndex: Int) -> Bool {
        entityIndex >= 0 && entityIndex < flags.count && flags[entityIndex]
    }
}
