/// Core Data's `NSCompoundPredicate` initialisers, as apps build a filter from
/// optional parts: `FetchPredicate(andPredicateWithSubpredicates: parts)`. An
/// empty AND holds for every object and an empty OR for none, as Core Data's
/// do (`TRUEPREDICATE`, `FALSEPREDICATE`).
extension FetchPredicate {
    public init(andPredicateWithSubpredicates subpredicates: [FetchPredicate]) {
        self.init(.and(subpredicates.map(\.root)))
    }

    public init(orPredicateWithSubpredicates subpredicates: [FetchPredicate]) {
        self.init(.or(subpredicates.map(\.root)))
    }

    public init(notPredicateWithSubpredicate predicate: FetchPredicate) {
        self.init(.not(predicate.root))
    }
}
