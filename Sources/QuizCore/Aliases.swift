/// The other names a movie is known by, as the catalog, a quiz and an export hold them.
public enum Aliases {
    /// The most aliases a file may carry for one movie, and an export writes: far more than the handful of titles a film
    /// is really known by, and few enough that judging a guess against them all stays instant.
    public static let maxPerMovie = 50

    /// `existing` followed by the titles of `added` it does not hold yet, in order and without repeats: in time linear
    /// in both (a set of what is held, never a search of the list), so merging 100,000 aliases costs 100,000 steps.
    public static func merged<Title: Hashable>(_ existing: [Title], _ added: [Title]) -> [Title] {
        var held = Set<Title>(minimumCapacity: existing.count + added.count)
        var result: [Title] = []
        result.reserveCapacity(existing.count + added.count)
        for title in existing + added where held.insert(title).inserted { result.append(title) }
        return result
    }
}
