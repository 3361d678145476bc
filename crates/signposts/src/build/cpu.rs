//! Proofs of processor features: the engines run copies of their inner loops compiled for
//! AVX2 or AVX-512 only when a token below says the processor has them.
//!
//! Every engine has a portable path that gives the same table, byte for byte. Off x86-64 the
//! tokens cannot be made at all (their field is an empty enum), so the SIMD arms of each
//! `match` are statically unreachable there and compile to nothing. On x86-64, setting the
//! environment variable `SIGNPOSTS_PORTABLE` (to anything) makes every `detect` answer
//! `None`, so that the test suite can run the portable paths on the same machine and compare:
//! `.ci/run` runs the core's tests both ways.

/// What a token holds: nothing on x86-64, where a token proves a feature that was detected;
/// an empty enum elsewhere, where no token can exist.
#[cfg(target_arch = "x86_64")]
type Proof = ();

/// What a token holds: nothing on x86-64, where a token proves a feature that was detected;
/// an empty enum elsewhere, where no token can exist.
#[cfg(not(target_arch = "x86_64"))]
#[derive(Debug, Clone, Copy)]
pub(crate) enum Proof {}

/// Whether the SIMD paths may be used: false when `SIGNPOSTS_PORTABLE` is set (read once).
#[cfg(target_arch = "x86_64")]
fn simd_allowed() -> bool {
    static ALLOWED: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ALLOWED.get_or_init(|| std::env::var_os("SIGNPOSTS_PORTABLE").is_none())
}

/// Whether `x86_64` features were detected (and the SIMD paths are allowed).
macro_rules! detected {
    ($($feature:tt),+) => {{
        #[cfg(target_arch = "x86_64")]
        let yes = simd_allowed() $(&& std::is_x86_feature_detected!($feature))+;
        #[cfg(not(target_arch = "x86_64"))]
        let yes = false;
        yes
    }};
}

/// The token's field, made only where the features were detected.
macro_rules! proof {
    () => {{
        #[cfg(target_arch = "x86_64")]
        let proof = Some(());
        #[cfg(not(target_arch = "x86_64"))]
        let proof: Option<Proof> = None;
        proof
    }};
}

/// Proof that the processor has AVX2, BMI1 and POPCNT (every processor with AVX2 has the
/// other two), made only by [`Avx2::detect`]: the engines then run copies of their inner
/// loops compiled for them.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Avx2(Proof);

impl Avx2 {
    /// `Some` when the processor has AVX2, BMI1 and POPCNT (never on other architectures than
    /// x86-64).
    pub(crate) fn detect() -> Option<Avx2> {
        if detected!("avx2", "bmi1", "popcnt") { proof!().map(Avx2) } else { None }
    }

    /// A token cannot exist off x86-64: this is the arm of a `match` that cannot be reached.
    #[cfg(not(target_arch = "x86_64"))]
    pub(crate) fn never(self) -> ! {
        match self.0 {}
    }
}

/// Proof that the processor has AVX-512 with byte permutes (F, BW and VBMI), made only by
/// [`Vbmi::detect`]: the compressed build's fold then moves a wave's bytes back to column
/// order 64 at a time.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Vbmi(Proof);

impl Vbmi {
    /// `Some` when the processor has AVX-512 F, BW and VBMI (never on other architectures
    /// than x86-64).
    pub(crate) fn detect() -> Option<Vbmi> {
        if detected!("avx512f", "avx512bw", "avx512vbmi") { proof!().map(Vbmi) } else { None }
    }
}

/// Proof that the processor has AVX-512 with byte permutes and bit shuffles (F, BW, VBMI and
/// BITALG), made only by [`Bitalg::detect`]: the compressed build's weighted fold then moves a
/// node's bits back to column order 64 at a time.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Bitalg(Proof);

impl Bitalg {
    /// `Some` when the processor, which has byte permutes, also has AVX-512 BITALG.
    pub(crate) fn detect(_: Vbmi) -> Option<Bitalg> {
        if detected!("avx512bitalg") { proof!().map(Bitalg) } else { None }
    }
}

/// Proof that the processor has AVX-512 F, made only by [`Avx512::detect`]: the octile
/// engine ([`levels`](super::levels)) then holds 16 of a node's targets in one vector.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Avx512(Proof);

impl Avx512 {
    /// `Some` when the processor has AVX-512 F (never on other architectures than x86-64).
    pub(crate) fn detect() -> Option<Avx512> {
        if detected!("avx512f") { proof!().map(Avx512) } else { None }
    }

    /// A token cannot exist off x86-64: this is the arm of a `match` that cannot be reached.
    #[cfg(not(target_arch = "x86_64"))]
    pub(crate) fn never(self) -> ! {
        match self.0 {}
    }
}

/// Proof that the processor has BMI2 (`pext`, `pdep`), made only by [`Bmi2::detect`]: the
/// repairs of opened and blocked nodes then gather a lane of 64 entries' bits a word at a
/// time.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Bmi2(Proof);

impl Bmi2 {
    /// `Some` when the processor has BMI2 (never on other architectures than x86-64).
    pub(crate) fn detect() -> Option<Bmi2> {
        if detected!("bmi2") { proof!().map(Bmi2) } else { None }
    }

    /// A token cannot exist off x86-64: this is the arm of a `match` that cannot be reached.
    #[cfg(not(target_arch = "x86_64"))]
    pub(crate) fn never(self) -> ! {
        match self.0 {}
    }
}
