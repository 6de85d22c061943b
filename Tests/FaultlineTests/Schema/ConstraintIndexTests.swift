import Testing
import FaultlineSQLite
@testable import Faultline

/// Uniqueness constraints become unique indexes that SQLite enforces.
@Suite("Uniqueness constraints in the store")
struct ConstraintIndexTests {
    @Test("A compound constraint rejects a duplicate pair and accepts a differing pair")
    func compound() throws {
        let store = try TestStore(ShopModel.schema())
        let insert = "INSERT INTO ZPERSON (Z_PK, Z_ENT, Z_OPT, ZFIRSTNAME, ZLASTNAME) VALUES (?, 3, 1, ?, ?)"
        try store.run(insert, [1, "John", "Doe"])
        try store.run(insert, [2, "John", "Smith"])
        try store.run(insert, [3, "Jane", "Doe"])
        let error = try #require(throws: SQLiteError.self) { try store.run(insert, [4, "John", "Doe"]) }
        #expect(error.code == .constraint)
        #expect(error.message.contains("ZPERSON.ZFIRSTNAME, ZPERSON.ZLASTNAME"))
        #expect(try store.value("SELECT count(*) FROM ZPERSON") == .integer(3))
        #expect(try store.isIntact())
    }
}
