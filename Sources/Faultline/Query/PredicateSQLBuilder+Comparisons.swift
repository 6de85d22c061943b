import Foundation
import FaultlineSQLite

/// Comparisons: modifiers, equality, order, BETWEEN and IN, with the
/// evaluator's semantics (see the design note in PredicateSQLCompiler.swift).
extension PredicateSQLBuilder {
    func compile(_ comparison: PredicateComparison) throws -> SQLFragment {
        if isConstant(comparison.left), isConstant(comparison.right) {
            let decided = try FetchPredicate(.comparison(comparison)).evaluate(with: ConstantSubject())
            return decided ? .alwaysTrue : .alwaysFalse
        }
        let outer = convertsConstants
        defer { convertsConstants = outer }
        let left = try resolve(comparison.left), right = try resolve(comparison.right)
        // Set after resolving: a SUBQUERY operand compiles its own comparisons.
        convertsConstants = FetchExpression.storedSide(comparison.left, comparison.right) != nil
        let operation = comparison.operation, options = comparison.options
        if comparison.modifier == .direct { return try compare(left, operation, options, right) }

        let elements: [PredicateSQLTerm]
        switch left {
        case .collection(let collection):
            switch comparison.modifier {
            case .any:
                return try exists(collection) { try self.compare($0, operation, options, right) }
            case .none:
                return "NOT " + (try exists(collection) { try self.compare($0, operation, options, right) })
            default:
                return "NOT " + (try exists(collection) {
                    "NOT COALESCE(" + (try self.compare($0, operation, options, right)) + ", 0)"
                })
            }
        case .constant(.array(let values)): elements = values.map(PredicateSQLTerm.constant)
        case .constant(.null): elements = []
        case .list(let terms): elements = terms
        default:
            throw FetchPredicateError.modifierNeedsCollection(modifier: comparison.modifier.rawValue, found: left.kindName)
        }
        let tests = try elements.map { try compare($0, operation, options, right) }
        switch comparison.modifier {
        case .any: return tests.isEmpty ? .alwaysFalse : "(" + SQLFragment.joined(tests, separator: " OR ") + ")"
        case .none: return tests.isEmpty ? .alwaysTrue : "NOT COALESCE((" + SQLFragment.joined(tests, separator: " OR ") + "), 0)"
        default:
            return tests.isEmpty ? .alwaysTrue
                : "(" + SQLFragment.joined(tests.map { "COALESCE(" + $0 + ", 0)" }, separator: " AND ") + ")"
        }
    }

    /// One operator on two operands, neither quantified.
    func compare(
        _ left: PredicateSQLTerm, _ operation: PredicateOperator, _ options: PredicateComparisonOptions,
        _ right: PredicateSQLTerm
    ) throws -> SQLFragment {
        let symbol = operation.rawValue
        if case .collection(let collection) = left {
            guard operation == .contains else { throw FetchPredicateError.collectionNeedsModifier(operator: symbol) }
            return try exists(collection) { try self.equality($0, right, options, negated: false) }
        }
        if operation == .contains, case .constant(.array) = left { return try compare(right, .in, options, left) }
        if operation == .contains, case .list = left { return try compare(right, .in, options, left) }
        if case .collection(let collection) = right {
            guard operation == .in else { throw FetchPredicateError.collectionNeedsModifier(operator: symbol) }
            return try exists(collection) { try self.equality($0, left, options, negated: false) }
        }
        switch operation {
        case .equal: return try equality(left, right, options, negated: false)
        case .notEqual: return try equality(left, right, options, negated: true)
        case .less, .lessOrEqual, .greater, .greaterOrEqual: return try order(left, operation, options, right)
        case .between: return try between(left, options, right)
        case .in:
            switch right {
            case .constant(.string), .expression(_, .text, _, _, _):
                return try string(.contains, right, options, left)
            case .constant(.array(let values)): return try membership(left, values, options)
            case .list(let terms):
                guard !terms.isEmpty else { return .alwaysFalse }
                let tests = try terms.map { try equality(left, $0, options, negated: false) }
                return "(" + SQLFragment.joined(tests, separator: " OR ") + ")"
            case .constant(.null): return .alwaysFalse
            default: throw FetchPredicateError.typeMismatch(operator: symbol, left: left.kindName, right: right.kindName)
            }
        case .contains, .beginsWith, .endsWith, .like, .matches:
            return try string(operation, left, options, right)
        }
    }

