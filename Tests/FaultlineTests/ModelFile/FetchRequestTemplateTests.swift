// Templates as a Core Data app uses them: read the model file, open a store,
// save objects, fetch with `fetchRequestTemplate(forName:)` and
// `fetchRequestFromTemplate(withName:substitutionVariables:)`.

import Foundation
import Testing
import Faultline

@Suite("Fetch request templates from model files run as fetch requests")
struct FetchRequestTemplateTests {
    static let tasksModel = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22522" systemVersion="23A344" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
            <entity name="Task" representedClassName="Task" syncable="YES">
                <attribute name="title" optional="YES" attributeType="String"/>
                <attribute name="done" attributeType="Boolean" defaultValueString="NO" usesScalarValueType="YES"/>
                <attribute name="priority" attributeType="Integer 64" defaultValueString="0" usesScalarValueType="YES"/>
            </entity>
            <entity name="UrgentTask" representedClassName="UrgentTask" parentEntity="Task" syncable="YES"/>
            <fetchRequest name="OpenTasks" entity="Task" predicateString="done == NO"/>
            <fetchRequest name="AllTasks" entity="Task"/>
            <fetchRequest name="TasksFrom" entity="Task" predicateString="priority &gt;= $MIN AND title BEGINSWITH $PREFIX"/>
            <fetchRequest name="Untitled" entity="Task" predicateString="title == $TITLE"/>
            <fetchRequest name="FirstTwoOpen" entity="Task" predicateString="done == NO" fetchLimit="2"/>
            <fetchRequest name="OpenOwnTasks" entity="Task" predicateString="done == NO" includeSubentities="NO" returnObjectsAsFaults="NO" includePendingChanges="NO"/>
            <fetchRequest name="OpenTaskIDs" entity="Task" predicateString="done == NO" resultType="1"/>
            <fetchRequest name="EditorSpelling" entity="Task" fetchLimit="5" fetchOffset="1" fetchBatchSize="20" includeSubentities="NO" includePropertyValues="NO" includePendingChanges="NO" returnObjectsAsFaults="NO" returnDistinctResults="YES" resultType="2"/>
            <fetchRequest name="PropertySpelling" entity="Task" includesSubentities="NO" includesPropertyValues="NO" includesPendingChanges="NO" returnsObjectsAsFaults="NO" returnsDistinctResults="YES" shouldRefreshRefetchedObjects="YES" resultType="0"/>
        </model>
        """

    static let brokenModel = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
            <entity name="Task" representedClassName="Task" syncable="YES">
                <attribute name="title" optional="YES" attributeType="String"/>
            </entity>
            <fetchRequest name="BadPredicate" entity="Task" predicateString="title == == 'x'"/>
            <fetchRequest name="Counting" entity="Task" resultType="4"/>
            <fetchRequest name="Unknown" entity="Task" propertiesToFetch="title"/>
            <fetchRequest name="WordyLimit" entity="Task" fetchLimit="ten"/>
            <fetchRequest name="NegativeLimit" entity="Task" fetchLimit="-1"/>
            <fetchRequest name="MaybeFaults" entity="Task" returnObjectsAsFaults="maybe"/>
        </model>
        """

    /// Reads `xml` as `Model.xcdatamodel/contents` in a temporary folder, as
    /// an app's model file is read, and removes the folder.
    static func readModel(_ xml: String) throws -> ModelBundleVersion {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("faultline-templates-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("Model.xcdatamodel")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        try Data(xml.utf8).write(to: url.appendingPathComponent("contents"))
        return try #require(try ModelBundle.read(at: url).current)
    }

    /// A store holding four saved tasks and one urgent task:
    /// Alpha (1, open), Beta (2, open), Bravo (3, done), Gamma (4, open), Urgent (5, open).
    static func tasksContainer() throws -> (ModelBundleVersion, PersistentContainer) {
        let version = try readModel(tasksModel)
        let container = try PersistentContainer(model: version.model)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let rows: [(String, Bool, Int64, String)] = [
                ("Alpha", false, 1, "Task"), ("Beta", false, 2, "Task"), ("Bravo", true, 3, "Task"),
                ("Gamma", false, 4, "Task"), ("Urgent", false, 5, "UrgentTask"),
            ]
            for (title, done, priority, entity) in rows {
                let task = try context.insertNewObject(forEntityName: entity)
                try task.setValue(title, forKey: "title")
                try task.setValue(done, forKey: "done")
                try task.setValue(priority, forKey: "priority")
            }
            try context.save()
        }
        return (version, container)
    }

