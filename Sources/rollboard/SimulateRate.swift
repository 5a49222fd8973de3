import ArgumentParser
import RollboardConfig
import RollboardHub

/// `--fps`, shared by every `rollboard simulate` kind: frames per second, by default the server's for a screen that
/// does not ask.
struct SimulateRate: ParsableArguments {
    @Option(help: "Frames per second.")
    var fps = Double(ServerSettings.Limits.Defaults.defaultFPS)

    func validate() throws {
        try SimulateOutput.validate(fps: fps)
    }
}
