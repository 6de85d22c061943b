import Foundation
import FaultlineSQLite

/// Functions and arithmetic compiled to SQL with the semantics
/// `PredicateFunction` states, which the evaluator has in memory: `/` a
/// floating division, `mod`/`pow` and the other math functions SQLite's
/// (NULL outside their domain, as the evaluator's nil), XOR spelt with `&`,
/// `|` and `~` (SQLite has none), a date ± seconds a date.
extension PredicateSQLBuilder {
    /// One SQL value: a compiled operand as an expression, a constant bound
    /// (nil written out, kind unknown); nil for an object, a collection, a
    /// list or a constant SQL cannot bind (an array, an object ID).
    func scalar(_ term: PredicateSQLTerm) -> (sql: SQLFragment, kind: PredicateSQLKind?, name: String)? {
        switch term {
        case .constant(.null):
            return (SQLFragment("NULL"), nil, "nil")
        case .constant(let value):
            guard let kind = PredicateSQLKind(value), let bound = kind.sqlValue(for: value, column: false) else { return nil }
            return (.parameter(bound), kind, value.kindName)
        case .expression(let sql, let kind, let name, _, _):
            return (sql, kind, name)
        case .object, .collection, .list:
            return nil
        }
    }

    /// `TERNARY`: `CASE WHEN … THEN … ELSE … END`; a predicate that is NULL
    /// takes the ELSE branch, as the evaluator's false does.
    func conditional(_ condition: SQLFragment, _ then: PredicateSQLTerm, _ otherwise: PredicateSQLTerm) throws -> PredicateSQLTerm {
        let branches = try [then, otherwise].map { term in
            guard let value = scalar(term) else {
                throw FetchPredicateError.functionNeedsValue(function: "TERNARY", argument: term.kindName)
            }
            return value
        }
        if let first = branches[0].kind, let second = branches[1].kind, !first.compares(with: second) {
            throw FetchPredicateError.typeMismatch(operator: "TERNARY", left: branches[0].name, right: branches[1].name)
        }
        let kind = branches[0].kind ?? branches[1].kind ?? .other
        return .expression("(CASE WHEN " + condition + " THEN " + branches[0].sql + " ELSE " + branches[1].sql + " END)",
                           kind: kind, kindName: branches[0].kind != nil ? branches[0].name : branches[1].name,
                           canonical: nil, isColumn: false)
    }

    /// `orderedToMany[FIRST]`, `[LAST]`, `[n]`: the key of the element at that
    /// position of an ordered to-many, by its ordering column, as a correlated
    /// `ORDER BY … LIMIT 1 OFFSET ?`. An unordered to-many has no positions.
    func element(of collection: FetchExpression, at index: FetchExpression) throws -> PredicateSQLTerm {
        let refusal = FetchError.unsupportedPredicate(
            "an element by position of \(collection), which is not an ordered to-many relationship")
        guard case .collection(let target) = try resolve(collection), target.rest.isEmpty, target.subquery == nil,
              case .constant(let position) = try resolve(index), case .int(let offset)? = PredicateFunctionEvaluation.number(position)
        else { throw refusal }
        let ascending = offset >= 0
        let skip = SQLFragment.parameter(.integer(ascending ? offset : -offset - 1))
        let source = "\(target.sourceAlias).Z_PK"
        switch schema.entities[target.sourceEntityIndex].relationships[target.relationship.index] {
        case let .destinationKey(table, column, order?, _):
            let direction = ascending ? "ASC" : "DESC"
            let filter = schema.entities[target.relationship.destinationEntityIndex].entityFilter(alias: "e").map { " AND \($0)" } ?? ""
            return .object("(SELECT e.Z_PK FROM \(table) e WHERE e.\(column) = \(source)\(filter) ORDER BY e.\(order) \(direction) LIMIT 1 OFFSET "
                           + skip + ")", entityIndex: target.relationship.destinationEntityIndex)
        case let .joinTable(table, sourceColumn, destinationColumn, order?):
            let direction = ascending ? "ASC" : "DESC"
            return .object("(SELECT j.\(destinationColumn) FROM \(table) j WHERE j.\(sourceColumn) = \(source) ORDER BY j.\(order) \(direction) LIMIT 1 OFFSET "
                           + skip + ")", entityIndex: target.relationship.destinationEntityIndex)
        default:
            throw refusal
        }
    }

