//! Syntax highlighting of only the rows on screen. Parsing is stateful, so
//! the parser's state is saved every few lines; a frame resumes from the
//! nearest saved state instead of parsing the file from its first line. A
//! jump far past every saved state restarts a little above the target, which
//! may colour a long multi-line string wrongly but never stalls the screen.

use std::ops::Range;
use std::path::Path;
use std::sync::OnceLock;

use ratatui::style::Color;
use syntect::highlighting::{HighlightState, Highlighter, RangedHighlightIterator, Theme};
use syntect::parsing::{ParseState, ScopeStack, SyntaxReference, SyntaxSet};

use super::syntax_pack::{Catalogue, Entry, Pack};

use crate::tui::app::text::TextLines;

const CHECKPOINT_EVERY: usize = 64;
const FAR: usize = 300;
const RESTART_ABOVE: usize = 48;

/// bat's grammars (via two-face), split into a pack at build time by
/// `examples/syntax_pack.rs` so a run loads only the grammar its file needs.
static PACK: &[u8] = include_bytes!("../../../assets/syntax-pack.bin");

/// Syntax detection, grammars loaded on first use, and the colour theme.
pub struct Syntaxes {
    pack: Option<Pack<'static>>,
    catalogue: Catalogue,
    theme: Theme,
    /// Per catalogue syntax: which of `sets` holds its grammar, and where.
    places: Vec<Option<(usize, Entry)>>,
    /// One slot per distinct dump, so syntaxes sharing one (Markdown,
    /// LaTeX...) load it once.
    sets: Vec<OnceLock<Option<Box<SyntaxSet>>>>,
}

fn os_str(part: Option<&std::ffi::OsStr>) -> &str {
    part.and_then(|p| p.to_str()).unwrap_or("")
}

impl Syntaxes {
    /// The pack is part of the executable and a test decodes every entry,
    /// so a failure here is a broken build; it degrades to plain text.
    pub fn load() -> Self {
        let loaded =
            Pack::decode(PACK).and_then(|pack| Ok((pack.catalogue()?, pack.theme()?, pack)));
        match loaded {
            Ok((catalogue, theme, pack)) => {
                let mut offsets: Vec<usize> = Vec::new();
                let places = (0..pack.len())
                    .map(|i| {
                        let entry = pack.entry(i).ok()?;
                        let slot = match offsets.iter().position(|&o| o == entry.offset) {
                            Some(slot) => slot,
                            None => {
                                offsets.push(entry.offset);
                                offsets.len() - 1
                            }
                        };
                        Some((slot, entry))
                    })
                    .collect();
                Syntaxes {
                    sets: offsets.iter().map(|_| OnceLock::new()).collect(),
                    places,
                    pack: Some(pack),
                    catalogue,
                    theme,
                }
            }
            Err(_) => Syntaxes {
                pack: None,
                catalogue: Catalogue::empty(),
                theme: Theme::default(),
                places: Vec::new(),
                sets: Vec::new(),
            },
        }
    }

    /// The syntax for a file, as syntect's `find_syntax_for_file` finds it:
    /// by whole file name (`Makefile`), then extension, then first line.
    /// `None` for plain text.
    pub fn detect(&self, path: &Path, first_line: &str) -> Option<usize> {
        let cat = &self.catalogue;
        let found = cat
            .by_extension(os_str(path.file_name()))
            .or_else(|| cat.by_extension(os_str(path.extension())))
            .or_else(|| cat.by_first_line(first_line))?;
        (cat.name(found) != Some("Plain Text")).then_some(found)
    }

    /// Name of a detected syntax ("plain text" for none).
    #[cfg(test)]
    pub fn name(&self, syntax: Option<usize>) -> &str {
        syntax
            .and_then(|i| self.catalogue.name(i))
            .unwrap_or("plain text")
    }

    /// The grammar of a detected syntax, read from the pack the first time.
    fn grammar(&self, syntax: usize) -> Option<(&SyntaxSet, &SyntaxReference)> {
        let (slot, entry) = (*self.places.get(syntax)?)?;
        let set = self
            .sets
            .get(slot)?
            .get_or_init(|| Some(Box::new(self.pack.as_ref()?.load(entry).ok()?)))
            .as_ref()?;
        Some((set, set.syntaxes().get(entry.index_in_dump)?))
    }
}

#[derive(Clone)]
struct Checkpoint {
    line: usize,
    parse: ParseState,
    highlight: HighlightState,
    /// Found by a parse from the first line (not restarted above a far
    /// jump): the true state.
    exact: bool,
}

/// Colour runs of one line: byte ranges into the line with their colour.
pub type LineColours = Vec<(Color, Range<usize>)>;

/// Highlighting cache of one document.
pub struct DocHighlighter {
    syntax: Option<usize>,
    checkpoints: Vec<Checkpoint>,
    /// The last lines coloured and their colours: a frame that asks for
    /// them again (nothing changed, as in most frames) is answered
    /// without parsing. Forgotten when the text or the saved states
    /// change.
    last: Option<(Range<usize>, Vec<LineColours>)>,
}

