// Every element and attribute of the model format lands in the model (or its
// extras) with the meaning Core Data gives it.

import Foundation
import Testing
import Faultline

@Suite("Model files: every element and attribute maps to the model")
struct ModelFileMappingTests {
    let version: ModelBundleVersion

    init() throws {
        version = try ModelFileTestSupport.read(KitchenSinkModelFile.xml)
    }

    private func entity(_ name: String) throws -> EntityDescription {
        try #require(version.model.entitiesByName[name])
    }

    private func attribute(_ entity: String, _ name: String) throws -> AttributeDescription {
        try #require(try self.entity(entity).attributesByName[name])
    }

    @Test("the kitchen-sink file reads without warnings beyond the fetched property, and checks")
    func readsCleanly() throws {
        #expect(version.warnings.count == 1)
        #expect(version.warnings.first?.message.contains("fetched property 'similar'") == true)
        ModelFileTestSupport.registerTransformers()
        let checked = try version.model.checked()
        #expect(checked.entities.map(\.name) == ["Base", "Item", "Part", "Person"])
    }

    @Test("entities: name, represented class, parent, abstract, renaming id, hash modifier")
    func entities() throws {
        let base = try entity("Base"), item = try entity("Item"), part = try entity("Part")
        #expect(base.managedObjectClassName == "BaseMO")
        #expect(base.isAbstract && !item.isAbstract)
        #expect(item.superentity === base)
        #expect(base.subentities.map(\.name) == ["Item"])
        #expect(base.renamingIdentifier == "OldBase")
        #expect(base.versionHashModifier == "b1")
        #expect(part.managedObjectClassName == "Part")
        #expect(version.extras.codeGenerationTypes == ["Base": "class"])
    }

    @Test("every attribute type name maps to its AttributeType")
    func attributeTypeNames() throws {
        let expected: [(String, AttributeType)] = [
            ("Undefined", .undefinedAttributeType), ("Integer 16", .integer16AttributeType),
            ("Integer 32", .integer32AttributeType), ("Integer 64", .integer64AttributeType),
            ("Decimal", .decimalAttributeType), ("Double", .doubleAttributeType), ("Float", .floatAttributeType),
            ("String", .stringAttributeType), ("Boolean", .booleanAttributeType), ("Date", .dateAttributeType),
            ("Binary", .binaryDataAttributeType), ("UUID", .UUIDAttributeType), ("URI", .URIAttributeType),
            ("Transformable", .transformableAttributeType), ("ObjectID", .objectIDAttributeType),
        ]
        let attributes = expected.enumerated().map { index, entry in
            "<attribute name=\"a\(index)\" optional=\"YES\" transient=\"YES\" attributeType=\"\(entry.0)\"/>"
        }.joined(separator: "\n")
        let read = try ModelFileTestSupport.read("<model><entity name=\"E\">\(attributes)</entity></model>")
        let entity = try #require(read.model.entitiesByName["E"])
        for (index, entry) in expected.enumerated() {
            #expect(entity.attributesByName["a\(index)"]?.attributeType == entry.1, "\(entry.0)")
        }
        #expect(try attribute("Item", "colors").attributeType == .compositeAttributeType)
    }

    @Test("optional, transient and indexed default to NO, as Xcode writes them")
    func flags() throws {
        let count64 = try attribute("Item", "count64"), count16 = try attribute("Item", "count16")
        #expect(!count64.isOptional && count16.isOptional)
        #expect(count64.isIndexed && !count16.isIndexed)
        #expect(try attribute("Item", "scratch").isTransient)
        #expect(!count16.isTransient)
    }

