//! A patch or an edit applied to one given file (`srview apply FILE DIFF`,
//! `check`, `fix`, the single-file previewer), whatever path it names: the
//! file on the command line is the one edited, as with SEARCH/REPLACE
//! blocks.

use std::fmt;
use std::path::{Path, PathBuf};

use super::Dialect;
use super::apply_patch::fs::normalize;
use super::apply_patch::{
    HunkState, MemoryFs, Patch, PatchOutcome, Section, apply, apply_partial, parse, parse_partial,
};
use super::edit::{Edit, PartialEdit, Tool};
use crate::error::Refusal;

/// Why a diff cannot be applied to one file. `Display` is written out: it
/// lists the patch's sections.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OneFileError {
    /// The patch has several sections and none (or several) names the file.
    WhichSection {
        /// The file's name.
        file: String,
        /// Every section's path, in patch order.
        paths: Vec<String>,
    },
    /// Several sections name the file (the agent applies them one after
    /// the other); the one-file commands take one section per file.
    SeveralSections {
        /// The file's name.
        file: String,
        /// How many sections name it.
        count: usize,
        /// The path the first of them names.
        path: String,
    },
    /// The section that names the file deletes it.
    Deletes(String),
    /// The JSON is no edit srview knows (its keys say no tool).
    UnknownEdit,
    /// The edit's JSON does not parse (the parser's text).
    BadEdit(String),
}

/// Said where no command line is known (the library's callers): the
/// commands and the previewer say [`OneFileError::said`], with the patch's
/// own path and folder (session 51: `PATCH` and `DIR` were printed).
const WHOLE_PATCH: &str = "`srview apply --transcript` of the whole patch, in the folder its \
                           paths are relative to";

impl fmt::Display for OneFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text(WHOLE_PATCH))
    }
}

impl OneFileError {
    /// The error with `how` for the command that applies the whole patch.
    fn text(&self, how: &str) -> String {
        match self {
            OneFileError::WhichSection { file, paths } => format!(
                "the patch edits {} and none of its sections alone names {file}: \
                 use {how} for a patch of several files",
                paths.join(", ")
            ),
            OneFileError::SeveralSections { file, count, .. } => format!(
                "the patch has {count} sections for {file}, applied one after the other; \
                 a command on one file takes one section per file: use {how}"
            ),
            OneFileError::Deletes(path) => format!("the patch deletes {path}: use {how}"),
            OneFileError::UnknownEdit => "the JSON is no edit: expected Claude Code's Edit \
                 {file_path, old_string, new_string} or Write {file_path, content}, or Cline's \
                 editor {path, old_text, new_text}"
                .to_string(),
            OneFileError::BadEdit(why) => why.clone(),
        }
    }

    /// The error as the command the user ran on FILE (`rerun`; FILE's
    /// folder `cwd`) says it: the command that applies the whole patch is
    /// runnable as printed, with the patch's own path (or `-`, the patch
    /// given on stdin again) and `--cwd` the folder its paths are relative
    /// to ([`patch_folder`]), as `rerun` says other commands (session 51:
    /// `srview apply --transcript PATCH --cwd DIR` was printed).
    pub fn said(&self, rerun: &Rerun, cwd: &str) -> String {
        let paths: Vec<&str> = match self {
            OneFileError::WhichSection { paths, .. } => paths.iter().map(String::as_str).collect(),
            OneFileError::SeveralSections { path, .. } | OneFileError::Deletes(path) => {
                vec![path.as_str()]
            }
            OneFileError::UnknownEdit | OneFileError::BadEdit(_) => return self.to_string(),
        };
        self.text(&rerun.whole_patch(patch_folder(&paths, cwd).as_deref(), false, false))
    }
}

/// [`patch_folder`] of every path the patch `text` names (`None` when it
/// does not parse).
pub fn folder_of_patch(text: &str, cwd: &str) -> Option<PathBuf> {
    let patch = parse(text).ok()?;
    let paths: Vec<&str> = patch.sections.iter().map(Section::path).collect();
    patch_folder(&paths, cwd)
}

/// The folder a patch naming `paths` runs in, for a command on a file in
/// `cwd`: the current folder, or `cwd` or the nearest folder above it,
/// where every relative path names a file (else the first where one does);
/// the current folder when every path is absolute; `None` when no path
/// names a file from any of them.
pub fn patch_folder(paths: &[&str], cwd: &str) -> Option<PathBuf> {
    let relative: Vec<String> = paths
        .iter()
        .map(|path| normalize(path))
        .filter(|path| !path.starts_with('/'))
        .collect();
    let current = std::env::current_dir().ok();
    if relative.is_empty() {
        return current;
    }
    let candidates: Vec<PathBuf> = current
        .into_iter()
        .chain(Path::new(cwd).ancestors().map(Path::to_path_buf))
        .collect();
    let found = |folder: &PathBuf| relative.iter().filter(|p| folder.join(p).is_file()).count();
    candidates
        .iter()
        .find(|folder| found(folder) == relative.len())
        .or_else(|| candidates.iter().find(|folder| found(folder) > 0))
        .cloned()
}

/// The section of `sections` that edits the file `name` (see
/// [`apply_patch_to`]), retargeted at `name`, with its index. `more_may_come`:
/// the patch has not ended, so a lone section that names another file may
/// be followed by the file's own (none is picked yet).
pub fn pick_section(
    sections: &[Section],
    name: &str,
    more_may_come: bool,
) -> Result<Option<(usize, Section)>, OneFileError> {
    match pick_so_far(sections, name, more_may_come)? {
        Some(i) => Ok(Some((i, retarget(&sections[i], name)?))),
        None => Ok(None),
    }
}

