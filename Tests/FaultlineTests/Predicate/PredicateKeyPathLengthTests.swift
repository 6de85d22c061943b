import Faultline
import Foundation
import Testing

/// Objects whose `friends` are all of them, itself included: a key path of n
/// `friends` hops has 2^n paths through two objects, so only an evaluator that
/// merges the objects it reaches finishes. `reads` counts the keys read.
private final class Clique {
    final class Member: PredicateSubject {
        let name: String
        let age: Int64
        unowned let clique: Clique

        init(_ name: String, age: Int64, in clique: Clique) {
            self.name = name
            self.age = age
            self.clique = clique
        }

        func predicateValue(forKey key: String) throws -> PredicateOperand {
            clique.reads += 1
            switch key {
            case "friends": return .objects(clique.members)
            case "name": return .value(.string(name))
            case "age": return .value(.int(age))
            default: throw FetchPredicateError.unknownKey(entity: "Member", key: key)
            }
        }
    }

    var members: [Member] = []
    var reads = 0

    init() {
        members = [Member("a", age: 1, in: self), Member("b", age: 2, in: self)]
    }

    /// Evaluates `format` against the first member; the keys read doing it.
    func reads(evaluating format: String) throws -> (result: Bool, reads: Int) {
        reads = 0
        let result = try FetchPredicate(format: format).evaluate(with: members[0])
        return (result, reads)
    }
}

private func hops(_ count: Int) -> String {
    Array(repeating: "friends", count: count).joined(separator: ".")
}

@Suite("A key path's evaluation is linear in its length")
struct PredicateKeyPathLengthTests {
    @Test("Each hop through a to-many reads each object reached once, however many paths reach it")
    func linearInHops() throws {
        let clique = Clique()
        for count in [10, 20] {
            let (result, reads) = try clique.reads(evaluating: "ANY \(hops(count)).name == \"b\"")
            #expect(result)
            // One read of `friends` from the start, two per later hop, two of `name`.
            #expect(reads == 2 * count + 1, "\(count) hops")
        }
    }

    @Test("A key path of 10,002 components parses, prints and evaluates with two reads per component")
    func tenThousandComponents() throws {
        let clique = Clique()
        let format = "ANY \(hops(10_001)).name == \"b\""
        let predicate = try FetchPredicate(format: format)
        #expect(predicate.description == format)
        let (result, reads) = try clique.reads(evaluating: format)
        #expect(result)
        #expect(reads == 2 * 10_001 + 1)
        let (none, _) = try clique.reads(evaluating: "NONE \(hops(10_001)).age > 2")
        #expect(none)
    }

    @Test("Aggregates still count every path: @count, @sum and @avg weigh an object by its paths")
    func aggregatesCountPaths() throws {
        let clique = Clique()
        // friends.friends: 4 paths, to a, b, a, b.
        #expect(try clique.reads(evaluating: "friends.friends.@count == 4").result)
        #expect(try clique.reads(evaluating: "friends.friends.@sum.age == 6").result)
        #expect(try clique.reads(evaluating: "friends.friends.@avg.age == 1.5").result)
        #expect(try clique.reads(evaluating: "friends.friends.@max.age == 2").result)
        #expect(try clique.reads(evaluating: "SUBQUERY(friends.friends, $f, $f.age == 2).@count == 2").result)
        #expect(try clique.reads(evaluating: "\(hops(20)).@count == \(1 << 20)").result)
    }

    @Test("Counting more paths than Int64 holds is an overflow, not a hang")
    func pathCountOverflow() throws {
        let clique = Clique()
        #expect(throws: FetchPredicateError.arithmeticOverflow(aggregate: "@count")) {
            try clique.reads(evaluating: "\(hops(10_001)).@count > 0")
        }
        #expect(throws: FetchPredicateError.arithmeticOverflow(aggregate: "@sum")) {
            try clique.reads(evaluating: "\(hops(100)).@sum.age > 0")
        }
        // Quantifiers and @max need no count, so any number of paths is fine.
        #expect(try clique.reads(evaluating: "\(hops(100)).@max.age == 2").result)
    }
}
