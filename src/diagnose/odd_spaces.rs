//! *Pure.* The spaces other than U+0020 a model's text carries that a C,
//! Rust, Go or shell reader does not take for white space: one table for
//! the readers that look for them ([`super::doubt_braces`],
//! [`super::doubt_shell`]) and the check that says them
//! ([`super::doubt_spaces`]). A leaf: it imports nothing of srview's.

/// Whether `c` is a space other than U+0020 that a model's text carries
/// and a C, Rust, Go or shell reader does not take for white space: the
/// no-break space, the Ogham space mark, the en to hair spaces, the
/// narrow no-break, medium mathematical and ideographic spaces.
pub(crate) fn odd_space(c: char) -> bool {
    matches!(
        c,
        '\u{A0}' | '\u{1680}' | '\u{2000}'..='\u{200A}' | '\u{202F}' | '\u{205F}' | '\u{3000}'
    )
}

/// Whether the UTF-8 `bytes` start with an [`odd_space`].
pub(crate) fn odd_space_at(bytes: &[u8]) -> bool {
    let head = &bytes[..bytes.len().min(4)];
    let text = match std::str::from_utf8(head) {
        Ok(t) => t,
        Err(e) => std::str::from_utf8(&head[..e.valid_up_to()]).unwrap_or(""),
    };
    text.chars().next().is_some_and(odd_space)
}
