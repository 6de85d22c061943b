import CSQLite

extension Connection {
    /// Turns this connection's triggers off or back on
    /// (`SQLITE_DBCONFIG_ENABLE_TRIGGER`); other connections are not affected.
    /// SQLite expires every prepared statement of the connection when the
    /// setting changes, so each re-prepares on its next step: worth it only
    /// around many rows. True when the triggers are in the state asked for.
    @discardableResult
    public func setTriggersEnabled(_ enabled: Bool) -> Bool {
        withUnsafeHandle { faultline_enable_triggers($0, enabled ? 1 : 0) } == (enabled ? 1 : 0)
    }
}
