/// One key and value of a JSON object.
struct JSONMember: Equatable {
    var key: String
    var value: JSONValue

    init(_ key: String, _ value: JSONValue) {
        self.key = key
        self.value = value
    }
}