/// Where the section of a patch that edits FILE points away from it: the
/// one-file world edits FILE itself, in place, and the reader is told.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Elsewhere {
    /// The path the section names (a lone section is FILE's whatever path
    /// it names): another file unless [`names_file`] says it is FILE (the
    /// section is picked by FILE's name alone, so a same-named file in
    /// another folder is picked too, tester finding 37/05).
    pub named: Option<String>,
    /// The section's path and `*** Move to:` path, when it moves the file.
    pub moved: Option<(String, String)>,
}

/// [`Elsewhere`] for the section of patch `text` that edits the file
/// `name` (nothing when the patch does not parse or no section is picked).
pub fn elsewhere(text: &str, name: &str) -> Elsewhere {
    let Ok(patch) = parse(text) else {
        return Elsewhere::default();
    };
    let Ok(Some(i)) = pick(&patch.sections, name) else {
        return Elsewhere::default();
    };
    let section = &patch.sections[i];
    let path = section.path();
    Elsewhere {
        named: Some(path.to_string()),
        moved: match section {
            Section::Update {
                path,
                move_to: Some(to),
                ..
            } => Some((path.clone(), to.clone())),
            _ => None,
        },
    }
}

/// Whether the path an input names (`named`, as the model wrote it) is
/// FILE (tester findings 37/05, 37c/01, 37c/03: a same-named file in
/// another folder is another file). Resolved from the current folder (a
/// relative path) or as given (an absolute one):
/// - when it and FILE both exist, it names FILE only if both are the same
///   file (a link to FILE does); an existing path is never FILE when FILE
///   does not exist;
/// - an absolute path that names nothing here is the agent's own machine's
///   (`/home/user/project/deploy/prod/values.yaml`, a container's
///   `/workspace/calc.py`, a Windows `C:\repo\calc.py`, read with `\` as a
///   separator): its tails, longest first, are looked for in the current
///   folder and each folder above it (nearest first); the first that
///   exists decides (FILE, or another file: `deploy/staging/values.yaml`
///   found beside `deploy/prod/values.yaml`); where none exists, its file
///   name must be FILE's;
/// - a relative path names FILE only if it resolves to FILE or its folders
///   and name end FILE's absolute path (`calc.py`, `./calc.py`,
///   `src/calc.py` name `/w/src/calc.py`; `lib/calc.py` and `../calc.py`
///   do not).
///
/// An empty path names no file, so none other.
pub fn names_file(named: &str, file: &Path) -> bool {
    let named = named.trim();
    let windows = windows_path(named);
    let named = windows.as_deref().unwrap_or(named);
    let relative = normalize(named);
    if relative.rsplit('/').next().is_none_or(str::is_empty) {
        return true;
    }
    let cwd = std::env::current_dir().unwrap_or_default();
    let cwd_text = cwd.to_string_lossy().into_owned();
    let absolute = |path: &str| {
        if path.starts_with('/') {
            normalize(path)
        } else {
            normalize(&format!("{cwd_text}/{path}"))
        }
    };
    let resolved = absolute(named);
    let own = absolute(&file.to_string_lossy());
    let same = |path: &Path| match (path.canonicalize(), file.canonicalize()) {
        (Ok(a), Ok(b)) => Some(a == b),
        (Ok(_), Err(_)) => Some(false),
        _ => None,
    };
    // A Windows path is never a path here, whatever this machine holds.
    if windows.is_none()
        && let Some(same) = same(Path::new(&resolved))
    {
        return same;
    }
    if resolved == own {
        return true;
    }
    if named.starts_with('/') {
        return match found_here(&resolved, &cwd) {
            Some(here) => same(&here).unwrap_or(false),
            None => Path::new(&resolved).file_name() == file.file_name(),
        };
    }
    let parts: Vec<&str> = relative.split('/').collect();
    let own: Vec<&str> = own.split('/').filter(|p| !p.is_empty()).collect();
    !parts.contains(&"..") && own.ends_with(&parts)
}

/// Where an absolute path from the agent's machine (`resolved`, `/`
/// separators) stands here: its longest tail found in `cwd` or a folder
/// above it (nearest first); `None` when none is.
fn found_here(resolved: &str, cwd: &Path) -> Option<std::path::PathBuf> {
    let parts: Vec<&str> = resolved.split('/').filter(|p| !p.is_empty()).collect();
    (0..parts.len()).find_map(|from| {
        let tail = parts[from..].join("/");
        cwd.ancestors()
            .map(|folder| folder.join(&tail))
            .find(|here| here.exists())
    })
}

/// A Windows path (`C:\repo\a.py`, `C:/repo/a.py`, `\\server\share\a.py`)
/// as an absolute path with `/` separators and no drive (`/repo/a.py`);
/// `None` for any other path.
fn windows_path(path: &str) -> Option<String> {
    let b = path.as_bytes();
    let rest = if b.len() > 2
        && b[0].is_ascii_alphabetic()
        && b[1] == b':'
        && matches!(b[2], b'\\' | b'/')
    {
        &path[2..]
    } else if path.starts_with("\\\\") {
        &path[1..]
    } else {
        return None;
    };
    Some(rest.replace('\\', "/"))
}

/// How the user ran srview on FILE, so that a refusal of an input meant
/// for another file can say the same command for that file, runnable as
/// printed (tester finding 50/T-11: it said `srview apply NAME INPUT` to a
/// user who ran `check`, with NAME unquoted and INPUT a placeholder).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Rerun {
    /// The subcommand (`check`, `apply`, `fix`); `None`: the previewer
    /// (`srview FILE DIFF`).
    pub command: Option<&'static str>,
    /// DIFF as given; `None` or `-`: the input was read from stdin.
    pub input: Option<PathBuf>,
    /// The flags that change how the input is read or what is done with it
    /// (`--dialect NAME`, `--write`), one word each, unquoted.
    pub flags: Vec<String>,
}

