//! Command-line interface: argument definitions and dispatch. Each command's
//! work lives in its own module.

mod apply;
mod apply_call;
mod apply_dialect;
mod apply_patch_transcript;
mod apply_stream;
mod apply_transcript;
mod check;
mod check_dialect;
mod check_session;
mod commit;
mod doubts;
mod fix;
mod gate;
mod gate_install;
mod load;
mod preview;
mod preview_agent;
mod preview_transcript;
mod replay;
mod rerun;
mod review;
mod session;
mod sessions;
mod stream_dialect;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::engine::Version;
use crate::error::Error;

/// Watch an LLM's SEARCH/REPLACE edit apply, live, and see why blocks fail.
#[derive(Debug, Parser)]
#[command(
    name = "srview",
    version,
    about,
    args_conflicts_with_subcommands = true
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    #[command(flatten)]
    pub preview: PreviewArgs,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Apply a diff headlessly (Cline v4.0.10 semantics).
    Apply(ApplyArgs),
    /// Explain every block: why it fails, where it should match, a corrected block.
    Check(CheckArgs),
    /// Print the diff corrected so that every block applies exactly (stdout: the diff only).
    Fix(FixArgs),
    /// Write INPUT into OUT progressively, the way a model streams it.
    Replay(ReplayArgs),
    /// Every edit of an agent session (file, folder, or - for a live stream) with srview's verdict.
    Session(SessionArgs),
    /// List the agent sessions found (every agent srview reads), newest first.
    Sessions(SessionsArgs),
    /// An agent's pre-edit hook: judge the edit in the payload on stdin, answer in the agent's format.
    Gate(GateArgs),
    /// The approval pane: the gate's calls from this workspace whose policy says review.
    Review(ReviewArgs),
}

#[derive(Debug, Args, Clone)]
pub struct ReviewArgs {
    /// The workspace (the folder the agent runs in, the payloads' cwd); the current folder by default.
    #[arg(long, value_name = "DIR")]
    pub cwd: Option<std::path::PathBuf>,
}

/// An `--agent` of `srview gate`: an agent whose pre-edit hook runs a command.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GateAgentArg(pub crate::gate::GateAgent);

impl clap::ValueEnum for GateAgentArg {
    fn value_variants<'a>() -> &'a [Self] {
        use crate::gate::GateAgent;
        &[
            GateAgentArg(GateAgent::ClaudeCode),
            GateAgentArg(GateAgent::Codex),
            GateAgentArg(GateAgent::GeminiCli),
            GateAgentArg(GateAgent::QwenCode),
            GateAgentArg(GateAgent::ClineCli),
            GateAgentArg(GateAgent::Opencode),
            GateAgentArg(GateAgent::Pi),
        ]
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        Some(clap::builder::PossibleValue::new(self.0.id()).help(self.0.title()))
    }
}

#[derive(Debug, Args, Clone)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct GateArgs {
    #[command(subcommand)]
    pub command: Option<GateCommand>,
    /// The agent whose hook runs srview (its payload and decision format).
    #[arg(long, value_enum, required = true)]
    pub agent: Option<GateAgentArg>,
    /// What to do per case, e.g. exact=allow,doubt=review,loose=repair,failing=deny (the defaults).
    #[arg(long, value_name = "CASE=ACTION,...")]
    pub policy: Option<String>,
    /// The hook's timeout as installed, in seconds: srview answers (deny) before it passes.
    #[arg(long, value_name = "SECONDS")]
    pub timeout: Option<f64>,
    /// What `gate install` created around the hook (file,hooks,event or none), read back by
    /// `--uninstall`; the gate itself ignores it.
    #[arg(long, value_name = "WHAT", hide = true)]
    pub install_created: Option<String>,
}

#[derive(Debug, Subcommand, Clone)]
pub enum GateCommand {
    /// Write the gate into an agent's own config (its hook settings, plugin or extension file).
    Install(GateInstallArgs),
}

