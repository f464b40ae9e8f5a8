import Foundation
import ModelKit

// Two generated corpora beside the tweets and the users, for payload shapes those two miss:
// a number-heavy catalogue (integers, doubles, dictionaries keyed by numeric-id strings, arrays of
// small objects) and a deeply nested document (a tree 24 levels deep, mixed arrays at each
// level). Both come from the seeded generator, so every run maps the same bytes; each has its
// ModelKit models and the same fields as Codable structs for Foundation's coders.

// MARK: The catalogue

@Model(keys: .snakeCase)
struct CatalogueItem {
    var id: Int
    var sku: Int
    var price: Double
    var cost: Double
    var weight: Double
    var stock: Int
    var rating: Double
    var dimensions: [Double]
    /// Price by store identifier ("1017": 12.5).
    var prices: [String: Double]
    /// Units by warehouse identifier ("42": 7).
    var stockByWarehouse: [String: Int]
    var variants: [CatalogueVariant]
}

@Model struct CatalogueVariant {
    var id: Int
    var size: Int
    var stock: Int
    var price: Double
}

/// The catalogue document: its items, and the same items keyed by numeric-id strings.
@Model(keys: .snakeCase)
struct Catalogue {
    var generated: Int
    var items: [CatalogueItem]
    var itemsById: [String: CatalogueVariant]
}

struct CodableCatalogue: Codable {
    var generated: Int
    var items: [CodableCatalogueItem]
    var itemsById: [String: CodableCatalogueVariant]

    enum CodingKeys: String, CodingKey {
        case generated, items, itemsById = "items_by_id"
    }
}

struct CodableCatalogueItem: Codable {
    var id: Int
    var sku: Int
    var price: Double
    var cost: Double
    var weight: Double
    var stock: Int
    var rating: Double
    var dimensions: [Double]
    var prices: [String: Double]
    var stockByWarehouse: [String: Int]
    var variants: [CodableCatalogueVariant]

    enum CodingKeys: String, CodingKey {
        case id, sku, price, cost, weight, stock, rating, dimensions, prices
        case stockByWarehouse = "stock_by_warehouse", variants
    }
}

struct CodableCatalogueVariant: Codable {
    var id: Int
    var size: Int
    var stock: Int
    var price: Double
}

/// The catalogue as JSON text: `count` items (~5 MB for 10,000).
func catalogueJSON(count: Int = 10_000) -> Data {
    var random = SeededGenerator(state: 7)
    func cents(_ limit: UInt64) -> String { String(Double(random.next() % limit) / 100) }
    func fraction() -> String { String(Double(random.next() % 1_000_000) / 1_000_000) }
    var text = #"{"generated":1764115200,"items":["#
    var byId: [String] = []
    for id in 0..<count {
        if id > 0 { text += "," }
        let prices = (0..<Int(2 + random.next() % 5)).map { _ in "\"\(1000 + random.next() % 9000)\":\(cents(100_000))" }
        let stock = (0..<Int(1 + random.next() % 4)).map { _ in "\"\(random.next() % 100)\":\(random.next() % 500)" }
        let variants = (0..<Int(1 + random.next() % 4)).map { index in
            #"{"id":\#(id * 10 + index),"size":\#(30 + random.next() % 20),"stock":\#(random.next() % 200),"price":\#(cents(50_000))}"#
        }
        if id % 5 == 0 { byId.append("\"\(id * 10)\":\(variants[0])") }
        text += """
            {"id":\(id),"sku":\(100_000_000 + random.next() % 900_000_000),"price":\(cents(100_000)),\
            "cost":\(cents(60_000)),"weight":\(fraction()),"stock":\(random.next() % 10_000),\
            "rating":\(Double(random.next() % 500) / 100),"dimensions":[\(fraction()),\(fraction()),\(fraction())],\
            "prices":{\(prices.joined(separator: ","))},"stock_by_warehouse":{\(stock.joined(separator: ","))},\
            "variants":[\(variants.joined(separator: ","))]}
            """
    }
    text += #"],"items_by_id":{"# + byId.joined(separator: ",") + "}}"
    return Data(text.utf8)
}

// MARK: The nested document

/// A node of a tree nested 24 levels deep: scalars, mixed arrays and its children.
@Model struct NestedNode {
    var id: Int
    var kind: String
    var weight: Double
    var flags: [Bool]
    var values: [Double]
    var grid: [[Int]]
    var labels: [String]
    var children: [NestedNode]
}

struct CodableNestedNode: Codable {
    var id: Int
    var kind: String
    var weight: Double
    var flags: [Bool]
    var values: [Double]
    var grid: [[Int]]
    var labels: [String]
    var children: [CodableNestedNode]
}

/// The nested document as JSON text: a tree that branches in two for its first `branching`
/// levels and then runs in single chains down to `depth` levels (~3 MB for 24 and 10).
func nestedJSON(depth: Int = 24, branching: Int = 10) -> Data {
    var random = SeededGenerator(state: 11)
    var nextID = 0
    let kinds = ["section", "group", "item", "note", "table", "row", "cell"]
    func node(level: Int) -> String {
        nextID += 1
        let id = nextID
        let count = level >= depth ? 0 : level < branching ? 2 : 1
        let children = (0..<count).map { _ in node(level: level + 1) }
        let flags = (0..<Int(random.next() % 4)).map { _ in random.next() % 2 == 0 ? "true" : "false" }
        let values = (0..<Int(1 + random.next() % 4)).map { _ in String(Double(Int(random.next() % 2_000_000) - 1_000_000) / 1000) }
        let grid = (0..<Int(random.next() % 3)).map { _ in
            "[" + (0..<Int(1 + random.next() % 3)).map { _ in String(random.next() % 1000) }.joined(separator: ",") + "]"
        }
        let labels = (0..<Int(random.next() % 3)).map { _ in "\"\(kinds[Int(random.next() % 7)])-\(random.next() % 100)\"" }
        return """
            {"id":\(id),"kind":"\(kinds[level % kinds.count])","weight":\(Double(random.next() % 100_000) / 1000),\
            "flags":[\(flags.joined(separator: ","))],"values":[\(values.joined(separator: ","))],\
            "grid":[\(grid.joined(separator: ","))],"labels":[\(labels.joined(separator: ","))],\
            "children":[\(children.joined(separator: ","))]}
            """
    }
    return Data(node(level: 1).utf8)
}

extension NestedNode {
    /// How many nodes the tree holds, and how deep it goes.
    var shape: (nodes: Int, depth: Int) {
        children.reduce((1, 1)) { total, child in
            let shape = child.shape
            return (total.0 + shape.nodes, max(total.1, shape.depth + 1))
        }
    }
}
