import GRDB

/// Runs `SELECT 1` on an in-memory database, so that GRDB is linked and used.
public func selectOne() throws -> Int? {
    try DatabaseQueue().read { try Int.fetchOne($0, sql: "SELECT 1") }
}
