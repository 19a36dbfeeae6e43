//! Cline CLI 3.x's own `apply_patch` tool, ported exactly from the code the
//! CLI 3.0.65 runs (its bundled SDK `@cline/core` 0.0.86:
//! `createApplyPatchExecutor` and the tool wrapper; upstream
//! `sdk/packages/core/src/extensions/tools/executors/apply-patch.ts` and
//! `apply-patch-parser.ts`, Apache-2.0).
//!
//! It takes Codex's patch format but is Cline's own lenient variant:
//! - the input is `{"input": PATCH}` or a bare string; other shapes fail
//!   with zod's text before the tool runs ([`input`]);
//! - `*** Begin Patch` / `*** End Patch` may be missing, a `%%bash
//!   apply_patch <<"EOF"` wrapper is stripped ([`input::patch_lines`]);
//! - an added file is written without a final newline, unless its last
//!   line is a bare `+`;
//! - each section is placed by [`seek::find_context`], whose last pass
//!   takes the FIRST window at least 0.66 similar ("fuzz factor 1000"):
//!   about half of such sections land elsewhere than their author meant,
//!   with a success message; their [`EditMatch`] is loose, stage
//!   `similarity`;
//! - on some patches (a section starting with an empty line while the file
//!   cursor is 0) the shipped parser never returns: the outcome then says
//!   [`CallOutcome::hangs`], at once.
//!
//! Matching is all-or-nothing, writing is not: when a write fails, the
//! files written before it stay written ([`CallOutcome::writes`]).

mod disk;
mod input;
mod js;
mod parser;
mod seek;
mod stages;

use crate::dialect::call::{CallMatcher, CallOutcome, PatchFs, ToolCall};

use parser::{Action, Chunk, ParseStop, Parsed, Warning};

/// Cline 3.0.65's `apply_patch` tool.
pub struct ClineApplyPatch;

/// A run with the tool result as the model reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClineRun {
    pub outcome: CallOutcome,
    /// `JSON.stringify` of the tool's result object
    /// (`{"query":"apply_patch","result":...,"success":true}`, or with
    /// `"result":"","error":...,"success":false`): the tool_result content.
    /// `None` when the input's validation threw before the tool ran (the
    /// agent runtime words that error) or when Cline would hang.
    pub model_text: Option<String>,
}

const FAILED: &str = "apply_patch failed: ";
const SUCCESS: &str = "Successfully applied patch to the following files:";

impl CallMatcher for ClineApplyPatch {
    fn run(&self, call: &ToolCall) -> CallOutcome {
        self.run_with_text(call).outcome
    }
}

/// Why the executor stopped: Cline's error text (UTF-16: a cut context may
/// end in half a surrogate pair), or a hang.
enum Stop {
    Error(Vec<u16>),
    Hang,
}

impl From<String> for Stop {
    fn from(text: String) -> Self {
        Stop::Error(text.encode_utf16().collect())
    }
}

impl From<&str> for Stop {
    fn from(text: &str) -> Self {
        Stop::Error(text.encode_utf16().collect())
    }
}

impl From<ParseStop> for Stop {
    fn from(stop: ParseStop) -> Self {
        match stop {
            ParseStop::Error(text) => text.into(),
            ParseStop::Hang => Stop::Hang,
        }
    }
}

impl ClineApplyPatch {
    /// The outcome and the tool result text the model reads.
    pub fn run_with_text(&self, call: &ToolCall) -> ClineRun {
        let text = match input::patch_text(call.input) {
            Ok(text) => text,
            Err(thrown) => {
                return ClineRun {
                    outcome: CallOutcome {
                        error: Some(thrown.to_string()),
                        stage: Some(stages::failure_stage(thrown)),
                        ..CallOutcome::default()
                    },
                    model_text: None,
                };
            }
        };
        let mut parsed = Parsed::default();
        let mut disk = disk::Disk::new(call.fs);
        let result = execute(text, call.cwd, call.fs, &mut disk, &mut parsed);
        let edits = parsed.sections.iter().map(|s| s.edit.clone()).collect();
        let writes = disk.writes();
        match result {
            Ok(listed) => {
                let mut lines = vec![SUCCESS.to_string()];
                lines.extend(listed);
                if parsed.fuzz > 0 {
                    lines.push(format!(
                        "Note: Patch applied with fuzz factor {}",
                        parsed.fuzz
                    ));
                }
                let message = lines.join("\n");
                let units: Vec<u16> = message.encode_utf16().collect();
                ClineRun {
                    model_text: Some(format!(
                        "{{\"query\":\"apply_patch\",\"result\":{},\"success\":true}}",
                        js::json_string(&units)
                    )),
                    outcome: CallOutcome {
                        ok: true,
                        message: Some(message),
                        stage: Some(stages::call_stage(&parsed.sections, parsed.header_trims)),
                        writes,
                        edits,
                        ..CallOutcome::default()
                    },
                }
            }
            Err(Stop::Hang) => ClineRun {
                outcome: CallOutcome {
                    stage: Some("hang".into()),
                    edits,
                    hangs: true,
                    ..CallOutcome::default()
                },
                model_text: None,
            },
            Err(Stop::Error(message)) => {
                let mut units: Vec<u16> = FAILED.encode_utf16().collect();
                units.extend(message);
                let error = String::from_utf16_lossy(&units);
                ClineRun {
                    model_text: Some(format!(
                        "{{\"query\":\"apply_patch\",\"result\":\"\",\"error\":{},\"success\":false}}",
                        js::json_string(&units)
                    )),
                    outcome: CallOutcome {
                        stage: Some(stages::failure_stage(&error)),
                        error: Some(error),
                        writes,
                        edits,
                        ..CallOutcome::default()
                    },
                }
            }
        }
    }
}

