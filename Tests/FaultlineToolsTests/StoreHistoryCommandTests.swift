import Faultline
import FixtureSupport
import Foundation
import Testing
@testable import FaultlineTools

/// `faultline store history` on a real store's history (Apple Notes):
/// one JSON object per transaction, every change row there, `--after`
/// continuing from a transaction, the store never written, bad input exit 2.
@Suite("Store history")
struct StoreHistoryCommandTests {
    static let notes = "log2timeline__plaso/ios/NoteStore.sqlite"

    private func run(_ arguments: [String]) -> (status: Int32, output: String) {
        var output = ""
        let status = StoreCommand.run(arguments) { output += $0 }
        return (status, output)
    }

    @Test("--json prints one object per transaction with every change; --after continues after a transaction; the file is not written")
    func notesHistory() throws {
        let (directory, path) = try InspectFixtures.writableCopy(Self.notes)
        defer { try? FileManager.default.removeItem(at: directory) }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let result = run(["history", path, "--json"])
        #expect(result.status == 0, "\(result.output.prefix(400))")
        let lines = result.output.split(separator: "\n")
        #expect(lines.count == 84)
        var numbers: [Int] = []
        var changes = 0
        var kinds: Set<String> = []
        for line in lines {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            numbers.append(try #require(object["transaction"] as? Int))
            let entries = try #require(object["changes"] as? [[String: Any]])
            changes += entries.count
            for entry in entries {
                kinds.insert(try #require(entry["type"] as? String))
                #expect((entry["object"] as? String)?.hasPrefix("x-coredata://") == true)
                if entry["type"] as? String == "update" { #expect((entry["changed"] as? [String])?.isEmpty == false) }
            }
        }
        #expect(numbers == numbers.sorted() && numbers.count == Set(numbers).count)
        #expect(changes == 298)
        #expect(kinds == ["insert", "update", "delete"])
        #expect(lines.first?.contains("\"processID\":\"MobileNotes\"") == true || lines.dropFirst(2).first?.contains("MobileNotes") == true)

        let later = run(["history", path, "--after", "80", "--json"])
        #expect(later.status == 0)
        #expect(later.output.split(separator: "\n").count == numbers.filter { $0 > 80 }.count)

        let text = run(["history", path, "--after", "80"])
        #expect(text.status == 0)
        #expect(text.output.contains("transaction \(numbers.last ?? 0) at "))
        #expect(text.output.contains("  update x-coredata://"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before, "store history wrote the store")
    }

    @Test("Bad input exits 2 with the reason: a bad --after, a missing store, a store without history")
    func badInput() throws {
        let (directory, path) = try InspectFixtures.writableCopy(Self.notes)
        defer { try? FileManager.default.removeItem(at: directory) }
        let bad = run(["history", path, "--after", "soon"])
        #expect(bad.status == 2)
        #expect(bad.output.contains("--after takes a transaction number"))
        for value in [":5", "5:", "-1", "A:B:"] {
            let malformed = run(["history", path, "--after", value])
            #expect(malformed.status == 2 && malformed.output.contains("--after takes a transaction number"), "\(value)")
        }
        // A token names its store: another store's is refused, never read as this one's number.
        let foreign = run(["history", path, "--after", "00000000-0000-0000-0000-000000000000:5"])
        #expect(foreign.status == 2, "\(foreign.output.prefix(300))")
        #expect(foreign.output.contains("00000000-0000-0000-0000-000000000000"))
        let missing = run(["history", directory.appendingPathComponent("none.sqlite").path])
        #expect(missing.status == 2)
        #expect(missing.output.contains("no store at"))
        let (plainDirectory, plain) = try InspectFixtures.writableCopy("Karim-ezzedine__CartKit/Tests/CartKitStorageCoreDataTests/LegacyCoreData/CartStorage_v1.sqlite")
        defer { try? FileManager.default.removeItem(at: plainDirectory) }
        let none = run(["history", plain])
        #expect(none.status == 2, "\(none.output)")
        #expect(none.output.contains("records no persistent history"))
    }

    @Test("A token as printed continues after its transaction")
    func tokenAsPrinted() throws {
        let (directory, path) = try InspectFixtures.writableCopy(Self.notes)
        defer { try? FileManager.default.removeItem(at: directory) }
        let all = run(["history", path, "--json"])
        let first = try #require(all.output.split(separator: "\n").first)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(first.utf8)) as? [String: Any])
        let token = try #require(object["token"] as? String)
        let later = run(["history", path, "--after", token, "--json"])
        #expect(later.status == 0, "\(later.output.prefix(300))")
        #expect(later.output.split(separator: "\n").count == all.output.split(separator: "\n").count - 1)
    }

    @Test("A store whose model names the app's value transformers: its history reads without them")
    func unregisteredTransformers() throws {
        let (directory, path) = try InspectFixtures.writableCopy("alemar11__CoreDataPlus/SampleModel2_V1.sqlite")
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = run(["history", path, "--json"])
        #expect(result.status == 0, "\(result.output.prefix(400))")
        #expect(result.output.split(separator: "\n").count > 0)
    }
}
