import Foundation
import Testing
import FaultlineSQLite
@testable import Faultline

/// Derived attributes stay right through plain SQL that bypasses any object
/// layer, because SQLite triggers maintain them.
@Suite("Derived attributes maintained by triggers")
struct DerivedAttributeTriggerTests {
    let store: TestStore

    init() throws {
        store = try TestStore(ShopModel.schema())
    }

    private func category(_ pk: Int64, _ column: String) throws -> SQLValue? {
        try store.value("SELECT \(column) FROM ZCATEGORY WHERE Z_PK = ?", [.integer(pk)])
    }

    private func article(_ pk: Int64, _ column: String) throws -> SQLValue? {
        try store.value("SELECT \(column) FROM ZARTICLE WHERE Z_PK = ?", [.integer(pk)])
    }

    private func addCategory(_ pk: Int64, _ name: String, parent: Int64? = nil) throws {
        try store.run("INSERT INTO ZCATEGORY (Z_PK, Z_ENT, Z_OPT, ZNAME, ZPARENT) VALUES (?, 2, 1, ?, ?)",
                      [.integer(pk), .text(name), parent.map { .integer($0) } ?? .null])
    }

    private func addArticle(_ pk: Int64, _ title: String, views: Int64, category: Int64?) throws {
        try store.run("INSERT INTO ZARTICLE (Z_PK, Z_ENT, Z_OPT, ZTITLE, ZVIEWS, ZCATEGORY) VALUES (?, 1, 1, ?, ?, ?)",
                      [.integer(pk), .text(title), .integer(views), category.map { .integer($0) } ?? .null])
    }

    @Test("@count follows inserts, moves and deletes")
    func count() throws {
        try addCategory(1, "News")
        try addCategory(2, "Sport")
        #expect(try category(1, "ZARTICLESCOUNT") == .integer(0))
        for pk in Int64(1)...3 { try addArticle(pk, "a\(pk)", views: 1, category: 1) }
        #expect(try category(1, "ZARTICLESCOUNT") == .integer(3))
        try store.run("UPDATE ZARTICLE SET ZCATEGORY = 2 WHERE Z_PK = 3")
        #expect(try category(1, "ZARTICLESCOUNT") == .integer(2))
        #expect(try category(2, "ZARTICLESCOUNT") == .integer(1))
        try store.run("DELETE FROM ZARTICLE WHERE Z_PK = 1")
        #expect(try category(1, "ZARTICLESCOUNT") == .integer(1))
        try store.run("UPDATE ZARTICLE SET ZCATEGORY = NULL WHERE Z_PK = 2")
        #expect(try category(1, "ZARTICLESCOUNT") == .integer(0))
        #expect(try store.isIntact())
    }

    @Test("@sum follows inserts, updates of the summed column, reparenting and deletes")
    func sum() throws {
        try addCategory(1, "News")
        try addCategory(2, "Sport")
        try addArticle(1, "a", views: 10, category: 1)
        try addArticle(2, "b", views: 5, category: 1)
        #expect(try category(1, "ZTOTALVIEWS") == .integer(15))
        try store.run("UPDATE ZARTICLE SET ZVIEWS = 7 WHERE Z_PK = 2")
        #expect(try category(1, "ZTOTALVIEWS") == .integer(17))
        try store.run("UPDATE ZARTICLE SET ZCATEGORY = 2, ZVIEWS = 100 WHERE Z_PK = 1")
        #expect(try category(1, "ZTOTALVIEWS") == .integer(7))
        #expect(try category(2, "ZTOTALVIEWS") == .integer(100))
        try store.run("DELETE FROM ZARTICLE WHERE Z_PK = 2")
        #expect(try category(1, "ZTOTALVIEWS") == .integer(0))
        #expect(try store.isIntact())
    }

    @Test("@min, @max and @avg stay right when the extreme row is deleted or changed")
    func extremes() throws {
        try addCategory(1, "News")
        #expect(try category(1, "ZMINVIEWS") == .null)
        #expect(try category(1, "ZAVERAGEVIEWS") == .null)
        try addArticle(1, "a", views: 10, category: 1)
        try addArticle(2, "b", views: 20, category: 1)
        try addArticle(3, "c", views: 30, category: 1)
        #expect(try category(1, "ZMINVIEWS") == .integer(10))
        #expect(try category(1, "ZMAXVIEWS") == .integer(30))
        #expect(try category(1, "ZAVERAGEVIEWS") == .real(20))
        try store.run("DELETE FROM ZARTICLE WHERE Z_PK = 3")
        #expect(try category(1, "ZMAXVIEWS") == .integer(20))
        #expect(try category(1, "ZAVERAGEVIEWS") == .real(15))
        try store.run("DELETE FROM ZARTICLE WHERE Z_PK = 1")
        #expect(try category(1, "ZMINVIEWS") == .integer(20))
        try store.run("UPDATE ZARTICLE SET ZVIEWS = 3 WHERE Z_PK = 2")
        #expect(try category(1, "ZMINVIEWS") == .integer(3))
        #expect(try category(1, "ZMAXVIEWS") == .integer(3))
        #expect(try category(1, "ZAVERAGEVIEWS") == .real(3))
        try addArticle(4, "d", views: 4, category: 1)
        try store.run("UPDATE ZARTICLE SET ZCATEGORY = NULL WHERE Z_PK = 4")
        #expect(try category(1, "ZAVERAGEVIEWS") == .real(3))
        try store.run("DELETE FROM ZARTICLE WHERE Z_PK = 2")
        #expect(try category(1, "ZMINVIEWS") == .null)
        #expect(try category(1, "ZMAXVIEWS") == .null)
        #expect(try category(1, "ZAVERAGEVIEWS") == .null)
        #expect(try store.isIntact())
    }

