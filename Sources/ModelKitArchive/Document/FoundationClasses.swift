import ModelKitCore

// The Foundation classes keyed archives use for Swift values, with Apple's class chains
// (`$classes`) exactly as NSKeyedArchiver writes them.

extension ArchivedClass {
    /// `NSArray`: an array (`NS.objects`).
    public static let nsArray = ArchivedClass(name: "NSArray", chain: ["NSArray", "NSObject"])
    /// `NSMutableArray`.
    public static let nsMutableArray = ArchivedClass(
        name: "NSMutableArray", chain: ["NSMutableArray", "NSArray", "NSObject"])
    /// `NSSet`: a set (`NS.objects`).
    public static let nsSet = ArchivedClass(name: "NSSet", chain: ["NSSet", "NSObject"])
    /// `NSMutableSet`.
    public static let nsMutableSet = ArchivedClass(name: "NSMutableSet", chain: ["NSMutableSet", "NSSet", "NSObject"])
    /// `NSCountedSet`: a set whose members each have a count (`NS.count`, then `NS.object0`,
    /// `NS.count0`, `NS.object1`, ...).
    public static let nsCountedSet = ArchivedClass(
        name: "NSCountedSet", chain: ["NSCountedSet", "NSMutableSet", "NSSet", "NSObject"])
    /// `NSOrderedSet`: an ordered set (`NS.object.0`, `NS.object.1`, ...).
    public static let nsOrderedSet = ArchivedClass(name: "NSOrderedSet", chain: ["NSOrderedSet", "NSObject"])
    /// `NSMutableOrderedSet`.
    public static let nsMutableOrderedSet = ArchivedClass(
        name: "NSMutableOrderedSet", chain: ["NSMutableOrderedSet", "NSOrderedSet", "NSObject"])
    /// `NSDictionary`: a dictionary (`NS.keys`, `NS.objects`).
    public static let nsDictionary = ArchivedClass(name: "NSDictionary", chain: ["NSDictionary", "NSObject"])
    /// `NSMutableDictionary`.
    public static let nsMutableDictionary = ArchivedClass(
        name: "NSMutableDictionary", chain: ["NSMutableDictionary", "NSDictionary", "NSObject"])
    /// `NSDate`: seconds since 2001-01-01 (`NS.time`).
    public static let nsDate = ArchivedClass(name: "NSDate", chain: ["NSDate", "NSObject"])
    /// `NSURL`: a relative string and an optional base URL (`NS.relative`, `NS.base`).
    public static let nsURL = ArchivedClass(name: "NSURL", chain: ["NSURL", "NSObject"])
    /// `NSUUID`: 16 bytes (`NS.uuidbytes`).
    public static let nsUUID = ArchivedClass(name: "NSUUID", chain: ["NSUUID", "NSObject"])
    /// `NSNull`: null inside collections.
    public static let nsNull = ArchivedClass(name: "NSNull", chain: ["NSNull", "NSObject"])
    /// `NSMutableString` (`NS.string`); immutable strings are plain values.
    public static let nsMutableString = ArchivedClass(
        name: "NSMutableString", chain: ["NSMutableString", "NSString", "NSObject"])
    /// `NSMutableData` (`NS.data`); immutable data are plain values.
    public static let nsMutableData = ArchivedClass(name: "NSMutableData", chain: ["NSMutableData", "NSData", "NSObject"])
    /// `NSDecimalNumber` (`NS.mantissa`, `NS.exponent`, ...).
    public static let nsDecimalNumber = ArchivedClass(
        name: "NSDecimalNumber", chain: ["NSDecimalNumber", "NSNumber", "NSValue", "NSObject"])
}

/// The Foundation class names the unarchiver knows, and what each decodes to.
enum FoundationClass: String {
    case array = "NSArray"
    case mutableArray = "NSMutableArray"
    case set = "NSSet"
    case mutableSet = "NSMutableSet"
    case countedSet = "NSCountedSet"
    case orderedSet = "NSOrderedSet"
    case mutableOrderedSet = "NSMutableOrderedSet"
    case dictionary = "NSDictionary"
    case mutableDictionary = "NSMutableDictionary"
    case date = "NSDate"
    case url = "NSURL"
    case uuid = "NSUUID"
    case null = "NSNull"
    case string = "NSString"
    case mutableString = "NSMutableString"
    case data = "NSData"
    case mutableData = "NSMutableData"
    case decimalNumber = "NSDecimalNumber"
    case number = "NSNumber"

    /// The first Foundation class in a class chain.
    init?(chain: [String]) {
        for name in chain {
            if let known = FoundationClass(rawValue: name) {
                self = known
                return
            }
        }
        return nil
    }

    var isArray: Bool { self == .array || self == .mutableArray }
    var isSet: Bool { self == .set || self == .mutableSet || self == .countedSet }
    var isOrderedSet: Bool { self == .orderedSet || self == .mutableOrderedSet }
    var isDictionary: Bool { self == .dictionary || self == .mutableDictionary }
    var isString: Bool { self == .string || self == .mutableString }
    var isData: Bool { self == .data || self == .mutableData }
    /// Arrays, ordered sets, sets and dictionaries: the classes whose values hold other objects.
    var isCollection: Bool { isArray || isSet || isOrderedSet || isDictionary }

    /// The names of the array-like classes.
    static let numberNames = ["NSNumber"]
    /// The classes a JSON value may be archived as.
    static let jsonNames = stringNames + numberNames + arrayNames + dictionaryNames + ["NSNull"]
    static let arrayNames = ["NSArray", "NSMutableArray"]
    static let setNames = ["NSSet", "NSMutableSet"]
    static let dictionaryNames = ["NSDictionary", "NSMutableDictionary"]
    static let stringNames = ["NSString", "NSMutableString"]
    static let dataNames = ["NSData", "NSMutableData"]
}

/// Marks `Set` so the archiver writes it as an `NSSet` (ModelKit's values write sets through
/// `encodeArray`).
protocol ArchivedAsSet {}

extension Set: ArchivedAsSet {}
