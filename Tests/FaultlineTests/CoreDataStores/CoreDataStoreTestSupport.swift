// Shared by the CoreDataStore suites: the fixture stores that have a matching
// model, copying and opening them, and reading what `sqlite3` shows for a row
// with a plain FaultlineSQLite `Connection` (independently of the coordinator).

import Foundation
import Testing
import FaultlineSQLite
@testable import Faultline

/// A Core Data store fixture with the model that wrote it.
struct CoreDataStoreFixture: Sendable, CustomTestStringConvertible {
    let name: String
    /// Under `shared/coredata-stores`.
    let storePath: String
    let model: @Sendable () throws -> ManagedObjectModel
    /// Entity of an existing row the save test deletes (nil: none is safe).
    var deletable: String?
    /// How the save tests open it.
    var options = CoreDataStoreOptions()

    var testDescription: String { name }

    static let recipesStore = "alhoqbani__AppleSample-iPhoneCoreDataRecipes/Recipes/Recipes.sqlite"
    static let groceryStore = "linjk__JimGroceryDude/JimGroceryDude/Model/DataModel/DefaultData.sqlite"
    static let easyLifeStore = "larromba__EasyLife/EasyLifeTests/EasyLife 1.5.0.sqlite"
    static let cartKitStore = "Karim-ezzedine__CartKit/Tests/CartKitStorageCoreDataTests/LegacyCoreData/CartStorage_v1.sqlite"
    static let swiftDataStore =
        "Karim-ezzedine__CartKit/Tests/CartKitStorageSwiftDataTests/LegacySwiftData/CartKitSwiftData_v1.sqlite"

    /// Every fixture store that has a matching model (models built in code),
    /// plus two opened with the model read from the fixture's model file.
    static let all: [CoreDataStoreFixture] = [
        CoreDataStoreFixture(name: "Recipes (code model)", storePath: recipesStore,
                             model: { RecipesFixtureModel.model() }, deletable: "Ingredient"),
        CoreDataStoreFixture(name: "Recipes (model file)", storePath: recipesStore,
                             model: { try modelFile(.recipes, version: nil) }, deletable: "Ingredient"),
        CoreDataStoreFixture(name: "Grocery Dude model 6 (code model)", storePath: groceryStore,
                             model: { GroceryDudeFixtureModel.model() }, deletable: "Item"),
        CoreDataStoreFixture(name: "Grocery Dude model 6 (model file)", storePath: groceryStore,
                             model: { try modelFile(.groceryDude, version: "Model 6") }, deletable: "Item"),
        CoreDataStoreFixture(name: "EasyLife 1.5.0 (code model)", storePath: easyLifeStore,
                             model: { EasyLifeFixtureModel.model() }, deletable: "TodoItem"),
        CoreDataStoreFixture(name: "EasyLife 1.5.0 (model file)", storePath: easyLifeStore,
                             model: { try modelFile(.easyLife, version: "EasyLife 1.5.0") }, deletable: "TodoItem"),
        CoreDataStoreFixture(name: "CartKit Core Data v1 (code model)", storePath: cartKitStore,
                             model: { CartKitFixtureModels.coreDataV1() }, deletable: nil),
        // SwiftData records persistent history: the saves record theirs too.
        CoreDataStoreFixture(name: "CartKit SwiftData v1 (code model)", storePath: swiftDataStore,
                             model: { CartKitFixtureModels.swiftDataV1() }, deletable: nil),
    ]

    /// A version of a fixture's `.xcdatamodeld`, read with `ModelFileReader`
    /// (the current one when `version` is nil).
    static func modelFile(_ fixture: ModelFileTestSupport.Fixture, version: String?) throws -> ManagedObjectModel {
        // The Recipes model names ImageToDataTransformer: register it first.
        _ = RecipesFixtureModel.model()
        let bundle = try ModelFileReader().read(at: try ModelFileTestSupport.fixture(fixture))
        let chosen = try #require(version.map { bundle.version(named: $0) } ?? bundle.current,
                                  "no version \(version ?? "current") in \(fixture)")
        return chosen.model
    }
}

/// A copy of a fixture store in its own temporary directory.
struct StoreCopy {
    let directory: URL
    let url: URL

