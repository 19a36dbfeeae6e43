//! `srview gate install`: the gate written into an agent's own config, and
//! taken out again.
//!
//! Pure: [`plan`] takes the [`Request`] (the agent, the scope, srview's
//! absolute path, the folders) and a reader of the files as they are, and
//! gives the [`Plan`]: each file's text before and after (`None`: absent),
//! and what else the agent needs. Writing it, or printing it for
//! `--dry-run`, is the command's (`cli/gate.rs`).
//!
//! Settings files (Claude Code, Codex, Gemini CLI, Qwen Code) are JSON
//! edited as text ([`super::jsonc`]): srview's hook group is appended to
//! the event's array (creating the `hooks` object or the event's array
//! where there is none), in the file's own layout, and nothing else moves.
//! srview's own hook is known by its command, exactly as install writes it
//! (`--install-created` in it); nothing else is touched: installing again
//! replaces that group in place, and `--uninstall` takes out exactly the
//! text install put in: a file left `{}` and folders left empty are
//! removed (install created them). Codex also needs the hook trusted: its `trusted_hash`, computed
//! as Codex computes it, is appended to `config.toml` as text.
//!
//! OpenCode's plugin, pi's extension and Cline's hook file are files of
//! srview's own, written with srview's path, the timeout and the policy.

use std::path::{Path, PathBuf};

use super::GateAgent;
use super::jsonc::{self, Json, Node};

/// Where the hook goes: the user's own config (every project), or the
/// project's (the current folder).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// Under HOME (`--user`, the default).
    User,
    /// Under the current folder (`--project`).
    Project,
}

/// What `srview gate install` is asked.
#[derive(Debug, Clone)]
pub struct Request {
    /// The agent whose config is edited.
    pub agent: GateAgent,
    /// The user's config or the project's.
    pub scope: Scope,
    /// srview's absolute path, as the hook command runs it.
    pub srview: PathBuf,
    /// The hook's timeout in seconds (the agent's own, and the gate's
    /// `--timeout`).
    pub timeout: u32,
    /// The gate's `--policy`, written into the command.
    pub policy: Option<String>,
    /// Take out what install adds.
    pub uninstall: bool,
    /// HOME.
    pub home: PathBuf,
    /// The project: the current folder.
    pub project: PathBuf,
    /// `CODEX_HOME` when set (Codex's config folder, else `~/.codex`).
    pub codex_home: Option<PathBuf>,
    /// `XDG_CONFIG_HOME` when set (OpenCode's config under it, else `~/.config`).
    pub xdg_config_home: Option<PathBuf>,
}

/// The timeout when none is given: the command-hook agents' own default
/// (Gemini CLI 60,000 ms, Qwen Code 60 s) and the plugins' bound.
pub const DEFAULT_TIMEOUT: u32 = 60;

/// One file's change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    /// The file.
    pub path: PathBuf,
    /// Its text now (`None`: absent).
    pub before: Option<String>,
    /// Its text after (`None`: removed).
    pub after: Option<String>,
    /// Whether the file is a program (Cline's hook file: mode 0755).
    pub executable: bool,
}

/// What an install or uninstall does.
#[derive(Debug, Clone, Default)]
pub struct Plan {
    /// The files whose text changes (unchanged ones are left out).
    pub changes: Vec<Change>,
    /// The folder under which folders left empty by an uninstall are
    /// removed (HOME or the project).
    pub root: PathBuf,
    /// What else the agent needs, or what srview did beside the files.
    pub notes: Vec<String>,
    /// What the user must do, the files written or not: the gate will not
    /// run as installed, or a hook of the user's stops running (the
    /// command exits 1).
    pub warnings: Vec<String>,
    /// The gate as written will not run until the user acts (a warning
    /// says how): the command does not say "installed".
    pub gate_off: bool,
}

/// Why nothing is installed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InstallError {
    /// A config file srview must edit is not JSON, or not shaped as the
    /// agent reads it.
    #[error("{path}: {why}; it is left as it is")]
    Config {
        /// The file.
        path: String,
        /// What is wrong with it.
        why: String,
    },
    /// A file srview would write holds something else.
    #[error("{path} exists and was not written by srview; it is left as it is")]
    NotOurs {
        /// The file.
        path: String,
    },
    /// srview's own file, changed since srview wrote it (its seal line no
    /// longer matches): writing over it or removing it would lose the
    /// changes.
    #[error(
        "{path} was changed since srview wrote it (its last line, srview's seal, no longer \
         matches the lines above it): it is left as it is, so your changes are not lost; move \
         them elsewhere or delete the file, then run this again"
    )]
    ChangedSince {
        /// The file.
        path: String,
    },
    /// A file cannot be read.
    #[error("cannot read {path}: {why}")]
    Read {
        /// The file.
        path: String,
        /// The I/O error.
        why: String,
    },
    /// An option that cannot be used (exit 2).
    #[error("{0}")]
    Usage(String),
}

/// The agents' ids that `gate install` refuses, with the reason.
pub fn no_hook(id: &str) -> Option<&'static str> {
    match id {
        "aider" => {
            Some("Aider has no pre-edit hook: it applies its edits itself, with nothing run before")
        }
        "cline-classic" => Some(
            "Cline (the VS Code extension, classic) has no pre-edit hook srview can install; \
             Cline 3.x's CLI has one: --agent cline-cli",
        ),
        _ => None,
    }
}