impl Rerun {
    /// `command`'s rerun of `input` with `flags` (see the fields).
    pub fn new(command: Option<&'static str>, input: Option<&Path>, flags: Vec<String>) -> Rerun {
        Rerun {
            command,
            input: input.map(Path::to_path_buf),
            flags,
        }
    }

    /// The command line that runs the same command on `file` (a path here),
    /// every word shell-quoted; a path starting with `-` is given as `./-...`
    /// so that it is not read as a flag, and a leading `~/` is left
    /// unquoted for the shell to expand.
    pub fn command_line(&self, file: &str) -> String {
        let word = |path: &str| {
            // `~/` left for the shell to expand, as the agent wrote it.
            if let Some(rest) = path.strip_prefix("~/") {
                return format!("~/{}", crate::words::shell_quote(rest));
            }
            let path = if path.starts_with('-') && path != "-" {
                format!("./{path}")
            } else {
                path.to_string()
            };
            crate::words::shell_quote(&path)
        };
        let mut words = vec!["srview".to_string()];
        words.extend(self.command.map(str::to_string));
        words.push(word(file));
        words.push(self.input_word());
        words.extend(self.flags.iter().map(|f| crate::words::shell_quote(f)));
        words.join(" ")
    }

    /// DIFF as one word of a command line: its path shell-quoted, `-` for
    /// stdin.
    pub fn input_word(&self) -> String {
        match self.input_file() {
            Some(input) => crate::words::shell_quote(&input.display().to_string()),
            None => "-".to_string(),
        }
    }

    /// `, given the same input on stdin` when the input came on stdin (a
    /// command reading `-` needs it again), else nothing.
    pub fn stdin_note(&self) -> &'static str {
        match self.input_file() {
            Some(_) => "",
            None => ", given the same input on stdin",
        }
    }

    /// `` `srview apply --transcript DIFF --cwd ROOT` ``: the whole patch
    /// applied over `root` (`--cwd` left out when it is the current
    /// folder), with `--write` when `write` or the user's command had it,
    /// else `--json` when `json` (the results shown), runnable as printed:
    /// the patch's own path, or `-` and "with the same patch on stdin".
    /// `root` `None` (not known): the patch's absolute path, run in the
    /// folder its paths are relative to, said in words.
    pub fn whole_patch(&self, root: Option<&Path>, write: bool, json: bool) -> String {
        let current = std::env::current_dir().ok();
        let same = |a: &Path, b: &Path| match (a.canonicalize(), b.canonicalize()) {
            (Ok(a), Ok(b)) => a == b,
            _ => a == b,
        };
        let input = match (root, self.input_file()) {
            (None, Some(input)) => {
                let absolute = input
                    .canonicalize()
                    .or_else(|_| std::path::absolute(input))
                    .unwrap_or_else(|_| input.to_path_buf());
                crate::words::shell_quote(&absolute.display().to_string())
            }
            _ => self.input_word(),
        };
        let cwd = match root {
            Some(root) if !current.as_deref().is_some_and(|here| same(root, here)) => format!(
                " --cwd {}",
                crate::words::shell_quote(&root.display().to_string())
            ),
            _ => String::new(),
        };
        let write = if write || self.flags.iter().any(|f| f == "--write") {
            " --write"
        } else if json {
            " --json"
        } else {
            ""
        };
        let stdin = match self.input_file() {
            Some(_) => "",
            None => " with the same patch on stdin",
        };
        let folder = match root {
            Some(_) => "",
            None => {
                " run in the folder its paths are relative to (none of the files it names is \
                 found from here)"
            }
        };
        format!("`srview apply --transcript {input}{cwd}{write}`{stdin}{folder}")
    }

    /// DIFF when it was a file, `None` when the input came on stdin.
    fn input_file(&self) -> Option<&Path> {
        self.input.as_deref().filter(|p| *p != Path::new("-"))
    }

    /// `` `COMMAND` checks it there`` for `file` (`named`, the path as the
    /// input names it, read as a path here: [`local_name`]), saying that the
    /// input must come on stdin again when it came on stdin.
    ///
    /// Where no such file is here (session 51: the command printed then
    /// failed, "cannot read"), that is said, and `apply` and the previewer
    /// give the command with `--new-file` (the file started from empty).
    pub fn how(&self, named: &str) -> String {
        let (verb, base) = match self.command {
            Some("check") => ("checks", "check it on"),
            Some("fix") => ("corrects", "correct it for"),
            Some("apply") => ("applies", "apply it to"),
            Some(_) | None => ("previews", "preview it on"),
        };
        let local = local_name(named);
        let missing = !local.starts_with("~/") && !Path::new(&local).exists();
        if !missing {
            return format!(
                "`{}` {verb} it there{}",
                self.command_line(&local),
                self.stdin_note()
            );
        }
        let none = format!("there is no {local} here to {base}");
        if matches!(self.command, Some("check" | "fix")) {
            return none;
        }
        let mut new_file = self.clone();
        if !new_file.flags.iter().any(|f| f == "--new-file") {
            new_file.flags.push("--new-file".to_string());
        }
        format!(
            "{none}; `{}` starts it from an empty file{}",
            new_file.command_line(&local),
            self.stdin_note()
        )
    }
}

/// `named` as a path here: an absolute path from the agent's machine (or a
/// Windows one) that names nothing here, as the file found by its tails
/// ([`names_file`]), relative to the current folder where it is below it;
/// any other path as given.
fn local_name(named: &str) -> String {
    let windows = windows_path(named.trim());
    let path = windows.as_deref().unwrap_or(named.trim());
    if !path.starts_with('/') || (windows.is_none() && Path::new(path).exists()) {
        return named.to_string();
    }
    let cwd = std::env::current_dir().unwrap_or_default();
    match found_here(&normalize(path), &cwd) {
        Some(here) => here
            .strip_prefix(&cwd)
            .map(|p| p.display().to_string())
            .unwrap_or_else(|_| here.display().to_string()),
        None => named.to_string(),
    }
}

