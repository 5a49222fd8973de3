/// Runs `before` against a live server on a fresh data folder, stops it, and runs `after` against a new server on
/// the same data, as a restart finds it; the folder is removed afterwards.
func withRestartedLiveServer(before: (LiveServer) throws -> Void, after: (LiveServer) throws -> Void) throws {
    let folder = TemporaryDirectory()
    defer { folder.remove() }
    do {
        let live = try LiveServer(dataDirectory: folder.path)
        defer { live.stop() }
        try before(live)
    }
    let restarted = try LiveServer(dataDirectory: folder.path)
    defer { restarted.stop() }
    try after(restarted)
}
