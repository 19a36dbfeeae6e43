//! Random originals and SEARCH/REPLACE diffs for property tests: small
//! vocabularies so blocks match exactly, after trimming, by anchors, out of
//! order, or not at all, with every marker spelling the reference knows.
#![allow(dead_code)]

/// xorshift64*: deterministic from a proptest-chosen seed.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }

    pub fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    pub fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}

/// Plain xorshift (13, 7, 17) from a raw, non-zero seed: the generator the
/// damage tests were written with (their cases depend on its sequence).
pub struct XorShift(pub u64);

impl XorShift {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A number below `n`, which must not be 0.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// What the line generators below need from a generator.
pub trait Below {
    fn below(&mut self, n: usize) -> usize;
}

impl Below for Rng {
    fn below(&mut self, n: usize) -> usize {
        Rng::below(self, n)
    }
}

impl Below for XorShift {
    fn below(&mut self, n: usize) -> usize {
        XorShift::below(self, n)
    }
}

/// `n` lines, line `i` being `line(i, w, v)` for two words drawn from
/// `words` (`w` first) for it.
pub fn word_lines(
    rng: &mut impl Below,
    n: usize,
    words: &[&str],
    line: impl Fn(usize, &str, &str) -> String,
) -> Vec<String> {
    (0..n)
        .map(|i| {
            let w = words[rng.below(words.len())];
            let v = words[rng.below(words.len())];
            line(i, w, v)
        })
        .collect()
}

/// The unique statements of a generated source-like file, `kind` 0 to 3:
/// a signature, a string binding, a comparison with `<` and `&&`, a call
/// with quotes and a dash.
pub fn statement(kind: usize, i: usize, w: &str, v: &str) -> String {
    match kind {
        0 => format!("fn {w}_{i}(input: &str) -> Option<{v}> {{"),
        1 => format!("    let {w}_{i} = \"{v}-{i}\";"),
        2 => format!("    if {w}_{i} < limit && {v} > 0 {{"),
        _ => format!("        log('{w} {i} - {v}');"),
    }
}

const WORDS: &[&str] = &[
    "a",
    "b",
    "c",
    "fn x() {",
    "}",
    "",
    "  a",
    "a  ",
    "\tb",
    "x😀y",
    "ü",
    "\u{00A0}c",
    "a\r",
    "\u{FEFF}b",
    "let v = 1;",
];

const SEARCH: &[&str] = &[
    "------- SEARCH",
    "<<<<<<< SEARCH",
    "--- SEARCH",
    "------- SEARCH>",
];
const SEP: &[&str] = &["=======", "===", "========"];
const REPLACE: &[&str] = &["+++++++ REPLACE", ">>>>>>> REPLACE", "+++ REPLACE>"];
const NOISE: &[&str] = &[
    "",
    " ",
    "text",
    "-- SEARCH",
    "==",
    "+++++++ REPLACE\r",
    "```",
    ">",
    "<",
    "- item",
];

pub fn original(rng: &mut Rng) -> String {
    let n = rng.below(14);
    let mut lines: Vec<&str> = (0..n).map(|_| rng.pick(WORDS)).collect();
    if rng.chance(60) {
        lines.push("");
    }
    lines.join("\n")
}

/// A line of `original` (whitespace-varied at times) or a fresh word.
fn search_line(rng: &mut Rng, orig: &[&str], at: usize) -> String {
    match orig.get(at) {
        Some(l) if !rng.chance(15) => {
            if rng.chance(20) {
                format!("  {}", l.trim())
            } else {
                (*l).to_string()
            }
        }
        _ => rng.pick(WORDS).to_string(),
    }
}

pub fn diff(rng: &mut Rng, original: &str) -> String {
    let orig: Vec<&str> = original.split('\n').collect();
    let mut out: Vec<String> = Vec::new();
    let canonical = rng.chance(50);
    for _ in 0..rng.below(5) {
        if rng.chance(20) {
            out.push(rng.pick(NOISE).to_string());
        }
        let marker = |rng: &mut Rng, set: &[&str]| {
            if canonical {
                set[0].to_string()
            } else {
                rng.pick(set).to_string()
            }
        };
        if !rng.chance(5) {
            out.push(marker(rng, SEARCH));
        }
        let start = rng.below(orig.len() + 1);
        for k in 0..rng.below(4) {
            out.push(search_line(rng, &orig, start + k));
        }
        if !rng.chance(5) {
            out.push(marker(rng, SEP));
        }
        for _ in 0..rng.below(4) {
            out.push(rng.pick(WORDS).to_string());
        }
        if rng.chance(3) {
            out.push(marker(rng, SEP));
        }
        if !rng.chance(8) {
            out.push(marker(rng, REPLACE));
        }
    }
    let mut text = out.join("\n");
    if rng.chance(70) {
        text.push('\n');
    }
    if rng.chance(10) {
        text = text.replace('\n', "\r\n");
    }
    text
}

/// Splits `text` at random char boundaries into pieces of 1..=max bytes or so.
pub fn chunks<'a>(rng: &mut Rng, text: &'a str, max: usize) -> Vec<&'a str> {
    let mut out = Vec::new();
    let mut at = 0;
    while at < text.len() {
        let mut end = (at + 1 + rng.below(max)).min(text.len());
        while !text.is_char_boundary(end) {
            end += 1;
        }
        out.push(&text[at..end]);
        at = end;
    }
    out
}

/// A proptest strategy: one of `texts`, each as likely as the others.
pub fn one_of(texts: &'static [&'static str]) -> impl proptest::strategy::Strategy<Value = String> {
    use proptest::strategy::Strategy;
    proptest::sample::select(texts).prop_map(str::to_string)
}
