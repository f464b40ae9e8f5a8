import Foundation
import ModelKitCore

// Cycles of references load (a post and its comments that point back to it, a list whose last
// element points to its first): the identity map registers each model before the references
// that lead back to it are set.
//
// A row loaded for a reference is read with `defersCyclicReferences`: a reference to a model
// whose load is under way (an optional or weak, settable property of a class) reads as nil, and
// the row is noted. Once that row's model is registered it becomes a fixup, and when the
// outermost load ends (every model of the cycle registered) each fixup's row is read again into
// its live instance, where every reference now resolves to a registered instance. A reference
// that cannot wait (not optional, or a `let`) still fails with `.cyclicReference`: no instance
// can be made before the other.

/// A live instance whose row deferred a reference, and that row, to read into it again.
struct CycleFixup {
    let owner: any Model
    let table: StoreTable
    let row: [StoreValue]
}

extension RowLoader {
    /// Whether a reference to `target` `identifier`, read from the row `row`, closes a cycle
    /// through `context`: then the row is noted, and the reference reads as nil for now.
    func defersReference(
        to target: AnyModelType, identifier: StoreValue, from row: @autoclosure () -> [StoreValue], context: ModelContext
    ) -> Bool {
        guard !loadsInProgress.isEmpty, let table = try? StoreTable.of(target.type) else { return false }
        let load = LoadKey(context: ObjectIdentifier(context), table: table.name, identifier: identifier)
        guard loadsInProgress.contains(load) || deferredTargets.contains(load) else { return false }
        deferringRows.append(row())
        return true
    }

    /// The error for a reference back to `load`, which is under way, through a reference that
    /// cannot wait; first, when the loads after `load` are not all deferred to yet, they are, and
    /// the outermost load reads again: a reference into the cycle that can wait then closes it.
    func cycleThatCannotWait(to load: LoadKey, table: StoreTable) -> StoreError {
        let inCycle = loadStack.drop { $0 != load }.dropFirst()
        if !inCycle.allSatisfy({ deferredTargets.contains($0) }) {
            deferredTargets.formUnion(inCycle)
            retriesCycle = true
        }
        return StoreError(
            .cyclicReference, table: table.name, identifier: load.identifier.quotedDescription,
            reason: "its references lead back to it through properties that cannot wait (not optional, or a 'let')")
    }

    /// Turns the rows noted since `mark` (the read of `registered`'s row, and no nested read's,
    /// which took their own) into a fixup of `live`: the registered instance, unless the context
    /// held one already (its references are set).
    func noteDeferred<M: Model>(by live: M, registered model: M, table: StoreTable, since mark: Int) {
        if (live as AnyObject) === (model as AnyObject) {
            cycleFixups.append(CycleFixup(owner: live, table: table, row: deferringRows[mark]))
        }
        deferringRows.removeSubrange(mark...)
    }

    /// Reads each fixup's row into its instance again, now that the models its references lead
    /// to are registered; tracked instances keep that row as their baseline (loading is not an
    /// edit). A read may load more rows and defer again: repeated until none is left.
    func closeCycles(in context: ModelContext) throws {
        while !cycleFixups.isEmpty {
            let fixups = cycleFixups
            cycleFixups = []
            for fixup in fixups {
                func read() throws {
                    try RowEncoding.apply(fixup.row, to: fixup.owner, table: fixup.table, context: context, loader: self)
                }
                if let tracker = context.tracker as? ContextTracker {
                    try tracker.applying(fixup.owner, table: fixup.table, read)
                } else {
                    try read()
                }
            }
        }
        deferringRows = []
    }

    /// Drops what a failed read deferred: it registered nothing.
    func forgetCycles() {
        deferringRows = []
        cycleFixups = []
    }
}
