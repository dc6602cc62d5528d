import Crypto
import Foundation
import Hummingbird
import Metrics
import Prometheus
import ServerUseCases

/// The server's metrics: the registry every counter and timer of the process lands in (once `MetricsSystem` is
/// bootstrapped with `PrometheusMetricsFactory.uquiz(registry:)`), and the bearer token `GET /metrics` asks for.
/// Metrics are never public: without a token there is no `/metrics`.
public struct MetricsEndpoint: Sendable {
    public let registry: PrometheusCollectorRegistry
    public let token: String

    public init(registry: PrometheusCollectorRegistry, token: String) {
        self.registry = registry
        self.token = token
    }
}

extension PrometheusMetricsFactory {
    /// The factory `uquiz serve` bootstraps swift-metrics with: Hummingbird's request metrics get Prometheus names
    /// (`_total`, `_seconds`, underscores) and short labels; the server's own are named so already.
    public static func uquiz(registry: PrometheusCollectorRegistry) -> PrometheusMetricsFactory {
        var factory = PrometheusMetricsFactory(registry: registry)
        let names = [
            "hb.requests": "uquiz_http_requests_total",
            "http.server.request.duration": "uquiz_http_request_duration_seconds",
            "hb.request.errors": "uquiz_http_request_errors_total",
            "http.server.active_requests": "uquiz_http_active_requests",
        ]
        let labels = [
            "http.route": "route", "http.request.method": "method", "http.response.status_code": "status",
            "error.type": "status",
        ]
        factory.nameAndLabelSanitizer = { name, dimensions in
            (
                names[name] ?? name.replacingOccurrences(of: ".", with: "_"),
                dimensions.map { (labels[$0.0] ?? $0.0.replacingOccurrences(of: ".", with: "_"), $0.1) }
            )
        }
        return factory
    }
}

/// `GET /metrics`, in the Prometheus text format, for a bearer of the metrics token. What is counted as it happens
/// comes from the registry; how many rooms, room players and plays are open is looked at when asked.
struct MetricsRoutes {
    let endpoint: MetricsEndpoint
    let environment: ServerEnvironment
    let rooms: Rooms

    func add(to router: Router<ServerRequestContext>) {
        let openRooms = endpoint.registry.makeGauge(name: "uquiz_open_rooms", help: "Live rooms this instance holds.")
        let roomPlayers = endpoint.registry.makeGauge(
            name: "uquiz_room_players_connected", help: "Players connected to this instance's live rooms.")
        let openPlays = endpoint.registry.makeGauge(
            name: "uquiz_open_plays", help: "Plays under way on the store (every instance's).")
        let expected = SHA256.hash(data: Data("Bearer \(endpoint.token)".utf8))
        router.get("metrics") { request, _ in
            // Digests compare in constant time: the answer's timing says nothing of how much of a guess was right.
            guard SHA256.hash(data: Data((request.headers[.authorization] ?? "").utf8)) == expected else {
                throw APIError.unauthorized("GET /metrics needs the server's metrics token as a bearer token")
            }
            let census = rooms.census
            openRooms.set(Double(census.rooms))
            roomPlayers.set(Double(census.players))
            if let plays = try? await environment.sharing.store().openPlayCount(packageId: nil) {
                openPlays.set(Double(plays))
            }
            var text: [UInt8] = []
            endpoint.registry.emit(into: &text)
            return Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8", .cacheControl: "no-store"],
                body: .init(byteBuffer: ByteBuffer(bytes: text)))
        }
    }
}
