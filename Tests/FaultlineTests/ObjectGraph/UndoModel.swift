import Foundation
@testable import Faultline

/// Lists of items, tags and notes — every kind of relationship undo must put
/// back: one-to-many ordered with cascade (List.items), many-to-many
/// (Item.tags), one-to-one (Item.note), to-one with a to-many inverse. Every
/// object has a `label` the tests name it by.
enum UndoModel {
    static func model() -> ManagedObjectModel {
        ManagedObjectModel {
            Entity("List") {
                Attribute("label", .string)
                Attribute("title", .string)
                Relationship("items", to: "Item", inverse: "list", toMany: true, ordered: true, deleteRule: .cascade)
            }
            Entity("Item") {
                Attribute("label", .string)
                Attribute("text", .string)
                Attribute("rank", .integer64).defaultValue(.integer(0))
                Relationship("list", to: "List", inverse: "items")
                Relationship("tags", to: "Tag", inverse: "items", toMany: true)
                Relationship("note", to: "Note", inverse: "item", deleteRule: .cascade)
            }
            Entity("Tag") {
                Attribute("label", .string)
                Relationship("items", to: "Item", inverse: "tags", toMany: true)
            }
            Entity("Note") {
                Attribute("label", .string)
                Attribute("body", .string)
                Relationship("item", to: "Item", inverse: "note")
            }
        }
    }

    /// An in-memory store holding lists L1 (items I1, I2, I3) and L2 (I4),
    /// tags T1 (on I1, I2) and T2 (on I4), and note N1 on I1 — saved.
    static func seeded() throws -> PersistentContainer {
        let container = try PersistentContainer(model: model())
        let context = container.newBackgroundContext()
        try context.performAndWait {
            func make(_ entity: String, _ label: String) throws -> ManagedObject {
                let object = try context.insertNewObject(forEntityName: entity)
                try object.setValue(label, forKey: "label")
                return object
            }
            let l1 = try make("List", "L1"), l2 = try make("List", "L2")
            try l1.setValue("Errands", forKey: "title")
            try l2.setValue("Work", forKey: "title")
            var items: [ManagedObject] = []
            for number in 1...4 {
                let item = try make("Item", "I\(number)")
                try item.setValue("item \(number)", forKey: "text")
                try item.setValue(Int64(number), forKey: "rank")
                try item.setValue(number < 4 ? l1 : l2, forKey: "list")
                items.append(item)
            }
            let t1 = try make("Tag", "T1"), t2 = try make("Tag", "T2")
            try items[0].addObject(t1, toRelationship: "tags")
            try items[1].addObject(t1, toRelationship: "tags")
            try items[3].addObject(t2, toRelationship: "tags")
            let note = try make("Note", "N1")
            try note.setValue("remember", forKey: "body")
            try note.setValue(items[0], forKey: "item")
            try context.save()
        }
        return container
    }

    /// Every object of the context's graph, attribute by attribute and
    /// relationship by relationship, by label: fetched from the context (so
    /// unsaved inserts count and deleted objects do not), to-manys as label
    /// lists (ordered ones in order, others sorted).
    static func dump(_ context: ManagedObjectContext) throws -> [String] {
        var lines: [String] = []
        for entity in ["List", "Item", "Tag", "Note"] {
            for object in try context.fetch(FetchRequest(entityName: entity)) {
                var line = "\(entity) \(label(object))"
                for attribute in ["title", "text", "rank", "body"] where object.entity?.propertyByName[attribute] != nil {
                    line += " \(attribute)=\(object.value(forKey: attribute).map { "\($0)" } ?? "nil")"
                }
                for relationship in object.entity?.relationships ?? [] {
                    let value = object.value(forKey: relationship.name)
                    if let members = value as? [ManagedObject] {
                        let labels = members.map(label)
                        line += " \(relationship.name)=[\((relationship.isOrdered ? labels : labels.sorted()).joined(separator: ","))]"
                    } else {
                        line += " \(relationship.name)=\((value as? ManagedObject).map(label) ?? "nil")"
                    }
                }
                lines.append(line)
            }
        }
        return lines.sorted()
    }

    static func label(_ object: ManagedObject) -> String { object.value(forKey: "label") as? String ?? "?" }

    /// The object labelled `label` (one fetch).
    static func object(_ label: String, in context: ManagedObjectContext) throws -> ManagedObject? {
        for entity in ["List", "Item", "Tag", "Note"] {
            let request = FetchRequest(entityName: entity, predicate: try FetchPredicate(format: "label == %@", label))
            if let found = try context.fetch(request).first { return found }
        }
        return nil
    }
}
