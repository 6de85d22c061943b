import FaultlineModel

/// When a save's triggers rewrite a dependent entity only in rows the save
/// read back, that entity is not stale: its other rows, cached or held by
/// contexts, are still right.
///
/// That holds for an aggregate over a to-many (`articles.@count`,
/// `@sum.articles.views`, min, max, avg) whose inverse is a to-one key of the
/// child rows: the triggers write the parents of the child rows inserted,
/// deleted, moved or changed in the aggregated attribute. A save that only
/// inserts children (and changes other attributes of others) changes the
/// parents of the inserted ones, and the parent of each new child is itself in
/// the save (its to-many changed), re-read after the write with every derived
/// value. Anything else a save does to the children — a delete, a move, a
/// change of the aggregated value, join or ordering rows — and any other
/// derivation reading them (a key path, a many-to-many aggregate) leaves the
/// whole dependent entity stale, as before.
struct RereadDependents: Sendable {
    /// An aggregate's link: the child's to-one to the parent, and the child
    /// attribute aggregated (nil for a count).
    struct Link: Sendable {
        let toOne: Int
        let value: Int?
    }

    /// By child entity, then dependent entity: the links through which every
    /// derivation of the dependent reads the child; absent when some
    /// derivation reads it otherwise.
    private let links: [[Int: [Link]]]

    init(model: CheckedModel) {
        var links = Array(repeating: [Int: [Link]](), count: model.entities.count)
        var otherwise = Array(repeating: Set<Int>(), count: model.entities.count)
        for parent in model.entities {
            for attribute in parent.attributes {
                guard let derivation = attribute.derivation else { continue }
                for (child, link) in Self.reads(derivation, of: parent, in: model) {
                    if let link { links[child][parent.index, default: []].append(link) } else { otherwise[child].insert(parent.index) }
                }
            }
        }
        for child in links.indices { for parent in otherwise[child] { links[child][parent] = nil } }
        self.links = links
    }

    /// The child entities `derivation` reads, each with its link when it reads
    /// it as a membership aggregate.
    private static func reads(
        _ derivation: DerivationExpression, of parent: CheckedEntity, in model: CheckedModel
    ) -> [(child: Int, link: Link?)] {
        guard case .aggregate(_, let name, let attribute) = derivation, let relationship = parent.relationship(named: name) else {
            return DerivedDependencies.sources(of: derivation, from: parent, in: model)
                .flatMap { model.entities[$0].hierarchyIndexes }.map { ($0, nil) }
        }
        return model.entities[relationship.destinationEntityIndex].hierarchyIndexes.map { index in
            let child = model.entities[index]
            guard relationship.isToMany, relationship.inverseIsToMany == false,
                  let inverse = relationship.inverseIndex,
                  let toOne = child.relationships.first(where: { $0.index == inverse }), !toOne.isToMany
            else { return (index, nil) }
            var value: Int?
            if let attribute {
                guard let aggregated = child.attribute(named: attribute) else { return (index, nil) }
                value = aggregated.index
            }
            return (index, Link(toOne: toOne.index, value: value))
        }
    }

    /// The links through which `parent` reads `child`, nil when it reads it otherwise.
    func links(from child: Int, to parent: Int) -> [Link]? {
        child >= 0 && child < links.count ? links[child][parent] : nil
    }
}

extension RereadDependents {
    /// The entities among `dependents` of the entities `request` wrote that
    /// the save leaves right outside the rows it read back (`result.refreshed`).
    func unaffected(by request: SaveRequest, result: SaveResult, touched: ChangeMask, dependents: [Set<Int>]) -> ChangeMask {
        var unaffected = ChangeMask()
        // Join and ordering rows, and keys without an inverse, move children
        // by statements of their own: every dependent stays stale.
        guard request.joinInserts.isEmpty, request.joinDeletes.isEmpty, request.positions.isEmpty,
              request.keyAssignments.isEmpty else { return unaffected }
        var affected = ChangeMask()
        for child in touched.setIndices where child < dependents.count {
            for parent in dependents[child] {
                if !affected[parent], leavesUnread(parent, child: child, request: request, result: result) {
                    unaffected[parent] = true
                } else {
                    affected[parent] = true
                    unaffected[parent] = false
                }
            }
        }
        return unaffected
    }

    /// Whether the save's rows of `child` change no row of `parent` it did not read back.
    private func leavesUnread(_ parent: Int, child: Int, request: SaveRequest, result: SaveResult) -> Bool {
        guard let links = links(from: child, to: parent) else { return false }
        if request.deletes.contains(where: { $0.id.entityIndex == child }) { return false }
        for update in request.updates where update.id.entityIndex == child {
            if update.toOne.contains(where: { change in links.contains { $0.toOne == change.index } }) { return false }
            if update.attributes.contains(where: { change in links.contains { $0.value == change.index } }) { return false }
        }
        for (position, id) in result.insertedIDs.enumerated() where id.entityIndex == child {
            let toOne = request.inserts[position].toOne
            for link in links where link.toOne < toOne.count {
                guard let destination = toOne[link.toOne] else { continue }
                if result.refreshed[result.promoted.resolve(destination)] == nil { return false }
            }
        }
        return true
    }
}
