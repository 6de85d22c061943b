import Foundation
import Testing
@testable import Faultline

/// A table view's section index, written as a Core Data app writes its
/// `UITableViewDataSource`: `sectionIndexTitles` for the index,
/// `section(forSectionIndexTitle:at:)` for a tap on it, and a delegate that
/// names the titles its own way.
@Suite("A fetched-results controller's section index")
struct SectionIndexTitleTests {
    /// Sections named by `group`, sorted by it.
    private func controller(groups: [String?], in context: ManagedObjectContext) throws -> FetchedResultsController {
        for (rank, group) in groups.enumerated() {
            let item = try context.insertNewObject(forEntityName: "Item")
            try item.setValue(group, forKey: "group")
            try item.setValue(Int64(rank), forKey: "rank")
        }
        try context.save()
        var request = FetchRequest(entityName: "Item")
        request.sortDescriptors = [FetchSortDescriptor(key: "group"), FetchSortDescriptor(key: "rank")]
        return FetchedResultsController(fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: "group")
    }

    @Test("Titles are the sections' capitalised first letters, each once; a tap on one finds its first section")
    func defaultTitles() throws {
        let (container, url) = try LibraryModel.container(FetchedResultsControllerTests.model())
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        try context.performAndWait { () throws in
            let controller = try controller(groups: ["banana", "apple", "avocado", "cherry", "éclair", nil], in: context)
            #expect(controller.sectionIndexTitles == [])
            try controller.performFetch()
            #expect(controller.sections?.map(\.name) == ["", "apple", "avocado", "banana", "cherry", "éclair"])
            #expect(controller.sections?.map(\.indexTitle) == [nil, "A", "A", "B", "C", "É"])
            #expect(controller.sectionIndexTitles == ["A", "B", "C", "É"])
            #expect(controller.sectionIndexTitle(forSectionName: "apple") == "A")
            #expect(controller.sectionIndexTitle(forSectionName: "") == nil)
            #expect(controller.section(forSectionIndexTitle: "A", at: 0) == 1)
            #expect(controller.section(forSectionIndexTitle: "B", at: 1) == 3)
            #expect(controller.section(forSectionIndexTitle: "É", at: 3) == 5)
            // A position that holds another title: the title decides.
            #expect(controller.section(forSectionIndexTitle: "C", at: 0) == 4)
            #expect(controller.section(forSectionIndexTitle: "Z", at: 0) == NSNotFound)
            #expect(controller.section(forSectionIndexTitle: "A", at: 99) == 1)
        }
    }

    @Test("The index follows saves: a new first letter joins it, a letter whose last section went leaves it")
    func followsSaves() throws {
        let (container, url) = try LibraryModel.container(FetchedResultsControllerTests.model())
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        try context.performAndWait { () throws in
            let controller = try controller(groups: ["apple", "banana"], in: context)
            try controller.performFetch()
            #expect(controller.sectionIndexTitles == ["A", "B"])
            let date = try context.insertNewObject(forEntityName: "Item")
            try date.setValue("date", forKey: "group")
            try date.setValue(Int64(9), forKey: "rank")
            let banana = try context.fetch(try FetchRequest(entityName: "Item", format: "group == %@", "banana"))
            for object in banana { context.delete(object) }
            try context.save()
            #expect(controller.sectionIndexTitles == ["A", "D"])
            #expect(controller.section(forSectionIndexTitle: "D", at: 1) == 1)
        }
    }

    /// A delegate that indexes whole section names, as apps do for short names.
    private final class WholeNames: FetchedResultsControllerDelegate {
        func controller(_ controller: FetchedResultsController, sectionIndexTitleForSectionName sectionName: String) -> String? {
            sectionName == "hidden" ? nil : sectionName.uppercased()
        }
    }

    /// A delegate that only follows changes keeps Core Data's default titles.
    private final class ChangesOnly: FetchedResultsControllerDelegate {
        var changes = 0
        func controllerDidChangeContent(_ controller: FetchedResultsController) { changes += 1 }
    }

    @Test("A delegate's titles replace the default, in the sections and the index; a delegate without the method keeps the default")
    func delegateTitles() throws {
        let (container, url) = try LibraryModel.container(FetchedResultsControllerTests.model())
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        try context.performAndWait { () throws in
            let controller = try controller(groups: ["hidden", "one", "two"], in: context)
            let names = WholeNames()
            controller.delegate = names
            try controller.performFetch()
            #expect(controller.sections?.map(\.indexTitle) == [nil, "ONE", "TWO"])
            #expect(controller.sectionIndexTitles == ["ONE", "TWO"])
            #expect(controller.section(forSectionIndexTitle: "TWO", at: 1) == 2)
            let changes = ChangesOnly()
            controller.delegate = changes
            #expect(controller.sectionIndexTitles == ["H", "O", "T"])
            controller.delegate = nil
            #expect(controller.sectionIndexTitles == ["H", "O", "T"])
        }
    }

    @Test("Without a section key path there is no index")
    func noSections() throws {
        let (container, url) = try LibraryModel.container(FetchedResultsControllerTests.model())
        defer { LibraryModel.remove(url) }
        let context = container.newBackgroundContext()
        try context.performAndWait { () throws in
            _ = try controller(groups: ["apple"], in: context)
            var request = FetchRequest(entityName: "Item")
            request.sortDescriptors = [FetchSortDescriptor(key: "rank")]
            let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: context)
            try controller.performFetch()
            #expect(controller.sections?.first?.indexTitle == nil)
            #expect(controller.sectionIndexTitles == [])
            #expect(controller.section(forSectionIndexTitle: "A", at: 0) == NSNotFound)
        }
    }
}
