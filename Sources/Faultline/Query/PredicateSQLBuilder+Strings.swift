import Foundation
import FaultlineSQLite

/// String operators and the [c], [d], [cd] options.
///
/// A constant side is folded once in Swift (`PredicateText.fold`, the
/// evaluator's own folding); a column side goes through the store function of
/// the same folding, or, for [cd] on an attribute with a `canonical:` derived
/// column, is replaced by that column so its index serves `==` and BEGINSWITH.
extension PredicateSQLBuilder {
    /// `sql` under `options`' folding function (itself when there are no options).
    func fold(_ sql: SQLFragment, _ options: PredicateComparisonOptions) -> SQLFragment {
        switch (options.contains(.caseInsensitive), options.contains(.diacriticInsensitive)) {
        case (true, true): "\(StoreFunctions.canonical)(" + sql + ")"
        case (true, false): "\(StoreFunctions.foldCase)(" + sql + ")"
        case (false, true): "\(StoreFunctions.foldDiacritics)(" + sql + ")"
        case (false, false): sql
        }
    }

    /// A column compared with the constant `text` under `options`: the folded
    /// column expression (the canonical column for [cd] when there is one) and
    /// the folded constant.
    func fold(
        _ sql: SQLFragment, canonical: String?, _ options: PredicateComparisonOptions, _ text: String
    ) -> (folded: SQLFragment, argument: String) {
        let argument = PredicateText.fold(text, options)
        if options == [.caseInsensitive, .diacriticInsensitive], let canonical { return (SQLFragment(canonical), argument) }
        return (fold(sql, options), argument)
    }

    func string(
        _ operation: PredicateOperator, _ left: PredicateSQLTerm, _ options: PredicateComparisonOptions,
        _ right: PredicateSQLTerm
    ) throws -> SQLFragment {
        let symbol = operation.rawValue
        switch (left, right) {
        case (.constant(.null), _), (_, .constant(.null)): return .alwaysFalse
        case (.constant(.string), .expression(_, .text, _, _, _)), (.expression(_, .text, _, _, _), .constant(.string)),
            (.expression(_, .text, _, _, _), .expression(_, .text, _, _, _)):
            break
        default:
            throw FetchPredicateError.typeMismatch(operator: symbol, left: left.kindName, right: right.kindName)
        }
        if operation == .matches { return try matches(left, options, right) }
        switch (left, right) {
        case (.expression(let sql, _, _, let canonical, _), .constant(.string(let text))):
            let (column, argument) = fold(sql, canonical: canonical, options, text)
            switch operation {
            case .contains:
                return "instr(" + column + ", ?) > 0" + SQLFragment("", [.text(argument)])
            case .beginsWith:
                return Self.prefixRange(column, argument)
            case .endsWith where argument.unicodeScalars.contains("\0"):
                return Self.regularExpression(column, "*" + argument, wildcards: false)
            case .endsWith:
                return Self.glob(column, "*" + Self.globEscaped(argument), else: Self.regularExpression(column, "*" + argument, wildcards: false))
            case _ where argument.unicodeScalars.contains("\0"):
                return Self.regularExpression(column, argument, wildcards: true)
            default:
                return Self.glob(column, PredicateText.glob(like: argument), else: Self.regularExpression(column, argument, wildcards: true))
            }
        case (.constant(.string(let text)), .expression(let sql, _, _, _, _)):
            let argument = SQLFragment.parameter(.text(PredicateText.fold(text, options)))
            return try Self.general(operation, argument, fold(sql, options))
        case (.expression(let first, _, _, _, _), .expression(let second, _, _, _, _)):
            return try Self.general(operation, fold(first, options), fold(second, options))
        default:
            return .alwaysFalse
        }
    }

    /// MATCHES through `FAULTLINE_MATCHES(text, pattern, options)`, which folds
    /// and anchors exactly as the evaluator does; a constant pattern is checked now.
    private func matches(_ left: PredicateSQLTerm, _ options: PredicateComparisonOptions, _ right: PredicateSQLTerm) throws -> SQLFragment {
        func operand(_ term: PredicateSQLTerm) -> SQLFragment {
            switch term {
            case .expression(let sql, _, _, _, _): sql
            case .constant(.string(let text)): .parameter(.text(text))
            default: SQLFragment("NULL")
            }
        }
        if case .constant(.string(let pattern)) = right { _ = try PredicateText.matches("", pattern, options) }
        return "\(StoreFunctions.matches)(" + operand(left) + ", " + operand(right) + ", \(options.rawValue))"
    }

