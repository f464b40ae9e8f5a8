import Foundation
import ModelKit
import ModelKitStore
import ModelKitTestSupport
import Testing

/// Collects the article example's prints (outside `ExampleOutput.capture` it prints as usual).
private func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
    ExampleOutput.print(items, separator: separator, terminator: terminator)
}

/// A sale: integers, doubles (exact binary fractions, so every order of summing gives the same
/// sum), optionals, dates, booleans.
@Model final class Sale {
    @Identifier var id: Int
    var region: String?
    var product: String
    var quantity: Int
    var price: Double
    var discount: Double?
    var soldAt: Date
    var returned: Bool
    @Transient var note = ""
}

/// Aggregates, groups and projections: the same results on every store, checked against the
/// same computation in Swift over the saved models.
@Suite struct StoreAggregateTests {
    /// Twenty sales, deterministic.
    static func makeSales() -> [Sale] {
        (1...20).map { index in
        Sale(
            id: index, region: [nil, "north", "south", "east"][index % 4], product: ["apple", "pear", "fig"][index % 3],
            quantity: index * 7 % 11, price: Double(index % 5) * 2.5 + 0.25, discount: index % 3 == 0 ? nil : Double(index) / 8,
            soldAt: Date(timeIntervalSince1970: Double(1_700_000_000 + index * 86_400 * (index % 2 == 0 ? 1 : -1))),
            returned: index % 6 == 0)
        }
    }

    func store(_ kind: StoreKind, in directory: TemporaryDirectory) async throws -> any ModelStore {
        let store = try kind.make(in: directory)
        try await store.save(Self.makeSales())
        return store
    }

    @Test(arguments: StoreKind.allCases)
    func aggregatesAgreeWithSwift(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try await store(kind, in: directory)
        let all = ModelQuery(Sale.self)
        let sales = Self.makeSales()
        let north = all.filter(\Sale.region == "north")
        let none = all.filter(\Sale.quantity > 100)

        try expectEqual(await store.fetchAggregate(all, .count), sales.count)
        try expectEqual(await store.fetchAggregate(north, .count), sales.filter { $0.region == "north" }.count)
        try expectEqual(await store.fetchAggregate(all, .count(distinct: \.region)), Set(sales.compactMap(\.region)).count)
        try expectEqual(await store.fetchAggregate(all, .count(distinct: \.product)), 3)
        try expectEqual(await store.fetchAggregate(all, .sum(\.quantity)), sales.map(\.quantity).reduce(0, +))
        try expectEqual(await store.fetchAggregate(all, .sum(\.price)), sales.map(\.price).reduce(0, +))
        try expectEqual(await store.fetchAggregate(all, .sum(\.discount)), sales.compactMap(\.discount).reduce(0, +))
        try expectEqual(await store.fetchAggregate(none, .sum(\.quantity)), 0)
        try expectEqual(await store.fetchAggregate(all, .min(\.quantity)), sales.map(\.quantity).min())
        try expectEqual(await store.fetchAggregate(all, .max(\.price)), sales.map(\.price).max())
        try expectEqual(await store.fetchAggregate(all, .min(\.soldAt)), sales.map(\.soldAt).min())
        try expectEqual(await store.fetchAggregate(all, .max(\.soldAt)), sales.map(\.soldAt).max())
        try expectEqual(await store.fetchAggregate(all, .min(\.product)), sales.map(\.product).min())
        try expectEqual(await store.fetchAggregate(all, .max(\.region)), sales.compactMap(\.region).max())
        try expectEqual(await store.fetchAggregate(all, .min(\.discount)), sales.compactMap(\.discount).min())
        try expectEqual(await store.fetchAggregate(all, .max(\.returned)), true)
        try expectEqual(await store.fetchAggregate(north, .min(\.returned)), sales.filter { $0.region == "north" }.allSatisfy(\.returned))
        try expectEqual(await store.fetchAggregate(none, .max(\.price)), nil)
        try expectEqual(
            await store.fetchAggregate(all, .average(\.quantity)), Double(sales.map(\.quantity).reduce(0, +)) / Double(sales.count))
        try expectEqual(await store.fetchAggregate(none, .average(\.price)), nil)
        // Over the rows the query's order and limit select.
        let top = all.order(by: \Sale.price, .descending).order(by: \Sale.id).limit(5, offset: 1)
        let topSales = sales.sorted { ($0.price, -$0.id) > ($1.price, -$1.id) }.dropFirst().prefix(5)
        try expectEqual(await store.fetchAggregate(top, .sum(\.quantity)), topSales.map(\.quantity).reduce(0, +))
        try expectEqual(await store.fetchAggregate(top, .count), 5)
    }

