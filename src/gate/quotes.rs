//! Curly quotes in a corrected edit: when the gate withholds a correction
//! (or a repair) because it would change quotes the file or the model's
//! text mean: the file's curly quotes written straight, the model's own
//! curly quotes straightened. Shared by the string edits' corrections
//! ([`super::judge`]) and the patches' ([`super::patch`]).

/// The curly quotes of `text` (U+2018, U+2019, U+201C, U+201D) and all its
/// quotes (curly, `'` and `"`).
pub(super) fn quotes(text: &str) -> (isize, isize) {
    let curly = text
        .chars()
        .filter(|c| matches!(c, '\u{2018}' | '\u{2019}' | '\u{201C}' | '\u{201D}'))
        .count() as isize;
    let plain = text.chars().filter(|c| matches!(c, '\'' | '"')).count() as isize;
    (curly, curly + plain)
}

/// Why a correction is withheld when it removes more of the file's curly
/// quotes than the model's edit removes quotes of any kind. `model` and
/// `corrected`: each edit's old and new texts' [`quotes`], summed. A new
/// user's find: a quote repair wrote `Don't` over the file's `Don’t`
/// (Claude Code itself keeps the file's quote style), and Codex's
/// correction did the same; which curly quote each of the model's
/// straight ones stands for is not told, so no correction is offered.
pub(super) fn drops_curly_quotes(
    model: ((isize, isize), (isize, isize)),
    corrected: ((isize, isize), (isize, isize)),
) -> Option<String> {
    let ((model_curly_old, model_old), (model_curly_new, model_new)) = model;
    let ((curly_old, _), (curly_new, _)) = corrected;
    let removed_by_model = (model_old - model_new).max(0);
    // Said as it is: the model's quotes may be curly too (a fresh tester's
    // find: "the model's straight ones" where the model wrote curly ones).
    let model_straight = model_curly_old + model_curly_new == 0;
    (curly_old - curly_new > removed_by_model).then(|| {
        if model_straight {
            "the corrected edit would replace the file's curly quotes with the model's straight \
             ones, which the model does not mean to change: srview cannot tell which curly quote \
             each of the model's stands for"
                .to_string()
        } else {
            "the corrected edit would write straight quotes over the file's curly ones, which \
             the model does not mean to change: srview cannot tell which of the file's quotes \
             each of the model's stands for"
                .to_string()
        }
    })
}

/// Why a correction that writes the model's curly quotes straight (read
/// as the file's straight ones: its old text has fewer curly quotes than
/// the model's) is withheld: a line of the model's new text that stands
/// for none of its old lines holds curly quotes of its own, and which of
/// them are meant straight (a string's delimiters) and which curly (an
/// apostrophe in its prose) cannot be told. A new line stands for an old
/// line when a line diff of the two texts (quotes and indentation aside)
/// pairs them and it holds the same curly quotes in the same order (the
/// model's `“low”` made `“LOW”`); an added line stands for none. A fresh
/// tester's find: an added `subtitle = 'You’re in the “beta” programme'`
/// straightened to `'You're ...'`, a Python SyntaxError. `model`,
/// `corrected`: each edit's (or hunk's) old and new texts.
pub(super) fn own_curly_quotes(
    model: &[(&str, &str)],
    corrected: &[(&str, &str)],
) -> Option<String> {
    let curly = |text: &str| quotes(text).0;
    let sent: isize = model.iter().map(|(old, _)| curly(old)).sum();
    let kept: isize = corrected.iter().map(|(old, _)| curly(old)).sum();
    if sent <= kept {
        return None;
    }
    let marks = |line: &str| -> Vec<char> {
        line.chars()
            .filter(|c| matches!(c, '\u{2018}' | '\u{2019}' | '\u{201C}' | '\u{201D}'))
            .collect()
    };
    model.iter().find_map(|(old, new)| {
        let (old, new): (Vec<&str>, Vec<&str>) = (old.lines().collect(), new.lines().collect());
        let key = |line: &&str| straight_quotes(line.trim());
        let keys = |lines: &[&str]| lines.iter().map(key).collect::<Vec<String>>();
        // The old line each new line is paired with, if any.
        let mut paired: Vec<Option<usize>> = vec![None; new.len()];
        for op in crate::textdiff::ops(&keys(&old), &keys(&new), None) {
            let (olds, news) = (op.old_range(), op.new_range());
            for (o, n) in olds.zip(news) {
                paired[n] = Some(o);
            }
        }
        new.iter()
            .zip(&paired)
            .find(|(line, pair)| {
                curly(line) > 0 && pair.is_none_or(|o| marks(old[o]) != marks(line))
            })
            .map(|(line, _)| {
                format!(
                    "the model wrote curly quotes where the file has straight ones, and its new \
                     line `{}` holds curly quotes of its own: srview cannot tell which of them \
                     it means as straight quotes",
                    line.trim()
                )
            })
    })
}

