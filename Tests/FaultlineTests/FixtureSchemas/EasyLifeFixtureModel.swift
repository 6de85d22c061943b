// EasyLife's model version 1.5.0, rebuilt in code from
// `EasyLife.xcdatamodeld/EasyLife 1.5.0.xcdatamodel/contents` in the
// `larromba__EasyLife` fixture: a reflexive many-to-many (TodoItem.blockedBy ↔
// TodoItem.blocking) stored in a join table.

@testable import Faultline

enum EasyLifeFixtureModel {
    static func model() -> ManagedObjectModel {
        ManagedObjectModel {
            Entity("Project") {
                Attribute("name", .string)
                Attribute("priority", .integer16).defaultValue(.integer(-1))
                Relationship("todoItem", to: "TodoItem", inverse: "project", toMany: true)
            }
            Entity("TodoItem") {
                Attribute("date", .date)
                Attribute("done", .boolean)
                Attribute("name", .string)
                Attribute("notes", .string)
                Attribute("repeats", .integer16).defaultValue(.integer(0)).validated(.minimumValue(.integer(0)))
                Relationship("blockedBy", to: "TodoItem", inverse: "blocking", toMany: true)
                Relationship("blocking", to: "TodoItem", inverse: "blockedBy", toMany: true)
                Relationship("project", to: "Project", inverse: "todoItem")
            }
        }
    }
}
