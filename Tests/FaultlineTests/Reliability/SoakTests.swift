import Foundation
import Testing
import FaultlineSQLite
@testable import Faultline

/// Four contexts on four threads insert, update, reparent, delete, fetch and
/// batch-delete at random against one store for a bounded time
/// (`FAULTLINE_SOAK_SECONDS`: 5 by default, beside the other tests; CI runs
/// it alone for 60). After every step a
/// checker reads the store in one snapshot and holds it to every invariant —
/// derived counts and sums equal to the rows they count, canonical columns
/// equal to their source, no reference to a deleted row, every key reserved
/// (`Z_MAX` ≥ max `Z_PK`), versions positive — and the worker checks its
/// objects' inverses in memory. Conflicts between the contexts are expected:
/// three workers resolve them by merge policy (object trump, store trump,
/// overwrite), the fourth (`.error`) rolls back; any other error fails.
@Suite("Soak: four contexts writing and reading one store at random keep every invariant")
struct SoakTests {
    static let workers = 4
    static let minimumSteps = 100

    static var seconds: TimeInterval {
        ProcessInfo.processInfo.environment["FAULTLINE_SOAK_SECONDS"].flatMap(TimeInterval.init) ?? 5
    }

    static var model: ManagedObjectModel {
        ManagedObjectModel {
            Entity("Author") {
                Attribute("name", .string)
                Relationship("books", to: "Book", inverse: "author", toMany: true)
                Derived("bookCount", .integer64, "books.@count")
                Derived("totalPages", .integer64, "@sum.books.pages")
            }
            Entity("Book") {
                Attribute("title", .string)
                Attribute("pages", .integer64)
                Relationship("author", to: "Author", inverse: "books")
                Derived("searchTitle", .string, "canonical:(title)")
            }
        }
    }

    /// The invariants, each a count of the rows that break it, read in one statement (one snapshot).
    static let invariantSQL = """
        SELECT
          (SELECT COUNT(*) FROM ZAUTHOR a WHERE a.ZBOOKCOUNT IS NOT (SELECT COUNT(*) FROM ZBOOK b WHERE b.ZAUTHOR = a.Z_PK)),
          (SELECT COUNT(*) FROM ZAUTHOR a
             WHERE COALESCE(a.ZTOTALPAGES, 0) IS NOT (SELECT COALESCE(SUM(b.ZPAGES), 0) FROM ZBOOK b WHERE b.ZAUTHOR = a.Z_PK)),
          (SELECT COUNT(*) FROM ZBOOK WHERE ZSEARCHTITLE IS NOT FAULTLINE_CANONICAL(ZTITLE)),
          (SELECT COUNT(*) FROM ZBOOK WHERE ZAUTHOR IS NOT NULL AND ZAUTHOR NOT IN (SELECT Z_PK FROM ZAUTHOR)),
          (SELECT COUNT(*) FROM Z_PRIMARYKEY k WHERE k.Z_MAX < COALESCE(
             CASE k.Z_NAME WHEN 'Author' THEN (SELECT MAX(Z_PK) FROM ZAUTHOR) ELSE (SELECT MAX(Z_PK) FROM ZBOOK) END, 0)),
          (SELECT COUNT(*) FROM ZAUTHOR WHERE Z_OPT < 1) + (SELECT COUNT(*) FROM ZBOOK WHERE Z_OPT < 1)
        """
    static let invariantNames = ["bookCount", "totalPages", "searchTitle", "dangling author", "Z_MAX", "Z_OPT"]

    /// What one worker did and what went wrong.
    struct Tally: Sendable {
        var steps = 0
        var saves = 0
        var conflicts = 0
        var batchDeletes = 0
        var fetches = 0
        var violations: [String] = []
    }