/// Why an input that edits `other`, not FILE, is not applied to FILE:
/// the edit was meant for another file (`how`: the command that applies
/// it where it was meant). `apply`, `check`, `fix` and the previewer's `a`
/// say it alike (tester finding 36/06).
pub fn edits_another_file(other: &str, file: &Path, how: &str) -> String {
    let file = file.display();
    format!("the input edits {other}, not {file}: {file} is left as it is ({how})")
}

/// [`edits_another_file`] for `text` in `dialect` when the patch's section
/// for FILE, or the edit's JSON, names another file; `None` when it names
/// FILE or cannot be read (its reading says why elsewhere).
pub fn another_file_refusal(
    text: &str,
    dialect: Dialect,
    file: &Path,
    rerun: &Rerun,
) -> Option<String> {
    refusal_of(&path_named(text, dialect, file)?, file, rerun)
}

/// The path `text` in `dialect` names: the patch's section for FILE's, or
/// the edit JSON's; `None` when it names none or cannot be read.
pub fn path_named(text: &str, dialect: Dialect, file: &Path) -> Option<String> {
    match dialect {
        Dialect::ApplyPatch => {
            let name = file.file_name()?.to_string_lossy().into_owned();
            elsewhere(text, &name).named
        }
        Dialect::EditJson | Dialect::SearchReplace => {
            parse_edit(text).ok().map(|edit| edit.path().to_string())
        }
    }
}

/// [`edits_another_file`] when `named` (the path an input names,
/// [`path_named`]) is another file than FILE, saying `rerun` (how the user
/// ran srview on FILE) for it; it reads the file system ([`names_file`]),
/// so a caller following a stream asks it once a path.
pub fn refusal_of(named: &str, file: &Path, rerun: &Rerun) -> Option<String> {
    if names_file(named, file) {
        return None;
    }
    Some(edits_another_file(named, file, &rerun.how(named)))
}

/// FILE as the one-file world names it: its folder (absolute, as the
/// reference names paths) and its name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Place {
    /// The folder the reference would run in.
    pub cwd: String,
    /// The file's name in `cwd`.
    pub name: String,
}

impl Place {
    /// The target of an edit of FILE whose content is `content` (`None`:
    /// it does not exist).
    pub fn target<'a>(&'a self, content: Option<&'a str>) -> Target<'a> {
        Target {
            cwd: &self.cwd,
            name: &self.name,
            content,
        }
    }
}

/// The name the file is given inside the patch's one-file world.
pub struct Target<'a> {
    /// The folder the reference would run in (absolute): its error texts
    /// name `cwd/name`.
    pub cwd: &'a str,
    /// The file's name in `cwd`.
    pub name: &'a str,
    /// The file's content; `None` when it does not exist.
    pub content: Option<&'a str>,
}

/// [`pick`] over the sections of a patch that may not have ended: a lone
/// section that names another file is not picked while more may come.
fn pick_so_far(
    sections: &[Section],
    name: &str,
    more_may_come: bool,
) -> Result<Option<usize>, OneFileError> {
    if more_may_come && sections.len() == 1 && !names(sections[0].path(), name) {
        return Ok(None);
    }
    pick(sections, name)
}

/// Whether a section's `path` names the file `name`.
fn names(path: &str, name: &str) -> bool {
    let path = normalize(path);
    path == name || path.ends_with(&format!("/{name}"))
}

/// The one section of `sections` that edits the target: the only one, or
/// the only one whose path is the target's name or ends in `/name`.
fn pick(sections: &[Section], name: &str) -> Result<Option<usize>, OneFileError> {
    if sections.len() <= 1 {
        return Ok((!sections.is_empty()).then_some(0));
    }
    let names_it = |path: &str| names(path, name);
    let hits: Vec<usize> = (0..sections.len())
        .filter(|&i| names_it(sections[i].path()))
        .collect();
    match hits[..] {
        [one] => Ok(Some(one)),
        [first, _, ..] => Err(OneFileError::SeveralSections {
            file: name.to_string(),
            count: hits.len(),
            path: sections[first].path().to_string(),
        }),
        [] => Err(OneFileError::WhichSection {
            file: name.to_string(),
            paths: sections.iter().map(|s| s.path().to_string()).collect(),
        }),
    }
}

/// The section, retargeted at `name` (a move is dropped: the file is
/// edited in place).
fn retarget(section: &Section, name: &str) -> Result<Section, OneFileError> {
    Ok(match section {
        Section::Delete { path, .. } => return Err(OneFileError::Deletes(path.clone())),
        Section::Add {
            content,
            header_line,
            ..
        } => Section::Add {
            path: name.to_string(),
            content: content.clone(),
            header_line: *header_line,
        },
        Section::Update {
            chunks,
            header_line,
            ..
        } => Section::Update {
            path: name.to_string(),
            move_to: None,
            chunks: chunks.clone(),
            header_line: *header_line,
        },
    })
}

pub(crate) fn memory(target: &Target) -> MemoryFs {
    MemoryFs::new(
        target
            .content
            .map(|c| (target.name.to_string(), c.to_string())),
    )
}

/// The patch's edit of the target, applied as the reference applies it;
/// the new content is `outcome.files[name]`.
pub fn apply_patch_to(text: &str, target: &Target) -> Result<PatchOutcome, OneFileError> {
    let patch = match parse(text) {
        Ok(patch) => patch,
        Err(_) => {
            return Ok(super::apply_patch::apply_text(
                text,
                &memory(target),
                target.cwd,
            ));
        }
    };
    let sections = match pick(&patch.sections, target.name)? {
        Some(i) => vec![retarget(&patch.sections[i], target.name)?],
        None => Vec::new(),
    };
    Ok(apply(&Patch { sections }, &memory(target), target.cwd))
}

