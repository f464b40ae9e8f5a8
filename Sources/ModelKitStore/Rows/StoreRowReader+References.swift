import Foundation
import ModelKitCore

extension StoreRowReader {
    /// An identified class model is a reference: its identifier, resolved through the context.
    /// Anything else is read in place.
    // @usableFromInline: the ModelReader witness the inlinable Model.read(from:) (ModelKitCore) calls per nested
    // model; specialised for this reader in the caller's module, the call is direct. Identity and loading, so out of
    // line.
    @usableFromInline
    mutating func decodeModel<M: Model>(_ type: M.Type) throws -> M {
        let schema = M.modelSchema
        guard let identifierIndex = schema.identifierIndex, isClassType(M.self) else {
            return try decodeUnidentified(M.self)
        }
        // A reference that is live: found from the stored value, without `AnyHashable` (see
        // `IdentityKey(stored:identifierType:)`).
        if case .column(let index) = node, let context {
            let stored = columns[index]
            if let last = lastReference, last.column == index, last.revision == context.identityRevisions,
                last.stored == stored, ModelContext.isInstance(last.object, of: M.self)
            {
                // An `M` (checked above), as below.
                return unsafeBitCast(last.object, to: M.self)
            }
            if let key = IdentityKey(stored: stored, identifierType: schema.properties[identifierIndex].valueType),
                let object = context.registeredObject(M.self, key: key), ModelContext.isInstance(object, of: M.self)
            {
                lastReference = (index, stored, object, context.identityRevisions)
                // An `M` (checked above), read as one without an optional of `M` (see `registeredObject`).
                return unsafeBitCast(object, to: M.self)
            }
        }
        return try liveOrLoadedModel(M.self)
    }

    /// The model the reference at the reader's position names, through its identifier: the live
    /// one, or else the one loaded from the store. Out of line: its optionals of `M` would have
    /// their metadata looked up on every call of ``decodeModel(_:)``, even one that returns a
    /// live instance before any.
    @inline(never)
    private mutating func liveOrLoadedModel<M: Model>(_ type: M.Type) throws -> M {
        let identifier = try M.decodeModelIdentifier(from: &self)
        let context = self.context ?? ModelContext()
        self.context = context
        if let live = context.registeredModel(M.self, identifier: identifier) { return live }
        guard let loaded = try loader?.loadModel(M.self, id: identifier, into: context) else {
            throw StoreError(
                .missingReference, table: M.modelSchema.modelName, identifier: describe(node),
                reason: "no such row in the store")
        }
        return loaded
    }

    /// Whether the reference in column `index` leads to a model whose load is under way (a
    /// cycle): it then reads as nil, and the loader sets it once that load ends.
    func defersReference(at index: Int) -> Bool {
        guard let (target, context, loader) = deferral(at: index) else { return false }
        return loader.defersReference(to: target, identifier: columns[index], from: columns.values, context: context)
    }

    /// Whether an array of references in column `index` leads to a model whose load is under
    /// way (a parent's children that point back to it): it then reads as empty, and the loader
    /// fills it once that load ends.
    func defersReferences(in elements: [JSONValue], at index: Int) -> Bool {
        guard let (target, context, loader) = deferral(at: index) else { return false }
        return elements.contains { element in
            guard let identifier = StoreValue(identifierIn: element) else { return false }
            return loader.defersReference(to: target, identifier: identifier, from: columns.values, context: context)
        }
    }

    /// What deferring a reference in column `index` needs, when the column's references can wait
    /// and a loader reads them through a context.
    private func deferral(at index: Int) -> (AnyModelType, ModelContext, RowLoader)? {
        guard let table, let target = table.deferrableReferences[index], let context,
            let loader = loader as? RowLoader
        else { return nil }
        return (target, context, loader)
    }
}
