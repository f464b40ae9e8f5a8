import Observation

/// A `@Model` class whose properties are observable: reading one inside
/// `withObservationTracking` (or SwiftUI, or `Observations`) registers it, writing it notifies,
/// as with `@Observable`.
///
/// `@Model` makes every class conform (`@Model(observable: false)` opts out): each stored `var`
/// gets accessors that report to the class's registrar, and the registrar itself is no property
/// of the schema, so it is never mapped, compared, archived or stored. Writing a value equal to
/// the current one notifies nobody.
///
/// ```swift
/// @Model final class User {
///     @Identifier var id: Int
///     var name: String
/// }
/// let user = User(id: 1, name: "Ada")
/// withObservationTracking { _ = user.name } onChange: { print("name will change") }
/// user.name = "Grace"   // prints once
/// ```
public protocol ObservableModel: Model, AnyObject, Observable {
    /// The registrar the generated accessors report to; `@Model` declares it.
    var _modelKitRegistrar: ObservationRegistrar { get }
    /// The relationships the instance's store left to load on first access, if any
    /// (``ModelFaults``); `@Model` declares it.
    var _modelKitFaults: ModelFaults? { get set }
}

/// The registrar `@Model` gives each observable class (Observation's own).
public typealias ModelObservationRegistrar = ObservationRegistrar

extension ObservableModel {
    /// Registers a read of the property at `keyPath` (generated getters call it).
    // Inlinable: every generated getter of an observable property calls it, per read, in the user's module; inlined, it
    // is the registrar's `access` with no generic call in between.
    @inlinable
    public func _modelKitAccess<Member>(_ keyPath: KeyPath<Self, Member>) {
        _modelKitRegistrar.access(self, keyPath: keyPath)
    }

    /// Runs a write of the property at `keyPath`, notifying its observers (generated setters call it).
    // Inlinable: every generated setter calls it, per write; inlined, the setter's mutation closure is inlined too
    // instead of passed to a generic function here.
    @inlinable
    public func _modelKitMutate<Member, Result>(
        _ keyPath: KeyPath<Self, Member>, _ mutation: () throws -> Result
    ) rethrows -> Result {
        try _modelKitRegistrar.withMutation(of: self, keyPath: keyPath, mutation)
    }

    /// Announces an in-place modification of the property at `keyPath` (generated `_modify`).
    // Inlinable: the generated `_modify` accessor calls it before each in-place change; inlined like `_modelKitAccess`.
    @inlinable
    public func _modelKitWillModify<Member>(_ keyPath: KeyPath<Self, Member>) {
        _modelKitRegistrar.willSet(self, keyPath: keyPath)
    }

    /// Ends an in-place modification of the property at `keyPath` (generated `_modify`).
    // Inlinable: the generated `_modify` accessor calls it after each in-place change; inlined like `_modelKitAccess`.
    @inlinable
    public func _modelKitDidModify<Member>(_ keyPath: KeyPath<Self, Member>) {
        _modelKitRegistrar.didSet(self, keyPath: keyPath)
    }
}

// Whether a write changes a property, so observers hear only real changes (as `@Observable`
// decides): `==` for equatable values, identity for class instances, always otherwise.

/// Whether `newValue` differs from `oldValue`, by `==`.
// Inlinable: a generated setter calls one of these overloads on every write, chosen at compile time in the user's
// module; inlined, this one is the type's own `!=`.
@inlinable
public func modelValueChanges<T: Equatable>(_ oldValue: T, _ newValue: T) -> Bool {
    oldValue != newValue
}

/// Whether `newValue` is another instance than `oldValue`.
// Inlinable: as the overload above, per write of a class-typed property; inlined, one identity comparison.
@inlinable
public func modelValueChanges<T: AnyObject>(_ oldValue: T, _ newValue: T) -> Bool {
    oldValue !== newValue
}

/// Whether `newValue` is another instance than `oldValue`, for class instances that are also
/// equatable (`@Model` classes): identity decides, as for any reference.
// Inlinable: as the overloads above, per write of a `@Model` class reference; inlined, one identity comparison.
@inlinable
public func modelValueChanges<T: AnyObject & Equatable>(_ oldValue: T, _ newValue: T) -> Bool {
    oldValue !== newValue
}

/// Whether `newValue` differs from `oldValue`, for types without `==`: always.
// Inlinable: as the overloads above, per write of a property without `==`; inlined, the constant `true` leaves no
// check.
@inlinable
public func modelValueChanges<T>(_ oldValue: T, _ newValue: T) -> Bool {
    true
}
