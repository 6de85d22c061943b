// Reading what the writer wrote gives the same model: equal checked snapshots,
// equal version hashes, equal extras and user info — for every fixture version,
// the kitchen-sink file and a model built in code.

import Foundation
import Testing
import Faultline
@testable import FaultlineModel

/// Faultline's own hash of each entity, by name: what the definition hashes to,
/// whatever Core Data hashes a model adopted from a compiled model beside it.
func faultlineEntityHashes(_ model: ManagedObjectModel) -> [String: Data] {
    let hashes = ModelVersionHash.entityHashes(of: model.entities)
    return Dictionary(model.entities.map { ($0.name ?? "", hashes[ObjectIdentifier($0)] ?? Data()) }) { first, _ in first }
}

@Suite("Model files: read → write → read gives an equal model")
struct ModelFileRoundTripTests {
    /// Every user info entry in the model, keyed `Entity` or `Entity.keyPath`.
    private func allUserInfo(_ version: ModelBundleVersion) -> [String: [String: String]] {
        var result: [String: [String: String]] = [:]
        func visit(_ property: PropertyDescription, path: String) {
            let info = version.userInfo(entity: path.components(separatedBy: ".")[0],
                                        property: path.components(separatedBy: ".").dropFirst().joined(separator: "."))
            if !info.isEmpty { result[path] = info }
            for element in (property as? CompositeAttributeDescription)?.elements ?? [] {
                visit(element, path: path + "." + element.name)
            }
        }
        for entity in version.model.entities {
            let name = entity.name ?? ""
            let info = version.userInfo(entity: name)
            if !info.isEmpty { result[name] = info }
            for property in entity.properties { visit(property, path: name + "." + property.name) }
        }
        return result
    }

    /// Writes `version`, reads it back, and checks equality; returns the written text.
    @discardableResult
    private func assertRoundTrip(_ version: ModelBundleVersion, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let writer = ModelFileWriter()
        let text = try writer.contentsText(of: version.model, extras: version.extras)
        let reread = try ModelFileReader().readContents(Data(text.utf8), versionName: version.name, file: "written")
        #expect(reread.warnings.count == version.extras.fetchedProperties.values.joined().count,
                "\(reread.warnings)", sourceLocation: sourceLocation)
        #expect(reread.extras == version.extras, sourceLocation: sourceLocation)
        #expect(allUserInfo(reread) == allUserInfo(version), sourceLocation: sourceLocation)
        #expect(faultlineEntityHashes(reread.model) == faultlineEntityHashes(version.model), sourceLocation: sourceLocation)
        // Core Data's hashes come from the compiled model beside the source, not
        // from the XML: the reread model adopts them as the reader would.
        version.coreDataEntityVersionHashes.map(reread.model.adoptCoreDataEntityVersionHashes)
        #expect(reread.model.versionHash == version.model.versionHash, sourceLocation: sourceLocation)
        #expect(try reread.model.checked() == (try version.model.checked()), sourceLocation: sourceLocation)
        let rewritten = try writer.contentsText(of: reread.model, extras: reread.extras)
        #expect(rewritten == text, "writing is a fixed point", sourceLocation: sourceLocation)
        return text
    }

    @Test("every version of every fixture bundle", arguments: ModelFileTestSupport.Fixture.allCases)
    func fixtures(_ fixture: ModelFileTestSupport.Fixture) throws {
        ModelFileTestSupport.registerTransformers()
        let bundle = try ModelFileReader().read(at: try ModelFileTestSupport.fixture(fixture))
        for version in bundle.versions { try assertRoundTrip(version) }
    }

    @Test("the kitchen-sink file, with every element the format has")
    func kitchenSink() throws {
        ModelFileTestSupport.registerTransformers()
        let text = try assertRoundTrip(try ModelFileTestSupport.read(KitchenSinkModelFile.xml))
        #expect(text.contains("<compoundIndexes>"))
        #expect(text.contains("<composite name=\"Accent\">"))
        #expect(text.contains("defaultDateTimeInterval=\"86400.5\""))
    }

    @Test("a model built in code with the builder, with user info set by hand")
    func builderModel() throws {
        let epoch = Date(timeIntervalSinceReferenceDate: 0)
        let model = ManagedObjectModel {
            Entity("Category") {
                Attribute("name", .string).required().unique()
                    .validated(.minimumLength(1), .maximumLength(40), .pattern("[a-z]+"))
                Attribute("rank", .integer32).defaultValue(.integer(3)).indexed()
                    .validated(.minimumValue(.integer(0)), .maximumValue(.integer(10)))
                Relationship("articles", to: "Article", inverse: "category", toMany: true, deleteRule: .cascade)
            }
            Entity("Content", abstract: true) {
                Attribute("created", .date).defaultValue(.date(epoch.addingTimeInterval(12.25)))
                    .validated(.earliestDate(epoch))
            }
            Entity("Article", parent: "Content", className: "ArticleMO") {
                Attribute("title", .string)
                Attribute("views", .integer64).defaultValue(.integer(0))
                Attribute("score", .double).defaultValue(.double(0.5)).validated(.maximumValue(.double(1)))
                Attribute("price", .decimal).defaultValue(.decimal(Decimal(string: "9.99")!))
                    .validated(.minimumValue(.decimal(Decimal(string: "0.5")!)))
                Attribute("flag", .boolean).defaultValue(.bool(false))
                Attribute("identifier", .uuid)
                Attribute("url", .uri)
                Attribute("body", .binaryData).externalStorage()
                Attribute("tags", .string).codable([String].self)
                Attribute("draft", .string).transient()
                Derived("categoryName", .string, "category.name")
                Composite("colorScheme") {
                    Attribute("primary", .string).defaultValue(.string("teal"))
                    Composite("accent") { Attribute("hue", .double) }
                }
                Relationship("category", to: "Category", inverse: "articles", deleteRule: .nullify)
                Relationship("related", to: "Article", inverse: "related", toMany: true, ordered: true, maxCount: 5)
                FetchIndex("byTitle", .ascending("title"), .descending("views"))
                Unique("title", "category")
            }
        }
        model.entitiesByName["Article"]?.userInfo = ["table": "articles"]
        model.entitiesByName["Article"]?.attributesByName["title"]?.userInfo = ["hint": "<short>"]
        let version = ModelBundleVersion(name: "Built", model: model)
        let text = try ModelFileWriter().contentsText(of: model)
        #expect(text.contains("valueTransformerName=\"Swift.Array&lt;Swift.String&gt;\""))
        let reread = try ModelFileReader().readContents(Data(text.utf8), versionName: "Built", file: "built")
        #expect(reread.warnings.isEmpty, "\(reread.warnings)")
        #expect(allUserInfo(reread) == allUserInfo(version))
        #expect(reread.model.versionHash == model.versionHash)
        #expect(try reread.model.checked() == (try model.checked()))
        #expect(try ModelFileWriter().contentsText(of: reread.model, extras: reread.extras) == text)
    }

    @Test("a multi-version bundle is written with .xccurrentversion and reads back the same")
    func bundle() throws {
        ModelFileTestSupport.registerTransformers()
        let original = try ModelFileReader().read(at: try ModelFileTestSupport.fixture(.groceryDude))
        let scratch = try ModelFileTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let folder = scratch.appendingPathComponent("Copy.xcdatamodeld")
        try ModelFileWriter().writeBundle(original, to: folder)
        let reread = try ModelFileReader().read(at: folder)
        #expect(reread.name == "Copy")
        #expect(reread.versions.map(\.name) == original.versions.map(\.name))
        #expect(reread.current?.name == "Model 6")
        for (old, new) in zip(original.versions, reread.versions) {
            #expect(new.model.versionHash == old.model.versionHash)
            #expect(new.extras == old.extras)
            #expect(try new.model.checked() == (try old.model.checked()))
        }
    }
}

