//! The command each one-file command was run as ([`Rerun`]), so that a
//! refusal of an input meant for another file says that command for it,
//! runnable as printed (tester finding 50/T-11).

use super::{ApplyArgs, CheckArgs, EngineArg, EngineOpts, FixArgs, PreviewArgs};
use crate::dialect::one_file::Rerun;
use std::path::Path;

/// The flags of `engine` that change how the input is read: `--dialect`,
/// a non-default `--engine`, `--fix-model-output`.
fn engine_flags(engine: &EngineOpts) -> Vec<String> {
    let mut flags = Vec::new();
    if let Some(dialect) = engine.dialect {
        flags.extend(["--dialect".to_string(), dialect.0.value.to_string()]);
    }
    if matches!(engine.parser, EngineArg::V2) {
        flags.extend(["--engine".to_string(), "v2".to_string()]);
    }
    if engine.fix_model_output {
        flags.push("--fix-model-output".to_string());
    }
    flags
}

/// The command `command` (`None`: the previewer) of `diff` with the
/// flags of `engine` that change how the input is read, then each flag
/// of `flags` that is on, in their order.
fn rerun_of(
    command: Option<&'static str>,
    diff: Option<&Path>,
    engine: &EngineOpts,
    flags: &[(bool, &str)],
) -> Rerun {
    let mut all = engine_flags(engine);
    all.extend(
        flags
            .iter()
            .filter(|(on, _)| *on)
            .map(|(_, flag)| flag.to_string()),
    );
    Rerun::new(command, diff, all)
}

impl ApplyArgs {
    /// `srview apply` of DIFF with the flags that decide what it does
    /// (`--json`, `--write`, `--force`, `--new-file`).
    pub(super) fn rerun(&self) -> Rerun {
        let flags = [
            (self.json, "--json"),
            (self.write, "--write"),
            (self.force, "--force"),
            (self.new_file, "--new-file"),
        ];
        rerun_of(Some("apply"), self.diff.as_deref(), &self.engine, &flags)
    }
}

impl CheckArgs {
    /// `srview check` of DIFF with `--json` and `--suggest` as given.
    pub(super) fn rerun(&self) -> Rerun {
        let flags = [(self.json, "--json"), (self.suggest, "--suggest")];
        rerun_of(Some("check"), self.diff.as_deref(), &self.engine, &flags)
    }
}

impl FixArgs {
    /// `srview fix` of DIFF.
    pub(super) fn rerun(&self) -> Rerun {
        rerun_of(Some("fix"), self.diff.as_deref(), &self.engine, &[])
    }
}

impl PreviewArgs {
    /// The previewer (`srview FILE DIFF`) of DIFF with `--print`,
    /// `--final` and `--new-file` as given.
    pub(super) fn rerun(&self) -> Rerun {
        let flags = [
            (self.print, "--print"),
            (self.final_mode, "--final"),
            (self.new_file, "--new-file"),
        ];
        rerun_of(None, self.diff.as_deref(), &self.engine, &flags)
    }
}
