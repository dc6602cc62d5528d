/// JSON written straight into bytes by code made for each type, for the answers of the hottest routes (a play's state
/// after a guess, a hint, a skip or a start): Foundation's `JSONEncoder` goes through reflection and boxes every value,
/// which was most of a guess's own cost. What it writes reads as the `Codable` form does (the wire tests decode both
/// and compare): keys in sorted order, absent optionals left out, `/` unescaped, text as UTF-8 with JSON's escapes.
public struct JSONWriter: Sendable {
    public private(set) var bytes: [UInt8] = []
    /// Whether the object or array being written has a member yet (one entry per open one).
    private var hasMember: [Bool] = []

    public init(reservingCapacity capacity: Int = 1024) {
        bytes.reserveCapacity(capacity)
    }

    /// Writes `value` as one JSON document.
    public static func write(_ value: some JSONWritable) -> [UInt8] {
        var writer = JSONWriter()
        value.writeJSON(to: &writer)
        return writer.bytes
    }

    // MARK: Objects and arrays

    /// An object whose members `body` writes, in the sorted order of their keys (the caller's order).
    public mutating func object(_ body: (inout JSONWriter) -> Void) {
        bytes.append(UInt8(ascii: "{"))
        hasMember.append(false)
        body(&self)
        hasMember.removeLast()
        bytes.append(UInt8(ascii: "}"))
    }

    /// An array of `elements`, each written by `element`.
    public mutating func array<Element>(_ elements: some Sequence<Element>, _ element: (inout JSONWriter, Element) -> Void) {
        bytes.append(UInt8(ascii: "["))
        var first = true
        for value in elements {
            if !first { bytes.append(UInt8(ascii: ",")) }
            first = false
            element(&self, value)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    /// The key of the next member of the object being written.
    public mutating func key(_ key: StaticString) {
        startMember()
        bytes.append(UInt8(ascii: "\""))
        key.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
    }

    /// A key known only at run time (a log line's metadata), escaped as any string.
    public mutating func key(_ key: String) {
        startMember()
        string(key)
        bytes.append(UInt8(ascii: ":"))
    }

    /// The comma before every member of the object being written but its first.
    private mutating func startMember() {
        if hasMember[hasMember.count - 1] { bytes.append(UInt8(ascii: ",")) }
        hasMember[hasMember.count - 1] = true
    }

    // MARK: Members

    public mutating func member(_ name: StaticString, _ value: String) {
        key(name)
        string(value)
    }

    public mutating func member(_ name: StaticString, _ value: Int) {
        key(name)
        int(value)
    }

    public mutating func member(_ name: StaticString, _ value: Bool) {
        key(name)
        bytes.append(contentsOf: value ? Self.trueBytes : Self.falseBytes)
    }

    public mutating func member(_ name: StaticString, _ value: Double) {
        key(name)
        double(value)
    }

    public mutating func member(_ name: StaticString, _ value: [Int]) {
        key(name)
        array(value) { $0.int($1) }
    }

    public mutating func member(_ name: StaticString, _ value: some JSONWritable) {
        key(name)
        value.writeJSON(to: &self)
    }

    /// A member whose value is an array of `values`, each writing its own JSON.
    public mutating func member(_ name: StaticString, _ values: [some JSONWritable]) {
        key(name)
        array(values) { json, value in value.writeJSON(to: &json) }
    }

    /// A member only when `value` is there, as `Codable` leaves an absent optional out.
    public mutating func member(_ name: StaticString, ifPresent value: String?) {
        if let value { member(name, value) }
    }

    public mutating func member(_ name: StaticString, ifPresent value: Int?) {
        if let value { member(name, value) }
    }

    public mutating func member(_ name: StaticString, ifPresent value: Bool?) {
        if let value { member(name, value) }
    }

    public mutating func member(_ name: StaticString, ifPresent value: [Int]?) {
        if let value { member(name, value) }
    }

    public mutating func member(_ name: StaticString, ifPresent value: (some JSONWritable)?) {
        if let value { member(name, value) }
    }

    public mutating func member(_ name: StaticString, ifPresent values: [some JSONWritable]?) {
        if let values { member(name, values) }
    }

    // MARK: Values

    public mutating func int(_ value: Int) {
        if value == 0 {
            bytes.append(UInt8(ascii: "0"))
            return
        }
        var magnitude = value.magnitude
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        let start = bytes.count
        while magnitude > 0 {
            bytes.append(UInt8(ascii: "0") + UInt8(magnitude % 10))
            magnitude /= 10
        }
        bytes[start...].reverse()
    }

    public mutating func unsigned(_ value: UInt64) {
        bytes.append(contentsOf: value.description.utf8)
    }

    /// A finite number, as Swift writes it shortest (`7.2`, `20.0`); JSON has no infinity or NaN, written as 0.
    public mutating func double(_ value: Double) {
        guard value.isFinite else {
            bytes.append(UInt8(ascii: "0"))
            return
        }
        if value == value.rounded(), abs(value) < 1e15 {
            int(Int(value))
            return
        }
        bytes.append(contentsOf: value.description.utf8)
    }

    /// A string with JSON's escapes: `"` and `\`, and control characters (the short ones by name, the rest as
    /// `\u00XX`); everything else, `/` and non-ASCII too, as its UTF-8.
    public mutating func string(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        var text = value
        text.withUTF8 { utf8 in
            var plainFrom = 0
            for index in utf8.indices {
                let byte = utf8[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[plainFrom..<index]))
                plainFrom = index + 1
                bytes.append(UInt8(ascii: "\\"))
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(byte)
                case 0x08: bytes.append(UInt8(ascii: "b"))
                case 0x0C: bytes.append(UInt8(ascii: "f"))
                case 0x0A: bytes.append(UInt8(ascii: "n"))
                case 0x0D: bytes.append(UInt8(ascii: "r"))
                case 0x09: bytes.append(UInt8(ascii: "t"))
                default:
                    bytes.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")])
                    bytes.append(Self.hexDigits[Int(byte >> 4)])
                    bytes.append(Self.hexDigits[Int(byte & 0x0F)])
                }
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[plainFrom...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private static let trueBytes = Array("true".utf8)
    private static let falseBytes = Array("false".utf8)
    private static let hexDigits = Array("0123456789abcdef".utf8)
}

/// A value that writes its own JSON (`JSONWriter`), the same JSON as its `Encodable` form.
public protocol JSONWritable {
    func writeJSON(to writer: inout JSONWriter)
}

extension String: JSONWritable {
    public func writeJSON(to writer: inout JSONWriter) { writer.string(self) }
}
