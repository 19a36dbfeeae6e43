//! The command each one-file command was run as ([`Rerun`]), so that a
//! refusal of an input meant for another file says that command for it,
//! runnable as printed (tester finding 50/T-11).

use super::{ApplyArgs, CheckArgs, EngineArg, EngineOpts, FixArgs, PreviewArgs};
use crate::dialect::one_file::Rerun;

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

/// `flag` when `on`.
fn flag_if(on: bool, flag: &str) -> Option<String> {
    on.then(|| flag.to_string())
}

impl ApplyArgs {
    /// `srview apply` of DIFF with the flags that decide what it does
    /// (`--json`, `--write`, `--force`, `--new-file`).
    pub(super) fn rerun(&self) -> Rerun {
        let mut flags = engine_flags(&self.engine);
        flags.extend(
            [
                flag_if(self.json, "--json"),
                flag_if(self.write, "--write"),
                flag_if(self.force, "--force"),
                flag_if(self.new_file, "--new-file"),
            ]
            .into_iter()
            .flatten(),
        );
        Rerun::new(Some("apply"), self.diff.as_deref(), flags)
    }
}

impl CheckArgs {
    /// `srview check` of DIFF with `--json` and `--suggest` as given.
    pub(super) fn rerun(&self) -> Rerun {
        let mut flags = engine_flags(&self.engine);
        flags.extend(
            [
                flag_if(self.json, "--json"),
                flag_if(self.suggest, "--suggest"),
            ]
            .into_iter()
            .flatten(),
        );
        Rerun::new(Some("check"), self.diff.as_deref(), flags)
    }
}

impl FixArgs {
    /// `srview fix` of DIFF.
    pub(super) fn rerun(&self) -> Rerun {
        Rerun::new(
            Some("fix"),
            self.diff.as_deref(),
            engine_flags(&self.engine),
        )
    }
}

impl PreviewArgs {
    /// The previewer (`srview FILE DIFF`) of DIFF with `--print`,
    /// `--final` and `--new-file` as given.
    pub(super) fn rerun(&self) -> Rerun {
        let mut flags = engine_flags(&self.engine);
        flags.extend(
            [
                flag_if(self.print, "--print"),
                flag_if(self.final_mode, "--final"),
                flag_if(self.new_file, "--new-file"),
            ]
            .into_iter()
            .flatten(),
        );
        Rerun::new(None, self.diff.as_deref(), flags)
    }
}
