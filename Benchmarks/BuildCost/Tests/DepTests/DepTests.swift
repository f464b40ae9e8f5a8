import DepLib
import Testing

@Test func selectsOne() throws {
    #expect(try selectOne() == 1)
}