/// A parsed patch with the section that edits the target.
struct TargetSection {
    /// The whole patch.
    patch: Patch,
    /// The index of the target's section in it.
    i: usize,
    /// That section alone, retargeted at the target's name.
    one: Patch,
}

/// `None` for a patch the reference cannot parse or with no section for
/// the target.
fn target_section(text: &str, target: &Target) -> Result<Option<TargetSection>, OneFileError> {
    let Ok(patch) = parse(text) else {
        return Ok(None);
    };
    let Some(i) = pick(&patch.sections, target.name)? else {
        return Ok(None);
    };
    let one = Patch {
        sections: vec![retarget(&patch.sections[i], target.name)?],
    };
    Ok(Some(TargetSection { patch, i, one }))
}

/// The whole patch with the section that edits the target rewritten so
/// that its loosely matched lines read as the file has them and its added
/// lines are indented as the file is (every hunk then matches at level
/// `exact`; see
/// [`tighten_reindented`](super::apply_patch::tighten_reindented)), the
/// target's outcome, and the hunks left as written because their added
/// lines cannot be re-indented safely (0-based hunk, why).
/// `None` for a patch the reference cannot parse.
pub fn tighten_for(text: &str, target: &Target) -> Result<Option<Tightened>, OneFileError> {
    let Some(TargetSection { mut patch, i, one }) = target_section(text, target)? else {
        return Ok(None);
    };
    let outcome = apply(&one, &memory(target), target.cwd);
    let section = Patch {
        sections: vec![patch.sections[i].clone()],
    };
    let (mut tight, withheld) = super::apply_patch::tighten_reindented(&section, &outcome);
    if let Some(tight) = tight.sections.pop() {
        patch.sections[i] = tight;
    }
    let withheld = withheld.into_iter().map(|([_, h], why)| (h, why)).collect();
    Ok(Some(Tightened {
        patch,
        outcome,
        withheld,
    }))
}

/// What [`tighten_for`] gives.
#[derive(Debug, Clone)]
pub struct Tightened {
    /// The whole patch, the target's section tightened.
    pub patch: Patch,
    /// The target's outcome under the patch as written.
    pub outcome: PatchOutcome,
    /// Loose hunks of the target's section left as written: 0-based hunk
    /// and why its added lines cannot be re-indented safely.
    pub withheld: Vec<(usize, super::apply_patch::Unindentable)>,
}

/// The patch corrected for the target: its section for the target run
/// through [`fix_patch`](super::apply_patch::fix_patch) (loose lines
/// tightened, failed hunks rewritten onto their region when the diagnosis
/// stands behind it) and put back with its own path. `None` for a patch
/// the reference cannot parse or with no section for the target.
pub fn fix_for(
    text: &str,
    target: &Target,
) -> Result<Option<(Patch, super::apply_patch::FixResult)>, OneFileError> {
    let Some(TargetSection { mut patch, i, one }) = target_section(text, target)? else {
        return Ok(None);
    };
    let fixed = super::apply_patch::fix_patch(&one, &memory(target), target.cwd);
    if let Some(Section::Update { chunks, .. }) = fixed.patch.sections.first()
        && let Section::Update { chunks: own, .. } = &mut patch.sections[i]
    {
        own.clone_from(chunks);
    }
    Ok(Some((patch, fixed)))
}

/// A section of another file than the target that a patch leaves loose
/// or failing (see [`other_sections_left`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OtherLeft {
    /// The path as the patch names it.
    pub path: String,
    /// The file on disk (absolute): the patch's path from the folder the
    /// patch runs in ([`patch_root`]).
    pub file: String,
    /// What is left, one sentence (no command in it).
    pub sentence: String,
}

pub use super::apply_patch::fs::patch_root;

/// What the patch `text` leaves loose or failing in its other files'
/// sections (each applied alone over the file on disk, its path taken from
/// the folder the patch runs in, [`patch_root`]), one a hunk: the one-file
/// commands correct the target's section only, and a patch is applied
/// whole (a tester's find, round 47 T-11: `fix a.py` said "every hunk now
/// matches exactly" of a patch whose c.py hunk still misindented c.py).
pub fn other_sections_left(text: &str, target: &Target) -> Vec<OtherLeft> {
    let Ok(Some(TargetSection { patch, i, .. })) = target_section(text, target) else {
        return Vec::new();
    };
    let root = patch_root(target.cwd, patch.sections[i].path());
    let disk = super::apply_patch::fs::DirFs {
        root: root.clone().into(),
    };
    let mut out = Vec::new();
    for (j, section) in patch.sections.iter().enumerate() {
        if j == i || !matches!(section, Section::Update { .. }) {
            continue;
        }
        let one = Patch {
            sections: vec![section.clone()],
        };
        let outcome = apply(&one, &disk, &root);
        let path = section.path();
        let left = |sentence: String| OtherLeft {
            path: path.to_string(),
            file: super::apply_patch::fs::display_path(&root, &normalize(path)),
            sentence,
        };
        for report in &outcome.sections {
            for hunk in &report.hunks {
                let what = match hunk.state {
                    HunkState::Failed => "fails".to_string(),
                    _ if hunk.is_loose() => match hunk.level {
                        Some(level) => {
                            format!("matches only loosely (level `{}`)", level.name())
                        }
                        None => "matches only loosely".to_string(),
                    },
                    _ => continue,
                };
                out.push(left(format!(
                    "hunk #{} of {path}, another file of the patch, is left as sent and {what}",
                    hunk.index + 1
                )));
            }
            // A section that fails before any hunk runs (its file is not
            // there to update): no hunk says it.
            let hunk_failed = report.hunks.iter().any(|h| h.state == HunkState::Failed);
            if report.state == HunkState::Failed
                && !hunk_failed
                && let Some(error) = &report.error
            {
                out.push(left(format!(
                    "the section of {path}, another file of the patch, fails: {}",
                    error.trim_end()
                )));
            }
        }
    }
    out
}

