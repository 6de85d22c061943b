extension Array {
    /// `count` copies of `value`. `Array(repeating:count:)` allocates through
    /// a stdlib entry point that is not inlinable, so it runs unspecialized and
    /// looks up the storage class's generic metadata on every call (hundreds
    /// of instructions, a large share of a prefetch under callgrind); growing an
    /// empty array runs specialized code that caches that metadata.
    /// `@inlinable` so callers in other modules of the package get it
    /// specialized and inlined too, as they did when it was in the core.
    @inlinable @inline(__always)
    package init(filledWith value: Element, count: Int) {
        self.init()
        reserveCapacity(count)
        for _ in 0..<count { append(value) }
    }
}