    @Test("Four contexts at random for the soak time: every invariant holds after every step")
    func soak() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("faultline-soak-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("store.sqlite")
        let container = try PersistentContainer(model: Self.model, location: .file(url))
        // Each worker walks for the soak time and at least `minimumSteps`
        // steps, so a machine slowed by other work (or ThreadSanitizer) soaks
        // longer instead of failing for too few steps; it gives up only at
        // twenty times the soak time.
        let deadline = Date().addingTimeInterval(Self.seconds)
        let giveUp = Date().addingTimeInterval(Self.seconds * 20)
        let tallies = Locked<[Tally]>([])
        // Threads of their own: all four walk at once whatever the core count.
        let finished = DispatchGroup()
        for worker in 0..<Self.workers {
            finished.enter()
            Thread {
                var tally = Tally()
                do {
                    var walker = try SoakWorker(container: container, url: url, seed: UInt64(worker + 1))
                    try walker.run(until: deadline, atLeast: Self.minimumSteps, giveUpAt: giveUp, tally: &tally)
                } catch {
                    tally.violations.append("worker \(worker) stopped: \(error)")
                }
                tallies.withLock { $0.append(tally) }
                finished.leave()
            }.start()
        }
        finished.wait()
        #expect(tallies.withLock { $0.allSatisfy { $0.steps > 0 } }, "a worker never ran")
        let all = tallies.withLock { $0 }
        let violations = all.flatMap(\.violations)
        #expect(violations.isEmpty, "\(violations.count) violations, first: \(violations.prefix(5))")
        let connection = try Connection(.file(url.path))
        #expect(try connection.scalar("PRAGMA integrity_check") == .text("ok"))
        let steps = all.map(\.steps).reduce(0, +)
        #expect(all.allSatisfy { $0.steps >= Self.minimumSteps }, "too few steps to call it a soak: \(all.map(\.steps))")
        print("soak: \(Self.seconds) s, \(Self.workers) contexts, \(steps) steps, \(all.map(\.saves).reduce(0, +)) saves, "
            + "\(all.map(\.conflicts).reduce(0, +)) conflicts rolled back, \(all.map(\.batchDeletes).reduce(0, +)) batch deletes, "
            + "\(all.map(\.fetches).reduce(0, +)) fetches, \(violations.count) violations")
    }
}

/// One context's random walk, with the checks after every step.
struct SoakWorker {
    let context: ManagedObjectContext
    let checker: Connection
    var generator: SeededGenerator
    /// Books an earlier step fetched, changed again by later ones: by then
    /// other contexts may have saved them, which is what makes conflicts.
    final class Held { var books: [ManagedObject] = [] }
    let held = Held()

    init(container: PersistentContainer, url: URL, seed: UInt64) throws {
        context = container.newBackgroundContext()
        // Each worker resolves conflicts its own way; under `.error` the walk rolls back.
        context.mergePolicy = [.mergeByPropertyObjectTrump, .mergeByPropertyStoreTrump, .overwrite, .error][Int(seed) % 4]
        checker = try Connection(.file(url.path))
        try StoreFunctions.register(on: checker)
        generator = SeededGenerator(seed: seed)
    }

    mutating func run(until deadline: Date, atLeast minimumSteps: Int, giveUpAt giveUp: Date,
                      tally: inout SoakTests.Tally) throws {
        while Date() < deadline || tally.steps < minimumSteps, Date() < giveUp {
            tally.steps += 1
            let choice = Int.random(in: 0..<100, using: &generator)
            let context = self.context
            let held = self.held
            var rng = generator
            let outcome: String? = try context.performAndWait { () throws -> String? in
                defer {
                    if Int.random(in: 0..<20, using: &rng) == 0 {
                        context.reset()
                        held.books = []
                    }
                }
                switch choice {
                case 0..<30: try Self.insert(context, &rng)
                case 30..<55:
                    // A held book another worker deleted since refuses the
                    // write, as Core Data's inaccessible fault raises: a race
                    // lost, like a conflict.
                    do { try Self.update(context, held, &rng) } catch ObjectAccessError.deleted {
                        context.rollback()
                        held.books = []
                        return "conflict"
                    }
                case 55..<65: try Self.deleteAuthor(context, &rng)
                case 65..<70:
                    let low = Int64.random(in: 0..<1_000, using: &rng)
                    _ = try context.execute(BatchDeleteRequest(
                        entityName: "Book", predicate: try FetchPredicate(format: "pages >= %@ AND pages < %@", low, low + 5)))
                    return "batch delete"
                default:
                    held.books = []
                    return try Self.fetchAndCheckInverses(context, &rng)
                }
                do {
                    try context.save()
                    return "save"
                } catch SaveError.conflicts {
                    context.rollback()
                    return "conflict"
                }
            }
            generator = rng
            switch outcome {
            case "save": tally.saves += 1
            case "conflict": tally.conflicts += 1
            case "batch delete": tally.batchDeletes += 1
            case "fetch": tally.fetches += 1
            case let problem?: tally.violations.append(problem)
            case nil: break
            }
            try checkStore(&tally)
        }
    }

