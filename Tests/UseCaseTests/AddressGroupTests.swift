import ServerUseCases
import Testing

/// The network moderation counts a report under: an IPv4 address's /24, an IPv6 address's /48, nothing for what is
/// not an address.
@Suite struct AddressGroupTests {
    @Test(arguments: [
        ("203.0.113.9", "203.0.113.0/24"),
        ("127.0.5.2", "127.0.5.0/24"),
        ("2001:db8:1:2:3::9", "2001:db8:1::/48"),
        ("2001:0db8:0000:ffff::1", "2001:db8:0::/48"),
        ("::1", "0:0:0::/48"),
        ("::ffff:198.51.100.7", "198.51.100.0/24"),
    ])
    func anAddressBelongsToItsNetwork(_ address: String, _ group: String) {
        #expect(AddressGroup.of(address) == group)
    }

    @Test(arguments: ["unknown", "", "203.0.113", "203.0.113.9.1", "1.2.3.256", "2001:db8::g", "example.com"])
    func whatIsNotAnAddressHasNoNetwork(_ text: String) {
        #expect(AddressGroup.of(text) == nil)
    }
}
