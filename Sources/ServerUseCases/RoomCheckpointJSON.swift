import QuizCore
import UQuizStorage
import UQuizWire

// A room's checkpoint written by `JSONWriter`: a large room's holds 2,000 seats, and `JSONEncoder` over them was a fifth
// of the server's work in a 2,000-player play. What is written is what the record's `Codable` form reads
// (`JSONDecoder`, as for a checkpoint written before), the test compares both on generated rooms.

extension RoomCheckpointRecord: JSONWritable {
    func writeJSON(to writer: inout JSONWriter) {
        writer.object { json in
            json.key("accounts")
            json.object { json in
                for (player, account) in accounts.sorted(by: { $0.key < $1.key }) {
                    json.key(player)
                    json.int(Int(account))
                }
            }
            json.member("anyoneJoined", anyoneJoined)
            json.member("handedOver", handedOver)
            json.member("openedBy", Int(openedBy))
            json.member("packageId", Int(packageId))
            json.member("resultsStored", resultsStored)
            json.member("room", room)
        }
    }
}

extension RoomCheckpoint: JSONWritable {
    public func writeJSON(to writer: inout JSONWriter) {
        writer.object { json in
            json.member("code", code)
            json.member("host", ifPresent: host)
            json.member("joinCount", joinCount)
            json.member("lastActivity", Int(lastActivity))
            json.member("lastQuiz", ifPresent: lastQuiz)
            json.member("now", Int(now))
            json.member("openedAt", Int(openedAt))
            json.member("phase", phase)
            json.member("quizCount", quizCount)
            json.member("rules", rules)
            json.member("screens", ifPresent: screens)
            json.member("seats", seats)
            json.member("shareCode", shareCode)
            json.member("teams", ifPresent: teams)
        }
    }
}

extension RoomCheckpoint.Seat: JSONWritable {
    public func writeJSON(to writer: inout JSONWriter) {
        writer.object { json in
            json.member("departure", ifPresent: departure)
            json.member("droppedAt", ifPresent: droppedAt.map(Int.init))
            json.member("firstQuiz", firstQuiz)
            json.member("loadedQuiz", ifPresent: loadedQuiz)
            json.member("name", name)
            json.member("player", player)
            json.member("results", results)
            json.member("round", ifPresent: round)
            json.member("team", ifPresent: team)
            json.member("tokenDigest", tokenDigest)
        }
    }
}

extension RoomCheckpoint.Round: JSONWritable {
    public func writeJSON(to writer: inout JSONWriter) {
        writer.object { json in
            json.member("answered", ifPresent: answered)
            json.member("hintsUsed", hintsUsed)
            json.member("result", ifPresent: result)
        }
    }
}

extension RoomCheckpoint.QuizOutcome: JSONWritable {
    public func writeJSON(to writer: inout JSONWriter) {
        writer.object { json in
            json.member("quiz", quiz)
            json.member("result", result)
        }
    }
}

extension RoomCheckpoint.LastQuiz: JSONWritable {
    public func writeJSON(to writer: inout JSONWriter) {
        writer.object { json in
            json.member("at", Int(at))
            json.member("ending", ending.rawValue)
            json.member("quiz", quiz)
        }
    }
}

extension RoomCheckpoint.Phase: JSONWritable {
    /// As `Codable` writes an enum with associated values: an object with the case's name, holding its values.
    public func writeJSON(to writer: inout JSONWriter) {
        writer.object { json in
            switch self {
            case .lobby:
                json.key("lobby")
                json.object { _ in }
            case let .loading(quiz, since):
                json.key("loading")
                json.object { json in
                    json.member("quiz", quiz)
                    json.member("since", Int(since))
                }
            case let .playing(quiz, start, revealedStages):
                json.key("playing")
                json.object { json in
                    json.member("quiz", quiz)
                    json.member("revealedStages", revealedStages)
                    json.member("start", Int(start))
                }
            case let .interlude(after, until):
                json.key("interlude")
                json.object { json in
                    json.member("after", after)
                    json.member("until", Int(until))
                }
            case .finished(let at):
                json.key("finished")
                json.object { json in json.member("at", Int(at)) }
            }
        }
    }
}

extension RoomRules: JSONWritable {
    public func writeJSON(to writer: inout JSONWriter) {
        writer.object { json in
            json.member("endedLifetime", DurationJSON(endedLifetime))
            json.member("idleLifetime", DurationJSON(idleLifetime))
            json.member("interlude", DurationJSON(interlude))
            json.member("loadingTimeout", DurationJSON(loadingTimeout))
            json.member("seatHold", DurationJSON(seatHold))
            json.member("seatLimit", ifPresent: seatLimit)
            json.member("stageDuration", DurationJSON(stageDuration))
            json.member("timeLimit", DurationJSON(timeLimit))
            json.member("unjoinedLifetime", DurationJSON(unjoinedLifetime))
        }
    }
}

extension RoomTeams: JSONWritable {
    public func writeJSON(to writer: inout JSONWriter) {
        writer.object { json in
            json.member("count", count)
            json.member("scoring", scoring.rawValue)
        }
    }
}

/// A `Duration` as its `Codable` form writes it: the high and low 64 bits of its attoseconds.
private struct DurationJSON: JSONWritable {
    let duration: Duration

    init(_ duration: Duration) { self.duration = duration }

    func writeJSON(to writer: inout JSONWriter) {
        writer.array([true, false]) { json, isHigh in
            if isHigh { json.int(Int(duration._high)) } else { json.unsigned(duration._low) }
        }
    }
}
