import CSQLite

/// The visitor the row visitor aggregate calls: set only while `visitRows`
/// steps its statement, on the thread using the connection.
final class RowVisitor {
    var visit: ((FunctionArguments) -> Bool)?
    var refused = false
}

extension Connection {
    /// The aggregate SQL function through which `visitRows` hands each row to
    /// Swift: `SELECT FAULTLINE_VISIT_ROWS(a, b, …) FROM …`.
    public static let rowVisitorFunction = "FAULTLINE_VISIT_ROWS"

    /// Runs `sql`, a query whose one result is `FAULTLINE_VISIT_ROWS(…)` over
    /// the rows to read, bound with `bindings`, and hands `visit` each row's
    /// arguments in the order SQLite reads them. `visit` returns false to
    /// refuse the row; the rest are skipped. True when every row was taken.
    ///
    /// For reading many rows of a few numbers: the aggregate is called from
    /// inside SQLite's loop, where stepping a statement row by row pays
    /// `sqlite3_step`'s entry and exit and a result row for each.
    public func visitRows(_ sql: String, bindings: [SQLValue], _ visit: (FunctionArguments) -> Bool) throws -> Bool {
        let visitor = try registeredRowVisitor()
        let statement = try cachedStatement(sql)
        try statement.bind(bindings)
        return try withoutActuallyEscaping(visit) { visit in
            visitor.visit = visit
            visitor.refused = false
            defer { visitor.visit = nil }
            try statement.execute()
            return !visitor.refused
        }
    }

    /// The visitor, registering the function the first time: a new name
    /// expires no prepared statement.
    private func registeredRowVisitor() throws -> RowVisitor {
        if let rowVisitor { return rowVisitor }
        let visitor = RowVisitor()
        let box = Unmanaged.passRetained(visitor).toOpaque()
        let code = sqlite3_create_function_v2(
            handle, Self.rowVisitorFunction, -1, SQLITE_UTF8, box, nil,
            { context, count, values in
                guard let context, let userData = sqlite3_user_data(context) else { return }
                let visitor = Unmanaged<RowVisitor>.fromOpaque(userData).takeUnretainedValue()
                guard !visitor.refused, let visit = visitor.visit else { return }
                if !visit(FunctionArguments(values: values, count: Int(count))) { visitor.refused = true }
            },
            { context in sqlite3_result_null(context) },
            { userData in
                if let userData { Unmanaged<RowVisitor>.fromOpaque(userData).release() }
            })
        guard code == SQLITE_OK else {
            // On failure SQLite has already called the destructor.
            throw SQLiteError(connection: handle, resultCode: code, sql: nil)
        }
        rowVisitor = visitor
        return visitor
    }
}
