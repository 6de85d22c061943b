import Foundation
import FaultlineSQLite

// MARK: - Design note: the predicate compiler
//
// WHAT THIS IS
// `PredicateSQLCompiler` turns a `FetchPredicate` tree into the WHERE clause of
// a query `… FROM <root table> t0 …` in Core Data's SQL shapes, with every
// value bound as a parameter (`?`) — no value is ever spliced into SQL text;
// identifiers come from the checked model only.
//
// SHAPES
// - attribute          `t0.ZVIEWS > ?`; composite leaves are flattened columns
//                       (`colorScheme.primary` → `t0.ZCOLORSCHEME_PRIMARY`).
// - to-one hop         `LEFT OUTER JOIN ZAUTHOR t1 ON t1.Z_PK = t0.ZAUTHOR`, one
//                       join per distinct path per scope, aliases t1, t2, …
//                       (outer, so `publisher.name == nil` holds without one).
// - relationship vs object/ID/nil  its key column: `t0.ZAUTHOR = ?`, `IS NULL`.
// - to-many            ANY → `EXISTS (SELECT 1 FROM ZBOOK t1 WHERE t1.ZAUTHOR =
//                       t0.Z_PK AND …)`, NONE → `NOT EXISTS (…)`, ALL →
//                       `NOT EXISTS (… AND NOT COALESCE(…, 0))`; many-to-many
//                       through its join table; nested to-manys nest EXISTS.
// - aggregates         `(SELECT COUNT(*) FROM ZBOOK t1 WHERE t1.ZAUTHOR = t0.Z_PK)`,
//                       `COALESCE(SUM(…), 0)`, `AVG`, `MIN`, `MAX`; SUBQUERY adds
//                       its predicate to that subquery's WHERE, `$v` being its alias.
// - IN                 `IN (?, ?, …)` up to 16 elements; longer lists of only
//                       integers or only strings bind one JSON array:
//                       `IN (SELECT value FROM json_each(?))`.
// - strings            CONTAINS `instr(L, ?) > 0`; BEGINSWITH the range
//                       `L >= ? AND L < ?` (prefix, successor of prefix), which an
//                       index serves; ENDSWITH and LIKE `GLOB ?` with `*`, `?`, `[`
//                       escaped as `[*]`, `[?]`, `[[]`; MATCHES `FAULTLINE_MATCHES(L, ?, flags)`.
// - options            [cd] on an attribute with a `canonical:` derived column
//                       compares that column with the argument folded once in
//                       Swift (so == and BEGINSWITH use its index); elsewhere
//                       FAULTLINE_CANONICAL / FAULTLINE_FOLD_CASE /
//                       FAULTLINE_FOLD_DIACRITICS apply to the non-constant side.
//
// SEMANTICS (the evaluator's, `PredicateEvaluator+Comparison.swift`)
// - Two-valued logic: SQL's NULL only ever means "false" in a positive position,
//   so NOT compiles to `NOT COALESCE((x), 0)`: `NOT views > 10` holds for a nil views.
// - `!=` is `IS NOT` (nil != 3 holds); `== nil` is `IS NULL`.
// - A key path compared with a constant converts the constant first, as the
//   column's SQLite affinity would (`PredicateAffinity`: `numberPlate == 9`
//   binds '9'); the evaluator converts alike, so pending changes agree.
// - Kinds are then checked statically from the model: `==` across kinds is
//   constant false, ordering or string operators across kinds throw
//   `typeMismatch`, as the evaluator does (it throws only once a non-nil value
//   reaches it; the compiler throws at once).
// - A comparison of constants only is evaluated at compile time by the
//   evaluator itself and becomes `1` or `0`.

/// A compiled predicate for a query `… FROM <table> t0 <joins> WHERE <whereClause>`.
public struct CompiledPredicate: Sendable, Hashable {
    /// `LEFT OUTER JOIN …` clauses for to-one hops from `t0` (empty when none).
    public var joins: String
    /// The condition; its `?` are `bindings`, in order.
    public var whereClause: String
    public var bindings: [SQLValue]

    /// A condition that needs no joins: `whereClause` itself, or, when joins are
    /// needed, `t0.Z_PK IN (SELECT t0.Z_PK FROM T t0 <joins> WHERE …)` — what an
    /// `UPDATE`/`DELETE … FROM T AS t0 WHERE …` can take.
    public var standaloneWhereClause: String
}

