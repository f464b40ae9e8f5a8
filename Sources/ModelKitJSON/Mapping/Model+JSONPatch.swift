import Foundation
import ModelKitCore

extension Model {
    /// Applies a partial JSON payload (a PATCH body): each property it gives takes the value it
    /// gives, `null` empties an optional, every other keeps its value; returns what it gave. All
    /// or nothing, as `applyPatch(_:options:)` of a `JSONValue`, which it parses the bytes into.
    ///
    /// ```swift
    /// let given = try profile.applyPatch(jsonData: request.body)
    /// ```
    public mutating func applyPatch(jsonData data: Data, options: MappingOptions = .default) throws -> ModelPresence {
        try applyPatch(JSONValue(parsing: data), options: options)
    }
}

extension Model where Self: AnyObject {
    /// Applies a partial JSON payload to this instance; see `applyPatch(jsonData:options:)`.
    public func applyPatch(jsonData data: Data, options: MappingOptions = .default) throws -> ModelPresence {
        try applyPatch(JSONValue(parsing: data), options: options)
    }
}