#[derive(Debug, Args, Clone)]
pub struct GateInstallArgs {
    /// claude-code, codex, gemini-cli, qwen-code, opencode, pi, cline-cli (aider and
    /// cline-classic have no hook).
    #[arg(long, value_name = "NAME")]
    pub agent: String,
    /// Into the project's config (the current folder's .claude/, .codex/, .gemini/ ...).
    #[arg(long, conflicts_with = "user")]
    pub project: bool,
    /// Into the user's config under HOME (the default).
    #[arg(long)]
    pub user: bool,
    /// The gate's --policy, written into the hook command.
    #[arg(long, value_name = "CASE=ACTION,...")]
    pub policy: Option<String>,
    /// The hook's timeout in seconds (written in the agent's own unit; the gate answers before it).
    #[arg(long, value_name = "SECONDS", default_value_t = crate::gate::install::DEFAULT_TIMEOUT)]
    pub timeout: u32,
    /// Print the change (a unified diff per file) and write nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Take out what install added (files and folders it created go too).
    #[arg(long)]
    pub uninstall: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum, Default)]
pub enum EngineArg {
    #[default]
    V1,
    V2,
}

impl From<EngineArg> for Version {
    fn from(e: EngineArg) -> Self {
        match e {
            EngineArg::V1 => Version::V1,
            EngineArg::V2 => Version::V2,
        }
    }
}

/// A `--dialect` value: a row of the dialect registry
/// ([`crate::dialect::registry`]), its values listed in the table's order.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DialectArg(pub &'static crate::dialect::registry::DialectRow);

/// `clap::ValueEnum` for `$arg`, a value naming a row of the static table
/// `$rows`: its values are the table's rows, in the table's order, each
/// written as the row's `$value` and helped by its `$help`.
macro_rules! value_enum_of_rows {
    ($arg:ident, $rows:path, $value:ident, $help:ident) => {
        impl clap::ValueEnum for $arg {
            fn value_variants<'a>() -> &'a [Self] {
                static VARIANTS: std::sync::LazyLock<Vec<$arg>> =
                    std::sync::LazyLock::new(|| $rows.iter().map($arg).collect());
                &VARIANTS
            }

            fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
                Some(clap::builder::PossibleValue::new(self.0.$value).help(self.0.$help))
            }
        }
    };
}

value_enum_of_rows!(DialectArg, crate::dialect::registry::DIALECTS, value, title);

/// The dialect `diff` is read in: `forced`, else the one its text shows,
/// else SEARCH/REPLACE (the reference's answer to text with no block).
pub fn dialect_of(forced: Option<crate::dialect::Dialect>, diff: &str) -> crate::dialect::Dialect {
    forced
        .or_else(|| crate::dialect::detect(diff))
        .unwrap_or(crate::dialect::Dialect::SearchReplace)
}

/// How the diff is read and the reference run: shared by every command
/// that applies a diff.
#[derive(Debug, Args, Clone, Copy, Default)]
pub struct EngineOpts {
    /// The diff's dialect (default: detected from its text).
    #[arg(long, value_enum)]
    pub dialect: Option<DialectArg>,
    /// Parser version of the reference.
    #[arg(id = "engine", long = "engine", value_enum, default_value_t)]
    pub parser: EngineArg,
    /// Unescape HTML entities and drop U+FFFD, as Cline does for non-Claude models.
    #[arg(long)]
    pub fix_model_output: bool,
}

