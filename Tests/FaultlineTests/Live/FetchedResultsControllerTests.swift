import Foundation
import Testing
@testable import Faultline

/// A fetched-results controller keeps a sorted, sectioned fetch current as its
/// context saves and merges other saves, and tells its delegate the changes
/// in an order that, applied as a table view applies a batch, turns the old
/// state into the new one.
@Suite("Fetched results controller")
struct FetchedResultsControllerTests {
    static func model() -> ManagedObjectModel {
        ManagedObjectModel {
            Entity("Item") {
                Attribute("group", .string)
                Attribute("rank", .integer64)
                Attribute("visible", .boolean)
                Attribute("note", .string)
            }
        }
    }

    static func request() throws -> FetchRequest {
        var request = FetchRequest(entityName: "Item")
        request.predicate = try FetchPredicate(format: "visible == YES")
        request.sortDescriptors = [FetchSortDescriptor(key: "group"), FetchSortDescriptor(key: "rank")]
        return request
    }

    /// Records every callback, and replays them on the old sections as a table view would.
    final class Recorder: FetchedResultsControllerDelegate {
        enum Event: Equatable {
            case will, did
            case section(String, Int, FetchedResultsChangeType)
            case object(ManagedObjectID, IndexPath?, FetchedResultsChangeType, IndexPath?)
        }
        /// Objects are kept, not their IDs: an object inserted and reported
        /// before its save takes a permanent ID when saved.
        private enum Recorded {
            case event(Event)
            case object(ManagedObject, IndexPath?, FetchedResultsChangeType, IndexPath?)
        }
        private var recorded: [Recorded] = []

        /// The callbacks, objects by their IDs now.
        var events: [Event] {
            recorded.map {
                switch $0 {
                case .event(let event): event
                case .object(let object, let old, let type, let new): .object(object.objectID, old, type, new)
                }
            }
        }

        func reset() { recorded = [] }

        func controllerWillChangeContent(_ controller: FetchedResultsController) { recorded.append(.event(.will)) }
        func controller(_ controller: FetchedResultsController, didChange section: FetchedResultsSection,
                        atSectionIndex sectionIndex: Int, for type: FetchedResultsChangeType) {
            recorded.append(.event(.section(section.name, sectionIndex, type)))
        }
        func controller(_ controller: FetchedResultsController, didChange object: ManagedObject, at indexPath: IndexPath?,
                        for type: FetchedResultsChangeType, newIndexPath: IndexPath?) {
            recorded.append(.object(object, indexPath, type, newIndexPath))
        }
        func controllerDidChangeContent(_ controller: FetchedResultsController) { recorded.append(.event(.did)) }

        /// `old` (section names and their IDs) with each recorded batch (from
        /// a will-change to its did-change) applied in turn.
        func replay(on old: [(String, [ManagedObjectID])]) -> [(String, [ManagedObjectID])] {
            replay(on: old, key: \.objectID)
        }

        /// The same with objects named by `key` (their identity, say, when
        /// unsaved ones take permanent IDs in between).
        func replay<Key>(on old: [(String, [Key])], key: (ManagedObject) -> Key) -> [(String, [Key])] {
            var sections = old
            var batch: [Event] = []
            var objects: [ManagedObjectID: ManagedObject] = [:]
            for case .object(let object, _, _, _) in recorded { objects[object.objectID] = object }
            for event in events {
                if event == .did {
                    sections = Self.apply(batch, to: sections) { objects[$0].map(key)! }
                    batch = []
                } else {
                    batch.append(event)
                }
            }
            return sections
        }

