import Observation

extension ObservableModel {
    /// The values of one property, as an asynchronous sequence: its value now, then its value
    /// after each change (key-value observing of one key, on every platform).
    ///
    /// Changes made while the consumer is busy are coalesced: it gets the latest value next.
    /// Iterate where the model lives (the same task or actor): the model is not `Sendable`.
    ///
    /// ```swift
    /// for await name in user.changes(of: \.name) {
    ///     print(name)   // "Ada", then each new name
    /// }
    /// ```
    public func changes<Value>(of keyPath: KeyPath<Self, Value>) -> ModelPropertyChanges<Self, Value> {
        ModelPropertyChanges(model: self, keyPath: keyPath)
    }
}

/// The values of one property of an observable model: now, then after each change. See
/// ``ObservableModel/changes(of:)``.
public struct ModelPropertyChanges<M: ObservableModel, Value>: AsyncSequence {
    public typealias Element = Value
    public typealias Failure = Never

    let model: M
    let keyPath: KeyPath<M, Value>

    public func makeAsyncIterator() -> Iterator {
        Iterator(model: model, keyPath: keyPath)
    }

    /// Reads the property, then waits for the next change to it.
    public struct Iterator: AsyncIteratorProtocol {
        let model: M
        let keyPath: KeyPath<M, Value>
        private var signals: AsyncStream<Void>.Iterator
        private let signal: AsyncStream<Void>.Continuation
        private var started = false

        init(model: M, keyPath: KeyPath<M, Value>) {
            self.model = model
            self.keyPath = keyPath
            let (stream, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
            signals = stream.makeAsyncIterator()
            signal = continuation
        }

        public mutating func next(isolation actor: isolated (any Actor)?) async -> Value? {
            if started {
                guard await signals.next(isolation: actor) != nil, !Task.isCancelled else { return nil }
            }
            started = true
            // Read and watch in one step, so no change between the two is missed. The observer
            // hears of a change before it is made: the value is read when the consumer resumes.
            let signal = signal
            return withObservationTracking {
                model[keyPath: keyPath]
            } onChange: {
                signal.yield()
            }
        }

        public mutating func next() async -> Value? {
            await next(isolation: nil)
        }
    }
}
