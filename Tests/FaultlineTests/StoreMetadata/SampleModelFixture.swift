// alemar11/CoreDataPlus's SampleModel, as Core Data wrote it: the model
// bundle (versions "SampleModel", identifier "1", and "SampleModel2",
// identifier "2", with the compiled .momd beside it, so their entity hashes
// are Core Data's), the V1 store Core Data made with the first and the V2
// store Core Data's own migration made from it. Shared by the metadata suites.

import Foundation
import Testing
import FixtureSupport
@testable import Faultline

enum SampleModelFixture {
    static let folder = "alemar11__CoreDataPlus"
    static let v1Store = "\(folder)/SampleModel_V1.sqlite"
    static let v2Store = "\(folder)/SampleModel_V2.sqlite"

    /// The bundle's version `name`, read afresh (an editable model of its own).
    static func version(_ name: String) throws -> ModelBundleVersion {
        let bundle = try ModelFileReader().read(at: CoreDataFixtures.url("\(folder)/SampleModel.xcdatamodeld"))
        let version = try #require(bundle.version(named: name), "no version \(name) in \(folder)/SampleModel.xcdatamodeld")
        // Car.color names CoreDataPlus's ColorTransformer, which only that app has.
        ValueTransformerRegistry.registerMissing(in: version.model, standIn: UnavailableTransformer())
        return version
    }

    static func v1() throws -> ModelBundleVersion { try version("SampleModel") }
    static func v2() throws -> ModelBundleVersion { try version("SampleModel2") }

    /// The bytes of the store and of each side file, nil where there is none.
    static func files(_ url: URL) -> [Data?] {
        ["", "-wal", "-shm", "-journal"].map { FileManager.default.contents(atPath: url.path + $0) }
    }
}
