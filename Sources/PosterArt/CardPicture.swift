/// The picture a link preview shows (Open Graph's `og:image`): 1200 x 630 pixels of flat shapes on a dark ground, with
/// no text and nothing of any poster. A row of tiles per ten quizzes, each tile a colour the caller chooses (its
/// meaning is the caller's), the UQuiz mark in a corner, and a bar or a few notches for a number.
public enum CardPicture {
    public static let width = 1200
    public static let height = 630
    /// Tiles in one row at most: a 25-quiz package is three rows, as its share line reads in three glances.
    public static let tilesPerRow = 10

    /// A card's colours are the grid's (`CellRaster.Colour`), with the card's own few named below.
    public typealias Colour = CellRaster.Colour

    /// One quiz's tile: filled with `fill`, or only framed in it (`hollow`) around the ground colour.
    public struct Tile: Sendable, Equatable {
        public var fill: Colour
        public var hollow: Bool
        /// A small square of this colour inside the tile, at a place picked from the tile's number (a package's
        /// tiles: a poster with one area shown, as the icon draws it).
        public var spot: Colour?

        public init(fill: Colour, hollow: Bool = false, spot: Colour? = nil) {
            self.fill = fill
            self.hollow = hollow
            self.spot = spot
        }
    }

    public enum TileShape: Sendable {
        /// Squares, as a share line's emoji.
        case square
        /// 2:3 rectangles, as posters.
        case poster
    }

    /// A rectangle of the picture, in pixels from its top left.
    public struct Frame: Sendable, Equatable {
        public var x: Int
        public var y: Int
        public var width: Int
        public var height: Int

        public var centre: (x: Int, y: Int) { (x + width / 2, y + height / 2) }
    }

    static let margin = 60

    /// The picture: `tiles` in rows of `tilesPerRow`, centred; under them a bar filled to `meter` (0...1) in gold when
    /// given; `notches` (`filled` gold of `of`) in the bottom right corner when given (a package's level).
    public static func draw(
        tiles: [Tile], shape: TileShape, meter: Double? = nil, notches: (filled: Int, of: Int)? = nil
    ) -> RGBImage {
        var canvas = Canvas(width: width, height: height, ground: .ground)
        drawMark(&canvas, x: margin, y: 44, unit: 3)
        let frames = tileFrames(count: tiles.count, shape: shape, footer: meter != nil || notches != nil)
        for (number, (tile, frame)) in zip(tiles, frames).enumerated() {
            drawTile(tile, number: number, in: frame, on: &canvas)
        }
        if let meter {
            let barWidth = width - 2 * margin
            let y = height - 90
            canvas.fill(x: margin, y: y, width: barWidth, height: 24, .track)
            let filled = Int((Double(barWidth) * min(max(meter, 0), 1)).rounded())
            canvas.fill(x: margin, y: y, width: filled, height: 24, .gold)
        }
        if let notches {
            for index in 0..<max(notches.of, 0) {
                let x = width - margin - (notches.of - index) * 44 + 8
                let notchHeight = 20 + index * 14
                canvas.fill(
                    x: x, y: height - 60 - notchHeight, width: 30, height: notchHeight,
                    index < notches.filled ? .gold : .track)
            }
        }
        return RGBImage(width: width, height: height, pixels: canvas.pixels)
    }

    /// Where `draw` puts `count` tiles: in rows of at most `tilesPerRow`, as large as the room between the mark and the
    /// footer (a bar or notches, when there is one) allows, with gaps a fifth of a tile; every row starts where a full
    /// one would, so that the columns line up as a share line's squares do.
    public static func tileFrames(count: Int, shape: TileShape, footer: Bool) -> [Frame] {
        guard count > 0 else { return [] }
        let box = Frame(x: margin, y: 140, width: width - 2 * margin, height: (footer ? height - 130 : height - 70) - 140)
        let perRow = min(count, tilesPerRow)
        let rows = (count + tilesPerRow - 1) / tilesPerRow
        let aspect = shape == .poster ? 1.5 : 1.0
        let gapShare = 0.2
        // Tile width w: perRow * w + (perRow - 1) * gap <= box width; rows * w * aspect + (rows - 1) * gap <= height.
        let byWidth = Double(box.width) / (Double(perRow) + Double(perRow - 1) * gapShare)
        let byHeight = Double(box.height) / (Double(rows) * aspect + Double(rows - 1) * gapShare)
        let tileWidth = max(2, Int(min(byWidth, byHeight, 200).rounded(.down)))
        let tileHeight = Int((Double(tileWidth) * aspect).rounded())
        let gap = max(1, Int((Double(tileWidth) * gapShare).rounded()))
        let usedHeight = rows * tileHeight + (rows - 1) * gap
        let fullWidth = perRow * tileWidth + (perRow - 1) * gap
        let left = box.x + (box.width - fullWidth) / 2
        let top = box.y + (box.height - usedHeight) / 2
        return (0..<count).map { index in
            Frame(
                x: left + (index % tilesPerRow) * (tileWidth + gap), y: top + (index / tilesPerRow) * (tileHeight + gap),
                width: tileWidth, height: tileHeight)
        }
    }

