import Foundation
import ModelKitTestSupport
import Testing

@Suite struct JSONCommandTests {
    @Test func validFilesPass() throws {
        let directory = try TemporaryDirectory()
        let twitter = try directory.file("twitter.json", contents: String(decoding: fixtureData("twitter.json"), as: UTF8.self))
        let small = try directory.file("small.json", contents: #"{"a": [1, 2.5e3, "x", null, true]}"#)
        let result = try ModelKitTool.run(["json", "check", twitter.path, small.path])
        expectEqual(result.status, 0)
        expectEqual(result.output, "\(twitter.path): valid JSON (631515 bytes)\n\(small.path): valid JSON (34 bytes)\n")
    }

    @Test func theFirstInvalidFileStopsWithItsPositionAndReason() throws {
        let directory = try TemporaryDirectory()
        let good = try directory.file("good.json", contents: "[]")
        let bad = try directory.file("bad.json", contents: "{\n  \"a\": [1, 2,]\n}")
        let never = try directory.file("never.json", contents: "[")
        let result = try ModelKitTool.run(["json", "check", good.path, bad.path, never.path])
        expectEqual(result.status, 1)
        expectEqual(result.output, "\(good.path): valid JSON (2 bytes)\n")
        #expect(
            result.errorOutput
                == "\(bad.path): invalid JSON at line 2, column 14 (byte 15): a trailing comma is not allowed before ']'\n")
    }

    @Test func unreadableFilesAndDepthLimits() throws {
        let directory = try TemporaryDirectory()
        let missing = try ModelKitTool.run(["json", "check", "/nonexistent/file.json"])
        #expect(missing.status == 1 && missing.errorOutput.hasPrefix("/nonexistent/file.json: cannot read the file"))
        let deep = try directory.file("deep.json", contents: String(repeating: "[", count: 5) + String(repeating: "]", count: 5))
        try expectEqual(ModelKitTool.run(["json", "check", "--max-depth", "5", deep.path]).status, 0)
        let shallow = try ModelKitTool.run(["json", "check", "--max-depth", "4", deep.path])
        #expect(shallow.status == 1 && shallow.errorOutput.contains("'maxDepth'"))
    }

    @Test func arraysAndNDJSONAreCheckedElementByElement() throws {
        let directory = try TemporaryDirectory()
        let array = try directory.file("array.json", contents: "[{\"a\": [1, \"],\"]}, 2,\n\"x\"]\n")
        let lines = try directory.file("events.ndjson", contents: "{\"a\": 1}\r\n\n[2, \"x\"]\n3\n")
        let plain = try directory.file("events.txt", contents: "{\"a\": 1}\n{\"b\": 2}\n")
        let result = try ModelKitTool.run(["json", "check", array.path, lines.path])
        #expect(result.status == 0 && result.errorOutput.isEmpty, "\(result.errorOutput)")
        expectEqual(result.output, "\(array.path): valid JSON (27 bytes)\n\(lines.path): valid NDJSON: 3 values, 22 bytes\n")
        // Two values are not one JSON document, unless the file is read as NDJSON.
        try expectEqual(ModelKitTool.run(["json", "check", plain.path]).status, 1)
        let flagged = try ModelKitTool.run(["json", "check", "--ndjson", plain.path])
        expectEqual(flagged.output, "\(plain.path): valid NDJSON: 2 values, 18 bytes\n")
    }

    @Test(arguments: [
        ("bad.json", "[1, {\"a\": tru}, 3]",
         "invalid element 1 at byte 4: invalid JSON at byte 10 (line 1, column 7 of the element): invalid literal, expected 'true'"),
        ("comma.json", "[1, 2 3]", "expected ',' or ']' after element 1, found '3' at byte 6"),
        ("open.json", "[1, [2, 3]", "unexpected end of input at byte 10, expected ',' or ']' after element 1"),
        ("after.json", "[1] [2]", "expected the end of input after the array's closing ']', found '[' at byte 4"),
        ("bad.ndjson", "1\n\n{\"a\" 1}\n", "invalid element 1 at byte 3: invalid JSON at byte 8 (line 1, column 6 of the element): expected ':' after an object key, found '1'"),
        ("deep.json", "[[[]], [[[]]]]", "invalid element 1 at byte 7: invalid JSON at byte 9 (line 1, column 3 of the element): nesting is deeper than the limit 'maxDepth' (3)"),
    ])
    func elementErrorsNameTheIndexAndOffset(name: String, contents: String, message: String) throws {
        let directory = try TemporaryDirectory()
        let file = try directory.file(name, contents: contents)
        let result = try ModelKitTool.run(["json", "check", "--max-depth", "3", file.path])
        expectEqual(result.status, 1)
        #expect(result.output.isEmpty)
        expectEqual(result.errorOutput, "\(file.path): \(message)\n")
    }
}