    /// `==` (or `!=` when `negated`): nil only equals nil; kinds that do not
    /// compare are unequal; objects compare by key.
    func equality(
        _ left: PredicateSQLTerm, _ right: PredicateSQLTerm, _ options: PredicateComparisonOptions, negated: Bool
    ) throws -> SQLFragment {
        let unequal: SQLFragment = negated ? .alwaysTrue : .alwaysFalse
        switch (left, right) {
        case (.collection, _), (_, .collection), (.list, _), (_, .list):
            throw FetchPredicateError.collectionNeedsModifier(operator: negated ? "!=" : "==")
        case (.constant, .constant):
            let same = PredicateValue.equal(left.constantValue ?? .null, right.constantValue ?? .null, options)
            return same != negated ? .alwaysTrue : .alwaysFalse
        case (.constant(.null), let other), (let other, .constant(.null)):
            guard case .expression(let sql, _, _, _, _) = other else {
                guard case .object(let key, _) = other else { return unequal }
                return key + (negated ? " IS NOT NULL" : " IS NULL")
            }
            return sql + (negated ? " IS NOT NULL" : " IS NULL")
        case (.object(let key, let entityIndex), .constant(let value)), (.constant(let value), .object(let key, let entityIndex)):
            guard case .objectID(let id) = value, let primaryKey = primaryKey(of: id, within: entityIndex) else { return unequal }
            return key + (negated ? " IS NOT ?" : " = ?") + SQLFragment("", [.integer(primaryKey)])
        case (.object(let first, _), .object(let second, _)):
            // IS, not =: two nil to-ones are equal, as in memory.
            return first + (negated ? " IS NOT " : " IS ") + second
        case (.object(let key, _), .expression(let sql, _, _, _, _)), (.expression(let sql, _, _, _, _), .object(let key, _)):
            return bothNull(key, sql, negated: negated)
        case (.object, _), (_, .object):
            return unequal
        case (.constant, .expression):
            return try equality(right, left, options, negated: negated)
        case (.expression(let sql, let kind, _, let canonical, let isColumn), .constant(let constant)):
            let value = converted(constant, toward: kind)
            guard let valueKind = PredicateSQLKind(value), kind.compares(with: valueKind) else { return unequal }
            if kind == .text, case .string(let text) = value, !options.isEmpty {
                let (folded, argument) = fold(sql, canonical: canonical, options, text)
                return folded + (negated ? " IS NOT ?" : " = ?") + SQLFragment("", [.text(argument)])
            }
            if kind == .markedData, case .data(let data) = value { try refuseFiled(data, comparedWith: sql) }
            guard let bound = kind.sqlValue(for: value, column: isColumn) else { return unequal }
            return sql + (negated ? " IS NOT ?" : " = ?") + SQLFragment("", [bound])
        case (.expression(let first, let firstKind, _, _, _), .expression(let second, let secondKind, _, _, _)):
            guard firstKind.compares(with: secondKind) else { return bothNull(first, second, negated: negated) }
            if firstKind == .markedData || secondKind == .markedData {
                // Two files holding the same bytes have different names, and
                // a marked column never equals an unmarked one as stored.
                throw FetchError.unsupportedPredicate(
                    "comparing the external-storage column \(firstKind == .markedData ? first.sql : second.sql) with another "
                        + "expression: SQL sees Core Data's stored form (a marker, the bytes or a file's name), not the value")
            }
            let a = firstKind == .text ? fold(first, options) : first
            let b = secondKind == .text ? fold(second, options) : second
            // IS, not =: nil equals nil on both sides, as in memory.
            return a + (negated ? " IS NOT " : " IS ") + b
        }
    }

