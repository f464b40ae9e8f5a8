import Foundation
import ModelKitCore

extension ModelDeleting {
    /// Deletes every stored model of a type; returns how many there were.
    ///
    /// ```swift
    /// try store.deleteAll(Status.self)
    /// ```
    @discardableResult
    public func deleteAll<M: Model>(_ type: M.Type) throws -> Int {
        try deleteAll(ModelQuery(M.self))
    }

    /// Deletes a model by its identifier; returns whether it was stored.
    ///
    /// ```swift
    /// try store.delete(user)
    /// ```
    @discardableResult
    public func delete<M: Model>(_ model: M) throws -> Bool {
        let table = try StoreTable.of(M.self)
        guard let identifier = model.modelIdentifier else { throw StoreError.notIdentified(M.modelSchema) }
        let key = try table.identifierValue(identifier)
        let column = table.columns[table.identifierColumn].name
        let query = ModelQuery(M.self).filter(ModelPredicate(.success(.compare(column: column, .equal, key))))
        return try deleteAll(query) > 0
    }
}
