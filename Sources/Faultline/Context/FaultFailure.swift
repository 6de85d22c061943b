import Foundation
/// A fault the store could not fulfil because reading failed (an I/O error, a
/// full disk, a lock held past the busy timeout), as opposed to a row that is
/// gone. Core Data raises an exception at the access; a Faultline access
/// cannot throw, so the object stays a fault (or the to-many unloaded, to be
/// read again at the next access), and the next `save()` throws every failure
/// since the last save and writes nothing: a change made to what could not be
/// read is never saved as if it had been.
public struct FaultFailure: Error, Sendable, CustomStringConvertible {
    public let objectID: ManagedObjectID
    /// The to-many relationship that could not be loaded; nil for the object's own row.
    public let relationship: String?
    /// What the store reported.
    public let underlying: any Error

    public var description: String {
        let what = relationship.map { "the '\($0)' relationship of \(objectID)" } ?? "\(objectID)"
        return "\(what) could not be read from the store: \(underlying)"
    }
}

extension ManagedObjectContext {
    func recordFaultFailure(_ error: any Error, of object: ManagedObject, relationshipAt index: Int? = nil) {
        let name = index.map { object.runtime.entity.relationships[$0].name }
        faultFailures.append(FaultFailure(objectID: object.objectID, relationship: name, underlying: error))
    }

    /// Throws, once, the fault failures recorded since `start`.
    func throwFaultFailures(since start: Int = 0) throws {
        guard faultFailures.count > start else { return }
        let failures = Array(faultFailures[start...])
        faultFailures.removeSubrange(start...)
        throw SaveError.unfulfilledFaults(failures)
    }
}

extension FaultFailure: LocalizedError {
    /// The description, so `localizedDescription` (what services log) says what
    /// happened instead of "The operation could not be completed".
    public var errorDescription: String? { description }
}