@Suite struct DemoCommandTests {
    @Test func demoMapsIntoAStoreThenLoadsItBack() throws {
        let directory = try TemporaryDirectory()
        let db = directory.path("demo.sqlite")

        let first = try ModelKitTool.run(["demo", "--db", db])
        #expect(first.status == 0, "\(first.errorOutput)")
        #expect(first.output.hasPrefix("mapped 100 statuses and 73 retweeted statuses by 115 users from 631515 bytes in "))
        #expect(first.output.contains("newest status: 2014-08-31T00:29:15Z"))
        #expect(first.output.contains("store: \(db) was empty\n"))
        #expect(first.output.contains("after mapping the payload: hasChanges true, 230 inserted, 0 changed, 0 deleted\n"))
        let saved = try #require(line(of: first.output, startingWith: "saved the context: "))
        #expect(saved.contains(" statuses and 115 users in \(db) in "))
        let statuses = try #require(Int(saved.split(separator: " ")[3]))
        #expect(statuses > 100)
        // Relationships: the inverses mapping kept, and a query through a reference.
        let relationships = [
            "relationships: the 115 users' 'tweets' (the inverse of 'Tweet.user', kept as the payload was mapped) hold \(statuses) statuses",
            "the status retweeted most in the payload has 58 retweets in 'retweets', the inverse of 'Tweet.retweetedStatus'",
            "statuses by users with over 1000 followers: 15 of \(statuses) (a query through 'Tweet.user')",
        ].joined(separator: "\n")
        #expect(first.output.contains(saved + "\n" + relationships + "\n"), "\(first.output)")
        #expect(FileManager.default.fileExists(atPath: db))
        // The edits: three statuses (text and favorites) and their three users (followers).
        let edits = "after editing the three most retweeted statuses: hasChanges true, 0 inserted, 6 changed, 0 deleted"
        #expect(first.output.contains(edits + "\n"))
        expectEqual(first.output.components(separatedBy: "): text, favoriteCount\n").count, 4)
        expectEqual(first.output.components(separatedBy: "): followersCount\n").count, 4)
        #expect(first.output.hasSuffix("saved the edits; hasChanges: false (run the demo again to load them back)\n"))

        // The second run finds the first run's models, and edits, in the file and loads them first.
        let second = try ModelKitTool.run(["demo", "--db", db])
        #expect(second.status == 0, "\(second.errorOutput)")
        #expect(second.output.hasPrefix("the last run's edits, loaded back:\n  status "))
        #expect(second.output.components(separatedBy: "favorite_count 1, @").count == 4, "\(second.output)")
        #expect(second.output.contains("\nmapped 100 statuses and 73 retweeted statuses by 115 users from 631515 bytes in "))
        let loaded = try #require(line(of: second.output, startingWith: "loaded "))
        #expect(loaded.hasPrefix("loaded \(statuses) statuses by 115 users from the store in "))
        #expect(loaded.hasSuffix(" ms (115 user instances)"))
        #expect(second.output.contains(" share one status and one user instance: true\n"))
        #expect(second.output.contains("mapping the payload updated the loaded instances in place: true\n"))
        // The payload holds the values before the edits: mapping it changes those six models back.
        #expect(second.output.contains("after mapping the payload: hasChanges true, 0 inserted, 6 changed, 0 deleted\n"))
        #expect(second.output.contains(edits + "\n"))
        #expect(line(of: second.output, startingWith: "saved the context: \(statuses) statuses and 115 users in \(db)") != nil)
        #expect(second.output.contains(relationships + "\n"), "loaded back, the inverses are the same")
    }

    #if !PostgreSQL
        /// Built without the PostgreSQL trait, a postgres:// URL is refused in one sentence.
        @Test func aPostgreSQLURLNeedsTheTrait() throws {
            let result = try ModelKitTool.run(["demo", "--db", "postgres://app:secret@127.0.0.1:5432/models"])
            expectEqual(result.status, 1)
            #expect(
                result.errorOutput
                    == "modelkit: 'postgres://app:***@127.0.0.1:5432/models' is a PostgreSQL database, and this modelkit "
                    + "was built without PostgreSQL: build it with 'swift build --traits PostgreSQL'\n")
        }
    #endif

    func line(of output: String, startingWith prefix: String) -> String? {
        output.split(separator: "\n").map(String.init).first { $0.hasPrefix(prefix) }
    }
}
