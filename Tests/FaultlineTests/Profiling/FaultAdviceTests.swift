import Foundation
import Testing
@testable import Faultline

/// The fault profiler (`recordsFaultAdvice`, or `FAULTLINE_FAULT_ADVICE=1`):
/// after a fetch's objects have been used, each relationship path the code
/// went through is reported with the faults it fired and the statements they
/// sent — counted by the store's own statement counter here — and the prefetch
/// or fetch setting that would have sent fewer. Off by default, with no
/// profiler object at all.
@Suite("Fault advice: the faults a fetch's objects fired, per key path, and what would have avoided them")
struct FaultAdviceTests {
    /// 1,000 authors with two books each, in a store whose row cache is then emptied.
    static func library() throws -> PersistentContainer {
        let container = try PersistentContainer(model: LibraryModel.model(), location: .inMemory)
        let writer = container.newBackgroundContext()
        try writer.performAndWait {
            for number in 0..<1_000 {
                let author = try writer.insertNewObject(forEntityName: "Author")
                try author.setValue("Author \(number)", forKey: "name")
                for volume in 1...2 {
                    let book = try writer.insertNewObject(forEntityName: "Book")
                    try book.setValue("Book \(number).\(volume)", forKey: "title")
                    try book.setValue(author, forKey: "author")
                }
            }
            try writer.save()
        }
        container.coordinator.rowCache.removeAll()
        return container
    }

    static func statements(_ container: PersistentContainer) -> Int { container.coordinator.writer.counters.statementsExecuted }

    /// Fetches authors with `configure`, then reads every author's books' titles; the statements the loop sent.
    static func lazyLoop(_ context: ManagedObjectContext, _ container: PersistentContainer,
                         _ configure: (inout FetchRequest) -> Void = { _ in }) throws -> (titles: Int, statements: Int) {
        try context.performAndWait {
            var request = FetchRequest(entityName: "Author")
            request.returnsObjectsAsFaults = false
            configure(&request)
            let authors = try context.fetch(request)
            let before = statements(container)
            var titles = 0
            for author in authors {
                for book in author.value(forKey: "books") as? [ManagedObject] ?? [] where book.value(forKey: "title") is String {
                    titles += 1
                }
            }
            return (titles, statements(container) - before)
        }
    }