/// Cline's executor: normalize, load, parse (matching every section), fail
/// on any unmatched section, compute every new content, then write in
/// `Object.entries` order. Returns the lines of the success message.
fn execute(
    text: &str,
    cwd: &str,
    fs: &dyn PatchFs,
    disk: &mut disk::Disk,
    parsed: &mut Parsed,
) -> Result<Vec<String>, Stop> {
    let lines = input::patch_lines(text)?;
    let (loaded, eols) = disk::load(&lines, cwd, fs)?;
    parser::parse(&lines, &loaded, parsed)?;
    if !parsed.warnings.is_empty() {
        return Err(Stop::Error(warnings_text(&parsed.warnings)));
    }
    // `patchToChanges`: every new content before any write.
    let mut changes: Vec<(String, Action, String)> = Vec::new();
    for (path, action) in js::entries_order(parsed.actions.clone()) {
        let content = match &action {
            Action::Update { chunks, .. } => {
                let old = loaded.contents.get(&path).map_or("", String::as_str);
                let new = apply_chunks(old, chunks, &path)?;
                let eol = eols.get(&path).copied().unwrap_or("\n");
                split_lines_js(&new).join(eol)
            }
            Action::Add { new_file } => new_file.clone(),
            Action::Delete => String::new(),
        };
        changes.push((path, action, content));
    }
    // `applyChanges`: sequential, not atomic.
    let mut listed = Vec::new();
    for (path, action, content) in changes {
        let target = disk::resolve(cwd, &path)?;
        match action {
            Action::Delete => {
                disk.remove(&target)?;
                listed.push(format!("{path}: [deleted]"));
            }
            Action::Add { .. } => {
                disk.make_parent(cwd, &target)?;
                disk.write(&target, &content)?;
                listed.push(path);
            }
            Action::Update { move_path, .. } if !move_path.is_empty() => {
                let destination = disk::resolve(cwd, &move_path)?;
                disk.make_parent(cwd, &destination)?;
                disk.write(&destination, &content)?;
                disk.remove(&target)?;
                listed.push(format!("{path} -> {move_path}"));
            }
            Action::Update { .. } => {
                disk.write(&target, &content)?;
                listed.push(path);
            }
        }
    }
    Ok(listed)
}

/// `text.split(/\r\n|\n/)`: a `\r` goes only with the `\n` after it (a
/// lone CR at the very end stays).
fn split_lines_js(text: &str) -> Vec<&str> {
    let mut lines: Vec<&str> = text.split('\n').collect();
    let last = lines.len() - 1;
    for line in &mut lines[..last] {
        *line = line.strip_suffix('\r').unwrap_or(line);
    }
    lines
}

/// Cline's `applyChunks`: each block replaces `del_lines.len()` file lines
/// at its index by its added lines, the file's own lines deleted whatever
/// the `-` lines said.
fn apply_chunks(content: &str, chunks: &[Chunk], path: &str) -> Result<String, String> {
    if chunks.is_empty() {
        return Ok(content.to_string());
    }
    let lines: Vec<&str> = content.split('\n').collect();
    let len = lines.len() as i64;
    let mut out: Vec<&str> = Vec::new();
    let mut at: i64 = 0;
    for chunk in chunks {
        if chunk.orig_index > len {
            return Err(format!(
                "{path}: chunk.origIndex {} > lines.length {len}",
                chunk.orig_index
            ));
        }
        if at > chunk.orig_index {
            return Err(format!(
                "{path}: currentIndex {at} > chunk.origIndex {}",
                chunk.orig_index
            ));
        }
        let (from, to) = js::slice_range(lines.len(), at, chunk.orig_index);
        out.extend(&lines[from..to]);
        out.extend(chunk.ins_lines.iter().map(String::as_str));
        at = chunk.orig_index + chunk.del_lines.len() as i64;
    }
    let (from, to) = js::slice_range(lines.len(), at, len);
    out.extend(&lines[from..to]);
    Ok(out.join("\n"))
}

/// Cline's `formatWarnings`: the count, then per section its path, hunk
/// number (change blocks before it in the file, plus one), best
/// similarity and context (cut at 200 UTF-16 units).
fn warnings_text(warnings: &[Warning]) -> Vec<u16> {
    let count = warnings.len();
    let plural = if count == 1 { "" } else { "s" };
    let mut text: Vec<u16> = format!(
        "Patch could not be applied because {count} hunk{plural} did not match the current file content."
    )
    .encode_utf16()
    .collect();
    for warning in warnings {
        let line = format!(
            "\n{}: hunk {}: Could not find matching context (similarity: {}). Chunk skipped.",
            warning.path,
            warning.chunk_index + 1,
            js::to_fixed_2(warning.similarity)
        );
        text.extend(line.encode_utf16());
        if !warning.context.is_empty() {
            text.extend("\nContext:\n".encode_utf16());
            if warning.context.len() > 200 {
                text.extend_from_slice(&warning.context[..200]);
                text.extend("...".encode_utf16());
            } else {
                text.extend_from_slice(&warning.context);
            }
        }
    }
    text
}
