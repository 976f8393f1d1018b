//! A small seeded generator (SplitMix64): the search must give the same graph for the same
//! seed on every platform, so it owns its generator rather than depend on one whose stream
//! may change between versions.

#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..bound` (`bound > 0`), by multiply-shift: the bias is below 2^-32 for the bounds used here.
    pub fn below(&mut self, bound: u64) -> u64 {
        ((self.next_u64() >> 32) * bound) >> 32
    }

    /// A number in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}
