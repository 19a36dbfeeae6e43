//! Replaying a text the way a model streams it: chunks of a few characters
//! at a steady rate, with a little seeded jitter. The schedule is pure and
//! deterministic; [`replay_to_file`] plays it into a file that a previewer
//! (or anything else) can watch.

use std::fs::OpenOptions;
use std::io::Write;
use std::path::Path;
use std::time::{Duration, Instant};

/// splitmix64: a tiny, well-mixed PRNG. Enough for jitter; no crate needed.
#[derive(Debug, Clone)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// A generator whose sequence is fixed by `seed`.
    pub fn new(seed: u64) -> Self {
        SplitMix64(seed)
    }

    /// The next number of the sequence (uniform over `u64`).
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform-enough value in `0..=max`.
    pub fn below_or_eq(&mut self, max: u64) -> u64 {
        match max.checked_add(1) {
            Some(n) => self.next_u64() % n,
            None => self.next_u64(),
        }
    }
}

/// When each prefix of `text` should be visible: `(time since start, end
/// byte)` pairs, the end always on a char boundary, times non-decreasing,
/// the last end `text.len()`. Each chunk of `chunk` characters (at least 1)
/// takes `chunk / rate` seconds plus up to `jitter_ms` milliseconds drawn
/// from `seed`. A rate that is not a positive number means no delay.
pub fn schedule(
    text: &str,
    rate: f64,
    chunk: usize,
    jitter_ms: u64,
    seed: u64,
) -> Vec<(Duration, usize)> {
    let chunk = chunk.max(1);
    let mut rng = SplitMix64::new(seed);
    let mut at = Duration::ZERO;
    let mut steps = Vec::new();
    let mut chars = 0usize;
    let ends = text
        .char_indices()
        .map(|(i, c)| i + c.len_utf8())
        .enumerate()
        .filter(|(n, end)| (n + 1) % chunk == 0 || *end == text.len());
    for (n, end) in ends {
        let in_chunk = n + 1 - chars;
        chars = n + 1;
        let base = if rate.is_finite() && rate > 0.0 {
            Duration::try_from_secs_f64(in_chunk as f64 / rate).unwrap_or(Duration::MAX)
        } else {
            Duration::ZERO
        };
        let jitter = if jitter_ms > 0 {
            Duration::from_millis(rng.below_or_eq(jitter_ms))
        } else {
            Duration::ZERO
        };
        at = at.saturating_add(base).saturating_add(jitter);
        steps.push((at, end));
    }
    steps
}

/// Hands `text` to `emit` piece by piece as `steps` says, sleeping until
/// each step's time (absolute times keep the total from drifting). Whatever
/// the schedule misses still arrives at the end. Stops at `emit`'s first error.
pub fn play<E>(
    text: &str,
    steps: &[(Duration, usize)],
    mut emit: impl FnMut(&str) -> Result<(), E>,
) -> Result<(), E> {
    let start = Instant::now();
    let mut written = 0;
    for &(at, end) in steps {
        let Some(piece) = text.get(written..end) else {
            continue;
        };
        let elapsed = start.elapsed();
        if at > elapsed {
            std::thread::sleep(at - elapsed);
        }
        emit(piece)?;
        written = end;
    }
    match text.get(written..) {
        Some(rest) if !rest.is_empty() => emit(rest),
        _ => Ok(()),
    }
}

/// Truncates (or creates) `out`, then appends `text` to it as [`play`]
/// hands it over, flushing each write.
pub fn replay_to_file(text: &str, out: &Path, steps: &[(Duration, usize)]) -> std::io::Result<()> {
    let mut file = OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .open(out)?;
    play(text, steps, |piece| {
        file.write_all(piece.as_bytes())?;
        file.flush()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix_matches_reference_values() {
        // First outputs for seed 0 from the reference implementation.
        let mut rng = SplitMix64::new(0);
        assert_eq!(rng.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(rng.next_u64(), 0x6E78_9E6A_A1B9_65F4);
    }

    #[test]
    fn chunks_end_on_char_boundaries() {
        let text = "héllo wörld ✓";
        let steps = schedule(text, 1000.0, 3, 0, 1);
        assert!(steps.iter().all(|&(_, e)| text.is_char_boundary(e)));
        assert_eq!(steps.last().map(|s| s.1), Some(text.len()));
        assert_eq!(steps.len(), text.chars().count().div_ceil(3));
    }
}
