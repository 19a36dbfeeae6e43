//! `srview::textdiff` must give exactly what similar's `TextDiff` gives: it
//! replaces it only to compile Myers once instead of about 20 times.

use proptest::prelude::*;
use similar::{Algorithm, ChangeTag, TextDiff};
use srview::textdiff::{self, TokenDiff};

type Tagged = Vec<(ChangeTag, Option<usize>, Option<usize>, String)>;

fn tagged<'a>(changes: impl Iterator<Item = similar::Change<&'a str>>) -> Tagged {
    changes
        .map(|c| (c.tag(), c.old_index(), c.new_index(), c.value().to_string()))
        .collect()
}

/// Text from a small alphabet of lines and words, so diffs have many ties
/// (where Myers' choices show) and inputs pass similar's 100-token switch
/// to integer keys.
fn text() -> impl Strategy<Value = String> {
    let token = prop::sample::select(vec![
        "a", "b", "fn", " ", "  ", "\n", "\r\n", "{", "}", "x = 1;", "é", "\t",
    ]);
    prop::collection::vec(token, 0..1200).prop_map(|t| t.concat())
}

fn edited() -> impl Strategy<Value = (String, String)> {
    (text(), text(), 0usize..300, 0usize..300).prop_map(|(a, insert, at, cut)| {
        // The second text mostly shares the first, as real edits do.
        let chars: Vec<char> = a.chars().collect();
        let at = at.min(chars.len());
        let cut = (at + cut / 10).min(chars.len());
        let b: String = chars[..at]
            .iter()
            .chain(insert.chars().take(40).collect::<Vec<_>>().iter())
            .chain(&chars[cut..])
            .collect();
        (a, b)
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn lines_words_and_chars_equal_text_diff((a, b) in edited()) {
        let reference = TextDiff::from_lines(&a, &b);
        let ours = TokenDiff::lines(&a, &b);
        prop_assert_eq!(ours.ops(), reference.ops());
        prop_assert_eq!(tagged(ours.changes()), tagged(reference.iter_all_changes()));

        let reference = TextDiff::from_words(&a, &b);
        let ours = TokenDiff::words(&a, &b);
        prop_assert_eq!(ours.ops(), reference.ops());
        prop_assert_eq!(tagged(ours.changes()), tagged(reference.iter_all_changes()));

        let reference = TextDiff::configure().algorithm(Algorithm::Myers).diff_chars(&a, &b);
        let ours = TokenDiff::chars(&a, &b, None);
        prop_assert_eq!(ours.ops(), reference.ops());
        prop_assert_eq!(ours.ratio(), reference.ratio());
    }

    #[test]
    fn slices_equal_text_diff((a, b) in edited()) {
        let old: Vec<&str> = a.lines().collect();
        let new: Vec<&str> = b.lines().collect();
        let reference = TextDiff::configure().algorithm(Algorithm::Myers).diff_slices(&old, &new);
        let ours = TokenDiff::slices(&old, &new);
        prop_assert_eq!(tagged(ours.changes()), tagged(reference.iter_all_changes()));

        let keys = |v: &[&str]| v.iter().map(|l| l.len() as u32 % 5).collect::<Vec<u32>>();
        let (ko, kn) = (keys(&old), keys(&new));
        prop_assert_eq!(
            textdiff::ops(&ko, &kn, None),
            similar::capture_diff_slices(Algorithm::Myers, &ko, &kn)
        );
    }
}

#[test]
fn a_known_word_diff() {
    let d = TokenDiff::words("foo bar baz", "foo BAR baz");
    let got: Vec<(ChangeTag, &str)> = d.changes().map(|c| (c.tag(), c.value())).collect();
    assert_eq!(
        got,
        [
            (ChangeTag::Equal, "foo"),
            (ChangeTag::Equal, " "),
            (ChangeTag::Delete, "bar"),
            (ChangeTag::Insert, "BAR"),
            (ChangeTag::Equal, " "),
            (ChangeTag::Equal, "baz"),
        ]
    );
}
