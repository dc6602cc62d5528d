import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import UQuizServer

/// The document is the contract: it must describe exactly the routes the server has, and be the file in the repository.
@Suite("The OpenAPI document")
struct OpenAPIDocumentTests {
    static let file = repositoryRoot.appendingPathComponent("Sources/UQuizServer/openapi.yaml")

    /// `METHOD /path` for every operation under `paths:`: path keys sit two spaces in, methods four.
    static func operations(in yaml: String) -> Set<String> {
        let methods: Set<String> = ["get", "put", "post", "delete", "patch", "head", "options", "trace"]
        var operations: Set<String> = []
        var inPaths = false
        var path: String?
        for line in yaml.split(separator: "\n", omittingEmptySubsequences: false) {
            if !line.hasPrefix(" ") && !line.isEmpty {
                inPaths = line == "paths:"
                continue
            }
            guard inPaths else { continue }
            if line.hasPrefix("  /") && !line.hasPrefix("   ") {
                path = String(line.dropFirst(2).dropLast())
            } else if line.hasPrefix("    ") && !line.hasPrefix("     "), let path {
                let key = line.dropFirst(4).split(separator: ":").first.map(String.init) ?? ""
                if methods.contains(key) { operations.insert("\(key.uppercased()) \(path)") }
            }
        }
        return operations
    }

    @Test func everyRouteIsInTheDocumentAndEveryOperationIsARoute() async throws {
        let router = try TestServer().router
        let routes = Set(router.routes.map { "\($0.method.rawValue) \($0.path)" })
        let documented = Self.operations(in: OpenAPIDocument.text)
        #expect(documented.count >= 8, "the parser found the operations: \(documented.sorted())")
        #expect(routes.subtracting(documented).isEmpty, "routes missing from the document: \(routes.subtracting(documented).sorted())")
        #expect(documented.subtracting(routes).isEmpty, "documented but not routed: \(documented.subtracting(routes).sorted())")
    }

    /// The lines of each operation (`METHOD /path`) of the document, up to the next operation or path.
    static func operationBlocks(in yaml: String) -> [String: [Substring]] {
        let methods: Set<String> = ["get", "put", "post", "delete", "patch"]
        var blocks: [String: [Substring]] = [:]
        var inPaths = false
        var path: String?
        var current: String?
        for line in yaml.split(separator: "\n", omittingEmptySubsequences: false) {
            if !line.hasPrefix(" ") && !line.isEmpty {
                inPaths = line == "paths:"
                current = nil
                continue
            }
            guard inPaths else { continue }
            if line.hasPrefix("  /") && !line.hasPrefix("   ") {
                path = String(line.dropFirst(2).dropLast())
                current = nil
            } else if line.hasPrefix("    ") && !line.hasPrefix("     "), let path {
                let key = line.dropFirst(4).split(separator: ":").first.map(String.init) ?? ""
                current = methods.contains(key) ? "\(key.uppercased()) \(path)" : nil
            } else if let current {
                blocks[current, default: []].append(line)
            }
        }
        return blocks
    }

    /// Every operation a rate limit can refuse says so: making players (per address), and every operation that reads
    /// a bearer token (refused tokens are limited per address). Found by contract fuzzing with the limits on:
    /// `POST /v1/players` answered an undocumented 429.
    @Test func everyRateLimitedOperationDocuments429() {
        let blocks = Self.operationBlocks(in: OpenAPIDocument.text)
        #expect(blocks.count >= 19)
        let limited = Set(blocks.filter { $0.value.contains { $0.trimmingCharacters(in: .whitespaces) == "security:" } }.keys)
            .union(["POST /v1/players"])
        for operation in limited.sorted() {
            let documents429 = blocks[operation]?.contains { $0.trimmingCharacters(in: .whitespaces) == "\"429\":" } == true
            #expect(documents429, "\(operation) can answer 429 but does not say so")
        }
    }

    /// Every operation that takes a body says what any body can get, whatever the route does with it: 400 (cut short,
    /// not JSON), 408 (too slow to arrive), 413 (too large). The guesses, hints and skips answered an undocumented
    /// 413 to ServeFaultTests.
    @Test func everyOperationWithABodyDocumentsTheBodysFaults() {
        let blocks = Self.operationBlocks(in: OpenAPIDocument.text)
        let withBody = blocks.filter { $0.value.contains { $0 == "      requestBody:" } }
        #expect(withBody.count == 14, "\(withBody.keys.sorted())")
        for (operation, lines) in withBody.sorted(by: { $0.key < $1.key }) {
            let statuses = Set(lines.map { $0.trimmingCharacters(in: .whitespaces) })
            for status in ["\"400\":", "\"408\":", "\"413\":"] {
                #expect(statuses.contains(status), "\(operation) does not document \(status)")
            }
        }
    }

    @Test func theServedDocumentIsTheRepositoryFile() async throws {
        let onDisk = try Data(contentsOf: Self.file)
        #expect(Data(OpenAPIDocument.bytes) == onDisk)
        #expect(OpenAPIDocument.text.hasPrefix("openapi: 3.1"))
        try await TestServer().test { client in
            let response = try await client.send(.get, "/openapi.yaml")
            #expect(response.status == .ok)
            #expect(response.headers[.contentType]?.hasPrefix("application/yaml") == true)
            #expect(Data(response.body.readableBytesView) == onDisk)
        }
    }
}
