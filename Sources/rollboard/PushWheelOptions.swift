import ArgumentParser
import RollboardNet

/// `--wheel ID` with exactly one target: `--label`, `--index` or `--progress`.
struct PushWheelOptions: ParsableArguments {
    @Option(name: .customLong("wheel"), help: ArgumentHelp("Move this wheel, e.g. status.", valueName: "id"))
    var id: String?

    @Option(help: "Rest on this label (one of the wheel's contents, case-sensitive).")
    var label: String?

    @Option(help: "Rest on the label at this index (0-based).")
    var index: Int?

    @Option(help: "Rest on the label whose band holds this progress (0 to 1).")
    var progress: Double?

    func validate() throws {
        try ValidationError.checkExactlyOne(
            targets.map(\.option), of: "--label, --index or --progress", for: "--wheel", id: id)
        if let progress, !progress.isFinite {
            throw ValidationError("--progress must be a number from 0 to 1, not \(progress)")
        }
    }

    /// `POST /api/v1/wheels/{id}` with the target given, or `nil` without `--wheel`.
    func request() -> PushRequest? {
        guard let id else { return nil }
        let members = targets.map(\.member).joined(separator: ",")
        return PushRequest(collection: "wheels", id: id, body: Array("{\(members)}".utf8))
    }

    /// The targets given: each option's name and its member of the request body.
    private var targets: [(option: String, member: String)] {
        [
            label.map { ("--label", "\"label\":\(JSONText.quoted($0))") },
            index.map { ("--index", "\"index\":\($0)") },
            progress.map { ("--progress", "\"progress\":\($0)") },
        ].compactMap(\.self)
    }
}
