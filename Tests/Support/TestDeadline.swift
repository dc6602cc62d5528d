import UQuizStorage

extension StoreDeadline {
    /// The deadline of the stores tests open, where a test does not set its own: the tests check what the stores
    /// answer, not how fast, and on a machine running every suite at once (2 cores) a call may wait seconds for a
    /// thread. The deadline's own behaviour is tested with deadlines of its own.
    public static let forTests = StoreDeadline(.seconds(20))
}
