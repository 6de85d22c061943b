import Foundation
import Testing
@testable import Faultline

/// The statement a fault fires: one object by key reads its row with
/// `WHERE t0.Z_PK = ?`, Core Data's statement for one fault; many keys at
/// once go in as one bound JSON array. Recorded from the statement cache of
/// an in-memory store's one connection, which every read uses.
@Suite("Fault statements")
struct FaultStatementTests {
    static func model() -> ManagedObjectModel {
        ManagedObjectModel {
            Entity("Dossier") {
                Attribute("name", .string)
                Attribute("pages", .integer64)
            }
        }
    }

    @Test("One object by key: one statement, WHERE t0.Z_PK = ?, no JSON; two keys: one statement through json_each")
    func singleAndMany() throws {
        let container = try PersistentContainer(model: Self.model(), location: .inMemory)
        let coordinator = container.coordinator
        let entity = try #require(coordinator.model.entity(named: "Dossier")).index
        let plan = coordinator.plans[entity]
        #expect(plan.selectByKey == "SELECT t0.Z_ENT, t0.Z_PK, t0.Z_OPT, t0.ZNAME, t0.ZPAGES FROM ZDOSSIER t0 WHERE t0.Z_PK = ?")
        #expect(plan.selectByKeys == "SELECT t0.Z_ENT, t0.Z_PK, t0.Z_OPT, t0.ZNAME, t0.ZPAGES FROM ZDOSSIER t0"
                + " WHERE t0.Z_PK IN (SELECT value FROM json_each(?))")
        let writer = container.newBackgroundContext()
        let ids = try writer.performAndWait {
            let dossiers = try (1...3).map { number -> ManagedObject in
                let dossier = try writer.insertNewObject(forEntityName: "Dossier")
                try dossier.setValue("D\(number)", forKey: "name")
                try dossier.setValue(Int64(number), forKey: "pages")
                return dossier
            }
            try writer.save()
            return dossiers.map(\.objectID)
        }
        coordinator.rowCache.removeAll()
        try coordinator.writer.withConnection { $0.statementCache.removeAll() }

        let context = container.newBackgroundContext()
        let before = coordinator.writer.counters.statementsExecuted
        let name = try context.performAndWait { try context.existingObject(with: ids[1]).value(forKey: "name") as? String }
        #expect(name == "D2")
        #expect(coordinator.writer.counters.statementsExecuted == before + 1)
        try coordinator.writer.withConnection { connection in
            #expect(connection.statementCache.contains(plan.selectByKey))
            #expect(!connection.statementCache.contains(plan.selectByKeys))
        }

        let rows = try coordinator.rows(for: [ids[0], ids[2]])
        #expect(Set(rows.map(\.0)) == [ids[0], ids[2]])
        try coordinator.writer.withConnection { #expect($0.statementCache.contains(plan.selectByKeys)) }
        #expect(try coordinator.rows(for: [ids[1]]).map(\.0) == [ids[1]])
    }
}
