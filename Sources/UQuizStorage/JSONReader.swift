/// JSON read straight from its bytes by code made for each type (the stored open play, read on every request of a
/// play), without building a tree or going through `Decodable`'s reflection. A reader walks one value at a time: an
/// object member by member (`members`), an array element by element (`elements`), a value it does not know is skipped
/// whole. Anything that is not JSON, or not the JSON the caller expects, is a `JSONReader.Problem`.
public struct JSONReader {
    public struct Problem: Error, Equatable, CustomStringConvertible {
        public var offset: Int
        public var expected: String

        public var description: String { "not the JSON expected at byte \(offset): \(expected)" }
    }

    private let bytes: [UInt8]
    private var offset = 0

    public init(_ text: String) {
        bytes = Array(text.utf8)
    }

    /// Reads one JSON document with `body` (which reads its value), and then nothing but white space.
    public static func read<Value>(_ text: String, _ body: (inout JSONReader) throws -> Value) throws -> Value {
        var reader = JSONReader(text)
        let value = try body(&reader)
        reader.skipWhiteSpace()
        guard reader.offset == reader.bytes.count else { throw reader.problem("the end of the document") }
        return value
    }

    // MARK: Objects and arrays

    /// Reads an object, calling `member` with each key; `member` reads that member's value (or `skipValue()`s it).
    public mutating func members(_ member: (inout JSONReader, String) throws -> Void) throws {
        try expect(UInt8(ascii: "{"), "an object")
        if try peek() == UInt8(ascii: "}") {
            offset += 1
            return
        }
        while true {
            let key = try string()
            try expect(UInt8(ascii: ":"), "a colon")
            try member(&self, key)
            let next = try peek()
            offset += 1
            if next == UInt8(ascii: "}") { return }
            guard next == UInt8(ascii: ",") else { throw problem("a comma or the object's end", at: offset - 1) }
        }
    }

    /// Reads an array, each element with `element`.
    public mutating func elements<Element>(_ element: (inout JSONReader) throws -> Element) throws -> [Element] {
        try expect(UInt8(ascii: "["), "an array")
        var values: [Element] = []
        if try peek() == UInt8(ascii: "]") {
            offset += 1
            return values
        }
        while true {
            values.append(try element(&self))
            let next = try peek()
            offset += 1
            if next == UInt8(ascii: "]") { return values }
            guard next == UInt8(ascii: ",") else { throw problem("a comma or the array's end", at: offset - 1) }
        }
    }

    /// Whether the next value is `null`, which is then read; `false` leaves the value to read.
    public mutating func null() throws -> Bool {
        guard try peek() == UInt8(ascii: "n") else { return false }
        try literal("null")
        return true
    }

    /// Reads and forgets the next value, whatever it is.
    public mutating func skipValue() throws {
        switch try peek() {
        case UInt8(ascii: "{"): try members { reader, _ in try reader.skipValue() }
        case UInt8(ascii: "["): _ = try elements { reader in try reader.skipValue() }
        case UInt8(ascii: "\""): _ = try string()
        case UInt8(ascii: "t"): try literal("true")
        case UInt8(ascii: "f"): try literal("false")
        case UInt8(ascii: "n"): try literal("null")
        default: _ = try double()
        }
    }

    // MARK: Values

    public mutating func bool() throws -> Bool {
        switch try peek() {
        case UInt8(ascii: "t"):
            try literal("true")
            return true
        case UInt8(ascii: "f"):
            try literal("false")
            return false
        default:
            throw problem("true or false")
        }
    }

