/// An optional that a synthesized `Encodable` writes as `null` rather than leaving its key out, so that a JSON contract
/// (`list --json`, `show --json`) has every key in every object.
@propertyWrapper
public struct NullEncodable<Value: Codable & Hashable & Sendable>: Codable, Hashable, Sendable {
    public var wrappedValue: Value?

    public init(wrappedValue: Value?) {
        self.wrappedValue = wrappedValue
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        wrappedValue = container.decodeNil() ? nil : try container.decode(Value.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let wrappedValue { try container.encode(wrappedValue) } else { try container.encodeNil() }
    }
}

extension KeyedDecodingContainer {
    /// A missing key decodes as `nil`, as it would for a plain optional.
    public func decode<Value>(_ type: NullEncodable<Value>.Type, forKey key: Key) throws -> NullEncodable<Value> {
        try decodeIfPresent(type, forKey: key) ?? NullEncodable(wrappedValue: nil)
    }
}
