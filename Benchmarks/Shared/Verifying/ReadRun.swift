import FaultlineBench

/// A read line's iteration state: what it reads with, and what the measured
/// read returned (a count or checksum), kept for its `verify` step. Storing
/// one integer is all the measured closure does beyond the read.
public struct ReadRun<Reader> {
    public let reader: Reader
    public var result: Int64?

    public init(_ reader: Reader) { self.reader = reader }

    /// The measured result, or a failure if the read never stored one.
    public func measured() throws -> Int64 {
        guard let result else { throw VerificationFailure("the measured read returned nothing") }
        return result
    }
}

extension StoreVerifier {
    /// Keys as the JSON array `json_each(?)` reads.
    public static func jsonArray(_ keys: [Int64]) -> String {
        "[" + keys.map(String.init).joined(separator: ",") + "]"
    }
}
