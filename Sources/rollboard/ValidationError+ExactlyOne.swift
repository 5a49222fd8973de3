import ArgumentParser

extension ValidationError {
    /// Checks the options of a `--NAME ID` group (`option` is `--NAME`): without the id none of them may be given
    /// (`given` names those that were), with it exactly one of `choices`.
    static func checkExactlyOne(_ given: [String], of choices: String, for option: String, id: String?) throws {
        guard id != nil else {
            if let first = given.first { throw ValidationError("\(first) needs \(option) ID") }
            return
        }
        guard given.count == 1 else {
            throw ValidationError(
                "give \(option) one of \(choices)" + (given.isEmpty ? "" : ", not \(given.joined(separator: " and "))"))
        }
    }
}