impl EngineOpts {
    /// The agent matcher `--dialect` names, for the commands that run one
    /// (`apply`, `check`).
    pub fn agent_dialect(self) -> Option<&'static crate::dialect::registry::DialectRow> {
        self.dialect
            .map(|d| d.0)
            .filter(|row| row.matcher().is_some())
    }

    /// The agent matcher `text` is read with: `--dialect`'s, else the one
    /// whose own input shape it has (an Aider udiff reply: its ```diff
    /// fence), said on stderr (the shape decided, not the user).
    pub fn agent_dialect_of(
        self,
        text: &str,
    ) -> Option<&'static crate::dialect::registry::DialectRow> {
        if self.dialect.is_some() {
            return self.agent_dialect();
        }
        let (row, from) = match crate::dialect::registry::detect_call(text) {
            Some(row) => (row, "the input's keys"),
            None if crate::dialect::aider_diff::is_udiff_reply(text) => (
                crate::dialect::registry::find("aider-udiff")?,
                "its ```diff fence of unified-diff hunks",
            ),
            None => return None,
        };
        eprintln!(
            "srview: note: read as --dialect {} ({}), from {from}",
            row.value, row.title
        );
        Some(row)
    }

    /// The srview dialect `--dialect` forces, if any; an agent matcher is a
    /// usage error for `command`, which does not run one yet.
    pub fn builtin_dialect(self, command: &str) -> Result<Option<crate::dialect::Dialect>, Error> {
        match self.dialect.map(|d| d.0) {
            None => Ok(None),
            Some(row) => row.builtin().map(Some).ok_or_else(|| {
                Error::usage(format!(
                    "--dialect {}: {command} does not run {} yet (srview apply and check do)",
                    row.value, row.title
                ))
            }),
        }
    }

    pub fn version(self) -> Version {
        self.parser.into()
    }

    /// The diff as the applier sees it (cleaned up when asked for).
    pub fn prepare(self, diff: String, path: &std::path::Path) -> String {
        match crate::engine::fixes::engine_input(&diff, path, self.fix_model_output) {
            std::borrow::Cow::Owned(fixed) => fixed,
            std::borrow::Cow::Borrowed(_) => diff,
        }
    }
}

/// The live previewer: `srview FILE [DIFF]`.
#[derive(Debug, Args, Clone, Default)]
pub struct PreviewArgs {
    /// The file the diff edits; `-` alone: an agent's output piped in
    /// (any of the nine agents srview reads), every edit previewed as it streams.
    pub file: Option<PathBuf>,
    /// The diff to watch; `-` or absent (with stdin not a terminal) reads stdin.
    pub diff: Option<PathBuf>,
    #[command(flatten)]
    pub engine: EngineOpts,
    /// Treat the diff as complete from the start (final mode).
    #[arg(long = "final")]
    pub final_mode: bool,
    /// On accept, print the result to stdout instead of writing FILE.
    #[arg(long)]
    pub print: bool,
    /// Poll DIFF instead of relying on file-system events.
    #[arg(long)]
    pub poll: bool,
    /// Stream DIFF in by itself at RATE characters per second (default 400).
    #[arg(long, num_args = 0..=1, default_missing_value = "400", value_name = "RATE")]
    pub replay: Option<f64>,
    /// Seed for replay jitter.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// FILE is an agent transcript (Cline tool calls or Aider edit blocks): preview every file it edits.
    #[arg(long)]
    pub transcript: bool,
    /// Folder transcript paths resolve against.
    #[arg(long)]
    pub cwd: Option<PathBuf>,
    /// Allow transcript paths outside --cwd.
    #[arg(long)]
    pub allow_outside: bool,
    /// FILE may not exist: start from an empty original.
    #[arg(long)]
    pub new_file: bool,
    /// Follow an agent's session file as the agent writes it (any agent
    /// srview reads): preview each edit as it streams. SESSION: a
    /// file or a session id; without it, the newest session an agent ran in
    /// this folder's repository. `srview -` does the same with the agent's
    /// output piped in.
    #[arg(long, value_name = "SESSION", num_args = 0..=1, conflicts_with_all = ["file", "diff", "transcript"])]
    pub follow: Option<Option<PathBuf>>,
}