/// The plan for `request`, reading each file through `read` (`Ok(None)`:
/// the file does not exist).
pub fn plan(
    request: &Request,
    read: impl Fn(&Path) -> std::io::Result<Option<String>>,
) -> Result<Plan, InstallError> {
    let read = |path: &Path| {
        read(path).map_err(|e| InstallError::Read {
            path: path.display().to_string(),
            why: e.to_string(),
        })
    };
    if request.timeout == 0 {
        return Err(InstallError::Usage(
            "--timeout must be at least 1 second".into(),
        ));
    }
    if request.agent == GateAgent::QwenCode && request.timeout >= 1000 {
        return Err(InstallError::Usage(
            "Qwen Code reads a hook timeout of 1000 or more as milliseconds: give --timeout below 1000 seconds".into(),
        ));
    }
    let root = match request.scope {
        Scope::User => request.home.clone(),
        Scope::Project => request.project.clone(),
    };
    let mut plan = Plan {
        root: root.clone(),
        ..Plan::default()
    };
    let command = match request.agent {
        GateAgent::ClaudeCode | GateAgent::Codex | GateAgent::GeminiCli | GateAgent::QwenCode => {
            hook_command(request)
        }
        _ => command(request),
    };
    match request.agent {
        GateAgent::ClaudeCode => {
            let path = root.join(".claude/settings.json");
            // No PostToolUseFailure group: Claude Code 2.1.328 runs no hook
            // at all for an Edit its own validation refuses (old_string not
            // found; run against the real CLI, tests/gate_e2e/), the one
            // failure srview could diagnose.
            settings_change(
                &mut plan,
                request,
                &path,
                read(&path)?,
                &[("PreToolUse", group("Edit|Write", &command, request.timeout))],
            )?;
        }
        GateAgent::Codex => codex(&mut plan, request, &command, &read)?,
        GateAgent::GeminiCli => {
            let path = root.join(".gemini/settings.json");
            let ms = u64::from(request.timeout) * 1000;
            let entry = group_with_timeout("replace|write_file", &command, ms);
            settings_change(
                &mut plan,
                request,
                &path,
                read(&path)?,
                &[("BeforeTool", entry)],
            )?;
            if request.scope == Scope::Project && !request.uninstall {
                plan.notes.push(
                    "Gemini CLI reads a project's settings, and runs its hooks, only in a trusted folder (or with \
                     folder trust off); headless, an untrusted folder stops it (trust it in Gemini CLI: /permissions, \
                     ~/.gemini/trustedFolders.json, or GEMINI_CLI_TRUST_WORKSPACE=true); srview does not trust the \
                     folder. In a trusted folder it runs the hook, warning about project hooks (seen with Gemini CLI 0.61.0)"
                        .into(),
                );
            }
        }
        GateAgent::QwenCode => {
            let path = root.join(".qwen/settings.json");
            let entry = group("edit|write_file", &command, request.timeout);
            settings_change(
                &mut plan,
                request,
                &path,
                read(&path)?,
                &[("PreToolUse", entry)],
            )?;
            if !request.uninstall {
                plan.notes.push(
                    "Qwen Code runs PreToolUse only where edits need no approval (--yolo, or an auto-edit mode)".into(),
                );
            }
        }
        GateAgent::Opencode | GateAgent::Pi | GateAgent::ClineCli => {
            own_gate_file(&mut plan, request, &root, &command, &read)?;
        }
    }
    Ok(plan)
}

/// The file of srview's own that `agent` reads the gate from (OpenCode's
/// plugin, pi's extension, Cline CLI's hook script): where it goes for the
/// user (under the home; OpenCode's under its config folder) and in a
/// project; `None` for an agent whose hook is in its settings. An edit of
/// one is known by these too (`own_files`).
pub(super) fn own_file_places(agent: GateAgent) -> Option<[&'static str; 2]> {
    match agent {
        GateAgent::Opencode => Some([
            "opencode/plugin/srview-gate.js",
            ".opencode/plugin/srview-gate.js",
        ]),
        GateAgent::Pi => Some([
            ".pi/agent/extensions/srview-gate.ts",
            ".pi/extensions/srview-gate.ts",
        ]),
        GateAgent::ClineCli => Some([
            "Documents/Cline/Hooks/PreToolUse",
            ".clinerules/hooks/PreToolUse",
        ]),
        GateAgent::ClaudeCode | GateAgent::Codex | GateAgent::GeminiCli | GateAgent::QwenCode => {
            None
        }
    }
}

/// The agent's own file (see [`own_file_places`]) written, or taken out;
/// nothing for an agent without one.
fn own_gate_file(
    plan: &mut Plan,
    request: &Request,
    root: &Path,
    command: &str,
    read: &impl Fn(&Path) -> Result<Option<String>, InstallError>,
) -> Result<(), InstallError> {
    let Some([user, project]) = own_file_places(request.agent) else {
        return Ok(());
    };
    let path = match request.scope {
        // OpenCode's user folder is XDG_CONFIG_HOME's.
        Scope::User if request.agent == GateAgent::Opencode => request
            .xdg_config_home
            .clone()
            .unwrap_or_else(|| request.home.join(".config"))
            .join(user),
        Scope::User => root.join(user),
        Scope::Project => root.join(project),
    };
    let (text, executable) = match request.agent {
        GateAgent::Opencode => (script(OPENCODE_PLUGIN, request, "opencode")?, false),
        GateAgent::Pi => (script(PI_EXTENSION, request, "pi")?, false),
        _ => (cline_hook_file(request, command), true),
    };
    own_file(plan, request, &path, read(&path)?, text, executable)?;
    if request.agent == GateAgent::ClineCli && !request.uninstall {
        plan.notes.push(
            "Cline CLI 3.0.65 runs this hook for every tool call (seen offline, ~/Documents/Cline/Hooks/); \
             an edit Cline refuses itself is not cancelled: srview's finding reaches the model beside \
             Cline's own error (the hook's context); srview's other denies (a cancel) stop Cline's whole \
             task, and the model does not read the reason; a rewrite runs the corrected edit, and the \
             model reads why"
                .into(),
        );
    }
    Ok(())
}

/// Cline's hook file: the gate, and, when srview cannot run (not there,
/// not executable) or dies without answering, a cancel naming why. Cline
/// CLI 3.0.65 runs the tool when its hook gives no answer it can read (seen
/// offline with srview deleted, tests/gate_e2e/), and stops its whole task
/// on a cancel.
fn cline_hook_file(request: &Request, command: &str) -> String {
    let srview = request.srview.to_string_lossy();
    // The exit status is filled in when the hook runs: the JSON is split
    // where it goes.
    let answer = serde_json::json!({
        "cancel": true,
        "errorMessage": format!("srview gate: {srview} did not answer (exit \u{0}): the edit is blocked"),
    })
    .to_string();
    let (before, after) = answer.split_once("\\u0000").unwrap_or((&answer, ""));
    format!(
        "#!/bin/sh\n# srview gate for Cline CLI 3.x (run offline against Cline CLI 3.0.65: it runs this file\n\
         # for every tool call; srview's deny, a cancel, stops Cline's whole task). Written by\n\
         # `srview gate install --agent cline-cli`; removed by `srview gate install --agent cline-cli --uninstall`.\n\
         # When srview cannot run or dies without answering, the edit is blocked: Cline runs the tool\n\
         # when its hook gives no answer.\n\
         {command} && exit 0\ns=$?\nprintf '%s%s%s\\n' {} \"$s\" {}\n",
        shell_quote(before),
        shell_quote(after),
    )
}

