import FaultlineSQLite

/// What a graph workload should read, from the store file by plain SQL: the
/// touched parents and, level by level down the pattern's depth, the
/// children of what the level above reached.
extension GraphWorkload {
    /// `run(_:in:)`'s checksum: the title bytes of every object it reaches
    /// (a parent touched twice counts twice, as the workload reads it twice).
    public func expectedTitleChecksum(_ verifier: StoreVerifier) throws -> Int64 {
        var sum: Int64 = 0
        try walk(verifier) { level, keys in
            let counted = level == 0 ? "json_each(?) AS k JOIN \(ObjectGraphModel.table(level: 0)) AS t ON t.Z_PK = k.value"
                : "\(ObjectGraphModel.table(level: level)) AS t JOIN json_each(?) AS k ON t.\(ObjectGraphModel.inverseColumns[level - 1]) = k.value"
            sum &+= try verifier.integer("SELECT SUM(length(CAST(t.ZTITLE AS BLOB))) FROM \(counted)", [.text(keys)])
        }
        return sum
    }

    /// `RawGraphReader.run()`'s checksum and rows: every parent row, then
    /// each level's rows below the touched parents, as the C loop reads them.
    public func expectedRawRead(_ verifier: StoreVerifier) throws -> (checksum: Int64, rows: Int) {
        var total = try verifier.rawChecksum(
            "SELECT \(ObjectGraphModel.selectList(level: 0)) FROM \(ObjectGraphModel.table(level: 0))")
        let touchedKeys = StoreVerifier.jsonArray(touched.map { Int64($0 + 1) })
        var keys = touchedKeys
        for level in stride(from: 1, through: pattern.depth, by: 1) {
            let table = ObjectGraphModel.table(level: level)
            let owner = ObjectGraphModel.inverseColumns[level - 1]
            let read = try verifier.rawChecksum(
                "SELECT \(ObjectGraphModel.selectList(level: level)) FROM \(table) WHERE \(owner) IN (SELECT value FROM json_each(?))",
                [.text(keys)])
            total.checksum &+= read.checksum
            total.rows += read.rows
            keys = try childKeys(verifier, level: level, of: keys)
        }
        return total
    }

    /// Calls `body` with each level (0 first) and the JSON array of the keys
    /// the workload reads on it: parents by key, children by owner's key.
    private func walk(_ verifier: StoreVerifier, _ body: (Int, String) throws -> Void) throws {
        var keys = StoreVerifier.jsonArray(touched.map { Int64($0 + 1) })
        try body(0, keys)
        guard pattern.depth > 0 else { return }
        for level in 1...pattern.depth {
            try body(level, keys)
            keys = try childKeys(verifier, level: level, of: keys)
        }
    }

    /// The keys, one per reach (duplicates kept), of `level`'s rows owned by `keys`.
    private func childKeys(_ verifier: StoreVerifier, level: Int, of keys: String) throws -> String {
        let rows = try verifier.connection.rows(
            "SELECT t.Z_PK FROM \(ObjectGraphModel.table(level: level)) AS t JOIN json_each(?) AS k"
                + " ON t.\(ObjectGraphModel.inverseColumns[level - 1]) = k.value", [.text(keys)])
        return StoreVerifier.jsonArray(rows.compactMap { if case .integer(let key) = $0.first { key } else { nil } })
    }
}

extension GraphWorkload {
    /// A Faultline strategy's line: its checksum is what plain SQL reads.
    public func verifyTitles(_ result: Int64, storePath: String) throws {
        let verifier = try StoreVerifier(path: storePath)
        try verifier.expect("the titles read", result, equals: try expectedTitleChecksum(verifier))
    }

    /// The raw line: its checksum and row count are the plain SQL read's.
    public func verifyRaw(_ result: Int64, rows: Int, storePath: String) throws {
        let verifier = try StoreVerifier(path: storePath)
        let expected = try expectedRawRead(verifier)
        try verifier.expect("the raw read's checksum", result, equals: expected.checksum)
        try verifier.expect("the raw read's rows", Int64(rows), equals: Int64(expected.rows))
    }
}
