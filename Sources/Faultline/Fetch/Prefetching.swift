import Foundation

/// `relationshipKeyPathsForPrefetching`: each level of each key path costs one
/// statement whatever the number of sources (to-many: `json_each` over the
/// source keys; to-one: the batch-fault statement over the destination keys).
/// Destinations come back materialised and wired into the sources'
/// relationship caches, so touching them, or the relationships, costs no SQL.
/// Key paths sharing a prefix (`books`, `books.chapters`) share its level.
extension ManagedObjectContext {
    /// Throws `FetchError.unknownKeyPath` unless every step of every key path
    /// is a relationship of the entity reached so far, starting from `entity`
    /// (an empty step, as in `""` or `a..b`, names none).
    func checkPrefetchKeyPaths(_ keyPaths: [String], from entity: CheckedEntity) throws {
        for path in keyPaths {
            if let (reached, step) = coordinator.model.unknownRelationshipStep(in: path, from: entity) {
                throw FetchError.unknownKeyPath(entity: reached.name, keyPath: step.isEmpty ? path : step)
            }
        }
    }

    /// The prefetch of a batch that just fired. Its key paths were checked
    /// when the fetch ran; a failing read leaves the relationships to load
    /// lazily, as a failing batch read leaves its faults.
    func prefetch(_ keyPaths: [String], forBatch members: [ManagedObject]) {
        guard !keyPaths.isEmpty else { return }
        let loaded = members.filter { !$0.isFaultStorage && !$0.isDeletedStorage }
        guard let entity = loaded.first?.runtime.entity else { return }
        try? prefetch(keyPaths, for: loaded, entity: entity)
    }

    func prefetch(_ keyPaths: [String], for objects: [ManagedObject], entity: CheckedEntity) throws {
        let paths = keyPaths.map { $0.split(separator: ".").map(String.init) }.filter { !$0.isEmpty }
        try prefetch(paths, sources: objects, entityName: entity.name)
    }

    private func prefetch(_ paths: [[String]], sources: [ManagedObject], entityName: String) throws {
        var order: [String] = []
        var rests: [String: [[String]]] = [:]
        for path in paths {
            if rests[path[0]] == nil { order.append(path[0]) }
            rests[path[0], default: []].append(Array(path.dropFirst()))
        }
        for name in order {
            let deeper = (rests[name] ?? []).filter { !$0.isEmpty }
            let destinations = try prefetchLevel(
                name, sources: sources, entityName: entityName, returnsDestinations: !deeper.isEmpty)
            if !deeper.isEmpty, !destinations.isEmpty {
                let destinationName = destinations[0].entity?.name ?? name
                try prefetch(deeper, sources: destinations, entityName: destinationName)
            }
        }
    }

    /// Prefetches the relationship `name` of `sources`; returns the
    /// destinations when a deeper level needs them (the last level of a path
    /// does not collect them: 100,000 books are 100,000 retains and releases).
    private func prefetchLevel(
        _ name: String, sources: [ManagedObject], entityName: String, returnsDestinations: Bool
    ) throws -> [ManagedObject] {
        guard let first = sources.first, let entity = first.entity else { return [] }
        guard let relationship = entity.relationship(named: name) else {
            throw FetchError.unknownKeyPath(entity: entityName, keyPath: name)
        }
        let index = relationship.index
        // An entity without to-many relationships keeps no to-many slots, so the
        // bound to check depends on the relationship's kind.
        let eligible = sources.filter {
            $0.entity?.relationship(named: name)?.index == index
                && index < (relationship.isToMany ? $0.toMany.count : $0.toOne.count)
        }
        return relationship.isToMany
            ? try prefetchToMany(relationship, of: eligible, returnsDestinations: returnsDestinations)
            : try prefetchToOne(index, of: eligible)
    }

