//! Ascending byte offsets (line tables), stored in 32 bits whenever the
//! text is under 4 GiB: on a big file the line tables are most of the memory
//! spent beyond the text itself, and halving them costs one predictable
//! branch per lookup. Bigger texts keep full-width offsets: no size cap.

/// A table of byte offsets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Offsets {
    Narrow(Vec<u32>),
    Wide(Vec<usize>),
}

impl Default for Offsets {
    fn default() -> Self {
        Offsets::Narrow(Vec::new())
    }
}

impl Offsets {
    /// Room for `count` offsets, none above `max`.
    pub fn with_capacity(count: usize, max: usize) -> Self {
        if u32::try_from(max).is_ok() {
            Offsets::Narrow(Vec::with_capacity(count))
        } else {
            Offsets::Wide(Vec::with_capacity(count))
        }
    }

    /// Appends `offset`, which must be at most the `max` given at creation.
    pub fn push(&mut self, offset: usize) {
        match self {
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

    /// Appends every offset of `iter` (each at most the `max` given at
    /// creation); one match for the whole run instead of one per offset.
    pub fn extend(&mut self, iter: impl Iterator<Item = usize>) {
        match self {
            Offsets::Narrow(v) => {
                let mut iter = iter.peekable();
                while let Some(&o) = iter.peek() {
                    match u32::try_from(o) {
                        Ok(o) => v.push(o),
                        Err(_) => break,
                    }
                    iter.next();
                }
                // Only reached if `max` was wrong: widen rather than wrap.
                for o in iter {
                    self.push(o);
                }
            }
            Offsets::Wide(v) => v.extend(iter),
        }
    }

    pub fn len(&self) -> usize {
        match self {
            Offsets::Narrow(v) => v.len(),
            Offsets::Wide(v) => v.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Offset `i`; panics past the end, as indexing does.
    pub fn at(&self, i: usize) -> usize {
        match self {
            Offsets::Narrow(v) => v[i] as usize,
            Offsets::Wide(v) => v[i],
        }
    }

    pub fn get(&self, i: usize) -> Option<usize> {
        match self {
            Offsets::Narrow(v) => v.get(i).map(|&o| o as usize),
            Offsets::Wide(v) => v.get(i).copied(),
        }
    }

    /// Number of leading offsets among the first `end` for which `pred`
    /// holds (`pred` true then false, as for `slice::partition_point`).
    pub fn partition_point(&self, end: usize, pred: impl Fn(usize) -> bool) -> usize {
        match self {
            Offsets::Narrow(v) => v[..end].partition_point(|&o| pred(o as usize)),
            Offsets::Wide(v) => v[..end].partition_point(|&o| pred(o)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn narrow_and_wide_read_the_same() {
        let values = [0, 3, 3, 10, 4096];
        let mut narrow = Offsets::with_capacity(values.len(), 4096);
        let mut wide = Offsets::with_capacity(values.len(), usize::MAX);
        assert!(matches!(narrow, Offsets::Narrow(_)));
        assert!(matches!(wide, Offsets::Wide(_)));
        for v in values {
            narrow.push(v);
            wide.push(v);
        }
        let mut extended = Offsets::with_capacity(values.len(), 4096);
        extended.extend(values.into_iter());
        assert_eq!(extended, narrow);
        for t in [&narrow, &wide] {
            assert_eq!(t.len(), 5);
            assert_eq!((t.at(3), t.get(4), t.get(5)), (10, Some(4096), None));
            assert_eq!(t.partition_point(5, |o| o <= 3), 3);
            assert_eq!(t.partition_point(2, |o| o <= 3), 2);
        }
    }

    #[test]
    fn widens_instead_of_wrapping() {
        let mut t = Offsets::with_capacity(2, 10);
        t.push(7);
        t.push(u32::MAX as usize + 5);
        assert_eq!((t.at(0), t.at(1)), (7, u32::MAX as usize + 5));
        let mut e = Offsets::with_capacity(3, 10);
        e.extend([1, u32::MAX as usize + 1, 2].into_iter());
        assert_eq!((e.at(0), e.at(1), e.at(2)), (1, u32::MAX as usize + 1, 2));
    }
}
