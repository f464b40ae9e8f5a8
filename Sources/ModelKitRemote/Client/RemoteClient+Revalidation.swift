import Foundation
import ModelKitCore

extension RemoteClient {
    /// GETs with `request` and maps the response with `map`, or, when an earlier response to the
    /// same URL had an `ETag` and the context still has (or the store still holds) every model it
    /// gave, asks with `If-None-Match` first: a `304 Not Modified` returns those models as they
    /// are, without mapping or saving.
    func fetch<M: RemoteModel>(
        _ request: RemoteRequest, context: ModelContext, map: (RemoteResponse) async throws -> [M]
    ) async throws -> [M] {
        var request = request
        let key = request.url.absoluteString
        var kept: [M]?
        if revalidates, let entry = validators.entry(for: key), let models = Self.models(M.self, entry.identifiers, in: context) {
            kept = models
            request.headers.setField("If-None-Match", to: entry.eTag)
        }
        let response = try await send(request, accepting: kept == nil ? [] : [304])
        if response.status == 304, let kept { return kept }
        let models = try await map(response)
        if revalidates {
            let identifiers = models.compactMap { type(of: $0) is AnyObject.Type ? $0.modelIdentifier : nil }
            if let eTag = response.header("ETag"), identifiers.count == models.count {
                validators.keep(RemoteValidators.Entry(eTag: eTag, identifiers: identifiers), for: key)
            } else {
                validators.forget(key)
            }
        }
        return models
    }

    /// The live (or stored) instances for `identifiers`, or nil when one of them is neither.
    private static func models<M: Model>(_ type: M.Type, _ identifiers: [AnyHashable], in context: ModelContext) -> [M]? {
        var models: [M] = []
        models.reserveCapacity(identifiers.count)
        for identifier in identifiers {
            // A store that cannot load one only costs the conditional request: the full one follows.
            guard let model = try? context.liveOrLoadedModel(M.self, identifier: identifier) else { return nil }
            models.append(model)
        }
        return models
    }
}

/// The `ETag`s of the client's latest GET responses, by URL, with the identifiers of the models
/// each gave: what a `304 Not Modified` answer stands for. Shared by the copies of a client;
/// the oldest entries go first past ``capacity``.
final class RemoteValidators: Sendable {
    struct Entry: @unchecked Sendable {
        // @unchecked: the identifiers are models' identifiers, `Hashable & Sendable` by the
        // `@Identifier` rules, only boxed in `AnyHashable`.
        let eTag: String
        let identifiers: [AnyHashable]
    }

    /// How many URLs' validators are kept.
    static let capacity = 1_024

    private let state = Locked<(entries: [String: Entry], order: [String])>(([:], []))

    func entry(for url: String) -> Entry? {
        state.withLock { $0.entries[url] }
    }

    func keep(_ entry: Entry, for url: String) {
        state.withLock { state in
            if state.entries.updateValue(entry, forKey: url) == nil { state.order.append(url) }
            if state.order.count > Self.capacity {
                let dropped = state.order.prefix(state.order.count - Self.capacity / 2)
                for url in dropped { state.entries[url] = nil }
                state.order.removeFirst(dropped.count)
            }
        }
    }

    func forget(_ url: String) {
        state.withLock { state in
            guard state.entries.removeValue(forKey: url) != nil else { return }
            state.order.removeAll { $0 == url }
        }
    }
}