    @Test("default values are typed per attribute type; dates are seconds since 2001")
    func defaults() throws {
        #expect(try attribute("Item", "count16").defaultAttributeValue == .integer(7))
        #expect(try attribute("Item", "count32").defaultAttributeValue == .integer(-70000))
        #expect(try attribute("Item", "count64").defaultAttributeValue == .integer(9_000_000_000))
        #expect(try attribute("Item", "price").defaultAttributeValue == .decimal(Decimal(string: "1.25")!))
        #expect(try attribute("Item", "ratio").defaultAttributeValue == .double(0.25))
        #expect(try attribute("Item", "weight").defaultAttributeValue == .double(2))
        #expect(try attribute("Item", "title").defaultAttributeValue == .string("Untitled"))
        #expect(try attribute("Item", "done").defaultAttributeValue == .bool(true))
        #expect(try attribute("Item", "token").defaultAttributeValue == .uuid(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!))
        #expect(try attribute("Item", "link").defaultAttributeValue == .uri(URL(string: "https://example.com/a?b=1&c=2")!))
        #expect(try attribute("Base", "createdAt").defaultAttributeValue == .date(Date(timeIntervalSinceReferenceDate: 86400.5)))
        #expect(try attribute("Item", "blob").defaultAttributeValue == nil)
    }

