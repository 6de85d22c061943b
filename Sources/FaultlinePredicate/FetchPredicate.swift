import Foundation

// MARK: - Design note: the predicate language front end
//
// WHAT THIS IS
// Core Data users write predicates as NSPredicate format strings. The front end
// turns one into a syntax tree (`PredicateNode`), prints the tree back as a
// canonical format string (`description`), and evaluates it in memory against
// any `PredicateSubject` (unsaved objects, tests). The SQL compiler, fetch
// requests and prefetching are later stages that consume the tree.
// Names: predicate-level nodes are `PredicateNode`, operands `FetchExpression`
// and errors `FetchPredicateError` (Foundation already has `PredicateExpression`
// and `PredicateError`).
//
//   format string ──PredicateLexer──▶ tokens ──PredicateParser──▶ PredicateNode
//        ▲                                                            │
//        └──────────────────── description ◀──────────────────────────┤
//                                          PredicateEvaluator ◀───────┘
//
// GRAMMAR (keywords case-insensitive; lowest precedence first)
//   predicate   := or
//   or          := and (("OR" | "||") and)*
//   and         := not (("AND" | "&&") not)*
//   not         := ("NOT" | "!") not | primary
//   primary     := "(" or ")" | "TRUEPREDICATE" | "FALSEPREDICATE" | comparison
//   comparison  := [ANY | SOME | ALL | NONE] expr operator ["[" c|d|cd "]"] expr
//   operator    := == = != <> < <= =< > >= => BETWEEN IN CONTAINS BEGINSWITH
//                  ENDSWITH LIKE MATCHES
//   expr        := literal | "%@" | "%K" | "%d" … | "$NAME" | keypath
//                | "{" [expr ("," expr)*] "}" | SUBQUERY "(" expr "," $v "," or ")"
//                | CAST "(" literal "," "Type" ")"          — then ("." key | "." @agg)*
//   keypath     := (key | "#"key | SELF | $v) ("." key)*      @agg := @count @sum @avg @min @max
//   literal     := "…" '…' (escapes \n \t \r \0 \" \' \\ \uXXXX) | -?123 | 0x1F | 1.5e3
//                | TRUE YES FALSE NO | NIL NULL
//
// INVARIANTS
// 1. No input traps, hangs or recurses without bound: every failure is a
//    `FetchPredicateError`; the lexer consumes a byte per token; nesting (parens,
//    NOT, lists, SUBQUERY, an argument's or a variable's arrays) deeper than
//    `PredicateDepth.limit` (24) is `nestingTooDeep`, in the parser and in
//    every walk of the tree; AND/OR chains are n-ary nodes, not deep trees.
// 2. Every error from the format string carries the UTF-8 offset of the token
//    at fault and says what was expected there.
// 3. Arguments are consumed left to right, one per specifier; too few or too
//    many is an error. A quoted "%@" is a string, never a specifier.
// 4. Round trip: for every tree the parser builds,
//    `FetchPredicate(format: tree.description) == tree`; constants without a
//    literal syntax print as CAST (dates, decimals, UUIDs, data, object IDs).
// 5. The tree holds only constants and key paths: a value from the format
//    string, an argument or a substitution is a `PredicateValue` and never
//    becomes syntax, so the SQL compiler can bind every one as a parameter.
//    %K takes only identifiers joined by dots.
// 6. Evaluation is a pure function of the tree and the subject's values.
//
// TOWARD SQL (the compiler is the core's Query/; the tree is shaped for it)
// - Key paths are `[String]` components: each to-one hop a JOIN (or a
//   correlated subquery), a to-many hop an EXISTS; the last component a column,
//   or a canonical column when the comparison has [cd] or [c].
// - `PredicateModifier` maps ANY to EXISTS (…), ALL to NOT EXISTS (… NOT …),
//   NONE to NOT EXISTS (…); the modifier sits on the comparison, so the
//   compiler decides the join shape once per comparison.
// - Options are an OptionSet, so `[cd]` selects the canonical column and folds
//   the constant once (CanonicalText.fold) at compile time.
// - Aggregates are explicit nodes: `.aggregate(.count, of: keyPath)` becomes
//   `(SELECT COUNT(*) …)`, SUBQUERY a filtered correlated subquery.
// - The evaluator's documented semantics (nil, numeric kinds, options) are
//   the contract the SQL must reproduce; the table-driven tests will compare
//   the two on the same data.