        private static func apply<Key>(_ events: [Event], to old: [(String, [Key])], key: (ManagedObjectID) -> Key) -> [(String, [Key])] {
            var sections = old
            var removals: [IndexPath] = [], insertions: [(IndexPath, Key)] = []
            var sectionRemovals: [Int] = [], sectionInsertions: [(Int, String)] = []
            for event in events {
                switch event {
                case .section(_, let index, .delete): sectionRemovals.append(index)
                case .section(let name, let index, .insert): sectionInsertions.append((index, name))
                case .object(_, let old?, .delete, _): removals.append(old)
                case .object(let id, _, .insert, let new?): insertions.append((new, key(id)))
                case .object(let id, let old?, .move, let new?): removals.append(old); insertions.append((new, key(id)))
                default: break
                }
            }
            for path in removals.sorted(by: >) { sections[path.section].1.remove(at: path.item) }
            for index in sectionRemovals.sorted(by: >) { sections.remove(at: index) }
            for (index, name) in sectionInsertions.sorted(by: { $0.0 < $1.0 }) { sections.insert((name, []), at: index) }
            for (path, id) in insertions.sorted(by: { $0.0 < $1.0 }) { sections[path.section].1.insert(id, at: path.item) }
            return sections
        }
    }

    /// Records the differences a difference delegate gets.
    final class DifferenceRecorder: FetchedResultsControllerDifferenceDelegate {
        private(set) var differences: [CollectionDifference<ManagedObjectID>] = []
        /// Object callbacks, which a difference delegate must not get.
        private(set) var objectCallbacks = 0

        func controller(_ controller: FetchedResultsController, didChangeContentWith difference: CollectionDifference<ManagedObjectID>) {
            differences.append(difference)
        }
        func controller(_ controller: FetchedResultsController, didChange object: ManagedObject, at indexPath: IndexPath?,
                        for type: FetchedResultsChangeType, newIndexPath: IndexPath?) {
            objectCallbacks += 1
        }

        func reset() { differences = [] }

        /// The IDs of `old` with every difference applied in turn (nil when one does not apply).
        func applyDifferences(to old: [ManagedObjectID]) -> [ManagedObjectID]? {
            var ids = old
            for difference in differences {
                guard let next = ids.applying(difference) else { return nil }
                ids = next
            }
            return ids
        }
    }

    static func state(_ controller: FetchedResultsController) -> [(String, [ManagedObjectID])] {
        (controller.sections ?? []).map { ($0.name, $0.objects.map(\.objectID)) }
    }