    static func titles(_ request: FetchRequest, in container: PersistentContainer) throws -> [String] {
        let context = container.newBackgroundContext()
        return try context.performAndWait {
            try context.fetch(request).compactMap { $0.value(forKey: "title") as? String }.sorted()
        }
    }

    @Test("a template without variables fetches the objects its predicate selects, sub-entities included by default")
    func plainTemplate() throws {
        let (version, container) = try Self.tasksContainer()
        let open = try #require(try version.fetchRequestTemplate(forName: "OpenTasks"))
        let expected = try FetchPredicate(format: "done == NO")
        #expect(open.entityName == "Task" && open.predicate == expected)
        #expect(try Self.titles(open, in: container) == ["Alpha", "Beta", "Gamma", "Urgent"])
        let all = try #require(try version.fetchRequestTemplate(forName: "AllTasks"))
        #expect(all.predicate == nil)
        #expect(try Self.titles(all, in: container) == ["Alpha", "Beta", "Bravo", "Gamma", "Urgent"])
    }

    @Test("an unknown template name is nil, as in Core Data, for both lookups")
    func unknownName() throws {
        let version = try Self.readModel(Self.tasksModel)
        #expect(try version.fetchRequestTemplate(forName: "NoSuchTemplate") == nil)
        #expect(try version.fetchRequestFromTemplate(withName: "NoSuchTemplate", substitutionVariables: [:]) == nil)
    }

