//! The wide instructions (x86-64-v3's `popcnt`, `lzcnt`, BMI1/2, AVX2), used where the CPU
//! has them.
//!
//! Release builds target plain x86-64 (v1), so that the binary runs on any 64-bit PC, small
//! VPS or emulator. But v1 is slow on 128-bit bitboards: it has no population count (a dozen
//! bit tricks per word instead), no `lzcnt`, no BMI. So the hot code is compiled twice, and
//! [`wide`] says, once per process, which copy to run:
//!
//! ```text
//! pub fn hot(x: X) -> Y {
//!     #[cfg(target_arch = "x86_64")]
//!     if rules::cpu::wide() {
//!         // SAFETY: `wide()` found every feature `hot_wide` is compiled with.
//!         return unsafe { hot_wide(x) };
//!     }
//!     hot_any(x)
//! }
//!
//! rules::wide! { fn hot_wide(x: X) -> Y { hot_any(x) } }
//!
//! #[inline(always)] // into both copies
//! fn hot_any(x: X) -> Y { .. }
//! ```
//!
//! Only what is inlined into `hot_wide` gets the wide instructions: a function it calls that is
//! not inlined is compiled once, for v1. So the copies sit around whole hot loops (the move
//! generator, the engine's evaluation) whose parts are `#[inline(always)]`, and not around a
//! search or perft, whose recursion calls the generator. A build for a known CPU
//! (`-C target-cpu=native`) gets the wide instructions everywhere, and the check is still made.

use std::sync::atomic::{AtomicU8, Ordering};

/// Compiles a function with the wide instructions (x86-64 only). Call it only where [`wide`]
/// holds; these are the features it checks.
#[macro_export]
macro_rules! wide {
    ($(#[$meta:meta])* $vis:vis fn $($rest:tt)*) => {
        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
        $(#[$meta])*
        $vis fn $($rest)*
    };
}

#[cfg(target_arch = "x86_64")]
fn detect() -> bool {
    std::arch::is_x86_feature_detected!("avx2")
        && std::arch::is_x86_feature_detected!("bmi1")
        && std::arch::is_x86_feature_detected!("bmi2")
        && std::arch::is_x86_feature_detected!("lzcnt")
        && std::arch::is_x86_feature_detected!("popcnt")
}

#[cfg(not(target_arch = "x86_64"))]
fn detect() -> bool {
    false
}

const UNKNOWN: u8 = 0;
const BASELINE: u8 = 1;
const WIDE: u8 = 2;

static CHOICE: AtomicU8 = AtomicU8::new(UNKNOWN);

/// Whether the code compiled with the wide instructions ([`wide!`](crate::wide)) may run: the
/// CPU has all of them, and [`force_baseline`] was not called. Asked of the CPU once.
#[inline]
pub fn wide() -> bool {
    match CHOICE.load(Ordering::Relaxed) {
        UNKNOWN => {
            let found = if detect() { WIDE } else { BASELINE };
            // A concurrent `force_baseline` wins over detection.
            let _ = CHOICE.compare_exchange(UNKNOWN, found, Ordering::Relaxed, Ordering::Relaxed);
            CHOICE.load(Ordering::Relaxed) == WIDE
        }
        choice => choice == WIDE,
    }
}

/// Runs the code compiled for any x86-64 from now on, in the whole process, whatever the CPU:
/// so that tests and measurements reach the path an older CPU takes.
pub fn force_baseline() {
    CHOICE.store(BASELINE, Ordering::Relaxed);
}

#[cfg(test)]
mod tests {
    // `force_baseline` is tested in tests/baseline_cpu.rs, a process of its own.

    #[test]
    fn the_choice_is_the_cpus() {
        assert_eq!(super::wide(), super::detect());
        assert_eq!(super::wide(), super::wide());
    }
}
