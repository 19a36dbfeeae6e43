//! The doubts srview has about a patch the reference applies (their
//! kinds and one record each), kept apart from the checks that find them
//! ([`super::doubt`], [`super::sections`]) so both can name them.

use serde::Serialize;

use crate::diagnose::layout::BreakKind;

/// What is in doubt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PatchDoubtKind {
    /// The hunk's lines occur again after where they matched, where the
    /// reference searches: it took the first, which may not be the one meant.
    Repeated,
    /// A hunk with only added lines and an `@@` line: the reference adds
    /// them at the end of the file, not at the `@@` line.
    AddedAtEnd,
    /// `*** Add File:` over a file that exists, or `*** Move to:` onto one:
    /// the reference replaces it whole.
    ReplacesFile,
    /// `*** Move to:` naming the file itself (`./a.py` for `a.py`): the
    /// reference writes the file, then deletes it (the file is lost).
    MovesOntoItself,
    /// Its new lines end with the lines right after its old lines (or
    /// begin with those right before them), which its old lines do not
    /// account for: applied, those lines appear twice.
    RepeatsNeighbours,
    /// The section leaves the file with a fault of its own as a whole
    /// ([`crate::diagnose::layout::layout_break`]): misindented where
    /// Python reads it (named `breaks-indentation`), a Makefile's recipe
    /// line in spaces, a name defined twice, brackets unbalanced, JSON,
    /// YAML or TOML unreadable, a Python name used and no longer defined,
    /// a string left open.
    Layout(BreakKind),
    /// A whitespace-blind level matched it, and its new lines keep the
    /// patch's indentation: they are shifted against the lines they replace.
    IndentShift,
    /// Its new lines already stand where its old lines matched: applied
    /// once already, and applied again they repeat.
    AlreadyApplied,
    /// Its added lines stand in for removed lines they leave out (a
    /// placeholder such as `# ... rest unchanged ...`): applied, those
    /// lines are gone.
    ElidesLines,
    /// Its added lines bring bidirectional controls or zero-width
    /// characters the file did not hold ([`crate::diagnose::hidden`]).
    HiddenText,
    /// Its new last line ends in a `\\` its old one did not, and the file's
    /// next line, which it does not show, joins onto it.
    JoinsLines,
    /// A hunk of a later `*** Update File:` section of a file an earlier
    /// section updated: searched from the file's top again, it lands at an
    /// earlier place its lines also stand at than the same hunks sent as
    /// one section would ([`super::sections`]); with OpenCode, a section
    /// whose change the later section's write replaces.
    SplitSections,
    /// `*** Delete File:` of a file an earlier section updated (by any
    /// name: `./a.py`, its absolute path, a link): the update is written,
    /// then the file deleted, and the update is lost (tester 51 T-07).
    DeletesUpdated,
    /// A hunk whose `@@` line names a definition the agent did not find:
    /// Cline ignores it and places the hunk in another definition (tester
    /// 51 T-08).
    HeaderIgnored,
}

impl PatchDoubtKind {
    /// A fault of the file as the section leaves it
    /// ([`crate::diagnose::layout::layout_break`]), judged on the result
    /// the agent writes, not a fault of where a hunk lands.
    pub fn is_layout(self) -> bool {
        matches!(self, PatchDoubtKind::Layout(_))
    }

    /// Its name in a patch's JSON report (`repeated`, `added-at-end`,
    /// `breaks-indentation`, ...).
    pub fn name(self) -> &'static str {
        use PatchDoubtKind as K;
        match self {
            K::Repeated => "repeated",
            K::AddedAtEnd => "added-at-end",
            K::ReplacesFile => "replaces-file",
            K::MovesOntoItself => "moves-onto-itself",
            K::RepeatsNeighbours => "repeats-neighbours",
            K::Layout(BreakKind::Misindents) => "breaks-indentation",
            K::Layout(kind) => kind.name(),
            K::IndentShift => "indent-shift",
            K::AlreadyApplied => "already-applied",
            K::ElidesLines => "elides-lines",
            K::HiddenText => "hidden-text",
            K::JoinsLines => "joins-lines",
            K::SplitSections => "split-sections",
            K::DeletesUpdated => "deletes-updated",
            K::HeaderIgnored => "header-ignored",
        }
    }
}

impl Serialize for PatchDoubtKind {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

/// One section or hunk srview cannot stand behind.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PatchDoubt {
    /// The file as the patch names it.
    pub file: String,
    /// 0-based section of the patch.
    pub section: usize,
    /// 0-based hunk within the section; `None` for the section itself.
    pub hunk: Option<usize>,
    /// What is in doubt.
    pub kind: PatchDoubtKind,
    /// One sentence, without a final stop.
    pub message: String,
}

impl PatchDoubt {
    /// Section `section` of `file` replaces a file that exists.
    pub(super) fn replaces_file(file: &str, section: usize, message: String) -> Self {
        PatchDoubt {
            file: file.to_string(),
            section,
            hunk: None,
            kind: PatchDoubtKind::ReplacesFile,
            message,
        }
    }
}
