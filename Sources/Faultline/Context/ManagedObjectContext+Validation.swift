/// Validation at save: required values, the model's rules, relationship
/// counts, deny rules and the objects' own validation methods — every failure
/// of every object, collected into one list.
extension ManagedObjectContext {
    func validate() -> [ValidationIssue] {
        var issues: [ValidationIssue] = []
        // A change pointing at a deleted object is looked for only when the
        // save deletes something.
        let deletes = changedInOrder.contains { $0.isDeletedStorage }
        for object in changedInOrder {
            if deletes, !object.isDeletedStorage { danglingReferences(of: object, into: &issues) }
            let validatesKeys = type(of: object).validatesKeys
            // Nothing model-declared to check: only the object's own hook runs
            // (the common case, kept free of per-property work).
            if !object.isDeletedStorage, !object.runtime.hasRules, !validatesKeys {
                do {
                    if object.isInsertedStorage { try object.validateForInsert() } else { try object.validateForUpdate() }
                } catch {
                    record(error, for: object, into: &issues)
                }
                continue
            }
            let entity = object.runtime.entity
            func issue(_ key: String?, _ code: ValidationCode, _ message: String) {
                issues.append(ValidationIssue(
            objectID: object.objectID, entity: object.runtime.entity.name, key: key, code: code, message: message))
            }
            func run(_ check: () throws -> Void) {
                do { try check() } catch { record(error, for: object, into: &issues) }
            }
            if object.isDeletedStorage {
                guard !object.isInsertedStorage else { continue }
                run { try object.validateForDelete() }
                for relationship in entity.relationships where relationship.deleteRule == .denyDeleteRule {
                    let count = relationship.isToMany ? object.members(at: relationship.index).count
                        : (object.destination(at: relationship.index) == nil ? 0 : 1)
                    if count > 0 {
                        issue(relationship.name, .relationshipDeniedDelete,
                              "\(relationship.name) is not empty and its delete rule is deny")
                    }
                }
                continue
            }
            let checksProperties = object.runtime.hasRules || validatesKeys
            for attribute in entity.attributes where checksProperties && !attribute.isDerived && !attribute.isTransient {
                let value = object.values[attribute.index]
                if !attribute.isOptional, value == .null {
                    issue(attribute.name, .missingMandatoryProperty, "\(attribute.name) is required")
                    continue
                }
                for failure in attribute.validationRules.failures(for: value) {
                    issue(attribute.name, ValidationCode(failure.code), "\(attribute.name): \(failure)")
                }
                if validatesKeys, object.changeMasks[attribute: attribute.index] || object.isInsertedStorage {
                    run { try object.validateValue(object.value(forKey: attribute.name), forKey: attribute.name) }
                }
            }
            for relationship in entity.relationships where object.runtime.hasRules && !relationship.isTransient {
                if relationship.isToMany {
                    let needsCount = relationship.minCount > 0 || relationship.maxCount > 0
                    guard needsCount, object.isInsertedStorage || object.changeMasks[relationship: relationship.index] else { continue }
                    let count = object.members(at: relationship.index).count
                    // Core Data enforces the counts of an optional to-many
                    // only when it holds something: empty is allowed.
                    if count == 0, relationship.isOptional { continue }
                    if count < relationship.minCount {
                        issue(relationship.name, .relationshipLacksMinimumCount,
                              "\(relationship.name) has \(count) objects, at least \(relationship.minCount) required")
                    } else if relationship.maxCount > 0, count > relationship.maxCount {
                        issue(relationship.name, .relationshipExceedsMaximumCount,
                              "\(relationship.name) has \(count) objects, at most \(relationship.maxCount) allowed")
                    }
                } else if !relationship.isOptional, object.destination(at: relationship.index) == nil {
                    issue(relationship.name, .missingMandatoryProperty, "\(relationship.name) is required")
                }
            }
            // Not through `run`: a capturing closure per object allocates.
            do {
                if object.isInsertedStorage { try object.validateForInsert() } else { try object.validateForUpdate() }
            } catch {
                record(error, for: object, into: &issues)
            }
        }
        return issues
    }

    /// A relationship `object`'s changes point at a deleted object through:
    /// its delete rules ran before the link was made, so the save would write
    /// a key to a row it deletes. Core Data refuses it as a "dangling
    /// reference to an invalid object" (a validation error, 1550).
    private func danglingReferences(of object: ManagedObject, into issues: inout [ValidationIssue]) {
        for relationship in object.runtime.entity.relationships where !relationship.isTransient
            && (object.isInsertedStorage || object.changeMasks[relationship: relationship.index]) {
            let index = relationship.index
            var deleted: ManagedObject?
            if relationship.isToMany {
                if let state = index < object.toMany.count ? object.toMany[index] : nil {
                    deleted = (state.members ?? []).first(where: \.isDeletedStorage) ?? state.pendingAdds.first(where: \.isDeletedStorage)
                }
            } else if index < object.toOne.count {
                switch object.toOne[index] {
                case .object(let destination): deleted = destination
                case .id(let id): deleted = id.flatMap { registered[$0] }
                case .committed: deleted = nil
                }
                if deleted?.isDeletedStorage != true { deleted = nil }
            }
            guard let deleted else { continue }
            issues.append(ValidationIssue(
                objectID: object.objectID, entity: object.runtime.entity.name, key: relationship.name, code: .custom,
                message: "\(relationship.name) refers to \(deleted.objectID), deleted in this context: a dangling reference"))
        }
    }

    /// Turns an error thrown by an object's own validation into an issue.
    private func record(_ error: Error, for object: ManagedObject, into issues: inout [ValidationIssue]) {
        let (key, code, message): (String?, ValidationCode, String)
        switch error {
        case let failure as CustomValidationFailure: (key, code, message) = (failure.key, failure.code, failure.message)
        case let failure as ValidationIssue: (key, code, message) = (failure.key, failure.code, failure.message)
        default: (key, code, message) = (nil, .custom, String(describing: error))
        }
        issues.append(ValidationIssue(
            objectID: object.objectID, entity: object.runtime.entity.name, key: key, code: code, message: message))
    }
}
