import Faultline
import FaultlineSQLite
import Foundation

/// What a predicate compiles to for one entity of a model file: the statement a
/// fetch would run, its bound values and SQLite's plan for it.
struct PredicateSQLExplanation {
    var entity: String
    var table: String
    var sql: String
    var bindings: [SQLValue]
    var plan: [String]
}

/// A failure the command reports with exit status 2.
struct PredicateToolError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

enum PredicateSQLExplainer {
    /// Reads the model at `modelPath` (`.xcdatamodeld`, `.xcdatamodel` or
    /// `contents`), compiles `predicate` for `entityName` and plans the
    /// statement in an empty in-memory store of that model.
    static func explain(_ predicate: FetchPredicate, modelPath: String, entityName: String) throws(PredicateToolError)
        -> PredicateSQLExplanation
    {
        let schema = try self.schema(at: modelPath)
        guard let mapping = schema.entity(named: entityName) else {
            let known = schema.model.entities.map(\.name).sorted().joined(separator: ", ")
            throw PredicateToolError("model has no entity '\(entityName)'; its entities: \(known)")
        }
        let compiled: CompiledPredicate
        do {
            compiled = try PredicateSQLCompiler.compile(predicate, entityName: entityName, schema: schema)
        } catch {
            throw PredicateToolError("predicate does not compile for \(entityName): \(error)")
        }
        var condition = compiled.whereClause
        if let filter = mapping.entityFilter(alias: "t0") { condition = "\(filter) AND (\(condition))" }
        let sql = "SELECT t0.Z_PK FROM \(mapping.table) t0\(compiled.joins) WHERE \(condition)"
        let plan = try self.plan(sql, bindings: compiled.bindings, schema: schema)
        return PredicateSQLExplanation(entity: entityName, table: mapping.table, sql: sql,
                                       bindings: compiled.bindings, plan: plan)
    }

    private static func schema(at path: String) throws(PredicateToolError) -> StoreSchema {
        let bundle: ModelBundle
        do {
            bundle = try ModelBundle.read(at: URL(fileURLWithPath: path))
        } catch {
            throw PredicateToolError("cannot read model '\(path)': \(error)")
        }
        guard let model = bundle.current?.model else {
            throw PredicateToolError("model '\(path)' has no current version")
        }
        // Transformers matter to storing values, not to the SQL of a predicate.
        PlaceholderTransformer.registerMissing(in: model)
        do {
            return try StoreSchema(compiling: model.checked())
        } catch {
            throw PredicateToolError("model '\(path)' is not valid: \(error)")
        }
    }

    /// `EXPLAIN QUERY PLAN` of `sql` with its bindings, children indented two
    /// spaces under their parent.
    private static func plan(_ sql: String, bindings: [SQLValue], schema: StoreSchema)
        throws(PredicateToolError) -> [String]
    {
        do {
            let connection = try Connection(.inMemory)
            try StoreFunctions.register(on: connection)
            try StoreBootstrap.create(schema, on: connection)
            return try connection.queryPlan(sql, bindings)
        } catch {
            throw PredicateToolError("cannot plan the statement: \(error)")
        }
    }
}
