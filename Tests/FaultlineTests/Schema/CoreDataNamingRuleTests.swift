import Foundation
import Testing
import FaultlineSQLite
@testable import Faultline

/// The naming and indexing rules read off real stores Core Data wrote (the
/// fixtures under `../shared/coredata-stores`, where `StoreCommandTests` checks
/// them store by store), each proven here on a small model so a clean clone
/// without the fixtures keeps them.
@Suite("Core Data's naming rules, as real stores show them")
struct CoreDataNamingRuleTests {
    private func schema(_ model: ManagedObjectModel) throws -> StoreSchema {
        try StoreSchema(compiling: model.checked())
    }

    private func index(_ name: String, in schema: StoreSchema) -> StoreIndex? {
        schema.indexes.first { $0.name == name }
    }

    @Test("A name several sub-entities declare: the first keeps it bare, the later ones are numbered from 1 (NoteStore's ZACCOUNT … ZACCOUNT5)")
    func collisionNumbering() throws {
        let schema = try schema(ManagedObjectModel {
            Entity("Object", abstract: true) { Attribute("identifier", .string) }
            Entity("Account", parent: "Object") { Relationship("owner", to: "Owner") }
            Entity("Folder", parent: "Object") { Relationship("owner", to: "Owner") }
            Entity("Note", parent: "Object") { Relationship("owner", to: "Owner") }
            Entity("Owner") { Attribute("name", .string) }
        })
        let columns = try #require(schema.tables.first { $0.name == "ZOBJECT" }).columns.map(\.name)
        #expect(columns.filter { $0.hasPrefix("ZOWNER") } == ["ZOWNER", "ZOWNER1", "ZOWNER2"])
        let names = ["Account", "Folder", "Note"].map { name -> String? in
            guard let mapping = schema.entity(named: name), let entity = schema.model.entity(named: name),
                  let relationship = entity.relationship(named: "owner"),
                  case .foreignKey(let column, _) = mapping.relationships[relationship.index] else { return nil }
            return column
        }
        #expect(names == ["ZOWNER", "ZOWNER1", "ZOWNER2"])
    }

    @Test("A many-to-many join table is named by the side with the lower entity number (Accounts3's Z_4SUPPORTEDDATACLASSES)")
    func joinTableNaming() throws {
        let schema = try schema(ManagedObjectModel {
            Entity("AccountType") {
                Relationship("supportedDataclasses", to: "Dataclass", inverse: "supportedTypes", toMany: true)
            }
            Entity("Dataclass") {
                Relationship("supportedTypes", to: "AccountType", inverse: "supportedDataclasses", toMany: true)
            }
        })
        let join = try #require(schema.tables.first { $0.name.hasPrefix("Z_") && $0.compositePrimaryKey != nil })
        #expect(join.name == "Z_1SUPPORTEDDATACLASSES")
        #expect(join.columns.map(\.name) == ["Z_1SUPPORTEDTYPES", "Z_2SUPPORTEDDATACLASSES"])
        #expect(index("Z_1SUPPORTEDDATACLASSES_Z_2SUPPORTEDDATACLASSES_INDEX", in: schema) != nil)
    }

