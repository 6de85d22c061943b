import Faultline
import FixtureSupport
import Foundation
import Testing
@testable import FaultlineTools

/// `model generate`: the generator's output for `ShopFixture` is exactly the
/// code compiled into this target (`GeneratedShop/`), which registers, saves
/// and fetches every entity (every fixture model's code is compiled and run by
/// `GeneratedRoundTripTests`); the output is the same on every run; names that
/// are not Swift identifiers are refused.
/// To change the generated form: `FAULTLINE_RECORD_SNAPSHOTS=1 swift test
/// --filter ModelGenerateTests`, review the diff, run again.
@Suite("model generate: typed classes from a model, compiled and run")
struct ModelGenerateTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("GeneratedShop")

    static func shopFiles() throws -> [(name: String, contents: String)] {
        try ModelCodeGenerator(model: ShopFixture.model().checked(), name: "Shop", source: "ShopFixture.swift").files()
    }

    @Test("The output for the Shop model is the code compiled into this target, and the same on every run")
    func goldenFiles() throws {
        let files = try Self.shopFiles()
        #expect(files.map(\.name) == (try Self.shopFiles()).map(\.name))
        #expect(files.map(\.contents) == (try Self.shopFiles()).map(\.contents))
        if ProcessInfo.processInfo.environment["FAULTLINE_RECORD_SNAPSHOTS"] == "1" {
            for file in files { try Data(file.contents.utf8).write(to: Self.folder.appendingPathComponent(file.name)) }
            Issue.record("recorded \(Self.folder.path); review it and run again without FAULTLINE_RECORD_SNAPSHOTS")
            return
        }
        let present = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path).filter { $0.hasSuffix(".swift") }.sorted()
        #expect(present == files.map(\.name))
        for file in files {
            let compiled = try String(contentsOf: Self.folder.appendingPathComponent(file.name), encoding: .utf8)
            #expect(compiled == file.contents, "\(file.name) differs from the generator's output")
        }
    }

    @Test("The generated classes register (their typed keys checked), then insert, save and fetch every entity")
    func roundTrip() throws {
        let container = try PersistentContainer(model: ShopFixture.model(), location: .inMemory)
        try ShopModel.register(in: container, validate: true)
        let writer = container.newBackgroundContext()
        try writer.performAndWait {
            let customer = try writer.insertObject(Customer.self)
            customer[Customer.name] = "Ada"
            customer[Customer.joined] = Date(timeIntervalSinceReferenceDate: 1_000)
            customer[Customer.vip] = true
            customer[Customer.credit] = Decimal(string: "12.5")
            customer[Customer.badge] = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")
            customer[Customer.tags] = ["first", "vip"]
            customer[Customer.address_city] = "Oslo"
            customer[Customer.address_street_number] = 1
            let order = try writer.insertObject(Order.self)
            order[Order.number] = 7
            order[Order.total] = 19.5
            order[Order.notes] = Data([1, 2, 3])
            order[Order.customer] = customer
            let book = try writer.insertObject(Product.self)
            book[Product.title] = "Book"
            book[Product.default] = "yes"
            let ebook = try writer.insertObject(DigitalProduct.self)
            ebook[DigitalProduct.title] = "E-book"
            ebook[DigitalProduct.link] = URL(string: "https://example.com/e")
            for product in [book, ebook] {
                let line = try writer.insertObject(LineItem.self)
                line[LineItem.quantity] = 2
                line[LineItem.product] = product
                line[LineItem.order] = order
            }
            try writer.save()
        }
        let reader = container.newBackgroundContext()
        try reader.performAndWait {
            let customers = try reader.fetch(Customer.fetchRequest()).compactMap { $0 as? Customer }
            #expect(customers.map { $0[Customer.name] } == ["Ada"])
            #expect(customers.first?[Customer.credit] == Decimal(string: "12.5"))
            #expect(customers.first?[Customer.tags] == ["first", "vip"])
            #expect(customers.first?[Customer.address_city] == "Oslo")
            #expect(customers.first?[Customer.address_street_number] == 1)
            #expect((customers.first?.value(forKey: "address") as? [String: Any])?["city"] as? String == "Oslo")
            let order = try #require(try reader.fetch(Order.fetchRequest()).first as? Order)
            #expect(order[Order.customer]?[Customer.name] == "Ada")
            #expect(order[Order.lines].map { $0[LineItem.product]?[Product.title] } == ["Book", "E-book"])
            #expect(order[Order.lineCount] == 2)
            #expect(order[Order.notes] == Data([1, 2, 3]))
            #expect(try reader.fetch(LineItem.fetchRequest()).count == 2)
            #expect(try reader.fetch(Product.fetchRequest()).count == 2)
            let digital = try reader.fetch(DigitalProduct.fetchRequest())
            #expect(digital.compactMap { ($0 as? DigitalProduct)?[DigitalProduct.link]?.absoluteString } == ["https://example.com/e"])
            #expect(digital.first?.value(forKey: "link") as? URL == URL(string: "https://example.com/e"))
        }
    }

    @Test("--single-file writes every declaration into one file (the plugin's form), in step with the model")
    func singleFile() throws {
        let generator = ModelCodeGenerator(model: try ShopFixture.model().checked(), name: "Shop", source: "ShopFixture.swift")
        let single = try generator.singleFile()
        #expect(single.components(separatedBy: "import Faultline\n").count == 2)
        for file in try generator.files() {
            let body = file.contents.components(separatedBy: "import Foundation\n\n").dropFirst().joined()
            #expect(single.contains(body), "\(file.name)")
        }
        #expect(ModelSourceValidator(model: try ShopFixture.model().checked()).drift(in: [("ShopModel.swift", single)]) == [])
        let model = try CoreDataFixtures.path("alhoqbani__AppleSample-iPhoneCoreDataRecipes/Recipes/Recipes.xcdatamodeld")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("faultline-single-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(ModelCommand.run(["generate", model, "--output", directory.path, "--single-file", "RecipesModel.swift"]) { _ in } == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["RecipesModel.swift"])
        #expect(ModelCommand.run(["validate", model, directory.path]) { _ in } == 0)
        for name in ["Recipes", "a/b.swift", ""] {
            var output = ""
            #expect(ModelCommand.run(["generate", model, "--output", directory.path, "--single-file", name]) { output += $0 } == 2)
            #expect(output.hasPrefix("error: --single-file needs a file name ending in .swift"), "\(name): \(output)")
        }
    }

    @Test("A store's cached model (Z_MODELCACHE) generates the classes of the model file that wrote it, and validates them")
    func storeModelCache() throws {
        let store = try CoreDataFixtures.path("alemar11__CoreDataPlus/SampleModel_V1.sqlite")
        let file = try CoreDataFixtures.path("alemar11__CoreDataPlus/SampleModel.xcdatamodeld")
        let fromStore = try ModelGenerateCommand.generate(path: store, version: nil)
        let fromFile = try ModelGenerateCommand.generate(path: file, version: "SampleModel")
        #expect(fromStore.map(\.name) == ["Car.swift", "ExpensiveSportCar.swift", "Person.swift", "SampleModel_V1Model.swift", "SportCar.swift"])
        // The header names the source; the compiled cache does not keep the transformable's class name.
        let body = { (text: String) in
            text.split(separator: "\n").dropFirst().filter { !$0.contains("/// Transformable:") }.joined(separator: "\n")
        }
        for name in ["Car.swift", "ExpensiveSportCar.swift", "Person.swift", "SportCar.swift"] {
            let store = fromStore.first { $0.name == name }?.contents, model = fromFile.first { $0.name == name }?.contents
            #expect(store.map(body) == model.map(body), "\(name)")
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("faultline-cache-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(ModelCommand.run(["generate", store, "--output", directory.path]) { _ in } == 0)
        var output = ""
        #expect(ModelCommand.run(["validate", store, directory.path]) { output += $0 } == 0, "\(output)")
        let notAStore = directory.appendingPathComponent("broken.sqlite")
        try Data("SQLite format 3\0garbage".utf8).write(to: notAStore)
        output = ""
        #expect(ModelCommand.run(["generate", notAStore.path, "--output", directory.path]) { output += $0 } == 2)
        #expect(output.hasPrefix("error: cannot read model") && output.contains("cannot read the store"), "\(output)")
    }

    @Test("Generating again removes the files an earlier run made from the same model for entities it no longer has, and nothing else")
    func staleFilesRemoved() throws {
        let store = try CoreDataFixtures.path("alemar11__CoreDataPlus/SampleModel_V1.sqlite")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("faultline-stale-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(ModelCommand.run(["generate", store, "--output", directory.path]) { _ in } == 0)
        let files: [(String, String)] = [
            // An entity an older version of this model had.
            ("Gone.swift", "// Generated by `faultline model generate` from SampleModel_V1.sqlite, version old. Do not edit: generate it again.\n"),
            ("Other.swift", "// Generated by `faultline model generate` from Shop.xcdatamodeld, version Shop. Do not edit: generate it again.\n"),
            ("Mine.swift", "// Written by hand, beside the generated files.\n"),
        ]
        for (name, text) in files { try Data(text.utf8).write(to: directory.appendingPathComponent(name)) }
        var output = ""
        #expect(ModelCommand.run(["generate", store, "--output", directory.path]) { output += $0 } == 0, "\(output)")
        #expect(output.contains("removed \(directory.appendingPathComponent("Gone.swift").path)"), "\(output)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == [
            "Car.swift", "ExpensiveSportCar.swift", "Mine.swift", "Other.swift", "Person.swift", "SampleModel_V1Model.swift", "SportCar.swift",
        ])
    }

    @Test("A class or property name that is not a Swift identifier, or that would hide a module or the registration type, is refused with the name")
    func refusals() throws {
        let model = ManagedObjectModel {
            Entity("Ticket") { Attribute("fetchRequest", .string) }
        }
        #expect {
            try ModelCodeGenerator(model: model.checked(), name: "T", source: "test").files()
        } throws: { error in
            "\(error)".contains("Ticket.fetchRequest") && "\(error)".contains("collides")
        }
        // The generated code names types through these modules, and the registration type is `<name>Model`.
        for entity in ["Foundation", "Swift", "Faultline", "TModel"] {
            let model = ManagedObjectModel { Entity(entity) { Attribute("title", .string) } }
            #expect {
                try ModelCodeGenerator(model: model.checked(), name: "T", source: "test").files()
            } throws: { error in
                "\(error)".contains("entity \(entity)")
            }
        }
        // Names the generated code could not compile: no backquotes make `Self` or `_` a
        // member, a keyword a class, and a member named like a type hides it in the class.
        let hostile: [(ManagedObjectModel, String)] = [
            (ManagedObjectModel { Entity("Ticket") { Attribute("validatesKeys", .string) } }, "Ticket.validatesKeys: the name collides"),
            (ManagedObjectModel { Entity("Ticket") { Attribute("Self", .string) } }, "Ticket.Self: 'Self' is not a Swift identifier"),
            (ManagedObjectModel { Entity("Ticket") { Attribute("_", .string) } }, "Ticket._: '_' is not a Swift identifier"),
            (ManagedObjectModel { Entity("Any") { Attribute("title", .string) } }, "entity Any: the class name 'Any' is a Swift keyword"),
            (ManagedObjectModel { Entity("Self") { Attribute("title", .string) } }, "entity Self: the class name 'Self' is a Swift keyword"),
            (ManagedObjectModel { Entity("class") { Attribute("title", .string) } }, "entity class: the class name 'class' is a Swift keyword"),
            (ManagedObjectModel { Entity("Item") { Attribute("Item", .string) } }, "Item.Item: a property named like the type Item"),
            (ManagedObjectModel {
                Entity("Item") { Attribute("Tag", .string) }
                Entity("Tag") { Attribute("label", .string) }
            }, "Item.Tag: a property named like the type Tag"),
            (ManagedObjectModel { Entity("Item") { Attribute("Faultline", .string) } }, "Item.Faultline: a property named like the type Faultline"),
        ]
        for (model, message) in hostile {
            #expect {
                try ModelCodeGenerator(model: model.checked(), name: "T", source: "test").files()
            } throws: { error in
                "\(error)".contains(message)
            }
        }
        let renamed = ManagedObjectModel { Entity("Ticket") { Attribute("title", .string) } }
        renamed.entitiesByName["Ticket"]?.managedObjectClassName = "My-Ticket"
        #expect {
            try ModelCodeGenerator(model: renamed.checked(), name: "T", source: "test").files()
        } throws: { error in
            "\(error)".contains("'My-Ticket' is not a Swift identifier")
        }
    }
}
