import CSQLiteReference
import FaultlineBench

/// The article rows every Reference workload writes and reads, generated
/// deterministically (same seed, same rows in every run) and held twice: as
/// Swift values for the FaultlineSQLite side and as C arrays for the raw side,
/// so both bind exactly the same bytes and neither pays for conversion.
public final class ArticleDataset {
    public let count: Int
    public let titles: [String]
    public let bodies: [String]
    public let views: [Int64]
    public let created: [Double]
    public let categoryIDs: [Int64]

    private let textArena: UnsafeMutablePointer<CChar>
    private let titlePointers: UnsafeMutablePointer<UnsafePointer<CChar>?>
    private let bodyPointers: UnsafeMutablePointer<UnsafePointer<CChar>?>
    private let titleLengths: [Int32]
    private let bodyLengths: [Int32]

    public init(count: Int, seed: UInt64 = 0x5EED) {
        var random = SeededRandom(seed: seed)
        let words = ["fault", "line", "sqlite", "row", "cache", "prefetch", "batch", "trigger",
                     "café", "crème", "index", "merge", "policy", "graph", "object", "context"]
        func sentence(_ wordCount: Int) -> String {
            (0..<wordCount).map { _ in words[Int(random.next() % UInt64(words.count))] }.joined(separator: " ")
        }
        self.count = count
        titles = (0..<count).map { "Article \($0): " + sentence(4) }
        bodies = (0..<count).map { _ in sentence(30) }
        views = (0..<count).map { _ in Int64(random.next() % 100_000) }
        created = (0..<count).map { _ in 700_000_000 + Double(random.next() % 100_000_000) / 7 }
        categoryIDs = (0..<count).map { _ in Int64(random.next() % 100) + 1 }

        titleLengths = titles.map { Int32($0.utf8.count) }
        bodyLengths = bodies.map { Int32($0.utf8.count) }
        let total = titleLengths.reduce(0) { $0 + Int($1) } + bodyLengths.reduce(0) { $0 + Int($1) }
        textArena = .allocate(capacity: max(total, 1))
        titlePointers = .allocate(capacity: max(count, 1))
        bodyPointers = .allocate(capacity: max(count, 1))
        var offset = 0
        func place(_ text: String) -> UnsafePointer<CChar> {
            let start = textArena + offset
            for byte in text.utf8 {
                textArena[offset] = CChar(bitPattern: byte)
                offset += 1
            }
            return UnsafePointer(start)
        }
        for index in 0..<count {
            titlePointers[index] = place(titles[index])
            bodyPointers[index] = place(bodies[index])
        }
    }

    deinit {
        textArena.deallocate()
        titlePointers.deallocate()
        bodyPointers.deallocate()
    }

    /// Calls `body` with the C view of the rows in `range` (all by default);
    /// valid only inside `body`.
    public func withCArticles<Result>(
        _ range: Range<Int>? = nil, _ body: (UnsafePointer<fl_ref_articles>) throws -> Result
    ) rethrows -> Result {
        let range = range ?? 0..<count
        let start = range.lowerBound
        return try titleLengths.withUnsafeBufferPointer { titleLengths in
            try bodyLengths.withUnsafeBufferPointer { bodyLengths in
                try views.withUnsafeBufferPointer { views in
                    try created.withUnsafeBufferPointer { created in
                        try categoryIDs.withUnsafeBufferPointer { categoryIDs in
                            var articles = fl_ref_articles(
                                count: Int64(range.count),
                                titles: UnsafePointer(titlePointers + start),
                                title_lengths: titleLengths.baseAddress.map { $0 + start },
                                bodies: UnsafePointer(bodyPointers + start),
                                body_lengths: bodyLengths.baseAddress.map { $0 + start },
                                views: views.baseAddress.map { $0 + start },
                                created: created.baseAddress.map { $0 + start },
                                category_ids: categoryIDs.baseAddress.map { $0 + start })
                            return try body(&articles)
                        }
                    }
                }
            }
        }
    }

    /// `count` primary keys drawn uniformly from 1...rows, the same every run.
    public static func lookupKeys(count: Int, rows: Int, seed: UInt64 = 0x10C0) -> [Int64] {
        var random = SeededRandom(seed: seed)
        return (0..<count).map { _ in Int64(random.next() % UInt64(max(rows, 1))) + 1 }
    }
}

