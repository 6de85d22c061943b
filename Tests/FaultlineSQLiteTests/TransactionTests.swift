import Testing
@testable import FaultlineSQLite

/// Transactions and savepoints commit on return and roll back on a throw.
@Suite("Transactions and savepoints")
struct TransactionTests {
    struct Refusal: Error {}

    let connection: Connection

    init() throws {
        connection = try Connection(.inMemory)
        try connection.execute("CREATE TABLE t (x INTEGER)")
    }

    private func count() throws -> SQLValue? { try connection.scalar("SELECT count(*) FROM t") }

    @Test("A returning body commits", arguments: [Connection.TransactionKind.deferred, .immediate, .exclusive])
    func commits(kind: Connection.TransactionKind) throws {
        let result = try connection.transaction(kind) {
            try connection.execute("INSERT INTO t VALUES (1)")
            return 42
        }
        #expect(result == 42)
        #expect(try count() == .integer(1))
        #expect(connection.isAutocommit)
    }

    @Test("A throwing body rolls the transaction back and rethrows")
    func transactionRollsBack() throws {
        #expect(throws: Refusal.self) {
            try connection.transaction {
                try connection.execute("INSERT INTO t VALUES (1)")
                throw Refusal()
            }
        }
        #expect(try count() == .integer(0))
        #expect(connection.isAutocommit)
    }

    @Test("A throwing savepoint undoes only its own work")
    func savepointRollsBack() throws {
        try connection.transaction {
            try connection.execute("INSERT INTO t VALUES (1)")
            #expect(throws: Refusal.self) {
                try connection.savepoint {
                    try connection.execute("INSERT INTO t VALUES (2)")
                    throw Refusal()
                }
            }
            try connection.savepoint { try connection.execute("INSERT INTO t VALUES (3)") }
        }
        #expect(try connection.rows("SELECT x FROM t ORDER BY x") == [[.integer(1)], [.integer(3)]])
    }

    @Test("Savepoints nest; an inner failure leaves the outer one's work")
    func nestedSavepoints() throws {
        try connection.savepoint {
            try connection.execute("INSERT INTO t VALUES (1)")
            try connection.savepoint {
                try connection.execute("INSERT INTO t VALUES (2)")
                #expect(throws: Refusal.self) {
                    try connection.savepoint {
                        try connection.execute("INSERT INTO t VALUES (3)")
                        throw Refusal()
                    }
                }
            }
        }
        #expect(try connection.rows("SELECT x FROM t ORDER BY x") == [[.integer(1)], [.integer(2)]])
        #expect(connection.savepointDepth == 0)
    }

    @Test("A transaction inside a transaction nests as a savepoint")
    func nestedTransaction() throws {
        try connection.transaction {
            try connection.execute("INSERT INTO t VALUES (1)")
            #expect(throws: Refusal.self) {
                try connection.transaction {
                    try connection.execute("INSERT INTO t VALUES (2)")
                    throw Refusal()
                }
            }
        }
        #expect(try count() == .integer(1))
    }

    @Test("A failing statement inside the body rolls back everything before it")
    func sqlErrorRollsBack() throws {
        try connection.execute("CREATE UNIQUE INDEX t_x ON t (x)")
        #expect(throws: SQLiteError.self) {
            try connection.transaction {
                try connection.execute("INSERT INTO t VALUES (1)")
                try connection.execute("INSERT INTO t VALUES (1)")
            }
        }
        #expect(try count() == .integer(0))
        #expect(connection.isAutocommit)
    }
}
