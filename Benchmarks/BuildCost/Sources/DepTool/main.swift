import ArgumentParser
import DepApi
import DepLib

@Noop struct Thing {}

struct Tool: ParsableCommand {
    func run() throws { print(try selectOne() ?? 0) }
}

Tool.main()
