import Foundation
import FaultlineSQLite

/// The typed row writer of a batch insert: each `set` checks the value against
/// the attribute's type and binds it straight into the prepared statement.
///
/// Handed to the row handler once per row (the same instance every time).
/// Nothing here hashes a string, boxes a value or builds SQL; a wrong type is
/// recorded (the first one wins) and fails the request once the handler
/// returns, naming the row and the key. Use only inside the handler.
public final class BatchInsertRow {
    enum Failure {
        case wrongType(slot: Int, got: String)
        case validation(slot: Int, ValidationFailure)
        case missing(slot: Int)
        case foreignHandle(String)
        case foreignObjectID(slot: Int, String)
        case sqlite(SQLiteError)
    }

    let statement: Statement
    let plan: BatchInsertPlan
    let storeIdentifier: UInt32
    let validates: Bool
    let flags: Bool
    let slotCount: Int
    /// Per slot: the parameter, the row generation that last set it, whether
    /// the default is what is bound now, and the bound upsert flag (-1 unknown).
    let parameters: UnsafeMutablePointer<Int32>
    let marks: UnsafeMutablePointer<UInt64>
    let defaultBound: UnsafeMutablePointer<Bool>
    let flagBound: UnsafeMutablePointer<Int8>
    /// Per to-one slot: whether some row named a destination (what a merge
    /// re-reads: `BatchInserter.relinkedEntities`).
    let linked: UnsafeMutablePointer<Bool>
    let slotOfAttribute: UnsafeMutablePointer<Int32>
    let attributeCount: Int
    var generation: UInt64 = 1
    var failure: Failure?

    init(statement: Statement, plan: BatchInsertPlan, storeIdentifier: UInt32, validates: Bool) {
        self.statement = statement
        self.plan = plan
        self.storeIdentifier = storeIdentifier
        self.validates = validates
        slotCount = plan.slots.count
        flags = plan.slots.first.map { $0.flagParameter != 0 } ?? false
        parameters = .allocate(capacity: max(slotCount, 1))
        marks = .allocate(capacity: max(slotCount, 1))
        defaultBound = .allocate(capacity: max(slotCount, 1))
        flagBound = .allocate(capacity: max(slotCount, 1))
        linked = .allocate(capacity: max(slotCount, 1))
        for (offset, slot) in plan.slots.enumerated() { parameters[offset] = slot.parameter }
        marks.initialize(repeating: 0, count: max(slotCount, 1))
        defaultBound.initialize(repeating: false, count: max(slotCount, 1))
        flagBound.initialize(repeating: -1, count: max(slotCount, 1))
        linked.initialize(repeating: false, count: max(slotCount, 1))
        attributeCount = plan.slotOfAttribute.count
        slotOfAttribute = .allocate(capacity: max(attributeCount, 1))
        for (offset, slot) in plan.slotOfAttribute.enumerated() { slotOfAttribute[offset] = slot }
    }

    deinit {
        parameters.deallocate()
        marks.deallocate()
        defaultBound.deallocate()
        flagBound.deallocate()
        linked.deallocate()
        slotOfAttribute.deallocate()
    }

    // MARK: Typed setters

    public func set(_ value: Int64, at handle: AttributeHandle) {
        guard let slot = slot(handle) else { return }
        let parameter = parameters[slot]
        switch handle.type {
        case .integer64AttributeType, .decimalAttributeType:
            bind { try statement.bind(value, at: parameter) }
        case .integer32AttributeType, .integer16AttributeType:
            guard handle.type.integerRange?.contains(value) == true else { return wrongType(slot, "Int64 \(value)") }
            bind { try statement.bind(value, at: parameter) }
        case .doubleAttributeType, .floatAttributeType:
            guard let exact = Double(exactly: value) else { return wrongType(slot, "Int64 \(value)") }
            bind { try statement.bind(exact, at: parameter) }
        case .booleanAttributeType:
            guard value == 0 || value == 1 else { return wrongType(slot, "Int64 \(value)") }
            bind { try statement.bind(value, at: parameter) }
        default:
            return wrongType(slot, "Int64")
        }
        if validates { validate(.integer(value), slot) }
        mark(slot)
    }