    init(_ storePath: String) throws {
        directory = try FixtureLocator.makeTemporaryDirectory()
        url = URL(fileURLWithPath: try FixtureLocator.copyStore(storePath, into: directory))
    }

    func remove() { try? FileManager.default.removeItem(at: directory) }

    /// A plain connection on the copy, as `sqlite3` reads it.
    func connection() throws -> Connection { try Connection(.file(url.path)) }
}

enum RawStore {
    /// What `sqlite3` shows for one column, as the attribute's value: Core
    /// Data's encodings undone by hand (not through ValueCoding).
    static func expected(_ raw: SQLValue, for attribute: CheckedAttribute) -> AttributeValue {
        if case .null = raw { return .null }
        switch (attribute.attributeType, raw) {
        case (.integer16AttributeType, .integer(let value)), (.integer32AttributeType, .integer(let value)),
             (.integer64AttributeType, .integer(let value)):
            return .integer(value)
        case (.booleanAttributeType, .integer(let value)):
            return .bool(value != 0)
        case (.doubleAttributeType, .real(let value)), (.floatAttributeType, .real(let value)):
            return .double(value)
        case (.doubleAttributeType, .integer(let value)), (.floatAttributeType, .integer(let value)):
            return .double(Double(value))
        case (.dateAttributeType, .real(let seconds)):
            return .date(Date(timeIntervalSinceReferenceDate: seconds))
        case (.dateAttributeType, .integer(let seconds)):
            return .date(Date(timeIntervalSinceReferenceDate: Double(seconds)))
        case (.stringAttributeType, .text(let text)):
            return .string(text)
        case (.URIAttributeType, .text(let text)):
            return URL(string: text).map { .uri($0) } ?? .string("<not a URI: \(text)>")
        case (.decimalAttributeType, .integer(let value)):
            return .decimal(Decimal(value))
        case (.decimalAttributeType, .real(let value)):
            return Decimal(string: String(value)).map { .decimal($0) } ?? .null
        case (.decimalAttributeType, .text(let text)):
            return Decimal(string: text).map { .decimal($0) } ?? .null
        case (.UUIDAttributeType, .blob(let bytes)) where bytes.count == 16:
            return .uuid(UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                                     bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15])))
        case (.binaryDataAttributeType, .blob(let bytes)) where attribute.allowsExternalBinaryDataStorage:
            return bytes.first == 1 ? .data(Data(bytes.dropFirst())) : .data(bytes)
        case (.binaryDataAttributeType, .blob(let bytes)), (.transformableAttributeType, .blob(let bytes)):
            return .data(bytes)
        default:
            return .string("<unexpected \(raw) for \(attribute.attributeType)>")
        }
    }

    /// Rows of `table` with `Z_ENT = number`: Z_PK, Z_OPT, then `columns`, by Z_PK.
    static func rows(_ connection: Connection, table: String, entityNumber: Int, columns: [String]) throws
        -> [Int64: (version: Int64, values: [SQLValue])]
    {
        let list = (["Z_PK", "Z_OPT"] + columns).joined(separator: ", ")
        var result: [Int64: (Int64, [SQLValue])] = [:]
        for row in try connection.rows("SELECT \(list) FROM \(table) WHERE Z_ENT = ?", [.integer(Int64(entityNumber))]) {
            guard case .integer(let pk) = row[0], case .integer(let version) = row[1] else { continue }
            result[pk] = (version, Array(row.dropFirst(2)))
        }
        return result
    }

    static func integer(_ connection: Connection, _ sql: String, _ values: [SQLValue] = []) throws -> Int64? {
        if case .integer(let value)? = try connection.scalar(sql, values) { return value }
        return nil
    }

    /// Every row of every join table (`Z_<n><NAME>`), by table.
    static func joinRows(_ connection: Connection) throws -> [String: [[SQLValue]]] {
        var result: [String: [[SQLValue]]] = [:]
        for row in try connection.rows("SELECT name FROM sqlite_master WHERE type = 'table'") {
            guard case .text(let table)? = row.first, table.hasPrefix("Z_"),
                  table.dropFirst(2).first?.isNumber == true else { continue }
            result[table] = try connection.rows("SELECT * FROM \(table)")
        }
        return result
    }
}
