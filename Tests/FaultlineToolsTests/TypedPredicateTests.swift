import Foundation
import Testing
@testable import Faultline

/// Typed predicates built from the generated Shop classes' keys: for every
/// operator, the typed form is the tree the format string parses to, and the
/// two compile to the same SQL with the same bindings; fetching with a typed
/// predicate finds what the string finds.
@Suite("Typed predicates: the same tree and the same SQL as the format string")
struct TypedPredicateTests {
    static let cases: [(typed: FetchPredicate, format: String, arguments: [PredicateValue], entity: String)] = [
        (Product.title == "Book", "title == %@", ["Book"], "Product"),
        (Product.title != nil, "title != nil", [], "Product"),
        (Product.title == nil, "title == nil", [], "Product"),
        (Order.total > 10.5, "total > 10.5", [], "Order"),
        (Order.total >= 10.5, "total >= 10.5", [], "Order"),
        (Order.number < 7, "number < 7", [], "Order"),
        (Order.number <= 7, "number <= 7", [], "Order"),
        (Order.number > Order.lineCount, "number > lineCount", [], "Order"),
        (Order.number == Order.lineCount, "number == lineCount", [], "Order"),
        (Customer.vip == true, "vip == YES", [], "Customer"),
        (Customer.joined < Date(timeIntervalSinceReferenceDate: 5_000), "joined < %@", [.date(Date(timeIntervalSinceReferenceDate: 5_000))], "Customer"),
        (Customer.credit > Decimal(10), "credit > %@", [.decimal(10)], "Customer"),
        (Product.title.beginsWith("S", options: .caseInsensitive), "title BEGINSWITH[c] 'S'", [], "Product"),
        (Product.title.endsWith("k"), "title ENDSWITH 'k'", [], "Product"),
        (Product.title.contains("oo", options: [.caseInsensitive, .diacriticInsensitive]), "title CONTAINS[cd] 'oo'", [], "Product"),
        (Product.title.like("B*k"), "title LIKE 'B*k'", [], "Product"),
        (Product.title.matches("B.*"), "title MATCHES 'B.*'", [], "Product"),
        (Product.title.equals("book", options: .caseInsensitive), "title ==[c] 'book'", [], "Product"),
        (Order.number.in([1, 7]), "number IN {1, 7}", [], "Order"),
        (Order.total.between(1.0, 20.0), "total BETWEEN {1.0, 20.0}", [], "Order"),
        (Order.customer.name == "Ada", "customer.name == 'Ada'", [], "Order"),
        (LineItem.order.customer.name.beginsWith("A"), "order.customer.name BEGINSWITH 'A'", [], "LineItem"),
        (Order.total > 10 && Order.number == 7 && Order.customer.vip == true, "total > 10.0 AND number == 7 AND customer.vip == YES", [], "Order"),
        (Product.title == "Book" || Product.title == "E-book", "title == 'Book' OR title == 'E-book'", [], "Product"),
        (!(Order.total > 10), "NOT total > 10.0", [], "Order"),
    ]

    @Test("Each operator's typed form is the parsed string's tree and compiles to the identical SQL")
    func sameTreeSameSQL() throws {
        let schema = try StoreSchema(compiling: ShopFixture.model().checked())
        for (typed, format, arguments, entity) in Self.cases {
            let parsed = try FetchPredicate(format: format, arguments: arguments)
            #expect(typed == parsed, "\(format): typed \(typed)")
            let typedSQL = try PredicateSQLCompiler.compile(typed, entityName: entity, schema: schema)
            let stringSQL = try PredicateSQLCompiler.compile(parsed, entityName: entity, schema: schema)
            #expect(typedSQL.whereClause == stringSQL.whereClause, "\(format)")
            #expect(typedSQL.joins == stringSQL.joins, "\(format)")
            #expect(typedSQL.bindings == stringSQL.bindings, "\(format)")
        }
    }

    @Test("A fetch with a typed predicate finds what the format string finds")
    func fetches() throws {
        let container = try PersistentContainer(model: ShopFixture.model(), location: .inMemory)
        try ShopModel.register(in: container)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            for (title, price) in [("Book", 12.0), ("E-book", 4.0), ("Atlas", 30.0)] {
                let order = try context.insertObject(Order.self)
                order[Order.total] = price
                let product = try context.insertObject(Product.self)
                product[Product.title] = title
            }
            try context.save()
            var typed = Product.fetchRequest()
            typed.predicate = Product.title.contains("book", options: .caseInsensitive) || Product.title == "Atlas"
            var string = Product.fetchRequest()
            string.predicate = try FetchPredicate(format: "title CONTAINS[c] 'book' OR title == 'Atlas'")
            let titles = { (request: FetchRequest) in try Set(context.fetch(request).compactMap { ($0 as? Product)?[Product.title] }) }
            #expect(try titles(typed) == ["Book", "E-book", "Atlas"])
            #expect(try titles(typed) == titles(string))
        }
    }
}