/// The target's section of `text`, alone as a patch, applied over the
/// target: what the diagnosis and the doubts read. `None` when the text is
/// no patch or names no section for the target.
fn applied_alone(
    text: &str,
    target: &Target,
) -> Result<Option<(Patch, PatchOutcome, MemoryFs)>, OneFileError> {
    let Some(TargetSection { one, .. }) = target_section(text, target)? else {
        return Ok(None);
    };
    let fs = memory(target);
    let outcome = apply(&one, &fs, target.cwd);
    Ok(Some((one, outcome, fs)))
}

/// Every failed or loosely matched hunk of the target's section,
/// diagnosed (see [`diagnose_hunks`](super::apply_patch::diagnose_hunks)).
pub fn diagnose_for(
    text: &str,
    target: &Target,
) -> Result<Vec<super::apply_patch::HunkDiagnosis>, OneFileError> {
    Ok(applied_alone(text, target)?
        .map(|(one, outcome, fs)| {
            super::apply_patch::diagnose_hunks(&one, &outcome, &fs, target.cwd)
        })
        .unwrap_or_default())
}

/// What srview cannot stand behind in the target's section (see
/// [`patch_doubts`](super::apply_patch::patch_doubts)).
/// The target's section moving the file onto itself is one too: the
/// one-file commands edit it in place, but the agent writes it, then
/// deletes it ([`moves_onto_itself`]).
pub fn doubts_for(
    text: &str,
    target: &Target,
) -> Result<Vec<super::apply_patch::PatchDoubt>, OneFileError> {
    Ok(section_doubts(text, target, false)?.map_or_else(Vec::new, |(_, doubts)| doubts))
}

/// [`doubts_for`] and, after them, the faults of the target's section as
/// Codex writes it where a hunk of it matched only loosely (see
/// [`loose_layout_doubts`](super::apply_patch::loose_layout_doubts)):
/// what writing it anyway does. With the section's outcome (its loose
/// hunks), from one run of it; `None` for a patch the reference cannot
/// parse or with no section for the target.
pub fn doubts_with_loose_for(
    text: &str,
    target: &Target,
) -> Result<Option<(PatchOutcome, Vec<super::apply_patch::PatchDoubt>)>, OneFileError> {
    section_doubts(text, target, true)
}

/// The target's section run once: its outcome and its doubts (with
/// `loose`, the loose hunks' faults after them).
fn section_doubts(
    text: &str,
    target: &Target,
    loose: bool,
) -> Result<Option<(PatchOutcome, Vec<super::apply_patch::PatchDoubt>)>, OneFileError> {
    let Some(TargetSection { patch, i, one }) = target_section(text, target)? else {
        return Ok(None);
    };
    Ok(Some(doubts_of_section(&patch, i, one, target, loose)))
}

/// [`section_doubts`] of section `i` of `patch` (`one`: it alone,
/// retargeted at the target's name), whichever file it names.
fn doubts_of_section(
    patch: &Patch,
    i: usize,
    mut one: Patch,
    target: &Target,
    loose: bool,
) -> (PatchOutcome, Vec<super::apply_patch::PatchDoubt>) {
    let fs = memory(target);
    let outcome = apply(&one, &fs, target.cwd);
    let faults = if loose {
        super::apply_patch::loose_layout_doubts(&one, &outcome, &fs, target.cwd)
    } else {
        Vec::new()
    };
    // Said as the agent runs it: the move put back on the section applied
    // in place, named as that section names the file (the target's name).
    if self_move(&patch.sections[i], target.cwd)
        && let Some(Section::Update { move_to, .. }) = one.sections.first_mut()
    {
        *move_to = Some(target.name.to_string());
    }
    let mut doubts = super::apply_patch::patch_doubts(&one, &outcome, &fs, target.cwd);
    doubts.extend(faults);
    (outcome, doubts)
}

/// What `check` of each other file of the patch `text` doubts in that
/// file's section ([`doubts_for`] of it, the file read from disk, its path
/// taken from the folder the patch runs in, [`patch_root`]; an added
/// file's from nothing, as the gate weighs it), for the
/// sections that apply exactly (a loose or failing one is
/// [`other_sections_left`]'s), one a doubt. The one-file commands correct
/// the target's section only, and the patch is applied whole (session 50:
/// `fix a.py` printed a patch whose b.py section adds a method outside its
/// class, exit 0 and nothing said).
pub fn other_sections_doubted(text: &str, target: &Target) -> Vec<OtherLeft> {
    let Ok(Some(TargetSection { patch, i, .. })) = target_section(text, target) else {
        return Vec::new();
    };
    let root = patch_root(target.cwd, patch.sections[i].path());
    let mut out = Vec::new();
    for (j, section) in patch.sections.iter().enumerate() {
        // An added file is weighed as the gate weighs it (a new Python file
        // left misindented); a deletion leaves nothing to doubt.
        let adds = matches!(section, Section::Add { .. });
        if j == i || !(adds || matches!(section, Section::Update { .. })) {
            continue;
        }
        let path = section.path();
        let file = super::apply_patch::fs::display_path(&root, &normalize(path));
        let on_disk = Path::new(&file);
        let (Some(cwd), Some(name)) = (on_disk.parent(), on_disk.file_name()) else {
            continue;
        };
        let content = std::fs::read_to_string(on_disk).ok();
        if content.is_none() && !adds {
            continue;
        }
        let (cwd, name) = (cwd.to_string_lossy(), name.to_string_lossy());
        let own = Target {
            cwd: &cwd,
            name: &name,
            content: content.as_deref(),
        };
        let Ok(section) = retarget(section, &name) else {
            continue;
        };
        let one = Patch {
            sections: vec![section],
        };
        let (outcome, doubts) = doubts_of_section(&patch, j, one, &own, false);
        if outcome.exit_code != 0 || outcome.loose_hunks().next().is_some() {
            continue;
        }
        for doubt in doubts {
            out.push(OtherLeft {
                path: path.to_string(),
                file: file.clone(),
                sentence: format!(
                    "the section of {path}, another file of the patch, applies exactly and is \
                     left as sent, but {}",
                    doubt.message
                ),
            });
        }
    }
    out
}

