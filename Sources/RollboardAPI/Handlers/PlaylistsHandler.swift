import Dispatch
import Logging
package import RollboardAccess
package import RollboardConfig
package import RollboardCore
package import RollboardHub
import RollboardNet
package import RollboardRedisLog
package import RollboardSources
package import RollboardStore
import Synchronization

/// `/api/v1/admin/playlists` and `/api/v1/admin/playlists/{id}/{hold|resume|show|announce|reload}`: the playlists'
/// state, and commands that go through the change log so that every node's screens follow; a command is answered
/// with the playlist's state once this node has applied it.
struct PlaylistsHandler: Sendable {
    let store: any ChangeLog
    let directory: DashboardDirectory?
    let screens: ScreensHandler
    let logger: Logger

    /// 404 unless playlist `:id` is configured.
    func requirePlaylist(_ context: RequestContext) throws(APIError) {
        _ = try playlist(context)
    }

    func hold(_ context: RequestContext, _ respond: @escaping Respond) throws(APIError) {
        control(try playlist(context), .hold, name: "hold", respond)
    }

    func resume(_ context: RequestContext, _ respond: @escaping Respond) throws(APIError) {
        control(try playlist(context), .resume, name: "resume", respond)
    }

    func show(_ context: RequestContext, _ respond: @escaping Respond) throws(APIError) {
        let playlist = try playlist(context)
        let entry = try AdminRequest.entry(try JSONBody.object(context.request), of: playlist.configuration)
        control(playlist, .show(entry: entry), name: "show", respond)
    }

    func announce(_ context: RequestContext, _ respond: @escaping Respond) throws(APIError) {
        let id = context.parameter("id")
        let (text, seconds) = try AdminRequest.announcement(try JSONBody.object(context.request))
        let action = StoredScreenCommand.Action.announcePlaylist(playlist: id, text: text, seconds: seconds)
        screens.command(action, respond) { [self] command in
            logger.notice("announcement shown", metadata: ["playlist": "\(id)", "seconds": "\(seconds)"])
            return JSONResponse.accepted(
                .object([
                    JSONMember("playlist", .string(id)), JSONMember("seconds", .number(seconds)),
                    JSONMember("seq", .number(command.seq)),
                ]))
        }
    }

    /// Answered with the playlist's state once committed; every node's screens reload as it arrives.
    func reload(_ context: RequestContext, _ respond: @escaping Respond) throws(APIError) {
        let playlist = try playlist(context)
        let id = playlist.configuration.id
        store.commandScreens(.reloadPlaylist(id)) { [self] result in
            switch result {
            case .success:
                logger.notice("playlist controlled", metadata: ["playlist": "\(id)", "action": "reload"])
                status(playlist, respond)
            case .failure(let error):
                respond(APIError.storeUnavailable(error).response)
            }
        }
    }

    /// Any other command: 404 naming the ones there are.
    func unknownCommand(_ context: RequestContext, _ respond: @escaping Respond) throws(APIError) {
        throw .notFound(
            "not_found", "no such endpoint: \(context.request.path) (hold, resume, show, announce or reload)")
    }

    /// `{"playlists":[…]}`: every playlist with the entry it shows, whether it is held, and its screens.
    func list(_ context: RequestContext, _ respond: @escaping Respond) {
        let hubs = context.configuration.playlists.compactMap { directory?.playlist($0.id) }
        let found = Mutex<[String: (entry: Int, held: Bool, screens: Int)]>([:])
        let group = DispatchGroup()
        for hub in hubs {
            group.enter()
            hub.status { entry, held, screens in
                found.withLock { $0[hub.configuration.id] = (entry, held, screens) }
                group.leave()
            }
        }
        group.notify(queue: .global()) {
            let all = found.withLock { $0 }
            let items = hubs.compactMap { hub in
                all[hub.configuration.id].map {
                    Self.json(hub.configuration, entry: $0.entry, held: $0.held, screens: $0.screens)
                }
            }
            respond(JSONResponse.ok(.object([JSONMember("playlists", .array(items))])))
        }
    }

    private func playlist(_ context: RequestContext) throws(APIError) -> PlaylistHub {
        let id = context.parameter("id")
        guard let playlist = directory?.playlist(id) else {
            throw .notFound("unknown_playlist", "no playlist \(JSONText.quoted(id)) is configured")
        }
        return playlist
    }

    /// Commits `action` through the change log; answered once this node has applied it.
    private func control(
        _ playlist: PlaylistHub, _ action: StoredPlaylistCommand.Action, name: String, _ respond: @escaping Respond
    ) {
        let id = playlist.configuration.id
        store.commandPlaylist(id, action: action) { [self] result in
            switch result {
            case .success(let command):
                logger.notice("playlist controlled", metadata: ["playlist": "\(id)", "action": "\(name)"])
                playlist.whenApplied(command.seq) { [self] _ in status(playlist, respond) }
            case .failure(let error):
                respond(APIError.storeUnavailable(error).response)
            }
        }
    }

    /// The playlist's state, 202, once its queue has carried out what came before.
    private func status(_ playlist: PlaylistHub, _ respond: @escaping Respond) {
        playlist.status { entry, held, screens in
            let body = Self.json(playlist.configuration, entry: entry, held: held, screens: screens)
            respond(JSONResponse.accepted(body))
        }
    }

    private static func json(_ playlist: PlaylistConfiguration, entry: Int, held: Bool, screens: Int) -> JSONValue {
        .object([
            JSONMember("id", .string(playlist.id)),
            JSONMember("title", .string(playlist.title)),
            JSONMember(
                "entries",
                .array(
                    playlist.entries.map { item in
                        .object([
                            JSONMember("dashboard", .string(item.dashboard)), JSONMember("seconds", .number(item.seconds)),
                        ])
                    })),
            JSONMember("current", .number(entry)),
            JSONMember("held", .bool(held)),
            JSONMember("screens", .number(screens)),
        ])
    }
}