impl DocHighlighter {
    pub fn new(syntax: Option<usize>) -> Self {
        DocHighlighter {
            syntax,
            checkpoints: Vec::new(),
            last: None,
        }
    }

    /// The detected syntax (a catalogue index), `None` for plain text.
    #[cfg(test)]
    pub fn syntax(&self) -> Option<usize> {
        self.syntax
    }

    /// Forgets saved states after `line`: the text changed from there on.
    pub fn invalidate_from(&mut self, line: usize) {
        self.checkpoints.retain(|c| c.line <= line);
        self.last = None;
    }

    /// Forgets the last colours only: the text may have been replaced.
    pub fn forget_colours(&mut self) {
        self.last = None;
    }

    /// Takes `other`'s saved states up to `line` (a state at a line is
    /// the parser's before it): the two texts are the same before `line`
    /// (a file and the same file edited from there on) and are read with
    /// the same syntax, so the states are the ones this text's own parse
    /// would save. The result of an edit then parses from its first
    /// change on, not again from its first line.
    pub fn share_until(&mut self, other: &DocHighlighter, line: usize) {
        if self.syntax != other.syntax {
            return;
        }
        // A state a parse restarted above a far jump found is this
        // highlighter's to guess (it may restart elsewhere).
        let exact = other.checkpoints.iter().filter(|c| c.exact);
        for c in exact.take_while(|c| c.line <= line) {
            if let Err(at) = self.checkpoints.binary_search_by_key(&c.line, |k| k.line) {
                self.checkpoints.insert(at, c.clone());
                // The next parse may resume from this state.
                self.last = None;
            }
        }
    }

