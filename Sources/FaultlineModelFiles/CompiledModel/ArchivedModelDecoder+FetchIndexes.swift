// Archived fetch indexes (`NSFetchIndexDescriptions`), read as Apple's iMessage
// store (IMODb2) archives them: each an `NSFetchIndexDescription` with
// `NSIndexName`, `NSPartialIndexPredicate` ($null when whole) and
// `NSIndexElements`, each element an `NSFetchIndexElementDescription` with
// `NSPropertyName`, `NSFetchIndexElementType` (0 binary, 1 R-tree) and
// `NSAscending`, plus back references to its index and entity.

import FaultlineModel

extension ArchivedModelDecoder {
    mutating func decodeFetchIndexes(_ reference: PropertyListObject?, path: String) throws(CompiledModelError) -> [FetchIndexDescription] {
        let items = try attempt(path) { () throws(KeyedArchive.Failure) in try archive.collection(reference) } ?? []
        var indexes: [FetchIndexDescription] = []
        for (position, item) in items.enumerated() {
            let indexPath = "\(path)/\(position)"
            let object = try requireObject(item, className: "NSFetchIndexDescription", path: indexPath)
            var fields = ArchivedFields(object, path: indexPath)
            guard let name = try string(&fields, "NSIndexName"), !name.isEmpty else {
                throw CompiledModelError(.notAModel, "a fetch index has no name", file: file, path: indexPath)
            }
            _ = fields.take("NSEntity")
            if try attempt(indexPath + "/NSPartialIndexPredicate", { () throws(KeyedArchive.Failure) in
                try archive.object(fields.take("NSPartialIndexPredicate"))
            }) != nil {
                warn(indexPath, "fetch index '\(name)' has a partial-index predicate, which Faultline does not model; it is indexed whole")
            }
            let elementReferences = try attempt(indexPath + "/NSIndexElements") { () throws(KeyedArchive.Failure) in
                try archive.collection(fields.take("NSIndexElements"))
            } ?? []
            var elements: [FetchIndexElementDescription] = []
            for (number, elementReference) in elementReferences.enumerated() {
                let elementPath = "\(indexPath)/NSIndexElements/\(number)"
                let element = try requireObject(elementReference, className: "NSFetchIndexElementDescription", path: elementPath)
                var elementFields = ArchivedFields(element, path: elementPath)
                guard let property = try string(&elementFields, "NSPropertyName") else {
                    throw CompiledModelError(.notAModel, "an element of fetch index '\(name)' names no property", file: file, path: elementPath)
                }
                let type = try count(&elementFields, "NSFetchIndexElementType").flatMap { FetchIndexElementType(rawValue: UInt($0)) } ?? .binary
                let ascending = try bool(&elementFields, "NSAscending") ?? true
                _ = elementFields.take("NSFetchIndexDescription")
                finish(elementFields, className: element.className)
                elements.append(FetchIndexElementDescription(propertyName: property, isAscending: ascending, collationType: type))
            }
            finish(fields, className: object.className)
            indexes.append(FetchIndexDescription(name: name, elements: elements))
        }
        return indexes
    }

    /// Compound indexes (`NSCompoundIndexes`, before fetch indexes: objc.io's
    /// Moody stores, iOS 9): an array of arrays, each member a property
    /// description of the entity (or, as Core Data also accepts, its name).
    mutating func decodeCompoundIndexes(_ reference: PropertyListObject?, path: String) throws(CompiledModelError) -> [[String]] {
        let items = try attempt(path) { () throws(KeyedArchive.Failure) in try archive.collection(reference) } ?? []
        var indexes: [[String]] = []
        for (position, item) in items.enumerated() {
            let indexPath = "\(path)/\(position)"
            let members = try attempt(indexPath) { () throws(KeyedArchive.Failure) in try archive.collection(item) } ?? []
            var names: [String] = []
            for (number, member) in members.enumerated() {
                let memberPath = "\(indexPath)/\(number)"
                let name = try attempt(memberPath) { () throws(KeyedArchive.Failure) -> String? in
                    if case .string(let name) = try archive.resolve(member) { return name }
                    guard let object = try archive.object(member) else { return nil }
                    if object.className.hasSuffix("Description") { return try archive.string(object.fields["NSPropertyName"]) }
                    return try archive.string(member)
                }
                guard let name, !name.isEmpty else {
                    throw CompiledModelError(.notAModel, "a member of a compound index names no property", file: file, path: memberPath)
                }
                names.append(name)
            }
            if names.isEmpty {
                warn(indexPath, "an empty compound index indexes nothing; it is ignored")
            } else {
                indexes.append(names)
            }
        }
        return indexes
    }

    /// Since Xcode 9 an indexed attribute is compiled into a fetch index of its
    /// own and keeps `NSIsIndexed` as well; the store then has only the fetch
    /// index (IMODb2: `Z_IMOChatMsg_ts`, no `ZIMOCHATMSG_ZTS_INDEX`). An
    /// attribute a single-element fetch index covers is not indexed twice.
    func dropIndexFlagsCovered(by indexes: [FetchIndexDescription], in entity: EntityDescription) {
        let covered = Set(indexes.compactMap { $0.elements.count == 1 ? $0.elements[0].propertyName : nil })
        for property in entity.properties where property.isIndexed && covered.contains(property.name) {
            property.isIndexed = false
        }
    }
}
