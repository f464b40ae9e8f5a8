import Foundation
import MacroTesting
import ModelKitTestSupport
import Testing

/// `@Relationship(deleteRule:inverse:)`: the schema records the rule and the inverse's name, and
/// what cannot work is an error on the user's line, from the macro where the declaration shows it
/// and from the type checker where only types do.
@Suite(.macros(ModelKitMacros.specs(tracking: false)))
struct RelationshipMacroTests {
    @Test func aRelationshipBecomesACheckedCallTheSchemaRecords() {
        let (expanded, diagnostics) = ModelKitMacros.expand(
            """
            @Model
            final class Post {
                @Identifier var id: Int
                @Relationship(deleteRule: .cascade, inverse: \\Comment.post) var comments: [Comment] = []
                @Relationship(inverse: \\Tag.posts) var tags: [Tag] = []
                @Relationship(deleteRule: .deny) var author: Author?
            }
            """)
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        for line in [
            #"static let __modelKitRelationship_comments: ModelKitCore.ModelRelationship = ModelKitCore.modelRelationship(\Post.comments, deleteRule: .cascade, inverse: \Comment.post, named: "post")"#,
            #"static let __modelKitRelationship_tags: ModelKitCore.ModelRelationship = ModelKitCore.modelRelationship(nullifying: \Post.tags, inverse: \Tag.posts, named: "posts")"#,
            #"static let __modelKitRelationship_author: ModelKitCore.ModelRelationship = ModelKitCore.modelRelationship(\Post.author, deleteRule: .deny)"#,
            #"flags: [.hasDefault], defaultExpression: "[]", relationship: Post.__modelKitRelationship_comments)"#,
            #"flags: [.optional], relationship: Post.__modelKitRelationship_author)"#,
        ] {
            #expect(expanded.contains(line), "\(line)\n\(expanded)")
        }
    }

    /// `representation: .identifiers` is recorded in the schema, and the property is written
    /// through the writer's `encodeIdentifiers`, which only a relationship's type compiles with.
    @Test func aRelationshipWrittenAsIdentifiers() {
        let (expanded, diagnostics) = ModelKitMacros.expand(
            """
            @Model
            final class Post {
                @Identifier var id: Int
                @Relationship(inverse: \\Tag.posts, representation: .identifiers) var tags: [Tag] = []
                var title: String = ""
            }
            """)
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        for line in [
            #"ModelKitCore.modelRelationship(nullifying: \Post.tags, inverse: \Tag.posts, named: "posts").representing(.identifiers)"#,
            "try writer.encodeIdentifiers(self._tags)",
            "try writer.encodeValue(self._title)",
        ] {
            #expect(expanded.contains(line), "\(line)\n\(expanded)")
        }
    }

