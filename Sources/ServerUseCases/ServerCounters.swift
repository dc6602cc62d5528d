import Metrics

/// What the server's use cases count, through swift-metrics: nothing unless the process bootstraps a metrics backend
/// (`uquiz serve` does, for `GET /metrics`). Labels take a few fixed values each, never a code or a player.
public enum ServerCounters {
    static func playStarted(daily: Bool) {
        Counter(label: "uquiz_plays_started_total", dimensions: [("kind", daily ? "daily" : "package")]).increment()
    }

    static func playFinished(ranked: Bool) {
        Counter(label: "uquiz_plays_finished_total", dimensions: [("ranked", ranked ? "true" : "false")]).increment()
    }

    /// A guess judged in a play (`where`: "play") or a live room ("room").
    static func guessJudged(in place: String) {
        Counter(label: "uquiz_guesses_judged_total", dimensions: [("where", place)]).increment()
    }

    /// A request refused by a quota (`quota`: "uploads").
    public static func quotaRefused(_ quota: String) {
        Counter(label: "uquiz_quota_refusals_total", dimensions: [("quota", quota)]).increment()
    }

    /// A request refused by a rate limit, by the limit's name.
    public static func rateLimited(_ limit: String) {
        Counter(label: "uquiz_rate_limit_refusals_total", dimensions: [("limit", limit)]).increment()
    }

    /// A live room carried on by this instance from its checkpoint (`how`: "handed_over" by an instance that stopped,
    /// or "lease_ended" after its holder stopped answering).
    static func roomTakenOver(handedOver: Bool) {
        Counter(label: "uquiz_room_takeovers_total", dimensions: [("how", handedOver ? "handed_over" : "lease_ended")])
            .increment()
    }
}
