/// Where work that holds its thread runs: reading and writing poster files, decoding and cutting JPEGs, building the
/// title index. The command line runs it where it is (`InPlace`); the server passes a thread pool of its own, so that
/// no thread of Swift's cooperative pool (one per core) waits on a disk or spends milliseconds in libjpeg or sorting.
public protocol HeavyWork: Sendable {
    func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T
}

/// Runs the work on the calling thread: for the command line, whose one task waits for it anyway.
public struct InPlace: HeavyWork {
    public init() {}

    public func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try body()
    }
}
