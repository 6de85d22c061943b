import FaultlineSQLite

// A `StoreFetch` compiled against the store's schema with the predicate
// compiler (Query/). Compiling is a step of its own, taken before any
// statement runs, so a fetch's compile errors (unknown key paths and sort
// keys, predicates the compiler does not translate) surface before anything
// is read and ahead of the checks the context makes itself in between. The
// pieces are private: what leaves this file is the statements a fetch sends,
// whole, for the coordinator to run.

/// A fetch ready to run: its clauses, their bindings and, for a dictionary
/// fetch, how to read each column.
struct CompiledFetch: Sendable {
    let entityIndex: Int
    /// The values of the condition's placeholders, in order.
    let bindings: [SQLValue]
    /// The columns of `StoreFetch.selecting`, in its order, then its computed columns.
    let columns: [SelectedColumn]
    /// What `columnsStatement` binds: the computed columns' values, the
    /// condition's, then HAVING's, in the order the statement holds them.
    let columnBindings: [SQLValue]
    /// `GROUP BY` expressions and the `HAVING` condition of a dictionary fetch.
    private let groupBy: [String]
    private let having: String?
    private let distinct: Bool
    private let includesSubentities: Bool
    /// `LEFT OUTER JOIN …` clauses the condition, sort keys and columns need.
    private let joins: String
    /// The compiled predicate, nil for every row.
    private let condition: String?
    /// (SQL expression, ascending) pairs, e.g. `("t1.ZNAME", true)`.
    private let sort: [(expression: String, ascending: Bool)]
    private let limit: Int
    private let offset: Int

    /// Compiles the predicate, then the sort keys, then the columns, in one
    /// scope so a to-one hop they share is joined once; throws what the
    /// compiler throws (`FetchPredicateError`, `FetchError`).
    init(_ fetch: StoreFetch, schema: StoreSchema, marked: MarkedDataAttributes = .none) throws {
        let builder = PredicateSQLBuilder(schema: schema, entityIndex: fetch.entityIndex, marked: marked)
        entityIndex = fetch.entityIndex
        includesSubentities = fetch.includesSubentities
        limit = fetch.limit
        offset = fetch.offset
        distinct = fetch.distinct
        if let predicate = fetch.predicate {
            let compiled = try builder.compile(predicate.root)
            condition = compiled.sql
            bindings = compiled.bindings
        } else {
            condition = nil
            bindings = []
        }
        sort = try fetch.sortKeys.map {
            (try builder.sortExpression($0.key, comparison: $0.comparison), $0.ascending)
        }
        let keyColumns = try fetch.selecting.map(builder.selectedColumn)
        if !fetch.groupBy.isEmpty, let loose = fetch.selecting.first(where: { !fetch.groupBy.contains($0) }) {
            throw FetchError.ungroupedProperty(entity: schema.model.entities[fetch.entityIndex].name, keyPath: loose)
        }
        groupBy = try fetch.groupBy.map { try builder.selectedColumn($0).expression }
        builder.groupsRows = true
        let computed = try fetch.expressions.map(builder.expressionColumn)
        builder.name(computed, fetch.expressions)
        builder.fetchedKeyPaths = Set(fetch.selecting)
        let havingSQL = try fetch.having.map { try builder.compile($0.root) }
        having = havingSQL?.sql
        columns = keyColumns + computed.map(\.column)
        columnBindings = computed.flatMap(\.sql.bindings) + bindings + (havingSQL?.bindings ?? [])
        joins = builder.root.joinsSQL
    }

    /// Full rows: the hierarchy select of `plan` (the entity's).
    func rowsStatement(in plan: EntityStorePlan) -> String {
        plan.select(clauses(in: plan))
    }

    /// Only the keys (the first statement of a batched fetch).
    func idsStatement(in plan: EntityStorePlan) -> String {
        "SELECT t0.Z_ENT, t0.Z_PK FROM \(plan.table) t0\(clauses(in: plan))"
    }

    /// `SELECT COUNT(*)`: no ORDER BY, the rest as the rows' statement.
    /// With a limit or an offset the count is of the rows the fetch would
    /// return, as Core Data's `count(for:)` is: counted over the limited rows,
    /// since a LIMIT on the count's own single row would drop or keep it whole.
    func countStatement(in plan: EntityStorePlan) -> String {
        guard limit > 0 || offset > 0 else { return "SELECT COUNT(*) FROM \(plan.table) t0\(clauses(in: plan, sorted: false))" }
        return "SELECT COUNT(*) FROM (SELECT 1 FROM \(plan.table) t0\(clauses(in: plan, sorted: false)))"
    }

    /// `SELECT [DISTINCT] t0.ZNAME, t1.ZTITLE …`: the selected columns.
    func columnsStatement(in plan: EntityStorePlan) -> String {
        let list = columns.map(\.expression).joined(separator: ", ")
        return "SELECT \(distinct ? "DISTINCT " : "")\(list) FROM \(plan.table) t0\(clauses(in: plan, grouped: true))"
    }

    /// `SELECT t0.Z_ENT, t0.Z_PK, t0.ZNAME …`: each row's key, then the
    /// selected columns (a fetched-results controller's sort and section keys).
    func keyedColumnsStatement(in plan: EntityStorePlan) -> String {
        let list = columns.map { ", " + $0.expression }.joined()
        return "SELECT t0.Z_ENT, t0.Z_PK\(list) FROM \(plan.table) t0\(clauses(in: plan))"
    }

    /// Everything after `FROM <table> t0`: joins, WHERE, GROUP BY and HAVING
    /// when `grouped`, ORDER BY unless `sorted` is false, LIMIT.
    private func clauses(in plan: EntityStorePlan, sorted: Bool = true, grouped: Bool = false) -> String {
        var sql = joins
        var filters: [String] = []
        if plan.mapping.sharesTable,
           let filter = includesSubentities ? plan.entityFilter : "t0.Z_ENT = \(entityIndex + 1)" {
            filters.append(filter)
        }
        if let condition { filters.append(condition) }
        if !filters.isEmpty { sql += " WHERE " + filters.joined(separator: " AND ") }
        if grouped, !groupBy.isEmpty { sql += " GROUP BY " + groupBy.joined(separator: ", ") }
        if grouped, let having { sql += " HAVING " + having }
        if sorted, !sort.isEmpty {
            sql += " ORDER BY " + sort.map { "\($0.expression) \($0.ascending ? "ASC" : "DESC")" }.joined(separator: ", ")
        }
        if limit > 0 || offset > 0 {
            sql += " LIMIT \(limit > 0 ? limit : -1) OFFSET \(offset)"
        }
        return sql
    }
}
