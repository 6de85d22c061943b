/// `EXPLAIN QUERY PLAN`, as readable lines.
extension Connection {
    /// The plan SQLite chooses for `sql`, one node per line, children indented
    /// by two spaces under their parent, e.g.
    ///
    ///     SEARCH ZARTICLE USING INDEX ZARTICLE_ZCATEGORY_INDEX (ZCATEGORY=?)
    ///
    /// Parameters left unbound are planned as unknown values.
    public func queryPlan(_ sql: String, _ values: [SQLValue] = []) throws -> [String] {
        var depthByID: [Int64: Int] = [:]
        var lines: [String] = []
        for row in try rows("EXPLAIN QUERY PLAN " + sql, values) where row.count >= 4 {
            guard case .integer(let id) = row[0] else { continue }
            let parent: Int64
            if case .integer(let value) = row[1] { parent = value } else { parent = 0 }
            let depth = depthByID[parent].map { $0 + 1 } ?? 0
            depthByID[id] = depth
            let detail: String
            if case .text(let text) = row[3] { detail = text } else { detail = row[3].description }
            lines.append(String(repeating: "  ", count: depth) + detail)
        }
        return lines
    }
}
