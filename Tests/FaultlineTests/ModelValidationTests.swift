import Foundation
import Testing
@testable import Faultline

private typealias M = BlogModel

/// Whether `issues` holds an issue of `kind` about `entity` (and `property`).
private func has(_ issues: [ModelIssue], _ kind: ModelIssue.Kind, entity: String, property: String? = nil) -> Bool {
    issues.contains { $0.kind == kind && $0.entity == entity && (property == nil || $0.property == property) }
}

@Suite("checked() reports every model problem at once, with names")
struct ModelValidationTests {
    @Test("one broken model: every problem is reported in a single error")
    func everythingAtOnce() throws {
        let shop = EntityDescription()
        shop.name = "Shop"
        let dup = EntityDescription()
        dup.name = "Shop"
        let outsider = EntityDescription()
        outsider.name = "Outsider"

        let badName = M.attribute("2fast", .stringAttributeType)
        let reserved = M.attribute("objectID", .stringAttributeType)
        let pk = M.attribute("_pk", .integer64AttributeType)
        let first = M.attribute("title", .stringAttributeType)
        let second = M.attribute("title", .stringAttributeType)
        let toOutsider = M.relationship("owner", to: outsider, maxCount: 1)
        let noDestination = RelationshipDescription()
        noDestination.name = "nowhere"
        let counts = M.relationship("items", to: shop, maxCount: 2)
        counts.minCount = 3
        let range = M.attribute("price", .decimalAttributeType)
        range.validationRules = [.minimumValue(.decimal(10)), .maximumValue(.integer(5))]
        let regex = M.attribute("code", .stringAttributeType)
        regex.validationRules = [.pattern("([a-z"), .minimumLength(5), .maximumLength(2)]
        shop.properties = [badName, reserved, pk, first, second, toOutsider, noDestination, counts, range, regex]
        shop.uniquenessConstraints = [["missing"], ["items"]]

        let model = ManagedObjectModel()
        model.entities = [shop, dup]
        let error = try #require(throws: ModelError.self) { try model.checked() }
        let found = error.issues
        #expect(has(found, .duplicateEntityName("Shop"), entity: "Shop"))
        #expect(has(found, .invalidIdentifier("2fast"), entity: "Shop", property: "2fast"))
        #expect(has(found, .reservedName("objectID"), entity: "Shop", property: "objectID"))
        #expect(has(found, .reservedName("_pk"), entity: "Shop", property: "_pk"))
        #expect(has(found, .duplicatePropertyName("title"), entity: "Shop", property: "title"))
        #expect(has(found, .destinationEntityNotInModel("Outsider"), entity: "Shop", property: "owner"))
        #expect(has(found, .missingDestinationEntity, entity: "Shop", property: "nowhere"))
        #expect(has(found, .minCountExceedsMaxCount(min: 3, max: 2), entity: "Shop", property: "items"))
        #expect(has(found, .numericBoundsInverted(minimum: .decimal(10), maximum: .integer(5)), entity: "Shop", property: "price"))
        #expect(has(found, .invalidRegularExpression("([a-z"), entity: "Shop", property: "code"))
        #expect(has(found, .lengthBoundsInverted(minimum: 5, maximum: 2), entity: "Shop", property: "code"))
        #expect(has(found, .constraintUnknownProperty("missing"), entity: "Shop"))
        #expect(has(found, .constraintOnToManyRelationship("items"), entity: "Shop"))
        #expect(found.count >= 13)
        #expect(error.contains(.missingDestinationEntity) && !error.contains(.emptyConstraint))
        #expect(error.description.contains("Shop.owner: destination entity 'Outsider' is not in the model"))
        withExtendedLifetime(outsider) {}
    }

    @Test("names: missing, empty, not identifiers, store columns and ManagedObject members")
    func names() {
        for (name, kind) in [("", ModelIssue.Kind.missingName), ("9lives", .invalidIdentifier("9lives")),
                             ("with space", .invalidIdentifier("with space")), ("café", .invalidIdentifier("café")),
                             ("Z_PK", .reservedName("Z_PK")), ("z_ent", .reservedName("z_ent")),
                             ("_opt", .reservedName("_opt")), ("entity", .reservedName("entity")),
                             ("isFault", .reservedName("isFault")), ("description", .reservedName("description"))] {
            let found = issues(of: M.single([M.attribute(name, .stringAttributeType)]))
            #expect(found.map(\.kind).contains(kind), "name \(name)")
        }
        let unnamed = EntityDescription()
        let model = ManagedObjectModel()
        model.entities = [unnamed]
        #expect(issues(of: model).map(\.kind) == [.missingName])
        #expect(issues(of: M.single([], named: "_PRIMARYKEY")).map(\.kind) == [.reservedName("_PRIMARYKEY")])
    }