/// Compiles predicates to SQL for one store schema.
///
/// Entry point for fetches and batch requests:
/// ```
/// let compiled = try PredicateSQLCompiler.compile(predicate, entityIndex: index, schema: schema)
/// "DELETE FROM \(table) AS t0 WHERE \(compiled.standaloneWhereClause)"  // bind compiled.bindings
/// ```
/// Throws `FetchPredicateError` (unknown key, type mismatch, collection misuse,
/// unsubstituted variable, invalid regular expression) or
/// `FetchError.unsupportedPredicate` — never traps.
public enum PredicateSQLCompiler {
    public static func compile(
        _ predicate: FetchPredicate, entityIndex: Int, schema: StoreSchema
    ) throws -> CompiledPredicate {
        try compile(predicate, entityIndex: entityIndex, schema: schema, marked: .none)
    }

    /// The same for a store that keeps `marked` in Core Data's external-storage form.
    static func compile(
        _ predicate: FetchPredicate, entityIndex: Int, schema: StoreSchema, marked: MarkedDataAttributes
    ) throws -> CompiledPredicate {
        guard schema.model.entities.indices.contains(entityIndex) else {
            throw FetchError.unknownEntity("#\(entityIndex)")
        }
        let builder = PredicateSQLBuilder(schema: schema, entityIndex: entityIndex, marked: marked)
        let condition = try builder.compile(predicate.root)
        let joins = builder.root.joinsSQL
        var standalone = condition.sql
        if !joins.isEmpty {
            let table = schema.entities[entityIndex].table
            standalone = "t0.Z_PK IN (SELECT t0.Z_PK FROM \(table) t0\(joins) WHERE \(condition.sql))"
        }
        return CompiledPredicate(joins: joins, whereClause: condition.sql, bindings: condition.bindings,
                                 standaloneWhereClause: standalone)
    }

    /// The same, by entity name; throws `FetchError.unknownEntity`.
    public static func compile(_ predicate: FetchPredicate, entityName: String, schema: StoreSchema) throws -> CompiledPredicate {
        guard let index = schema.model.entityIndexByName[entityName] else { throw FetchError.unknownEntity(entityName) }
        return try compile(predicate, entityIndex: index, schema: schema)
    }
}

/// SQL text with the values of its `?` placeholders, in order. Fragments are
/// combined, never re-parsed, so placeholders and values cannot drift apart.
struct SQLFragment: Hashable {
    var sql: String
    var bindings: [SQLValue] = []

    init(_ sql: String, _ bindings: [SQLValue] = []) {
        self.sql = sql
        self.bindings = bindings
    }

    static let alwaysTrue = SQLFragment("1")
    static let alwaysFalse = SQLFragment("0")

    static func parameter(_ value: SQLValue) -> SQLFragment { SQLFragment("?", [value]) }

    static func + (left: SQLFragment, right: SQLFragment) -> SQLFragment {
        SQLFragment(left.sql + right.sql, left.bindings + right.bindings)
    }

    static func + (left: SQLFragment, right: String) -> SQLFragment {
        SQLFragment(left.sql + right, left.bindings)
    }

    static func + (left: String, right: SQLFragment) -> SQLFragment {
        SQLFragment(left + right.sql, right.bindings)
    }

    static func joined(_ fragments: [SQLFragment], separator: String) -> SQLFragment {
        SQLFragment(fragments.map(\.sql).joined(separator: separator), fragments.flatMap(\.bindings))
    }
}

/// One FROM scope: `t0`, or the alias of an EXISTS / aggregate subquery, with
/// the to-one joins its key paths needed.
final class PredicateSQLScope {
    let entityIndex: Int
    let alias: String
    private(set) var joins: [String] = []
    private var joinedAliases: [String: (alias: String, entityIndex: Int)] = [:]

    init(entityIndex: Int, alias: String) {
        self.entityIndex = entityIndex
        self.alias = alias
    }

    var joinsSQL: String { joins.map { " " + $0 }.joined() }

    /// The alias of the destination of the to-one stored in `source.column`
    /// (`source` being this scope's alias or one joined to it), joined once.
    func joined(
        from source: String, column: String, destination: Int, table: String, newAlias: () -> String
    ) -> (alias: String, entityIndex: Int) {
        let key = "\(source).\(column)"
        if let known = joinedAliases[key] { return known }
        let next = newAlias()
        joins.append("LEFT OUTER JOIN \(table) \(next) ON \(next).Z_PK = \(source).\(column)")
        joinedAliases[key] = (next, destination)
        return (next, destination)
    }
}