    public func set(_ value: Int, at handle: AttributeHandle) { set(Int64(value), at: handle) }

    public func set(_ value: Double, at handle: AttributeHandle) {
        guard let slot = slot(handle) else { return }
        switch handle.type {
        case .doubleAttributeType, .floatAttributeType:
            let parameter = parameters[slot]
            bind { try statement.bind(value, at: parameter) }
        default:
            // Exact conversions only (a whole Double for an integer, a decimal).
            return setValue(.double(value), slot: slot, got: "Double")
        }
        if validates { validate(.double(value), slot) }
        mark(slot)
    }

    public func set(_ value: Bool, at handle: AttributeHandle) {
        guard let slot = slot(handle) else { return }
        guard handle.type == .booleanAttributeType || handle.type.isInteger else { return wrongType(slot, "Bool") }
        let parameter = parameters[slot]
        bind { try statement.bind(value, at: parameter) }
        mark(slot)
    }

    public func set(_ value: String, at handle: AttributeHandle) {
        guard let slot = slot(handle) else { return }
        guard handle.type == .stringAttributeType else { return wrongType(slot, "String") }
        let parameter = parameters[slot]
        bind { try statement.bind(value, at: parameter) }
        if validates { validate(.string(value), slot) }
        mark(slot)
    }

    public func set(_ value: Date, at handle: AttributeHandle) {
        guard let slot = slot(handle) else { return }
        guard handle.type == .dateAttributeType else { return wrongType(slot, "Date") }
        let parameter = parameters[slot]
        bind { try statement.bind(value.timeIntervalSinceReferenceDate, at: parameter) }
        if validates { validate(.date(value), slot) }
        mark(slot)
    }

    public func set(_ value: Data, at handle: AttributeHandle) {
        guard let slot = slot(handle) else { return }
        guard handle.type == .binaryDataAttributeType || handle.type == .transformableAttributeType else {
            return wrongType(slot, "Data")
        }
        let parameter = parameters[slot]
        let stored = plan.slots[slot].marked ? Data([MarkedDataAttributes.inlineMarker]) + value : value
        bind { try statement.bind(stored, at: parameter) }
        mark(slot)
    }

    public func set(_ value: UUID, at handle: AttributeHandle) {
        guard let slot = slot(handle) else { return }
        setValue(.uuid(value), slot: slot, got: "UUID")
    }

    public func set(_ value: Decimal, at handle: AttributeHandle) {
        guard let slot = slot(handle) else { return }
        setValue(.decimal(value), slot: slot, got: "Decimal")
    }

    public func set(_ value: URL, at handle: AttributeHandle) {
        guard let slot = slot(handle) else { return }
        setValue(.uri(value), slot: slot, got: "URL")
    }

    /// Sets NULL (nil); the default is not applied.
    public func setNull(at handle: AttributeHandle) {
        guard let slot = slot(handle) else { return }
        setValue(.null, slot: slot, got: "nil")
    }

    /// Any attribute value, converted exactly to the attribute's type.
    public func set(_ value: AttributeValue, at handle: AttributeHandle) {
        guard let slot = slot(handle) else { return }
        setValue(value, slot: slot, got: "\(value)")
    }

    // MARK: To-one

    /// The destination by object ID (nil: no destination).
    public func set(_ destination: ManagedObjectID?, at handle: RelationshipHandle) {
        guard let slot = slot(handle) else { return }
        setDestination(destination, slot: slot)
    }

    /// The destination by its unique key (after `BatchInsertRequest.lookUp`).
    public func set(_ key: String, at handle: RelationshipHandle) {
        guard let slot = slot(handle) else { return }
        setValue(.string(key), slot: slot, got: "String")
    }

    public func set(_ key: Int64, at handle: RelationshipHandle) {
        guard let slot = slot(handle) else { return }
        setValue(.integer(key), slot: slot, got: "Int64")
    }

    public func set(_ key: AttributeValue, at handle: RelationshipHandle) {
        guard let slot = slot(handle) else { return }
        setValue(key, slot: slot, got: "\(key)")
    }
}