#[derive(Debug, Args, Clone)]
pub struct ApplyArgs {
    /// The file the diff edits.
    pub file: Option<PathBuf>,
    /// The diff; `-` or absent reads stdin.
    pub diff: Option<PathBuf>,
    /// Apply in partial (streaming) mode: isFinal = false. Its content is
    /// the reference's streaming prefix, not a file: never written.
    #[arg(long, conflicts_with = "write")]
    pub partial: bool,
    #[command(flatten)]
    pub engine: EngineOpts,
    /// Print one JSON object with the result and the per-block report.
    #[arg(long)]
    pub json: bool,
    /// Replace FILE atomically when the diff applies.
    #[arg(long)]
    pub write: bool,
    /// With --write: write even a result srview cannot stand behind (a
    /// block cut off before its end marker, a place its diagnosis doubts; a
    /// patch hunk whose lines occur again, a pure addition the reference
    /// puts at the end of the file, an added file over an existing one);
    /// without it, such a result is not written (exit 1).
    #[arg(long, requires = "write")]
    pub force: bool,
    /// FILE may not exist: start from an empty original.
    #[arg(long)]
    pub new_file: bool,
    /// Apply only these blocks (numbered from 1 as `check` lists them; a
    /// patch's hunks in patch order): the output is the diff made of them.
    #[arg(long, value_name = "N,..", value_delimiter = ',',
          conflicts_with_all = ["skip", "stream", "transcript"])]
    pub only: Vec<usize>,
    /// Apply every block but these (numbered as for --only).
    #[arg(long, value_name = "N,..", value_delimiter = ',',
          conflicts_with_all = ["stream", "transcript"])]
    pub skip: Vec<usize>,
    /// Read stdin as it arrives; print JSON lines as the result changes
    /// (always JSON: --json changes nothing).
    #[arg(long)]
    pub stream: bool,
    /// With --stream, include the new content in every line.
    #[arg(long, requires = "stream")]
    pub stream_content: bool,
    /// With --stream, at most one line per MS milliseconds (0: one per read);
    /// the final line is always written.
    #[arg(long, value_name = "MS", default_value_t = 20, requires = "stream")]
    pub stream_interval: u64,
    /// Apply every edit of an agent transcript instead of one diff.
    #[arg(long, value_name = "MSG")]
    pub transcript: Option<PathBuf>,
    /// Folder transcript paths resolve against (default: the current folder).
    #[arg(long)]
    pub cwd: Option<PathBuf>,
    /// Allow transcript paths outside --cwd.
    #[arg(long)]
    pub allow_outside: bool,
}

#[derive(Debug, Args, Clone)]
pub struct CheckArgs {
    /// The file the diff edits.
    #[arg(
        required_unless_present = "session",
        default_value = "-",
        hide_default_value = true
    )]
    pub file: PathBuf,
    /// The diff; `-` or absent reads stdin.
    pub diff: Option<PathBuf>,
    #[command(flatten)]
    pub engine: EngineOpts,
    /// Print one JSON object with a diagnosis per block.
    #[arg(long)]
    pub json: bool,
    /// Print a corrected SEARCH/REPLACE block for every failing block (stdout
    /// not a terminal: only the blocks on stdout, the report on stderr).
    #[arg(long)]
    pub suggest: bool,
    /// Explain every failed edit of an agent session (file, folder, or -) instead.
    #[arg(long, value_name = "PATH", conflicts_with_all = ["file", "diff", "suggest", "json"])]
    pub session: Option<PathBuf>,
    /// With --session: where the session's files are now.
    #[arg(long, requires = "session")]
    pub cwd: Option<PathBuf>,
}

#[derive(Debug, Args, Clone)]
pub struct FixArgs {
    /// The file the diff edits.
    pub file: PathBuf,
    /// The diff; `-` or absent reads stdin.
    pub diff: Option<PathBuf>,
    #[command(flatten)]
    pub engine: EngineOpts,
}

