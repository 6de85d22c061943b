import Foundation

/// Statement-owned storage for bound text and blobs.
///
/// Binding with `SQLITE_TRANSIENT` makes SQLite malloc a copy on every bind
/// (rebinding releases the previous one), which is one allocation per text
/// column per row in an insert loop. Instead the bytes are copied into a buffer
/// owned by the statement, reused from row to row, and bound `SQLITE_STATIC`.
///
/// Invariant: a parameter's buffer is only rewritten while that parameter is
/// being rebound, and lives until the statement is finalized, so SQLite never
/// sees a dangling pointer.
struct ParameterBuffers {
    /// Larger values are bound `SQLITE_TRANSIENT`: one malloc is negligible next
    /// to copying them, and the statement does not hold on to big buffers.
    static let largestBuffered = 64 * 1024

    private let count: Int
    private let pointers: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    private let capacities: UnsafeMutablePointer<Int>

    init(parameterCount: Int) {
        count = max(parameterCount, 0)
        pointers = .allocate(capacity: max(count, 1))
        pointers.initialize(repeating: nil, count: max(count, 1))
        capacities = .allocate(capacity: max(count, 1))
        capacities.initialize(repeating: 0, count: max(count, 1))
    }

    /// Copies `bytes` into parameter `index`'s buffer (1-based) and returns the
    /// copy, or nil when the value should be bound transient instead (too large,
    /// or the index is out of range and SQLite will report it).
    @inline(__always)
    func store(_ bytes: UnsafeRawBufferPointer, at index: Int32) -> UnsafeRawPointer? {
        let slot = Int(index) - 1
        guard slot >= 0, slot < count, bytes.count <= ParameterBuffers.largestBuffered else { return nil }
        if capacities[slot] < bytes.count || pointers[slot] == nil {
            let capacity = max(bytes.count, 32)
            pointers[slot]?.deallocate()
            pointers[slot] = .allocate(byteCount: capacity, alignment: 8)
            capacities[slot] = capacity
        }
        guard let buffer = pointers[slot] else { return nil }
        if let source = bytes.baseAddress, bytes.count > 0 {
            buffer.copyMemory(from: source, byteCount: bytes.count)
        }
        return UnsafeRawPointer(buffer)
    }

    /// Frees every buffer; call only after the statement is finalized.
    func deallocate() {
        for slot in 0..<count { pointers[slot]?.deallocate() }
        pointers.deallocate()
        capacities.deallocate()
    }
}