/// The hook command: srview's absolute path, `--agent`, the timeout, the
/// policy; quoted for the shell the agents run it with.
pub fn command(request: &Request) -> String {
    let mut words = vec![
        shell_quote(&request.srview.to_string_lossy()),
        "gate".into(),
        "--agent".into(),
        request.agent.id().into(),
        "--timeout".into(),
        request.timeout.to_string(),
    ];
    if let Some(policy) = &request.policy {
        words.push("--policy".into());
        words.push(shell_quote(policy));
    }
    words.join(" ")
}

/// The command a settings file holds (Claude Code, Codex, Gemini CLI,
/// Qwen Code): [`command`], and, when srview cannot be run (not there, not
/// executable) or dies without answering, a deny: exit 2 with the reason
/// on stderr, which each of the four reads as a deny. Without it each let
/// the edit run (the shell's exit 127 is a non-blocking error: seen with
/// the real Claude Code and Codex, tests/gate_e2e/). srview's own exit 2 (a
/// usage error, its reason on stderr) passes as it is; its answers exit 0.
pub fn hook_command(request: &Request) -> String {
    format!(
        "{}{}",
        command(request),
        deny_tail(&shell_quote(&request.srview.to_string_lossy()))
    )
}

/// [`crate::words::shell_quote`], where the gate's commands have it.
pub use crate::words::shell_quote;

/// `{"matcher": M, "hooks": [{"type": "command", "command": C, "timeout": T}]}`.
fn group(matcher: &str, command: &str, timeout: u32) -> Json {
    group_with_timeout(matcher, command, u64::from(timeout))
}

fn group_with_timeout(matcher: &str, command: &str, timeout: u64) -> Json {
    Json::Obj(vec![
        ("matcher", Json::Str(matcher.into())),
        (
            "hooks",
            Json::Arr(vec![Json::Obj(vec![
                ("type", Json::Str("command".into())),
                ("command", Json::Str(command.into())),
                ("timeout", Json::Num(timeout)),
            ])]),
        ),
    ])
}

/// The text a settings file srview creates starts from, and what is
/// left when srview's entry is taken out again: such a file is removed.
const EMPTY_SETTINGS: &str = "{}\n";

/// What an install created around its group in a settings file: the file,
/// the `hooks` object, the event's array. Written into the group's command
/// as `--install-created file,hooks,event` (`none`: the user had all three;
/// the gate reads and ignores it), so that `--uninstall` takes out what the
/// install added and nothing of the user's: a settings file holding `{}`,
/// an empty `"hooks": {}` or an empty event array the user had stay. The
/// flag is also what tells srview's own hook from the user's: only a
/// command exactly as install writes it, flag included ([`installed`]), is
/// srview's to replace or take out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Created {
    file: bool,
    hooks: bool,
    event: bool,
}

impl Created {
    /// The flag's value.
    fn flag(self) -> String {
        let words: Vec<&str> = [
            (self.file, "file"),
            (self.hooks, "hooks"),
            (self.event, "event"),
        ]
        .iter()
        .filter(|(made, _)| *made)
        .map(|(_, word)| *word)
        .collect();
        if words.is_empty() {
            "none".into()
        } else {
            words.join(",")
        }
    }

    /// The flag's value read back: only as [`Created::flag`] writes it.
    fn parse(value: &str) -> Option<Created> {
        [false, true]
            .into_iter()
            .flat_map(|file| [false, true].map(|hooks| (file, hooks)))
            .flat_map(|(file, hooks)| [false, true].map(|event| Created { file, hooks, event }))
            .find(|created| created.flag() == value)
    }
}

/// What follows srview's invocation in a settings file's command: a deny
/// (exit 2, the reason on stderr) when `srview` (quoted for the shell)
/// cannot be run or dies without answering.
fn deny_tail(srview: &str) -> String {
    format!(
        " || {{ s=$?; [ $s = 2 ] || printf 'srview gate: %s did not answer (exit %s): the edit is blocked\\n' {srview} $s >&2; exit 2; }}"
    )
}

/// `word` read back as [`shell_quote`] wrote it, `None` when it is not
/// one word so written.
fn shell_unquote(word: &str) -> Option<String> {
    let plain = match word.strip_prefix('\'').and_then(|w| w.strip_suffix('\'')) {
        Some(inner) => inner.replace("'\\''", "'"),
        None => word.to_string(),
    };
    (shell_quote(&plain) == word).then_some(plain)
}

/// What the install that wrote `command` created, when `command` is a
/// hook command exactly as `srview gate install --agent AGENT` writes it
/// into settings: srview's absolute path, `gate --agent AGENT
/// --install-created V --timeout N [--policy P]`, then the deny when srview
/// cannot run ([`hook_command`]). `None` for anything else: a command the
/// user wrote, even one running srview's gate, is the user's.
fn installed(command: &str, agent: GateAgent) -> Option<Created> {
    let marker = format!(" gate --agent {} --install-created ", agent.id());
    let (srview, rest) = command.split_once(&marker)?;
    if !shell_unquote(srview)?.starts_with('/') {
        return None;
    }
    let (value, rest) = rest.split_once(' ')?;
    let created = Created::parse(value)?;
    let rest = rest
        .strip_prefix("--timeout ")?
        .strip_suffix(&deny_tail(srview))?;
    let (timeout, policy) = match rest.split_once(" --policy ") {
        Some((timeout, policy)) => (timeout, Some(policy)),
        None => (rest, None),
    };
    let seconds = timeout.parse::<u32>().ok()?;
    if seconds.to_string() != timeout || policy.is_some_and(|p| shell_unquote(p).is_none()) {
        return None;
    }
    Some(created)
}

