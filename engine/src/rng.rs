//! A small deterministic random source (SplitMix64), so that the weak levels' mistakes can be
//! reproduced from a seed and the crate needs nothing beyond `rules`.

#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub const fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n` > 0).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }

    /// A number in `-amplitude..=amplitude`.
    pub fn spread(&mut self, amplitude: i32) -> i32 {
        if amplitude <= 0 {
            return 0;
        }
        (self.below(2 * amplitude as u64 + 1) as i64 - amplitude as i64) as i32
    }
}
