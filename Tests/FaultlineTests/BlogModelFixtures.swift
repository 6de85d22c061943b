import Foundation
@testable import Faultline

/// A model exercising every feature, written twice: by hand, as Core Data code
/// would, and with the declarative builder. Tests check both give the same result.
enum BlogModel {
    static func handBuilt() -> ManagedObjectModel {
        let content = EntityDescription()
        content.name = "Content"
        content.isAbstract = true
        let title = attribute("title", .stringAttributeType, optional: false)
        title.validationRules = [.minimumLength(1), .maximumLength(80)]
        content.properties = [title, attribute("createdAt", .dateAttributeType)]

        let article = EntityDescription()
        article.name = "Article"
        let views = attribute("views", .integer64AttributeType)
        views.defaultValue = 0
        let colorScheme = CompositeAttributeDescription()
        colorScheme.name = "colorScheme"
        colorScheme.elements = [attribute("primary", .stringAttributeType), attribute("secondary", .stringAttributeType)]
        let categoryName = derived("categoryName", .stringAttributeType, "category.name")
        let searchTitle = derived("searchTitle", .stringAttributeType, "canonical:(title)")

        let category = EntityDescription()
        category.name = "Category"
        let name = attribute("name", .stringAttributeType, optional: false)
        category.uniquenessConstraints = [["name"]]
        category.indexes = [FetchIndexDescription(name: "byName", elements: [FetchIndexElementDescription(propertyName: "name")])]

        let tag = EntityDescription()
        tag.name = "Tag"
        tag.uniquenessConstraints = [["label"]]

        let page = EntityDescription()
        page.name = "Page"
        page.properties = [attribute("slug", .stringAttributeType)]

        let articleCategory = relationship("category", to: category, maxCount: 1)
        let categoryArticles = relationship("articles", to: article, maxCount: 0, deleteRule: .cascadeDeleteRule)
        articleCategory.inverseRelationship = categoryArticles
        categoryArticles.inverseRelationship = articleCategory
        let articleTags = relationship("tags", to: tag, maxCount: 0)
        let tagArticles = relationship("articles", to: article, maxCount: 0)
        articleTags.inverseRelationship = tagArticles
        tagArticles.inverseRelationship = articleTags

        article.properties = [views, colorScheme, articleCategory, articleTags, categoryName, searchTitle]
        category.properties = [
            name, categoryArticles,
            derived("articleCount", .integer64AttributeType, "articles.@count"),
            derived("totalViews", .integer64AttributeType, "@sum.articles.views"),
            derived("lastPublished", .dateAttributeType, "articles.@max.createdAt"),
        ]
        tag.properties = [attribute("label", .stringAttributeType), tagArticles]
        content.subentities = [article, page]

        let model = ManagedObjectModel()
        model.entities = [content, article, category, tag, page]
        return model
    }

    static func declarative() -> ManagedObjectModel {
        ManagedObjectModel {
            Entity("Content", abstract: true) {
                Attribute("title", .string).required().validated(.minimumLength(1), .maximumLength(80))
                Attribute("createdAt", .date)
            }
            Entity("Article", parent: "Content") {
                Attribute("views", .integer64).defaultValue(.integer(0))
                Composite("colorScheme") {
                    Attribute("primary", .string)
                    Attribute("secondary", .string)
                }
                Relationship("category", to: "Category", inverse: "articles")
                Relationship("tags", to: "Tag", inverse: "articles", toMany: true)
                Derived("categoryName", .string, "category.name")
                Derived("searchTitle", .string, "canonical:(title)")
            }
            Entity("Category") {
                Attribute("name", .string).required().unique()
                Relationship("articles", to: "Article", inverse: "category", toMany: true, deleteRule: .cascade)
                Derived("articleCount", .integer64, "articles.@count")
                Derived("totalViews", .integer64, "@sum.articles.views")
                Derived("lastPublished", .date, "articles.@max.createdAt")
                FetchIndex("byName", .ascending("name"))
            }
            Entity("Tag") {
                Attribute("label", .string)
                Relationship("articles", to: "Article", inverse: "tags", toMany: true)
                Unique("label")
            }
            Entity("Page", parent: "Content") {
                Attribute("slug", .string)
            }
        }
    }

    static func attribute(_ name: String, _ type: AttributeType, optional: Bool = true) -> AttributeDescription {
        let attribute = AttributeDescription()
        attribute.name = name
        attribute.attributeType = type
        attribute.isOptional = optional
        return attribute
    }

    static func derived(_ name: String, _ type: AttributeType, _ expression: String) -> DerivedAttributeDescription {
        let attribute = DerivedAttributeDescription()
        attribute.name = name
        attribute.attributeType = type
        attribute.derivationExpression = expression
        return attribute
    }

    static func relationship(_ name: String, to destination: EntityDescription, maxCount: Int,
                             deleteRule: DeleteRule = .nullifyDeleteRule) -> RelationshipDescription {
        let relationship = RelationshipDescription()
        relationship.name = name
        relationship.destinationEntity = destination
        relationship.maxCount = maxCount
        relationship.deleteRule = deleteRule
        return relationship
    }

    /// One entity with the given properties, in a model of its own.
    static func single(_ properties: [PropertyDescription], named name: String = "Thing") -> ManagedObjectModel {
        let entity = EntityDescription()
        entity.name = name
        entity.properties = properties
        let model = ManagedObjectModel()
        model.entities = [entity]
        return model
    }
}

/// The issues `checked()` reports, or an empty list when the model is valid.
func issues(of model: ManagedObjectModel) -> [ModelIssue] {
    do {
        _ = try model.checked()
        return []
    } catch {
        return error.issues
    }
}
