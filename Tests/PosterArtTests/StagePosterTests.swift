import Foundation
import PosterArt
import PosterGrid
import Testing

/// Metropolis as the bundled silent packages play it: its five areas, stage by stage.
let metropolisAreas = [
    Cell(row: 35, column: 9), Cell(row: 24, column: 38), Cell(row: 53, column: 26), Cell(row: 66, column: 14),
    Cell(row: 7, column: 22),
]

func seedPoster(_ name: String) throws -> Data { try Data(contentsOf: seedPosters.appendingPathComponent(name)) }

/// Whether each pixel lies in a cell of the blocks around `revealed`, found cell by cell through `CellPixels`.
func revealedPixels(width: Int, height: Int, geometry: GridGeometry, revealed: [Cell]) -> [Bool] {
    let map = CellPixels(geometry: geometry, width: width, height: height)
    var shown = [Bool](repeating: false, count: width * height)
    for cell in Set(revealed.flatMap(geometry.block(around:))) {
        for y in map.pixelRows(ofRow: cell.row) { for x in map.pixelColumns(ofColumn: cell.column) { shown[y * width + x] = true } }
    }
    return shown
}

/// Counts of revealed pixels over any rectangle, in constant time (a summed-area table).
struct RevealedSums {
    let width: Int
    let height: Int
    private var table: [Int]

    init(_ shown: [Bool], width: Int, height: Int) {
        self.width = width
        self.height = height
        table = [Int](repeating: 0, count: (width + 1) * (height + 1))
        for y in 0..<height {
            var row = 0
            for x in 0..<width {
                row += shown[y * width + x] ? 1 : 0
                table[(y + 1) * (width + 1) + x + 1] = table[y * (width + 1) + x + 1] + row
            }
        }
    }

    /// Revealed pixels in the square of `radius` around pixel `index` (the part of it on the image).
    func count(around index: Int, radius: Int) -> Int {
        let (x, y) = (index % width, index / width)
        let (left, right) = (max(0, x - radius), min(width, x + radius + 1))
        let (top, bottom) = (max(0, y - radius), min(height, y + radius + 1))
        return table[bottom * (width + 1) + right] - table[top * (width + 1) + right]
            - table[bottom * (width + 1) + left] + table[top * (width + 1) + left]
    }

    /// No revealed pixel within `radius` pixels (along rows or columns) of this one.
    func isFar(_ index: Int, radius: Int) -> Bool { count(around: index, radius: radius) == 0 }

    /// Every pixel within `radius` of this one is revealed, none of them off the image.
    func isDeepInside(_ index: Int, radius: Int) -> Bool {
        count(around: index, radius: radius) == (2 * radius + 1) * (2 * radius + 1)
    }
}

func brightest(_ image: RGBImage, at index: Int) -> UInt8 {
    max(image.pixels[index * 3], image.pixels[index * 3 + 1], image.pixels[index * 3 + 2])
}

@Suite("Stage posters")
struct StagePosterTests {
    /// JPEG noise allowed on a black pixel.
    static let nearBlack: UInt8 = 16

    @Test(arguments: [(343, 517), (342, 513), (100, 150), (101, 149)])
    func theMaskKeepsExactlyTheRevealedCellsPixels(width: Int, height: Int) {
        let image = halfNoise(width: width, height: height, seed: UInt64(width))
        // Three areas: one touching the grid's left edge, one its bottom right corner (a margin-0 grid reaches them), one
        // in the middle.
        let geometry = try! GridGeometry(columns: 50, rows: 75, areaSize: 5, margin: 0)
        let revealed = [Cell(row: 10, column: 2), Cell(row: 72, column: 47), Cell(row: 30, column: 30)]
        let masked = StagePoster.mask(image, geometry: geometry, revealed: revealed)
        let shown = revealedPixels(width: width, height: height, geometry: geometry, revealed: revealed)
        #expect(masked.width == width && masked.height == height)
        var wrong = 0
        for index in 0..<width * height {
            let original = image.pixels[index * 3..<index * 3 + 3]
            let result = masked.pixels[index * 3..<index * 3 + 3]
            if shown[index] ? result != original : result != [0, 0, 0] { wrong += 1 }
        }
        #expect(wrong == 0)
        #expect(shown.filter { $0 }.count >= 3 * 25 * 4, "three blocks of 25 cells, each at least 2 x 2 pixels")
        // The corner block reaches the image's last pixel row and column.
        #expect(shown[width * height - 1])
    }

