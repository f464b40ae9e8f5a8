import Foundation
import ModelKitCore

// Conditions through relationships: `matching(_:)` through a to-one to a condition on the model it
// refers to (a subquery), and on a to-many, how many models it holds (`count`), whether it holds a
// model (`contains(_:)`), or one or only models that match a condition (`contains(where:)`,
// `allSatisfy(_:)`), through the inverse's column or the join table where the store keeps it.

extension KeyPath where Root: Model {
    /// The rows whose to-one reference leads to a model that `predicate` matches: one subquery
    /// in SQL, so conditions chain through several references.
    ///
    /// ```swift
    /// (\Comment.post).matching(\Post.title == "Notes")
    /// (\Comment.post).matching((\Post.author).matching(\Author.name == "Ada"))
    /// ```
    public func matching<Other: Model & AnyObject>(_ predicate: ModelPredicate<Other>) -> ModelPredicate<Root>
    where Value == Other? {
        related(predicate)
    }

    /// The predicate through the reference this key path names, to `Other`'s table.
    fileprivate func related<Other: Model & AnyObject>(_ predicate: ModelPredicate<Other>) -> ModelPredicate<Root> {
        ModelPredicate(self) { column in
            .related(column: column, try StoreTable.of(Other.self), try predicate.expression.get())
        }
    }
}

extension KeyPath where Root: Model, Value: RelationshipValue & Collection {
    /// How many models a to-many holds, to compare with a number: `(\Post.comments).count > 3`.
    public var count: ModelCount<Root> {
        ModelCount { comparison, count in
            ModelPredicate(self) { column in
                if let referrers = try self.referrers(column, where: nil) { return .referrers(referrers, comparison, Int64(count)) }
                return .count(column: column, comparison, Int64(count))
            }
        }
    }

    /// The rows whose to-many holds `model` (by identifier): the posts with a tag.
    ///
    /// ```swift
    /// ModelQuery(Post.self).filter((\Post.tags).contains(swift))
    /// ```
    public func contains(_ model: Value.Related) -> ModelPredicate<Root> {
        ModelPredicate(self) { column in
            guard let identifier = model.modelIdentifier else { throw StoreError.notIdentified(Value.Related.modelSchema) }
            let related = try StoreTable.of(Value.Related.self)
            let value = try related.identifierValue(identifier)
            let isModel = StoreExpression.compare(column: related.columns[related.identifierColumn].name, .equal, value)
            if let referrers = try self.referrers(column, where: isModel) { return .referrers(referrers, .greaterOrEqual, 1) }
            return .holds(column: column, value)
        }
    }

    /// The rows whose to-many holds a model that matches `predicate`: the posts with a comment by Ada.
    ///
    /// ```swift
    /// ModelQuery(Post.self).filter((\Post.comments).contains(where: \Comment.text == "First!"))
    /// ```
    ///
    /// For a to-many with an inverse (kept in the inverse's column or a join table); another
    /// throws ``StoreError/Kind/unknownKeyPath`` when the query runs.
    public func contains(where predicate: ModelPredicate<Value.Related>) -> ModelPredicate<Root> {
        ModelPredicate(self) { column in
            .referrers(try self.requiredReferrers(column, where: try predicate.expression.get()), .greaterOrEqual, 1)
        }
    }

    /// The rows whose to-many holds only models that match `predicate` (none at all included):
    /// the posts whose every comment is approved.
    ///
    /// ```swift
    /// ModelQuery(Post.self).filter((\Post.comments).allSatisfy(\Comment.isApproved == true))
    /// ```
    ///
    /// A model for which `predicate` cannot tell (it compares a nil value) does not satisfy it,
    /// as in Swift. For a to-many kept in its inverse's column, as ``contains(where:)``.
    public func allSatisfy(_ predicate: ModelPredicate<Value.Related>) -> ModelPredicate<Root> {
        ModelPredicate(self) { column in
            .referrers(try self.requiredReferrers(column, where: .isNotTrue(try predicate.expression.get())), .equal, 0)
        }
    }

    /// The referring rows of the to-many in `column`, when the store keeps it in its inverse's
    /// column (the related rows) or a join table (its rows, whose related model must meet
    /// `condition`); nil when the column holds its identifiers.
    fileprivate func referrers(_ column: String, where condition: StoreExpression?) throws -> StoreReferrers? {
        let table = try StoreTable.of(Root.self)
        guard let index = table.column(named: column) else { return nil }
        if let manyToMany = table.manyToMany(atColumn: index) {
            let join = try manyToMany.joinTable()
            let related = try manyToMany.relatedTable()
            return StoreReferrers(
                table: join, column: join.columns[manyToMany.ownerColumn].name,
                identifier: table.columns[table.identifierColumn].name,
                condition: condition.map { .related(column: join.columns[manyToMany.relatedColumn].name, related, $0) })
        }
        guard let toMany = table.toManyThroughInverse(atColumn: index) else { return nil }
        let related = try toMany.relatedTable()
        return StoreReferrers(
            table: related, column: related.columns[try toMany.inverseColumn(in: related)].name,
            identifier: table.columns[table.identifierColumn].name, condition: condition)
    }

    /// ``referrers(_:where:)``, or the error for a to-many that keeps its identifiers.
    fileprivate func requiredReferrers(_ column: String, where condition: StoreExpression) throws -> StoreReferrers {
        if let referrers = try referrers(column, where: condition) { return referrers }
        let name = "\(Root.modelSchema.modelName).\(column)"
        throw StoreError(
            .unknownKeyPath, table: Root.modelSchema.storeTableName,
            reason: "'\(name)' keeps the identifiers of its models, not an inverse's column: a condition on its models "
                + "needs a to-many with an inverse ('@Relationship(inverse:)')")
    }
}

/// The number of models a to-many relationship holds, compared with a number by `==`, `!=`,
/// `<`, `<=`, `>` and `>=` into a ``ModelPredicate``.
///
/// ```swift
/// ModelQuery(Post.self).filter((\Post.comments).count > 3)
/// ```
public struct ModelCount<Root: Model> {
    /// The predicate comparing the to-many's count with a number.
    let predicate: (StoreComparison, Int) -> ModelPredicate<Root>

    /// The rows whose to-many holds `count` models.
    public static func == (lhs: ModelCount, count: Int) -> ModelPredicate<Root> { lhs.predicate(.equal, count) }
    /// The rows whose to-many does not hold `count` models.
    public static func != (lhs: ModelCount, count: Int) -> ModelPredicate<Root> { lhs.predicate(.notEqual, count) }
    /// The rows whose to-many holds fewer than `count` models.
    public static func < (lhs: ModelCount, count: Int) -> ModelPredicate<Root> { lhs.predicate(.less, count) }
    /// The rows whose to-many holds at most `count` models.
    public static func <= (lhs: ModelCount, count: Int) -> ModelPredicate<Root> { lhs.predicate(.lessOrEqual, count) }
    /// The rows whose to-many holds more than `count` models.
    public static func > (lhs: ModelCount, count: Int) -> ModelPredicate<Root> { lhs.predicate(.greater, count) }
    /// The rows whose to-many holds at least `count` models.
    public static func >= (lhs: ModelCount, count: Int) -> ModelPredicate<Root> { lhs.predicate(.greaterOrEqual, count) }
}

extension KeyPath where Root: Model, Value: Model & AnyObject {
    /// The rows whose (non-optional) to-one reference leads to a model that `predicate` matches.
    public func matching(_ predicate: ModelPredicate<Value>) -> ModelPredicate<Root> {
        related(predicate)
    }
}
