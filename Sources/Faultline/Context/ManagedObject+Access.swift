import Foundation

/// Dynamic access by key, as Core Data's key-value coding. Typed subclasses use
/// `AttributeKey` and friends, which resolve the index once.
extension ManagedObject {
    /// The value of an attribute (`Any` form: Int64, Double, String, Date…; a
    /// composite as a dictionary; a transformable decoded), the destination of a
    /// to-one, or the members of a to-many (an array). Nil for an unknown key.
    public func value(forKey key: String) -> Any? {
        guard let entity, let property = entity.propertyByName[key] else { return nil }
        switch property {
        case .attribute(let index):
            return anyValue(of: entity.attributes[index], stored: attributeValue(at: index))
        case .relationship(let index):
            return entity.relationships[index].isToMany ? members(at: index) : destination(at: index)
        case .composite(let index):
            return compositeDictionary(entity.composites[index], in: entity)
        }
    }

    /// Sets an attribute, a to-one destination, a to-many's members (an array of
    /// objects), or a composite (a dictionary of its elements). Tracks the
    /// change and keeps inverse relationships right.
    public func setValue(_ value: Any?, forKey key: String) throws {
        let (entity, property) = try resolve(key)
        switch property {
        case .attribute(let index):
            let attribute = entity.attributes[index]
            if attribute.isDerived { throw ObjectAccessError.readOnly(entity: entity.name, key: key) }
            let stored = try stored(value, for: attribute, in: entity)
            try checkWritable()
            setAttributeValue(stored, at: index)
        case .relationship(let index):
            let relationship = entity.relationships[index]
            if relationship.isToMany {
                guard let objects = (value as? [ManagedObject]) ?? (value as? Set<ManagedObject>).map(Array.init) ?? (value == nil ? [] : nil) else {
                    throw ObjectAccessError.wrongType(entity: entity.name, key: key, expected: "an array of objects")
                }
                try replaceMembers(objects, at: index)
            } else {
                guard value == nil || value is ManagedObject else {
                    throw ObjectAccessError.wrongType(entity: entity.name, key: key, expected: "an object or nil")
                }
                try setDestination(value as? ManagedObject, at: index)
            }
        case .composite(let index):
            try setComposite(entity.composites[index], to: value, in: entity)
        }
    }

    /// Sets each key to its value, `NSNull` as nil: key-value coding's
    /// `setValuesForKeys(_:)`, the form importers use. Keys are set in sorted
    /// order and the first one refused throws, leaving the ones before it set,
    /// as Core Data's raises after setting them (`rollback()` undoes them).
    public func setValuesForKeys(_ keyedValues: [String: Any]) throws {
        for key in keyedValues.keys.sorted() {
            let value = keyedValues[key]
            try setValue(value is NSNull ? nil : value, forKey: key)
        }
    }

    /// The values of `keys` (`NSNull` for nil, and for an unknown key, which
    /// `value(forKey:)` gives as nil): key-value coding's
    /// `dictionaryWithValues(forKeys:)`.
    public func dictionaryWithValues(forKeys keys: [String]) -> [String: Any] {
        var result: [String: Any] = [:]
        for key in keys { result[key] = value(forKey: key) ?? NSNull() }
        return result
    }

    /// A composite as Core Data returns it: a dictionary of its elements, a
    /// nested composite as a nested dictionary.
    private func compositeDictionary(_ composite: CheckedComposite, in entity: CheckedEntity) -> [String: Any] {
        var dictionary: [String: Any] = [:]
        let prefix = composite.name + "."
        for leaf in composite.leafAttributeIndexes {
            let attribute = entity.attributes[leaf]
            let path = attribute.name.dropFirst(prefix.count).split(separator: ".").map(String.init)
            guard let value = anyValue(of: attribute, stored: attributeValue(at: leaf)) else { continue }
            Self.insert(value, at: path[...], into: &dictionary)
        }
        return dictionary
    }

    /// `value` at `path` in nested dictionaries (a composite's element).
    static func insert(_ value: Any, at path: ArraySlice<String>, into dictionary: inout [String: Any]) {
        guard let first = path.first else { return }
        if path.count == 1 {
            dictionary[first] = value
            return
        }
        var nested = dictionary[first] as? [String: Any] ?? [:]
        insert(value, at: path.dropFirst(), into: &nested)
        dictionary[first] = nested
    }

