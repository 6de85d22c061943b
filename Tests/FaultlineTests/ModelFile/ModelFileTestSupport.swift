// Shared helpers for the model file tests: temporary folders, the shared fixture
// folder (`FixtureSupport`), transformers the fixture models
// name, and a deterministic random number generator for the fuzz test.

import FixtureSupport
import Foundation
import Testing
import Faultline

enum ModelFileTestSupport {
    /// The shared Core Data fixtures (`FixtureSupport`); a test run without
    /// them is cancelled with one line saying so.
    static func coreDataStores() throws -> URL { try CoreDataFixtures.root() }

    /// The fixture bundles, by a short name.
    static func fixture(_ name: Fixture) throws -> URL {
        try CoreDataFixtures.url(name.relativePath)
    }

    enum Fixture: CaseIterable {
        case recipes, groceryDude, easyLife, cartKit

        var relativePath: String {
            switch self {
            case .recipes: "alhoqbani__AppleSample-iPhoneCoreDataRecipes/Recipes/Recipes.xcdatamodeld"
            case .groceryDude: "linjk__JimGroceryDude/JimGroceryDude/Model/DataModel/Model.xcdatamodeld"
            case .easyLife: "larromba__EasyLife/EasyLife/EasyLife.xcdatamodeld"
            case .cartKit: "Karim-ezzedine__CartKit/Sources/CartKitStorageCoreData/Resources/CartStorage.xcdatamodeld"
            }
        }
    }

    /// A fresh, empty temporary folder; the caller removes it.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("faultline-modelfile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Writes `xml` as `<folder>/<name>.xcdatamodel/contents` and returns the `.xcdatamodel` URL.
    static func writeVersion(_ xml: String, named name: String = "Model", in folder: URL) throws -> URL {
        let version = folder.appendingPathComponent(name + ".xcdatamodel")
        try FileManager.default.createDirectory(at: version, withIntermediateDirectories: true)
        try Data(xml.utf8).write(to: version.appendingPathComponent("contents"))
        return version
    }

    /// Reads an inline document.
    static func read(_ xml: String) throws(ModelFileError) -> ModelBundleVersion {
        try ModelFileReader().readContents(Data(xml.utf8), versionName: "Test", file: "test.xml")
    }

    /// Registers pass-through transformers under the names the test and fixture models use.
    static func registerTransformers() {
        for name in ["ImageToDataTransformer", "KitchenSinkTransformer"] {
            ValueTransformerRegistry.register(PassthroughTransformer(), forName: name)
        }
    }

    struct PassthroughTransformer: AttributeValueTransformer {
        struct NotData: Error {}
        func encode(_ value: Any) throws -> Data {
            guard let data = value as? Data else { throw NotData() }
            return data
        }
        func decode(_ data: Data) throws -> Any { data }
    }
}

