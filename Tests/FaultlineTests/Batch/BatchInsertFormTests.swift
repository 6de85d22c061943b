import Foundation
import Testing
import FaultlineSQLite
@testable import Faultline

/// The three insert forms write the same rows, apply defaults, and leave the
/// triggers' derived values (canonical column, count, sum) right.
@Suite("Batch insert forms")
struct BatchInsertFormTests {
    static let rowCount = 10_000

    static func title(_ index: Int) -> String { "Ärticle Number \(index)" }
    static func category(_ index: Int) -> String { "C\(index % 3)" }

    /// What each form inserts: title, views, category (by unique name), every third row's slug left unset.
    static func dictionary(_ index: Int) -> [String: Any] {
        var row: [String: Any] = ["title": title(index), "views": Int64(index % 100), "category": category(index)]
        if index % 3 != 0 { row["slug"] = "s\(index)" }
        return row
    }

    static func articles(in container: PersistentContainer) throws -> [[SQLValue]] {
        try BatchModel.rows(container, """
            SELECT a.Z_PK, a.Z_ENT, a.Z_OPT, a.ZTITLE, a.ZSLUG, a.ZVIEWS, a.ZRATING, a.ZFLAGGED, a.ZSEARCHTITLE, c.ZNAME
            FROM ZARTICLE a LEFT JOIN ZCATEGORY c ON c.Z_PK = a.ZCATEGORY ORDER BY a.Z_PK
            """)
    }

    static func insert(_ form: Int, into container: PersistentContainer) throws -> BatchResult {
        try BatchModel.categories(["C0", "C1", "C2"], in: container)
        var request = try BatchInsertRequest(entityName: "Article", in: container.model)
        try request.lookUp("category", by: "name")
        request.resultType = .count
        switch form {
        case 0:
            request.source = .objects((0..<rowCount).map(dictionary))
        case 1:
            var next = 0
            request.source = .dictionaryHandler { row in
                guard next < rowCount else { return true }
                row = dictionary(next)
                next += 1
                return false
            }
        default:
            let title = try request.attribute("title"), views = try request.attribute("views")
            let slug = try request.attribute("slug"), category = try request.relationship("category")
            request.source = .rows(count: rowCount) { row, index in
                row.set(Self.title(index), at: title)
                row.set(Int64(index % 100), at: views)
                row.set(Self.category(index), at: category)
                if index % 3 != 0 { row.set("s\(index)", at: slug) }
            }
        }
        return try container.coordinator.execute(request)
    }

    @Test("Array, dictionary handler and typed rows insert equal rows, with derived values right")
    func formsAgree() throws {
        var tables: [[[SQLValue]]] = []
        for form in 0..<3 {
            let (container, url) = try BatchModel.container()
            defer { LibraryModel.remove(url) }
            let result = try Self.insert(form, into: container)
            #expect(result.count == Self.rowCount)
            #expect(result.counters.rowsInserted == Self.rowCount)
            let rows = try Self.articles(in: container)
            #expect(rows.count == Self.rowCount)
            // Defaults for unset attributes, canonical column from the trigger.
            #expect(rows[0][6] == .real(2.5))
            #expect(rows[0][7] == .integer(0))
            #expect(rows[0][4] == .null)
            #expect(rows[1][8] == .text(CanonicalText.fold(Self.title(1))))
            #expect(rows.allSatisfy { $0[2] == .integer(1) })
            // Count and sum triggers on the categories.
            for name in ["C0", "C1", "C2"] {
                let expectedCount = (0..<Self.rowCount).filter { Self.category($0) == name }.count
                let expectedViews = (0..<Self.rowCount).filter { Self.category($0) == name }.reduce(0) { $0 + $1 % 100 }
                let stored = try BatchModel.rows(container, "SELECT ZARTICLESCOUNT, ZTOTALVIEWS FROM ZCATEGORY WHERE ZNAME = ?", [.text(name)])
                #expect(stored == [[.integer(Int64(expectedCount)), .integer(Int64(expectedViews))]])
            }
            tables.append(rows)
        }
        #expect(tables[0] == tables[1])
        #expect(tables[1] == tables[2])
    }

    @Test("The typed row handler inserts 100,000 rows; keys are dense and Z_MAX matches")
    func typedHundredThousand() throws {
        let (container, url) = try BatchModel.container()
        defer { LibraryModel.remove(url) }
        var request = try BatchInsertRequest(entityName: "Article", in: container.model)
        let title = try request.attribute("title"), views = try request.attribute("views")
        let rating = try request.attribute("rating"), published = try request.attribute("published")
        var produced = 0
        request.source = .rowHandler { row in
            guard produced < 100_000 else { return true }
            row.set("Article \(produced)", at: title)
            row.set(Int64(produced), at: views)
            row.set(Double(produced) / 4, at: rating)
            row.set(Date(timeIntervalSinceReferenceDate: Double(produced)), at: published)
            produced += 1
            return false
        }
        request.resultType = .count
        let result = try container.coordinator.execute(request)
        #expect(result.count == 100_000)
        #expect(try BatchModel.count(container, "ZARTICLE") == 100_000)
        #expect(try BatchModel.scalar(container, "SELECT max(Z_PK) FROM ZARTICLE") == .integer(100_000))
        // The unused tail of the last growing block was given back.
        #expect(try BatchModel.scalar(container, "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = 1") == .integer(100_000))
        #expect(try BatchModel.scalar(container, "SELECT ZSEARCHTITLE FROM ZARTICLE WHERE Z_PK = 7") == .text(CanonicalText.fold("Article 6")))
        #expect(try BatchModel.scalar(container, "SELECT sum(ZVIEWS) FROM ZARTICLE") == .integer(4_999_950_000))
        #expect(result.changes.insertedRanges.count == 1)
    }

    @Test("Object IDs come back in row order and fault in a context")
    func objectIDs() throws {
        let (container, url) = try BatchModel.container()
        defer { LibraryModel.remove(url) }
        var request = try BatchInsertRequest(entityName: "Article", in: container.model,
                                             objects: [["title": "One"], ["title": "Two", "views": 5]])
        request.resultType = .objectIDs
        let ids = try container.coordinator.execute(request).objectIDs
        #expect(ids.count == 2)
        let context = container.newBackgroundContext()
        context.performAndWait {
            #expect((try? context.existingObject(with: ids[1]))?.value(forKey: "title") as? String == "Two")
            #expect((try? context.existingObject(with: ids[1]))?.value(forKey: "views") as? Int64 == 5)
        }
    }
}