    /// Sets every leaf of `composite` from a dictionary of its elements —
    /// nested dictionaries for nested composites, or dotted keys
    /// (`"street.name"`); an element left out becomes nil. An element key that
    /// names no element, or a value of the wrong type, throws before any leaf
    /// changes.
    private func setComposite(_ composite: CheckedComposite, to value: Any?, in entity: CheckedEntity) throws {
        if let value, !(value is NSNull), !(value is [String: Any]) {
            throw ObjectAccessError.wrongType(entity: entity.name, key: composite.name, expected: "a dictionary of its elements")
        }
        let prefix = composite.name + "."
        var leafByPath: [String: Int] = [:]
        for leaf in composite.leafAttributeIndexes {
            leafByPath[String(entity.attributes[leaf].name.dropFirst(prefix.count))] = leaf
        }
        var elements: [String: Any] = [:]
        try Self.flatten(value as? [String: Any] ?? [:], prefix: "", leaves: leafByPath, into: &elements) { path in
            ObjectAccessError.unknownKey(entity: entity.name, key: prefix + path)
        }
        var converted: [(index: Int, value: AttributeValue)] = []
        for leaf in composite.leafAttributeIndexes {
            let path = String(entity.attributes[leaf].name.dropFirst(prefix.count))
            converted.append((leaf, try stored(elements[path], for: entity.attributes[leaf], in: entity)))
        }
        for (leaf, value) in converted { setAttributeValue(value, at: leaf) }
    }

    /// Element paths relative to the composite, each a leaf; a nested
    /// dictionary at a path that is not a leaf descends.
    private static func flatten(
        _ dictionary: [String: Any], prefix: String, leaves: [String: Int], into elements: inout [String: Any],
        unknown: (String) -> ObjectAccessError
    ) throws {
        for (key, value) in dictionary {
            let path = prefix + key
            if leaves[path] != nil {
                elements[path] = value
            } else if let nested = value as? [String: Any], leaves.keys.contains(where: { $0.hasPrefix(path + ".") }) {
                try flatten(nested, prefix: path + ".", leaves: leaves, into: &elements, unknown: unknown)
            } else {
                throw unknown(path)
            }
        }
    }

    /// A value without firing change tracking, as Core Data's primitive
    /// accessors: reads the stored value.
    public func primitiveValue(forKey key: String) -> Any? {
        guard let entity, case .attribute(let index)? = entity.propertyByName[key] else { return value(forKey: key) }
        return anyValue(of: entity.attributes[index], stored: attributeValue(at: index))
    }

    /// Sets an attribute without change tracking: the object does not become
    /// updated and the value does not appear in `changedValues()` — the way to
    /// set defaults in `awakeFromInsert`.
    public func setPrimitiveValue(_ value: Any?, forKey key: String) throws {
        let (entity, property) = try resolve(key)
        guard case .attribute(let index) = property else { return try setValue(value, forKey: key) }
        fireFault()
        values[index] = try stored(value, for: entity.attributes[index], in: entity)
    }

    /// Persistent attributes and relationships changed since the object was
    /// last read or saved, with their new values. Transient properties are
    /// left out, as Core Data leaves them out (`hasChanges` still counts them).
    public func changedValues() -> [String: Any] {
        guard let entity else { return [:] }
        var result: [String: Any] = [:]
        for index in changedAttributes.setIndices {
            let attribute = entity.attributes[index]
            if attribute.isTransient { continue }
            result[attribute.name] = anyValue(of: attribute, stored: values[index]) ?? NSNull()
        }
        for index in changedRelationships.setIndices {
            let relationship = entity.relationships[index]
            if relationship.isTransient { continue }
            result[relationship.name] = relationship.isToMany ? members(at: index) : (destination(at: index) ?? NSNull())
        }
        return result
    }

    /// The last read or saved values of the stored properties named in `keys`
    /// (every stored property when nil), as Core Data reports them: nil as
    /// `NSNull`, a to-one as its destination (a fault unless registered), a
    /// to-many as its members then. Transient properties are left out; an
    /// object never saved has none. A fault fires first; an object no longer
    /// in a context reports attributes only.
    public func committedValues(forKeys keys: [String]?) -> [String: Any] {
        fireFault()
        guard let entity, let committed else { return [:] }
        var result: [String: Any] = [:]
        for attribute in entity.attributes where !attribute.isTransient && keys?.contains(attribute.name) ?? true {
            result[attribute.name] = anyValue(of: attribute, stored: committed.values[attribute.index]) ?? NSNull()
        }
        guard let context = managedObjectContext else { return result }
        for relationship in entity.relationships where !relationship.isTransient && keys?.contains(relationship.name) ?? true {
            if relationship.isToMany {
                result[relationship.name] = context.committedMembers(of: self, at: relationship.index)
            } else {
                result[relationship.name] = committedDestination(at: relationship.index).map(context.object(owned:)) ?? NSNull()
            }
        }
        return result
    }

