// Inflating Core Data's model cache. `Z_MODELCACHE.Z_CONTENT` is a raw deflate
// stream (RFC 1951: no zlib header, no gzip header, no checksum trailer) of a
// binary property list; every fixture store inflates with window bits -15 and
// leaves no byte over. The stream is untrusted input: a corrupt or truncated
// stream is an error, never a trap, and the output is capped so a small blob
// cannot inflate into gigabytes.

import CZlib
import Foundation
import FaultlineModel

enum Inflate {
    /// Real model caches inflate to a few kilobytes; 64 MiB is far beyond any model.
    static let defaultMaximumOutput = 64 << 20

    enum Failure: Error, Equatable {
        /// zlib's verdict on a corrupt stream, or "truncated".
        case corrupt(String)
        case tooLarge(limit: Int)
        /// Bytes after the end of the deflate stream.
        case trailingBytes(Int)
    }

    /// The bytes a raw deflate stream holds.
    ///
    /// - Complexity: linear in the output size.
    static func rawDeflate(_ input: Data, maximumOutput: Int = defaultMaximumOutput) throws(Failure) -> Data {
        var stream = z_stream()
        guard faultline_inflate_init_raw(&stream) == Z_OK else { throw .corrupt("zlib could not start inflating") }
        defer { inflateEnd(&stream) }

        var output = Data()
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        let outcome: Result<Int, Failure> = input.withUnsafeBytes { raw in
            guard let base = raw.bindMemory(to: Bytef.self).baseAddress else { return .failure(.corrupt("the stream is empty")) }
            // zlib reads through a mutable pointer but does not write the input.
            stream.next_in = UnsafeMutablePointer(mutating: base)
            stream.avail_in = uInt(raw.count)
            while true {
                let status: Int32 = chunk.withUnsafeMutableBufferPointer { buffer in
                    stream.next_out = buffer.baseAddress
                    stream.avail_out = uInt(buffer.count)
                    return inflate(&stream, Z_NO_FLUSH)
                }
                let produced = chunk.count - Int(stream.avail_out)
                guard output.count + produced <= maximumOutput else { return .failure(.tooLarge(limit: maximumOutput)) }
                output.append(contentsOf: chunk[0..<produced])
                switch status {
                case Z_STREAM_END:
                    return .success(Int(stream.avail_in))
                case Z_OK:
                    continue
                case Z_BUF_ERROR where stream.avail_in == 0:
                    return .failure(.corrupt("the stream ends before its last block"))
                default:
                    let reason = stream.msg.map { String(cString: $0) } ?? "zlib status \(status)"
                    return .failure(.corrupt(reason))
                }
            }
        }
        let left = try outcome.get()
        guard left == 0 else { throw .trailingBytes(left) }
        return output
    }
}
