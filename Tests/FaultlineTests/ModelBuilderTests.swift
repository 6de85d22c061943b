import Foundation
import Testing
@testable import Faultline

@Suite("The declarative builder produces the same model as hand-written code")
struct ModelBuilderTests {
    @Test("builder and hand-built blog models check to equal snapshots and hashes")
    func builderEqualsHandBuilt() throws {
        let hand = try BlogModel.handBuilt().checked()
        let built = try BlogModel.declarative().checked()
        #expect(built == hand)
        #expect(built.versionHash == hand.versionHash)
        #expect(built.entityVersionHashes == hand.entityVersionHashes)
    }

    @Test("builder resolves destinations, inverses and parents by name")
    func resolvesNames() throws {
        let model = BlogModel.declarative()
        let article = try #require(model.entitiesByName["Article"])
        let category = try #require(article.relationshipsByName["category"])
        #expect(category.destinationEntity === model.entitiesByName["Category"])
        #expect(category.inverseRelationship?.name == "articles")
        #expect(category.inverseRelationship?.inverseRelationship === category)
        #expect(article.superentity === model.entitiesByName["Content"])
        #expect(article.propertiesByName["title"] != nil)
    }

    @Test("unknown destination, inverse and parent names become model errors")
    func unknownNamesAreReported() {
        let model = ManagedObjectModel {
            Entity("Post", parent: "Missing") {
                Relationship("author", to: "Nobody")
                Relationship("blog", to: "Blog", inverse: "nothing")
            }
            Entity("Blog") {}
        }
        let kinds = issues(of: model).map(\.kind)
        #expect(kinds.contains(.superentityNotInModel("Missing")))
        #expect(kinds.contains(.destinationEntityNotInModel("Nobody")))
        #expect(kinds.contains(.unknownInverseRelationship("nothing")))
    }

    @Test("a unique attribute inside a composite becomes a key-path constraint")
    func compositeUnique() throws {
        let model = ManagedObjectModel {
            Entity("Aircraft") {
                Composite("registration") {
                    Attribute("tailNumber", .string).unique()
                    Attribute("country", .string)
                }
            }
        }
        #expect(model.entitiesByName["Aircraft"]?.uniquenessConstraints == [["registration.tailNumber"]])
        let aircraft = try #require(try model.checked().entity(named: "Aircraft"))
        let leaf = try #require(aircraft.attribute(named: "registration.tailNumber"))
        #expect(aircraft.uniquenessConstraints == [[.attribute(leaf.index)]])
    }

    @Test("loops and conditionals work inside the builder")
    func controlFlow() throws {
        let includeNotes = false
        let model = ManagedObjectModel {
            for name in ["Alpha", "Beta"] {
                Entity(name) {
                    for index in 0..<3 { Attribute("field\(index)", .integer32) }
                    if includeNotes { Attribute("notes", .string) } else { Attribute("summary", .string) }
                }
            }
        }
        let checked = try model.checked()
        #expect(checked.entities.map(\.name) == ["Alpha", "Beta"])
        #expect(checked.entities[0].attributes.map(\.name) == ["field0", "field1", "field2", "summary"])
    }

    @Test("builder defaults match Core Data's: optional attributes, to-one nullify relationships")
    func defaults() throws {
        let model = ManagedObjectModel {
            Entity("A") {
                Attribute("x", .string)
                Relationship("b", to: "B")
            }
            Entity("B") {}
        }
        let a = try #require(model.entitiesByName["A"])
        #expect(a.attributesByName["x"]?.isOptional == true)
        let b = try #require(a.relationshipsByName["b"])
        #expect(b.maxCount == 1 && b.minCount == 0 && b.deleteRule == .nullifyDeleteRule && b.isOptional)
    }
}

@Suite("Builder modifiers map onto the description properties")
struct BuilderModifierTests {
    struct Point: Codable, Sendable, Equatable { var x, y: Int }

    @Test("every attribute modifier sets the matching Core Data property")
    func attributeModifiers() throws {
        ValueTransformerRegistry.register(CodableValueTransformer<[Int]>(), forName: "IntList")
        let model = ManagedObjectModel {
            Entity("Shape", className: "ShapeObject") {
                Attribute("cache", .string).transient()
                Attribute("code", .string).required().indexed().validated(.pattern("[A-Z]{3}"))
                Attribute("point", .undefinedAttributeType).codable(Point.self)
                Attribute("list", .binaryData).transformer("IntList")
                Attribute("blob", .binaryData).externalStorage()
                Attribute("size", .integer32).defaultValue(.integer(4))
                FetchIndex("byCode", .descending("code"), .ascending("size"))
            }
        }
        let shape = try #require(model.entitiesByName["Shape"])
        let attributes = shape.attributesByName
        #expect(shape.managedObjectClassName == "ShapeObject")
        #expect(attributes["cache"]?.isTransient == true)
        #expect(attributes["code"]?.isOptional == false && attributes["code"]?.isIndexed == true)
        #expect(attributes["code"]?.validationRules == [.pattern("[A-Z]{3}")])
        #expect(attributes["point"]?.attributeType == .transformableAttributeType)
        #expect(attributes["point"]?.attributeValueClassName == String(reflecting: Point.self))
        #expect(attributes["list"]?.valueTransformerName == "IntList")
        #expect(attributes["list"]?.attributeType == .transformableAttributeType)
        #expect(attributes["blob"]?.allowsExternalBinaryDataStorage == true)
        #expect(attributes["size"]?.defaultValue as? Int64 == 4)
        #expect(shape.indexes.first?.elements.map(\.isAscending) == [false, true])
        let checked = try model.checked()
        let index = try #require(checked.entities[0].fetchIndexes.first)
        #expect(index.elements.map(\.property) == [checked.entities[0].propertyByName["code"], checked.entities[0].propertyByName["size"]])
    }

    @Test("relationship options: ordered, bounded, required, delete rules")
    func relationshipOptions() throws {
        let model = ManagedObjectModel {
            Entity("Playlist") {
                Relationship("songs", to: "Song", inverse: "playlists", toMany: true, ordered: true,
                             optional: false, deleteRule: .deny, minCount: 1, maxCount: 100)
            }
            Entity("Song") {
                Relationship("playlists", to: "Playlist", inverse: "songs", toMany: true, deleteRule: .noAction)
            }
        }
        let songs = try #require(model.entitiesByName["Playlist"]?.relationshipsByName["songs"])
        #expect(songs.isOrdered && !songs.isOptional && songs.deleteRule == .denyDeleteRule)
        #expect(songs.minCount == 1 && songs.maxCount == 100 && songs.isToMany)
        let checked = try model.checked()
        #expect(checked.entity(named: "Playlist")?.relationship(named: "songs")?.isManyToMany == true)
    }
}