    private func prefetchToMany(
        _ relationship: CheckedRelationship, of sources: [ManagedObject], returnsDestinations: Bool
    ) throws -> [ManagedObject] {
        let index = relationship.index
        let pending = sources.filter { !$0.objectID.isTemporaryID && $0.toMany[index]?.isLoaded != true }
        guard let first = pending.first else { return [] }
        var prefetched = try coordinator.prefetchToMany(
            sourceKeys: pending.map(\.objectID.primaryKey), sourceEntityIndex: first.entityIndex, relationship: relationship)
        // Rows arrive grouped by owner as a rule (SQLite walks the IN list in
        // key order), so only a change of owner costs a hash lookup; counting
        // first gives each member array its exact capacity.
        let positions = Dictionary(pending.indices.map { (pending[$0].objectID.primaryKey, $0) }) { first, _ in first }
        // Taken out, so the loop below moves every snapshot instead of copying.
        var rows = DecodedRows()
        swap(&rows, &prefetched.rows)
        var ownerOfRow: [Int] = []
        ownerOfRow.reserveCapacity(rows.count)
        var counts = [Int](filledWith: 0, count: pending.count)
        var lastOwner: Int64?
        var lastPosition = -1
        for owner in prefetched.owners {
            if owner != lastOwner {
                lastOwner = owner
                lastPosition = positions[owner] ?? -1
            }
            ownerOfRow.append(lastPosition)
            if lastPosition >= 0 { counts[lastPosition] &+= 1 }
        }
        var groups: [[ManagedObject]] = counts.map { count in
            var members: [ManagedObject] = []
            members.reserveCapacity(count)
            return members
        }
        var destinations: [ManagedObject] = []
        if returnsDestinations { destinations.reserveCapacity(rows.count) }
        registered.reserveStored(rows.count)
        let inverse = relationship.inverseIsToMany == true ? nil : relationship.inverseIndex
        // Members go to the owner's array through a local one, swapped in
        // and out when the owner changes (once per owner as a rule): appended
        // in place in `groups`, every row paid the outer array's checks.
        var current: [ManagedObject] = []
        var currentPosition = -1
        var row = -1
        for chunkIndex in rows.chunks.indices {
            var chunk = rows.takeChunk(chunkIndex)
            for index in chunk.indices {
                row += 1
                let member = object(owned: chunk[index].id)
                let wasFault = member.isFaultStorage
                if wasFault { materialize(member, from: chunk[index].takeSnapshot()) }
                if returnsDestinations { destinations.append(member) }
                let position = ownerOfRow[row]
                guard position >= 0 else { continue }
                // A member whose in-memory inverse now points elsewhere has moved
                // (never one just materialised: its to-ones are the row's).
                if !wasFault, let inverse, inverse < member.toOne.count, case .object(let owner) = member.toOne[inverse],
                   owner !== pending[position] {
                    continue
                }
                if position != currentPosition {
                    if currentPosition >= 0 { swap(&current, &groups[currentPosition]) }
                    swap(&current, &groups[position])
                    currentPosition = position
                }
                append(member, to: &current)
            }
        }
        if currentPosition >= 0 { swap(&current, &groups[currentPosition]) }
        for source in pending {
            // By key: a many-to-many level can list one source twice.
            guard let position = positions[source.objectID.primaryKey] else { continue }
            let state = source.toMany[index] ?? ToManyState()
            source.toMany[index] = state
            state.load(groups[position])
        }
        return destinations
    }

    /// The prefetch's last use of a member: taken consuming, so the member
    /// moves into the array. Appended in the loop, it was copied (a retain
    /// and a release per row); a `consume` there made the debug build's
    /// compile of the loop run without end.
    @inline(__always)
    private func append(_ member: consuming ManagedObject, to members: inout [ManagedObject]) {
        members.append(member)
    }

    private func prefetchToOne(_ index: Int, of sources: [ManagedObject]) throws -> [ManagedObject] {
        var wanted: [ManagedObjectID] = []
        var seen = Set<ManagedObjectID>()
        for source in sources where index < source.toOne.count {
            switch source.toOneState(at: index) {
            case .id(let id?) where seen.insert(id).inserted: wanted.append(id)
            case .object(let object?) where seen.insert(object.objectID).inserted: wanted.append(object.objectID)
            default: break
            }
        }
        let missing = wanted.filter { registeredObject(for: $0)?.isFaultStorage ?? true }
        if !missing.isEmpty {
            for (id, snapshot) in try coordinator.rows(for: missing) {
                let destination = object(owned: id)
                if destination.isFaultStorage { materialize(destination, from: snapshot) }
            }
        }
        for source in sources where index < source.toOne.count {
            if case .id(let id?) = source.toOneState(at: index) { source.toOne[index] = .object(object(owned: id)) }
        }
        return wanted.map { object(owned: $0) }
    }
}