    /// Refuses comparing a marked column with a value Core Data would keep
    /// in a file (over `MarkedDataAttributes.externalThreshold`): SQL sees
    /// only the file's name, so the answer would be wrong. Smaller values
    /// are inline as the marker and the bytes, which `sqlValue` binds.
    func refuseFiled(_ data: Data, comparedWith sql: SQLFragment) throws {
        guard data.count > MarkedDataAttributes.externalThreshold, !marked.writesInline else { return }
        throw FetchError.unsupportedPredicate(
            "comparing the external-storage column \(sql.sql) with a value of \(data.count) bytes: values over "
                + "\(MarkedDataAttributes.externalThreshold) bytes are kept in files, whose contents SQL cannot read")
    }

    /// Two sides whose kinds never compare are unequal — unless both are
    /// nil, which equal each other in memory whatever their kinds.
    private func bothNull(_ first: SQLFragment, _ second: SQLFragment, negated: Bool) -> SQLFragment {
        (negated ? "NOT (" : "(") + first + " IS NULL AND " + second + " IS NULL)"
    }

    /// `<`, `<=`, `>`, `>=`: nil on either side is false; kinds must be ordered alike.
    func order(
        _ left: PredicateSQLTerm, _ operation: PredicateOperator, _ options: PredicateComparisonOptions,
        _ right: PredicateSQLTerm
    ) throws -> SQLFragment {
        let symbol = operation.rawValue
        switch (left, right) {
        case (.constant(.null), _), (_, .constant(.null)):
            return .alwaysFalse
        case (.constant, .expression):
            let flipped: PredicateOperator = switch operation {
            case .less: .greater
            case .lessOrEqual: .greaterOrEqual
            case .greater: .less
            default: .lessOrEqual
            }
            return try order(right, flipped, options, left)
        case (.expression(let sql, let kind, let name, _, let isColumn), .constant(let constant)):
            let value = converted(constant, toward: kind)
            guard kind.isOrdered, let valueKind = PredicateSQLKind(value), kind.compares(with: valueKind),
                let bound = kind.sqlValue(for: value, column: isColumn)
            else { throw FetchPredicateError.typeMismatch(operator: symbol, left: name, right: value.kindName) }
            if case .text(let text) = bound, !options.isEmpty {
                let (folded, argument) = fold(sql, canonical: nil, options, text)
                return folded + " \(symbol) ?" + SQLFragment("", [.text(argument)])
            }
            return sql + " \(symbol) ?" + SQLFragment("", [bound])
        case (.expression(let first, let firstKind, let firstName, _, _), .expression(let second, let secondKind, let secondName, _, _)):
            guard firstKind.isOrdered, firstKind.compares(with: secondKind) else {
                throw FetchPredicateError.typeMismatch(operator: symbol, left: firstName, right: secondName)
            }
            let a = firstKind == .text ? fold(first, options) : first
            let b = secondKind == .text ? fold(second, options) : second
            return a + " \(symbol) " + b
        default:
            throw FetchPredicateError.typeMismatch(operator: symbol, left: left.kindName, right: right.kindName)
        }
    }

    /// `BETWEEN {lower, upper}`, inclusive.
    func between(_ left: PredicateSQLTerm, _ options: PredicateComparisonOptions, _ right: PredicateSQLTerm) throws -> SQLFragment {
        let bounds: [PredicateSQLTerm]
        switch right {
        case .constant(.array(let values)): bounds = values.map(PredicateSQLTerm.constant)
        case .list(let terms): bounds = terms
        default: throw FetchPredicateError.typeMismatch(operator: "BETWEEN", left: left.kindName, right: right.kindName)
        }
        guard bounds.count == 2 else {
            throw FetchPredicateError.typeMismatch(operator: "BETWEEN", left: left.kindName, right: right.kindName)
        }
        if case .constant(.null) = left { return .alwaysFalse }
        let lower = try order(left, .greaterOrEqual, options, bounds[0])
        let upper = try order(left, .lessOrEqual, options, bounds[1])
        return "(" + lower + " AND " + upper + ")"
    }

