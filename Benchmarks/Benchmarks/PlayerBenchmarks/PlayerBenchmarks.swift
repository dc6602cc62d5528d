import Benchmark
import Foundation
import PosterArt
import PosterGrid

/// A real bundled poster: this file is Benchmarks/Benchmarks/PlayerBenchmarks/PlayerBenchmarks.swift.
let posterURL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Seed/posters/metropolis-1927.jpg")

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal], warmupIterations: 5, maxDuration: .seconds(5), maxIterations: 1000)

    // What the player does when the whole screen must be redrawn (a resize or a new quiz): fade the areas, lay out the
    // half-block picture for a 100 x 45 terminal, and write every character.
    Benchmark("full-frame render, 50x75 poster") { benchmark, raster in
        let areas = [Cell(row: 35, column: 9), Cell(row: 24, column: 38), Cell(row: 53, column: 26), Cell(row: 66, column: 14), Cell(row: 7, column: 22)]
        var canvas = TerminalCanvas(mode: .trueColour)
        for _ in benchmark.scaledIterations {
            canvas.invalidate()
            let cells = PosterFrame.cells(raster: raster, areas: areas, reveal: [1, 1, 0.5, 0, 0])
            let picture = HalfBlockPicture(cells: cells, geometry: .standard, maxWidth: 98, maxHeight: 39)
            blackHole(canvas.draw(picture))
        }
    } setup: {
        CellRaster(image: try JPEG.decode(try Data(contentsOf: posterURL)), geometry: .standard)
    }

    Benchmark("decode a w342 poster and sample it to the grid") { benchmark, jpeg in
        for _ in benchmark.scaledIterations {
            blackHole(CellRaster(image: try JPEG.decode(jpeg), geometry: .standard))
        }
    } setup: {
        try Data(contentsOf: posterURL)
    }
}