/// A parsed predicate: Faultline's counterpart of `NSPredicate`, named so as
/// not to clash with Foundation's `Predicate`.
///
/// Two predicates are equal when their trees are equal; `description` is the
/// canonical format string.
public struct FetchPredicate: Hashable, Sendable, CustomStringConvertible {
    /// The syntax tree.
    public let root: PredicateNode

    public init(_ root: PredicateNode) {
        self.root = root
    }

    /// Parses `format`, taking one argument from `arguments` per specifier, in
    /// order. Throws a `FetchPredicateError` (with the UTF-8 offset) for a malformed
    /// string, a missing or unused argument, or an argument of the wrong kind.
    /// O(n) in the length of the string, plus compiling literal MATCHES patterns.
    public init(format: String, arguments: [PredicateValue]) throws(FetchPredicateError) {
        var parser = try PredicateParser(format: format, arguments: arguments)
        root = try parser.parse()
    }

    /// Parses `format` with Swift values as arguments, converted as
    /// `PredicateValue(converting:)` does: strings, integers, floating point,
    /// `Bool`, `Decimal`, `Date`, `UUID`, `Data`, `PredicateObjectID`, arrays
    /// and sets of those, and nil. Another type throws `unsupportedArgumentType`.
    ///
    /// Pass a `[PredicateValue]` with the `arguments:` label: without it the
    /// array is one argument (an array for `IN %@`).
    public init(format: String, _ arguments: Any?...) throws(FetchPredicateError) {
        try self.init(format: format, argumentArray: arguments)
    }

    /// An array of optionals is one argument (an array for `IN %@`), as an
    /// array handed to `NSPredicate(format:)` is. Without this overload Swift
    /// passes a `[Any?]` as the variadic list itself: `rating IN %@` with
    /// `[nil, 1.5]` would read nil as its argument and drop 1.5 unnoticed.
    public init(format: String, _ argument: [Any?]) throws(FetchPredicateError) {
        try self.init(format: format, argumentArray: [argument])
    }

    /// `NSPredicate(format:argumentArray:)`: one argument per element of
    /// `arguments`, converted as the variadic form converts them.
    public init(format: String, argumentArray arguments: [Any?]) throws(FetchPredicateError) {
        var values: [PredicateValue] = []
        for (index, argument) in arguments.enumerated() {
            do {
                values.append(try PredicateValue(converting: argument, argumentIndex: index))
            } catch {
                guard case .nestingTooDeep(nil, let limit) = error else { throw error }
                throw .nestingTooDeep(offset: PredicateParser.offsetOfSpecifier(index, in: format), limit: limit)
            }
        }
        try self.init(format: format, arguments: values)
    }

    /// The predicate with each `$NAME` in `variables` replaced by its value.
    /// Variables not in the dictionary stay (evaluating them throws
    /// `unsubstitutedVariable`). Throws `variableWithKeyPath` for `$NAME.key`.
    public func substituting(_ variables: [String: PredicateValue]) throws(FetchPredicateError) -> FetchPredicate {
        FetchPredicate(try root.substituting(variables))
    }

    /// Whether `subject` satisfies the predicate, with the semantics described
    /// in `PredicateEvaluator+Comparison.swift` and `+Aggregates.swift`.
    /// Throws a `FetchPredicateError` for a type mismatch, an unsubstituted variable
    /// or a to-many key path without a modifier, and rethrows the subject's
    /// errors (an unknown key). O(size of the tree × values reached).
    public func evaluate(with subject: some PredicateSubject) throws -> Bool {
        try PredicateEvaluator(subject: subject).evaluate(root)
    }

    /// The canonical format string; parsing it gives back an equal predicate.
    public var description: String { root.description }
}
