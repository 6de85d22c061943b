import Faultline
import FaultlineSQLite
import Foundation

/// A store file holding a generated graph of one shape, built once: the
/// container creates the schema, then plain SQL inserts fill every level in
/// one transaction (with `Z_ENT`, `Z_OPT` = 1 and `Z_PRIMARYKEY.Z_MAX` bumped,
/// as a save would leave them). Keys are 1…n per level, children in blocks
/// (`ObjectGraphModel.childKey`), titles `"<level>-<key>"`, ranks key mod 97.
public final class ObjectGraphStore: @unchecked Sendable {
    public let shape: GraphShape
    public let url: URL
    /// The container every strategy reads through (its row cache is cleared per iteration).
    public let container: PersistentContainer

    public init(shape: GraphShape, directory: URL = FileManager.default.temporaryDirectory) throws {
        self.shape = shape
        url = directory.appendingPathComponent("faultline-graph-\(shape)-\(UUID().uuidString).sqlite")
        do {
            _ = try PersistentContainer(model: ObjectGraphModel.model(), location: .file(url))
        }
        try Self.fill(path: url.path, shape: shape)
        container = try PersistentContainer(model: ObjectGraphModel.model(), location: .file(url))
    }

    /// Removes the store file and its WAL.
    public func remove() {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
    }

    private static func fill(path: String, shape: GraphShape) throws {
        let connection = try Connection(.file(path))
        let entities = try connection.rows("SELECT Z_NAME, Z_ENT FROM Z_PRIMARYKEY")
        var numbers: [String: Int64] = [:]
        for row in entities {
            if case .text(let name) = row[0], case .integer(let number) = row[1] { numbers[name] = number }
        }
        let counts = shape.levelCounts
        try connection.transaction(.immediate) {
            for level in counts.indices {
                let name = ObjectGraphModel.entityNames[level]
                guard let entity = numbers[name] else {
                    throw ObjectGraphInputError("the store has no Z_PRIMARYKEY row for \(name)")
                }
                let table = ObjectGraphModel.table(level: level)
                let owner = level == 0 ? "" : ", " + ObjectGraphModel.inverseColumns[level - 1]
                let values = level == 0 ? "?, ?, 1, ?, ?" : "?, ?, 1, ?, ?, ?"
                let insert = try connection.prepare(
                    "INSERT INTO \(table) (Z_PK, Z_ENT, Z_OPT, ZTITLE, ZRANK\(owner)) VALUES (\(values))")
                let fanOut = level == 0 ? 1 : shape.fanOuts[level - 1]
                for key in 1...Int64(counts[level]) {
                    try insert.bind(key, at: 1)
                    try insert.bind(entity, at: 2)
                    try insert.bind("\(name)-\(key)", at: 3)
                    try insert.bind(key % 97, at: 4)
                    if level > 0 { try insert.bind((key - 1) / Int64(fanOut) + 1, at: 5) }
                    try insert.execute()
                }
                try connection.execute(
                    "UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ?", [.integer(Int64(counts[level])), .integer(entity)])
            }
        }
    }
}
