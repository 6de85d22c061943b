extension Array {
    /// Whether both arrays are one buffer: copies of each other that neither
    /// has written to since.
    @inlinable @inline(__always)
    package func sharesStorage(with other: [Element]) -> Bool {
        withUnsafeBufferPointer { mine in
            other.withUnsafeBufferPointer { theirs in
                mine.baseAddress == theirs.baseAddress && mine.count == theirs.count
            }
        }
    }
}
