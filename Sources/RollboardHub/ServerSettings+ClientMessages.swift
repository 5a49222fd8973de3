package import RollboardConfig

extension ServerSettings.Limits {
    /// What one screen may send before it is closed with 1008.
    package var clientMessageLimits: ClientMessageGate.Limits {
        ClientMessageGate.Limits(perSecond: clientMessagesPerSecond, burst: clientMessagesPerSecond * 3, maxQueued: 16)
    }
}
