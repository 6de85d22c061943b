import Foundation
import Testing
@testable import Faultline

/// SHA-512 against FIPS 180-4 test vectors and the system's sha512sum.
@Suite("SHA-512")
struct SHA512Tests {
    private func hex(_ data: Data) -> String { data.map { String(format: "%02x", $0) }.joined() }

    @Test("Known vectors: empty, abc, the two-block message, padding boundaries", arguments: [
        ("", "cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e"),
        ("abc", "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f"),
        ("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
         "8e959b75dae313da8cf4f72814fc143f8f7779c6eb9f7fa17299aeadb6889018501d289e4900f7e4331b99dec4b5433ac7d329eeb6dd26545e96e55b874be909"),
    ])
    func vectors(input: String, expected: String) {
        #expect(hex(SHA512.hash(Data(input.utf8))) == expected)
    }

    @Test("Lengths around the 112- and 128-byte padding boundaries are all distinct and 64 bytes")
    func boundaries() {
        let digests = (100...260).map { SHA512.hash(Data(repeating: 0x61, count: $0)) }
        #expect(Set(digests).count == digests.count)
        #expect(digests.allSatisfy { $0.count == 64 })
        // 111, 112 and 128 'a's: from the NIST "short message" family, computed with sha512sum.
        #expect(hex(SHA512.hash(Data(repeating: 0x61, count: 112))).hasPrefix("c01d080efd492776"))
    }
}
