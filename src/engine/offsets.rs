//! Ascending byte offsets (line tables). On a big file the line tables are
//! most of the memory spent beyond the text itself, so they are packed:
//! a 32-bit base every `GROUP` offsets and a 16-bit distance from it for each
//! (2 bytes a line instead of 4), one extra load per lookup. A table whose
//! offsets are more than 64 KiB from their group's base (lines averaging
//! over 1 KiB) is stored in 32 bits, and one past 4 GiB in full width: no cap.

/// Offsets per packed group.
const GROUP: usize = 64;
const GROUP_SHIFT: u32 = GROUP.trailing_zeros();

/// A table of byte offsets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Offsets {
    Packed { bases: Vec<u32>, deltas: Vec<u16> },
    Narrow(Vec<u32>),
    Wide(Vec<usize>),
}

/// Appends `offset` to a packed table if it fits (a new group's base fits
/// 32 bits, a distance from the group's base 16); `false`, nothing appended,
/// if not.
#[inline]
fn push_packed(bases: &mut Vec<u32>, deltas: &mut Vec<u16>, offset: usize) -> bool {
    let delta = if deltas.len().is_multiple_of(GROUP) {
        u32::try_from(offset)
            .ok()
            .map(|base| bases.push(base))
            .map(|()| 0)
    } else {
        bases
            .last()
            .and_then(|&base| offset.checked_sub(base as usize))
            .and_then(|d| u16::try_from(d).ok())
    };
    delta.map(|d| deltas.push(d)).is_some()
}

impl Default for Offsets {
    fn default() -> Self {
        Offsets::Packed {
            bases: Vec::new(),
            deltas: Vec::new(),
        }
    }
}

impl Offsets {
    /// Room for `count` offsets, none above `max`.
    pub fn with_capacity(count: usize, max: usize) -> Self {
        if u32::try_from(max).is_ok() {
            Offsets::Packed {
                bases: Vec::with_capacity(count.div_ceil(GROUP)),
                deltas: Vec::with_capacity(count),
            }
        } else {
            Offsets::Wide(Vec::with_capacity(count))
        }
    }

    /// Appends `offset`, which must be at most the `max` given at creation.
    pub fn push(&mut self, offset: usize) {
        match self {
            Offsets::Packed { bases, deltas } => {
                if !push_packed(bases, deltas, offset) {
                    self.unpack(offset);
                    self.push(offset);
                }
            }
            Offsets::Narrow(v) => match u32::try_from(offset) {
                Ok(o) => v.push(o),
                // Only reached if `max` was wrong: widen rather than wrap.
                Err(_) => {
                    let mut wide: Vec<usize> = v.iter().map(|&o| o as usize).collect();
                    wide.push(offset);
                    *self = Offsets::Wide(wide);
                }
            },
            Offsets::Wide(v) => v.push(offset),
        }
    }

    /// Leaves the packed form for one that can hold `next` after the
    /// offsets so far.
    fn unpack(&mut self, next: usize) {
        let all = (0..self.len()).map(|i| self.at(i));
        *self = if u32::try_from(next).is_ok() {
            Offsets::Narrow(all.map(|o| o as u32).collect())
        } else {
            Offsets::Wide(all.collect())
        };
    }

    /// Appends every offset of `iter` (each at most the `max` given at
    /// creation).
    pub fn extend(&mut self, mut iter: impl Iterator<Item = usize>) {
        match self {
            Offsets::Packed { bases, deltas } => {
                // The hot loop of building a line table; the first offset
                // that does not fit unpacks.
                let misfit = iter.by_ref().find(|&o| !push_packed(bases, deltas, o));
                if let Some(o) = misfit {
                    self.push(o);
                    iter.for_each(|o| self.push(o));
                }
            }
            Offsets::Narrow(_) => iter.for_each(|o| self.push(o)),
            Offsets::Wide(v) => v.extend(iter),
        }
    }

    pub fn len(&self) -> usize {
        match self {
            Offsets::Packed { deltas, .. } => deltas.len(),
            Offsets::Narrow(v) => v.len(),
            Offsets::Wide(v) => v.len(),
        }
    }