/// Whether `command` runs srview's gate for `agent` without being one
/// install wrote: its first word a program named `srview`, then `gate
/// --agent AGENT` (written by hand, as the docs show, or by an srview
/// before `--install-created`). Such a hook is left as it is and named.
fn runs_the_gate(command: &str, agent: GateAgent) -> bool {
    let words: Vec<&str> = command.split_whitespace().collect();
    let program = words.first().and_then(|w| shell_unquote(w));
    program.is_some_and(|p| p == "srview" || p.ends_with("/srview"))
        && words.get(1..4) == Some(&["gate", "--agent", agent.id()][..])
        && installed(command, agent).is_none()
}

/// srview's hook found in an event's array: its group and its place in
/// the group; `own_group` when the group holds it alone (install wrote the
/// group); what its install created.
#[derive(Debug, Clone, Copy)]
struct Ours {
    group: usize,
    hook: usize,
    own_group: bool,
    created: Created,
}

/// srview's hooks (for `agent`) in the event array `list`, in order.
fn ours_in(list: &Node, agent: GateAgent) -> Vec<Ours> {
    let mut found = Vec::new();
    for (group, node) in list.elements().iter().enumerate() {
        let hooks = node.get("hooks").map_or(&[][..], Node::elements);
        for (hook, entry) in hooks.iter().enumerate() {
            let created = entry
                .get("command")
                .and_then(Node::as_str)
                .and_then(|c| installed(c, agent));
            if let Some(created) = created {
                found.push(Ours {
                    group,
                    hook,
                    own_group: hooks.len() == 1,
                    created,
                });
            }
        }
    }
    found
}

/// `hooks.<event>` of the settings, when there is one.
fn event_list<'n>(root: &'n Node, event: &str) -> Option<&'n Node> {
    root.get("hooks")?.get(event)
}

/// A group's matcher, for a message (`(no matcher)` without one).
fn matcher_of(group: &Node) -> String {
    group
        .get("matcher")
        .and_then(Node::as_str)
        .map_or("(no matcher)".into(), |m| {
            format!("matcher {}", serde_json::Value::from(m))
        })
}

