/// An object's identity as a set key, hashed by splitmix64's finaliser
/// instead of `Hasher`'s SipHash (~100 instructions a key): a to-many
/// relationship's membership sets hash every member added, and an identity
/// is an address, not input an attacker chooses.
struct ObjectKey: Hashable {
    let identity: ObjectIdentifier

    @inline(__always)
    init(_ object: AnyObject) { identity = ObjectIdentifier(object) }

    func hash(into hasher: inout Hasher) { hasher.combine(identity) }

    @inline(__always)
    func _rawHashValue(seed: Int) -> Int {
        var word = UInt64(UInt(bitPattern: identity)) ^ UInt64(bitPattern: Int64(seed))
        word = (word ^ (word >> 30)) &* 0xBF58_476D_1CE4_E5B9
        word = (word ^ (word >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int(truncatingIfNeeded: word ^ (word >> 31))
    }
}
