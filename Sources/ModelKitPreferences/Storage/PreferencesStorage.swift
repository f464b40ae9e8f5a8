import Foundation
import ModelKitCore

/// A change to one key that is not saved yet.
enum PendingWrite: Equatable, Sendable {
    /// Store this value.
    case set(JSONValue)
    /// Remove the key.
    case remove

    /// The value the key has after this write.
    var value: JSONValue? {
        if case .set(let value) = self { return value }
        return nil
    }
}

/// The state of one preferences file shared by every ``Preferences`` instance of this process
/// that uses the file: the values last read, the changes not saved yet, the observers.
///
/// Instances for the same file share one storage (see ``StorageRegistry``), so they see each
/// other's changes at once and one save writes all of them.
///
/// Locking: `io` serializes everything that touches the file in this process (reads, saves,
/// moving a corrupt file aside), the `flock` of ``PreferencesFile/withLock(_:)`` extends that
/// to other processes for saves, and `state` guards the in-memory state. The order is always
/// `io`, then the file lock, then `state`; nothing waits for `io` while holding `state`.
final class PreferencesStorage: Sendable {
    /// The in-memory state.
    struct State {
        /// The file's members as last read or written.
        var disk: [String: JSONValue] = [:]
        /// The version of the file `disk` came from; nil when there was no file.
        var fingerprint: FileFingerprint?
        /// That version, kept open (see ``FileFingerprint``).
        var pin: PinnedFile?
        /// Whether the file was read at least once.
        var isLoaded = false
        /// Changes made in this process and not saved yet.
        var pending: [String: PendingWrite] = [:]
        /// The observers, by registration number.
        var observers: [Int: PreferencesObserver] = [:]
        var nextObserverID = 0
        /// The task looking at the file for other processes' changes while there are observers.
        var pollTask: Task<Void, Never>?
        /// The task that saves batched writes.
        var saveTask: Task<Void, Never>?
        /// The last error of a non-throwing call or an automatic save.
        var lastError: PreferencesError?

        /// A key's value: the pending write's if there is one, else the file's.
        func value(forKey key: String) -> JSONValue? {
            if let write = pending[key] { return write.value }
            return disk[key]
        }

        /// Every current value: the file's with pending writes applied.
        var effective: [String: JSONValue] {
            var values = disk
            for (key, write) in pending { values[key] = write.value }
            return values
        }
    }

    /// The file.
    let file: PreferencesFile
    /// The in-memory state.
    let state = Locked(State())
    private let io = Locked<Void>()

    init(file: PreferencesFile) {
        self.file = file
    }

    deinit {
        let pending = state.withLock { state -> Bool in
            state.pollTask?.cancel()
            state.saveTask?.cancel()
            return !state.pending.isEmpty
        }
        // The last instance is gone: save what is left. Nobody is left to see an error, so a
        // failure here leaves the changes unsaved (call `flush()` to find out).
        if pending { try? flush() }
    }

    // MARK: Reading

    /// Reads the file again if it changed since it was last seen (a `stat` call when it did not).
    ///
    /// A corrupt file is moved aside under the lock and reported; the values then are those of
    /// no file, and the corrupt file is never overwritten.
    func refresh(force: Bool = false) throws {
        try io.run {
            let (isLoaded, known) = state.withLock { ($0.isLoaded, $0.fingerprint) }
            if isLoaded && !force, try file.currentFingerprint() == known { return }
            do {
                apply(try file.read())
            } catch let error as PreferencesError where error.kind == .corruptFile {
                // Look again holding the lock: a writer may have replaced the file meanwhile.
                let reported = try file.withLock { () throws -> PreferencesError? in
                    do {
                        apply(try file.read())
                        return nil
                    } catch let again as PreferencesError where again.kind == .corruptFile {
                        return movedAside(again)
                    }
                }
                if let reported { throw reported }
            }
        }
    }

    /// Moves a corrupt file aside and forgets its values; returns the error to report.
    private func movedAside(_ problem: PreferencesError) -> PreferencesError {
        let reported = file.moveAside(problem)
        if reported.backupPath != nil { apply(.missing) }
        return reported
    }

    /// Takes a version of the file as the current one and reports what changed.
    private func apply(_ contents: FileContents) {
        state.withLock { state in
            let before = state.effective
            state.disk = contents.members
            state.fingerprint = contents.fingerprint
            state.pin = contents.pin
            state.isLoaded = true
            notify(differences(from: before, to: state.effective, origin: .otherProcess), in: &state)
        }
    }

    /// Refreshes, recording an error instead of throwing it.
    func refreshRecordingErrors() {
        do {
            try refresh()
        } catch {
            record(error)
        }
    }

