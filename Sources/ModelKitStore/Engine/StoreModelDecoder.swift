import Foundation
import ModelKitCore

/// How a fetch turns a row into a model of one type: the model's generated decoder run over the
/// store's row reader, built where the model type is known.
///
/// The store's fetch entry points are `@inlinable` and build this in the caller's module, where
/// the model's type is concrete: the compiler then specializes the model's initializer, and the
/// key-tree walk under it, for ``StoreRowReader`` there. The store's own generic code (which sees
/// `M` only as a type parameter) would otherwise run that decoder unspecialized for every row,
/// each reader call through a witness table and each generic type's metadata looked up at run
/// time. Built from generic code (references a model holds, a context's loads), it is the same
/// decoder, unspecialized.
// @usableFromInline: named and built by the inlinable fetch entry points, for the reason above.
@usableFromInline
struct StoreModelDecoder<M: Model> {
    /// Reads the model at the reader's row (no identity: the loader resolves that around it).
    // @usableFromInline: this and the two below are set by the inlinable init(); the loader reads them out of line.
    @usableFromInline let decode: (inout StoreRowReader) throws -> M
    /// Appends a model to a fetch's results: the generic loop that collects them would look the
    /// array type's metadata up at run time for every row.
    @usableFromInline let append: (inout [M], M) -> Void
    /// Reads every row `next` steps to, moving `reader` from row to row, for a table whose rows
    /// need nothing around the read (a value model that does not migrate): the whole loop is
    /// specialized, with no call through the loader for each row.
    @usableFromInline let decodeRows: (inout StoreRowReader, _ next: () throws -> StoreRowColumns?) throws -> [M]

    // @inlinable: the point of this type (see above): run in the caller's module, where `M` is concrete, so the three
    // closures hold the model's decoder specialised for StoreRowReader.
    @inlinable
    init() {
        decode = { reader in try reader.decodeUnidentified(M.self) }
        append = { models, model in models.append(model) }
        decodeRows = { reader, next in
            var models: [M] = []
            while let row = try next() {
                reader.start(row)
                do {
                    models.append(try reader.decodeUnidentified(M.self))
                } catch {
                    throw reader.rowError(error)
                }
            }
            return models
        }
    }
}
