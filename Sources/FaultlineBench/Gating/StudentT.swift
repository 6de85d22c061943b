import Foundation

/// Student's t distribution: the bound a new run's effect stays under, given
/// the mean and spread of a few earlier runs' effects (a prediction interval).
enum StudentT {
    /// The `probability` quantile (0.5 < probability < 1) of t with
    /// `degreesOfFreedom` ≥ 1, by bisection on the distribution function.
    static func quantile(_ probability: Double, degreesOfFreedom: Int) -> Double {
        precondition(probability > 0.5 && probability < 1 && degreesOfFreedom >= 1)
        var low = 0.0, high = 1.0
        while cumulative(high, degreesOfFreedom) < probability { high *= 2 }
        for _ in 0..<200 {
            let middle = (low + high) / 2
            if cumulative(middle, degreesOfFreedom) < probability { low = middle } else { high = middle }
        }
        return (low + high) / 2
    }

    /// P(T ≤ t) for t ≥ 0: 1 − ½ · I_{ν/(ν+t²)}(ν/2, ½).
    static func cumulative(_ t: Double, _ degreesOfFreedom: Int) -> Double {
        let nu = Double(degreesOfFreedom)
        return 1 - 0.5 * regularizedIncompleteBeta(nu / (nu + t * t), nu / 2, 0.5)
    }

    /// I_x(a, b) by the continued fraction (modified Lentz), on the side of
    /// x where it converges fast.
    static func regularizedIncompleteBeta(_ x: Double, _ a: Double, _ b: Double) -> Double {
        guard x > 0 else { return 0 }
        guard x < 1 else { return 1 }
        let logBeta: Double = lgamma(a) + lgamma(b) - lgamma(a + b)
        let logPowers: Double = a * log(x) + b * log(1 - x)
        let logFront = logPowers - logBeta
        if x < (a + 1) / (a + b + 2) {
            return exp(logFront) * continuedFraction(x, a, b) / a
        }
        return 1 - exp(logFront) * continuedFraction(1 - x, b, a) / b
    }

    private static func continuedFraction(_ x: Double, _ a: Double, _ b: Double) -> Double {
        let tiny = 1e-300
        var c = 1.0
        var d = 1 - (a + b) * x / (a + 1)
        d = 1 / (Swift.abs(d) < tiny ? tiny : d)
        var result = d
        for m in 1...500 {
            let m = Double(m)
            let even: Double = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m))
            let odd: Double = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))
            for numerator in [even, odd] {
                d = 1 + numerator * d
                d = 1 / (Swift.abs(d) < tiny ? tiny : d)
                c = 1 + numerator / c
                if Swift.abs(c) < tiny { c = tiny }
                result *= d * c
            }
            if Swift.abs(d * c - 1) < 1e-15 { break }
        }
        return result
    }
}