/// Whether `section`'s `*** Move to:` names the file it updates.
fn self_move(section: &Section, cwd: &str) -> bool {
    matches!(
        section,
        Section::Update { path, move_to: Some(to), .. }
            if super::apply_patch::moves_onto_itself(cwd, path, to)
    )
}

/// Whether the target's section of `text` moves the file onto itself
/// (`*** Update File: a.py` then `*** Move to: a.py`): the agents write
/// it, then delete it, and the file is lost. The one-file commands edit
/// it in place.
pub fn moves_onto_itself(text: &str, target: &Target) -> bool {
    matches!(
        target_section(text, target),
        Ok(Some(TargetSection { patch, i, .. })) if self_move(&patch.sections[i], target.cwd)
    )
}

/// [`apply_patch_to`] for a patch still streaming.
pub fn apply_partial_patch_to(prefix: &str, target: &Target) -> Result<PatchOutcome, OneFileError> {
    let mut partial = parse_partial(prefix);
    let picked = pick_so_far(&partial.sections, target.name, !partial.ended)?;
    let last = partial.sections.len().saturating_sub(1);
    partial.last_unfinished = partial.last_unfinished && picked == Some(last);
    partial.sections = match picked {
        Some(i) => vec![retarget(&partial.sections[i], target.name)?],
        None => Vec::new(),
    };
    Ok(apply_partial(&partial, &memory(target), target.cwd))
}

/// The tool an edit's JSON input is for, from its keys: `old_string`,
/// `new_string` or `replace_all` make Claude Code's Edit, `content` its
/// Write, `path`, `old_text`, `new_text` or `insert_line` Cline's editor.
/// `None` while no key decides (`{"file_path": ...` alone).
pub fn edit_tool(json: &str) -> Option<Tool> {
    let has = |key: &str| json.contains(&format!("\"{key}\""));
    if ["old_string", "new_string", "replace_all"]
        .iter()
        .any(|k| has(k))
    {
        Some(Tool::Edit)
    } else if has("content") {
        Some(Tool::Write)
    } else if ["path", "old_text", "new_text", "insert_line"]
        .iter()
        .any(|k| has(k))
    {
        Some(Tool::Editor)
    } else {
        None
    }
}

/// A complete edit's JSON input, read with the tool its keys name.
pub fn parse_edit(json: &str) -> Result<Edit, OneFileError> {
    let tool = edit_tool(json).ok_or(OneFileError::UnknownEdit)?;
    Edit::from_tool_input(tool.name(), json).map_err(|e| OneFileError::BadEdit(e.to_string()))
}

/// Whether the tool refuses `json` only because it stops before its end
/// (a prefix of a valid input, as a paused stream leaves it), not because
/// a field is missing, unknown or of the wrong type.
pub fn edit_is_cut(json: &str) -> bool {
    use crate::dialect::edit::ParseError;
    edit_tool(json).is_some_and(|tool| {
        matches!(
            Edit::from_tool_input(tool.name(), json),
            Err(ParseError::Json { source, .. }) if source.is_eof()
        )
    })
}

/// The whole of `text` (an apply_patch or an edit's JSON, complete) applied
/// to the target in one go, as `srview apply FILE` applies it: the new
/// content, or the reference's refusal in its own words. What a previewer
/// writes, whatever blocks it showed on the way.
pub fn reference_result(
    text: &str,
    dialect: super::Dialect,
    target: &Target,
) -> Result<String, Refusal> {
    match dialect {
        super::Dialect::ApplyPatch => {
            let outcome = apply_patch_to(text, target).map_err(Refusal::of)?;
            if outcome.exit_code != 0 {
                return Err(Refusal::of(outcome.stderr.trim_end()));
            }
            outcome
                .files
                .get(target.name)
                .cloned()
                .flatten()
                .ok_or_else(|| Refusal(format!("the patch leaves no {}", target.name)))
        }
        super::Dialect::EditJson | super::Dialect::SearchReplace => {
            let edit = parse_edit(text).map_err(Refusal::of)?;
            super::edit::apply(&edit, target.content)
                .result
                .map(|done| done.new_content)
                .map_err(Refusal::of)
        }
    }
}

