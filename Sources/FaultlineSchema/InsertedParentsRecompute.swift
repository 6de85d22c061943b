/// The aggregates a parent table keeps over a to-many, recomputed from the
/// children for the parents whose keys lie between `?1` and `?2`: what the
/// parent's own INSERT trigger does for one new row
/// (`UPDATE ZCATEGORY SET ZARTICLECOUNT = (SELECT COUNT(c.Z_PK) FROM ZARTICLE c
/// WHERE c.ZCATEGORY = NEW.Z_PK) WHERE Z_PK = NEW.Z_PK`), for every new
/// parent at once.
///
/// Exact whatever ran before it, since it computes from the children alone;
/// it must run after every stand-in that changes those children's values or
/// adds to the new parents (TriggerlessInserts orders them).
public struct InsertedParentsRecompute: Sendable, Hashable {
    public let table: String
    /// ` AND Z_ENT IN (…)` when the table is shared.
    let filter: String
    var assignments: [String]
    /// The tables whose rows the assignments read.
    public private(set) var sources: [String]

    /// `assignments` read the parent's key as `<table>.Z_PK`.
    init(table: String, filter: String, assignments: [String], sources: [String]) {
        self.table = table
        self.filter = filter
        self.assignments = assignments
        self.sources = sources
    }

    /// Both recomputes in one statement, when they update the same rows.
    func merged(with other: InsertedParentsRecompute) -> InsertedParentsRecompute? {
        guard table == other.table, filter == other.filter else { return nil }
        var both = self
        both.assignments += other.assignments
        both.sources += other.sources.filter { !both.sources.contains($0) }
        return both
    }

    /// The statement, its bounds `?1` and `?2` the first and last key inserted.
    public var sql: String {
        "UPDATE \(table) SET \(assignments.joined(separator: ", ")) WHERE Z_PK BETWEEN ?1 AND ?2\(filter)"
    }
}