    /// Get-only dynamic access: `article["title"]`.
    public subscript(key: String) -> Any? { value(forKey: key) }

    // MARK: Internals shared with typed access

    func resolve(_ key: String) throws -> (CheckedEntity, PropertyReference) {
        guard let context = managedObjectContext else { throw ObjectAccessError.otherContext(description) }
        let entity = context.coordinator.model.entities[entityIndex]
        guard let property = entity.propertyByName[key] else {
            throw ObjectAccessError.unknownKey(entity: entity.name, key: key)
        }
        return (entity, property)
    }

    @inline(__always)
    @usableFromInline
    func fireFault() {
        if isFaultStorage { managedObjectContext?.fulfill(self) }
    }

    /// Inlined into typed accessors, which then read the slot in place and
    /// copy only the payload they return: out of line, each read copied the
    /// whole value out (a switch and a retain) for the caller to destroy:
    /// `fetch.full`'s six typed reads a row cost 993 instructions, now 390.
    @inlinable
    func attributeValue(at index: Int) -> AttributeValue {
        if isFaultStorage { fireFault() }
        return index < values.count ? values[index] : .null
    }

    @usableFromInline
    func setAttributeValue(_ value: AttributeValue, at index: Int) {
        if isFaultStorage, !fulfillForWriting() { return }
        guard index < values.count, values[index] != value else { return }
        if let contextHandle, contextHandle.recordsUndo { contextHandle.context?.captureForUndo(self) }
        values[index] = value
        // An insert is changed whatever it holds: no committed row to compare.
        changeMasks[attribute: index] = isInsertedStorage || value != committedValue(at: index)
        guard let contextHandle else { return }
        contextHandle.mutations &+= 1
        if !isTrackedAsChanged { contextHandle.context?.track(self) }
        if contextHandle.recordsChanges, !isAwaitingAnnouncement { contextHandle.context?.recordChange(of: self) }
    }

    /// Fires the fault before a write; false when its row could not be read.
    /// An unreadable row is a fault failure the next save throws; a row gone
    /// from the store is refused here, as a wrong key is, so that save throws
    /// `SaveError.refusedAccess` — the write never vanishes unreported (Core
    /// Data raises at the access). An object without a context has nowhere to
    /// save a write: the throwing setters refuse it first.
    @usableFromInline
    func fulfillForWriting() -> Bool {
        guard let context = managedObjectContext else { return !isFaultStorage }
        let failures = context.faultFailures.count
        if context.fulfill(self) { return true }
        if context.faultFailures.count == failures { context.refusedAccesses.append(.deleted(description)) }
        return false
    }

    /// What the throwing setters check before a write: a context to save it,
    /// and a row to write it over (`fulfillForWriting`, thrown instead of kept).
    func checkWritable() throws(ObjectAccessError) {
        guard let context = managedObjectContext else { throw .otherContext(description) }
        guard isFaultStorage else { return }
        let failures = context.faultFailures.count
        if context.fulfill(self) || context.faultFailures.count != failures { return }
        throw .deleted(description)
    }

    /// The value the committed snapshot holds at `index` (`.null` without one).
    private func committedValue(at index: Int) -> AttributeValue {
        guard let committed else { return .null }
        return committed.values[index]
    }

    private func anyValue(of attribute: CheckedAttribute, stored: AttributeValue) -> Any? {
        if attribute.attributeType == .transformableAttributeType, case .data(let data) = stored {
            guard let context = managedObjectContext else { return TransformableCoding(attribute).decode(data) }
            return context.transformedValues.value(of: data, in: self, attribute: attribute)
        }
        return stored.anyValue
    }

    private func stored(_ value: Any?, for attribute: CheckedAttribute, in entity: CheckedEntity) throws -> AttributeValue {
        guard let value, !(value is NSNull) else { return .null }
        if attribute.attributeType == .transformableAttributeType {
            let coding = TransformableCoding(attribute)
            guard let data = coding.encode(value) else {
                let expected = if case .registered = coding { "a value its transformer encodes" } else {
                    "a Foundation value Core Data's default transformer archives (String, number, Bool, Date, Data, URL, UUID, "
                        + "Decimal, NSNull, or arrays, dictionaries and sets of them)"
                }
                throw ObjectAccessError.wrongType(entity: entity.name, key: attribute.name, expected: expected)
            }
            return .data(data)
        }
        guard let converted = AttributeValue(any: value)?.coerced(to: attribute.attributeType) else {
            throw ObjectAccessError.wrongType(entity: entity.name, key: attribute.name, expected: "\(attribute.attributeType)")
        }
        return converted
    }
}
