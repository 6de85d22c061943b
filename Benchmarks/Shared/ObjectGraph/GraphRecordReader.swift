import FaultlineSQLite

/// The floor under prefetching the parents' first-level children: the same
/// two statements as `RawGraphReader`'s (every parent, then their children
/// by one `IN (SELECT value FROM json_each(?))` over the parents' keys) run
/// through FaultlineSQLite into plain Swift structs, each child filed under
/// its parent, then every parent's and child's title read — no objects,
/// registry, row cache or relationship bookkeeping. Its ratio to the raw read
/// is what Swift values cost before the object graph adds anything.
public final class GraphRecordReader {
    struct Record {
        var key: Int64
        var version: Int64
        var title: String?
        var rank: Int64
    }

    struct Parent {
        var record: Record
        var children: [Record] = []
    }

    private let connection: Connection
    private let parents: Statement
    private let children: Statement

    public init(store: ObjectGraphStore) throws {
        connection = try Connection(.file(store.url.path))
        parents = try connection.cachedStatement(
            "SELECT \(ObjectGraphModel.selectList(level: 0)) FROM \(ObjectGraphModel.table(level: 0))")
        children = try connection.cachedStatement(
            "SELECT \(ObjectGraphModel.selectList(level: 1)) FROM \(ObjectGraphModel.table(level: 1))"
                + " WHERE \(ObjectGraphModel.inverseColumns[0]) IN (SELECT value FROM json_each(?))")
    }

    /// Reads the graph, then every title; returns the checksum of the
    /// titles' UTF-8 lengths, as the object lines read them.
    public func readTitles() throws -> Int {
        var graph: [Parent] = []
        var positions: [Int64: Int] = [:]
        while try parents.step() {
            let record = Self.record(parents)
            positions[record.key] = graph.count
            graph.append(Parent(record: record))
        }
        try children.bind("[" + graph.lazy.map { String($0.record.key) }.joined(separator: ",") + "]", at: 1)
        while try children.step() {
            guard let position = positions[children.int64(at: 5)] else { continue }
            graph[position].children.append(Self.record(children))
        }
        var checksum = 0
        for parent in graph {
            checksum &+= parent.record.title?.utf8.count ?? 0
            for child in parent.children { checksum &+= child.title?.utf8.count ?? 0 }
        }
        return checksum
    }

    /// The row `statement` stands on (`ObjectGraphModel.selectList`'s columns).
    @inline(__always)
    private static func record(_ statement: Statement) -> Record {
        Record(key: statement.int64(at: 0), version: statement.int64(at: 2),
               title: statement.string(at: 3), rank: statement.int64(at: 4))
    }
}
