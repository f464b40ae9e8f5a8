// Models isolated to the main actor get isolated conformances (SE-0470): usable on the main actor.

import Foundation
import ModelKit

@MainActor
@Model
public final class ViewState {
    public var title: String = ""
    public var count: Int = 0
}

@MainActor
@Model
public struct Panel {
    public var name: String
}
