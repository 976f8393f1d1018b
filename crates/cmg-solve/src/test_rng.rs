//! A xorshift64 generator for the tests and the benchmarks' graph families: the same
//! variety on every run, with no dependency and no claim to good randomness. (The search
//! for long games has a generator of its own, `cmg_gen::Rng`, whose stream is part of
//! its reproducible results.)

pub struct XorShift(pub u64);

impl XorShift {
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A number in `0..bound`; `bound` must be positive and fit in a `u64`.
    pub fn below<B: TryInto<u64>>(&mut self, bound: B) -> u32 {
        let bound = bound.try_into().ok().expect("a bound that fits in u64");
        (self.next_u64() % bound) as u32
    }

    /// A number in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}
