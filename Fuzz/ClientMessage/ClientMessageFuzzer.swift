// libFuzzer entry point for the messages screens send (ClientMessage), built by Fuzz/run-json.sh together with the
// JSON sources of the server's layers, so it can use their internal types.

/// Parses the input as a screen's text message; traps when the same text parses differently twice, when an `fps`
/// value lies outside 1…60, or when a carousel `goto` has no page or a negative one.
@_cdecl("LLVMFuzzerTestOneInput")
public func clientMessageFuzzerTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let first = ClientMessage.parse(text)
    guard first == ClientMessage.parse(text) else { fatalError("parsing is not deterministic: \(text)") }
    switch first {
    case .success(.fps(let value)):
        guard (1...60).contains(value) else { fatalError("fps \(value) accepted: \(text)") }
    case .success(.carousel(_, let action, let page)):
        if action == .goto {
            guard let page, page >= 0 else { fatalError("goto without a valid page accepted: \(text)") }
        } else if page != nil {
            fatalError("a page kept for \(action): \(text)")
        }
    case .success, .failure:
        break
    }
    return 0
}
