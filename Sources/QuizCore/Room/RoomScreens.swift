/// A room's big screens: a TV or projector that shows the room to everyone in it. A screen holds no seat, plays nothing
/// and is told what every player is told, and while a quiz runs how many have answered (never what). The host opens
/// one with their player token (checked outside the room, which knows no accounts) or with a one-time pass their page
/// shows; the screen then keeps a token of its own, as a player keeps their resume token, to come back after a lost
/// connection or on another instance.
extension Room {
    /// The one-time pass a host hands to a screen: 8 digits, typed on a TV's remote in a few seconds.
    struct ScreenPass: Sendable {
        let digest: String
        let until: Duration
        var wrongTries = 0
    }

    public static let screenPassLength = 8

    /// A new pass for a screen, for the host only; it replaces any earlier one. Returns the pass and its lifetime.
    public mutating func issueScreenPass(
        by player: RoomPlayerID, at instant: Duration, using generator: inout some RandomNumberGenerator
    ) throws(RoomError) -> (pass: String, expiresInMs: Int) {
        try perform(at: instant) { (room: inout Room, _: inout [RoomMessage]) throws(RoomError) -> (String, Int) in
            try room.requireHost(player)
            let pass = String((0..<Self.screenPassLength).map { _ in "0123456789".randomElement(using: &generator)! })
            room.screenPass = ScreenPass(digest: Self.digest(of: pass), until: room.now + RoomRules.screenPassLifetime)
            return (pass, Self.milliseconds(RoomRules.screenPassLifetime))
        }.0
    }

    /// A screen opened with the host's pass: the pass is used up and the screen gets its token.
    public mutating func openScreen(
        pass: String, at instant: Duration, using generator: inout some RandomNumberGenerator
    ) throws(RoomError) -> ResumeToken {
        // A wrong pass counts against the pass even though the command fails, so it is kept outside `perform`'s copy.
        _ = advance(to: instant)
        if case .expired = phase { throw .roomExpired }
        guard var current = screenPass, current.until > now else {
            screenPass = nil
            throw .wrongScreenPass
        }
        guard Self.digest(of: pass) == current.digest else {
            current.wrongTries += 1
            screenPass = current.wrongTries >= RoomRules.screenPassTries ? nil : current
            throw .wrongScreenPass
        }
        screenPass = nil
        return addScreen(at: instant, using: &generator)
    }

    /// A screen opened by the host themself (the server checked their player token): it gets its token.
    public mutating func addScreen(at instant: Duration, using generator: inout some RandomNumberGenerator) -> ResumeToken {
        _ = advance(to: instant)
        var token = ResumeToken.random(using: &generator)
        while screenDigests.contains(token.digest) { token = ResumeToken.random(using: &generator) }
        screenDigests.append(token.digest)
        if screenDigests.count > RoomRules.maxScreens { screenDigests.removeFirst() }
        return token
    }

    /// Whether a screen was ever opened: a room without one does not count its answers for nobody (a count is a walk
    /// over every seat, and a large room's guesses come by the thousand).
    var hasScreens: Bool { !screenDigests.isEmpty }

    /// Whether `token` is one of this room's screens'.
    public func isScreen(_ token: ResumeToken) -> Bool { screenDigests.contains(token.digest) }

    /// What a screen may know at `instant`: the room as every player sees it, without a seat.
    public func screenSnapshot(at instant: Duration) throws(RoomError) -> RoomSnapshot {
        var advanced = self
        _ = advanced.advance(to: instant)
        if case .expired = advanced.phase { throw .roomExpired }
        return advanced.makeSnapshot(for: nil)
    }

    /// The counts of the running quiz `quiz`.
    func progress(of quiz: Int) -> RoomProgress {
        var progress = RoomProgress(quiz: quiz, players: 0, answered: 0, solved: 0)
        for seat in seats where seat.isSeated && seat.round != nil {
            progress.players += 1
            if seat.answered { progress.answered += 1 }
            if seat.round?.result?.solved == true { progress.solved += 1 }
        }
        return progress
    }

    private static func digest(of pass: String) -> String { ResumeToken.digest(of: pass) }
}
