/// The orders packages are browsed in.
public enum BrowseOrder: String, CaseIterable, Sendable {
    /// Newest first.
    case new
    /// Most plays first, then newest (highest id) among equals.
    case popular
}