    /// `left IN {constants}`: `IN (?, …)`, or one JSON array for long lists of
    /// integers or strings; `OR … IS NULL` when the list holds nil.
    func membership(_ left: PredicateSQLTerm, _ values: [PredicateValue], _ options: PredicateComparisonOptions) throws -> SQLFragment {
        let operand: SQLFragment, kind: PredicateSQLKind?, isColumn: Bool, canonical: String?
        switch left {
        case .expression(let sql, let leftKind, _, let leftCanonical, let column):
            (operand, kind, isColumn, canonical) = (sql, leftKind, column, leftCanonical)
        case .object(let key, _):
            (operand, kind, isColumn, canonical) = (key, nil, true, nil)
        case .collection:
            throw FetchPredicateError.collectionNeedsModifier(operator: "IN")
        case .constant, .list:
            let tests = try values.map { try equality(left, .constant($0), options, negated: false) }
            return tests.isEmpty ? .alwaysFalse : "(" + SQLFragment.joined(tests, separator: " OR ") + ")"
        }
        var bound: [SQLValue] = [], includesNull = false
        let folds = kind == .text && !options.isEmpty
        for constant in values {
            let value = kind.map { converted(constant, toward: $0) } ?? constant
            if kind == .markedData, case .data(let data) = value { try refuseFiled(data, comparedWith: operand) }
            if value == .null {
                includesNull = true
            } else if let kind {
                if folds, case .string(let text) = value {
                    bound.append(.text(PredicateText.fold(text, options)))
                } else if let sqlValue = kind.sqlValue(for: value, column: isColumn) {
                    bound.append(sqlValue)
                }
            } else if case .objectID(let id) = value, case .object(_, let entityIndex) = left,
                let key = primaryKey(of: id, within: entityIndex) {
                bound.append(.integer(key))
            }
        }
        let tested = folds ? fold(operand, canonical: canonical, options, "").folded : operand
        var tests: [SQLFragment] = []
        if !bound.isEmpty { tests.append(tested + " IN " + Self.list(bound)) }
        if includesNull { tests.append(operand + " IS NULL") }
        guard !tests.isEmpty else { return .alwaysFalse }
        return tests.count == 1 ? tests[0] : "(" + SQLFragment.joined(tests, separator: " OR ") + ")"
    }

    /// `value` as SQLite compares it with an operand of `kind`, when the
    /// comparison is a key path against a constant (`convertsConstants`):
    /// Core Data binds the constant as it is and the column's affinity
    /// converts it (`numberPlate IN {9, 10}` compares '9' and '10').
    func converted(_ value: PredicateValue, toward kind: PredicateSQLKind) -> PredicateValue {
        guard convertsConstants, let affinity = kind.affinity else { return value }
        return affinity.coerce(value)
    }

    /// The largest list bound as one placeholder per element.
    static let placeholderListLimit = 16

    static func list(_ values: [SQLValue]) -> SQLFragment {
        if values.count > placeholderListLimit {
            if values.allSatisfy({ if case .integer = $0 { true } else { false } }) {
                let json = values.map { if case .integer(let value) = $0 { String(value) } else { "" } }.joined(separator: ",")
                return SQLFragment("(SELECT value FROM json_each(?))", [.text("[" + json + "]")])
            }
            let texts = values.compactMap { if case .text(let text) = $0 { text } else { nil } }
            if texts.count == values.count, let data = try? JSONSerialization.data(withJSONObject: texts),
                let json = String(data: data, encoding: .utf8) {
                return SQLFragment("(SELECT value FROM json_each(?))", [.text(json)])
            }
        }
        return SQLFragment("(" + Array(repeating: "?", count: values.count).joined(separator: ", ") + ")", values)
    }

    /// The primary key of `id` when its entity is `entityIndex` or one of its sub-entities.
    func primaryKey(of id: PredicateObjectID, within entityIndex: Int) -> Int64? {
        guard let index = model.entityIndexByName[id.entityName],
            model.entities[entityIndex].hierarchyIndexes.contains(index)
        else { return nil }
        return id.primaryKey
    }
}