    /// Offset `i`; panics past the end, as indexing does.
    pub fn at(&self, i: usize) -> usize {
        match self {
            Offsets::Packed { bases, deltas } => {
                deltas[i] as usize + bases[i >> GROUP_SHIFT] as usize
            }
            Offsets::Narrow(v) => v[i] as usize,
            Offsets::Wide(v) => v[i],
        }
    }

    pub fn get(&self, i: usize) -> Option<usize> {
        (i < self.len()).then(|| self.at(i))
    }

    /// Number of leading offsets among the first `end` for which `pred`
    /// holds (`pred` true then false, as for `slice::partition_point`).
    pub fn partition_point(&self, end: usize, pred: impl Fn(usize) -> bool) -> usize {
        match self {
            Offsets::Packed { bases, deltas } => {
                // The group first, by its base (the bases fit in L1 cache);
                // then the distances inside it.
                let group = bases[..end.div_ceil(GROUP)].partition_point(|&b| pred(b as usize));
                let Some(g) = group.checked_sub(1) else {
                    return 0;
                };
                let (first, base) = (g * GROUP, bases[g] as usize);
                let inside = &deltas[first..((g + 1) * GROUP).min(end)];
                first + inside.partition_point(|&d| pred(base + d as usize))
            }
            Offsets::Narrow(v) => v[..end].partition_point(|&o| pred(o as usize)),
            Offsets::Wide(v) => v[..end].partition_point(|&o| pred(o)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn reference(t: &Offsets) -> Vec<usize> {
        (0..t.len()).map(|i| t.at(i)).collect()
    }

    #[test]
    fn packs_small_steps_and_unpacks_big_ones() {
        let mut t = Offsets::with_capacity(200, 1 << 20);
        t.extend((0..200).map(|i| i * 30));
        assert!(matches!(t, Offsets::Packed { .. }));
        // A line of 70,000 bytes inside a group does not fit 16 bits.
        t.push(199 * 30 + 70_000);
        assert!(matches!(t, Offsets::Narrow(_)));
        let want: Vec<usize> = (0..200)
            .map(|i| i * 30)
            .chain([199 * 30 + 70_000])
            .collect();
        assert_eq!(reference(&t), want);
    }

    #[test]
    fn widens_instead_of_wrapping() {
        let mut t = Offsets::with_capacity(2, 10);
        t.push(7);
        t.push(u32::MAX as usize + 5);
        assert_eq!((t.at(0), t.at(1)), (7, u32::MAX as usize + 5));
        assert!(matches!(t, Offsets::Wide(_)));
        let mut e = Offsets::with_capacity(3, 10);
        e.extend([1, u32::MAX as usize + 1, 2].into_iter());
        assert_eq!((e.at(0), e.at(1), e.at(2)), (1, u32::MAX as usize + 1, 2));
        let wide = Offsets::with_capacity(1, usize::MAX);
        assert!(matches!(wide, Offsets::Wide(_)));
    }

    proptest! {
        /// Every form reads back what was pushed, and answers
        /// `partition_point` as a slice does, for every prefix and pivot.
        #[test]
        fn reads_back_like_a_slice(
            steps in prop::collection::vec(
                prop_oneof![8 => 0usize..40, 1 => 0usize..3000, 1 => 60_000usize..70_000],
                0..400,
            ),
            max in prop_oneof![Just(1usize << 31), Just(usize::MAX)],
            pivots in prop::collection::vec(0usize..3_000_000, 8),
        ) {
            let values: Vec<usize> = steps
                .iter()
                .scan(0, |at, s| { *at += s; Some(*at) })
                .collect();
            let mut pushed = Offsets::with_capacity(values.len(), max);
            let mut extended = Offsets::with_capacity(values.len(), max);
            for &v in &values {
                pushed.push(v);
            }
            extended.extend(values.iter().copied());
            for t in [&pushed, &extended] {
                prop_assert_eq!(reference(t), values.clone());
                prop_assert_eq!(t.get(values.len()), None);
                for end in [0, values.len() / 3, values.len()] {
                    for &p in &pivots {
                        let p = values.get(p % (values.len() + 1)).copied().unwrap_or(p);
                        for pivot in [p.saturating_sub(1), p, p + 1] {
                            prop_assert_eq!(
                                t.partition_point(end, |o| o <= pivot),
                                values[..end].partition_point(|&o| o <= pivot)
                            );
                        }
                    }
                }
            }
        }
    }
}
