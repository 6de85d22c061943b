import Foundation
import Testing
@testable import Faultline

/// Random edits, undos, redos and saves on a context with an undo manager end
/// in the graph that replaying only the edits still in effect — on a second
/// copy of the store, without undo — produces.
@Suite("Undo sequences")
struct UndoSequenceTests {
    /// One edit, by labels, so it can be replayed on another context.
    enum Edit {
        case setText(String, String)
        case setRank(String, Int64)
        case insertItem(String, list: String)
        case delete(String)
        case move(String, toList: String)
        case tag(String, String)
        case untag(String, String)
        case reorder(String, from: Int, to: Int)
        case attachNote(String, to: String)

        func apply(in context: ManagedObjectContext) throws {
            func object(_ label: String) throws -> ManagedObject {
                guard let found = try UndoModel.object(label, in: context) else { throw Missing(label: label) }
                return found
            }
            switch self {
            case .setText(let label, let text): try object(label).setValue(text, forKey: "text")
            case .setRank(let label, let rank): try object(label).setValue(rank, forKey: "rank")
            case .insertItem(let label, let list):
                let item = try context.insertNewObject(forEntityName: "Item")
                try item.setValue(label, forKey: "label")
                try item.setValue(try object(list), forKey: "list")
            case .delete(let label): context.delete(try object(label))
            case .move(let label, let list): try object(label).setValue(try object(list), forKey: "list")
            case .tag(let item, let tag): try object(item).addObject(try object(tag), toRelationship: "tags")
            case .untag(let item, let tag): try object(item).removeObject(try object(tag), fromRelationship: "tags")
            case .reorder(let list, let from, let to):
                try object(list).moveObjects(at: [from], to: to, inOrderedRelationship: "items")
            case .attachNote(let note, let item): try object(note).setValue(try object(item), forKey: "item")
            }
        }
    }

    struct Missing: Error { let label: String }

    /// A random edit that applies to the context's current graph.
    static func randomEdit(in context: ManagedObjectContext, counter: inout Int, using random: inout SeededGenerator) throws -> Edit {
        func labels(_ entity: String) throws -> [String] {
            try context.fetch(FetchRequest(entityName: entity)).map(UndoModel.label).sorted()
        }
        let lists = try labels("List"), items = try labels("Item"), tags = try labels("Tag"), notes = try labels("Note")
        while true {
            switch Int.random(in: 0..<9, using: &random) {
            case 0 where !items.isEmpty:
                return .setText(items.randomElement(using: &random)!, "t\(Int.random(in: 0..<5, using: &random))")
            case 1 where !items.isEmpty:
                return .setRank(items.randomElement(using: &random)!, Int64.random(in: 0..<5, using: &random))
            case 2 where !lists.isEmpty:
                counter += 1
                return .insertItem("X\(counter)", list: lists.randomElement(using: &random)!)
            case 3:
                let all = lists + items + tags + notes
                if !all.isEmpty, Int.random(in: 0..<3, using: &random) == 0 { return .delete(all.randomElement(using: &random)!) }
            case 4 where !items.isEmpty && !lists.isEmpty:
                return .move(items.randomElement(using: &random)!, toList: lists.randomElement(using: &random)!)
            case 5 where !items.isEmpty && !tags.isEmpty:
                return .tag(items.randomElement(using: &random)!, tags.randomElement(using: &random)!)
            case 6 where !items.isEmpty && !tags.isEmpty:
                return .untag(items.randomElement(using: &random)!, tags.randomElement(using: &random)!)
            case 7:
                for list in lists.shuffled(using: &random) {
                    guard let members = try UndoModel.object(list, in: context)?.value(forKey: "items") as? [ManagedObject],
                          members.count > 1 else { continue }
                    return .reorder(list, from: Int.random(in: 0..<members.count, using: &random),
                                    to: Int.random(in: 0..<members.count, using: &random))
                }
            case 8 where !notes.isEmpty && !items.isEmpty:
                return .attachNote(notes.randomElement(using: &random)!, to: items.randomElement(using: &random)!)
            default:
                break
            }
        }
    }

    @Test("1,000 random edit/undo/redo/save sequences end in the graph a replay of the edits in effect predicts")
    func randomSequences() throws {
        var random = SeededGenerator(seed: 0x0D0_2026)
        var steps = (edits: 0, undos: 0, redos: 0, saves: 0)
        for sequence in 0..<1_000 {
            let container = try UndoModel.seeded()
            let context = container.newBackgroundContext()
            let manager = UndoManager()
            context.undoManager = manager
            var done: [Edit] = [], undone: [Edit] = []
            var counter = 0
            var trace: [String] = []
            for _ in 0..<12 {
                let roll = Int.random(in: 0..<10, using: &random)
                if roll < 2, !done.isEmpty {
                    context.performAndWait { context.undo() }
                    undone.append(done.removeLast())
                    trace.append("undo")
                    steps.undos += 1
                } else if roll < 4, !undone.isEmpty {
                    context.performAndWait { context.redo() }
                    done.append(undone.removeLast())
                    trace.append("redo")
                    steps.redos += 1
                } else if roll == 4 {
                    try context.performAndWait { try context.save() }
                    trace.append("save")
                    steps.saves += 1
                } else {
                    // An edit that changes nothing (a value set to itself, an
                    // item moved to its own list) makes no undo step.
                    let levels = manager.undoStepCount
                    let edit = try context.performAndWait { () throws -> Edit in
                        let edit = try Self.randomEdit(in: context, counter: &counter, using: &random)
                        do {
                            try edit.apply(in: context)
                        } catch {
                            Issue.record("sequence \(sequence): \(error) at \(edit) after \(trace.joined(separator: "; "))")
                            throw error
                        }
                        return edit
                    }
                    guard manager.undoStepCount > levels else { continue }
                    done.append(edit)
                    undone.removeAll()
                    trace.append("\(edit)")
                    steps.edits += 1
                }
            }
            let replay = try UndoModel.seeded().newBackgroundContext()
            let expected = try replay.performAndWait { () throws -> [String] in
                for edit in done {
                    try edit.apply(in: replay)
                    replay.processPendingChanges()
                }
                return try UndoModel.dump(replay)
            }
            let actual = try context.performAndWait { try UndoModel.dump(context) }
            #expect(actual == expected, "sequence \(sequence): \(trace.joined(separator: "; "))")
            if actual != expected { return }
            // Whatever the context holds also saves cleanly.
            try context.performAndWait { try context.save() }
            let fresh = container.newBackgroundContext()
            let stored = try fresh.performAndWait { try UndoModel.dump(fresh) }
            #expect(stored == expected, "sequence \(sequence) saved: \(trace.joined(separator: "; "))")
        }
        #expect(steps.undos > 1_000 && steps.redos > 500 && steps.saves > 500 && steps.edits > 5_000, "\(steps)")
    }
}