/// Old and new texts, borrowed.
pub(super) fn borrowed(pairs: &[(String, String)]) -> Vec<(&str, &str)> {
    pairs
        .iter()
        .map(|(o, n)| (o.as_str(), n.as_str()))
        .collect()
}

/// The summed [`quotes`] of old and new texts.
pub(super) fn quotes_of<'a>(
    pairs: impl IntoIterator<Item = (&'a str, &'a str)>,
) -> ((isize, isize), (isize, isize)) {
    pairs
        .into_iter()
        .fold(((0, 0), (0, 0)), |((a, b), (c, d)), (old, new)| {
            let (o1, o2) = quotes(old);
            let (n1, n2) = quotes(new);
            ((a + o1, b + o2), (c + n1, d + n2))
        })
}

/// `text` with curly quotes written straight.
pub(super) fn straight_quotes(text: &str) -> String {
    text.replace(['\u{2018}', '\u{2019}'], "'")
        .replace(['\u{201C}', '\u{201D}'], "\"")
}

/// A Claude Code `Edit` whose straight-quoted `old` matches `content` only
/// with the file's curly quotes read straight: the edit over the file's own
/// text (its old text, its new text) with the quotes carried by position,
/// when which curly quote each straight one of `new` stands for is certain:
/// `new` differs from `old` only in a stretch holding no quote of any kind,
/// so every quote of `new` sits, relative to unchanged text, where `old`
/// has it and the file has its curly one (a tester's find: `msg = "Hello"`
/// made `msg = "Hello, world"` over the file's `msg = “Hello”` was denied,
/// though Claude Code writes `msg = “Hello, world”`). `Err`: why not (the
/// changed stretch adds or moves a quote). `Ok(None)`: the text is not
/// found so (its first place, `\r\n` read as `\n`, as Claude Code finds
/// it).
pub(super) fn carried(
    content: &str,
    old: &str,
    new: &str,
) -> Result<Option<(String, String)>, String> {
    let content = content.replace("\r\n", "\n");
    let (file, wanted) = (straight_quotes(&content), straight_quotes(old));
    let Some(at) = file.find(&wanted) else {
        return Ok(None);
    };
    // The same place in the file's own text: straightening keeps the
    // number of characters.
    let start = file[..at].chars().count();
    let length = wanted.chars().count();
    let actual: Vec<char> = content.chars().skip(start).take(length).collect();
    let (old, new): (Vec<char>, Vec<char>) = (old.chars().collect(), new.chars().collect());
    if actual.len() != old.len() {
        return Ok(None);
    }
    let (prefix, suffix) = crate::textdiff::shared_ends(&old, &new);
    let changed: String = new[prefix..new.len() - suffix].iter().collect();
    let quote = |c: &char| {
        matches!(
            c,
            '\'' | '"' | '\u{2018}' | '\u{2019}' | '\u{201C}' | '\u{201D}'
        )
    };
    if changed.chars().any(|c| quote(&c)) {
        return Err(format!(
            "the model's new text writes quotes of its own (`{}`) where the file has curly \
             ones: srview cannot tell whether each is meant straight or curly",
            changed.trim()
        ));
    }
    let file_old: String = actual.iter().collect();
    let file_new: String = actual[..prefix]
        .iter()
        .chain(new[prefix..new.len() - suffix].iter())
        .chain(actual[old.len() - suffix..].iter())
        .collect();
    Ok(Some((file_old, file_new)))
}

#[cfg(test)]
mod tests {
    use super::carried;

    #[test]
    fn a_change_inside_curly_quotes_keeps_them() {
        let content = "msg = \u{201C}Hello\u{201D}\nother = 1\n";
        assert_eq!(
            carried(content, "msg = \"Hello\"", "msg = \"Hello, world\""),
            Ok(Some((
                "msg = \u{201C}Hello\u{201D}".to_string(),
                "msg = \u{201C}Hello, world\u{201D}".to_string()
            )))
        );
        // A quote removed: the file's own is removed.
        assert_eq!(
            carried(content, "msg = \"Hello\"", "msg = Hello\""),
            Ok(Some((
                "msg = \u{201C}Hello\u{201D}".to_string(),
                "msg = Hello\u{201D}".to_string()
            )))
        );
    }

    #[test]
    fn a_quote_added_or_moved_is_not_carried() {
        let content = "msg = \u{201C}Hello\u{201D} + x\n";
        let added = carried(
            content,
            "msg = \"Hello\" + x",
            "msg = \"Hello\" + \"y\" + x",
        );
        assert_eq!(
            added,
            Err(
                "the model's new text writes quotes of its own (`\"y\" +`) where the file \
                 has curly ones: srview cannot tell whether each is meant straight or curly"
                    .to_string()
            )
        );
        assert_eq!(carried(content, "msg = \"Bye\"", "msg = \"Hi\""), Ok(None));
    }
}
