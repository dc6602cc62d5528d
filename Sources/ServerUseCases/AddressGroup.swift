#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The network a client address belongs to, as moderation groups reports: an IPv4 address's /24, an IPv6 address's
/// /48 (what one household, office or provider's customer usually holds). Only the group is kept, never the address.
public enum AddressGroup {
    /// "203.0.113.0/24" or "2001:db8:1::/48"; `nil` for what is not an IP address ("unknown" in tests).
    public static func of(_ address: String) -> String? {
        var v4 = in_addr()
        if inet_pton(AF_INET, address, &v4) == 1 {
            let parts = address.split(separator: ".")
            return parts.count == 4 ? parts.prefix(3).joined(separator: ".") + ".0/24" : nil
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, address, &v6) == 1 else { return nil }
        let bytes = withUnsafeBytes(of: &v6) { Array($0) }
        // An IPv4 address written as IPv6 (::ffff:a.b.c.d) is the IPv4 network.
        if bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xff, bytes[11] == 0xff {
            return "\(bytes[12]).\(bytes[13]).\(bytes[14]).0/24"
        }
        let groups = (0..<3).map { String(UInt16(bytes[2 * $0]) << 8 | UInt16(bytes[2 * $0 + 1]), radix: 16) }
        return groups.joined(separator: ":") + "::/48"
    }
}
