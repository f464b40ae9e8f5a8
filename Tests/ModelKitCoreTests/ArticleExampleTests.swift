// snippet: mapping-start
// snippet: untrusted-input-start
// snippet: transformers-start
// snippet: errors-start
// snippet: identity-start
import Foundation
import ModelKit
// snippet: identity-end
// snippet: errors-end
// snippet: transformers-end
// snippet: untrusted-input-end
// snippet: mapping-end
import ModelKitTestSupport
import Testing

// The examples the articles on mapping, transformers, errors, identity and untrusted input start from (see
// `DocumentationArticleTests`): each runs here, and what it prints is checked against the
// comments it shows.

/// Collects the examples' prints (outside `ExampleOutput.capture` it prints as usual).
private func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
    ExampleOutput.print(items, separator: separator, terminator: terminator)
}

// snippet: mapping-start
@Model(keys: .snakeCase)
struct Book {
    var title: String
    @Key("author.name", "author_name") var author: String   // a nested path, then a fallback
    @Key("formats.0") var firstFormat: String?              // an array element
    var pageCount: Int = 0                                   // missing: the initial value
    @Transient var coverCache: Data? = nil                   // never mapped
}
// snippet: mapping-end

// snippet: transformers-start
enum ListingState: String, Sendable { case draft, live, unknown }

/// Reads an amount in cents as a decimal number of euros, and writes it back in cents.
struct CentsTransformer: ModelTransformer {
    var expectation: String { "an amount in cents" }
    func transformedValue(_ cents: Int) throws -> Decimal { Decimal(cents) / 100 }
    func reverseTransformedValue(_ amount: Decimal) throws -> Int { NSDecimalNumber(decimal: amount * 100).intValue }
}

@Model(keys: .snakeCase)
struct Listing {
    @Transform(.iso8601) var publishedAt: Date
    @Transform(.millisecondsSince1970) var updatedAt: Date
    @Transform(.rawValue(ListingState.self, default: .unknown)) var status: ListingState = .draft
    @Transform(.lenient(Int.self)) var stock: Int = 0
    @Transform(CentsTransformer()) var price: Decimal
}
// snippet: transformers-end

// snippet: errors-start
@Model(keys: .snakeCase)
struct Payment {
    var amount: Int
    var currency: String
    @Transform(.iso8601) var paidAt: Date

    static func validateCurrency(_ currency: String) throws {
        guard currency.count == 3 else { throw ModelError.invalid(expected: "a three-letter currency code") }
    }
}
// snippet: errors-end

// snippet: identity-start
@Model final class Member {
    @Identifier var id: Int
    var name: String
}

@Model final class Message {
    @Identifier var id: Int
    var text: String
    var author: Member
}
// snippet: identity-end

// snippet: untrusted-input-start
@Model struct SensorReading {
    var sensor: String
    var value: Double
}
// snippet: untrusted-input-end

@Suite struct ArticleExampleTests {
    @Test func mapping() throws {
        let output = try ExampleOutput.capture {
            // snippet: mapping-start
            let json = #"{"title": "Dune", "author": {"name": "Frank Herbert"}, "formats": ["paperback", "ebook"]}"#
            let book = try Book(jsonData: Data(json.utf8))
            print(book.author, book.firstFormat ?? "-", book.pageCount)  // Frank Herbert paperback 0
            print(Book.propertyKeys)  // ["title", "author", "firstFormat", "pageCount"]

            let older = try Book(json: ["title": "Emma", "author_name": "Jane Austen", "page_count": 474])
            print(older.author, older.pageCount)  // Jane Austen 474
            var options = MappingOptions()
            options.nilEncoding = .omit                                 // leave nil properties out
            print(String(decoding: try older.jsonData(options: options), as: UTF8.self))  // {"title":"Emma","author":{"name":"Jane Austen"},"page_count":474}
            // snippet: mapping-end
            #expect(book.title == "Dune" && book.coverCache == nil)
            #expect(older.firstFormat == nil)
        }
        #expect(output == DocumentationExamples.commentedOutput(of: try DocumentationExamples.snippet("mapping", inFile: #filePath)), "printed:\n\(output.joined(separator: "\n"))")
    }