    /// A whole number (no fraction or exponent), in `Int64`'s range.
    public mutating func int64() throws -> Int64 {
        skipWhiteSpace()
        let start = offset
        var negative = false
        if offset < bytes.count, bytes[offset] == UInt8(ascii: "-") {
            negative = true
            offset += 1
        }
        var magnitude: UInt64 = 0
        let digitsStart = offset
        while offset < bytes.count, bytes[offset] >= UInt8(ascii: "0"), bytes[offset] <= UInt8(ascii: "9") {
            let (times, overflowed) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, overflowedToo) = times.addingReportingOverflow(UInt64(bytes[offset] - UInt8(ascii: "0")))
            guard !overflowed, !overflowedToo else { throw problem("a whole number in range", at: start) }
            magnitude = sum
            offset += 1
        }
        guard offset > digitsStart else { throw problem("a whole number", at: start) }
        // JSON writes no leading zero (`01`), so neither may a reader take one.
        guard bytes[digitsStart] != UInt8(ascii: "0") || offset == digitsStart + 1 else {
            throw problem("a whole number without leading zeros", at: start)
        }
        if offset < bytes.count, bytes[offset] == UInt8(ascii: ".") || bytes[offset] | 0x20 == UInt8(ascii: "e") {
            throw problem("a whole number", at: start)
        }
        if negative {
            guard magnitude <= UInt64(Int64.max) + 1 else { throw problem("a whole number in range", at: start) }
            return magnitude == UInt64(Int64.max) + 1 ? .min : -Int64(magnitude)
        }
        guard magnitude <= UInt64(Int64.max) else { throw problem("a whole number in range", at: start) }
        return Int64(magnitude)
    }

    public mutating func int() throws -> Int {
        Int(try int64())
    }

    /// A number as JSON writes it (sign, digits, fraction, exponent).
    public mutating func double() throws -> Double {
        skipWhiteSpace()
        let start = offset
        while offset < bytes.count, Self.isNumberByte(bytes[offset]) { offset += 1 }
        guard offset > start, let value = Double(String(decoding: bytes[start..<offset], as: UTF8.self)) else {
            throw problem("a number", at: start)
        }
        return value
    }

    /// A string, its escapes undone (`\uXXXX` surrogate pairs too).
    public mutating func string() throws -> String {
        try expect(UInt8(ascii: "\""), "a string")
        var plainFrom = offset
        var decoded: [UInt8]?
        while true {
            guard offset < bytes.count else { throw problem("the string's end") }
            let byte = bytes[offset]
            if byte == UInt8(ascii: "\"") {
                let text: String
                if var decoded {
                    decoded.append(contentsOf: bytes[plainFrom..<offset])
                    text = String(decoding: decoded, as: UTF8.self)
                } else {
                    text = String(decoding: bytes[plainFrom..<offset], as: UTF8.self)
                }
                offset += 1
                return text
            }
            guard byte >= 0x20 else { throw problem("no control character inside a string") }
            guard byte == UInt8(ascii: "\\") else {
                offset += 1
                continue
            }
            var text = decoded ?? []
            text.append(contentsOf: bytes[plainFrom..<offset])
            offset += 1
            guard offset < bytes.count else { throw problem("an escape") }
            let escape = bytes[offset]
            offset += 1
            switch escape {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): text.append(escape)
            case UInt8(ascii: "b"): text.append(0x08)
            case UInt8(ascii: "f"): text.append(0x0C)
            case UInt8(ascii: "n"): text.append(0x0A)
            case UInt8(ascii: "r"): text.append(0x0D)
            case UInt8(ascii: "t"): text.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hexUnit()
                if (0xD800..<0xDC00).contains(scalar) {
                    guard offset + 1 < bytes.count, bytes[offset] == UInt8(ascii: "\\"), bytes[offset + 1] == UInt8(ascii: "u")
                    else { throw problem("the second half of a surrogate pair") }
                    offset += 2
                    let low = try hexUnit()
                    guard (0xDC00..<0xE000).contains(low) else { throw problem("the second half of a surrogate pair") }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                }
                guard let unicode = Unicode.Scalar(scalar) else { throw problem("a Unicode scalar") }
                text.append(contentsOf: String(Character(unicode)).utf8)
            default:
                throw problem("an escape", at: offset - 1)
            }
            decoded = text
            plainFrom = offset
        }
    }

    // MARK: Bytes

    private mutating func hexUnit() throws -> UInt32 {
        guard offset + 4 <= bytes.count else { throw problem("four hexadecimal digits") }
        var value: UInt32 = 0
        for byte in bytes[offset..<offset + 4] {
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw problem("four hexadecimal digits")
            }
            value = value << 4 | UInt32(digit)
        }
        offset += 4
        return value
    }

    private static func isNumberByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
            UInt8(ascii: "e"), UInt8(ascii: "E"):
            true
        default: false
        }
    }

    private mutating func skipWhiteSpace() {
        while offset < bytes.count {
            switch bytes[offset] {
            case 0x20, 0x09, 0x0A, 0x0D: offset += 1
            default: return
            }
        }
    }

    /// The next byte past white space, not read.
    private mutating func peek() throws -> UInt8 {
        skipWhiteSpace()
        guard offset < bytes.count else { throw problem("a value") }
        return bytes[offset]
    }

    private mutating func expect(_ byte: UInt8, _ what: String) throws {
        guard try peek() == byte else { throw problem(what) }
        offset += 1
    }

    private mutating func literal(_ word: StaticString) throws {
        skipWhiteSpace()
        let count = word.utf8CodeUnitCount
        let matches = offset + count <= bytes.count && word.withUTF8Buffer { Array($0) == Array(bytes[offset..<offset + count]) }
        guard matches else { throw problem("\(word)") }
        offset += count
    }

    private func problem(_ expected: String, at position: Int? = nil) -> Problem {
        Problem(offset: position ?? offset, expected: expected)
    }
}

/// A request body read by code made for it (`readJSON`) when it comes in the plain form clients send: exactly the
/// members expected, each once, of the expected kinds. Any other body (a member more, a number written `1.0`, a
/// mistake) makes `readJSON` answer `nil` or throw, and `JSONDecoder` reads it instead, which also says what is wrong:
/// so a body reads the same either way, and a client's mistake gets the same answer.
public protocol JSONReadable: Decodable {
    static func readJSON(_ reader: inout JSONReader) throws -> Self?
}

extension JSONReadable {
    /// The value of `bytes` when they are valid UTF-8 holding the plain form; `nil` for any other.
    public static func readPlainJSON(_ bytes: some Collection<UInt8>) -> Self? {
        guard let text = String(validating: bytes, as: UTF8.self) else { return nil }
        return (try? JSONReader.read(text) { try readJSON(&$0) }) ?? nil
    }
}
