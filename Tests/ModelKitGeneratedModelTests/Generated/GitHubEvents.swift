// `modelkit generate --root GitHubEvent` output for Tests/ModelKitTestSupport/Fixtures/github_events.json,
// checked in so that it compiles with the tests (GeneratedGitHubEventModelTests compares it with the
// output and maps the payload with it). Regenerate with:
// swift run modelkit generate --root GitHubEvent Tests/ModelKitTestSupport/Fixtures/github_events.json
// and put this header back on top.

import Foundation
import ModelKit

/// The elements of the payload's top-level array, told apart by their 'type'.
@Model(tag: "type")
enum GitHubEvent: Hashable {
    @Key("PushEvent") case pushEvent(PushEvent)
    @Key("CreateEvent") case createEvent(CreateEvent)
    @Key("ForkEvent") case forkEvent(ForkEvent)
    @Key("WatchEvent") case watchEvent(WatchEvent)
    @Key("IssueCommentEvent") case issueCommentEvent(IssueCommentEvent)
    @Key("IssuesEvent") case issuesEvent(IssuesEvent)
    @Key("GollumEvent") case gollumEvent(GollumEvent)
    @UnknownCase case other(JSONValue)
}

/// The elements of the payload's top-level array whose 'type' is 'PushEvent'.
@Model(keys: .snakeCase)
struct PushEvent {
    @Transform(.iso8601) var createdAt: Date
    var actor: ActorObject
    var repo: Repo
    @Key("public") var publicValue: Bool
    var payload: PushEventPayload
    var id: String
    var org: Org?
}

/// The objects at '[].actor'.
@Model(keys: .snakeCase)
struct ActorObject {
    var gravatarId: String
    var login: String
    var avatarUrl: String
    var url: String
    var id: Int
}

/// The objects at '[].repo'.
@Model
struct Repo {
    var url: String
    var id: Int
    var name: String
}

/// The objects at '[type=PushEvent].payload'.
@Model(keys: .snakeCase)
struct PushEventPayload {
    var commits: [Commit]
    var distinctSize: Int
    var ref: String
    var pushId: Int
    var head: String
    var before: String
    var size: Int
}

/// The objects at '[type=PushEvent].payload.commits[]'.
@Model
struct Commit {
    var url: String
    var message: String
    var distinct: Bool
    var sha: String
    var author: Author
}

/// The objects at '[type=PushEvent].payload.commits[].author'.
@Model
struct Author {
    var email: String
    var name: String
}

/// The objects at '[].org'.
@Model(keys: .snakeCase)
struct Org {
    var gravatarId: String
    var login: String
    var avatarUrl: String
    var url: String
    var id: Int
}

/// The elements of the payload's top-level array whose 'type' is 'CreateEvent'.
@Model(keys: .snakeCase)
struct CreateEvent {
    @Transform(.iso8601) var createdAt: Date
    var actor: ActorObject
    var repo: Repo
    @Key("public") var publicValue: Bool
    var payload: CreateEventPayload
    var id: String
}

/// The objects at '[type=CreateEvent].payload'.
@Model(keys: .snakeCase)
struct CreateEventPayload {
    @Key("description") var descriptionText: String
    var masterBranch: String
    var ref: String?
    var refType: String
}

/// The elements of the payload's top-level array whose 'type' is 'ForkEvent'.
@Model(keys: .snakeCase)
struct ForkEvent {
    @Transform(.iso8601) var createdAt: Date
    var actor: ActorObject
    var repo: Repo
    @Key("public") var publicValue: Bool
    var payload: ForkEventPayload
    var id: String
    var org: Org?
}

/// The objects at '[type=ForkEvent].payload'.
@Model
struct ForkEventPayload {
    var forkee: Forkee
}

/// The objects at '[type=ForkEvent].payload.forkee'.
@Model(keys: .snakeCase)
struct Forkee {
    @Key("description") var descriptionText: String
    var fork: Bool
    var url: String
    var language: String
    var stargazersUrl: String
    var cloneUrl: String
    var tagsUrl: String
    var fullName: String
    var mergesUrl: String
    var forks: Int
    @Key("private") var privateValue: Bool
    var gitRefsUrl: String
    var archiveUrl: String
    var collaboratorsUrl: String
    var owner: Owner
    var languagesUrl: String
    var treesUrl: String
    var labelsUrl: String
    var htmlUrl: String
    @Transform(.iso8601) var pushedAt: Date
    @Transform(.iso8601) var createdAt: Date
    var hasIssues: Bool
    var forksUrl: String
    var branchesUrl: String
    var commitsUrl: String
    var notificationsUrl: String
    var openIssues: Int
    var contentsUrl: String
    var blobsUrl: String
    var issuesUrl: String
    var compareUrl: String
    var issueEventsUrl: String
    var name: String
    @Transform(.iso8601) var updatedAt: Date
    var statusesUrl: String
    var forksCount: Int
    var assigneesUrl: String
    var sshUrl: String
    @Key("public") var publicValue: Bool
    var hasWiki: Bool
    var subscribersUrl: String
    var mirrorUrl: JSONValue?
    var watchersCount: Int
    var id: Int
    var hasDownloads: Bool
    var gitCommitsUrl: String
    var downloadsUrl: String
    var pullsUrl: String
    var homepage: String?
    var issueCommentUrl: String
    var hooksUrl: String
    var subscriptionUrl: String
    var milestonesUrl: String
    var svnUrl: String
    var eventsUrl: String
    var gitTagsUrl: String
    var teamsUrl: String
    var commentsUrl: String
    var openIssuesCount: Int
    var keysUrl: String
    var gitUrl: String
    var contributorsUrl: String
    var size: Int
    var watchers: Int
}

