extension Sequence<UInt8> {
    /// The bytes in lowercase hexadecimal, two digits each: how a digest is written into a name, a log line or a
    /// checkpoint.
    public var lowercaseHex: String {
        var digits: [UInt8] = []
        digits.reserveCapacity(underestimatedCount * 2)
        for byte in self {
            digits.append(hexDigits[Int(byte >> 4)])
            digits.append(hexDigits[Int(byte & 0xF)])
        }
        return String(decoding: digits, as: UTF8.self)
    }
}

private let hexDigits = Array("0123456789abcdef".utf8)
