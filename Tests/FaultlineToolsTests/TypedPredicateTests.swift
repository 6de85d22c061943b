import Foundation
import Testing
@testable import Faultline

/// Typed predicates built from the generated Shop classes' keys: for every
/// operator, quantifier (`ANY`, `ALL`, `NONE`) and aggregate (`@count`,
/// `@sum`, `@min`, `@max`, `@avg`), the typed form is the tree the format
/// string parses to, and the two compile to the same SQL with the same
/// bindings; fetching with a typed predicate finds what the string finds.
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
        (Order.lines.any.quantity > 2, "ANY lines.quantity > 2", [], "Order"),
        (Customer.orders.all.total >= 10.5, "ALL orders.total >= 10.5", [], "Customer"),
        (Order.lines.none.quantity.in([1, 2]), "NONE lines.quantity IN {1, 2}", [], "Order"),
        (Order.lines.any.product.title.beginsWith("B", options: .caseInsensitive), "ANY lines.product.title BEGINSWITH[c] 'B'", [], "Order"),
        (Order.lines.all.product.title != nil, "ALL lines.product.title != nil", [], "Order"),
        (Customer.orders.any.customer.name == Customer.name, "ANY orders.customer.name == name", [], "Customer"),
        (Order.lines.count > 1, "lines.@count > 1", [], "Order"),
        (Order.lines.count == Order.lineCount, "lines.@count == lineCount", [], "Order"),
        (Order.lines.sum.quantity >= 4, "lines.@sum.quantity >= 4", [], "Order"),
        (Order.lines.min.quantity < 2, "lines.@min.quantity < 2", [], "Order"),
        (Order.lines.max.quantity <= 9, "lines.@max.quantity <= 9", [], "Order"),
        (Customer.orders.average.total < 20.0, "orders.@avg.total < 20.0", [], "Customer"),
        (LineItem.order.customer.orders.count >= 1, "order.customer.orders.@count >= 1", [], "LineItem"),
        (LineItem.order.lines.any.quantity == 2, "ANY order.lines.quantity == 2", [], "LineItem"),
        (Customer.address_city == "Oslo", "address.city == 'Oslo'", [], "Customer"),
        (Customer.address_street_number > 3, "address.street.number > 3", [], "Customer"),
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

    @Test("Fetches through a to-many — quantifiers and aggregates — find what their format strings find")
    func toManyFetches() throws {
        let container = try PersistentContainer(model: ShopFixture.model(), location: .inMemory)
        try ShopModel.register(in: container)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            // Order n has n lines of quantities 1...n.
            for number in 1...4 {
                let order = try context.insertObject(Order.self)
                order[Order.number] = Int64(number)
                for quantity in 1...number {
                    let line = try context.insertObject(LineItem.self)
                    line[LineItem.quantity] = Int64(quantity)
                    line[LineItem.order] = order
                }
            }
            try context.save()
            let numbers = { (predicate: FetchPredicate) in
                var request = Order.fetchRequest()
                request.predicate = predicate
                return try Set(context.fetch(request).compactMap { ($0 as? Order)?[Order.number] })
            }
            let cases: [(FetchPredicate, String, Set<Int64>)] = [
                (Order.lines.any.quantity >= 3, "ANY lines.quantity >= 3", [3, 4]),
                (Order.lines.all.quantity <= 2, "ALL lines.quantity <= 2", [1, 2]),
                (Order.lines.none.quantity == 4, "NONE lines.quantity == 4", [1, 2, 3]),
                (Order.lines.count > 2, "lines.@count > 2", [3, 4]),
                (Order.lines.sum.quantity == 6, "lines.@sum.quantity == 6", [3]),
                (Order.lines.average.quantity > 2.0, "lines.@avg.quantity > 2.0", [4]),
                (Order.lines.max.quantity < 2, "lines.@max.quantity < 2", [1]),
            ]
            for (typed, format, expected) in cases {
                #expect(try numbers(typed) == expected, "\(format)")
                #expect(try numbers(typed) == numbers(try FetchPredicate(format: format)), "\(format)")
            }
        }
    }
}
