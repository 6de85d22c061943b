import Foundation
import Testing
@testable import Faultline

@Suite("CheckedModel resolves names to indexes for later layers")
struct CheckedModelTests {
    let model: CheckedModel

    init() throws {
        model = try BlogModel.handBuilt().checked()
    }

    @Test("entities are numbered as Core Data numbers them: roots alphabetically, sub-entities depth-first")
    func entityNumbering() {
        #expect(model.entities.map(\.name) == ["Category", "Content", "Article", "Page", "Tag"])
        #expect(model.entities.map(\.number) == [1, 2, 3, 4, 5])
        #expect(model.entities.map(\.index) == [0, 1, 2, 3, 4])
        #expect(model.entityIndexByName["Page"] == 3)
        #expect(model.rootEntityIndexes == [0, 1, 4])
    }

    @Test("inheritance: superentity, root, sub-entities and hierarchy indexes")
    func inheritance() throws {
        let content = try #require(model.entity(named: "Content"))
        let article = try #require(model.entity(named: "Article"))
        #expect(content.isRoot && content.isAbstract)
        #expect(content.subentityIndexes == [2, 3])
        #expect(content.hierarchyIndexes == [1, 2, 3])
        #expect(article.superentityIndex == 1 && article.rootEntityIndex == 1 && !article.isRoot)
        #expect(article.hierarchyIndexes == [2])
    }

    @Test("inherited properties keep their index in every sub-entity")
    func inheritedIndexesAreStable() throws {
        let content = try #require(model.entity(named: "Content"))
        for name in ["Article", "Page"] {
            let sub = try #require(model.entity(named: name))
            #expect(Array(sub.attributes.prefix(content.attributes.count)) == content.attributes)
            #expect(Array(sub.properties.prefix(content.properties.count)) == content.properties)
        }
        #expect(content.attributes.map(\.name) == ["createdAt", "title"])
        let page = try #require(model.entity(named: "Page"))
        #expect(page.attributes.map(\.name) == ["createdAt", "title", "slug"])
        #expect(page.attribute(named: "title")?.declaringEntityIndex == content.index)
    }

    @Test("composite attributes are flattened into leaves addressable by key path")
    func compositeFlattening() throws {
        let article = try #require(model.entity(named: "Article"))
        let primary = try #require(article.attribute(named: "colorScheme.primary"))
        let secondary = try #require(article.attribute(named: "colorScheme.secondary"))
        #expect(primary.keyPath == ["colorScheme", "primary"])
        let composite = try #require(article.composite(named: "colorScheme"))
        #expect(composite.leafAttributeIndexes == [primary.index, secondary.index])
        #expect(primary.compositeIndex == composite.index)
        #expect(article.properties.contains(.composite(composite.index)))
        #expect(article.attribute(named: "colorScheme") == nil)
    }

    @Test("relationships point at destination and inverse indexes; many-to-many is detected")
    func relationships() throws {
        let article = try #require(model.entity(named: "Article"))
        let tag = try #require(model.entity(named: "Tag"))
        let tags = try #require(article.relationship(named: "tags"))
        let tagArticles = try #require(tag.relationship(named: "articles"))
        #expect(tags.destinationEntityIndex == tag.index)
        #expect(tags.inverseIndex == tagArticles.index)
        #expect(tagArticles.inverseIndex == tags.index)
        #expect(tags.isManyToMany && tagArticles.isManyToMany)
        let category = try #require(article.relationship(named: "category"))
        #expect(!category.isManyToMany && !category.isToMany)
    }

    @Test("derived attributes carry their parsed expression; defaults are typed")
    func derivedAndDefaults() throws {
        let category = try #require(model.entity(named: "Category"))
        #expect(category.attribute(named: "articleCount")?.derivation == .aggregate(function: .count, relationship: "articles", attribute: nil))
        #expect(category.attribute(named: "totalViews")?.derivation == .aggregate(function: .sum, relationship: "articles", attribute: "views"))
        #expect(category.attribute(named: "name")?.isDerived == false)
        let article = try #require(model.entity(named: "Article"))
        #expect(article.attribute(named: "views")?.defaultValue == .integer(0))
        #expect(article.attribute(named: "searchTitle")?.derivation == .canonical(["title"]))
    }

    @Test("constraints and fetch indexes are resolved to property references")
    func constraintsAndIndexes() throws {
        let category = try #require(model.entity(named: "Category"))
        let name = try #require(category.attribute(named: "name"))
        #expect(category.uniquenessConstraints == [[.attribute(name.index)]])
        #expect(category.fetchIndexes.count == 1)
        #expect(category.fetchIndexes.first?.elements.first?.property == .attribute(name.index))
        #expect(category.fetchIndexes.first?.elements.first?.isAscending == true)
    }

    @Test("the snapshot is Sendable: it crosses into a task unchanged")
    func sendable() async {
        let snapshot = model
        let names = await Task.detached { snapshot.entities.map(\.name) }.value
        #expect(names == model.entities.map(\.name))
    }
}
