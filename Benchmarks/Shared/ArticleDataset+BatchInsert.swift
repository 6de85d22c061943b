import Faultline
import Foundation

extension ArticleDataset {
    /// Inserts every article into `entityName` with the typed batch insert:
    /// handles resolved once, values bound per row with no dictionary and no
    /// boxing. `categories[i]` is the category of `categoryIDs` value `i + 1`.
    public func batchInsert(
        into coordinator: PersistentStoreCoordinator, entityName: String = "Article", categories: [ManagedObjectID]
    ) throws {
        var request = try BatchInsertRequest(entityName: entityName, in: coordinator.model)
        let title = try request.attribute("title")
        let body = try request.attribute("body")
        let views = try request.attribute("views")
        let created = try request.attribute("created")
        let category = try request.relationship("category")
        request.source = .rows(count: count) { row, index in
            row.set(self.titles[index], at: title)
            row.set(self.bodies[index], at: body)
            row.set(self.views[index], at: views)
            row.set(Date(timeIntervalSinceReferenceDate: self.created[index]), at: created)
            row.set(categories[Int(self.categoryIDs[index] - 1)], at: category)
        }
        _ = try coordinator.execute(request)
    }
}
