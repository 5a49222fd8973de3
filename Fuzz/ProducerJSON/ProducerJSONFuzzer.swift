// libFuzzer entry point for the producer API's JSON parser (JSONParser), built by Fuzz/run-json.sh together with
// the JSON sources of the server's layers, so it can use their internal types.

/// Parses the input; traps when a document that parsed does not come back the same after serializing and parsing
/// again, when serializing is not stable, or when an error's offset lies outside the input.
@_cdecl("LLVMFuzzerTestOneInput")
public func producerJSONFuzzerTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    do {
        let value = try JSONParser.parse(bytes)
        let text = value.serialized
        let again: JSONValue
        do {
            again = try JSONParser.parse(Array(text.utf8))
        } catch {
            fatalError("the serialized form of a parsed document does not parse: \(error) in \(text)")
        }
        guard again == value else { fatalError("round trip changed the document: \(text)") }
        guard again.serialized == text else { fatalError("serializing is not stable: \(text)") }
    } catch {
        guard (0...size).contains(error.offset) else { fatalError("error offset \(error.offset) outside 0...\(size)") }
    }
    return 0
}