    @Test("A lazy loop over 1,000 authors' books: advice on `books` with every statement it sent; prefetching leaves none")
    func toManyLoop() throws {
        let container = try Self.library()
        let context = container.newBackgroundContext()
        context.recordsFaultAdvice = true
        let lazy = try Self.lazyLoop(context, container)
        #expect(lazy.titles == 2_000)
        let advice = try #require(context.faultAdvice.first)
        #expect(context.faultAdvice.count == 1)
        #expect(advice.entityName == "Author" && advice.keyPath == "books")
        #expect(advice.location.hasPrefix("FaultlineTests/FaultAdviceTests.swift:"), "\(advice.location)")
        #expect(advice.statements == lazy.statements && advice.faults == lazy.statements)
        #expect(advice.statements >= 1_000)
        #expect(advice.suggestion == #"relationshipKeyPathsForPrefetching = ["books"]"# && advice.statementsWithSuggestion == 1)
        #expect(advice.description.hasSuffix(
            "faults through `books` (\(FaultAdvice.grouped(lazy.statements)) statements); relationshipKeyPathsForPrefetching = [\"books\"] would take 1"))
        print("fault advice: \(advice)")

        container.coordinator.rowCache.removeAll()
        let prefetching = container.newBackgroundContext()
        prefetching.recordsFaultAdvice = true
        let prefetched = try Self.lazyLoop(prefetching, container) { $0.relationshipKeyPathsForPrefetching = ["books"] }
        #expect(prefetched.titles == 2_000 && prefetched.statements == 0)
        #expect(prefetching.faultAdvice == [])
    }

    @Test("A to-one read from every fetched book is advised as `author`; the fetched objects' own faults as returnsObjectsAsFaults")
    func toOneAndOwnFaults() throws {
        let container = try Self.library()
        let context = container.newBackgroundContext()
        context.recordsFaultAdvice = true
        let sent = try context.performAndWait {
            var request = FetchRequest(entityName: "Book")
            request.fetchLimit = 300
            // Faults (returnsObjectsAsFaults is true by default) whose rows the
            // fetch left in the row cache: emptied, each fault goes to SQL.
            let books = try context.fetch(request)
            container.coordinator.rowCache.removeAll()
            let before = Self.statements(container)
            let names = books.compactMap { ($0.value(forKey: "author") as? ManagedObject)?.value(forKey: "name") as? String }
            #expect(names.count == 300)
            return Self.statements(container) - before
        }
        let advice = context.faultAdvice
        #expect(advice.map(\.keyPath) == ["", "author"])
        #expect(advice.map(\.statements).reduce(0, +) == sent)
        #expect(advice.first?.suggestion == "returnsObjectsAsFaults = false" && advice.first?.statementsWithSuggestion == 0)
        #expect(advice.last?.suggestion == #"relationshipKeyPathsForPrefetching = ["author"]"#)
    }

    @Test("A sub-entity's relationship is advised as a fetch of that sub-entity, which then sends the statement promised")
    func subEntityRelationship() throws {
        let model = ManagedObjectModel {
            Entity("Item") { Attribute("name", .string) }
            Entity("Special", parent: "Item") { Relationship("extras", to: "Extra", inverse: "owner", toMany: true) }
            Entity("Extra") {
                Attribute("label", .string)
                Relationship("owner", to: "Special", inverse: "extras")
            }
        }
        let container = try PersistentContainer(model: model, location: .inMemory)
        let writer = container.newBackgroundContext()
        try writer.performAndWait {
            for number in 0..<20 {
                let special = try writer.insertNewObject(forEntityName: number.isMultiple(of: 2) ? "Special" : "Item")
                guard number.isMultiple(of: 2) else { continue }
                for _ in 0..<3 { try writer.insertNewObject(forEntityName: "Extra").setValue(special, forKey: "owner") }
            }
            try writer.save()
        }
        func labels(fetching entity: String, _ prefetch: [String]) throws -> (advice: [FaultAdvice], statements: Int) {
            container.coordinator.rowCache.removeAll()
            let context = container.newBackgroundContext()
            context.recordsFaultAdvice = true
            let sent = try context.performAndWait {
                var request = FetchRequest(entityName: entity)
                request.returnsObjectsAsFaults = false
                request.relationshipKeyPathsForPrefetching = prefetch
                let items = try context.fetch(request)
                let before = Self.statements(container)
                for item in items where item.entity?.name == "Special" {
                    for extra in item.value(forKey: "extras") as? [ManagedObject] ?? [] { _ = extra.value(forKey: "label") }
                }
                return Self.statements(container) - before
            }
            return (context.faultAdvice, sent)
        }
        let lazy = try labels(fetching: "Item", [])
        #expect(lazy.statements == 10)
        #expect(lazy.advice.map(\.suggestion) == [#"a fetch of Special with relationshipKeyPathsForPrefetching = ["extras"]"#])
        #expect(lazy.advice.first?.statementsWithSuggestion == 1)
        // The advice followed: the fetch it names accepts the path and sends nothing more.
        let followed = try labels(fetching: "Special", ["extras"])
        #expect(followed.statements == 0 && followed.advice.isEmpty)
    }

    @Test("Faults of objects fetched without property values are advised as includesPropertyValues; a batched prefetch costs a statement per batch")
    func withoutPropertyValuesAndBatches() throws {
        let container = try Self.library()
        let context = container.newBackgroundContext()
        context.recordsFaultAdvice = true
        try context.performAndWait {
            var request = FetchRequest(entityName: "Author")
            request.includesPropertyValues = false
            request.fetchLimit = 50
            for author in try context.fetch(request) { _ = author.value(forKey: "name") }
            var batched = FetchRequest(entityName: "Book")
            batched.fetchBatchSize = 20
            batched.fetchLimit = 200
            for book in try context.fetch(batched) { _ = (book.value(forKey: "author") as? ManagedObject)?.value(forKey: "name") }
        }
        let advice = context.faultAdvice
        let own = try #require(advice.first { $0.entityName == "Author" })
        #expect(own.keyPath == "" && own.suggestion == "includesPropertyValues = true" && own.statementsWithSuggestion == 0)
        let author = try #require(advice.first { $0.entityName == "Book" && $0.keyPath == "author" })
        // 200 books in batches of 20: ten batches, one prefetch statement each.
        #expect(author.suggestion == #"relationshipKeyPathsForPrefetching = ["author"]"# && author.statementsWithSuggestion == 10)
    }

    @Test("Off by default: no profiler, no advice, the same statements")
    func offByDefault() throws {
        let container = try Self.library()
        let context = container.newBackgroundContext()
        #expect(!context.recordsFaultAdvice && context.faultAdvisor == nil)
        let lazy = try Self.lazyLoop(context, container)
        #expect(lazy.titles == 2_000)
        #expect(context.faultAdvice == [] && context.faultAdvisor == nil)
    }
}
