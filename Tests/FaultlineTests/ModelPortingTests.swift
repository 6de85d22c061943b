import Foundation
import Testing
@testable import Faultline

/// The Core Data snippet from the issue, verbatim apart from the NS prefix.
func makePortedCoreDataModel() -> ManagedObjectModel {
    let entry = EntityDescription()
    entry.name = "MyCustomEntry"
    entry.managedObjectClassName = "MyCustomEntry"
    let entryIdAttribute = AttributeDescription()
    entryIdAttribute.name = "identifier"
    entryIdAttribute.attributeType = .stringAttributeType
    let element = EntityDescription()
    element.name = "MyCustomElement"
    element.managedObjectClassName = "MyCustomElement"
    let elementIdAttribute = AttributeDescription()
    elementIdAttribute.name = "identifier"
    elementIdAttribute.attributeType = .stringAttributeType
    let entriesRelation = RelationshipDescription()
    let elementRelation = RelationshipDescription()
    entriesRelation.name = "entries"
    entriesRelation.destinationEntity = entry
    entriesRelation.minCount = 0
    entriesRelation.maxCount = 0 // 0 = to-many
    entriesRelation.deleteRule = .cascadeDeleteRule
    entriesRelation.inverseRelationship = elementRelation
    elementRelation.name = "element"
    elementRelation.destinationEntity = element
    elementRelation.minCount = 0
    elementRelation.maxCount = 1
    elementRelation.deleteRule = .nullifyDeleteRule
    elementRelation.inverseRelationship = entriesRelation
    entry.properties = [entryIdAttribute, elementRelation]
    element.properties = [elementIdAttribute, entriesRelation]
    let mom = ManagedObjectModel()
    mom.entities = [entry, element]
    return mom
}

@Suite("Core Data model code ports by dropping the NS prefix")
struct ModelPortingTests {
    @Test("the issue's snippet builds a model that checks clean")
    func snippetChecksClean() throws {
        let mom = makePortedCoreDataModel()
        let checked = try mom.checked()
        #expect(checked.entities.map(\.name) == ["MyCustomElement", "MyCustomEntry"])
        #expect(checked.entities.map(\.number) == [1, 2])
    }

    @Test("relationships resolve to entity and inverse indexes")
    func relationshipsResolve() throws {
        let checked = try makePortedCoreDataModel().checked()
        let element = try #require(checked.entity(named: "MyCustomElement"))
        let entry = try #require(checked.entity(named: "MyCustomEntry"))
        let entries = try #require(element.relationship(named: "entries"))
        let back = try #require(entry.relationship(named: "element"))
        #expect(entries.isToMany && !back.isToMany)
        #expect(entries.destinationEntityIndex == entry.index)
        #expect(back.destinationEntityIndex == element.index)
        #expect(entries.inverseIndex == back.index)
        #expect(back.inverseIndex == entries.index)
        #expect(entries.deleteRule == .cascadeDeleteRule && back.deleteRule == .nullifyDeleteRule)
        #expect(!entries.isManyToMany)
        #expect(element.attribute(named: "identifier")?.attributeType == .stringAttributeType)
    }

    @Test("setting properties wires each property's entity back; lookups include them")
    func backPointers() throws {
        let mom = makePortedCoreDataModel()
        let entry = try #require(mom.entitiesByName["MyCustomEntry"])
        #expect(entry.managedObjectModel === mom)
        #expect(entry.properties.allSatisfy { $0.entity === entry })
        #expect(entry.attributesByName.keys.sorted() == ["identifier"])
        #expect(entry.relationshipsByName["element"]?.isToMany == false)
        #expect(entry.propertiesByName.count == 2)
    }

    @Test("descriptions are released with the model: no retain cycles")
    func noLeaks() {
        weak var weakModel: ManagedObjectModel?
        weak var weakEntity: EntityDescription?
        weak var weakRelationship: RelationshipDescription?
        do {
            let mom = makePortedCoreDataModel()
            weakModel = mom
            weakEntity = mom.entities.first
            weakRelationship = mom.entities.first?.properties.last as? RelationshipDescription
            _ = try? mom.checked()
            #expect(weakModel != nil && weakEntity != nil && weakRelationship != nil)
        }
        #expect(weakModel == nil)
        #expect(weakEntity == nil)
        #expect(weakRelationship == nil)
    }
}
