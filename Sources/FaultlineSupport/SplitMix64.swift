/// splitmix64's finaliser: spreads every bit of a word over the whole result
/// in ~10 instructions. The identity hashes (object IDs, object addresses) use
/// it where `Hasher`'s SipHash costs ~100: their keys are row numbers and
/// addresses, not input an attacker picks.
package enum SplitMix64 {
    @inlinable @inline(__always)
    package static func finalize(_ value: UInt64) -> UInt64 {
        var word = value
        word = (word ^ (word >> 30)) &* 0xBF58_476D_1CE4_E5B9
        word = (word ^ (word >> 27)) &* 0x94D0_49BB_1331_11EB
        return word ^ (word >> 31)
    }
}