    /// Records an error as the last error.
    func record(_ error: any Error) {
        let error =
            error as? PreferencesError
            ?? PreferencesError(.unreadableFile, path: file.path, reason: "\(error)", underlying: error)
        state.withLock { $0.lastError = error }
    }

    // MARK: Writing

    /// Applies writes in memory and reports them to observers; a save persists them.
    func write(_ writes: [String: PendingWrite]) {
        state.withLock { state in
            var changes: [PreferencesChange] = []
            for key in writes.keys.sorted() {
                guard var write = writes[key] else { continue }
                if case .set(let value) = write { write = .set(value.canonicalized) }
                let old = state.value(forKey: key)
                state.pending[key] = write
                if old != write.value {
                    changes.append(PreferencesChange(key: key, value: write.value, origin: .thisProcess))
                }
            }
            notify(changes, in: &state)
        }
    }

    /// Whether there are changes not saved yet.
    var hasPendingWrites: Bool {
        state.withLock { !$0.pending.isEmpty }
    }

    /// Saves the pending writes: under the file lock, reads the file as it is now, applies only
    /// the keys changed in this process, and replaces the file atomically. Other processes'
    /// changes to other keys survive, and are picked up.
    func flush() throws {
        try io.run {
            let pending = state.withLock { $0.pending }
            guard !pending.isEmpty else { return }
            try file.withLock {
                let current: FileContents
                do {
                    current = try file.read()
                } catch let error as PreferencesError where error.kind == .corruptFile {
                    throw movedAside(error)
                }
                var members = current.members
                for (key, write) in pending { members[key] = write.value }
                let saved: FileContents
                if members == current.members && (current.fingerprint != nil || members.isEmpty) {
                    saved = current
                } else {
                    saved = try file.write(members, replacing: current.fingerprint)
                }
                state.withLock { state in
                    let before = state.effective
                    for (key, write) in pending where state.pending[key] == write {
                        state.pending[key] = nil
                    }
                    state.disk = saved.members
                    state.fingerprint = saved.fingerprint
                    state.pin = saved.pin
                    state.isLoaded = true
                    notify(differences(from: before, to: state.effective, origin: .otherProcess), in: &state)
                }
            }
        }
    }

    /// Saves after `delay` unless a save is already scheduled; writes made meanwhile join it.
    func scheduleSave(after delay: Duration) {
        state.withLock { state in
            guard state.saveTask == nil else { return }
            state.saveTask = Task.detached(priority: .utility) { [weak self] in
                try? await Task.sleep(for: delay)
                self?.automaticSave()
            }
        }
    }

    private func automaticSave() {
        state.withLock { $0.saveTask = nil }
        do {
            try flush()
        } catch {
            record(error)
        }
    }

    // MARK: Observing

    /// Registers an observer. With `initial`, `initial` is called first, under the same lock,
    /// with the current values, so no change can fall between it and the observer's start.
    func addObserver(
        _ observer: PreferencesObserver, initial: ((_ snapshot: [String: JSONValue]) -> PreferencesError?)? = nil
    ) -> Int {
        refreshRecordingErrors()
        return state.withLock { state in
            if let initial, let error = initial(state.effective) { state.lastError = error }
            let id = state.nextObserverID
            state.nextObserverID += 1
            state.observers[id] = observer
            if state.pollTask == nil { state.pollTask = startPolling() }
            return id
        }
    }

    /// Removes an observer; polling stops with the last one.
    func removeObserver(_ id: Int) {
        state.withLock { state in
            state.observers[id] = nil
            if state.observers.isEmpty {
                state.pollTask?.cancel()
                state.pollTask = nil
            }
        }
    }

    /// Checks the file for other processes' changes at the shortest interval observers asked for.
    private func startPolling() -> Task<Void, Never> {
        Task.detached(priority: .utility) { [weak self] in
            while let interval = self?.state.withLock({ $0.observers.values.map(\.pollInterval).min() }) {
                try? await Task.sleep(for: interval)
                if Task.isCancelled { return }
                self?.refreshRecordingErrors()
            }
        }
    }

    /// Hands changes to the observers interested in them.
    private func notify(_ changes: [PreferencesChange], in state: inout State) {
        guard !changes.isEmpty, !state.observers.isEmpty else { return }
        var snapshot: [String: JSONValue]?
        for observer in state.observers.values {
            let relevant = observer.keys.map { keys in changes.filter { keys.contains($0.key) } } ?? changes
            guard !relevant.isEmpty else { continue }
            let error = observer.deliver(relevant) {
                if let snapshot { return snapshot }
                let values = state.effective
                snapshot = values
                return values
            }
            if let error { state.lastError = error }
        }
    }
}