    @Test("Compound indexes are <TABLE>_<COLUMN>_<COLUMN>, on the root's table for an inherited one, and a fetch index over the same columns wins (Moody, knowledgeC)")
    func compoundIndexes() throws {
        let schema = try schema(ManagedObjectModel {
            Entity("Region", abstract: true) {
                Attribute("deletedAt", .date)
                Attribute("updatedAt", .date)
                CompoundIndex("deletedAt", "updatedAt")
            }
            Entity("Country", parent: "Region") { Attribute("code", .integer16) }
            Entity("Mood") {
                Attribute("date", .date)
                Attribute("remote", .boolean)
                Attribute("name", .string)
                CompoundIndex("remote", "date")
                CompoundIndex("name", "date")
                FetchIndex("byNameAndDate", .ascending("name"), .ascending("date"))
            }
        })
        let region = try #require(index("ZREGION_ZDELETEDAT_ZUPDATEDAT", in: schema))
        #expect(region.table == "ZREGION")
        #expect(region.terms == ["ZDELETEDAT", "ZUPDATEDAT"])
        #expect(region.createStatement == "CREATE INDEX ZREGION_ZDELETEDAT_ZUPDATEDAT ON ZREGION (ZDELETEDAT, ZUPDATEDAT)")
        #expect(schema.indexes.filter { $0.kind == .compoundIndex }.map(\.name)
                == ["ZMOOD_ZREMOTE_ZDATE", "ZREGION_ZDELETEDAT_ZUPDATEDAT"])
        #expect(index("Z_Mood_byNameAndDate", in: schema) != nil)
    }

    @Test("A compound index in a model file reads as one, writes back as one, and leaves other entities' version hashes alone")
    func compoundIndexModelFile() throws {
        let xml = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
            <entity name="Mood">
                <attribute name="date" attributeType="Date"/>
                <attribute name="remote" attributeType="Boolean"/>
                <compoundIndexes><compoundIndex><index value="remote"/><index value="date"/></compoundIndex></compoundIndexes>
            </entity>
            <entity name="Plain"><attribute name="date" attributeType="Date"/></entity>
        </model>
        """
        let version = try ModelFileReader().readContents(Data(xml.utf8), versionName: "Moody")
        let mood = try #require(version.model.entitiesByName["Mood"])
        #expect(mood.compoundIndexes == [["remote", "date"]])
        #expect(mood.indexes.isEmpty)
        let written = try ModelFileWriter().contents(of: version.model, extras: version.extras)
        #expect(String(decoding: written, as: UTF8.self).contains("<compoundIndex>"))
        let again = try ModelFileReader().readContents(written, versionName: "Moody")
        #expect(again.model.entitiesByName["Mood"]?.compoundIndexes == [["remote", "date"]])

        let plainOnly = try ModelFileReader().readContents(Data(xml.replacingOccurrences(
            of: "<compoundIndexes><compoundIndex><index value=\"remote\"/><index value=\"date\"/></compoundIndex></compoundIndexes>",
            with: "").utf8), versionName: "Moody")
        let hashes = try version.model.checked().entityVersionHashes
        let withoutIndex = try plainOnly.model.checked().entityVersionHashes
        #expect(hashes["Plain"] == withoutIndex["Plain"])
        #expect(hashes["Mood"] != withoutIndex["Mood"])
    }

    @Test("A fetch index over exactly a to-one's key column is not made twice; two fetch indexes over one attribute both are (Accounts3, Screen Time)")
    func fetchIndexOverKey() throws {
        let schema = try schema(ManagedObjectModel {
            Entity("Usage") {
                Relationship("user", to: "User")
                Attribute("start", .date)
                FetchIndex("byUser", .ascending("user"))
                FetchIndex("start", .ascending("start"))
                FetchIndex("byStart", .ascending("start"))
            }
            Entity("User") { Attribute("name", .string) }
        })
        #expect(index("ZUSAGE_ZUSER_INDEX", in: schema) != nil)
        #expect(index("Z_Usage_byUser", in: schema) == nil)
        #expect(index("Z_Usage_start", in: schema) != nil)
        #expect(index("Z_Usage_byStart", in: schema) != nil)
    }

    @Test("A fetch index may name a to-many relationship, as Xcode compiles an indexed to-many; it indexes nothing")
    func fetchIndexOverToMany() throws {
        let schema = try schema(ManagedObjectModel {
            Entity("Account") {
                Relationship("children", to: "Account", inverse: "parent", toMany: true)
                Relationship("parent", to: "Account", inverse: "children")
                FetchIndex("children", .ascending("children"))
            }
        })
        #expect(index("Z_Account_children", in: schema) == nil)
    }

    @Test("A sub-entity's unique index is whole-table over its own columns and partial over inherited ones (CoreDataPlus's Z_Author_UNIQUE_alias)")
    func subEntityConstraints() throws {
        let schema = try schema(ManagedObjectModel {
            Entity("Writer") { Attribute("name", .string) }
            Entity("Author", parent: "Writer") {
                Attribute("alias", .string)
                Unique("alias")
                Unique("name")
            }
        })
        let own = try #require(index("Z_Author_UNIQUE_alias", in: schema))
        #expect(own.whereClause == nil)
        let inherited = try #require(index("Z_Author_UNIQUE_name", in: schema))
        #expect(inherited.whereClause == "Z_ENT IN (2)")
    }

    @Test("Z_PRIMARYKEY may keep a renamed entity's former name (a store Core Data migrated: CoreDataPlus's ExpensiveSportCar, now LuxuryCar)")
    func renamedEntityRow() throws {
        let model = ManagedObjectModel {
            Entity("Car") { Attribute("plate", .string) }
            Entity("LuxuryCar", parent: "Car") { Attribute("price", .double) }
        }
        model.entitiesByName["LuxuryCar"]?.renamingIdentifier = "ExpensiveSportCar"
        let checked = try model.checked()
        let connection = try Connection(.inMemory)
        try connection.execute("CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)")
        try connection.execute("INSERT INTO Z_PRIMARYKEY VALUES (1, 'Car', 0, 0), (2, 'ExpensiveSportCar', 1, 0)")
        #expect(try CoreDataStoreMatcher.entityNumberDifferences(store: connection, model: checked).isEmpty)
        try connection.execute("UPDATE Z_PRIMARYKEY SET Z_NAME = 'Bicycle' WHERE Z_ENT = 2")
        #expect(try CoreDataStoreMatcher.entityNumberDifferences(store: connection, model: checked)
                == [.entityNumberDiffers(entityNumber: 2, store: "Bicycle (sub-entity of 1)", model: "LuxuryCar (sub-entity of 1)")])
    }
}
