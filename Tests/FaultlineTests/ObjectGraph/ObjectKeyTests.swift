import Testing
@testable import Faultline

@Suite("Object identity keys hash apart and find every member")
struct ObjectKeyTests {
    final class Item {}

    @Test("10,000 objects' keys spread over the low bits, and a set of them finds each once")
    func spreadAndMembership() {
        let items = (0..<10_000).map { _ in Item() }
        let keys = items.map(ObjectKey.init)
        #expect(Set(keys.map { $0._rawHashValue(seed: 0) & 0xFFFFF }).count > 9_900)
        var set = Set<ObjectKey>()
        #expect(keys.allSatisfy { set.insert($0).inserted })
        #expect(keys.allSatisfy { !set.insert($0).inserted })
        #expect(set.count == 10_000)
        let stranger = Item()
        withExtendedLifetime(items) { #expect(!set.contains(ObjectKey(stranger))) }
    }
}
