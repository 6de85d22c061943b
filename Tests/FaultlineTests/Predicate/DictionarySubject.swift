import Faultline
import Foundation

/// A test double: a subject backed by a dictionary of fields, which may nest
/// (a to-one or composite is another `DictionarySubject`, a to-many an array).
struct DictionarySubject: PredicateSubject, Sendable {
    indirect enum Field: Sendable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
        ExpressibleByFloatLiteral, ExpressibleByBooleanLiteral, ExpressibleByNilLiteral
    {
        case value(PredicateValue)
        case one(DictionarySubject)
        case many([DictionarySubject])

        init(stringLiteral value: String) { self = .value(.string(value)) }
        init(integerLiteral value: Int64) { self = .value(.int(value)) }
        init(floatLiteral value: Double) { self = .value(.double(value)) }
        init(booleanLiteral value: Bool) { self = .value(.bool(value)) }
        init(nilLiteral: ()) { self = .value(.null) }
    }

    var entity: String
    var id: Int64?
    var fields: [String: Field]

    init(_ entity: String, id: Int64? = nil, _ fields: [String: Field]) {
        self.entity = entity
        self.id = id
        self.fields = fields
    }

    func predicateValue(forKey key: String) throws -> PredicateOperand {
        guard let field = fields[key] else { throw FetchPredicateError.unknownKey(entity: entity, key: key) }
        switch field {
        case .value(.null): return .null
        case .value(let value): return .value(value)
        case .one(let subject): return .object(subject)
        case .many(let subjects): return .objects(subjects)
        }
    }

    var predicateObjectID: PredicateObjectID? {
        id.map { PredicateObjectID(entityName: entity, primaryKey: $0) }
    }

    /// The value of a string field, to name a subject in expectations.
    var label: String {
        if case .value(.string(let text)) = fields["name"] ?? fields["title"] { return text }
        return entity
    }
}

/// The fixed data set of the table-driven tests: three authors, six books.
enum Library {
    static func day(_ iso: String) -> Date {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        return formatter.date(from: iso) ?? .distantPast
    }

    static let isbnCafe = UUID(uuid: (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16))

    static let orbit = DictionarySubject("Publisher", id: 1, ["name": "Orbit", "country": "UK"])
    static let tor = DictionarySubject("Publisher", id: 2, ["name": "Tor", "country": "US"])

    /// The authors as books see them (no books, to keep the graph acyclic).
    static let ana = DictionarySubject("Author", id: 1, ["name": "Ana", "publisher": .one(orbit)])
    static let bob = DictionarySubject("Author", id: 2, ["name": "Bob", "publisher": .one(tor)])

    static func book(
        _ title: String, views: Int64, price: Double?, published: String, author: DictionarySubject,
        subtitle: String? = nil, isbn: UUID? = nil
    ) -> DictionarySubject {
        DictionarySubject("Book", [
            "title": .value(.string(title)),
            "searchName": .value(.string(CanonicalText.fold(title))),
            "views": .value(.int(views)),
            "price": .value(price.map(PredicateValue.double) ?? .null),
            "published": .value(.date(day(published))),
            "subtitle": .value(subtitle.map(PredicateValue.string) ?? .null),
            "isbn": .value(isbn.map(PredicateValue.uuid) ?? .null),
            "author": .one(author),
        ])
    }

    static let anaBooks = [
        book("Café", views: 10, price: 9.99, published: "2020-01-01", author: ana, isbn: isbnCafe),
        book("CAFE", views: 20, price: 15, published: "2021-06-01", author: ana, subtitle: "Strong"),
        book("café", views: 50, price: 7.5, published: "2022-03-01", author: ana),
    ]
    static let bobBooks = [
        book("Tea", views: 5, price: 3, published: "2019-05-05", author: bob, subtitle: "Green"),
        book("Naïve Art", views: 100, price: 42, published: "2023-01-01", author: bob),
        book("Résumé", views: 0, price: nil, published: "2018-01-01", author: bob, subtitle: "How to"),
    ]
    static let books = anaBooks + bobBooks

    static let authors = [
        DictionarySubject("Author", id: 1, [
            "name": "Ana", "age": 40, "rating": 4.5, "balance": .value(.decimal(Decimal(string: "100.25") ?? 0)),
            "isActive": true, "nickname": nil, "size": 38,
            "colorScheme": .one(DictionarySubject("ColorScheme", ["primary": "red", "secondary": "blue"])),
            "flightData": nil, "publisher": .one(orbit), "books": .many(anaBooks),
        ]),
        DictionarySubject("Author", id: 2, [
            "name": "Bob", "age": 25, "rating": 3.0, "balance": .value(.decimal(Decimal(string: "0.5") ?? 0)),
            "isActive": false, "nickname": "Bobby", "size": 44,
            "colorScheme": .one(DictionarySubject("ColorScheme", ["primary": "blue", "secondary": "green"])),
            "flightData": .value(.data(Data([1, 2, 3]))), "publisher": .one(tor), "books": .many(bobBooks),
        ]),
        DictionarySubject("Author", id: 3, [
            "name": "Zoë", "age": 31, "rating": nil, "balance": nil,
            "isActive": true, "nickname": nil, "size": 38,
            "colorScheme": .one(DictionarySubject("ColorScheme", ["primary": "red", "secondary": nil])),
            "flightData": nil, "publisher": nil, "books": .many([]),
        ]),
    ]
}
