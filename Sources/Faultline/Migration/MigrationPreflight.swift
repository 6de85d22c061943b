import Foundation
import FaultlineSQLite

/// What a lightweight migration would meet in a store's existing rows, found
/// by reading only: every attribute made required (or added as required)
/// without a default whose rows hold NULL, every required to-one existing
/// rows would be left without, every to-many whose members rows hold fewer or
/// more of than its new `minCount` or `maxCount`, and every new uniqueness
/// constraint that existing rows break. A migration stops at the first of
/// these; the preflight lists them all, so they can be fixed in one go.
public struct MigrationPreflight: Sendable, CustomStringConvertible {
    public struct RequiredNulls: Sendable, Equatable {
        public let entity: String
        public let attribute: String
        public let rows: Int
    }

    public struct Duplicates: Sendable, Equatable {
        public let entity: String
        public let properties: [String]
        /// Up to 20 duplicated value tuples, with how often each occurs.
        public let groups: [(values: [SQLValue], count: Int)]

        public static func == (left: Duplicates, right: Duplicates) -> Bool {
            left.entity == right.entity && left.properties == right.properties
                && left.groups.map(\.values) == right.groups.map(\.values) && left.groups.map(\.count) == right.groups.map(\.count)
        }
    }

    /// A required to-one that `rows` rows would be left without.
    public struct EmptyRelationships: Sendable, Equatable {
        public let entity: String
        public let relationship: String
        public let rows: Int
    }

    /// A to-many whose members `rows` rows hold fewer of than `minCount` or
    /// more of than `maxCount` (0: no maximum); an optional one may be empty.
    public struct CountViolations: Sendable, Equatable {
        public let entity: String
        public let relationship: String
        public let minCount: Int
        public let maxCount: Int
        public let rows: Int
    }

    public let requiredNulls: [RequiredNulls]
    public let emptyRelationships: [EmptyRelationships]
    public let countViolations: [CountViolations]
    public let duplicates: [Duplicates]

    public var isClean: Bool {
        requiredNulls.isEmpty && emptyRelationships.isEmpty && countViolations.isEmpty && duplicates.isEmpty
    }

    /// The error a migration stops with on the first problem found, nil when
    /// clean: what a migration throws before it opens the store for writing.
    public var firstRefusal: MigrationError? {
        if let problem = requiredNulls.first {
            return .missingDefault(entity: problem.entity, attribute: problem.attribute, nullRows: problem.rows)
        }
        if let problem = emptyRelationships.first {
            return .missingRelationship(entity: problem.entity, relationship: problem.relationship, emptyRows: problem.rows)
        }
        if let problem = countViolations.first {
            return .relationshipCountOutOfRange(entity: problem.entity, relationship: problem.relationship,
                                                minCount: problem.minCount, maxCount: problem.maxCount, rows: problem.rows)
        }
        if let problem = duplicates.first {
            return .constraintViolation(entity: problem.entity, properties: problem.properties, duplicates: problem.groups.map(\.values))
        }
        return nil
    }

    public var description: String {
        var lines: [String] = []
        for problem in requiredNulls {
            lines.append("\(problem.entity).\(problem.attribute) becomes required without a default: \(problem.rows) row(s) hold NULL")
        }
        for problem in emptyRelationships {
            lines.append("\(problem.entity).\(problem.relationship) is required: \(problem.rows) row(s) would have no destination")
        }
        for problem in countViolations {
            let range = RequiredRelationships.allowedCount(minCount: problem.minCount, maxCount: problem.maxCount)
            lines.append("\(problem.entity).\(problem.relationship) must hold \(range) objects: "
                + "\(problem.rows) row(s) hold a number outside that")
        }
        for problem in duplicates {
            let values = problem.groups.map { "(" + $0.values.map(\.description).joined(separator: ", ") + ") ×\($0.count)" }
            lines.append("\(problem.entity): new uniqueness constraint on \(problem.properties.joined(separator: ", ")) "
                + "is broken by \(values.joined(separator: ", "))")
        }
        return lines.isEmpty ? "no existing row stands in the way" : lines.joined(separator: "\n")
    }

    /// Reads the store on `connection`, written by `old`, for a migration to `new`.
    public static func run(on connection: Connection, from old: ModelVersion, to new: ModelVersion) throws -> MigrationPreflight {
        let mapping = try MigrationMapping(from: old, to: new)
        var nulls: [RequiredNulls] = []
        var duplicates: [Duplicates] = []
        for entity in new.model.entities {
            guard let oldIndex = mapping.sourceEntity[entity.index] else { continue }
            let oldEntity = old.model.entities[oldIndex]
            let oldMapping = mapping.oldSchema.entities[oldIndex]
            for attribute in entity.attributes where !entity.isAbstract {
                guard !attribute.isOptional, !attribute.isTransient, !attribute.isDerived, attribute.defaultValue == nil,
                      attribute.compositeIndex == nil else { continue }
                // Already required too: rows can still hold NULL (the migration checks them all the same).
                let previous = mapping.oldAttribute(attribute, of: entity)
                let column = previous.flatMap { oldMapping.column(forAttributeAt: $0.index) }
                let count = try MigrationStatements.nullCount(
                    in: oldMapping.table, entityNumber: oldEntity.number, column: column, on: connection)
                if count > 0 { nulls.append(RequiredNulls(entity: entity.name, attribute: attribute.name, rows: count)) }
            }
            for constraint in entity.uniquenessConstraints {
                // Attribute constraints only; one the old entity already had holds already.
                let attributes = constraint.compactMap { reference -> CheckedAttribute? in
                    if case .attribute(let index) = reference { return entity.attributes[index] }
                    return nil
                }
                guard attributes.count == constraint.count else { continue }
                let names = attributes.map(\.name)
                // Inherited: the parent's hierarchy, which holds these rows, reports it.
                if let parent = entity.superentityIndex.map({ new.model.entities[$0] }), parent.uniquenessConstraints.contains(where: {
                    $0.compactMap { reference -> String? in
                        if case .attribute(let index) = reference { return parent.attributes[index].name }
                        return nil
                    } == names
                }) { continue }
                let oldNames = oldEntity.uniquenessConstraints.map { $0.compactMap { reference -> String? in
                    if case .attribute(let index) = reference { return oldEntity.attributes[index].name }
                    return nil
                } }
                let previous = attributes.compactMap { mapping.oldAttribute($0, of: entity) }
                if oldNames.contains(previous.map(\.name)) { continue }
                let columns = previous.compactMap { oldMapping.column(forAttributeAt: $0.index) }
                guard columns.count == constraint.count else { continue }
                // As the unique index sees them: the entity and its sub-entities, NULLs never equal.
                let hierarchy = entity.hierarchyIndexes.compactMap { mapping.sourceEntity[$0] }.map { old.model.entities[$0].number }
                let groups = try MigrationStatements.duplicateGroups(
                    in: oldMapping.table, columns: columns, entityNumbers: hierarchy, on: connection)
                if !groups.isEmpty { duplicates.append(Duplicates(entity: entity.name, properties: names, groups: groups)) }
            }
        }
        return MigrationPreflight(
            requiredNulls: nulls, emptyRelationships: try RequiredRelationships.preflight(mapping, on: connection),
            countViolations: try RequiredRelationships.countPreflight(mapping, on: connection), duplicates: duplicates)
    }
}