    /// CONTAINS, BEGINSWITH, ENDSWITH and LIKE where the pattern is not a
    /// constant (a LIKE pattern read from a column turns into GLOB at run time).
    private static func general(_ operation: PredicateOperator, _ text: SQLFragment, _ part: SQLFragment) throws -> SQLFragment {
        let builtIn: SQLFragment
        switch operation {
        case .contains:
            // `instr` compares whole values, NUL characters included.
            return "instr(" + text + ", " + part + ") > 0"
        case .beginsWith:
            builtIn = "substr(" + text + ", 1, length(" + part + ")) = " + part
        case .endsWith:
            builtIn = "(" + text + " IS NOT NULL AND (" + part + " = '' OR substr(" + text + ", -length(" + part + ")) = " + part + "))"
        case .like:
            builtIn = text + " GLOB \(StoreFunctions.likeGlob)(" + part + ")"
        default:
            throw FetchError.unsupportedPredicate("\(operation.rawValue) with a key path as its pattern")
        }
        // `length`, `substr` and GLOB read a value only up to a NUL character:
        // such values are tested by the evaluator's own code.
        return "(CASE WHEN instr(" + text + ", char(0)) > 0 OR instr(" + part + ", char(0)) > 0 THEN \(StoreFunctions.textTest)("
            + SQLFragment.parameter(.text(operation.rawValue)) + ", " + text + ", " + part + ") ELSE " + builtIn + " END)"
    }

    /// `column GLOB pattern`, except for a value holding a NUL character:
    /// GLOB reads the text only up to it (`'nul' || char(0)` would end with
    /// "nul", `'a' || char(0) || 'nul'` would not), where the evaluator reads
    /// it whole; such a value goes through `sameMeaning`, the regular
    /// expression. The price is an `instr` over each value tested.
    private static func glob(_ column: SQLFragment, _ pattern: String, else sameMeaning: SQLFragment) -> SQLFragment {
        "(CASE WHEN instr(" + column + ", char(0)) > 0 THEN " + sameMeaning
            + " ELSE " + column + " GLOB ?" + SQLFragment("", [.text(pattern)]) + " END)"
    }

    /// SQLite's GLOB reads its pattern only up to a NUL character, so a
    /// pattern holding one goes through `FAULTLINE_MATCHES` as the regular
    /// expression meaning the same (found by the predicate fuzz target): a
    /// leading `*` matches anything; with `wildcards`, every `*` and `?` are
    /// LIKE's; every other character is itself. A run of `*` is one `.*`:
    /// ICU backtracks through every way a run of `.*` can split the text, which
    /// took a 100-star pattern over ten seconds (the fuzz target again).
    static func regularExpression(_ column: SQLFragment, _ pattern: String, wildcards: Bool) -> SQLFragment {
        var expression = "(?s:"
        var afterStar = false
        for (index, scalar) in pattern.unicodeScalars.enumerated() {
            let star = scalar == "*" && (wildcards || index == 0)
            defer { afterStar = star }
            switch scalar {
            case "*" where star: if !afterStar { expression += ".*" }
            case "?" where wildcards: expression += "."
            default: expression += "\\x{" + String(scalar.value, radix: 16) + "}"
            }
        }
        expression += ")"
        return "\(StoreFunctions.matches)(" + column + ", " + SQLFragment.parameter(.text(expression)) + ", 0)"
    }

    /// `column >= prefix AND column < successor(prefix)`: the strings starting
    /// with `prefix` in binary (UTF-8) order, a range an index on `column` serves.
    static func prefixRange(_ column: SQLFragment, _ prefix: String) -> SQLFragment {
        if prefix.isEmpty { return column + " IS NOT NULL" }
        guard let upper = successor(of: prefix) else { return column + " >= ?" + SQLFragment("", [.text(prefix)]) }
        return "(" + column + " >= " + SQLFragment.parameter(.text(prefix)) + " AND " + column + " < " + SQLFragment.parameter(.text(upper)) + ")"
    }

    /// The smallest string greater than every string starting with `prefix`;
    /// nil when `prefix` is all U+10FFFF.
    static func successor(of prefix: String) -> String? {
        var scalars = Array(prefix.unicodeScalars)
        while let last = scalars.popLast() {
            var next = last.value + 1
            if next == 0xD800 { next = 0xE000 }
            if let scalar = Unicode.Scalar(next) {
                scalars.append(scalar)
                var view = String.UnicodeScalarView()
                view.append(contentsOf: scalars)
                return String(view)
            }
        }
        return nil
    }

    /// `text` as a GLOB pattern matching itself: `*`, `?` and `[` bracketed.
    static func globEscaped(_ text: String) -> String {
        var result = ""
        for character in text.unicodeScalars {
            switch character {
            case "*": result += "[*]"
            case "?": result += "[?]"
            case "[": result += "[[]"
            default: result.unicodeScalars.append(character)
            }
        }
        return result
    }
}
