// The fixture-schema tests' names for the shared fixture helpers
// (`FixtureSupport/CoreDataFixtures.swift`): where the stores are, copying one
// somewhere writable, and a fresh temporary folder.

import FixtureSupport
import Foundation

enum FixtureLocator {
    static func storesDirectory() throws -> URL { try CoreDataFixtures.root() }

    static func copyStore(_ relativePath: String, into directory: URL) throws -> String {
        try CoreDataFixtures.copyStore(relativePath, into: directory)
    }

    static func makeTemporaryDirectory() throws -> URL {
        try CoreDataFixtures.temporaryDirectory(prefix: "faultline-fixture-schemas")
    }
}
