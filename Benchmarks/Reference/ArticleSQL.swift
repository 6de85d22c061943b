/// The SQL both sides of the Reference suite run, so they do identical work.
enum ArticleSQL {
    static let schema = """
        CREATE TABLE article (
            id INTEGER PRIMARY KEY,
            title TEXT,
            body TEXT,
            views INTEGER,
            created REAL,
            category_id INTEGER
        );
        CREATE INDEX article_category_id ON article (category_id);
        """
    static let insert = "INSERT INTO article (title, body, views, created, category_id) VALUES (?, ?, ?, ?, ?)"
    static let selectAll = "SELECT id, title, body, views, created, category_id FROM article"
    static let selectByID = "SELECT id, title, body, views, created, category_id FROM article WHERE id = ?"
    static let begin = "BEGIN DEFERRED TRANSACTION"
    static let commit = "COMMIT TRANSACTION"
}

/// A workload failed; the message says where.
struct WorkloadError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
