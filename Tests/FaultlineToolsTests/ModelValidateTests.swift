import Faultline
import FixtureSupport
import Foundation
import Testing
@testable import FaultlineTools

/// `model validate`: the generated Shop sources are in step with the model;
/// each kind of drift — a key the entity lacks, a value type or key kind that
/// differs, a relationship to another class, a property without a key, an
/// entity without a class, a class naming no entity — is reported with its
/// file and line; the command exits 0 in step, 1 on drift, 2 on bad input.
@Suite("model validate: typed declarations checked against the model, with file and line")
struct ModelValidateTests {
    static func shopSources() throws -> [(path: String, text: String)] {
        let folder = ModelGenerateTests.folder
        return try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }.sorted().map {
            ($0, try String(contentsOf: folder.appendingPathComponent($0), encoding: .utf8))
        }
    }

    static func drift(_ edit: (inout [(path: String, text: String)]) -> Void) throws -> [String] {
        var sources = try shopSources()
        edit(&sources)
        return ModelSourceValidator(model: try ShopFixture.model().checked()).drift(in: sources).map(\.description)
    }

    static func replace(_ file: String, _ old: String, _ new: String) -> (inout [(path: String, text: String)]) -> Void {
        { sources in
            guard let index = sources.firstIndex(where: { $0.path == file }) else { return }
            sources[index].text = sources[index].text.replacingOccurrences(of: old, with: new)
        }
    }

    @Test("The generated sources are in step with the model they came from")
    func inStep() throws {
        #expect(try Self.drift { _ in } == [])
    }

    @Test("Each kind of drift is reported with file and line")
    func eachKind() throws {
        #expect(try Self.drift(Self.replace("Order.swift", "AttributeKey<Swift.Double?>(\"total\"", "AttributeKey<Swift.Int64?>(\"total\""))
            == ["Order.swift:15: Order.total: 'total' is AttributeKey<Int64>, the model's type is Double"])
        #expect(try Self.drift(Self.replace("Order.swift", "Faultline.ToOneKey<Customer>(\"customer\")", "Faultline.AttributeKey<Swift.String?>(\"customer\")"))
            == ["Order.swift:8: Order.customer: 'customer' is declared as AttributeKey, the model has it as ToOneKey"])
        #expect(try Self.drift(Self.replace("Order.swift", "Faultline.ToOneKey<Customer>(\"customer\")", "Faultline.ToOneKey<Product>(\"customer\")"))
            == ["Order.swift:8: Order.customer: 'customer' is ToOneKey<Product>, the model's type is Customer"])
        #expect(try Self.drift(Self.replace("Product.swift", "(\"title\"", "(\"titel\""))
            == ["Product.swift:10: Product.title: entity Product has no property 'titel'", "Product.swift:7: Product: no key for Product.title"])
        #expect(try Self.drift(Self.replace("Customer.swift", "Faultline.TransformableKey<[Swift.String]>(\"tags\")", "Faultline.AttributeKey<Foundation.Data?>(\"tags\")"))
            == ["Customer.swift:20: Customer.tags: 'tags' is declared as AttributeKey, the model has it as TransformableKey"])
        #expect(try Self.drift(Self.replace("Customer.swift", "TransformableKey<[Swift.String]>", "TransformableKey<Any>"))
            == ["Customer.swift:20: Customer.tags: 'tags' is TransformableKey<Any>, the model's type is [String]"])
        #expect(try Self.drift(Self.replace("Customer.swift", "static let address_city = ", "static let city = Int(0); let x = "))
            == ["Customer.swift:7: Customer: no key for Customer.address.city"])
        #expect(try Self.drift { sources in sources.removeAll { $0.path == "LineItem.swift" } }
            == ["entity LineItem: no class LineItem in the sources"])
        #expect(try Self.drift { sources in
            sources.append(("Coupon.swift", "final class Coupon: ManagedObject {\n    static let code = AttributeKey<String?>(\"code\")\n}\n"))
        } == ["Coupon.swift:1: class Coupon declares keys but names no entity of the model"])
    }

    @Test("The command: 0 in step, 1 on drift with the differences, 2 without sources")
    func command() throws {
        let model = try CoreDataFixtures.path("alhoqbani__AppleSample-iPhoneCoreDataRecipes/Recipes/Recipes.xcdatamodeld")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("faultline-validate-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        var output = ""
        #expect(ModelCommand.run(["generate", model, "--output", directory.path]) { output += $0 } == 0)
        output = ""
        #expect(ModelCommand.run(["validate", model, directory.path]) { output += $0 } == 0)
        #expect(output.hasPrefix("in step"))
        let recipe = directory.appendingPathComponent("Recipe.swift")
        let text = try String(contentsOf: recipe, encoding: .utf8)
        try Data(text.replacingOccurrences(of: "(\"overview\")", with: "(\"summary\")").utf8).write(to: recipe)
        output = ""
        #expect(ModelCommand.run(["validate", model, directory.path]) { output += $0 } == 1)
        #expect(output.contains("Recipe.overview: entity Recipe has no property 'summary'"))
        #expect(output.contains("Recipe: no key for Recipe.overview"))
        #expect(ModelCommand.run(["validate", model]) { _ in } == 2)
    }
}