    @Test(arguments: StoreKind.allCases)
    func groupsAgreeWithSwift(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try await store(kind, in: directory)
        let sales = Self.makeSales()
        let all = ModelQuery(Sale.self)

        let perRegion = try await store.fetchGroups(all, by: \.region, aggregate: .count)
        let named: [String] = Set(sales.compactMap(\.region)).sorted()
        let regions: [String?] = [nil] + named.map { Optional($0) }
        expectEqual(perRegion.map(\.keys), regions)
        expectEqual(perRegion.map(\.value), regions.map { region in sales.filter { $0.region == region }.count })

        let quantities = try await store.fetchGroups(
            all.filter(\Sale.returned == false), by: \.product, \.region, aggregate: .sum(\.quantity))
        var expected: [String: Int] = [:]
        for sale in sales where !sale.returned { expected["\(sale.product)/\(sale.region ?? "-")", default: 0] += sale.quantity }
        expectEqual(quantities.map { "\($0.keys.0)/\($0.keys.1 ?? "-")" }, expected.keys.sorted { a, b in
            // Products in order, then regions with nil first.
            let (pa, ra) = (a.split(separator: "/")[0], a.split(separator: "/")[1])
            let (pb, rb) = (b.split(separator: "/")[0], b.split(separator: "/")[1])
            return pa != pb ? pa < pb : (ra == "-" ? rb != "-" : rb != "-" && ra < rb)
        })
        expectEqual(Dictionary(uniqueKeysWithValues: quantities.map { ("\($0.keys.0)/\($0.keys.1 ?? "-")", $0.value) }), expected)

        let newest = try await store.fetchGroups(all, by: \.product, aggregate: .max(\.soldAt))
        expectEqual(newest.map(\.keys), ["apple", "fig", "pear"])
        expectEqual(newest.map(\.value), ["apple", "fig", "pear"].map { product in sales.filter { $0.product == product }.map(\.soldAt).max() })
        try expectEqual(await store.fetchGroups(all.filter(\Sale.quantity > 100), by: \.product, aggregate: .count).count, 0)
    }

    @Test(arguments: StoreKind.allCases)
    func projectionsReadChosenProperties(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try await store(kind, in: directory)
        let sales = Self.makeSales()
        let query = ModelQuery(Sale.self).filter(\Sale.quantity >= 3).order(by: \Sale.price, .descending).order(by: \Sale.id)
        let rows = try await store.fetchAll(query, select: \.id, \.region, \.soldAt)
        let expected = sales.filter { $0.quantity >= 3 }.sorted { ($0.price, -$0.id) > ($1.price, -$1.id) }
        expectEqual(rows.map(\.0), expected.map(\.id))
        expectEqual(rows.map(\.1), expected.map(\.region))
        expectEqual(rows.map(\.2), expected.map(\.soldAt))
        let ids = try await store.fetchAll(query.limit(3, offset: 2), select: \.id)
        expectEqual(ids, Array(expected.map(\.id).dropFirst(2).prefix(3)))
    }

    @Test(arguments: StoreKind.allCases)
    func mistakesAreTypedErrors(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try await store(kind, in: directory)
        let transient = await #expect(throws: StoreError.self) {
            try await store.fetchAll(ModelQuery(Sale.self), select: \.id, \.note)
        }
        expectEqual(transient?.kind, .unknownKeyPath)
        #expect(transient?.description == "cannot query 'Sale': '\\Sale.note' is '@Transient', so it has no column", "\(String(describing: transient))")
        try await store.save(Sale(
            id: 99, region: nil, product: "x", quantity: Int.max, price: 0, discount: nil, soldAt: Date(), returned: false))
        let overflow = await #expect(throws: StoreError.self) { try await store.fetchAggregate(ModelQuery(Sale.self), .sum(\.quantity)) }
        expectEqual(overflow?.kind, .database)
        #expect(overflow?.description.contains("out of range") == true || overflow?.description.contains("overflow") == true, "\(String(describing: overflow))")
    }

    /// The store article's example.
    @Test func theArticlesExample() async throws {
        let directory = try TemporaryDirectory()
        let store = try await store(.sqliteFile, in: directory)
        let output = try await ExampleOutput.capture {
            // snippet: store-aggregates-start
            let sales = ModelQuery(Sale.self).filter(\Sale.returned == false)
            print(try await store.fetchAggregate(sales, .sum(\.quantity)))   // 85
            print(try await store.fetchAggregate(sales, .average(\.price)) ?? 0)   // 5.25
            print(try await store.fetchAggregate(sales, .count(distinct: \.region)))   // 3
            let perProduct = try await store.fetchGroups(sales, by: \.product, aggregate: .sum(\.quantity))
            print(perProduct.map { "\($0.keys): \($0.value)" })   // ["apple: 24", "fig: 33", "pear: 28"]
            let top = sales.order(by: \Sale.price, .descending).order(by: \Sale.id).limit(2)
            print(try await store.fetchAll(top, select: \.id, \.product).map { "\($0.0) \($0.1)" })   // ["4 pear", "9 apple"]
            // snippet: store-aggregates-end
        }
        #expect(
            output == DocumentationExamples.commentedOutput(of: try DocumentationExamples.snippet("store-aggregates", inFile: #filePath)),
            "printed:\n\(output.joined(separator: "\n"))")
    }
}
