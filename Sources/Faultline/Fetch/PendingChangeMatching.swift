import Foundation

/// `includesPendingChanges`: unsaved inserted and changed objects of the
/// fetched entity are matched against the predicate in memory, with the
/// evaluator, as Core Data does; changed objects that no longer match leave
/// the result. When anything was added, the result is sorted again in memory
/// by the sort descriptors and cut to `fetchLimit`.
extension ManagedObjectContext {
    func hasPendingChanges(for entity: CheckedEntity, _ request: FetchRequest) -> Bool {
        let hierarchy = request.includesSubentities ? entity.hierarchyIndexes : [entity.index]
        return changeOrder.contains { $0.isTrackedAsChanged && hierarchy.contains($0.entityIndex) && !$0.isDeletedStorage }
    }

    func mergingPendingChanges(
        into objects: [ManagedObject], _ request: FetchRequest, _ entity: CheckedEntity
    ) throws -> [ManagedObject] {
        guard hasPendingChanges(for: entity, request) else { return objects }
        let hierarchy = Set(request.includesSubentities ? entity.hierarchyIndexes : [entity.index])
        var present = Set(objects.map(ObjectIdentifier.init))
        var removed = Set<ObjectIdentifier>()
        var added: [ManagedObject] = []
        for object in changedInOrder where hierarchy.contains(object.entityIndex) && !object.isDeletedStorage {
            guard object.isInsertedStorage || object.hasChanges else { continue }
            let matches = try request.predicate?.evaluate(with: object) ?? true
            if matches {
                if present.insert(ObjectIdentifier(object)).inserted { added.append(object) }
            } else if !object.isInsertedStorage {
                removed.insert(ObjectIdentifier(object))
            }
        }
        guard !added.isEmpty || !removed.isEmpty else { return objects }
        var result = objects.filter { !removed.contains(ObjectIdentifier($0)) } + added
        if !added.isEmpty, !request.sortDescriptors.isEmpty {
            result = try sorted(result, by: request.sortDescriptors)
        }
        if request.fetchLimit > 0, result.count > request.fetchLimit { result = Array(result.prefix(request.fetchLimit)) }
        return result
    }

    /// A stable in-memory sort with the store's order: nil first, strings by
    /// UTF-8 bytes (or canonical form), numbers and dates by value.
    func sorted(_ objects: [ManagedObject], by descriptors: [FetchSortDescriptor]) throws -> [ManagedObject] {
        var keyed: [(object: ManagedObject, keys: [PredicateValue])] = []
        for object in objects {
            let evaluator = PredicateEvaluator(subject: object)
            var keys: [PredicateValue] = []
            for descriptor in descriptors {
                let path = PredicateKeyPath(descriptor.key.split(separator: ".").map(String.init))
                switch try evaluator.resolve(.keyPath(path)) {
                case .value(let value): keys.append(value)
                case .object(let destination): keys.append(.int(destination.predicateObjectID?.primaryKey ?? 0))
                case .collection: keys.append(.null)
                }
            }
            keyed.append((object, keys))
        }
        let indexed = keyed.enumerated().map { ($0.offset, $0.element) }
        return indexed.sorted { first, second in
            for (position, descriptor) in descriptors.enumerated() {
                let a = first.1.keys[position], b = second.1.keys[position]
                let options: PredicateComparisonOptions = descriptor.caseInsensitive ? [.caseInsensitive, .diacriticInsensitive] : []
                let order: ComparisonResult
                switch (a, b) {
                case (.null, .null): order = .orderedSame
                case (.null, _): order = .orderedAscending
                case (_, .null): order = .orderedDescending
                default: order = (PredicateValue.order(a, b, options) ?? .orderedSame) ?? .orderedSame
                }
                if order != .orderedSame { return (order == .orderedAscending) == descriptor.ascending }
            }
            return first.0 < second.0
        }.map(\.1.object)
    }
}
