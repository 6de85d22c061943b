/// An object's identity as a set key, hashed by `SplitMix64` instead of
/// `Hasher`: a to-many relationship's membership sets hash every member added.
struct ObjectKey: Hashable {
    let identity: ObjectIdentifier

    @inline(__always)
    init(_ object: AnyObject) { identity = ObjectIdentifier(object) }

    func hash(into hasher: inout Hasher) { hasher.combine(identity) }

    @inline(__always)
    func _rawHashValue(seed: Int) -> Int {
        Int(truncatingIfNeeded: SplitMix64.finalize(UInt64(UInt(bitPattern: identity)) ^ UInt64(bitPattern: Int64(seed))))
    }
}