    @Test("fetchRequestTemplatesByName holds every template of the file")
    func byName() throws {
        let version = try Self.readModel(Self.tasksModel)
        let requests = try version.fetchRequestTemplatesByName
        #expect(Set(requests.keys) == ["OpenTasks", "AllTasks", "TasksFrom", "Untitled", "FirstTwoOpen",
                                       "OpenOwnTasks", "OpenTaskIDs", "EditorSpelling", "PropertySpelling"])
        #expect(requests["FirstTwoOpen"]?.fetchLimit == 2)
    }

    @Test("substitution variables replace the template's $VARIABLEs and the copy fetches with them")
    func substitution() throws {
        let (version, container) = try Self.tasksContainer()
        let request = try #require(try version.fetchRequestFromTemplate(
            withName: "TasksFrom", substitutionVariables: ["MIN": 2, "PREFIX": "B", "UNUSED": Date()]))
        let expected = try FetchPredicate(format: "priority >= 2 AND title BEGINSWITH 'B'")
        #expect(request.predicate == expected)
        #expect(try Self.titles(request, in: container) == ["Beta", "Bravo"])
        let template = try #require(try version.fetchRequestTemplate(forName: "TasksFrom"))
        #expect(template.predicate?.variableNames == ["MIN", "PREFIX"], "the template itself keeps its variables")
    }

    @Test("NSNull and an empty optional substitute nil")
    func nilSubstitution() throws {
        let (version, container) = try Self.tasksContainer()
        let context = container.newBackgroundContext()
        try context.performAndWait {
            _ = try context.insertNewObject(forEntityName: "Task")
            try context.save()
        }
        let missingTitle: String? = nil
        for value in [NSNull() as Any, missingTitle as Any] {
            let request = try #require(try version.fetchRequestFromTemplate(withName: "Untitled", substitutionVariables: ["TITLE": value]))
            let count = try context.performAndWait { try context.fetch(request).count }
            #expect(count == 1)
        }
    }

    @Test("a missing substitution variable is a typed error naming the template and the variables")
    func missingVariable() throws {
        let version = try Self.readModel(Self.tasksModel)
        #expect(throws: FetchRequestTemplateError.missingSubstitutionVariables(template: "TasksFrom", names: ["MIN", "PREFIX"])) {
            try version.fetchRequestFromTemplate(withName: "TasksFrom", substitutionVariables: [:])
        }
        #expect(throws: FetchRequestTemplateError.missingSubstitutionVariables(template: "TasksFrom", names: ["PREFIX"])) {
            try version.fetchRequestFromTemplate(withName: "TasksFrom", substitutionVariables: ["MIN": 1])
        }
    }

    @Test("a substitution value with no predicate form is a typed error naming the variable")
    func unconvertibleValue() throws {
        let version = try Self.readModel(Self.tasksModel)
        struct Opaque {}
        let error = #expect(throws: FetchRequestTemplateError.self) {
            try version.fetchRequestFromTemplate(withName: "TasksFrom", substitutionVariables: ["MIN": Opaque(), "PREFIX": "A"])
        }
        guard case .invalidSubstitution(let template, let variable, _)? = error else {
            Issue.record("expected invalidSubstitution, got \(String(describing: error))")
            return
        }
        #expect(template == "TasksFrom" && variable == "MIN")
    }

    @Test("fetchLimit from the file limits the fetch")
    func fetchLimit() throws {
        let (version, container) = try Self.tasksContainer()
        let request = try #require(try version.fetchRequestTemplate(forName: "FirstTwoOpen"))
        let titles = try Self.titles(request, in: container)
        #expect(titles.count == 2)
        #expect(Set(titles).isSubset(of: ["Alpha", "Beta", "Gamma", "Urgent"]))
    }

    @Test("includeSubentities, returnObjectsAsFaults and includePendingChanges from the file change the fetch")
    func flags() throws {
        let (version, container) = try Self.tasksContainer()
        let own = try #require(try version.fetchRequestTemplate(forName: "OpenOwnTasks"))
        let open = try #require(try version.fetchRequestTemplate(forName: "OpenTasks"))
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let pending = try context.insertNewObject(forEntityName: "Task")
            try pending.setValue("Pending", forKey: "title")
            let fetched = try context.fetch(own)
            #expect(fetched.compactMap { $0.value(forKey: "title") as? String }.sorted() == ["Alpha", "Beta", "Gamma"],
                    "no UrgentTask (includeSubentities=NO), no unsaved task (includePendingChanges=NO)")
            #expect(fetched.allSatisfy { !$0.isFault }, "returnObjectsAsFaults=NO")
            #expect(try context.fetch(open).count == 5, "the template without the flags sees both")
        }
    }

    @Test("resultType 1 makes execute(_:) return object IDs")
    func objectIDResults() throws {
        let (version, container) = try Self.tasksContainer()
        let request = try #require(try version.fetchRequestTemplate(forName: "OpenTaskIDs"))
        let context = container.newBackgroundContext()
        try context.performAndWait {
            guard case .objectIDs(let ids) = try context.execute(request) else {
                Issue.record("resultType=\"1\" did not fetch object IDs")
                return
            }
            #expect(ids.count == 4)
        }
    }

    @Test("each attribute maps to its FetchRequest setting in the editor's and NSFetchRequest's spellings")
    func optionMapping() throws {
        let version = try Self.readModel(Self.tasksModel)
        let editor = try #require(try version.fetchRequestTemplate(forName: "EditorSpelling"))
        #expect(editor.fetchLimit == 5 && editor.fetchOffset == 1 && editor.fetchBatchSize == 20)
        #expect(!editor.includesSubentities && !editor.includesPropertyValues && !editor.includesPendingChanges)
        #expect(!editor.returnsObjectsAsFaults && editor.returnsDistinctResults && editor.resultType == .dictionaries)
        let property = try #require(try version.fetchRequestTemplate(forName: "PropertySpelling"))
        #expect(!property.includesSubentities && !property.includesPropertyValues && !property.includesPendingChanges)
        #expect(!property.returnsObjectsAsFaults && property.returnsDistinctResults && property.shouldRefreshRefetchedObjects)
        #expect(property.resultType == .managedObjects)
        let plain = try #require(try version.fetchRequestTemplate(forName: "AllTasks"))
        #expect(plain.includesSubentities && plain.returnsObjectsAsFaults && plain.fetchLimit == 0, "Core Data's defaults")
    }

    @Test("a predicate that does not parse is a typed error naming the template")
    func malformedPredicate() throws {
        let version = try Self.readModel(Self.brokenModel)
        let error = #expect(throws: FetchRequestTemplateError.self) { try version.fetchRequestTemplate(forName: "BadPredicate") }
        guard case .malformedPredicate(let template, let predicate, _)? = error else {
            Issue.record("expected malformedPredicate, got \(String(describing: error))")
            return
        }
        #expect(template == "BadPredicate" && predicate == "title == == 'x'")
        #expect(error?.localizedDescription.contains("'BadPredicate'") == true)
        #expect(throws: FetchRequestTemplateError.self) { try version.fetchRequestTemplatesByName }
    }

    @Test("an option Faultline cannot apply is refused by name, never dropped; the count result type (4) is taken")
    func unsupportedOptions() throws {
        let version = try Self.readModel(Self.brokenModel)
        #expect(try version.fetchRequestTemplate(forName: "Counting")?.resultType == .count)
        for (name, attribute, value) in [("Unknown", "propertiesToFetch", "title")] {
            let error = #expect(throws: FetchRequestTemplateError.self) { try version.fetchRequestTemplate(forName: name) }
            guard case .unsupportedOption(let template, let named, let written, _)? = error else {
                Issue.record("\(name): expected unsupportedOption, got \(String(describing: error))")
                continue
            }
            #expect(template == name && named == attribute && written == value)
        }
        for (name, attribute, value) in [("WordyLimit", "fetchLimit", "ten"), ("NegativeLimit", "fetchLimit", "-1"),
                                         ("MaybeFaults", "returnObjectsAsFaults", "maybe")] {
            let error = #expect(throws: FetchRequestTemplateError.self) { try version.fetchRequestTemplate(forName: name) }
            guard case .invalidOptionValue(let template, let named, let written, _)? = error else {
                Issue.record("\(name): expected invalidOptionValue, got \(String(describing: error))")
                continue
            }
            #expect(template == name && named == attribute && written == value)
        }
    }

    @Test("a template naming an entity the model lacks is a typed error")
    func unknownEntity() throws {
        // The reader refuses such a file; a template added to the extras in code can still name one.
        var version = try Self.readModel(Self.tasksModel)
        version.extras.fetchRequestTemplates.append(FetchRequestTemplate(name: "Ghosts", entityName: "Ghost"))
        #expect(throws: FetchRequestTemplateError.unknownEntity(template: "Ghosts", entity: "Ghost")) {
            try version.fetchRequestTemplate(forName: "Ghosts")
        }
    }

    @Test("JimGroceryDude's Model 6: ShoppingList and both unknown-location templates fetch the inserted objects")
    func groceryDude() throws {
        let bundle = try ModelBundle.read(at: try ModelFileTestSupport.fixture(.groceryDude))
        let version = try #require(bundle.version(named: "Model 6"))
        let templates = try version.fetchRequestTemplatesByName
        #expect(Set(templates.keys) == ["ShoppingList", "UnknownLocationAtHome", "UnknownLocationAtShop"])
        let container = try PersistentContainer(model: version.model)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            for (name, listed) in [("Milk", true), ("Bread", false), ("Eggs", true)] {
                let item = try context.insertNewObject(forEntityName: "Item")
                try item.setValue(name, forKey: "name")
                try item.setValue(listed, forKey: "listed")
            }
            for (entity, key, value) in [("LocationAtHome", "storedIn", "..UnknownLocation.."), ("LocationAtHome", "storedIn", "Fridge"),
                                         ("LocationAtShop", "aisle", "..UnknownLocation.."), ("LocationAtShop", "aisle", "Dairy")] {
                let location = try context.insertNewObject(forEntityName: entity)
                try location.setValue(value, forKey: key)
                try location.setValue("\(entity) \(value)", forKey: "summary")
            }
            try context.save()
        }
        let reader = container.newBackgroundContext()
        try reader.performAndWait { () throws in
            func values(_ name: String, _ key: String) throws -> [String] {
                let request = try #require(templates[name])
                return try reader.fetch(request).compactMap { $0.value(forKey: key) as? String }.sorted()
            }
            #expect(try values("ShoppingList", "name") == ["Eggs", "Milk"])
            #expect(try values("UnknownLocationAtHome", "summary") == ["LocationAtHome ..UnknownLocation.."])
            #expect(try values("UnknownLocationAtShop", "summary") == ["LocationAtShop ..UnknownLocation.."])
        }
    }
}
