#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// `base` raised to `exponent` (the C library's `pow`).
func power(_ base: Double, _ exponent: Double) -> Double {
    pow(base, exponent)
}
