import Foundation
import Testing
import UQuizWire

/// A document whose shape the client owns (a draft's) goes through the wire as it came: kinds, whole numbers, text.
@Suite struct JSONValueTests {
    @Test func aDocumentReadAndWrittenAgainIsTheSameJSON() throws {
        let text = #"""
            {"areas":[[37,25],[12,9]],"big":9007199254740993,"empty":{},"flag":true,"half":0.5,"list":[],"none":null,\#
            "off":false,"title":"스즈메의 \"문단속\" 🎬","year":-1927}
            """#
        let value = try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
        #expect(value["areas"] == .array([.array([.integer(37), .integer(25)]), .array([.integer(12), .integer(9)])]))
        #expect(value["big"] == .integer(9_007_199_254_740_993), "a whole number beyond a double's precision stays exact")
        #expect(value["flag"] == .bool(true) && value["off"] == .bool(false) && value["none"] == .null)
        #expect(value["half"] == .number(0.5) && value["year"] == .integer(-1927))
        #expect(value["title"]?.string == "스즈메의 \"문단속\" 🎬")
        #expect(value["missing"] == nil && value["title"]?["x"] == nil)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let again = try JSONDecoder().decode(JSONValue.self, from: try encoder.encode(value))
        #expect(again == value)
        let reference = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? NSDictionary
        let written = try JSONSerialization.jsonObject(with: try encoder.encode(value)) as? NSDictionary
        #expect(written == reference, "Foundation's own reading of both is the same object")
    }
}