/// Adds (or, uninstalling, takes out) srview's group of each event to the
/// JSON settings at `path`. Only srview's own hook ([`installed`]) is
/// touched: its group replaced in place on a re-install (so no group of the
/// user's moves), taken out on uninstall with what its install created
/// around it; one the user put into a group of theirs beside other hooks is
/// taken out of that group alone, and said.
fn settings_change(
    plan: &mut Plan,
    request: &Request,
    path: &Path,
    before: Option<String>,
    events: &[(&'static str, Json)],
) -> Result<(), InstallError> {
    let bad = |why: String| InstallError::Config {
        path: path.display().to_string(),
        why,
    };
    let agent = request.agent;
    let mut text = before.clone().unwrap_or_else(|| EMPTY_SETTINGS.to_string());
    let root = root_object(&text).map_err(bad)?;
    let names: Vec<&str> = events.iter().map(|(event, _)| *event).collect();
    if let Some(why) = given_twice(&text, &root, &names, agent) {
        return Err(bad(why));
    }
    let mut created_file = false;
    for (event, entry) in events {
        // Every srview hook of the event goes, but the first group of
        // srview's own when installing: it is replaced in place.
        loop {
            let root = root_object(&text).map_err(bad)?;
            let Some(list) = event_list(&root, event) else {
                break;
            };
            let found = ours_in(list, agent);
            let kept = (!request.uninstall)
                .then(|| found.iter().position(|o| o.own_group))
                .flatten();
            let Some(ours) = found
                .iter()
                .enumerate()
                .find(|(i, _)| Some(*i) != kept)
                .map(|(_, o)| *o)
            else {
                break;
            };
            let group = &list.elements()[ours.group];
            if ours.own_group {
                created_file |= ours.created.file;
                text = without_group(&text, &root, event, ours.group, ours.created);
            } else {
                plan.notes.push(format!(
                    "{}: took srview's hook out of group {} of hooks.{event} ({}), which holds hooks of yours: \
                     they stay as they are",
                    path.display(),
                    ours.group + 1,
                    matcher_of(group)
                ));
                let hooks = group.get("hooks").unwrap_or(group);
                text = jsonc::remove(&text, &root, hooks, ours.hook);
            }
        }
        if request.uninstall {
            continue;
        }
        let root = root_object(&text).map_err(bad)?;
        let own = event_list(&root, event).and_then(|list| {
            Some((
                list,
                ours_in(list, agent).into_iter().find(|o| o.own_group)?,
            ))
        });
        text = match own {
            Some((list, ours)) => {
                let group = &list.elements()[ours.group];
                let new = marked(entry, agent, ours.created);
                // The same group, however laid out (comments too): kept.
                if group.to_value(&text) == Some(new.to_value()) {
                    text
                } else {
                    jsonc::replace(&text, &root, group, &new)
                }
            }
            None => {
                let hooks = root.get("hooks");
                let created = Created {
                    file: before.is_none(),
                    hooks: hooks.is_none(),
                    event: hooks.is_none_or(|h| h.get(event).is_none()),
                };
                with_entry(&text, event, &marked(entry, agent, created)).map_err(bad)?
            }
        };
    }
    if !request.uninstall {
        others_running_the_gate(plan, path, &text, agent);
        if let Some(why) = hooks_switched_off(&text, agent) {
            plan.gate_off = true;
            plan.warnings.push(format!(
                "{title} runs no hook while {} {why}: srview's hook is written, but it will not run until that \
                 setting is removed (srview leaves your setting as it is)",
                path.display(),
                title = agent.title()
            ));
        }
    }
    let emptied = text == EMPTY_SETTINGS
        || (request.agent == GateAgent::QwenCode && only_qwen_version(&text));
    let after = if request.uninstall && created_file && emptied && before.is_some() {
        None
    } else if before.is_none() && text == EMPTY_SETTINGS {
        // Nothing there, nothing to take out.
        return Ok(());
    } else {
        Some(text)
    };
    push(plan, path, before, after, false);
    Ok(())
}

/// Why the settings cannot be edited when a key on the path install
/// edits (`hooks`, the event's array) is given more than once: an agent
/// reading the file keeps one of them (the last, as JavaScript's
/// `JSON.parse` and Python's `json` do, which srview takes the agents to
/// do), so srview's hook, written into either, might never run.
fn given_twice(text: &str, root: &Node, events: &[&str], agent: GateAgent) -> Option<String> {
    let lines = |node: &Node, key: &str| -> Vec<usize> {
        node.members()
            .iter()
            .filter(|m| m.key == key)
            .map(|m| jsonc::line_of(text, m.key_start))
            .collect()
    };
    let twice = |name: String, lines: Vec<usize>| {
        let (last, rest) = lines.split_last()?;
        if rest.is_empty() {
            return None;
        }
        let rest: Vec<String> = rest.iter().map(usize::to_string).collect();
        Some(format!(
            "{name} is given {} (lines {} and {last}): srview edits no settings with a hook key given twice, since \
             {} reads only one of them (the last, if it reads JSON as JavaScript's JSON.parse and Python's json \
             do), so a hook written into the other would never run: merge them into one",
            if lines.len() == 2 {
                "twice".to_string()
            } else {
                format!("{} times", lines.len())
            },
            rest.join(", "),
            agent.title()
        ))
    };
    if let Some(why) = twice("\"hooks\"".into(), lines(root, "hooks")) {
        return Some(why);
    }
    let hooks = root.get("hooks")?;
    events
        .iter()
        .find_map(|event| twice(format!("\"hooks\".\"{event}\""), lines(hooks, event)))
}

/// The agent's own switch turning every hook off, as the settings `text`
/// set it (said with its line): Claude Code's and Qwen Code's
/// `"disableAllHooks": true`, Gemini CLI's `"hooksConfig": {"enabled":
/// false}` (each agent's documented switch; the last of a key given twice,
/// as JSON.parse reads it).
fn hooks_switched_off(text: &str, agent: GateAgent) -> Option<String> {
    let root = root_object(text).ok()?;
    let (owner, key, off) = match agent {
        GateAgent::ClaudeCode | GateAgent::QwenCode => (&root, "disableAllHooks", "true"),
        GateAgent::GeminiCli => (root.get("hooksConfig")?, "enabled", "false"),
        _ => return None,
    };
    let member = owner.members().iter().rev().find(|m| m.key == key)?;
    if member.value.literal(text) != Some(off) {
        return None;
    }
    let line = jsonc::line_of(text, member.key_start);
    Some(match agent {
        GateAgent::GeminiCli => {
            format!("sets \"hooksConfig\": {{\"enabled\": false}} (line {line})")
        }
        _ => format!("sets \"{key}\": {off} (line {line})"),
    })
}

/// A note for each hook of the settings that runs srview's gate without
/// being srview's own ([`runs_the_gate`]): left as it is, said.
fn others_running_the_gate(plan: &mut Plan, path: &Path, text: &str, agent: GateAgent) {
    let Ok(root) = root_object(text) else {
        return;
    };
    let Some(hooks) = root.get("hooks") else {
        return;
    };
    for member in hooks.members() {
        for (index, group) in member.value.elements().iter().enumerate() {
            let commands = group
                .get("hooks")
                .map_or(&[][..], Node::elements)
                .iter()
                .filter_map(|h| h.get("command").and_then(Node::as_str));
            for command in commands.filter(|c| runs_the_gate(c, agent)) {
                plan.notes.push(format!(
                    "{}: group {} of hooks.{} ({}) runs `{command}`, which `srview gate install` did not write \
                     (by hand, or by an srview from before --install-created): srview leaves it as it is; \
                     beside srview's own hook the gate runs twice: take one of them out by hand",
                    path.display(),
                    index + 1,
                    member.key,
                    matcher_of(group)
                ));
            }
        }
    }
}

/// `entry` with its command saying what the install `created`: the flag
/// goes right after `--agent ID`.
fn marked(entry: &Json, agent: GateAgent, created: Created) -> Json {
    let after = format!(" gate --agent {} ", agent.id());
    match entry {
        Json::Str(text) => Json::Str(text.replacen(
            &after,
            &format!("{after}--install-created {} ", created.flag()),
            1,
        )),
        Json::Num(n) => Json::Num(*n),
        Json::Obj(members) => Json::Obj(
            members
                .iter()
                .map(|(key, value)| (*key, marked(value, agent, created)))
                .collect(),
        ),
        Json::Arr(items) => Json::Arr(items.iter().map(|i| marked(i, agent, created)).collect()),
    }
}

/// Whether the settings hold nothing but the `"$version"` Qwen Code 0.24.4
/// writes into every settings file it reads (seen with the real CLI,
/// tests/gate_e2e/: a file install created came back `{"$version": 4}`
/// after a run): such a file holds nothing of the user's, and uninstall
/// removes it as it removes one left `{}`.
fn only_qwen_version(text: &str) -> bool {
    match jsonc::parse(text) {
        Ok(Node::Object { members, .. }) => {
            matches!(members.as_slice(), [only] if only.key == "$version"
                && matches!(only.value, Node::Other { .. }))
        }
        _ => false,
    }
}

fn push(
    plan: &mut Plan,
    path: &Path,
    before: Option<String>,
    after: Option<String>,
    executable: bool,
) {
    if before != after {
        plan.changes.push(Change {
            path: path.to_path_buf(),
            before,
            after,
            executable,
        });
    }
}

/// The settings' root object, checked to be one.
fn root_object(text: &str) -> Result<Node, String> {
    let root = jsonc::parse(text).map_err(|e| format!("not JSON ({e})"))?;
    match root {
        Node::Object { .. } => Ok(root),
        _ => Err("not a JSON object".into()),
    }
}

/// `text` with `entry` appended to `hooks.<event>`.
fn with_entry(text: &str, event: &'static str, entry: &Json) -> Result<String, String> {
    let root = root_object(text)?;
    let Some(hooks) = root.get("hooks") else {
        let value = Json::Obj(vec![(event, Json::Arr(vec![entry.clone()]))]);
        return Ok(jsonc::insert(text, &root, &root, Some("hooks"), &value).apply(text));
    };
    if !matches!(hooks, Node::Object { .. }) {
        return Err("its \"hooks\" is not an object".into());
    }
    match hooks.get(event) {
        None => {
            let value = Json::Arr(vec![entry.clone()]);
            Ok(jsonc::insert(text, &root, hooks, Some(event), &value).apply(text))
        }
        Some(list @ Node::Array { .. }) => {
            Ok(jsonc::insert(text, &root, list, None, entry).apply(text))
        }
        Some(_) => Err(format!("its \"hooks\".\"{event}\" is not an array")),
    }
}

/// `text` without group `index` of `hooks.<event>` (srview's own): the
/// event's array goes too when that leaves it empty and the install
/// `created` it, and `hooks` when that leaves it empty and the install
/// created it.
fn without_group(text: &str, root: &Node, event: &str, index: usize, created: Created) -> String {
    let position = |node: &Node, key: &str| node.members().iter().rposition(|m| m.key == key);
    let (Some(hooks), Some(list)) = (root.get("hooks"), event_list(root, event)) else {
        return text.to_string();
    };
    if list.elements().len() > 1 || !created.event {
        jsonc::remove(text, root, list, index)
    } else if hooks.members().len() > 1 || !created.hooks {
        jsonc::remove(text, root, hooks, position(hooks, event).unwrap_or(0))
    } else {
        jsonc::remove(text, root, root, position(root, "hooks").unwrap_or(0))
    }
}

/// The plugin and the extension srview ships (assets/gate/).
const OPENCODE_PLUGIN: &str = include_str!("../../assets/gate/srview-gate.opencode.js");
const PI_EXTENSION: &str = include_str!("../../assets/gate/srview-gate.pi.ts");

/// The asset with srview's path, the timeout and the policy written in.
fn script(asset: &str, request: &Request, id: &str) -> Result<String, InstallError> {
    let srview = serde_json::Value::from(request.srview.to_string_lossy().as_ref()).to_string();
    let spawn_args = "String(TIMEOUT_SECONDS)]";
    let anchors = [
        "const SRVIEW = \"/usr/local/bin/srview\";",
        "const TIMEOUT_SECONDS = 60;",
        spawn_args,
    ];
    if let Some(missing) = anchors.iter().find(|a| asset.matches(**a).count() != 1) {
        return Err(InstallError::Usage(format!(
            "srview's {id} asset has no single `{missing}` to fill in (an srview bug)"
        )));
    }
    let mut text = asset
        .replacen(anchors[0], &format!("const SRVIEW = {srview};"), 1)
        .replacen(
            anchors[1],
            &format!("const TIMEOUT_SECONDS = {};", request.timeout),
            1,
        );
    if let Some(policy) = &request.policy {
        let policy = serde_json::Value::from(policy.as_str()).to_string();
        text = text.replacen(
            spawn_args,
            &format!("String(TIMEOUT_SECONDS), \"--policy\", {policy}]"),
            1,
        );
    }
    Ok(text)
}

/// The seal srview ends its own file with: the SHA-256 of every line above
/// it, in a comment (`//`, or `#` for a shell script), so that a later
/// install or uninstall tells the file as srview wrote it from one the user
/// changed since (a tester's find: a re-install reverted the user's edit
/// of the plugin without a word, an uninstall deleted it).
const SEAL: &str = " srview-gate seal: sha256 ";

/// `text` with its seal line (see [`SEAL`]), in `comment`'s syntax.
fn sealed(text: &str, comment: &str) -> String {
    format!(
        "{text}{comment}{SEAL}{}\n",
        super::sha256_hex(text.as_bytes())
    )
}

/// Whether `existing` (srview's own file) is as srview wrote it: its seal
/// matches the lines above it. A file without a seal (written by an srview
/// from before seals) is taken as srview's.
fn as_written(existing: &str) -> bool {
    let body = existing.strip_suffix('\n').unwrap_or(existing);
    let (above, last) = match body.rfind('\n') {
        Some(at) => (&existing[..=at], &body[at + 1..]),
        None => ("", body),
    };
    match last.split_once(SEAL) {
        Some((_, hash)) => hash.trim() == super::sha256_hex(above.as_bytes()),
        None => !existing.contains(SEAL),
    }
}

/// srview's own file at `path`: written (install) or removed (uninstall);
/// a file there that is not srview's, or that the user changed since
/// srview wrote it (its seal, see [`SEAL`]), is left alone.
fn own_file(
    plan: &mut Plan,
    request: &Request,
    path: &Path,
    before: Option<String>,
    text: String,
    executable: bool,
) -> Result<(), InstallError> {
    if let Some(existing) = &before {
        if !existing.contains("srview gate") {
            return Err(InstallError::NotOurs {
                path: path.display().to_string(),
            });
        }
        if !as_written(existing) {
            return Err(InstallError::ChangedSince {
                path: path.display().to_string(),
            });
        }
    }
    let text = sealed(&text, if executable { "#" } else { "//" });
    let after = (!request.uninstall).then_some(text);
    push(plan, path, before, after, executable);
    Ok(())
}

/// Codex: the group in `hooks.json`, and its trust in `config.toml`.
fn codex(
    plan: &mut Plan,
    request: &Request,
    command: &str,
    read: &impl Fn(&Path) -> Result<Option<String>, InstallError>,
) -> Result<(), InstallError> {
    let codex_home = request
        .codex_home
        .clone()
        .unwrap_or_else(|| request.home.join(".codex"));
    let hooks_path = match request.scope {
        Scope::User => codex_home.join("hooks.json"),
        Scope::Project => request.project.join(".codex/hooks.json"),
    };
    const MATCHER: &str = "apply_patch";
    let entry = group(MATCHER, command, request.timeout);
    let before = read(&hooks_path)?;
    settings_change(
        plan,
        request,
        &hooks_path,
        before.clone(),
        &[("PreToolUse", entry)],
    )?;
    let hooks_after = plan
        .changes
        .iter()
        .find(|c| c.path == hooks_path)
        .map_or(before.clone(), |c| c.after.clone());

    // The trust: Codex skips a hook silently until `[hooks.state."KEY"]`
    // holds its hash. The key names the group by its place in the file.
    let config_path = codex_home.join("config.toml");
    let config_before = read(&config_path)?;
    let before_text = config_before.as_deref().unwrap_or("");
    let mut config = without_trust(before_text);
    // Whether install created config.toml (its trust block says so): only
    // then does uninstall remove a file it leaves empty.
    let config_created = config.is_empty()
        && (config_before.is_none()
            || before_text.contains(&format!("{TRUST_MARK}{CREATED_MARK}")));
    moved_trust(
        plan,
        &hooks_path,
        &config_path,
        &config,
        before.as_deref(),
        hooks_after.as_deref(),
    );
    if !request.uninstall {
        let features_off = config
            .parse::<toml_edit::DocumentMut>()
            .ok()
            .and_then(|d| d.get("features")?.get("hooks")?.as_bool())
            == Some(false);
        if features_off {
            plan.gate_off = true;
            plan.warnings.push(format!(
                "Codex runs no hook while {} sets hooks = false in its [features]: srview's hook is written, but it \
                 will not run until that setting is removed (srview leaves your setting as it is)",
                config_path.display()
            ));
        }
        let ours = hooks_after
            .as_deref()
            .and_then(|t| root_object(t).ok())
            .and_then(|root| {
                let list = event_list(&root, "PreToolUse")?;
                let ours = ours_in(list, GateAgent::Codex)
                    .into_iter()
                    .find(|o| o.own_group)?;
                let command = list.elements()[ours.group]
                    .get("hooks")?
                    .elements()
                    .first()?
                    .get("command")?;
                Some((ours.group, command.as_str()?.to_string()))
            });
        let (index, command) = ours.unwrap_or((0, command.to_string()));
        let key = format!("{}:pre_tool_use:{index}:0", hooks_path.display());
        let hash = codex_trust_hash(MATCHER, &command, request.timeout);
        let created = if config_created { CREATED_MARK } else { "" };
        // A trust of the user's at srview's key: srview's hook is trusted
        // when it holds srview's hash; else Codex skips srview's hook.
        let users = trusted_hash(&config, &key);
        if users.as_deref() == Some(hash.as_str()) {
            push(plan, &config_path, config_before, Some(config), false);
            return Ok(());
        }
        if let Some(theirs) = users {
            plan.gate_off = true;
            plan.warnings.push(format!(
                "Codex skips srview's hook: {} already trusts another hook at srview's place ([hooks.state.{}] \
                 trusted_hash = \"{theirs}\"), and srview leaves the user's trust as it is: trust srview's hook in \
                 Codex's TUI (/hooks), or take that entry out and run `srview gate install` again",
                config_path.display(),
                toml_key(&key)
            ));
            let config_after = (config_before.is_some() || !config.is_empty()).then_some(config);
            push(plan, &config_path, config_before, config_after, false);
            return Ok(());
        }
        let block = format!(
            "{TRUST_MARK}{created}\n[hooks.state.{}]\ntrusted_hash = \"{hash}\"\n",
            toml_key(&key)
        );
        let separated = match config.as_str() {
            "" => block,
            t if t.ends_with('\n') => format!("{t}\n{block}"),
            t => format!("{t}\n\n{block}"),
        };
        match separated.parse::<toml_edit::DocumentMut>() {
            Ok(_) => {
                config = separated;
                plan.notes.push(format!(
                    "Codex runs the hook once it is trusted: srview adds its trusted_hash to {} (key {key}); \
                     a change to the hook (or to the place of its group in hooks.json) needs `srview gate install` again",
                    config_path.display()
                ));
            }
            Err(_) => {
                plan.gate_off = true;
                plan.warnings.push(format!(
                    "Codex skips the hook until it is trusted, and srview could not add the trust to {} (it would \
                     clash with what is there): trust it in Codex's TUI (/hooks), or run codex with \
                     --dangerously-bypass-hook-trust",
                    config_path.display()
                ));
            }
        }
        if request.scope == Scope::Project {
            plan.notes.push(format!(
                "Codex reads a project's .codex/ only when the project is trusted ([projects.\"{}\"] trust_level = \"trusted\" \
                 in {}); srview does not set that",
                request.project.display(),
                config_path.display()
            ));
        }
    }
    let config_after = match (config_before.is_some(), config.is_empty()) {
        (true, true) if request.uninstall && config_created => None,
        (false, true) => None,
        _ => Some(config),
    };
    push(plan, &config_path, config_before, config_after, false);
    Ok(())
}

/// The user's hooks of `hooks.PreToolUse` in Codex's hooks.json `text`
/// (srview's own left out), in order: group, place in the group, command.
fn users_codex_hooks(text: Option<&str>) -> Vec<(usize, usize, String)> {
    let Some(root) = text.and_then(|t| root_object(t).ok()) else {
        return Vec::new();
    };
    let Some(list) = event_list(&root, "PreToolUse") else {
        return Vec::new();
    };
    let mut hooks = Vec::new();
    for (group, node) in list.elements().iter().enumerate() {
        for (place, hook) in node
            .get("hooks")
            .map_or(&[][..], Node::elements)
            .iter()
            .enumerate()
        {
            let command = hook.get("command").and_then(Node::as_str).unwrap_or("");
            if installed(command, GateAgent::Codex).is_none() {
                hooks.push((group, place, command.to_string()));
            }
        }
    }
    hooks
}

/// A warning for each hook of the user's that Codex trusts
/// (`[hooks.state."<hooks.json>:pre_tool_use:G:H"]` in `config`) and that
/// taking srview's hook out moves to another place: Codex keys the trust by
/// the place, and skips the hook, silently, until it is trusted again.
fn moved_trust(
    plan: &mut Plan,
    hooks_path: &Path,
    config_path: &Path,
    config: &str,
    before: Option<&str>,
    after: Option<&str>,
) {
    let key = |group: usize, place: usize| {
        format!("{}:pre_tool_use:{group}:{place}", hooks_path.display())
    };
    let was = users_codex_hooks(before);
    let now = users_codex_hooks(after);
    for ((group, place, command), (to_group, to_place, _)) in was.iter().zip(&now) {
        if (group, place) == (to_group, to_place)
            || trusted_hash(config, &key(*group, *place)).is_none()
        {
            continue;
        }
        plan.warnings.push(format!(
            "your hook `{command}` moves from group {} to group {} of hooks.PreToolUse in {}: Codex keys its trust by \
             its place (pre_tool_use:{group}:{place} in {}, now pre_tool_use:{to_group}:{to_place}), and skips it, \
             silently, until it is trusted again: trust it in Codex's TUI (/hooks)",
            group + 1,
            to_group + 1,
            hooks_path.display(),
            config_path.display()
        ));
    }
}

/// The `trusted_hash` Codex's config.toml `text` holds for hook `key`.
fn trusted_hash(text: &str, key: &str) -> Option<String> {
    let document = text.parse::<toml_edit::DocumentMut>().ok()?;
    let hash = document
        .get("hooks")?
        .get("state")?
        .get(key)?
        .get("trusted_hash")?;
    hash.as_str().map(str::to_string)
}

/// The comment line starting srview's trust block in Codex's config.toml;
/// uninstall takes out the block it starts.
const TRUST_MARK: &str =
    "# srview gate install: trust for srview's hook (srview gate install --uninstall removes it)";

/// Said after [`TRUST_MARK`] when install created config.toml.
const CREATED_MARK: &str = " (it created this file)";

/// `text` without srview's trust block (and the blank line install put
/// before it).
fn without_trust(text: &str) -> String {
    let Some(start) = text.find(TRUST_MARK) else {
        return text.to_string();
    };
    // The block: the mark, the table header, the trusted_hash line.
    let mut end = start;
    for _ in 0..3 {
        end = text[end..].find('\n').map_or(text.len(), |i| end + i + 1);
    }
    let from = if text[..start].ends_with("\n\n") {
        start - 1
    } else {
        start
    };
    format!("{}{}", &text[..from], &text[end..])
}

/// A TOML key, quoted.
fn toml_key(key: &str) -> String {
    serde_json::Value::from(key).to_string()
}

/// The hash Codex 0.169.0 keeps as a hook's `trusted_hash`: SHA-256 of
/// the hook's normalised identity as compact JSON with sorted keys (its
/// `version_for_toml` over `{event_name, matcher, hooks: [handler]}`, the
/// handler with its `timeout` and `async`). Checked against the hash the
/// real `codex app-server` reported for the recorded hook.
pub fn codex_trust_hash(matcher: &str, command: &str, timeout: u32) -> String {
    let identity = serde_json::json!({
        "event_name": "pre_tool_use",
        "matcher": matcher,
        "hooks": [{"type": "command", "command": command, "timeout": timeout, "async": false}],
    });
    // serde_json's maps (without `preserve_order`) keep their keys sorted.
    format!(
        "sha256:{}",
        super::sha256_hex(identity.to_string().as_bytes())
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codex_trust_hash_is_the_one_codex_reported() {
        assert_eq!(
            codex_trust_hash(
                "apply_patch|Edit|Write",
                "python3 /home/user/.hooks/hook.py codex a",
                3
            ),
            "sha256:ce4f8ad6999cb92ff1ad66d2f246ae62bade581a2252ef6156fb22ee88d15f89"
        );
    }

    #[test]
    fn the_command_is_quoted_for_the_shell() {
        assert_eq!(shell_quote("/usr/bin/srview"), "/usr/bin/srview");
        assert_eq!(shell_quote("/my tools/it's"), "'/my tools/it'\\''s'");
    }

    /// srview's own command is known only whole, as install writes it.
    #[test]
    fn only_the_command_install_writes_is_srviews() {
        let request = |srview: &str, policy: Option<&str>| Request {
            agent: GateAgent::ClaudeCode,
            scope: Scope::User,
            srview: PathBuf::from(srview),
            timeout: 7,
            policy: policy.map(str::to_string),
            uninstall: false,
            home: PathBuf::from("/h"),
            project: PathBuf::from("/p"),
            codex_home: None,
            xdg_config_home: None,
        };
        let created = Created {
            file: false,
            hooks: true,
            event: true,
        };
        let written = |r: &Request| {
            hook_command(r).replacen(
                " gate --agent claude-code ",
                " gate --agent claude-code --install-created hooks,event ",
                1,
            )
        };
        for r in [
            request("/usr/bin/srview", None),
            request("/my tools/it's/srview", Some("loose=deny")),
            request("/x/srview", Some("a b")),
        ] {
            let command = written(&r);
            assert_eq!(
                installed(&command, GateAgent::ClaudeCode),
                Some(created),
                "{command}"
            );
            assert_eq!(installed(&command, GateAgent::Codex), None);
            for other in [
                format!("{command} # mine"),
                format!("x; {command}"),
                command.replace("hooks,event", "event,hooks"),
                command.replace("--timeout 7", "--timeout 07"),
                command.replace(" exit 2; }", " exit 1; }"),
            ] {
                assert_eq!(installed(&other, GateAgent::ClaudeCode), None, "{other}");
            }
        }
        for user in [
            "/opt/srview gate --agent claude-code --timeout 10",
            "/usr/bin/lint.sh # was: srview gate --agent claude-code --install-created none --timeout 5",
            "srview gate --agent claude-code --install-created none --timeout 5",
        ] {
            assert_eq!(installed(user, GateAgent::ClaudeCode), None, "{user}");
        }
        assert!(runs_the_gate(
            "/opt/srview gate --agent claude-code --timeout 10",
            GateAgent::ClaudeCode
        ));
        assert!(!runs_the_gate(
            "/usr/bin/lint.sh # was: srview gate --agent claude-code",
            GateAgent::ClaudeCode
        ));
        assert!(!runs_the_gate(
            &written(&request("/usr/bin/srview", None)),
            GateAgent::ClaudeCode
        ));
    }

    #[test]
    fn the_trust_block_goes_in_and_out() {
        let text = "a = 1\n";
        let block = format!("{TRUST_MARK}\n[hooks.state.\"k\"]\ntrusted_hash = \"h\"\n");
        assert_eq!(without_trust(&format!("{text}\n{block}")), text);
        assert_eq!(
            without_trust(&format!("{text}\n{block}b = 2\n")),
            "a = 1\nb = 2\n"
        );
    }
}
