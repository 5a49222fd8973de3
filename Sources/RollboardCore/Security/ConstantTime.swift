/// Comparisons whose duration does not depend on where the inputs differ (for secrets such as bearer tokens).
public enum ConstantTime {
    /// Whether `a` and `b` are equal, looking at every byte of the longer one whatever the content.
    /// Only the lengths' maximum can be learned from timing.
    @inline(never)
    public static func equals(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        let length = Swift.max(a.count, b.count)
        var difference: UInt = a.count == b.count ? 0 : 1
        for index in 0..<length {
            let left = index < a.count ? a[index] : 0
            let right = index < b.count ? b[index] : 0
            difference |= UInt(left ^ right)
        }
        return difference == 0
    }
}