@Suite("Model files: the writer refuses what the format cannot express")
struct ModelFileWriterRefusalTests {
    private func refusal(_ configure: (ManagedObjectModel) -> Void) -> ModelFileError? {
        let model = ManagedObjectModel {
            Entity("A") {
                Attribute("s", .string)
                Attribute("n", .integer32)
                Attribute("b", .binaryData)
            }
        }
        configure(model)
        do {
            _ = try ModelFileWriter().contentsText(of: model)
            return nil
        } catch {
            return error
        }
    }

    @Test("two rules of one kind, binary defaults, mismatched defaults, non-string user info, control characters")
    func refusals() {
        let a = { (model: ManagedObjectModel) in model.entitiesByName["A"] }
        #expect(refusal { a($0)?.attributesByName["n"]?.validationRules = [.minimumValue(.integer(1)), .minimumValue(.integer(2))] }?.kind == .notRepresentable)
        #expect(refusal { a($0)?.attributesByName["n"]?.validationRules = [.pattern("x")] }?.kind == .notRepresentable)
        #expect(refusal { a($0)?.attributesByName["b"]?.defaultAttributeValue = .data(Data([1])) }?.kind == .notRepresentable)
        #expect(refusal { a($0)?.attributesByName["n"]?.defaultAttributeValue = .string("x") }?.kind == .notRepresentable)
        #expect(refusal { a($0)?.userInfo = ["count": 3] }?.kind == .notRepresentable)
        #expect(refusal { a($0)?.attributesByName["s"]?.defaultAttributeValue = .string("bell\u{7}") }?.path?.hasSuffix("@defaultValueString") == true)
        #expect(refusal { model in
            let dangling = RelationshipDescription()
            dangling.name = "r"
            a(model)?.properties.append(dangling)
        }?.kind == .notRepresentable)
        #expect(refusal { _ in } == nil)
    }
}
