import Foundation
import Testing
@testable import Faultline

@Suite("Odd object graphs neither crash nor leak")
struct ModelOwnershipTests {
    @Test("self-inheritance and self-containing composites are refused and reported, and nothing leaks")
    func cyclesRefusedAndReleased() {
        weak var weakEntity: EntityDescription?
        weak var weakComposite: CompositeAttributeDescription?
        do {
            let entity = EntityDescription()
            entity.name = "Loop"
            entity.subentities = [entity]
            let composite = CompositeAttributeDescription()
            composite.name = "nest"
            composite.elements = [composite]
            entity.properties = [composite]
            let model = ManagedObjectModel()
            model.entities = [entity]
            let kinds = issues(of: model).map(\.kind)
            #expect(kinds.contains(.inheritanceCycle("Loop")))
            #expect(kinds.contains(.compositeCycle("nest")))
            #expect(entity.subentities.isEmpty && entity.superentity == nil)
            weakEntity = entity
            weakComposite = composite
        }
        #expect(weakEntity == nil)
        #expect(weakComposite == nil)
    }

    @Test("relationships that point at each other, at themselves, or at dead entities are released")
    func relationshipLinksAreWeak() {
        weak var weakRelationship: RelationshipDescription?
        let survivor = EntityDescription()
        survivor.name = "Survivor"
        do {
            let doomed = EntityDescription()
            doomed.name = "Doomed"
            let link = BlogModel.relationship("link", to: doomed, maxCount: 1)
            link.inverseRelationship = link
            survivor.properties = [link]
            weakRelationship = link
        }
        // `Doomed` was held by nothing: the weak destination is gone, reported as missing.
        let model = ManagedObjectModel()
        model.entities = [survivor]
        #expect(issues(of: model).map(\.kind).contains(.missingDestinationEntity))
        #expect(weakRelationship != nil)
        survivor.properties = []
        #expect(weakRelationship == nil)
    }

    @Test("lookups walk inheritance: isKindOf, subentitiesByName, inherited propertiesByName")
    func inheritanceLookups() throws {
        let model = BlogModel.handBuilt()
        let content = try #require(model.entitiesByName["Content"])
        let article = try #require(model.entitiesByName["Article"])
        #expect(article.isKindOf(entity: content))
        #expect(!content.isKindOf(entity: article))
        #expect(content.subentitiesByName.keys.sorted() == ["Article", "Page"])
        #expect(article.attributesByName["title"]?.entity === content)
        #expect(article.propertiesByName.count == content.propertiesByName.count + article.properties.count)
    }
}