    func function(_ function: PredicateFunction, _ arguments: [FetchExpression]) throws -> PredicateSQLTerm {
        if function == .element, arguments.count == 2 {
            // A literal array's element was folded before this: here it is a to-many's.
            return try element(of: arguments[0], at: arguments[1])
        }
        guard arguments.count == function.arity else {
            throw FetchPredicateError.functionArity(function: function.rawValue, expected: function.arity, found: arguments.count)
        }
        let operands = try arguments.map { argument in
            guard let operand = scalar(try resolve(argument)) else {
                throw FetchPredicateError.functionNeedsValue(function: function.rawValue, argument: argument.description)
            }
            return operand
        }
        func require(_ expected: String, _ accepts: (PredicateSQLKind) -> Bool) throws {
            for operand in operands where !(operand.kind.map(accepts) ?? true) {
                throw FetchPredicateError.functionArgument(function: function.rawValue, expected: expected, found: operand.name)
            }
        }
        func term(_ sql: SQLFragment, _ kind: PredicateSQLKind, _ name: String) -> PredicateSQLTerm {
            .expression(sql, kind: kind, kindName: name, canonical: nil, isColumn: false)
        }
        let a = operands.first?.sql ?? SQLFragment("")
        let b = operands.count > 1 ? operands[1].sql : SQLFragment("")
        switch function {
        case .lowercase, .uppercase, .canonical:
            try require("a string") { $0 == .text }
            let name = switch function {
            case .lowercase: StoreFunctions.lowercase
            case .uppercase: StoreFunctions.uppercase
            default: StoreFunctions.canonical
            }
            return term("\(name)(" + a + ")", .text, "string")
        case .add, .subtract:
            try require("a number or a date") { $0.isNumeric || $0 == .date }
            let symbol = function == .add ? " + " : " - "
            let (left, right) = (operands[0].kind, operands[1].kind)
            if left == .date && right == .date {
                guard function == .subtract else {
                    throw FetchPredicateError.functionArgument(function: function.rawValue, expected: "a number of seconds", found: "date")
                }
                return term("(" + a + symbol + b + ")", .number, "double")
            }
            let isDate = left == .date || (function == .add && right == .date)
            return term("(" + a + symbol + b + ")", isDate ? .date : .number, isDate ? "date" : "number")
        case .multiply:
            try require("a number") { $0.isNumeric || $0 == .date }
            return term("(" + a + " * " + b + ")", .number, "number")
        case .divide:
            try require("a number") { $0.isNumeric || $0 == .date }
            return term("(CAST(" + a + " AS REAL) / " + b + ")", .number, "double")
        case .modulus, .power:
            try require("a number") { $0.isNumeric || $0 == .date }
            return term((function == .modulus ? "mod(" : "pow(") + a + ", " + b + ")", .number, "double")
        case .sqrt, .ln, .log, .exp, .ceiling, .floor, .trunc, .abs:
            try require("a number") { $0.isNumeric || $0 == .date }
            let name = switch function {
            case .sqrt: "sqrt"
            case .ln: "ln"
            case .log: "log10"
            case .exp: "exp"
            case .ceiling: "ceil"
            case .floor: "floor"
            case .trunc: "trunc"
            default: "abs"
            }
            if function == .abs {
                // SQLite's abs() of the smallest integer fails the statement
                // ("integer overflow"); the evaluator answers 2^63 as a double.
                return term("abs(CASE WHEN " + a + " = -9223372036854775808 THEN CAST(" + a + " AS REAL) ELSE " + a + " END)", .number, "number")
            }
            return term("\(name)(" + a + ")", .number, "number")
        case .bitwiseAnd, .bitwiseOr, .leftShift, .rightShift:
            try require("an integer") { $0.isNumeric || $0 == .date }
            let symbol = switch function {
            case .bitwiseAnd: " & "
            case .bitwiseOr: " | "
            case .leftShift: " << "
            default: " >> "
            }
            return term("(" + a + symbol + b + ")", .number, "integer")
        case .bitwiseXor:
            try require("an integer") { $0.isNumeric || $0 == .date }
            return term("(~(" + a + " & " + b + ") & (" + a + " | " + b + "))", .number, "integer")
        case .onesComplement:
            try require("an integer") { $0.isNumeric || $0 == .date }
            return term("(~" + a + ")", .number, "integer")
        case .now:
            return term(.parameter(.real(Date().timeIntervalSinceReferenceDate)), .date, "date")
        case .element:
            throw FetchError.unsupportedPredicate("an element of a collection by position")
        case .noindex:
            return term("+" + a, operands[0].kind ?? .other, operands[0].name)
        case .castToString:
            try require("a string or a number") { $0.isNumeric || $0 == .text }
            return operands[0].kind == .text ? term(a, .text, "string") : term("CAST(" + a + " AS TEXT)", .text, "string")
        case .castToNumber, .castToDate:
            // Dates are stored as their seconds since 2001: the cast changes the kind, not the value.
            try require("a number or a date") { $0.isNumeric || $0 == .date }
            return function == .castToDate ? term(a, .date, "date") : term(a, .number, "number")
        }
    }
}
