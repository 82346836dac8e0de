@_spi(Benchmarks) import CatalogCLI
import Foundation

// browse-bench: `catalog browse` on a big catalog, driven through its screen model with scripted
// keystrokes (CatalogCLI's `ScriptedBrowse`: the model, its effects carried out against the database
// file, a fake clock for the debounce). See ../../README.md, "browse".
//
//   browse-bench --database PATH [--repetitions N] [--columns C] [--lines L]
//
// Times, per repetition:
// - first screen: open the store, fetch the first request (section counts, the first rows) and render
//   the screen, as `catalog browse` does before anything else;
// - keystroke: for each character of the typing scripts, the debounce timer firing (every key is
//   searched: the worst case, a user pausing after each one) until the new screen is rendered, and
//   its parts (`BrowseTimes`): the controller's fetch (section counts and, for a search, its first
//   batch), browse's own reading (placing the result, the rows around the selection), the screen
//   model's updates, rendering; and the completions read when the key is typed (before the debounce
//   delay, so not part of the keystroke's time);
// - tracking: starting to track changes to that result afterwards (the driver does it once the screen
//   is drawn; typing does not wait for it): nothing to read after a search read in one pass, the
//   whole result's ids otherwise, which the next fetch cancels in the terminal driver;
// - keystroke on the driver's path (`ScriptedWorker`: the terminal driver's worker, a task per fetch
//   on the pool's readers): each text of the typing scripts searched 10 ms after the previous result
//   arrived, while that result's tracking reads its ids, until the new result arrives; and how long
//   the cancelled task (the tracking, its statement interrupted) took to end.

struct Options {
    var database = ""
    var repetitions = 3
    var columns = 80
    var lines = 24

    init(_ arguments: [String]) throws {
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            guard let value = rest.popFirst() else { throw UsageError(message: "\(argument) needs a value") }
            switch argument {
            case "--database": database = value
            case "--repetitions": repetitions = Int(value) ?? 3
            case "--columns": columns = Int(value) ?? 80
            case "--lines": lines = Int(value) ?? 24
            default: throw UsageError(message: "unknown option \(argument)")
            }
        }
        if database.isEmpty { throw UsageError(message: "usage: browse-bench --database PATH [--repetitions N]") }
    }
}

struct UsageError: Error {
    let message: String
}

struct SearchFailed: Error, CustomStringConvertible {
    let text: String
    var description: String { "the search of \"\(text)\" failed" }
}

/// How long the tracking of a result runs before the next search asks for its cancellation, on the
/// driver's path: long enough for its read of the result's ids to be under way.
let trackingHeadStart = Duration.milliseconds(10)

/// What a person types: words of the synthetic catalog's names (brands, models, editions), Japanese,
/// half-width kana, accents, a number, and a search that finds nothing.
let scripts = ["mac pro", "iphone max 2", "東京タワー", "ｶﾒﾗ", "cafe", "zenith duo", "straße", "halo 2008", "xyz"]

func milliseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
}

func percentile(_ values: [Double], _ fraction: Double) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return 0 }
    return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * fraction).rounded(.up)))]
}

/// A keystroke's time and its parts, in milliseconds.
struct Keystroke {
    var typed: String
    var total: Double
    var controllerFetch: Double
    var rows: Double
    var model: Double
    var render: Double

    var parts: String {
        String(format: "fetch %.1f, rows %.1f, model %.2f, render %.2f", controllerFetch, rows, model, render)
    }
}

func report(_ name: String, _ values: [Double]) {
    print(String(
        format: "| %@ | %d | %.2f ms | %.2f ms | %.2f ms |", name, values.count, percentile(values, 0.5),
        percentile(values, 0.99), values.max() ?? 0))
}

do {
    let options = try Options(Array(CommandLine.arguments.dropFirst()))
    let clock = ContinuousClock()
    var firstScreens: [Double] = []
    var keystrokes: [Keystroke] = []
    var suggestions: [Double] = []
    var trackings: [Double] = []
    var workerKeystrokes: [Double] = []
    var cancelledEnds: [Double] = []
    for _ in 0..<options.repetitions {
        var screen: ScriptedBrowse?
        var lines: [String] = []
        firstScreens.append(milliseconds(clock.measure {
            screen = try? ScriptedBrowse(databasePath: options.database, columns: options.columns, lines: options.lines)
            lines = screen?.screen ?? []
        }))
        guard let screen, lines.count == options.lines else { throw UsageError(message: "cannot open \(options.database)") }
        trackings.append(milliseconds(clock.measure { screen.settle() }))
        for script in scripts {
            var typed = ""
            for character in script {
                typed.append(character)
                screen.times = BrowseTimes()
                screen.type(String(character), tracking: false)
                suggestions.append(milliseconds(screen.times.suggestions))
                screen.times = BrowseTimes()
                let start = clock.now
                screen.elapse(tracking: false)
                let rendering = clock.now
                lines = screen.screen
                let end = clock.now
                let times = screen.times
                keystrokes.append(Keystroke(
                    typed: typed, total: milliseconds(end - start), controllerFetch: milliseconds(times.controllerFetch),
                    rows: milliseconds(times.rows), model: milliseconds(times.model), render: milliseconds(end - rendering)))
                trackings.append(milliseconds(clock.measure { screen.settle() }))
            }
            screen.clearField()
        }

        let worker = try ScriptedWorker(databasePath: options.database, lines: options.lines)
        // Each script typed key by key, then the field cleared.
        let texts: [String] = scripts.flatMap { script in script.indices.map { String(script[...$0]) } + [""] }
        for text in texts {
            try await Task.sleep(for: trackingHeadStart)
            let timing = await worker.search(text)
            guard let answered = timing.answered else { throw SearchFailed(text: text) }
            if !text.isEmpty { workerKeystrokes.append(milliseconds(answered)) }
            if let ended = timing.previousEnded { cancelledEnds.append(milliseconds(ended)) }
        }
        await worker.settle()
    }
    print("| What | samples | median | p99 | max |")
    print("| --- | --- | --- | --- | --- |")
    report("first screen (open, fetch, first rows, render)", firstScreens)
    report("keystroke: debounce fired → new results rendered", keystrokes.map(\.total))
    report("start tracking the result (after it is drawn)", trackings)
    report("keystroke on the driver's path: search asked → result arrived", workerKeystrokes)
    report("the search before, cancelled: search asked → its task ended", cancelledEnds)
    print("\n| Part of a keystroke | samples | median | p99 | max |")
    print("| --- | --- | --- | --- | --- |")
    report("the controller's fetch (section counts, a search's first batch)", keystrokes.map(\.controllerFetch))
    report("browse's reading (placing the result, the rows around the selection)", keystrokes.map(\.rows))
    report("the screen model's updates", keystrokes.map(\.model))
    report("rendering the screen", keystrokes.map(\.render))
    report("completions (read as the key is typed, before the debounce delay)", suggestions)
    print("\nslowest keystrokes:")
    for keystroke in keystrokes.sorted(by: { $0.total > $1.total }).prefix(8) {
        print(String(format: "- %@ %.1f ms (%@)", keystroke.typed, keystroke.total, keystroke.parts))
    }
} catch let error as UsageError {
    FileHandle.standardError.write(Data("browse-bench: \(error.message)\n".utf8))
    exit(64)
} catch {
    FileHandle.standardError.write(Data("browse-bench: \(error)\n".utf8))
    exit(1)
}
