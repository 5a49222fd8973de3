import ArgumentParser
import Foundation

/// `rollboard push`: posts a metric value, a wheel target, a carousel command, a text or a batch of values, for scripts
/// and cron jobs.
///
/// The arguments are parsed here by ``PushCommand`` rather than by the root command so that every bad argument —
/// refused by the parser, by a check across options, or found while reading a batch file — ends with one line on
/// stderr and exit status 2 (nothing was sent), as `simulate`'s do. A server that refuses the write or cannot be
/// reached ends it with status 1.
struct Push: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Post a metric value, a wheel target, a carousel command, a text or a batch of values to a running server.",
        discussion: "See `rollboard push --help` for every option."
    )

    @Argument(
        parsing: .captureForPassthrough,
        help: ArgumentHelp(
            "What to push, and where.", valueName: "ID VALUE | --wheel ID … | --carousel ID … | --text ID … | --batch FILE"))
    var arguments: [String] = []

    func run() throws {
        var command: any ParsableCommand
        do {
            command = try PushCommand.parseAsRoot(arguments)
        } catch {
            if PushCommand.exitCode(for: error) == .success {
                print(PushCommand.fullMessage(for: error))
                return
            }
            try Self.fail(PushCommand.message(for: error))
        }
        do {
            try command.run()
        } catch let error as ValidationError {
            try Self.fail(error.message)
        }
    }

    /// Writes the first line of `message` to stderr and exits with status 2.
    private static func fail(_ message: String) throws -> Never {
        let line = message.split(separator: "\n", omittingEmptySubsequences: true).first.map(String.init) ?? "invalid arguments"
        FileHandle.standardError.write(Data("rollboard push: \(line)\n".utf8))
        throw ExitCode(2)
    }
}