    @Test("bounds: numeric on numbers, lengths and pattern on strings, intervals on dates")
    func validationRules() throws {
        #expect(try attribute("Item", "count16").validationRules == [.minimumValue(.integer(-5)), .maximumValue(.integer(500))])
        #expect(try attribute("Item", "price").validationRules
                == [.minimumValue(.decimal(Decimal(string: "0.01")!)), .maximumValue(.integer(100))])
        #expect(try attribute("Item", "ratio").validationRules == [.minimumValue(.double(-1.5)), .maximumValue(.double(1.5))])
        #expect(try attribute("Item", "title").validationRules == [.minimumLength(1), .maximumLength(80), .pattern("[A-Za-z ]+")])
        #expect(try attribute("Base", "createdAt").validationRules
                == [.earliestDate(Date(timeIntervalSinceReferenceDate: 0)), .latestDate(Date(timeIntervalSinceReferenceDate: 1e9))])
        let dates = try ModelFileTestSupport.read("""
            <model><entity name="E"><attribute name="d" attributeType="Date" minValueString="10" maxValueString="20"/></entity></model>
            """)
        #expect(dates.model.entitiesByName["E"]?.attributesByName["d"]?.validationRules
                == [.earliestDate(Date(timeIntervalSinceReferenceDate: 10)), .latestDate(Date(timeIntervalSinceReferenceDate: 20))])
    }

    @Test("transformer, custom class, external storage, renaming identifier, hash modifier")
    func attributeDetails() throws {
        let tags = try attribute("Item", "tags")
        #expect(tags.valueTransformerName == "KitchenSinkTransformer")
        #expect(tags.attributeValueClassName == "[String]")
        #expect(try attribute("Item", "blob").allowsExternalBinaryDataStorage)
        let title = try attribute("Item", "title")
        #expect(title.renamingIdentifier == "name")
        #expect(title.versionHashModifier == "t2")
    }

    @Test("derived attributes carry their derivation expression")
    func derived() throws {
        let derived = try #require(try attribute("Item", "partCount") as? DerivedAttributeDescription)
        #expect(derived.derivationExpression == "parts.@count")
        #expect(derived.isReadOnly)
    }

    @Test("composite attributes expand their (nested) definitions; inline elements are accepted")
    func composites() throws {
        let colors = try #require(try attribute("Item", "colors") as? CompositeAttributeDescription)
        #expect(colors.elements.map(\.name) == ["primary", "accent"])
        let accent = try #require(colors.elements.last as? CompositeAttributeDescription)
        #expect(accent.elements.map(\.name) == ["hue", "saturation"])
        #expect((accent.elements.first as? AttributeDescription)?.defaultAttributeValue == .double(0.5))
        #expect(version.extras.compositeTypeNames == ["Item.colors": "ColorScheme", "Item.colors.accent": "Accent"])

        let inline = try ModelFileTestSupport.read("""
            <model><entity name="E"><attribute name="size" attributeType="Composite">
            <attribute name="width" optional="YES" attributeType="Integer 32"/>
            <attribute name="height" optional="YES" attributeType="Integer 32"/>
            </attribute></entity></model>
            """)
        let size = inline.model.entitiesByName["E"]?.attributesByName["size"] as? CompositeAttributeDescription
        #expect(size?.elements.map(\.name) == ["width", "height"])
        #expect(inline.warnings.isEmpty)
    }

    @Test("relationships: destination, inverse, to-many, ordered, counts, delete rule, optional")
    func relationships() throws {
        let item = try entity("Item"), person = try entity("Person"), part = try entity("Part")
        let owner = try #require(item.relationshipsByName["owner"])
        #expect(owner.destinationEntity === person)
        #expect(owner.inverseRelationship === person.relationshipsByName["items"])
        #expect(!owner.isToMany && owner.maxCount == 1 && owner.isOptional)
        #expect(owner.deleteRule == .nullifyDeleteRule)
        #expect(owner.renamingIdentifier == "holder" && owner.versionHashModifier == "r1")
        let parts = try #require(item.relationshipsByName["parts"])
        #expect(parts.isToMany && parts.isOrdered && parts.minCount == 1 && parts.maxCount == 10)
        #expect(parts.deleteRule == .cascadeDeleteRule)
        #expect(parts.inverseRelationship === part.relationshipsByName["item"])
        let related = try #require(item.relationshipsByName["related"])
        #expect(related.inverseRelationship === related && related.maxCount == 0)
        #expect(related.deleteRule == .noActionDeleteRule)
        #expect(person.relationshipsByName["items"]?.deleteRule == .denyDeleteRule)
        let required = try ModelFileTestSupport.read("""
            <model><entity name="A"><relationship name="b" maxCount="1" deletionRule="Nullify" destinationEntity="A" transient="YES"/></entity></model>
            """)
        let b = required.model.entitiesByName["A"]?.relationshipsByName["b"]
        #expect(b?.isOptional == false && b?.isTransient == true && b?.inverseRelationship == nil)
    }

    @Test("uniqueness constraints, fetch indexes, compound indexes and indexed flags")
    func constraintsAndIndexes() throws {
        let item = try entity("Item")
        #expect(item.uniquenessConstraints == [["title"], ["count16", "owner"]])
        #expect(item.indexes.map(\.name) == ["byTitle", "byRatio"])
        let byTitle = item.indexes[0].elements
        #expect(byTitle.map(\.propertyName) == ["title", "count64"])
        #expect(byTitle.map(\.isAscending) == [true, false])
        #expect(item.indexes[1].elements.first?.collationType == .rTree)
        #expect(item.compoundIndexes == [["count32", "done"]])
    }

    @Test("configurations, fetch request templates and fetched properties are kept in the extras")
    func extras() throws {
        let extras = version.extras
        #expect(extras.versionIdentifier == "v7")
        #expect(extras.configurations == [
            ModelConfiguration(name: "Local", entityNames: ["Item", "Part"]),
            ModelConfiguration(name: "Cloud", entityNames: ["Person"], isUsedWithCloudKit: true),
        ])
        let open = try #require(extras.fetchRequestTemplate(named: "OpenItems"))
        #expect(open.entityName == "Item")
        #expect(open.predicateString == "done == NO AND title BEGINSWITH \"A\"")
        #expect(open.options == ["fetchLimit": "20", "returnObjectsAsFaults": "NO"])
        let similar = try #require(extras.fetchedProperties["Item"]?.first)
        #expect(similar.name == "similar" && similar.isOptional)
        #expect(similar.fetchRequest.predicateString == "title == $FETCH_SOURCE.title")
        #expect(extras.layout.first?.name == "Item")
        #expect(extras.documentAttributes["lastSavedToolsVersion"] == "22522")
    }

    @Test("user info at the model, entity, attribute and relationship levels is kept and queryable")
    func userInfo() throws {
        #expect(version.userInfo() == ["schema": "kitchen-sink"])
        #expect(version.userInfo(entity: "Base") == ["role": "root"])
        #expect(version.userInfo(entity: "Item", property: "title") == ["label": "Title & \"name\""])
        #expect(version.userInfo(entity: "Item", property: "owner") == ["doc": "the owner"])
        #expect(version.userInfo(entity: "Item", property: "count16") == [:])
    }
}
