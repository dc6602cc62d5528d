import Foundation
import PosterArt
import PosterGrid
import Testing

let seedPosters = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Seed/posters")

/// An image whose left half is flat grey and right half is noise: detail lives on the right.
func halfNoise(width: Int = 100, height: Int = 150, seed: UInt64 = 1) -> RGBImage {
    var generator = AreaLayout.SeededGenerator(seed: seed)
    var pixels: [UInt8] = []
    for _ in 0..<height {
        for x in 0..<width {
            if x < width / 2 {
                pixels += [128, 128, 128]
            } else {
                let value = UInt8.random(in: 0...255, using: &generator)
                pixels += [value, value, value]
            }
        }
    }
    return RGBImage(width: width, height: height, pixels: pixels)
}

/// `jpeg` with its frame header (SOF) saying `width` x `height`, the rest untouched.
func withHeaderSize(_ jpeg: Data, width: Int, height: Int) -> Data {
    var bytes = [UInt8](jpeg)
    var offset = 2
    while offset + 9 < bytes.count, bytes[offset] == 0xFF {
        let marker = bytes[offset + 1]
        if (0xC0...0xCF).contains(marker) && ![0xC4, 0xC8, 0xCC].contains(marker) {
            bytes[offset + 5] = UInt8(height >> 8)
            bytes[offset + 6] = UInt8(height & 0xFF)
            bytes[offset + 7] = UInt8(width >> 8)
            bytes[offset + 8] = UInt8(width & 0xFF)
            return Data(bytes)
        }
        offset += 2 + Int(bytes[offset + 2]) << 8 + Int(bytes[offset + 3])
    }
    Issue.record("no frame header found")
    return jpeg
}

@Suite("Poster pixels")
struct PosterArtTests {
    @Test func everyBundledPosterDecodesAtW342Size() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: seedPosters.path).filter { $0.hasSuffix(".jpg") }
        #expect(files.count == 25)
        for file in files {
            let image = try JPEG.decode(try Data(contentsOf: seedPosters.appendingPathComponent(file)))
            #expect(image.width == 342 && image.height == 513, "\(file)")
            let raster = CellRaster(image: image, geometry: .standard)
            #expect(raster.colours.count == 3750)
            #expect(raster.variation.contains { $0 > 10 }, "\(file) has some detail")
        }
    }

    @Test func bytesThatAreNotAJPEGAreRefused() {
        #expect(throws: PosterArtError.self) { try JPEG.decode(Data("<html>not found</html>".utf8)) }
        #expect(throws: PosterArtError.self) { try JPEG.decode(Data()) }
    }

    @Test func aTruncatedJPEGNeitherCrashesNorHangs() throws {
        let data = try Data(contentsOf: seedPosters.appendingPathComponent("metropolis-1927.jpg"))
        for fraction in [0.1, 0.5, 0.9] {
            let cut = data.prefix(Int(Double(data.count) * fraction))
            if let image = try? JPEG.decode(cut) { #expect(image.width == 342) }
        }
    }

    @Test func encodingAndDecodingKeepSizeAndColour() throws {
        let red = RGBImage(width: 40, height: 60, pixels: Array(repeating: [200, 30, 30], count: 2400).flatMap { $0 })
        let decoded = try JPEG.decode(try JPEG.encode(red, quality: 95))
        #expect(decoded.width == 40 && decoded.height == 60)
        #expect(abs(Int(decoded.pixels[0]) - 200) < 6 && abs(Int(decoded.pixels[1]) - 30) < 6)
    }

    @Test func theHeaderGivesTheSizeAndTooLargeIsRefusedBeforeDecoding() throws {
        let jpeg = try Data(contentsOf: seedPosters.appendingPathComponent("metropolis-1927.jpg"))
        let size = try JPEG.size(of: jpeg)
        #expect(size.width == 342 && size.height == 513)
        #expect(throws: PosterArtError.tooLarge(width: 342, height: 513, maxWidth: 341, maxHeight: 600)) {
            try JPEG.decode(jpeg, maxWidth: 341, maxHeight: 600)
        }
        #expect(try JPEG.decode(jpeg, maxWidth: 342, maxHeight: 513).height == 513)
        // A header claiming 65000 x 65000 pixels (a 12 GB buffer) is refused from the header: nothing is allocated.
        let claimed = withHeaderSize(jpeg, width: 65000, height: 65000)
        let claimedSize = try JPEG.size(of: claimed)
        #expect(claimedSize.width == 65000 && claimedSize.height == 65000)
        #expect(throws: PosterArtError.tooLarge(width: 65000, height: 65000, maxWidth: 8000, maxHeight: 8000)) {
            try JPEG.decode(claimed)
        }
        #expect(throws: PosterArtError.self) { try JPEG.size(of: Data("GIF89a".utf8)) }
    }

    @Test func encodingRefusesAQualityOutsideTheRangeAndAnEmptyImage() {
        #expect(throws: PosterArtError.invalidQuality(0)) { try JPEG.encode(halfNoise(), quality: 0) }
        #expect(throws: PosterArtError.invalidQuality(101)) { try JPEG.encode(halfNoise(), quality: 101) }
        #expect(throws: PosterArtError.self) { try JPEG.encode(RGBImage(width: 0, height: 0, pixels: [])) }
        #expect((try? JPEG.encode(halfNoise(), quality: 1)) != nil)
        #expect((try? JPEG.encode(halfNoise(), quality: 100)) != nil)
    }

    @Test func areaAveragingGivesEachCellItsPixelsMean() {
        // 2 x 2 pixels a cell: left half red, right half blue, one cell of alternating black and white.
        var pixels: [UInt8] = []
        for y in 0..<150 {
            for x in 0..<100 {
                if (y / 2, x / 2) == (10, 10) {
                    pixels += (x + y) % 2 == 0 ? [0, 0, 0] : [255, 255, 255]
                } else {
                    pixels += x < 50 ? [255, 0, 0] : [0, 0, 255]
                }
            }
        }
        let raster = CellRaster(image: RGBImage(width: 100, height: 150, pixels: pixels), geometry: .standard)
        #expect(raster.colour(at: Cell(row: 0, column: 0)) == .init(red: 255, green: 0, blue: 0))
        #expect(raster.colour(at: Cell(row: 74, column: 49)) == .init(red: 0, green: 0, blue: 255))
        #expect(raster.colour(at: Cell(row: 10, column: 10)) == .init(red: 127, green: 127, blue: 127))
        #expect(raster.variation[10 * 50 + 10] > 120, "black and white pixels vary most")
        #expect(raster.variation[0] == 0)
    }

    @Test func detailIsHigherWhereThePosterIsBusyAndLeadsAutomaticAreas() {
        let raster = CellRaster(image: halfNoise(), geometry: .standard)
        #expect(raster.detail(ofAreaAround: Cell(row: 30, column: 40)) > 0.5)
        #expect(raster.detail(ofAreaAround: Cell(row: 30, column: 10)) == 0)
        var onTheBusySide = 0
        for seed in UInt64(0)..<50 {
            let cells = AreaLayout.spreadOut(count: 3, geometry: .standard, seed: seed) { raster.detail(ofAreaAround: $0) }
            onTheBusySide += cells.filter { $0.column >= 27 }.count
        }
        #expect(onTheBusySide >= 110, "\(onTheBusySide) of 150 areas on the detailed half")
    }
}