    /// UQuiz's icon, a black poster (20 x 30 units) with three gold areas fading, framed so it shows on the ground.
    static func drawMark(_ canvas: inout Canvas, x: Int, y: Int, unit: Int) {
        canvas.fill(x: x - unit, y: y - unit, width: 22 * unit, height: 32 * unit, .track)
        canvas.fill(x: x, y: y, width: 20 * unit, height: 30 * unit, .black)
        for (column, row, strength) in [(3, 4, 1.0), (11, 14, 0.6), (5, 21, 0.3)] {
            canvas.fill(
                x: x + column * unit, y: y + row * unit, width: 5 * unit, height: 5 * unit,
                Colour.black.mixed(with: .gold, strength))
        }
    }

    static func drawTile(_ tile: Tile, number: Int, in frame: Frame, on canvas: inout Canvas) {
        let (x, y, width, height) = (frame.x, frame.y, frame.width, frame.height)
        canvas.fill(x: x, y: y, width: width, height: height, tile.fill)
        if tile.hollow {
            let border = max(3, width / 7)
            canvas.fill(x: x + border, y: y + border, width: width - 2 * border, height: height - 2 * border, .ground)
        }
        if let spot = tile.spot {
            // A fixed scatter (the same for every card), so that nothing is told by where the spot is; never the centre.
            let places: [(Double, Double)] = [(0.2, 0.18), (0.6, 0.6), (0.3, 0.7), (0.6, 0.25), (0.15, 0.55)]
            let place = places[number % places.count]
            let side = max(3, width / 4)
            canvas.fill(
                x: x + Int(Double(width) * place.0), y: y + Int(Double(height) * place.1), width: side, height: side, spot)
        }
    }
}

/// RGB pixels to draw rectangles on.
struct Canvas {
    let width: Int
    let height: Int
    var pixels: [UInt8]

    init(width: Int, height: Int, ground: CardPicture.Colour) {
        self.width = width
        self.height = height
        pixels = [UInt8](repeating: 0, count: width * height * 3)
        fill(x: 0, y: 0, width: width, height: height, ground)
    }

    /// Fills the rectangle, clipped to the canvas.
    mutating func fill(x: Int, y: Int, width rectWidth: Int, height rectHeight: Int, _ colour: CardPicture.Colour) {
        let left = max(0, x)
        let right = min(width, x + rectWidth)
        let top = max(0, y)
        let bottom = min(height, y + rectHeight)
        guard left < right, top < bottom else { return }
        let rowWidth = width
        pixels.withUnsafeMutableBufferPointer { buffer in
            for row in top..<bottom {
                var index = (row * rowWidth + left) * 3
                for _ in left..<right {
                    buffer[index] = colour.red
                    buffer[index + 1] = colour.green
                    buffer[index + 2] = colour.blue
                    index += 3
                }
            }
        }
    }
}

extension CellRaster.Colour {
    public init(_ red: UInt8, _ green: UInt8, _ blue: UInt8) { self.init(red: red, green: green, blue: blue) }

    /// The colour `fraction` (0...1) of the way from this one to `other`.
    public func mixed(with other: Self, _ fraction: Double) -> Self {
        let f = min(max(fraction, 0), 1)
        func mix(_ a: UInt8, _ b: UInt8) -> UInt8 { UInt8((Double(a) + (Double(b) - Double(a)) * f).rounded()) }
        return Self(mix(red, other.red), mix(green, other.green), mix(blue, other.blue))
    }

    /// The share card's ground, its bars' track, the UQuiz gold, and black.
    public static let ground = Self(18, 21, 27)
    public static let track = Self(44, 49, 59)
    public static let gold = Self(245, 197, 66)
    public static let black = Self(0, 0, 0)
}