    @Test("root entities whose names differ only in case are refused: their tables would be one; sub-entities share their root's")
    func tableNameClash() throws {
        let clashing = ManagedObjectModel {
            Entity("Item") { Attribute("name", .string) }
            Entity("ITEM") { Attribute("name", .string) }
            Entity("item") { Attribute("name", .string) }
        }
        let error = try #require(throws: ModelError.self) { try clashing.checked() }
        #expect(has(error.issues, .tableNameClash("Item", "ITEM"), entity: "ITEM"))
        #expect(has(error.issues, .tableNameClash("Item", "item"), entity: "item"))
        #expect(error.issues.count == 2)
        let inherited = ManagedObjectModel {
            Entity("Item") { Attribute("name", .string) }
            Entity("ITEM", parent: "Item") { Attribute("size", .integer64) }
        }
        #expect(throws: Never.self) { try inherited.checked() }
        let container = try PersistentContainer(model: inherited, location: .inMemory)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            try context.insertNewObject(forEntityName: "ITEM").setValue("big", forKey: "name")
            try context.insertNewObject(forEntityName: "Item").setValue("small", forKey: "name")
            try context.save()
            #expect(try context.count(for: FetchRequest(entityName: "Item")) == 2)
        }
    }

    @Test("the same property instance listed twice is a duplicate")
    func sameInstanceTwice() {
        let name = M.attribute("name", .stringAttributeType)
        #expect(issues(of: M.single([name, name])).map(\.kind) == [.duplicatePropertyName("name")])
    }

    @Test("a property repeating an inherited name is a duplicate")
    func inheritedDuplicate() {
        let parent = EntityDescription()
        parent.name = "Animal"
        parent.properties = [M.attribute("name", .stringAttributeType)]
        let child = EntityDescription()
        child.name = "Dog"
        child.properties = [M.attribute("name", .stringAttributeType)]
        parent.subentities = [child]
        let model = ManagedObjectModel()
        model.entities = [parent, child]
        #expect(has(issues(of: model), .duplicatePropertyName("name"), entity: "Dog", property: "name"))
    }

    @Test("inverses must point back, and connect the right entities")
    func inverses() {
        let a = EntityDescription(), b = EntityDescription(), c = EntityDescription()
        a.name = "A"; b.name = "B"; c.name = "C"
        let ab = M.relationship("toB", to: b, maxCount: 1)
        let ba = M.relationship("toA", to: a, maxCount: 0)
        let bc = M.relationship("toC", to: c, maxCount: 1)
        ab.inverseRelationship = ba            // ba.inverse is not ab
        ba.inverseRelationship = bc            // bc lives on B, not on A
        a.properties = [ab]
        b.properties = [ba, bc]
        let model = ManagedObjectModel()
        model.entities = [a, b, c]
        let found = issues(of: model)
        #expect(has(found, .inverseNotReciprocal(inverse: "toA"), entity: "A", property: "toB"))
        #expect(has(found, .inverseNotReciprocal(inverse: "toC"), entity: "B", property: "toA"))
        #expect(has(found, .inverseEntityMismatch(inverse: "toC"), entity: "B", property: "toA"))
    }

    @Test("a reflexive relationship may be its own inverse")
    func selfInverse() throws {
        let person = EntityDescription()
        person.name = "Person"
        let spouse = M.relationship("spouse", to: person, maxCount: 1)
        spouse.inverseRelationship = spouse
        person.properties = [spouse]
        let model = ManagedObjectModel()
        model.entities = [person]
        let checked = try model.checked()
        #expect(checked.entities[0].relationships[0].inverseIndex == 0)
    }

    @Test("negative relationship counts are rejected; maxCount 0 means unbounded")
    func counts() {
        let thing = EntityDescription()
        thing.name = "Thing"
        let negative = M.relationship("bad", to: thing, maxCount: -1)
        let unbounded = M.relationship("many", to: thing, maxCount: 0)
        unbounded.minCount = 5
        thing.properties = [negative, unbounded]
        let model = ManagedObjectModel()
        model.entities = [thing]
        let found = issues(of: model)
        #expect(has(found, .negativeCount(min: 0, max: -1), entity: "Thing", property: "bad"))
        #expect(!found.contains { $0.property == "many" })
    }

    @Test("composites: relationships, derived attributes, no elements, cycles")
    func composites() {
        let target = EntityDescription()
        target.name = "Target"
        let inner = CompositeAttributeDescription()
        inner.name = "inner"
        let outer = CompositeAttributeDescription()
        outer.name = "outer"
        outer.elements = [M.relationship("link", to: target, maxCount: 1), inner,
                          M.derived("calc", .stringAttributeType, "now()")]
        inner.elements = [outer]                      // would be a cycle: refused
        let model = M.single([outer])
        model.entities.append(target)
        let found = issues(of: model)
        #expect(has(found, .compositeContainsRelationship("link"), entity: "Thing", property: "outer"))
        #expect(has(found, .compositeContainsDerivedAttribute("calc"), entity: "Thing", property: "outer"))
        #expect(has(found, .compositeCycle("outer"), entity: "Thing", property: "outer.inner"))
        #expect(has(found, .compositeWithoutElements, entity: "Thing", property: "outer.inner"))
        #expect(inner.elements.isEmpty)
    }

    @Test("attribute types, transformers and default values")
    func attributeTypes() {
        struct Opaque {}
        let undefined = M.attribute("blob", .undefinedAttributeType)
        let objectID = M.attribute("ref", .objectIDAttributeType)
        let transformable = M.attribute("shape", .transformableAttributeType)
        let unregistered = M.attribute("color", .transformableAttributeType)
        unregistered.valueTransformerName = "NoSuchTransformer"
        let wrongDefault = M.attribute("count", .integer16AttributeType)
        wrongDefault.defaultValue = 70_000
        let opaqueDefault = M.attribute("thing", .stringAttributeType)
        opaqueDefault.defaultValue = Opaque()
        let wrongRule = M.attribute("flag", .booleanAttributeType)
        wrongRule.validationRules = [.minimumLength(1)]
        let found = issues(of: M.single([undefined, objectID, transformable, unregistered, wrongDefault, opaqueDefault, wrongRule]))
        #expect(has(found, .unsupportedAttributeType(.undefinedAttributeType), entity: "Thing", property: "blob"))
        #expect(has(found, .unsupportedAttributeType(.objectIDAttributeType), entity: "Thing", property: "ref"))
        // Core Data's default transformer: not a problem.
        #expect(!found.contains { $0.property == "shape" })
        #expect(has(found, .unregisteredTransformer("NoSuchTransformer"), entity: "Thing", property: "color"))
        #expect(has(found, .defaultValueTypeMismatch(.integer16AttributeType), entity: "Thing", property: "count"))
        #expect(has(found, .defaultValueNotConvertible(typeName: "Opaque"), entity: "Thing", property: "thing"))
        #expect(has(found, .ruleDoesNotApply(.minimumLength(1), .booleanAttributeType), entity: "Thing", property: "flag"))
    }

    @Test("valid transformables: a Codable type, or a registered transformer name")
    func transformables() throws {
        struct Point: Codable, Sendable { var x, y: Double }
        let codable = M.attribute("point", .undefinedAttributeType)
        codable.setCodableValueType(Point.self)
        ValueTransformerRegistry.register(CodableValueTransformer<[String]>(), forName: "StringList")
        let named = M.attribute("names", .transformableAttributeType)
        named.valueTransformerName = "StringList"
        let checked = try M.single([codable, named]).checked()
        let point = try #require(checked.entities[0].attribute(named: "point"))
        #expect(point.attributeType == .transformableAttributeType)
        let transformerName = try #require(point.valueTransformerName)
        let transformer = try #require(ValueTransformerRegistry.transformer(forName: transformerName))
        let data = try transformer.encode(Point(x: 1, y: 2))
        #expect((try transformer.decode(data) as? Point)?.y == 2)
    }

    @Test("temporal and transient rules: date bounds, undefined transient allowed, transient constraint refused")
    func datesAndTransients() {
        let date = M.attribute("when", .dateAttributeType)
        date.validationRules = [.earliestDate(Date(timeIntervalSince1970: 100)), .latestDate(Date(timeIntervalSince1970: 50))]
        let scratch = M.attribute("scratch", .undefinedAttributeType)
        scratch.isTransient = true
        let model = M.single([date, scratch])
        model.entities[0].uniquenessConstraints = [["scratch"], []]
        let found = issues(of: model)
        #expect(has(found, .dateBoundsInverted, entity: "Thing", property: "when"))
        #expect(!found.contains { $0.kind == .unsupportedAttributeType(.undefinedAttributeType) })
        #expect(has(found, .constraintOnUnsupportedProperty("scratch"), entity: "Thing"))
        #expect(has(found, .emptyConstraint, entity: "Thing"))
    }

    @Test("compound indexes: unknown properties, to-many relationships and empty ones refused")
    func compoundIndexes() {
        let thing = EntityDescription()
        thing.name = "Thing"
        let many = M.relationship("children", to: thing, maxCount: 0)
        thing.properties = [M.attribute("name", .stringAttributeType), many]
        thing.compoundIndexes = [["ghost"], ["children", "name"], [], ["name"]]
        let model = ManagedObjectModel()
        model.entities = [thing]
        let found = issues(of: model)
        #expect(has(found, .compoundIndexUnknownProperty("ghost"), entity: "Thing"))
        #expect(has(found, .compoundIndexOnUnsupportedProperty("children"), entity: "Thing"))
        #expect(has(found, .emptyCompoundIndex, entity: "Thing"))
        #expect(found.count == 3, "\(found)")
    }

    @Test("fetch indexes: unknown properties and empty or duplicate names refused, a to-many accepted")
    func fetchIndexes() {
        let thing = EntityDescription()
        thing.name = "Thing"
        let many = M.relationship("children", to: thing, maxCount: 0)
        thing.properties = [M.attribute("name", .stringAttributeType), many]
        thing.indexes = [
            FetchIndexDescription(name: "byGhost", elements: [FetchIndexElementDescription(propertyName: "ghost")]),
            FetchIndexDescription(name: "byChildren", elements: [FetchIndexElementDescription(property: many, collationType: .binary)]),
            FetchIndexDescription(name: "empty", elements: []),
            FetchIndexDescription(name: "empty", elements: [FetchIndexElementDescription(propertyName: "name")]),
        ]
        let model = ManagedObjectModel()
        model.entities = [thing]
        let found = issues(of: model)
        #expect(has(found, .fetchIndexUnknownProperty(index: "byGhost", property: "ghost"), entity: "Thing"))
        // Core Data accepts a to-many in a fetch index (Xcode compiles an indexed
        // to-many into one); it indexes nothing.
        #expect(!found.contains { $0.property == "children" })
        #expect(has(found, .emptyFetchIndex("empty"), entity: "Thing"))
        #expect(has(found, .duplicateFetchIndexName("empty"), entity: "Thing"))
    }

    @Test("inheritance: cycles refused when set, sub-entities and superentities outside the model")
    func inheritance() {
        let a = EntityDescription(), b = EntityDescription(), c = EntityDescription()
        a.name = "A"; b.name = "B"; c.name = "C"
        a.subentities = [b]
        b.subentities = [a]                 // cycle: refused
        b.subentities = [c]                 // c is not in the model
        #expect(b.subentities.count == 1 && a.superentity == nil)
        let model = ManagedObjectModel()
        model.entities = [a, b]
        let found = issues(of: model)
        #expect(has(found, .inheritanceCycle("A"), entity: "B"))
        #expect(has(found, .subentityNotInModel("C"), entity: "B"))

        let orphanModel = ManagedObjectModel()
        orphanModel.entities = [c]          // c's superentity b is not in this model
        #expect(has(issues(of: orphanModel), .superentityNotInModel("B"), entity: "C"))
        withExtendedLifetime(model) {}
    }

    @Test("an abstract entity without sub-entities is allowed, as in Core Data")
    func abstractWithoutSubentities() throws {
        let model = M.single([M.attribute("name", .stringAttributeType)])
        model.entities[0].isAbstract = true
        #expect(try model.checked().entities[0].isAbstract)
    }

    @Test("an entity listed by two models, a property listed by two entities")
    func ownership() {
        let shared = M.attribute("name", .stringAttributeType)
        let first = M.single([shared], named: "First")
        let second = M.single([shared], named: "Second")
        #expect(has(issues(of: first), .propertyInAnotherEntity, entity: "First", property: "name"))
        let other = ManagedObjectModel()
        other.entities = second.entities
        #expect(has(issues(of: second), .entityInAnotherModel, entity: "Second"))
        #expect(issues(of: other).isEmpty)
        #expect(has(issues(of: second), .entityInAnotherModel, entity: "Second"))
    }
}