    /// Colours of lines `range` of `text`.
    pub fn highlight(
        &mut self,
        syn: &Syntaxes,
        text: &TextLines,
        range: Range<usize>,
    ) -> Vec<LineColours> {
        let Some((set, syntax)) = self.syntax.and_then(|i| syn.grammar(i)) else {
            return vec![Vec::new(); range.len()];
        };
        // The same lines again (not a part of them: a parse of a part may
        // resume elsewhere above a far jump, and guess other colours).
        if let Some((last, colours)) = &self.last
            && *last == range
        {
            return colours.clone();
        }
        let highlighter = Highlighter::new(&syn.theme);
        let nearest = self.checkpoints.iter().rposition(|c| c.line <= range.start);
        let (mut line, mut parse, mut state, exact) = match nearest {
            Some(i) if range.start - self.checkpoints[i].line <= FAR => {
                let c = &self.checkpoints[i];
                (c.line, c.parse.clone(), c.highlight.clone(), c.exact)
            }
            _ => {
                let start = if range.start <= FAR {
                    0
                } else {
                    range.start - RESTART_ABOVE
                };
                (
                    start,
                    ParseState::new(syntax),
                    HighlightState::new(&highlighter, ScopeStack::new()),
                    start == 0,
                )
            }
        };
        let mut out = Vec::with_capacity(range.len());
        let mut buf = String::new();
        while line < range.end {
            if line % CHECKPOINT_EVERY == 0 && !self.checkpoints.iter().any(|c| c.line == line) {
                let at = self.checkpoints.partition_point(|c| c.line < line);
                self.checkpoints.insert(
                    at,
                    Checkpoint {
                        line,
                        parse: parse.clone(),
                        highlight: state.clone(),
                        exact,
                    },
                );
            }
            let text_line = text.line(line);
            buf.clear();
            buf.push_str(&text_line);
            buf.push('\n');
            let ops = parse.parse_line(&buf, set).unwrap_or_default();
            if line >= range.start {
                let runs = RangedHighlightIterator::new(&mut state, &ops, &buf, &highlighter)
                    .filter_map(|(style, _, r)| {
                        let r = r.start.min(text_line.len())..r.end.min(text_line.len());
                        let c = style.foreground;
                        (!r.is_empty()).then_some((Color::Rgb(c.r, c.g, c.b), r))
                    })
                    .collect();
                out.push(runs);
            } else {
                // Advance the highlight state without building runs.
                RangedHighlightIterator::new(&mut state, &ops, &buf, &highlighter).for_each(drop);
            }
            line += 1;
        }
        self.last = Some((range, out.clone()));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detects_languages_the_issue_names() {
        let syn = Syntaxes::load();
        for ext in ["ts", "tsx", "toml", "json", "yaml", "md", "rs", "py", "go"] {
            let p = format!("x.{ext}");
            assert!(
                syn.detect(Path::new(&p), "").is_some(),
                "no syntax for .{ext}"
            );
        }
        assert!(syn.detect(Path::new("x.unknownext"), "").is_none());
    }

    #[test]
    fn syntaxes_sharing_a_dump_load_it_once() {
        let syn = Syntaxes::load();
        let md = syn.detect(Path::new("a.md"), "").expect("markdown");
        let tex = syn.detect(Path::new("a.tex"), "").expect("latex");
        let rs = syn.detect(Path::new("a.rs"), "").expect("rust");
        let (md_set, _) = syn.grammar(md).expect("markdown grammar");
        let (tex_set, _) = syn.grammar(tex).expect("latex grammar");
        let (rs_set, _) = syn.grammar(rs).expect("rust grammar");
        assert!(
            std::ptr::eq(md_set, tex_set),
            "one shared dump, loaded once"
        );
        assert!(!std::ptr::eq(md_set, rs_set));
        assert_eq!(rs_set.syntaxes().len(), 1, "Rust embeds nothing");
    }

    #[test]
    fn first_line_patterns_see_the_newline() {
        let syn = Syntaxes::load();
        // `<\?xml\s` needs the newline that follows a bare `<?xml`.
        assert_eq!(syn.name(syn.detect(Path::new("noext"), "<?xml\n")), "XML");
        assert_eq!(
            syn.name(syn.detect(Path::new("noext"), "<?xml")),
            "plain text"
        );
    }

    #[test]
    fn resumes_from_checkpoints_with_same_colours() {
        let syn = Syntaxes::load();
        let src: String = (0..300)
            .map(|i| format!("let x{i} = \"s{i}\"; // c\n"))
            .collect();
        let text = TextLines::owned(src);
        let id = syn.detect(Path::new("a.rs"), "");
        let mut a = DocHighlighter::new(id);
        let whole = a.highlight(&syn, &text, 0..300);
        let mut b = DocHighlighter::new(id);
        b.highlight(&syn, &text, 0..10);
        let part = b.highlight(&syn, &text, 200..210);
        assert_eq!(part, whole[200..210].to_vec());
        assert!(whole[5].len() > 1, "a line of Rust has several colours");
    }

    /// Colours asked for again come from the last answer (the same as a
    /// parse gives), until the text changes.
    #[test]
    fn colours_asked_again_are_kept_until_the_text_changes() {
        let syn = Syntaxes::load();
        let id = syn.detect(Path::new("a.rs"), "");
        let text = TextLines::owned("let a = 1;\nlet b = \"x\";\n".repeat(100));
        let mut h = DocHighlighter::new(id);
        let first = h.highlight(&syn, &text, 100..140);
        let states = h.checkpoints.len();
        assert_eq!(h.highlight(&syn, &text, 110..120), first[10..20].to_vec());
        assert_eq!(h.checkpoints.len(), states);
        let mut fresh = DocHighlighter::new(id);
        assert_eq!(
            fresh.highlight(&syn, &text, 110..120),
            first[10..20].to_vec()
        );
        // The text changed from line 105: its colours are found again.
        let changed = TextLines::owned(format!(
            "{}/* open\n{}",
            "let a = 1;\nlet b = \"x\";\n".repeat(52),
            "let c = 2;\n".repeat(100)
        ));
        h.highlight(&syn, &text, 110..120);
        h.invalidate_from(104);
        let again = h.highlight(&syn, &changed, 110..120);
        assert_eq!(again, fresh_colours(&syn, id, &changed, 110..120));
        assert_ne!(again, first[10..20].to_vec());
    }

    fn fresh_colours(
        syn: &Syntaxes,
        id: Option<usize>,
        text: &TextLines,
        range: Range<usize>,
    ) -> Vec<LineColours> {
        DocHighlighter::new(id).highlight(syn, text, range)
    }

    /// States shared from a text the same up to a line give the colours
    /// the text's own parse gives, and the parse resumes from them.
    #[test]
    fn states_shared_up_to_the_first_change_give_the_same_colours() {
        let syn = Syntaxes::load();
        let lines = |changed_from: usize| -> String {
            (0..300)
                .map(|i| match i {
                    i if i >= changed_from && i % 7 == 0 => format!("/* open {i}\n"),
                    i => format!("let x{i} = \"s{i}\"; // c\n"),
                })
                .collect()
        };
        let (original, edited) = (TextLines::owned(lines(300)), TextLines::owned(lines(150)));
        let id = syn.detect(Path::new("a.rs"), "");
        let mut own = DocHighlighter::new(id);
        let want = own.highlight(&syn, &edited, 140..200);
        let mut first = DocHighlighter::new(id);
        first.highlight(&syn, &original, 100..160);
        let mut shared = DocHighlighter::new(id);
        shared.share_until(&first, 150);
        assert_eq!(
            shared
                .checkpoints
                .iter()
                .map(|c| c.line)
                .collect::<Vec<_>>(),
            vec![0, 64, 128],
            "the states before the first change only"
        );
        assert_eq!(shared.highlight(&syn, &edited, 140..200), want);
        // A parse restarted above a far jump guesses its states: none is
        // shared.
        let long = TextLines::owned(lines(300).repeat(4));
        let mut jumped = DocHighlighter::new(id);
        jumped.highlight(&syn, &long, 1000..1010);
        assert!(!jumped.checkpoints.is_empty());
        let mut none = DocHighlighter::new(id);
        none.share_until(&jumped, 1200);
        assert!(none.checkpoints.is_empty(), "guessed states are not shared");
        assert_ne!(
            want[20],
            first.highlight(&syn, &original, 160..161)[0],
            "the edit changed the colours (line 161 is in a comment)"
        );
    }
}