    @Test func noAreaMasksEverythingAndEveryAreaUnmasksItsBlocks() {
        let image = halfNoise(width: 342, height: 513)
        #expect(StagePoster.mask(image, geometry: .standard, revealed: []).pixels.allSatisfy { $0 == 0 })
        let all = StagePoster.mask(image, geometry: .standard, revealed: metropolisAreas)
        let shown = revealedPixels(width: 342, height: 513, geometry: .standard, revealed: metropolisAreas)
        #expect(shown.filter { $0 }.count >= 5 * 25 * 36, "five blocks of 25 cells of 6 x 6 pixels or more")
        #expect((0..<shown.count).allSatisfy { index in
            shown[index] ? all.pixels[index * 3..<index * 3 + 3] == image.pixels[index * 3..<index * 3 + 3]
                : all.pixels[index * 3..<index * 3 + 3] == [0, 0, 0]
        })
    }

    @Test func stageOneShowsItsAreaAndNothingElse() throws {
        let jpeg = try seedPoster("metropolis-1927.jpg")
        let original = try JPEG.decode(jpeg)
        let cut = try JPEG.decode(try StagePoster.cut(jpeg: jpeg, geometry: .standard, revealed: [metropolisAreas[0]]))
        #expect(cut.width == 342 && cut.height == 513)
        let shown = revealedPixels(width: 342, height: 513, geometry: .standard, revealed: [metropolisAreas[0]])
        let sums = RevealedSums(shown, width: 342, height: 513)

        // Outside the area: black, but for the faint ringing JPEG's 8 x 8 blocks spread from the area's edge (measured on
        // the bundled posters: up to 29 within 4 pixels of it, at most 12 from 6 pixels on, 0 from 16 on).
        let far = (0..<shown.count).filter { sums.isFar($0, radius: 8) }
        #expect(far.count > 342 * 513 * 9 / 10)
        let leaks = far.filter { brightest(cut, at: $0) > Self.nearBlack }
        #expect(leaks.isEmpty, "\(leaks.count) pixels lit outside stage 1's area, first at \(leaks.first.map { ($0 % 342, $0 / 342) } as Any)")

        // Inside later stages' areas: black to the last pixel.
        let later = revealedPixels(width: 342, height: 513, geometry: .standard, revealed: Array(metropolisAreas[1...]))
        let laterPixels = (0..<shown.count).filter { later[$0] }
        #expect(laterPixels.count >= 4 * 25 * 36)
        #expect(laterPixels.allSatisfy { brightest(cut, at: $0) <= Self.nearBlack })
        #expect(laterPixels.contains { brightest(original, at: $0) > 64 }, "the later areas are not black in the poster")

        // Well inside the area: the poster's own pixels, within JPEG's tolerance.
        let inner = (0..<shown.count).filter { sums.isDeepInside($0, radius: 5) }
        #expect(inner.count > 500)
        var totalDifference = 0
        var worst = 0
        for index in inner {
            for channel in 0..<3 {
                let difference = abs(Int(cut.pixels[index * 3 + channel]) - Int(original.pixels[index * 3 + channel]))
                totalDifference += difference
                worst = max(worst, difference)
            }
        }
        #expect(Double(totalDifference) / Double(inner.count * 3) < 4, "mean difference")
        #expect(worst < 64)
        let lit = (original: inner.filter { brightest(original, at: $0) > 32 }.count, cut: inner.filter { brightest(cut, at: $0) > 32 }.count)
        #expect(lit.original > inner.count / 4, "the area is not black in the poster")
        #expect(abs(lit.cut - lit.original) < inner.count / 50, "and shows as much in the cut")
    }

    @Test func stageZeroIsBlackAndTheLastStageShowsEveryArea() throws {
        let jpeg = try seedPoster("nosferatu-1922.jpg")
        let original = try JPEG.decode(jpeg)
        let none = try JPEG.decode(try StagePoster.cut(jpeg: jpeg, geometry: .standard, revealed: []))
        #expect(none.width == original.width && none.height == original.height)
        #expect(none.pixels.allSatisfy { $0 <= Self.nearBlack })

        let areas = [Cell(row: 27, column: 24), Cell(row: 41, column: 12), Cell(row: 64, column: 32), Cell(row: 50, column: 16), Cell(row: 10, column: 34)]
        let all = try JPEG.decode(try StagePoster.cut(jpeg: jpeg, geometry: .standard, revealed: areas))
        let shown = revealedPixels(width: original.width, height: original.height, geometry: .standard, revealed: areas)
        let sums = RevealedSums(shown, width: original.width, height: original.height)
        for (index, area) in areas.enumerated() {
            let block = revealedPixels(width: original.width, height: original.height, geometry: .standard, revealed: [area])
            let blockSums = RevealedSums(block, width: original.width, height: original.height)
            let inner = (0..<block.count).filter { blockSums.isDeepInside($0, radius: 5) }
            let meanDifference = inner.reduce(0) { total, pixel in
                total + (0..<3).reduce(0) { $0 + abs(Int(all.pixels[pixel * 3 + $1]) - Int(original.pixels[pixel * 3 + $1])) }
            }
            #expect(Double(meanDifference) / Double(inner.count * 3) < 4, "area \(index + 1) shows the poster")
        }
        #expect((0..<shown.count).allSatisfy { !sums.isFar($0, radius: 8) || brightest(all, at: $0) <= Self.nearBlack })
    }

    @Test func everyBundledPosterCuts() throws {
        for file in try FileManager.default.contentsOfDirectory(atPath: seedPosters.path).filter({ $0.hasSuffix(".jpg") }) {
            let jpeg = try seedPoster(file)
            var previous = -1
            for stage in [0, 1, metropolisAreas.count] {
                let cut = try JPEG.decode(
                    try StagePoster.cut(jpeg: jpeg, geometry: .standard, revealed: Array(metropolisAreas.prefix(stage))))
                #expect(cut.width == 342 && cut.height == 513, "\(file)")
                let lit = stride(from: 0, to: cut.pixels.count, by: 5).reduce(0) { $0 + Int(cut.pixels[$1]) }
                #expect(lit > previous, "\(file): stage \(stage) shows more than the stage before")
                previous = lit
            }
        }
    }

    @Test func anOversizedHeaderIsRefusedBeforeDecoding() throws {
        let jpeg = try seedPoster("metropolis-1927.jpg")
        let size = try JPEG.size(of: jpeg)
        #expect(size.width == 342 && size.height == 513)
        for (width, height) in [(4097, 6144), (4096, 6145), (65000, 65000)] {
            let claimed = withHeaderSize(jpeg, width: width, height: height)
            let size = try JPEG.size(of: claimed)
            #expect(size.width == width && size.height == height)
            // 65000 x 65000 would be a 12 GB buffer: refused from the header, nothing is allocated or decoded.
            #expect(throws: PosterArtError.tooLarge(width: width, height: height, maxWidth: 4096, maxHeight: 6144)) {
                try StagePoster.cut(jpeg: claimed, geometry: .standard, revealed: [metropolisAreas[0]])
            }
        }
    }

    @Test func bytesThatAreNotAJPEGGiveTheTypedError() {
        let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + [UInt8](repeating: 7, count: 100))
        var generator = AreaLayout.SeededGenerator(seed: 9)
        let noise = Data((0..<5000).map { _ in UInt8.random(in: 0...255, using: &generator) })
        for garbage in [Data(), Data("<html>not found</html>".utf8), png, noise, Data([0xFF, 0xD8, 0xFF])] {
            do {
                _ = try StagePoster.cut(jpeg: garbage, geometry: .standard, revealed: metropolisAreas)
                Issue.record("\(garbage.count) garbage bytes were cut")
            } catch {
                guard case .notAJPEG = error else {
                    Issue.record("\(error)")
                    continue
                }
            }
        }
    }

    @Test func theCutCarriesNoneOfTheSourcesMetadata() throws {
        let jpeg = try seedPoster("metropolis-1927.jpg")
        let secret = Data("the answer is Metropolis".utf8)
        // A comment segment (COM) right after the start of image.
        let length = secret.count + 2
        let commented = jpeg.prefix(2) + Data([0xFF, 0xFE, UInt8(length >> 8), UInt8(length & 0xFF)]) + secret + jpeg.dropFirst(2)
        #expect(try JPEG.decode(commented).width == 342)
        let cut = try StagePoster.cut(jpeg: commented, geometry: .standard, revealed: metropolisAreas)
        #expect(cut.range(of: secret) == nil)
        #expect(cut.range(of: Data("Metropolis".utf8)) == nil)
    }

    @Test func qualityOutsideTheRangeIsRefused() throws {
        let jpeg = try seedPoster("metropolis-1927.jpg")
        #expect(throws: PosterArtError.invalidQuality(0)) {
            try StagePoster.cut(jpeg: jpeg, geometry: .standard, revealed: [], quality: 0)
        }
        let low = try StagePoster.cut(jpeg: jpeg, geometry: .standard, revealed: metropolisAreas, quality: 30)
        let high = try StagePoster.cut(jpeg: jpeg, geometry: .standard, revealed: metropolisAreas, quality: 95)
        #expect(low.count < high.count)
    }
}