#[derive(Debug, Args, Clone)]
pub struct ReplayArgs {
    /// A diff or a transcript.
    pub input: PathBuf,
    /// Where to write it progressively (truncated first: refused when it
    /// holds anything but an earlier replay of INPUT, unless --force; when
    /// it is INPUT itself, always).
    #[arg(long)]
    pub to: PathBuf,
    /// Truncate OUT even when it holds other content.
    #[arg(long)]
    pub force: bool,
    /// Characters per second.
    #[arg(long, default_value_t = 400.0)]
    pub rate: f64,
    /// Characters per write.
    #[arg(long, default_value_t = 16)]
    pub chunk: usize,
    /// Random extra delay per write, up to MS milliseconds.
    #[arg(long, default_value_t = 0)]
    pub jitter: u64,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

#[derive(Debug, Args, Clone)]
pub struct SessionArgs {
    /// A session file, folder or database (any agent srview reads), a
    /// session id, or `-` for a live stream (default: the newest session an
    /// agent ran in this folder's repository).
    pub path: Option<PathBuf>,
    /// Print one JSON object: the agent's edits, each with srview's verdict.
    #[arg(long)]
    pub json: bool,
    /// Print the list of edits as text instead of opening the browser
    /// (the default when stdout is not a terminal).
    #[arg(long, conflicts_with = "json")]
    pub list: bool,
    /// Where the session's files are now (default: the workspace it records).
    #[arg(long)]
    pub cwd: Option<PathBuf>,
}

/// An agent, as `sessions --agent` names it: a row of the agent table
/// ([`crate::source::agent::table`]), its values listed in the table's order.
#[derive(Clone, Copy)]
pub struct AgentArg(pub &'static crate::source::agent::table::AgentRow);

impl std::fmt::Debug for AgentArg {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "AgentArg({})", self.0.id)
    }
}

impl AgentArg {
    pub fn name(self) -> &'static str {
        self.0.id
    }
}

value_enum_of_rows!(
    AgentArg,
    crate::source::agent::table::AGENTS,
    id,
    display_name
);

#[derive(Debug, Args, Clone)]
pub struct SessionsArgs {
    /// Search this folder as the home folder (default: $HOME).
    pub folder: Option<PathBuf>,
    /// Only this agent's sessions.
    #[arg(long, value_enum)]
    pub agent: Option<AgentArg>,
    /// Only sessions written on or after DATE (YYYY-MM-DD, UTC).
    #[arg(long, value_name = "DATE")]
    pub since: Option<String>,
}

/// Parses arguments, runs the command, maps errors to exit statuses.
pub fn main() -> ExitCode {
    // An agent's hook runs `srview gate --agent NAME ...` on every edit:
    // its usual arguments are read without building clap's definitions of
    // every command (a third of the process's own time before the judgment
    // starts); anything else, help and errors included, goes to clap.
    if let Some(args) = gate_args(std::env::args_os().skip(1)) {
        return exit_status(gate::run(&args));
    }
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            if let Some(extra) = extra_preview_argument(&e) {
                eprintln!(
                    "srview: unexpected argument '{extra}': srview FILE [DIFF]   (see srview --help)"
                );
                return ExitCode::from(2);
            }
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    let result = match cli.command {
        Some(Command::Apply(args)) => apply::run(&args),
        Some(Command::Check(args)) => match &args.session {
            Some(path) => check_session::run(path, args.cwd.as_deref()),
            None => check::run(&args),
        },
        Some(Command::Fix(args)) => fix::run(&args),
        Some(Command::Replay(args)) => replay::run(&args),
        Some(Command::Session(args)) => session::run(&args),
        Some(Command::Sessions(args)) => sessions::run(&args),
        Some(Command::Gate(args)) => match &args.command {
            Some(GateCommand::Install(install)) => gate_install::run(install),
            None => gate::run(&args),
        },
        Some(Command::Review(args)) => review::run(&args),
        None => refuse_directory_diff(cli.preview.diff.as_deref())
            .and_then(|()| run_previewer(&cli.preview)),
    };
    exit_status(result)
}