/// The objects at '[type=ForkEvent].payload.forkee.owner'.
@Model(keys: .snakeCase)
struct Owner {
    var url: String
    var gistsUrl: String
    var gravatarId: String
    var type: String
    var avatarUrl: String
    var subscriptionsUrl: String
    var organizationsUrl: String
    var receivedEventsUrl: String
    var reposUrl: String
    var login: String
    var id: Int
    var starredUrl: String
    var eventsUrl: String
    var followersUrl: String
    var followingUrl: String
}

/// The elements of the payload's top-level array whose 'type' is 'WatchEvent'.
@Model(keys: .snakeCase)
struct WatchEvent {
    @Transform(.iso8601) var createdAt: Date
    var actor: ActorObject
    var repo: Repo
    @Key("public") var publicValue: Bool
    var payload: WatchEventPayload
    var id: String
    var org: Org?
}

/// The objects at '[type=WatchEvent].payload'.
@Model
struct WatchEventPayload {
    var action: String
}

/// The elements of the payload's top-level array whose 'type' is 'IssueCommentEvent'.
@Model(keys: .snakeCase)
struct IssueCommentEvent {
    @Transform(.iso8601) var createdAt: Date
    var actor: ActorObject
    var repo: Repo
    @Key("public") var publicValue: Bool
    var payload: IssueCommentEventPayload
    var id: String
    var org: Org?
}

/// The objects at '[type=IssueCommentEvent].payload'.
@Model
struct IssueCommentEventPayload {
    var issue: Issue
    var action: String
    var comment: Comment
}

/// The objects at '[type=IssueCommentEvent].payload.issue' and '[type=IssuesEvent].payload.issue'.
@Model(keys: .snakeCase)
struct Issue {
    var user: User
    var url: String
    var labels: [JSONValue]
    var htmlUrl: String
    var labelsUrl: String
    var pullRequest: PullRequest
    @Transform(.iso8601) var createdAt: Date
    @Transform(.iso8601) var closedAt: Date?
    var milestone: JSONValue?
    var title: String
    var body: String
    @Transform(.iso8601) var updatedAt: Date
    var number: Int
    var state: String
    var assignee: Assignee?
    var id: Int
    var eventsUrl: String
    var commentsUrl: String
    var comments: Int
}

/// The objects at '[type=IssueCommentEvent].payload.issue.user', '[type=IssueCommentEvent].payload.comment.user' and '[type=IssuesEvent].payload.issue.user'.
@Model(keys: .snakeCase)
struct User {
    var url: String
    var gistsUrl: String
    var gravatarId: String
    var type: String
    var avatarUrl: String
    var subscriptionsUrl: String
    var receivedEventsUrl: String
    var organizationsUrl: String
    var reposUrl: String
    var login: String
    var id: Int
    var starredUrl: String
    var eventsUrl: String
    var followersUrl: String
    var followingUrl: String
}

/// The objects at '[type=IssueCommentEvent].payload.issue.pull_request' and '[type=IssuesEvent].payload.issue.pull_request'.
@Model(keys: .snakeCase)
struct PullRequest {
    var htmlUrl: JSONValue?
    var patchUrl: JSONValue?
    var diffUrl: JSONValue?
}

/// The objects at '[type=IssuesEvent].payload.issue.assignee'.
@Model(keys: .snakeCase)
struct Assignee {
    var url: String
    var gistsUrl: String
    var gravatarId: String
    var type: String
    var avatarUrl: String
    var subscriptionsUrl: String
    var organizationsUrl: String
    var receivedEventsUrl: String
    var reposUrl: String
    var login: String
    var id: Int
    var starredUrl: String
    var eventsUrl: String
    var followersUrl: String
    var followingUrl: String
}

/// The objects at '[type=IssueCommentEvent].payload.comment'.
@Model(keys: .snakeCase)
struct Comment {
    var user: User
    var url: String
    var issueUrl: String
    @Transform(.iso8601) var createdAt: Date
    var body: String
    @Transform(.iso8601) var updatedAt: Date
    var id: Int
}

/// The elements of the payload's top-level array whose 'type' is 'IssuesEvent'.
@Model(keys: .snakeCase)
struct IssuesEvent {
    @Transform(.iso8601) var createdAt: Date
    var actor: ActorObject
    var repo: Repo
    @Key("public") var publicValue: Bool
    var payload: IssuesEventPayload
    var id: String
}

/// The objects at '[type=IssuesEvent].payload'.
@Model
struct IssuesEventPayload {
    var issue: Issue
    var action: String
}

/// The elements of the payload's top-level array whose 'type' is 'GollumEvent'.
@Model(keys: .snakeCase)
struct GollumEvent {
    @Transform(.iso8601) var createdAt: Date
    var actor: ActorObject
    var repo: Repo
    @Key("public") var publicValue: Bool
    var payload: GollumEventPayload
    var id: String
}

/// The objects at '[type=GollumEvent].payload'.
@Model
struct GollumEventPayload {
    var pages: [Page]
}

/// The objects at '[type=GollumEvent].payload.pages[]'.
@Model(keys: .snakeCase)
struct Page {
    var pageName: String
    var htmlUrl: String
    var title: String
    var sha: String
    var summary: JSONValue?
    var action: String
}
