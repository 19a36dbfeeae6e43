//! Source files that tests of more than one crate edit.

/// Three functions each ending in `return None` (`first`, `second`,
/// `third`), for patches with more than one section for one file.
pub const RETURNS_PY: &str = "def first(x):\n    if x < 0:\n        return None\n    return x * 2\n\n\n\
                              def second(y):\n    if y is None:\n        return None\n    return y + 1\n\n\n\
                              def third(z):\n    if not z:\n        return None\n    return z[0]\n";
