import PosterGrid

/// Where the cells of a grid fall on an image's pixels: the one cell-to-pixel mapping of the project, shared by the
/// colours the player samples (`CellRaster`) and the stage posters the server cuts (`StagePoster`).
///
/// Bounds go by proportion (`index * pixels / cells`, rounded down), so for an image at least as large as the grid every
/// pixel belongs to exactly one cell whatever the sizes: the cells of a row or column tile it with no gap and no overlap,
/// the last one ending at the image's edge, even when the image's size is not a multiple of the grid's. An image smaller
/// than the grid (fewer pixels than cells on a side) still gives every cell one pixel, shared with its neighbour.
public struct CellPixels: Sendable, Equatable {
    public let geometry: GridGeometry
    public let width: Int
    public let height: Int

    public init(geometry: GridGeometry, width: Int, height: Int) {
        self.geometry = geometry
        self.width = width
        self.height = height
    }

    /// The pixel rows under grid row `row` (0 ..< geometry.rows).
    public func pixelRows(ofRow row: Int) -> Range<Int> { Self.span(row, of: geometry.rows, over: height) }

    /// The pixel columns under grid column `column` (0 ..< geometry.columns).
    public func pixelColumns(ofColumn column: Int) -> Range<Int> { Self.span(column, of: geometry.columns, over: width) }

    /// Part `index` of `length` pixels cut into `count` parts.
    static func span(_ index: Int, of count: Int, over length: Int) -> Range<Int> {
        let start = index * length / count
        let end = max(start + 1, (index + 1) * length / count)
        return min(start, length)..<min(end, length)
    }
}
