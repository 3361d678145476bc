//! Exact path costs: `straight + diagonal · √2`.
//!
//! Integer-weighted graphs use only `straight`; octile grids count straight and diagonal steps
//! apart. Because √2 is irrational, two costs are equal exactly when both counts are equal, and
//! they are ordered exactly by integer arithmetic (no floating point, no scaled rounding): so
//! "is this move optimal?" is never decided by a rounding error.

use core::cmp::Ordering;
use core::ops::Add;

/// A path cost `straight + diagonal · √2`, compared exactly.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Cost {
    /// Sum of integer costs (unit steps on a grid).
    pub straight: u64,
    /// Number of diagonal (√2) steps.
    pub diagonal: u64,
}

impl Cost {
    /// Zero cost.
    pub const ZERO: Cost = Cost { straight: 0, diagonal: 0 };
    /// Larger than every real cost; marks "unreachable" inside the engines.
    pub(crate) const INFINITE: Cost = Cost { straight: u64::MAX, diagonal: u64::MAX };

    /// An integer cost.
    ///
    /// ```
    /// assert_eq!(signposts::Cost::integer(3).value(), 3.0);
    /// ```
    #[must_use]
    pub const fn integer(cost: u64) -> Cost {
        Cost { straight: cost, diagonal: 0 }
    }

    /// A key that orders costs within less than 0.5 of their exact order: the exact sum for
    /// integer costs, the bits of [`Cost::value`] otherwise. Search queues use it; any two
    /// costs where one can improve the other differ by at least 1, so they stay in order.
    #[inline]
    pub(crate) fn queue_key(self, integer: bool) -> u64 {
        if integer { self.straight } else { self.value().to_bits() }
    }

    /// The cost as a floating-point number (for display and comparison with printed lengths).
    ///
    /// ```
    /// let c = signposts::Cost { straight: 1, diagonal: 1 };
    /// assert!((c.value() - (1.0 + 2f64.sqrt())).abs() < 1e-12);
    /// ```
    #[must_use]
    pub fn value(self) -> f64 {
        self.straight as f64 + self.diagonal as f64 * core::f64::consts::SQRT_2
    }
}

impl Add for Cost {
    type Output = Cost;

    #[inline]
    fn add(self, other: Cost) -> Cost {
        Cost { straight: self.straight + other.straight, diagonal: self.diagonal + other.diagonal }
    }
}

impl Ord for Cost {
    /// Exact: `a1 + b1√2` against `a2 + b2√2` by comparing `da = a1 − a2` with
    /// `db · √2`, `db = b2 − b1`, through squares in `u128` (no overflow for any `u64` counts).
    fn cmp(&self, other: &Cost) -> Ordering {
        if self.diagonal == other.diagonal {
            return self.straight.cmp(&other.straight);
        }
        if self.straight == other.straight {
            return self.diagonal.cmp(&other.diagonal);
        }
        // Both differences are non-zero here. Far apart, floating point decides (its error,
        // about 1e-16 relative, is far below the 1e-9 margin); close, integers do.
        let (x, y) = (self.value(), other.value());
        if (x - y).abs() > 1e-9 * x.max(y) {
            return if x < y { Ordering::Less } else { Ordering::Greater };
        }
        let more_straight = self.straight > other.straight;
        let fewer_diagonal = other.diagonal > self.diagonal;
        let da2 = u128::from(self.straight.abs_diff(other.straight)).pow(2);
        let db2 = u128::from(self.diagonal.abs_diff(other.diagonal)).pow(2);
        // |da| > |db|·√2  ⟺  da² > 2·db²  ⟺  (da² − 1) / 2 ≥ db²  (da² ≠ 2·db², √2 irrational)
        let da_wins = (da2 - 1) / 2 >= db2;
        match (more_straight, fewer_diagonal) {
            (true, false) => Ordering::Greater,
            (false, true) => Ordering::Less,
            (true, true) => {
                if da_wins {
                    Ordering::Greater
                } else {
                    Ordering::Less
                }
            }
            (false, false) => {
                if da_wins {
                    Ordering::Less
                } else {
                    Ordering::Greater
                }
            }
        }
    }
}

impl PartialOrd for Cost {
    fn partial_cmp(&self, other: &Cost) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl core::fmt::Display for Cost {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        if self.diagonal == 0 { write!(f, "{}", self.straight) } else { write!(f, "{:.6}", self.value()) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn exact_order_agrees_with_floating_point_away_from_ties(
            a1 in 0u64..100_000, b1 in 0u64..100_000, a2 in 0u64..100_000, b2 in 0u64..100_000
        ) {
            let (x, y) = (Cost { straight: a1, diagonal: b1 }, Cost { straight: a2, diagonal: b2 });
            let (fx, fy) = (x.value(), y.value());
            if (fx - fy).abs() > 1e-6 {
                prop_assert_eq!(x.cmp(&y), fx.partial_cmp(&fy).unwrap());
            }
            prop_assert_eq!(x.cmp(&y), y.cmp(&x).reverse());
            prop_assert_eq!(x == y, x.cmp(&y) == Ordering::Equal);
        }
    }

    #[test]
    fn near_ties_are_ordered_exactly() {
        // 99 ≈ 70√2 (98.9949…), 140 ≈ 99√2 (140.007…): floating point would still tell these,
        // but the integer comparison does not depend on it.
        let a = Cost { straight: 99, diagonal: 0 };
        let b = Cost { straight: 0, diagonal: 70 };
        assert!(a > b);
        let c = Cost { straight: 140, diagonal: 0 };
        let d = Cost { straight: 0, diagonal: 99 };
        assert!(c < d);
        assert!(Cost::INFINITE > Cost { straight: u64::MAX - 1, diagonal: 5 });
        assert!(Cost { straight: u64::MAX, diagonal: 0 } > Cost { straight: 0, diagonal: u64::MAX / 2 });
        assert!(Cost { straight: u64::MAX, diagonal: 0 } < Cost { straight: 0, diagonal: u64::MAX / 4 * 3 });
    }
}
