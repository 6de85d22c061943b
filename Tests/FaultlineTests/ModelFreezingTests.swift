import Foundation
import Testing
@testable import Faultline

@Suite("Checking freezes the model; later mutations are ignored and recorded")
struct ModelFreezingTests {
    @Test("a successful check freezes every description")
    func freezes() throws {
        let model = BlogModel.handBuilt()
        #expect(model.isEditable)
        _ = try model.checked()
        #expect(!model.isEditable)
        #expect(model.entities.allSatisfy { !$0.isEditable })
        #expect(model.entities.flatMap(\.properties).allSatisfy { !$0.isEditable })
    }

    @Test("mutations after freezing are ignored, recorded, and do not change the snapshot")
    func mutationsIgnored() throws {
        let model = BlogModel.handBuilt()
        let before = try model.checked()
        let category = try #require(model.entitiesByName["Category"])
        let name = try #require(category.attributesByName["name"])
        name.attributeType = .integer64AttributeType
        name.name = "renamed"
        category.properties = []
        model.entities = []
        #expect(name.attributeType == .stringAttributeType)
        #expect(name.name == "name")
        #expect(category.properties.count == 5)
        #expect(model.entities.count == 5)
        #expect(model.ignoredMutations.map(\.key) == ["attributeType", "name", "properties", "entities"])
        #expect(model.ignoredMutations.first?.owner == "Category.name")
        #expect(try model.checked() == before)
    }

    @Test("a frozen entity cannot be adopted by another model or entity")
    func frozenStayWithTheirOwners() throws {
        let model = BlogModel.handBuilt()
        _ = try model.checked()
        let tag = try #require(model.entitiesByName["Tag"])
        let label = try #require(tag.attributesByName["label"])
        let other = ManagedObjectModel()
        other.entities = [tag]
        let thief = EntityDescription()
        thief.name = "Thief"
        thief.properties = [label]
        #expect(tag.managedObjectModel === model)
        #expect(label.entity === tag)
        #expect(model.ignoredMutations.map(\.key) == ["managedObjectModel", "entity"])
        #expect(issues(of: other).map(\.kind).contains(.entityInAnotherModel))
    }

    @Test("a failed check leaves the model editable so it can be fixed")
    func failedCheckStaysEditable() throws {
        let broken = BlogModel.attribute("1bad", .stringAttributeType)
        let model = BlogModel.single([broken])
        #expect(throws: ModelError.self) { try model.checked() }
        #expect(model.isEditable)
        broken.name = "good"
        _ = try model.checked()
        #expect(!model.isEditable)
    }
}
