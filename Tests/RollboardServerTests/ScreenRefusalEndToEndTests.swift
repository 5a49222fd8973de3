import Foundation
import RollboardClient
import RollboardNet
import RollboardTestSupport
import Testing

/// The real server with TLS on a free port: upgrades and screens that break the protocol.
@Suite("End to end: a screen that breaks the protocol is closed with the fitting code")
struct ScreenRefusalEndToEndTests {
    @Test("a bad message from a screen closes it with the fitting code", arguments: BadClientMessage.all)
    func badClientMessageCloses(_ message: BadClientMessage) throws {
        try withLiveServer { live in
            let screen = try Screen.greeted(by: live)
            switch message.payload {
            case .text(let text): try screen.socket.send(text: text)
            case .binary(let bytes): try screen.socket.sendFrame(opcode: 0x2, payload: bytes)
            case .repeated(let text, let times): for _ in 0..<times { try screen.socket.send(text: text) }
            }
            #expect(try screen.closeCode() == message.closeCode)
        }
    }

    @Test("a screen asking for an unknown dashboard is closed with 4404", arguments: ["/ws?dashboard=nope", "/ws"])
    func unknownDashboardCloses(_ target: String) throws {
        try withLiveServer { live in
            let screen = try Screen(live.webSocket(target))
            #expect(try screen.closeCode() == 4404)
        }
    }

    @Test("a screen asking for a protocol the server does not speak is closed with 4406; asking for 2 is fine")
    func unsupportedProtocolCloses() throws {
        try withLiveServer { live in
            let old = try Screen(live.webSocket("/ws?dashboard=demo&protocol=1"))
            #expect(try old.closeCode() == 4406)
            let current = try Screen(live.webSocket("/ws?dashboard=demo&protocol=2"))
            #expect(try current.hello()["protocol"] as? Int == 2)
        }
    }

    @Test("an upgrade request gets the status its headers deserve", arguments: UpgradeAttempt.all)
    func upgradeIsCheckedBeforeOpening(_ attempt: UpgradeAttempt) throws {
        try withLiveServer { live in
            let headers = attempt.headers.map { ($0.0, $0.1.replacingOccurrences(of: "{port}", with: "\(live.port)")) }
            let response = try live.rawRequest("GET \(attempt.target) HTTP/1.1", headers: headers)
            #expect(response.status == attempt.status)
            if let error = attempt.error {
                #expect(try jsonObject(response.body)["error"] as? String == error)
            }
            if attempt.offersVersion13 {
                #expect(response.headers["Sec-WebSocket-Version"] == "13")
            }
        }
    }

    @Test("a broken WebSocket frame from a screen closes it with the right code", arguments: BrokenFrame.all)
    func brokenFrameCloses(_ frame: BrokenFrame) throws {
        try withLiveServer { live in
            let screen = try Screen.greeted(by: live)
            try screen.socket.sendFrame(
                opcode: frame.opcode, payload: frame.payload.bytes, fin: frame.fin, rsv: frame.rsv, masked: frame.masked)
            #expect(try screen.closeCode() == frame.closeCode)
        }
    }
}
