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

struct Checkpoint {
    line: usize,
    parse: ParseState,
    highlight: HighlightState,
}

/// Colour runs of one line: byte ranges into the line with their colour.
pub type LineColours = Vec<(Color, Range<usize>)>;

/// Highlighting cache of one document.
pub struct DocHighlighter {
    syntax: Option<usize>,
    checkpoints: Vec<Checkpoint>,
}

impl DocHighlighter {
    pub fn new(syntax: Option<usize>) -> Self {
        DocHighlighter {
            syntax,
            checkpoints: Vec::new(),
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
        let highlighter = Highlighter::new(&syn.theme);
        let nearest = self.checkpoints.iter().rposition(|c| c.line <= range.start);
        let (mut line, mut parse, mut state) = match nearest {
            Some(i) if range.start - self.checkpoints[i].line <= FAR => {
                let c = &self.checkpoints[i];
                (c.line, c.parse.clone(), c.highlight.clone())
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
}
