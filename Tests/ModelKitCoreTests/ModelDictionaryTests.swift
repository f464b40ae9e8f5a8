import Foundation
import ModelKit
import ModelKitTestSupport
import Testing

@Suite struct ModelDictionaryTests {
    let date = Date(timeIntervalSince1970: 1_700_000_000)

    var postValues: [String: Any] {
        [
            "id": 7, "title": "Hello", "body": NSNull(), "authorName": "Ada", "publishedAt": date,
            "tags": ["a", "b"], "location": Point(x: 1, y: 2), "visibility": Visibility.hidden,
        ]
    }

    @Test func initFromPropertyKeysTakesPlainValuesAndDefaults() throws {
        let post = try Post(dictionary: postValues)
        #expect(post.id == 7 && post.title == "Hello" && post.body == nil && post.authorName == "Ada")
        #expect(post.publishedAt == date && post.tags == ["a", "b"] && post.location == Point(x: 1, y: 2))
        #expect(post.city == "unknown" && post.metaCount == 0 && post.visibility == .hidden)
    }

    @Test func dictionaryValueHoldsEveryPropertyWithNilAsNSNull() throws {
        let post = try Post(dictionary: postValues)
        let values = post.dictionaryValue
        expectEqual(Set(values.keys), Set(Post.propertyKeys))
        #expect(values["body"] is NSNull)
        #expect(values["firstMediaURL"] is NSNull)
        #expect(values["publishedAt"] as? Date == date)
        #expect(values["kind"] as? String == "post")
        #expect(values["cache"] == nil)
        try expectEqual(Post(dictionary: values), post)
    }

    @Test func nestedModelsComeAsInstancesOrAsDictionaries() throws {
        let tree = try Node(dictionary: [
            "name": "root", "children": [Node(name: "a"), ["name": "b", "children": [["name": "c"]]]],
        ])
        expectEqual(tree.children.map(\.name), ["a", "b"])
        #expect(tree.children[1].children.first?.name == "c")
    }

    @Test func subclassesReadInheritedProperties() throws {
        let circle = try Circle(dictionary: ["name": "c", "color": "red", "radius": 2.5])
        #expect(circle.name == "c" && circle.color == "red" && circle.radius == 2.5)
        #expect(circle.dictionaryValue["radius"] as? Double == 2.5)
    }

    @Test func nullOnANonOptionalPropertyIsAnError() {
        var values = postValues
        values["title"] = NSNull()
        let error = modelError { _ = try Post(dictionary: values) }
        #expect(error?.kind == .nullValue)
        #expect(error?.description == "cannot map 'Post.title' at 'title': expected a string, found null")
    }

    @Test func valuesOfTheWrongTypeAreErrors() {
        var values = postValues
        values["publishedAt"] = "2024-01-01T00:00:00Z"
        let error = modelError { _ = try Post(dictionary: values) }
        #expect(error?.kind == .typeMismatch)
        #expect(error?.description == "cannot map 'Post.publishedAt' at 'publishedAt': expected a date, found \"2024-01-01T00:00:00Z\"")
    }

    @Test func unknownKeysAreErrorsAndReadOnlyOnesAreSkipped() {
        var values = postValues
        values["titel"] = "typo"
        let error = modelError { _ = try Post(dictionary: values) }
        #expect(error?.kind == .unknownKey)
        #expect(error?.description == "cannot set 'Post.titel': no such property")
        values["titel"] = nil
        values["kind"] = "ignored"
        #expect((try? Post(dictionary: values))?.kind == "post")
    }

    @Test func validationMethodsRun() {
        var values = postValues
        values["title"] = ""
        let error = modelError { _ = try Post(dictionary: values) }
        #expect(error?.kind == .invalidValue)
        #expect(error?.description == "cannot map 'Post.title' at 'title': expected a non-empty title, found \"\"")
    }

    @Test func wholeModelValidationRuns() {
        let error = modelError { _ = try Account(dictionary: ["owner": "a", "balance": Decimal(-1)]) }
        #expect(error?.kind == .invalidModel)
        #expect(error?.description == "invalid 'Account': expected a balance of at least 0")
        #expect((try? Account(dictionary: ["owner": "a", "balance": Decimal(5)]))?.balance == 5)
    }

    @Test func numbersAreCheckedExactly() {
        #expect(modelError { _ = try Item(dictionary: ["name": "a", "quantity": true]) }?.kind == .typeMismatch)
        #expect(modelError { _ = try Item(dictionary: ["name": "a", "quantity": 1.5]) }?.kind == .typeMismatch)
        #expect((try? Item(dictionary: ["name": "a", "quantity": 2.0]))?.quantity == 2)
        #expect((try? Item(dictionary: ["name": "a", "quantity": NSNumber(value: 3)]))?.quantity == 3)
        let error = modelError { _ = try Event(dictionary: ["at": Date(), "small": 300]) }
        #expect(error?.description == "cannot map 'Event.small' at 'small': expected a number that fits 'Int8', found 300")
    }
}