    /// A tracked property whose type may be a relationship keeps its inverse after each write,
    /// and initializers assign storage (no setter runs before the instance is whole).
    @Test func aPossibleRelationshipKeepsItsInverseAfterEachWrite() {
        let (expanded, diagnostics) = ModelKitMacros.expand(
            """
            @Model
            final class Comment {
                @Identifier var id: Int
                var text: String = ""
                var post: Post?
                var replies: [Comment] = []
            }
            """)
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        #expect(expanded.contains("ModelKitCore.modelInverseChanged(self, \\.post, from: oldValue, to: _post)"), "\(expanded)")
        #expect(!expanded.contains("modelInverseChanged(self, \\.text"), "a String is no relationship")
        #expect(expanded.contains("ModelKitCore.modelInverseInitialized(self, \\.post, self.post)"), "\(expanded)")
        // Its accessors first load what the store left for first access (a to-many's overload does).
        expectEqual(expanded.components(separatedBy: "_modelKitFault(\\.post)").count - 1, 3, "get, set and _modify")
        #expect(!expanded.contains("_modelKitFault(\\.text)"), "a String is no relationship")
        #expect(expanded.contains("self._text = text") && expanded.contains("self._post = post"), "\(expanded)")
        // The other side of an inverse writes them through a generated writer, by schema index,
        // not through a key path; a subclass (swiftc asks it only for the conformance its parent
        // lacks) inherits its parent's.
        let writer = #"""
                func _modelKitEditRelationship(_ index: Int, adding: Bool, _ object: AnyObject) -> Bool {
                    switch index {
                    case 2:
                        return ModelKitCore.modelEditRelationship(self.post, adding: adding, object) { self.post = $0 }
                    case 3:
                        return ModelKitCore.modelEditRelationship(self.replies, adding: adding, object) { self.replies = $0 }
                    default:
                        return false
                    }
                }
            """#
        #expect(expanded.contains(writer), "\(expanded)")
        // A store filling a to-many sets it through another, which takes the related models as
        // references; a to-one is no case of it.
        let setter = #"""
                func _modelKitSetRelationship(_ index: Int, to objects: [AnyObject]) -> Bool {
                    switch index {
                    case 3:
                        return ModelKitCore.modelSetRelationship(objects, as: [Comment].self) { self.replies = $0 }
                    default:
                        return false
                    }
                }
            """#
        #expect(expanded.contains(setter), "\(expanded)")
        let subclass = ModelKitMacros.expand(
            """
            @Model
            final class Reply: Comment {
                var quoted: Comment?
            }
            """, specs: ModelKitMacros.specs(conformances: ["ObservableModel"], tracking: false)
        ).source
        #expect(!subclass.contains("_modelKitEditRelationship"), "\(subclass)")
    }

    /// What the declaration shows cannot work, each with the message a user acts on.
    @Test(arguments: [
        (
            "@Relationship(inverse: \\Tag.post) var comments: [Comment] = []",
            #"'\Tag.post' cannot be the inverse of 'comments': the inverse is a property of 'Comment', the model 'comments' refers to"#
        ),
        (
            "@Relationship(inverse: \\Comment.post.author) var comments: [Comment] = []",
            #"'\Comment.post.author' cannot be the inverse of 'comments': write the related model's property that refers back, as '\Model.property'"#
        ),
        (
            "@Relationship(deleteRule: .remove) var comments: [Comment] = []",
            "'.remove' is not a delete rule: write '.nullify', '.cascade', '.deny' or '.noAction'"
        ),
        (
            "@Relationship(representation: .ids) var comments: [Comment] = []",
            "'.ids' is not a relationship representation: write '.nested' or '.identifiers'"
        ),
        (
            "@Relationship @Transient var comments: [Comment] = []",
            "'comments' cannot be both '@Relationship' and '@Transient'"
        ),
    ])
    func whatTheDeclarationShowsCannotWorkIsAnError(declaration: String, message: String) {
        let (_, diagnostics) = ModelKitMacros.expand(
            """
            @Model
            final class Post {
                @Identifier var id: Int
                \(declaration)
            }
            """)
        #expect(diagnostics == [message])
    }

    /// What only types tell, compiled for real: an inverse that does not refer back, a
    /// non-optional inverse of a relationship that nullifies, a relationship to what is not a
    /// class model. Each is one error on the property's line saying what would work; the
    /// declarations that can work beside them compile.
    @Test func whatOnlyTypesTellIsAnErrorOnTheUsersLine() throws {
        let output = try TypeCheckDiagnosticsTests.typeCheck(
            #"""
            import ModelKit

            @Model final class Author {
                @Identifier var id: Int
                @Relationship(deleteRule: .cascade, inverse: \Post.author) var posts: [Post] = []
                @Relationship(inverse: \Post.editor) var edited: [Post] = []
                @Relationship(inverse: \Post.reviewer) var reviewed: [Post] = []
                @Relationship var names: [String] = []
            }

            @Model final class Post {
                @Identifier var id: Int
                var author: Author
                var editor: Author
                var reviewer: Author?
                @Relationship(inverse: \Comment.post) var comments: [Comment] = []
                init(id: Int, author: Author) { self.id = id; self.author = author; self.editor = author }
            }

            @Model final class Comment {
                @Identifier var id: Int
                var post: Author?
            }
            """#)
        let errors = TypeCheckDiagnosticsTests.errors(in: output)
        let nullifies = "a relationship that nullifies cannot have a non-optional inverse: deleting the model would set it to nil"
        let kinds = "'@Relationship' applies to a property of an identified class model whose type is another such model"
        #expect(errors.contains { $0.hasPrefix("place.swift:6: error:") && $0.contains(nullifies) }, "\(output)")
        #expect(errors.contains { $0.hasPrefix("place.swift:8: error:") && $0.contains(kinds) }, "\(output)")
        #expect(errors.contains { $0.hasPrefix("place.swift:16: error:") && $0.contains(kinds) }, "\(output)")
        #expect(Set(errors.map { $0.prefix(while: { $0 != " " }) }) == ["place.swift:6:", "place.swift:8:", "place.swift:16:"], "\(output)")
        #expect(!output.contains("no exact matches"), "\(output)")
    }

    /// The fix-its: a relationship in a struct goes, an inverse on another model moves to the
    /// related one.
    @Test func theFixItsRemoveOrRetargetTheDeclaration() {
        let inStruct = ModelKitMacros.fixIts(
            """
            @Model
            struct Post {
                @Identifier var id: Int
                @Relationship var author: Author?
            }
            """)
        #expect(inStruct.map(\.message) == ["remove '@Relationship'"])
        let inStructMessage = ModelKitMacros.expand(
            """
            @Model
            struct Post {
                @Identifier var id: Int
                @Relationship var author: Author?
            }
            """).diagnostics
        #expect(
            inStructMessage == [
                "'@Relationship' applies to properties of class models: 'Post' is a struct, so 'author' has no inverse to keep and no live instance to follow a delete; make 'Post' a class"
            ])
        #expect(inStruct.first?.replacements == ["var author: Author?"], "\(inStruct)")
        let retargeted = ModelKitMacros.fixIts(
            """
            @Model
            final class Post {
                @Identifier var id: Int
                @Relationship(inverse: \\Tag.post) var comments: [Comment] = []
            }
            """)
        #expect(retargeted.map(\.message) == ["use a property of 'Comment'"])
        #expect(retargeted.first?.replacements == [#"\Comment.post"#])
    }
}
