// snippet: archives-start
import Foundation
import ModelKit
// snippet: archives-end
import ModelKitTestSupport
import Testing

// The example the keyed archives article starts from (see `DocumentationArticleTests`): it runs
// here, and what it prints is checked against the comments it shows.

/// Collects the example's prints (outside `ExampleOutput.capture` it prints as usual).
private func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
    ExampleOutput.print(items, separator: separator, terminator: terminator)
}

// snippet: archives-start
@Model final class Board {
    var title: String
    var cards: [Card] = []
    @Transient var isOpen = false            // not archived

    init(title: String) { self.title = title }
}

@Model final class Card {
    var text: String
    weak var board: Board?                   // weak: archived only if the board is
    var related: [Card] = []                 // shared cards are written once

    init(text: String) { self.text = text }
}
// snippet: archives-end

@Suite struct ArchiveArticleExampleTests {
    @Test func archives() throws {
        let output = try ExampleOutput.capture {
            // snippet: archives-start
            let board = Board(title: "Launch")
            let design = Card(text: "design")
            let build = Card(text: "build")
            build.related = [design]
            board.cards = [design, build]
            for card in board.cards { card.board = board }

            let data = try KeyedArchiver.archivedData(withRootObject: board)   // binary, as NSKeyedArchiver writes
            let copy = try KeyedUnarchiver.unarchive(Board.self, from: data)
            print(copy.cards.map(\.text), copy.cards[1].related[0] === copy.cards[0])  // ["design", "build"] true
            print(copy.cards[0].board === copy)  // true

            let document = try KeyedArchiveDocument(data: data)                // any keyed archive, checked
            print(document.topKeys, document.objectCount)  // ["root"] 13
            print(document.archivedClass(of: 1)?.name ?? "-")  // Board
            // snippet: archives-end
            #expect(copy.title == "Launch" && !copy.isOpen)
        }
        #expect(output == DocumentationExamples.commentedOutput(of: try DocumentationExamples.snippet("archives", inFile: #filePath)), "printed:\n\(output.joined(separator: "\n"))")
    }
}
