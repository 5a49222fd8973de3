import ArgumentParser
import Foundation
import RollboardAnimation

/// `rollboard simulate KIND …`: prints an animation's frames as JSON lines, for previewing timings.
///
/// The kind and its options are parsed here rather than by the root command so that every bad
/// argument ends with a one-line message on stderr and exit status 2.
struct Simulate: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Print an animation's frames as JSON lines, one per frame until it comes to rest.",
        discussion: "KIND is odometer, counter, wheel, carousel, gauge, clock, leaderboard or chart; see `rollboard simulate KIND --help`."
    )

    @Argument(parsing: .captureForPassthrough, help: ArgumentHelp("The kind and its options.", valueName: "KIND …"))
    var arguments: [String] = []

    func run() throws {
        do {
            var command = try SimulateKind.parseAsRoot(arguments)
            try command.run()
        } catch let error as AnimationError {
            try Self.fail(error.message)
        } catch {
            if SimulateKind.exitCode(for: error) == .success {
                print(SimulateKind.fullMessage(for: error))
                return
            }
            try Self.fail(SimulateKind.message(for: error))
        }
    }

    /// Writes the first line of `message` to stderr and exits with status 2.
    static func fail(_ message: String) throws -> Never {
        let line = message.split(separator: "\n", omittingEmptySubsequences: true).first.map(String.init) ?? "invalid arguments"
        FileHandle.standardError.write(Data("rollboard simulate: \(line)\n".utf8))
        throw ExitCode(2)
    }
}
