import Foundation

/// A fresh folder under the system's temporary folder, removed by `remove()`.
struct TemporaryDirectory {
    let path: String

    init() {
        var template = Array((NSTemporaryDirectory() + "/rollboard-test-XXXXXX").utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        precondition(made != nil, "mkdtemp failed")
        path = String(cString: template.withUnsafeBufferPointer { $0.baseAddress! })
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }

    func read(_ name: String) throws -> [UInt8] {
        try Array(Data(contentsOf: URL(fileURLWithPath: path + "/" + name)))
    }

    func write(_ name: String, _ bytes: [UInt8]) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: path + "/" + name))
    }

    func files(_ subfolder: String) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: path + "/" + subfolder))?.sorted() ?? []
    }
}
