// Shared by the compiled-model suites: the fixture stores that carry a model
// cache, the compiled CartKit model, the raw bytes of each for the corruption
// tests, and a description of a checked model's differences for failure messages.

import Foundation
import Testing
import FaultlineSQLite
@testable import Faultline

enum CompiledModelFixtures {
    /// Every fixture store with a Z_MODELCACHE, and the committed model version
    /// whose schema the store matches (nil: none; the committed CartStorage
    /// model is CartKit's v2, the store v1).
    static let cachedStores: [(store: String, model: (ModelFileTestSupport.Fixture, version: String?)?)] = [
        (CoreDataStoreFixture.recipesStore, (.recipes, nil)),
        (CoreDataStoreFixture.groceryStore, (.groceryDude, "Model 6")),
        (CoreDataStoreFixture.easyLifeStore, (.easyLife, "EasyLife 1.5.0")),
        ("larromba__EasyLife/EasyLifeTests/EasyLife 1.3.0.sqlite", nil),
        ("larromba__EasyLife/EasyLifeTests/EasyLife.sqlite", nil),
        (CoreDataStoreFixture.cartKitStore, nil),
        (CoreDataStoreFixture.swiftDataStore, nil),
    ]

    /// What a store's schema depends on, per entity: attribute names, types and
    /// transformers, relationship destinations, inverses, cardinality, order
    /// and delete rules (not optionality, defaults or class names).
    static func structure(_ model: CheckedModel) -> [String: [String]] {
        var result: [String: [String]] = [:]
        for entity in model.entities {
            let parent = entity.superentityIndex.map { model.entities[$0].name } ?? "-"
            var lines = ["parent \(parent) abstract \(entity.isAbstract) unique \(entity.uniquenessConstraints)"]
            lines += entity.attributes.map {
                "attribute \($0.name) \($0.attributeType) transient \($0.isTransient) indexed \($0.isIndexed) "
                    + "transformer \($0.valueTransformerName ?? "-") external \($0.allowsExternalBinaryDataStorage)"
            }
            lines += entity.relationships.map { relationship in
                let destination = model.entities[relationship.destinationEntityIndex]
                let inverse = relationship.inverseIndex.map { destination.relationships[$0].name } ?? "-"
                return "relationship \(relationship.name) → \(destination.name) inverse \(inverse) toMany \(relationship.isToMany) "
                    + "ordered \(relationship.isOrdered) max \(relationship.maxCount) \(relationship.deleteRule)"
            }
            result[entity.name] = lines
        }
        return result
    }

    static let cartKitMOM = "Karim-ezzedine__CartKit/Sources/CartKitStorageCoreData/Resources/CartStorage.momd/CartStorage.mom"

    static func url(_ relative: String) throws -> URL {
        let url = try ModelFileTestSupport.coreDataStores().appendingPathComponent(relative)
        try #require(FileManager.default.fileExists(atPath: url.path), "fixture missing: \(url.path)")
        return url
    }

    /// The compressed Z_CONTENT blob of a fixture store.
    static func modelCacheBlob(_ store: String) throws -> Data {
        var configuration = Connection.Configuration()
        configuration.readOnly = true
        let connection = try Connection(.file(try url(store).path), configuration: configuration)
        guard case .blob(let blob)? = try connection.scalar("SELECT Z_CONTENT FROM Z_MODELCACHE") else {
            Issue.record("no Z_MODELCACHE blob in \(store)")
            return Data()
        }
        return blob
    }

    /// What differs between two checked models, entity by entity, for messages.
    static func differences(_ left: CheckedModel, _ right: CheckedModel) -> [String] {
        var lines: [String] = []
        let names = Set(left.entityIndexByName.keys).union(right.entityIndexByName.keys).sorted()
        for name in names {
            guard let a = left.entity(named: name), let b = right.entity(named: name) else {
                lines.append("\(name): only in one model")
                continue
            }
            for (x, y) in zip(a.attributes, b.attributes) where x != y { lines.append("\(name).\(x.name): \(x) ≠ \(y)") }
            for (x, y) in zip(a.relationships, b.relationships) where x != y { lines.append("\(name).\(x.name): \(x) ≠ \(y)") }
            if a.attributes.count != b.attributes.count || a.relationships.count != b.relationships.count {
                lines.append("\(name): property counts differ")
            }
            if a != b, lines.isEmpty { lines.append("\(name): \(a) ≠ \(b)") }
        }
        return lines
    }
}
