import Foundation
import Testing
@testable import Faultline

/// A controller follows its context's unsaved changes as they happen, through
/// saves (temporary IDs becoming permanent), rollbacks and merges of other
/// contexts' saves in between: after every step it equals a fresh fetch, which
/// includes pending changes as Core Data's does.
@Suite("Fetched results controller: unsaved changes as they happen")
struct UnsavedResultsTests {
    typealias Tests = FetchedResultsControllerTests

    static func objectState(_ controller: FetchedResultsController) -> [(String, [ObjectIdentifier])] {
        (controller.sections ?? []).map { ($0.name, $0.objects.map(ObjectIdentifier.init)) }
    }

    @Test("600 random steps — unsaved edits processed, saved or rolled back, other contexts' saves merged — each leave the controller equal to a fresh fetch, its callbacks replayed turning the old sections into the new",
          arguments: [0, 16])
    func randomSteps(batchSize: Int) throws {
        let (container, url) = try LibraryModel.container(Tests.model())
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        context.automaticallyMergesChangesFromParent = true
        context.mergePolicy = .mergeByPropertyObjectTrump
        let other = container.newBackgroundContext()
        other.automaticallyMergesChangesFromParent = true
        other.mergePolicy = .mergeByPropertyStoreTrump
        var random = SeededGenerator(seed: 2_025)
        var nextRank: Int64 = 0
        func rank() -> Int64 {
            nextRank += 1
            return Int64.random(in: 0..<1_000, using: &random) * 10_000 + nextRank
        }
        let groups = ["A", "B", "C", "D"]
        var request = try Tests.request()
        request.fetchBatchSize = batchSize
        let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: "group")
        let recorder = Tests.Recorder()
        try context.performAndWait {
            controller.delegate = recorder
            try controller.performFetch()
        }

        func edit(_ target: ManagedObjectContext) throws {
            let existing = try target.fetch(FetchRequest(entityName: "Item"))
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                switch Int.random(in: 0..<8, using: &random) {
                case 0...1,
                     _ where existing.isEmpty:
                    let item = try target.insertNewObject(forEntityName: "Item")
                    try item.setValue(groups.randomElement(using: &random), forKey: "group")
                    try item.setValue(rank(), forKey: "rank")
                    try item.setValue(Bool.random(using: &random), forKey: "visible")
                case 2: target.delete(existing.randomElement(using: &random)!)
                case 3, 4: try existing.randomElement(using: &random)!.setValue(rank(), forKey: "rank")
                case 5: try existing.randomElement(using: &random)!.setValue(groups.randomElement(using: &random), forKey: "group")
                case 6: try existing.randomElement(using: &random)!.setValue(Bool.random(using: &random), forKey: "visible")
                default: try existing.randomElement(using: &random)!.setValue("note", forKey: "note")
                }
            }
        }

        var steps = 0
        for step in 0..<600 {
            let old = context.performAndWait { Self.objectState(controller) }
            recorder.reset()
            if step % 5 == 4 {
                // Another context saves; this one merges (a conflict with its own
                // unsaved change to the same item keeps the local value, as a merge does).
                try other.performAndWait {
                    try edit(other)
                    try other.save()
                }
            } else {
                try context.performAndWait {
                    try edit(context)
                    switch Int.random(in: 0..<10, using: &random) {
                    case 0...1: try context.save()
                    case 2: context.rollback()
                    default: break
                    }
                }
            }
            try context.performAndWait {
                context.processPendingChanges()
                let expected = try context.fetchObjectIDs(request)
                #expect(controller.fetchedObjects.map { Array($0.objectIDs) } == expected, "step \(step)")
                let now = Self.objectState(controller)
                let replayed = recorder.replay(on: old, key: ObjectIdentifier.init)
                #expect(replayed.count == now.count && zip(replayed, now).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 },
                        "step \(step): replayed callbacks")
                steps += 1
            }
        }
        #expect(steps == 600)
    }
}
