// snippet: constraints-start
import Foundation
import ModelKit
// snippet: constraints-end
import ModelKitTestSupport
import Testing

// The example the Constraints article starts from (see `DocumentationArticleTests`): it runs
// here, and what it prints is checked against the comments it shows.

/// Collects the example's prints (outside `ExampleOutput.capture` it prints as usual).
private func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
    ExampleOutput.print(items, separator: separator, terminator: terminator)
}

// snippet: constraints-start
@Model struct Review {
    @Validate(.range(1...5)) var rating: Int
    @Validate(.nonEmpty, .length(...280)) var text: String
    @Validate(.pattern(#"^[a-z0-9_]+$"#)) var author: String
    @Validate(.count(...5)) var tags: [String] = []
}
// snippet: constraints-end

// snippet: constraints-custom-start
extension ModelConstraint where Value == Int {
    static var even: Self {
        ModelConstraint(expected: "an even number") { $0.isMultiple(of: 2) }
    }
}

@Model struct Table {
    @Validate(.range(2...12), .even) var seats: Int
}
// snippet: constraints-custom-end

@Suite struct ConstraintArticleExampleTests {
    @Test func constraints() throws {
        let output = try ExampleOutput.capture {
            // snippet: constraints-start
            var options = MappingOptions()
            options.collectsAllErrors = true
            let payload = #"{"rating": 7, "text": "", "author": "Ada"}"#
            do {
                _ = try Review(jsonString: payload, options: options)
            } catch let error as ModelError {
                print(error.allProblems.count)  // 3
                print(error.allProblems[0])     // invalid 'Review.rating' at 'rating': expected a value in 1...5, found 7
                print(error.allProblems[2])     // invalid 'Review.author' at 'author': expected a string matching '^[a-z0-9_]+$', found "Ada"
            }

            var review = try Review(jsonString: #"{"rating": 5, "text": "Lovely", "author": "ada"}"#)
            review.rating = 0
            print((try? review.checkConstraints()) == nil)  // true

            let text = Review.jsonSchema["properties"]?["text"]
            print(try text?.jsonString() ?? "-")  // {"type":"string","minLength":1,"maxLength":280}
            // snippet: constraints-end
        }
        #expect(
            output == DocumentationExamples.commentedOutput(of: try DocumentationExamples.snippet("constraints", inFile: #filePath)),
            "printed:\n\(output.joined(separator: "\n"))")
    }

    @Test func constraintsOfYourOwn() throws {
        let output = ExampleOutput.capture {
            // snippet: constraints-custom-start
            do {
                _ = try Table(jsonString: #"{"seats": 7}"#)
            } catch {
                print(error)  // invalid 'Table.seats' at 'seats': expected an even number, found 7
            }
            // snippet: constraints-custom-end
        }
        #expect(
            output == DocumentationExamples.commentedOutput(of: try DocumentationExamples.snippet("constraints-custom", inFile: #filePath)),
            "printed:\n\(output.joined(separator: "\n"))")
    }
}
