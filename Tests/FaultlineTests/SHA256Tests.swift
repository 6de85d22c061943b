import Foundation
import Testing
@testable import Faultline

@Suite("SHA-256 matches the FIPS 180-4 test vectors")
struct SHA256Tests {
    @Test("empty input")
    func empty() {
        #expect(SHA256.hex(SHA256.hash(Data())) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    @Test("\"abc\"")
    func abc() {
        #expect(SHA256.hex(SHA256.hash(Data("abc".utf8))) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test("two-block message (448 bits)")
    func twoBlocks() {
        let message = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"
        #expect(SHA256.hex(SHA256.hash(Data(message.utf8))) == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    @Test("one million 'a's")
    func millionAs() {
        let message = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
        #expect(SHA256.hex(SHA256.hash(message)) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test("padding boundaries: 55, 56, 63, 64 bytes all differ and are 32 bytes")
    func paddingBoundaries() {
        let digests = [55, 56, 63, 64, 65].map { SHA256.hash([UInt8](repeating: 0x61, count: $0)) }
        #expect(digests.allSatisfy { $0.count == 32 })
        #expect(Set(digests).count == digests.count)
        // Known value for 64 'a's.
        #expect(SHA256.hex(digests[3]) == "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb")
    }
}
