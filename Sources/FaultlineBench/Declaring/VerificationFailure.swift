/// A line's work was not what it meant to do: the rows it wrote or the values
/// it read differ from what its data set says. The suite stops with status 1,
/// naming the line and this description.
public struct VerificationFailure: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// What the runner throws when a benchmark's `verify` throws: which iteration,
/// and what the verification said.
struct IterationVerificationError: Error, CustomStringConvertible {
    let iteration: String
    let underlying: Error
    var description: String { "verification failed after \(iteration): \(underlying)" }
}
