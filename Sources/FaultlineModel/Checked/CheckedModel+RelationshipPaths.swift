/// Relationship key paths (`books.chapters`), as prefetching reads them.
extension CheckedModel {
    /// The first step of `path` that is not a relationship of the entity
    /// reached so far from `entity`, with that entity; nil when every step is
    /// one. An empty step (`""`, `a..b`, `a.`) names no relationship.
    public func unknownRelationshipStep(in path: String, from entity: CheckedEntity) -> (entity: CheckedEntity, step: String)? {
        var current = entity
        for step in path.split(separator: ".", omittingEmptySubsequences: false).map(String.init) {
            guard let relationship = current.relationship(named: step) else { return (current, step) }
            current = entities[relationship.destinationEntityIndex]
        }
        return nil
    }
}
