import Foundation

/// Dictionary results: `propertiesToFetch` (attributes, key paths through
/// to-ones, to-one relationships as object IDs) and `expressionsToFetch`
/// (computed columns, aggregates over groups of `propertiesToGroupBy`, kept
/// by `havingPredicate`), optionally DISTINCT, in one statement. As in Core
/// Data, pending changes are not included.
extension ManagedObjectContext {
    public func fetchDictionaries(_ request: FetchRequest) throws -> [[String: Any]] {
        checkQueue()
        guard let entity = coordinator.model.entity(named: request.entityName) else {
            throw FetchError.unknownEntity(request.entityName)
        }
        var keyPaths = request.propertiesToFetch
        if keyPaths.isEmpty, request.expressionsToFetch.isEmpty {
            keyPaths = coordinator.storedAttributeNames(ofEntityAt: entity.index)
        }
        // A composite asked for whole is read as its elements' columns.
        let composites = keyPaths.compactMap { name in entity.composites.first { $0.name == name } }
        if !composites.isEmpty {
            let requested = Set(keyPaths)
            keyPaths = keyPaths.flatMap { name in
                composites.first { $0.name == name }.map { composite in
                    composite.leafAttributeIndexes.map { entity.attributes[$0].name }.filter { !requested.contains($0) }
                } ?? [name]
            }
        }
        let (fetch, _) = try compiledFetch(request, selecting: keyPaths, computing: true)
        keyPaths += request.expressionsToFetch.map(\.name)
        let rows = try coordinator.fetchColumns(fetch)
        let dictionaries = Self.decodingTransformables(Self.dictionaries(rows, keyPaths: keyPaths), columns: fetch.columns)
        guard !composites.isEmpty else { return dictionaries }
        // Each leaf's key, its path inside the composite and whether it was asked
        // for too: worked out once, not per row.
        let requested = Set(request.propertiesToFetch)
        let nested = composites.map { composite in
            (name: composite.name, leaves: composite.leafAttributeIndexes.map { leaf in
                let name = entity.attributes[leaf].name
                return (key: name, path: name.dropFirst(composite.name.count + 1).split(separator: ".").map(String.init),
                        kept: requested.contains(name))
            })
        }
        return dictionaries.map { Self.nesting(nested, in: $0) }
    }

    /// The row's columns by key path.
    private static func dictionaries(_ rows: [[SelectedValue]], keyPaths: [String]) -> [[String: Any]] {
        // Each key's position, hashed once: a row without nils maps this table's
        // values in place (`mapValues` keeps the hash table), where inserting
        // key by key hashed every key string again for every row. A key listed
        // twice takes its last column, as the inserts below would.
        let positions = [String: Int](keyPaths.indices.map { (keyPaths[$0], $0) }) { _, last in last }
        return rows.map { row in
            if row.allSatisfy(Self.isPresent) { return positions.mapValues { Self.presentValue(row[$0]) } }
            var dictionary = [String: Any](minimumCapacity: keyPaths.count)
            for (keyPath, value) in zip(keyPaths, row) where Self.isPresent(value) {
                dictionary[keyPath] = Self.presentValue(value)
            }
            return dictionary
        }
    }

    /// A transformable's value as `value(forKey:)` gives it, decoded by its
    /// coding, not the archive its column holds: what Core Data's SQLite
    /// store returns, its value transformer applied. Bytes that do not
    /// decode drop the key, as a nil value does.
    private static func decodingTransformables(_ rows: [[String: Any]], columns: [SelectedColumn]) -> [[String: Any]] {
        let codings = columns.compactMap { column -> (key: String, coding: TransformableCoding)? in
            guard let attribute = column.attribute, attribute.attributeType == .transformableAttributeType else { return nil }
            return (column.keyPath, TransformableCoding(attribute))
        }
        guard !codings.isEmpty else { return rows }
        return rows.map { row in
            var row = row
            for (key, coding) in codings {
                if let data = row[key] as? Data { row[key] = coding.decode(data) }
            }
            return row
        }
    }

    /// Each composite asked for whole as one dictionary of its elements, as an
    /// object's `value(forKey:)` gives it (nested composites nested); its
    /// elements' own keys stay only where they were asked for too. A composite
    /// whose elements are all nil is left out, as nil values are.
    private static func nesting(
        _ composites: [(name: String, leaves: [(key: String, path: [String], kept: Bool)])], in row: [String: Any]
    ) -> [String: Any] {
        var row = row
        for composite in composites {
            var value: [String: Any] = [:]
            for leaf in composite.leaves {
                guard let element = leaf.kept ? row[leaf.key] : row.removeValue(forKey: leaf.key) else { continue }
                ManagedObject.insert(element, at: leaf.path[...], into: &value)
            }
            if !value.isEmpty { row[composite.name] = value }
        }
        return row
    }

    /// Core Data leaves nil values out of dictionary results.
    private static func isPresent(_ value: SelectedValue) -> Bool {
        switch value {
        case .value(let value): value != .null
        case .object(let id): id != nil
        }
    }

    /// The value as a dictionary result holds it; only for a present one.
    private static func presentValue(_ value: SelectedValue) -> Any {
        switch value {
        case .value(let value): value.anyValue ?? NSNull()
        case .object(let id): if let id { id } else { NSNull() }
        }
    }
}
