//! The JavaScript string semantics Cline's TypeScript relies on, where they
//! differ from Rust's: `String.prototype.trim`'s whitespace set,
//! `Array.prototype.slice`'s negative indices, `Number.prototype.toFixed`,
//! `JSON.stringify` of a string, and the key order of `Object.entries`.

/// `s.trim()` and `s.trimEnd()` (JavaScript's whitespace set: U+FEFF
/// stripped, U+0085 not): the engine's own.
pub use crate::engine::js::{js_trim as trim, js_trim_end as trim_end};

/// The `[from, to)` range `array.slice(start, end)` takes from an array of
/// `len` items: negative indices count from the end, both are clamped.
pub fn slice_range(len: usize, start: i64, end: i64) -> (usize, usize) {
    let len = len as i64;
    let clamp = |i: i64| if i < 0 { (len + i).max(0) } else { i.min(len) };
    let (from, to) = (clamp(start), clamp(end));
    (from as usize, to.max(from) as usize)
}

/// `x.toFixed(2)` for `0 <= x`: the exact decimal value of the double,
/// rounded half up (JavaScript picks the larger of two equally near
/// results, where Rust's `{:.2}` rounds half to even).
pub fn to_fixed_2(x: f64) -> String {
    if !x.is_finite() || x < 0.0 {
        return format!("{x:.2}");
    }
    // Every finite double has a finite decimal expansion; 1100 digits hold
    // it whole for any double below 2^53.
    let exact = format!("{x:.1100}");
    let (int_part, frac) = exact.split_once('.').unwrap_or((&exact, ""));
    let mut digits: Vec<u8> = int_part.bytes().chain(frac.bytes().take(2)).collect();
    let round_up = frac.as_bytes().get(2).is_some_and(|&d| d >= b'5');
    if round_up {
        let mut i = digits.len();
        loop {
            if i == 0 {
                digits.insert(0, b'1');
                break;
            }
            i -= 1;
            if digits[i] == b'9' {
                digits[i] = b'0';
            } else {
                digits[i] += 1;
                break;
            }
        }
    }
    let split = digits.len() - 2;
    let text = String::from_utf8_lossy(&digits).into_owned();
    format!("{}.{}", &text[..split], &text[split..])
}

/// `JSON.stringify(s)` for a string given as UTF-16 code units: `"` and
/// `\` escaped, the control characters below U+0020 as `\b \t \n \f \r` or
/// `\u00xx`, a lone surrogate as `\udxxx`; everything else as it is.
pub fn json_string(units: &[u16]) -> String {
    let mut out = String::with_capacity(units.len() + 2);
    out.push('"');
    for item in char::decode_utf16(units.iter().copied()) {
        match item {
            Ok('"') => out.push_str("\\\""),
            Ok('\\') => out.push_str("\\\\"),
            Ok('\u{08}') => out.push_str("\\b"),
            Ok('\t') => out.push_str("\\t"),
            Ok('\n') => out.push_str("\\n"),
            Ok('\u{0C}') => out.push_str("\\f"),
            Ok('\r') => out.push_str("\\r"),
            Ok(c) if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            Ok(c) => out.push(c),
            Err(lone) => out.push_str(&format!("\\u{:04x}", lone.unpaired_surrogate())),
        }
    }
    out.push('"');
    out
}

/// A key `Object.entries` lists before the others, in ascending numeric
/// order: an array index (`"0"`, or digits without a leading zero below
/// 2^32 - 1).
pub fn is_array_index(key: &str) -> bool {
    if key == "0" {
        return true;
    }
    !key.is_empty()
        && !key.starts_with('0')
        && key.bytes().all(|b| b.is_ascii_digit())
        && key.len() <= 10
        && key.parse::<u64>().is_ok_and(|n| n < u32::MAX as u64)
}

/// The keys in the order `Object.entries` gives them for an object built by
/// inserting `keys` in this order: array indices first, ascending, then the
/// others in insertion order.
pub fn entries_order<T>(items: Vec<(String, T)>) -> Vec<(String, T)> {
    let (mut indices, others): (Vec<_>, Vec<_>) =
        items.into_iter().partition(|(key, _)| is_array_index(key));
    indices.sort_by_key(|(key, _)| key.parse::<u64>().unwrap_or(0));
    indices.extend(others);
    indices
}

/// The names every plain JavaScript object already has (`Object.prototype`'s
/// own properties): `name in {}` is true for them, so Cline's
/// `checkDuplicate` and `$ in currentFiles` see them as present.
pub const OBJECT_PROTOTYPE_NAMES: [&str; 12] = [
    "constructor",
    "__defineGetter__",
    "__defineSetter__",
    "hasOwnProperty",
    "__lookupGetter__",
    "__lookupSetter__",
    "isPrototypeOf",
    "propertyIsEnumerable",
    "toString",
    "valueOf",
    "__proto__",
    "toLocaleString",
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cases::assert_cases;

    #[test]
    fn slice_counts_negative_indices_from_the_end() {
        assert_cases(
            |(start, end)| slice_range(3, start, end),
            &[
                ((-2, 3), (1, 3)),
                ((-5, 1), (0, 1)),
                ((2, 9), (2, 3)),
                ((3, 2), (3, 3)),
            ],
        );
    }

    #[test]
    fn to_fixed_rounds_exact_ties_up() {
        assert_cases(
            to_fixed_2,
            &[
                (0.125, "0.13"),
                (0.375, "0.38"),
                (0.005, "0.01"),
                (0.645, "0.65"),
                (0.999, "1.00"),
                (0.0, "0.00"),
                (1.0, "1.00"),
                (6.0 / 14.0, "0.43"),
            ],
        );
    }

    #[test]
    fn json_string_escapes_as_javascript_does() {
        let text: Vec<u16> = "a\"\\\n\u{1}\u{7f}é😀".encode_utf16().collect();
        assert_eq!(json_string(&text), "\"a\\\"\\\\\\n\\u0001\u{7f}é😀\"");
        assert_eq!(json_string(&[0x61, 0xD83D]), "\"a\\ud83d\"");
    }

    #[test]
    fn object_entries_lists_array_indices_first() {
        let keys = ["b", "2", "1", "01", "4294967295", "4294967294"];
        let items = keys.iter().map(|k| (k.to_string(), ())).collect();
        let order: Vec<String> = entries_order(items).into_iter().map(|(k, _)| k).collect();
        assert_eq!(order, ["1", "2", "4294967294", "b", "01", "4294967295"]);
    }
}
