import PosterGrid

/// A poster seen through the quiz grid: each cell's average colour (area averaging over the pixels it covers) and how
/// much its brightness varies, the measure of detail automatic areas lean toward.
public struct CellRaster: Sendable {
    public struct Colour: Sendable, Equatable {
        public var red: UInt8
        public var green: UInt8
        public var blue: UInt8

        public init(red: UInt8, green: UInt8, blue: UInt8) {
            self.red = red
            self.green = green
            self.blue = blue
        }
    }

    public let geometry: GridGeometry
    /// Row by row, `geometry.cellCount` of them.
    public let colours: [Colour]
    /// Standard deviation of luminance inside each cell, 0...255.
    public let variation: [Double]

    public init(image: RGBImage, geometry: GridGeometry) {
        self.geometry = geometry
        var colours: [Colour] = []
        var variation: [Double] = []
        colours.reserveCapacity(geometry.cellCount)
        variation.reserveCapacity(geometry.cellCount)
        let map = CellPixels(geometry: geometry, width: image.width, height: image.height)
        for row in 0..<geometry.rows {
            let ys = map.pixelRows(ofRow: row)
            for column in 0..<geometry.columns {
                let xs = map.pixelColumns(ofColumn: column)
                var sums = (0, 0, 0)
                var luminance = 0.0
                var luminanceSquares = 0.0
                for y in ys {
                    var offset = (y * image.width + xs.lowerBound) * 3
                    for _ in xs {
                        let (r, g, b) = (Int(image.pixels[offset]), Int(image.pixels[offset + 1]), Int(image.pixels[offset + 2]))
                        sums.0 += r
                        sums.1 += g
                        sums.2 += b
                        let y = 0.299 * Double(r) + 0.587 * Double(g) + 0.114 * Double(b)
                        luminance += y
                        luminanceSquares += y * y
                        offset += 3
                    }
                }
                let count = max(1, ys.count * xs.count)
                colours.append(Colour(red: UInt8(sums.0 / count), green: UInt8(sums.1 / count), blue: UInt8(sums.2 / count)))
                let mean = luminance / Double(count)
                variation.append(max(0, luminanceSquares / Double(count) - mean * mean).squareRoot())
            }
        }
        self.colours = colours
        self.variation = variation
    }

    public func colour(at cell: Cell) -> Colour {
        colours[cell.row * geometry.columns + cell.column]
    }

    /// Detail of the area centred on `centre`, 0 (flat) to 1 (the busiest area of this poster).
    public func detail(ofAreaAround centre: Cell) -> Double {
        let maximum = variation.max() ?? 0
        guard maximum > 0 else { return 0 }
        let cells = geometry.block(around: centre)
        let total = cells.reduce(0.0) { $0 + variation[$1.row * geometry.columns + $1.column] }
        return total / Double(max(1, cells.count)) / maximum
    }
}
