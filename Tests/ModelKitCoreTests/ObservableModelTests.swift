import Foundation
import ModelKit
import ModelKitTestSupport
import Testing

@Model final class ObservedProfile {
    @Identifier var id: Int
    var name: String
    var tags: [String] = []
    @Transient var draft: String? = nil
}

@Model(observable: false) final class UnobservedProfile {
    @Identifier var id: Int
    var name: String
}

/// Counts the change notifications an observation gets.
final class NotificationCount: Sendable {
    private let count = Locked(0)
    var value: Int { count.withLock { $0 } }
    func add() { count.withLock { $0 += 1 } }
}

/// Tracks the properties `read` reads on `model` once (Observation's one-shot tracking).
func observe<T>(_ read: () -> T) -> NotificationCount {
    let count = NotificationCount()
    _ = withObservationTracking(read, onChange: { count.add() })
    return count
}

@Suite struct ObservableModelTests {
    @Test func readingATrackedPropertyRegistersItAndWritingItNotifies() {
        let profile = ObservedProfile(id: 1, name: "Ada")
        let name = observe { profile.name }
        profile.tags = ["x"]
        #expect(name.value == 0, "another property changed")
        profile.name = "Grace"
        expectEqual(name.value, 1)
        expectEqual(profile.name, "Grace")
    }

    @Test func writingAnEqualValueNotifiesNobody() {
        let profile = ObservedProfile(id: 1, name: "Ada")
        let name = observe { profile.name }
        profile.name = "Ada"
        expectEqual(name.value, 0)
        profile.name = "Ada!"
        expectEqual(name.value, 1)
    }

    @Test func inPlaceMutationAndTransientPropertiesNotifyToo() {
        let profile = ObservedProfile(id: 1, name: "Ada")
        let tags = observe { profile.tags }
        profile.tags.append("math")
        #expect(tags.value == 1 && profile.tags == ["math"])
        let draft = observe { profile.draft }
        profile.draft = "notes"
        expectEqual(draft.value, 1)
    }

    @Test func theRegistrarIsNoPropertyOfTheSchema() throws {
        expectEqual(ObservedProfile.modelSchema.properties.map(\.name), ["id", "name", "tags", "draft"])
        let json = try ObservedProfile(id: 1, name: "Ada").jsonObject(options: .default) as? [String: Any]
        #expect(json?.keys.sorted() == ["id", "name", "tags"])
        // Two instances with their own registrars are equal and hash alike.
        let first = ObservedProfile(id: 1, name: "Ada")
        let second = ObservedProfile(id: 1, name: "Ada")
        #expect(first == second && first.hashValue == second.hashValue)
        expectEqual(first.copy(), first)
    }

    @Test func mappingIntoALiveInstanceNotifiesOnlyWhatDiffers() throws {
        let context = ModelContext()
        let profile = try ObservedProfile(json: ["id": 1, "name": "Ada", "tags": ["a"]], context: context)
        let name = observe { profile.name }
        let tags = observe { profile.tags }
        _ = try ObservedProfile(json: ["id": 1, "name": "Ada", "tags": ["a", "b"]], context: context)
        expectEqual(name.value, 0)
        #expect(tags.value == 1 && profile.tags == ["a", "b"])
    }

    @Test func aPropertysChangesAreAnAsyncSequenceOfItsValues() async {
        let profile = ObservedProfile(id: 1, name: "Ada")
        var names = profile.changes(of: \.name).makeAsyncIterator()
        await expectEqual(names.next(), "Ada")
        profile.name = "Grace"
        await expectEqual(names.next(), "Grace")
        // Changes made before the consumer asks again are coalesced into the latest value.
        profile.name = "Hedy"
        profile.name = "Barbara"
        await expectEqual(names.next(), "Barbara")
        // Another property's changes are not this sequence's.
        profile.tags = ["x"]
        profile.name = "Radia"
        await expectEqual(names.next(), "Radia")
    }

    @Test func aClassCanOptOut() {
        let types: [any Model.Type] = [ObservedProfile.self, UnobservedProfile.self]
        expectEqual(types.map { $0 is any ObservableModel.Type }, [true, false])
        let plain = UnobservedProfile(id: 1, name: "Ada")
        plain.name = "Grace"
        expectEqual(plain.name, "Grace")
    }
}