/// What is known of an edit's JSON input still arriving; `None` until a key
/// names its tool.
pub fn parse_partial_edit(prefix: &str) -> Result<Option<PartialEdit>, OneFileError> {
    match edit_tool(prefix) {
        None => Ok(None),
        Some(tool) => PartialEdit::parse(tool.name(), prefix)
            .map(Some)
            .map_err(|e| OneFileError::BadEdit(e.to_string())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A rerun's command line is one shell word a path: quoted where the
    /// shell reads a character, `./` before a leading `-`, `~/` left for
    /// the shell; stdin is `-` and said (tester finding 50/T-11).
    #[test]
    fn a_reruns_command_line_quotes_each_path() {
        let check = Rerun::new(
            Some("check"),
            Some(Path::new("in put.json")),
            vec!["--dialect".into(), "opencode-edit".into()],
        );
        let cases = [
            (
                "sp ace/o'k.py",
                "srview check 'sp ace/o'\\''k.py' 'in put.json' --dialect opencode-edit",
            ),
            (
                "-x.py",
                "srview check ./-x.py 'in put.json' --dialect opencode-edit",
            ),
            (
                "~/my dir/a.py",
                "srview check ~/'my dir/a.py' 'in put.json' --dialect opencode-edit",
            ),
        ];
        for (path, line) in cases {
            assert_eq!(check.command_line(path), line, "{path}");
        }
        // Tests run in the crate's folder, which holds src/lib.rs and no
        // lib/b.py: a file not here is said so (session 51).
        let piped = Rerun::new(None, Some(Path::new("-")), Vec::new());
        assert_eq!(
            piped.how("src/lib.rs"),
            "`srview src/lib.rs -` previews it there, given the same input on stdin"
        );
        assert_eq!(
            piped.how("lib/b.py"),
            "there is no lib/b.py here to preview it on; `srview lib/b.py - --new-file` starts \
             it from an empty file, given the same input on stdin"
        );
        assert_eq!(
            check.how("lib/b.py"),
            "there is no lib/b.py here to check it on"
        );
    }

    const PATCH: &str = "*** Begin Patch\n*** Update File: src/a.rs\n@@\n-x\n+y\n*** Update File: b.rs\n@@\n-b\n+c\n*** End Patch\n";

    fn target<'a>(name: &'a str, content: Option<&'a str>) -> Target<'a> {
        Target {
            cwd: "/w",
            name,
            content,
        }
    }

    #[test]
    fn the_section_naming_the_file_is_applied_to_it() {
        let out = apply_patch_to(PATCH, &target("a.rs", Some("x\n"))).expect("picked");
        assert_eq!(out.exit_code, 0, "{}", out.stderr);
        assert_eq!(out.files.get("a.rs"), Some(&Some("y\n".to_string())));
        let err = apply_patch_to(PATCH, &target("c.rs", Some("x\n"))).expect_err("none");
        assert!(err.to_string().contains("src/a.rs, b.rs"), "{err}");
    }

    #[test]
    fn a_single_section_edits_the_file_whatever_its_path() {
        let one = "*** Begin Patch\n*** Update File: elsewhere.rs\n@@\n-x\n+y\n*** End Patch\n";
        let out = apply_patch_to(one, &target("a.rs", Some("z\n"))).expect("picked");
        assert_eq!(out.exit_code, 1);
        assert_eq!(out.stderr, "Failed to find expected lines in /w/a.rs:\nx\n");
        let del = "*** Begin Patch\n*** Delete File: a.rs\n*** End Patch\n";
        assert!(apply_patch_to(del, &target("a.rs", Some("z\n"))).is_err());
    }

    #[test]
    fn streaming_prefixes_never_fail_for_missing_lines() {
        for end in 0..PATCH.len() {
            let _ = apply_partial_patch_to(&PATCH[..end], &target("a.rs", Some("x\n")));
        }
        let out = apply_partial_patch_to(PATCH, &target("a.rs", Some("x\n"))).expect("picked");
        assert_eq!(out.files.get("a.rs"), Some(&Some("y\n".to_string())));
    }

    /// While a patch arrives, a lone section naming another file is not
    /// applied to the file (its own may follow); once the patch has ended
    /// it is, as a complete patch's only section always is.
    #[test]
    fn a_lone_section_for_another_file_waits_while_the_patch_arrives() {
        let other = "*** Begin Patch\n*** Update File: other.py\n@@\n-x\n+y\n";
        let out = apply_partial_patch_to(other, &target("a.rs", Some("x\n"))).expect("reads");
        assert!(out.sections.is_empty(), "{:?}", out.sections);
        let both = format!("{other}*** Update File: a.rs\n@@\n-x\n+z\n");
        let out = apply_partial_patch_to(&both, &target("a.rs", Some("x\n"))).expect("reads");
        assert_eq!(out.sections[0].path, "a.rs");
        let ended = format!("{other}*** End Patch\n");
        let out = apply_partial_patch_to(&ended, &target("a.rs", Some("x\n"))).expect("reads");
        assert_eq!(out.files.get("a.rs"), Some(&Some("y\n".to_string())));
    }

    #[test]
    fn a_tightened_patch_keeps_its_paths_and_matches_exactly() {
        let loose = "*** Begin Patch\n*** Update File: src/a.rs\n@@\n-x - y\n+z\n*** End Patch\n";
        let Tightened {
            patch,
            outcome,
            withheld,
        } = tighten_for(loose, &target("a.rs", Some("x – y\n")))
            .expect("picked")
            .expect("parsed");
        assert_eq!(outcome.loose_hunks().count(), 1);
        assert!(withheld.is_empty());
        let text = crate::dialect::apply_patch::render(&patch);
        assert_eq!(
            text,
            "*** Begin Patch\n*** Update File: src/a.rs\n@@\n-x – y\n+z\n*** End Patch\n"
        );
        let again = apply_patch_to(&text, &target("a.rs", Some("x – y\n"))).expect("picked");
        assert_eq!(again.loose_hunks().count(), 0);
    }

    #[test]
    fn edit_tools_are_told_by_their_keys() {
        assert_eq!(
            edit_tool(r#"{"file_path":"a","old_string":"x"#),
            Some(Tool::Edit)
        );
        assert_eq!(
            edit_tool(r#"{"file_path":"a","content":"x"}"#),
            Some(Tool::Write)
        );
        assert_eq!(
            edit_tool(r#"{"path":"a","new_text":"x"}"#),
            Some(Tool::Editor)
        );
        assert_eq!(edit_tool(r#"{"file_path":"a""#), None);
        assert!(parse_edit("{\"x\": 1}").is_err());
        assert!(parse_edit(r#"{"file_path":"a","old_string":"x","new_string":"y"}"#).is_ok());
    }
}