/// A command's result as the process's exit status, its error on stderr.
fn exit_status(result: CmdResult) -> ExitCode {
    match result {
        Ok(code) => ExitCode::from(code),
        // Whoever read stdout stopped (`srview sessions | head -1`): what
        // they wanted has been printed, so srview stops quietly with 0, as
        // ripgrep and git do, instead of reporting the pipe.
        Err(e) if e.is_closed_stdout() => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("srview: {e}");
            ExitCode::from(e.exit_code())
        }
    }
}

/// `srview gate` with `--agent NAME` and, at most once each, `--policy P`
/// and `--timeout SECONDS` (each `--flag VALUE` or `--flag=VALUE`): the
/// arguments clap would make of `args` (the words after the program's
/// name). `None` for any other words (the gate's install, help, a word
/// clap would refuse or read otherwise, a value that is empty, starts with
/// `-` or is not UTF-8): clap reads those, with its own texts.
fn gate_args(mut args: impl Iterator<Item = std::ffi::OsString>) -> Option<GateArgs> {
    if args.next()? != "gate" {
        return None;
    }
    let mut gate = GateArgs {
        command: None,
        agent: None,
        policy: None,
        timeout: None,
        install_created: None,
    };
    while let Some(word) = args.next() {
        let word = word.into_string().ok()?;
        let (flag, value) = match word.split_once('=') {
            Some((flag, value)) => (flag.to_string(), value.to_string()),
            None => (word, args.next()?.into_string().ok()?),
        };
        if value.is_empty() || value.starts_with('-') {
            return None;
        }
        match flag.as_str() {
            "--agent" if gate.agent.is_none() => {
                gate.agent = Some(GateAgentArg(crate::gate::GateAgent::from_id(&value)?));
            }
            "--policy" if gate.policy.is_none() => gate.policy = Some(value),
            "--timeout" if gate.timeout.is_none() => gate.timeout = Some(value.parse().ok()?),
            "--install-created" if gate.install_created.is_none() => {
                gate.install_created = Some(value);
            }
            _ => return None,
        }
    }
    gate.agent.is_some().then_some(gate)
}

/// `srview FILE [DIFF]`: the previewer of one diff, or of a transcript
/// (`--transcript`, or FILE alone holding one).
fn run_previewer(args: &PreviewArgs) -> CmdResult {
    if let Some(session) = &args.follow {
        let path = match session {
            // Not a file yet and no session's id: the file the agent
            // will write (the previewer says it waits for it).
            Some(path) => session::resolve(path).unwrap_or_else(|_| path.clone()),
            None => session::newest_here_or_next()?,
        };
        return preview_agent::run_live(args, Some(&path));
    }
    if args.file.as_deref() == Some(std::path::Path::new("-")) && args.diff.is_none() {
        return preview_agent::run_live(args, None);
    }
    let file = args.file.as_deref().ok_or_else(missing_file)?;
    if args.transcript || looks_like_transcript(args, file) {
        preview_transcript::run(args, file)
    } else {
        preview::run(args, file)
    }
}

/// `srview` without FILE: the usage line, and with stdin piped (an agent's
/// output, most likely) the spelling that reads it.
fn missing_file() -> Error {
    use std::io::IsTerminal;
    if std::io::stdin().is_terminal() {
        Error::usage("usage: srview FILE [DIFF]   (see srview --help)")
    } else {
        Error::usage(
            "usage: srview FILE [DIFF]; an agent's output piped in is read by `srview -`   (see srview --help)",
        )
    }
}

/// `srview MSG` alone, with MSG holding an agent transcript.
fn looks_like_transcript(args: &PreviewArgs, file: &std::path::Path) -> bool {
    use std::io::IsTerminal;
    args.diff.is_none()
        && std::io::stdin().is_terminal()
        && crate::input::read_text(file, false)
            .ok()
            .flatten()
            .is_some_and(|t| crate::source::transcript::detect(&t).is_some())
}

impl PreviewArgs {
    /// What the previewer runs with, fed by `feed`.
    fn tui_config(&self, feed: crate::tui::Feed) -> crate::tui::TuiConfig {
        crate::tui::TuiConfig {
            version: self.engine.version(),
            fix_model_output: self.engine.fix_model_output,
            final_mode: self.final_mode,
            feed,
        }
    }
}