    static func same(_ a: [(String, [ManagedObjectID])], _ b: [(String, [ManagedObjectID])]) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
    }

    @Test("A sectioned fetch without sort descriptors or a fetch of an unknown entity is refused; index paths out of range throw")
    func refusals() throws {
        let (container, url) = try LibraryModel.container(Self.model())
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let unsorted = FetchedResultsController(fetchRequest: FetchRequest(entityName: "Item"), managedObjectContext: context,
                                                    sectionNameKeyPath: "group")
            #expect(throws: FetchedResultsError.missingSortDescriptors(entity: "Item")) { try unsorted.performFetch() }
            var unknown = try Self.request()
            unknown.entityName = "Nothing"
            #expect(throws: FetchedResultsError.unknownEntity("Nothing")) {
                try FetchedResultsController(fetchRequest: unknown, managedObjectContext: context).performFetch()
            }
            let controller = FetchedResultsController(fetchRequest: try Self.request(), managedObjectContext: context,
                                                      sectionNameKeyPath: "group")
            try controller.performFetch()
            #expect(controller.sections?.count == 0)
            #expect(throws: FetchedResultsError.indexPathOutOfRange(section: 0, item: 0)) {
                try controller.object(at: IndexPath(item: 0, section: 0))
            }
        }
    }

    @Test("Scripted saves: insert, update in place, move within and across sections, section insert and delete, leaving the predicate")
    func scripted() throws {
        let (container, url) = try LibraryModel.container(Self.model())
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            func item(_ group: String, _ rank: Int64, visible: Bool = true) throws -> ManagedObject {
                let item = try context.insertNewObject(forEntityName: "Item")
                try item.setValue(group, forKey: "group")
                try item.setValue(rank, forKey: "rank")
                try item.setValue(visible, forKey: "visible")
                return item
            }
            let a1 = try item("A", 1), a2 = try item("A", 2), b1 = try item("B", 1)
            _ = try item("A", 3, visible: false)
            try context.save()
            let controller = FetchedResultsController(fetchRequest: try Self.request(), managedObjectContext: context,
                                                      sectionNameKeyPath: "group")
            let recorder = Recorder()
            controller.delegate = recorder
            try controller.performFetch()
            #expect(controller.sections?.map(\.name) == ["A", "B"])
            #expect(controller.sections?.map(\.numberOfObjects) == [2, 1])
            #expect(controller.sections?.first?.indexTitle == "A")
            #expect(try controller.object(at: IndexPath(item: 1, section: 0)) === a2)
            #expect(controller.indexPath(forObject: b1) == IndexPath(item: 0, section: 1))

            try a1.setValue("unrelated", forKey: "note")
            try context.save()
            #expect(recorder.events == [.will, .object(a1.objectID, IndexPath(item: 0, section: 0), .update, IndexPath(item: 0, section: 0)), .did])

            recorder.reset()
            try a1.setValue(Int64(5), forKey: "rank")
            try context.save()
            #expect(recorder.events == [.will, .object(a1.objectID, IndexPath(item: 0, section: 0), .move, IndexPath(item: 1, section: 0)), .did])
            #expect(controller.sections?.first?.objects.map(\.objectID) == [a2.objectID, a1.objectID])

            recorder.reset()
            let old = Self.state(controller)
            try b1.setValue("C", forKey: "group")
            let c2 = try item("C", 2)
            try a2.setValue(false, forKey: "visible")
            try context.save()
            #expect(controller.sections?.map(\.name) == ["A", "C"])
            #expect(recorder.events.contains(.section("B", 1, .delete)))
            #expect(recorder.events.contains(.section("C", 1, .insert)))
            #expect(recorder.events.contains(.object(a2.objectID, IndexPath(item: 0, section: 0), .delete, nil)))
            #expect(recorder.events.contains(.object(c2.objectID, nil, .insert, IndexPath(item: 1, section: 1))))
            #expect(recorder.events.contains(.object(b1.objectID, IndexPath(item: 0, section: 1), .move, IndexPath(item: 0, section: 1))))
            #expect(Self.same(recorder.replay(on: old), Self.state(controller)))
        }
    }

    @Test("1,000 random saves, from its own context and merged from another: the controller equals a fresh fetch after each, and its callbacks replayed and its difference applied turn the old state into the new",
          arguments: [0, 16])
    func randomSaves(batchSize: Int) throws {
        let (container, url) = try LibraryModel.container(Self.model())
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        context.automaticallyMergesChangesFromParent = true
        let other = container.newBackgroundContext()
        other.automaticallyMergesChangesFromParent = true
        var random = SeededGenerator(seed: 25)
        var usedRanks = Set<Int64>()
        func rank() -> Int64 {
            while true {
                let value = Int64.random(in: 0..<1_000_000, using: &random)
                if usedRanks.insert(value).inserted { return value }
            }
        }
        let groups = ["A", "B", "C", "D", "E"]
        var request = try Self.request()
        request.fetchBatchSize = batchSize
        let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: "group")
        let recorder = Recorder()
        // A second controller over the same fetch, for a difference delegate.
        let differencing = FetchedResultsController(fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: "group")
        let differences = DifferenceRecorder()
        try context.performAndWait {
            controller.delegate = recorder
            try controller.performFetch()
            differencing.delegate = differences
            try differencing.performFetch()
        }
        var checked = 0
        for step in 0..<1_000 {
            let fromOther = step % 3 == 0
            let target = fromOther ? other : context
            let old = context.performAndWait { Self.state(controller) }
            let oldIDs = old.flatMap(\.1)
            recorder.reset()
            differences.reset()
            try target.performAndWait {
                target.processPendingChanges()
                let existing = try target.fetch(FetchRequest(entityName: "Item"))
                for _ in 0..<Int.random(in: 1...4, using: &random) {
                    switch Int.random(in: 0..<10, using: &random) {
                    case 0...2,
                         _ where existing.isEmpty:
                        let item = try target.insertNewObject(forEntityName: "Item")
                        try item.setValue(groups.randomElement(using: &random), forKey: "group")
                        try item.setValue(rank(), forKey: "rank")
                        try item.setValue(Bool.random(using: &random), forKey: "visible")
                    case 3:
                        target.delete(existing.randomElement(using: &random)!)
                    case 4, 5:
                        try existing.randomElement(using: &random)!.setValue(rank(), forKey: "rank")
                    case 6:
                        try existing.randomElement(using: &random)!.setValue(groups.randomElement(using: &random), forKey: "group")
                    case 7:
                        try existing.randomElement(using: &random)!.setValue(Bool.random(using: &random), forKey: "visible")
                    default:
                        try existing.randomElement(using: &random)!.setValue("note \(step)", forKey: "note")
                    }
                }
                try target.save()
            }
            try context.performAndWait {
                context.processPendingChanges()
                let fresh = try context.fetch(try Self.request())
                let now = Self.state(controller)
                #expect(now.flatMap(\.1) == fresh.map(\.objectID), "step \(step)")
                var expected: [(String, [ManagedObjectID])] = []
                for object in fresh {
                    let name = object.value(forKey: "group") as? String ?? ""
                    if expected.last?.0 == name { expected[expected.count - 1].1.append(object.objectID) } else { expected.append((name, [object.objectID])) }
                }
                #expect(Self.same(now, expected), "step \(step): sections")
                #expect(Self.same(recorder.replay(on: old), now), "step \(step): replayed callbacks")
                #expect(Self.same(Self.state(differencing), now), "step \(step): the difference delegate's controller")
                #expect(differences.applyDifferences(to: oldIDs) == now.flatMap(\.1), "step \(step): differences")
                checked += 1
            }
        }
        #expect(checked == 1_000)
        #expect(differences.objectCallbacks == 0, "a difference delegate gets no other callback")
    }

    @Test("A change among objects already in memory is decided without a statement")
    func decidedInMemory() throws {
        let (container, url) = try LibraryModel.container(Self.model())
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            for rank in 1...20 {
                let item = try context.insertNewObject(forEntityName: "Item")
                try item.setValue(rank % 2 == 0 ? "A" : "B", forKey: "group")
                try item.setValue(Int64(rank), forKey: "rank")
                try item.setValue(true, forKey: "visible")
            }
            try context.save()
            var request = try Self.request()
            request.returnsObjectsAsFaults = false
            let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: "group")
            try controller.performFetch()
            let moved = try #require(controller.sections?.first?.objects.first)
            try moved.setValue(Int64(100), forKey: "rank")
            let hidden = try #require(controller.sections?.last?.objects.first)
            try hidden.setValue(false, forKey: "visible")
            let before = container.coordinator.sqlCounters.statementsExecuted
            controller.apply(changed: [moved, hidden], deletedIDs: [])
            #expect(container.coordinator.sqlCounters.statementsExecuted == before)
            #expect(controller.sections?.first?.objects.last === moved)
            #expect(controller.fetchedObjects?.count == 19)
        }
    }

    @Test("A batch update merged into a context that does not merge by itself reaches its controller")
    func batchUpdateMerged() throws {
        let (container, url) = try LibraryModel.container(Self.model())
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        let controller = FetchedResultsController(fetchRequest: try Self.request(), managedObjectContext: context,
                                                  sectionNameKeyPath: "group")
        let recorder = Recorder()
        try context.performAndWait {
            for (rank, group) in ["A", "A", "B"].enumerated() {
                let item = try context.insertNewObject(forEntityName: "Item")
                try item.setValue(group, forKey: "group")
                try item.setValue(Int64(rank), forKey: "rank")
                try item.setValue(true, forKey: "visible")
            }
            try context.save()
            controller.delegate = recorder
            try controller.performFetch()
        }
        let hide = BatchUpdateRequest(entityName: "Item", predicate: try FetchPredicate(format: "group == %@", "A"),
                                      propertiesToUpdate: ["visible": .value(.bool(false))])
        let result = try container.coordinator.execute(hide)
        ManagedObjectContext.mergeChanges(fromRemoteContextSave: result.changes, into: [context])
        context.performAndWait {
            #expect(controller.sections?.map(\.name) == ["B"])
            #expect(recorder.events.contains(.section("A", 0, .delete)))
            #expect(recorder.events.filter { if case .object(_, _, .delete, _) = $0 { true } else { false } }.count == 2)
            #expect(recorder.events.filter { $0 == .will }.count == 1, "reported once")
        }
    }
}
