import FaultlineSQLite

/// A list of keys as one bound JSON array, for `IN (SELECT value FROM json_each(?))`.
func jsonKeyList<S: Sequence>(_ keys: S) -> SQLValue where S.Element == Int64 {
    .text("[" + keys.map(String.init).joined(separator: ",") + "]")
}