    private func checkStore(_ tally: inout SoakTests.Tally) throws {
        guard let row = try checker.rows(SoakTests.invariantSQL).first else { return }
        for (index, value) in row.enumerated() where value != .integer(0) {
            tally.violations.append("after step \(tally.steps): \(SoakTests.invariantNames[index]) broken in \(value) rows")
        }
    }

    static func randomAuthor(_ context: ManagedObjectContext, _ rng: inout SeededGenerator) throws -> ManagedObject? {
        var request = FetchRequest(entityName: "Author")
        request.predicate = try FetchPredicate(format: "name ENDSWITH %@", "\(Int.random(in: 0..<10, using: &rng))")
        request.fetchLimit = 3
        return try context.fetch(request).randomElement(using: &rng)
    }

    static func insert(_ context: ManagedObjectContext, _ rng: inout SeededGenerator) throws {
        let author = try context.insertNewObject(forEntityName: "Author")
        try author.setValue("Author \(Int.random(in: 0..<1_000_000, using: &rng))", forKey: "name")
        for _ in 0..<Int.random(in: 0...5, using: &rng) {
            let book = try context.insertNewObject(forEntityName: "Book")
            try book.setValue("Élan \(Int.random(in: 0..<1_000_000, using: &rng)) Naïve", forKey: "title")
            try book.setValue(Int64.random(in: 0..<1_000, using: &rng), forKey: "pages")
            try book.setValue(author, forKey: "author")
        }
    }

    static func update(_ context: ManagedObjectContext, _ held: Held, _ rng: inout SeededGenerator) throws {
        var request = FetchRequest(entityName: "Book")
        request.predicate = try FetchPredicate(format: "pages < %@", Int64.random(in: 0..<1_000, using: &rng))
        request.fetchLimit = 5
        let target = try randomAuthor(context, &rng)
        let books = held.books.isEmpty || Bool.random(using: &rng) ? try context.fetch(request) : held.books
        held.books = books.filter { !$0.isDeleted && $0.managedObjectContext != nil }
        for book in held.books {
            try book.setValue(Int64.random(in: 0..<1_000, using: &rng), forKey: "pages")
            if Bool.random(using: &rng) { try book.setValue("Retitled Ä \(Int.random(in: 0..<1_000, using: &rng))", forKey: "title") }
            if let target, Int.random(in: 0..<3, using: &rng) == 0 { try book.setValue(target, forKey: "author") }
        }
    }

    static func deleteAuthor(_ context: ManagedObjectContext, _ rng: inout SeededGenerator) throws {
        if let author = try randomAuthor(context, &rng) { context.delete(author) }
    }

    /// Fetches authors and checks, in memory, that each book of each points
    /// back at it. The context starts afresh, pinned to one query generation,
    /// so every read sees the same version of the store: unpinned, an object
    /// read earlier may rightly be older than a relationship read now.
    static func fetchAndCheckInverses(_ context: ManagedObjectContext, _ rng: inout SeededGenerator) throws -> String {
        context.reset()
        try context.setQueryGenerationFrom(.current)
        defer { try? context.setQueryGenerationFrom(nil) }
        var request = FetchRequest(entityName: "Author")
        request.predicate = try FetchPredicate(format: "bookCount > %@", Int64.random(in: 0..<3, using: &rng))
        request.fetchLimit = 20
        for author in try context.fetch(request) {
            let books = author.value(forKey: "books") as? [ManagedObject] ?? []
            for book in books where (book.value(forKey: "author") as? ManagedObject) !== author {
                return "inverse broken: \(book.objectID) is among \(author.objectID)'s books but points elsewhere"
            }
        }
        return "fetch"
    }
}