    @Test("A to-one key path follows the destination: renaming a category renames every article's categoryName")
    func keyPath() throws {
        try addCategory(1, "News")
        try addCategory(2, "Sport")
        try addArticle(1, "a", views: 0, category: 1)
        try addArticle(2, "b", views: 0, category: 1)
        try addArticle(3, "c", views: 0, category: nil)
        #expect(try article(1, "ZCATEGORYNAME") == .text("News"))
        #expect(try article(3, "ZCATEGORYNAME") == .null)
        try store.run("UPDATE ZCATEGORY SET ZNAME = 'World' WHERE Z_PK = 1")
        #expect(try store.connection.rows("SELECT ZCATEGORYNAME FROM ZARTICLE ORDER BY Z_PK")
                == [[.text("World")], [.text("World")], [.null]])
        try store.run("UPDATE ZARTICLE SET ZCATEGORY = 2 WHERE Z_PK = 2")
        #expect(try article(2, "ZCATEGORYNAME") == .text("Sport"))
        try store.run("DELETE FROM ZCATEGORY WHERE Z_PK = 2")
        #expect(try article(2, "ZCATEGORYNAME") == .null)
        #expect(try store.isIntact())
    }

    @Test("A two-hop key path follows changes at every hop")
    func twoHops() throws {
        try addCategory(1, "Europe")
        try addCategory(2, "Asia")
        try addCategory(3, "France", parent: 1)
        try addArticle(1, "a", views: 0, category: 3)
        #expect(try article(1, "ZSECTIONNAME") == .text("Europe"))
        try store.run("UPDATE ZCATEGORY SET ZNAME = 'EU' WHERE Z_PK = 1")
        #expect(try article(1, "ZSECTIONNAME") == .text("EU"))
        try store.run("UPDATE ZCATEGORY SET ZPARENT = 2 WHERE Z_PK = 3")
        #expect(try article(1, "ZSECTIONNAME") == .text("Asia"))
        try store.run("UPDATE ZARTICLE SET ZCATEGORY = 1 WHERE Z_PK = 1")
        #expect(try article(1, "ZSECTIONNAME") == .null)
        #expect(try store.isIntact())
    }

    @Test("A canonical column folds case and diacritics, on insert and on update")
    func canonical() throws {
        try addArticle(1, "Café Crème", views: 0, category: nil)
        #expect(try article(1, "ZSEARCHTITLE") == .text("cafe creme"))
        try store.run("UPDATE ZARTICLE SET ZTITLE = 'ÉCLAIR ﬁn' WHERE Z_PK = 1")
        #expect(try article(1, "ZSEARCHTITLE") == .text("eclair fin"))
        #expect(try store.isIntact())
    }

    @Test("now() changes on every update")
    func now() throws {
        try addCategory(1, "News")
        guard case .real(let created)? = try category(1, "ZLASTMODIFIED") else {
            Issue.record("lastModified was not set on insert")
            return
        }
        #expect(abs(created - Date().timeIntervalSinceReferenceDate) < 60)
        try store.run("UPDATE ZCATEGORY SET ZLASTMODIFIED = 0 WHERE Z_PK = 1")
        try store.run("UPDATE ZCATEGORY SET ZNAME = 'World' WHERE Z_PK = 1")
        guard case .real(let modified)? = try category(1, "ZLASTMODIFIED") else {
            Issue.record("lastModified was not set on update")
            return
        }
        #expect(modified >= created)
        #expect(try store.isIntact())
    }

    @Test("@count over a many-to-many follows the join table")
    func manyToManyCount() throws {
        try store.run("INSERT INTO ZTAG (Z_PK, Z_ENT, Z_OPT, ZLABEL) VALUES (1, 4, 1, 'swift')")
        for pk in Int64(1)...2 { try addArticle(pk, "a\(pk)", views: 0, category: nil) }
        try store.run("INSERT INTO Z_1TAGS (Z_1ARTICLES, Z_4TAGS) VALUES (1, 1), (2, 1)")
        #expect(try store.value("SELECT ZARTICLECOUNT FROM ZTAG WHERE Z_PK = 1") == .integer(2))
        try store.run("DELETE FROM Z_1TAGS WHERE Z_1ARTICLES = 1")
        #expect(try store.value("SELECT ZARTICLECOUNT FROM ZTAG WHERE Z_PK = 1") == .integer(1))
        try store.run("DELETE FROM ZARTICLE WHERE Z_PK = 2")
        #expect(try store.value("SELECT ZARTICLECOUNT FROM ZTAG WHERE Z_PK = 1") == .integer(0))
        #expect(try store.isIntact())
    }

    @Test("A batch of 10,000 rows inserted in one statement keeps counts and sums exact")
    func bulk() throws {
        try addCategory(1, "News")
        try addCategory(2, "Sport")
        try store.run("""
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 10000)
            INSERT INTO ZARTICLE (Z_PK, Z_ENT, Z_OPT, ZTITLE, ZVIEWS, ZCATEGORY)
            SELECT i, 1, 1, 'Title ' || i, i, 1 + (i % 2) FROM n
            """)
        #expect(try category(1, "ZARTICLESCOUNT") == .integer(5000))
        #expect(try category(2, "ZTOTALVIEWS") == .integer((1...10000).filter { $0 % 2 == 1 }.reduce(0, +)))
        #expect(try store.value("SELECT count(*) FROM ZARTICLE WHERE ZSEARCHTITLE = lower(ZTITLE)") == .integer(10000))
        #expect(try store.isIntact())
    }
}