    @Test func transformers() throws {
        let output = try ExampleOutput.capture {
            // snippet: transformers-start
            let json = """
                {"published_at": "2026-11-25T09:30:00Z", "updated_at": 1795599000000,
                 "status": "sold", "stock": "12", "price": 1999}
                """
            let listing = try Listing(jsonData: Data(json.utf8))
            print(listing.status, listing.stock, listing.price)  // unknown 12 19.99
            print(listing.updatedAt == listing.publishedAt)  // true

            var options = MappingOptions()
            options.sortsKeys = true
            print(String(decoding: try listing.jsonData(options: options), as: UTF8.self))  // {"price":1999,"published_at":"2026-11-25T09:30:00Z","status":"unknown","stock":12,"updated_at":1795599000000}
            // snippet: transformers-end
        }
        #expect(output == DocumentationExamples.commentedOutput(of: try DocumentationExamples.snippet("transformers", inFile: #filePath)), "printed:\n\(output.joined(separator: "\n"))")
    }

    @Test func errors() throws {
        let output = try ExampleOutput.capture {
            // snippet: errors-start
            let payload: [String: Any] = ["amount": "12", "currency": "EURO", "paid_at": "yesterday"]
            do {
                _ = try Payment(json: payload)
            } catch let error as ModelError {
                print(error)  // cannot map 'Payment.amount' at 'amount': expected an integer, found "12"
                print(error.kind, error.modelName ?? "-", error.propertyName ?? "-", error.path)  // typeMismatch Payment amount amount
            }

            var options = MappingOptions()
            options.collectsAllErrors = true
            do {
                _ = try Payment(json: payload, options: options)
            } catch let error as ModelError {
                print(error.kind, error.problems.count)  // multiple 3
                print(error.problems.map { $0.propertyName ?? "-" })  // ["amount", "currency", "paidAt"]
            }
            // snippet: errors-end
        }
        #expect(output == DocumentationExamples.commentedOutput(of: try DocumentationExamples.snippet("errors", inFile: #filePath)), "printed:\n\(output.joined(separator: "\n"))")
    }

    @Test func identity() throws {
        let output = try ExampleOutput.capture {
            // snippet: identity-start
            let context = ModelContext()
            let first = try Message(json: ["id": 1, "text": "hi", "author": ["id": 7, "name": "Ada"]], context: context)
            let second = try Message(json: ["id": 2, "text": "ho", "author": ["id": 7, "name": "Ada L."]], context: context)
            print(first.author === second.author, first.author.name)  // true Ada L.

            let again = try Message(json: ["id": 1, "text": "edited", "author": ["id": 7, "name": "Ada"]], context: context)
            print(again === first, first.text)  // true edited
            print(context.registeredModel(Member.self, id: 7)?.name ?? "-")  // Ada

            do {
                try context.performMapping {
                    _ = try Message(json: ["id": 1, "text": "lost", "author": ["id": 7, "name": "Bob"]], context: context)
                    _ = try Message(json: ["id": 3, "text": "bad"], context: context)   // no author: fails
                }
            } catch {
                print(error)  // cannot map 'Message.author' at 'author': missing key
            }
            print(first.text, first.author.name)  // edited Ada
            // snippet: identity-end
        }
        #expect(output == DocumentationExamples.commentedOutput(of: try DocumentationExamples.snippet("identity", inFile: #filePath)), "printed:\n\(output.joined(separator: "\n"))")
    }

    @Test func untrustedInput() throws {
        let output = try ExampleOutput.capture {
            // snippet: untrusted-input-start
            var options = MappingOptions()
            options.maxDocumentSize = 100                                    // bytes
            let one = #"[{"sensor": "t1", "value": 21.5}]"#
            print(try [SensorReading](jsonData: Data(one.utf8), options: options).count)  // 1
            let many = "[" + Array(repeating: #"{"sensor": "t1", "value": 21.5}"#, count: 10).joined(separator: ",") + "]"
            do {
                _ = try [SensorReading](jsonData: Data(many.utf8), options: options)
            } catch {
                print(error)  // cannot map value: invalid JSON at line 1, column 101 (byte 100): the document is larger than the limit 'maxDocumentSize' (100 bytes)
            }

            var limits = KeyedArchiveLimits.default
            limits.maxObjectCount = 100
            let archive = try KeyedArchiver.archivedData(withRootObject: (0..<200).map { "item \($0)" })
            do {
                _ = try KeyedUnarchiver(data: archive, limits: limits)
            } catch {
                print(error)  // cannot decode: object count exceeds the limit 'maxObjectCount' (100)
            }
            // snippet: untrusted-input-end
        }
        #expect(output == DocumentationExamples.commentedOutput(of: try DocumentationExamples.snippet("untrusted-input", inFile: #filePath)), "printed:\n\(output.joined(separator: "\n"))")
    }
}