/// The one line every previewer prints on stderr per file it wrote, once
/// the terminal is restored.
fn report_written(path: &std::path::Path) {
    eprintln!("srview: wrote {}", path.display());
}

/// `srview FILE DIFF EXTRA`: clap reads a third word after the previewer's
/// two positionals as a subcommand and reports "the subcommand 'EXTRA'
/// cannot be used with [FILE] [DIFF]", which names no real subcommand.
/// Returns EXTRA when that is the error, so it can be reported as the extra
/// argument it is.
fn extra_preview_argument(e: &clap::Error) -> Option<String> {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    if e.kind() != ErrorKind::ArgumentConflict {
        return None;
    }
    match e.get(ContextKind::InvalidSubcommand)? {
        ContextValue::String(word) => Some(word.clone()),
        _ => None,
    }
}

/// A DIFF that is a directory can never be read: refused before the
/// previewer takes the terminal, instead of waiting on it forever.
fn refuse_directory_diff(diff: Option<&std::path::Path>) -> Result<(), Error> {
    match diff {
        Some(p) if p.is_dir() => Err(Error::refused(format!(
            "DIFF {} is a directory, not a diff file",
            p.display()
        ))),
        _ => Ok(()),
    }
}

/// Result of a command: an exit status, or an error to print.
pub type CmdResult = Result<u8, Error>;

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    #[test]
    fn argument_definitions_are_consistent() {
        super::Cli::command().debug_assert();
    }

    /// The gate's own reading of its arguments gives what clap gives, and
    /// leaves to clap every word it does not read the same way.
    #[test]
    fn the_gates_arguments_are_read_as_clap_reads_them() {
        use super::{Cli, Command, gate_args};
        use clap::Parser;
        // Each line's words, split at spaces (none has a space of its own).
        let read = |line: &str| {
            gate_args(line.split_whitespace().map(std::ffi::OsString::from))
                .map(|args| format!("{args:?}"))
        };
        let by_clap = |line: &str| {
            let argv = std::iter::once("srview").chain(line.split_whitespace());
            match Cli::try_parse_from(argv) {
                Ok(Cli {
                    command: Some(Command::Gate(args)),
                    ..
                }) => Some(format!("{args:?}")),
                _ => None,
            }
        };
        let read_by_both = [
            "gate --agent claude-code",
            "gate --agent=codex",
            "gate --agent cline-cli --policy exact=allow,loose=deny",
            "gate --policy=loose=review --agent pi --timeout 10",
            "gate --timeout=0.5 --agent opencode",
            "gate --agent gemini-cli --timeout 1e3",
            "gate --agent qwen-code --timeout nan",
            "gate --agent qwen-code --policy nonsense",
            "gate --agent claude-code --install-created file,hooks,event --timeout 60",
        ];
        for line in read_by_both {
            let fast = read(line);
            assert!(fast.is_some(), "{line:?} is read without clap");
            assert_eq!(fast, by_clap(line), "{line:?}");
        }
        let left_to_clap = [
            "",
            "gate",
            "gate --help",
            "gate -h",
            "gate help",
            "gate install --agent codex",
            "gate --agent",
            "gate --agent aider",
            "gate --agent Claude-Code",
            "gate --agent=",
            "gate --agent codex --agent codex",
            "gate --agent codex --policy a --policy b",
            "gate --agent codex --timeout -1",
            "gate --agent codex --timeout soon",
            "gate --agent codex --timeout 1 --timeout 2",
            "gate --agent codex --policy --timeout",
            "gate --agent codex --polic x",
            "gate --agent codex extra",
            "gate --agent codex -- x",
            "gate --agent codex --version",
            "--final gate --agent codex",
            "apply --agent codex",
        ];
        for line in left_to_clap {
            assert_eq!(read(line), None, "{line:?} is left to clap");
        }
    }
}
