//! `srview apply FILE DIFF` (and `check`, `fix`) when DIFF is an apply_patch
//! or an exact-string edit's JSON: detected or forced with `--dialect`, and
//! printed as SEARCH/REPLACE results are.

use std::io::Write;
use std::path::Path;
use std::process::Output;

mod support;

use support::text::{assert_contains, assert_ends_with, assert_holds, assert_starts_with};

fn srview(args: &[&str], stdin: &str) -> Output {
    support::runner::srview(args)
        .stdin(stdin.as_bytes())
        .output()
}

/// `srview ARGS` run in `dir` to its end.
fn run_in(dir: &Path, args: &[&str]) -> Output {
    support::runner::srview(args).cwd(dir).output()
}

/// `srview ARGS` run in `dir` to its end, `stdin` its input.
fn run_in_with(dir: &Path, args: &[&str], stdin: &str) -> Output {
    support::runner::srview(args)
        .cwd(dir)
        .stdin(stdin.as_bytes())
        .output()
}

/// `srview CMD FILE INPUT --dialect DIALECT` run in `dir`, the tool input
/// `input` written to `dir/INPUT` first.
fn run_on_input(dir: &Path, [cmd, file, name]: [&str; 3], input: &str, dialect: &str) -> Output {
    support::files::write(dir, name, input.as_bytes());
    run_in(dir, &[cmd, file, name, "--dialect", dialect])
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

const CALC: &str = "def span(a, b):\n    return b – a\n";
const PATCH: &str = "*** Begin Patch\n*** Update File: calc.py\n@@\n def span(a, b):\n-    return b - a\n+    return abs(b - a)\n*** End Patch\n";
const WARNING: &str = "srview: warning: calc.py hunk 1 (patch lines 3-6) matched only at level unicode: line 2 is \"    return b – a\" where the patch has \"    return b - a\"\n";

/// A temporary folder holding calc.py (`CALC`), and its path.
fn project() -> (tempfile::TempDir, String) {
    project_with("calc.py", CALC)
}

/// A temporary folder holding the file `name` with `content`, and its path.
fn project_with(name: &str, content: &str) -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = support::files::write(dir.path(), name, content.as_bytes());
    let file = file.to_str().expect("UTF-8").to_string();
    (dir, file)
}

fn read(path: &str) -> String {
    std::fs::read_to_string(Path::new(path)).expect("readable")
}

#[test]
fn a_patch_prints_the_new_content_and_warns_about_its_loose_hunk() {
    let (_dir, file) = project();
    let out = srview(&["apply", &file, "-"], PATCH);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        text(&out.stdout),
        "def span(a, b):\n    return abs(b - a)\n"
    );
    assert_eq!(text(&out.stderr), WARNING);
    assert_eq!(read(&file), CALC, "no --write, nothing written");
}

#[test]
fn a_patch_json_has_its_hunks_with_their_level() {
    let (_dir, file) = project();
    let out = srview(&["apply", &file, "-", "--json"], PATCH);
    assert_eq!(out.status.code(), Some(0));
    let report = support::runner::stdout_json(&out);
    assert_eq!(report["ok"], true);
    assert_eq!(report["looseHunks"], 1);
    assert_eq!(report["blocks"][0]["level"], "unicode");
    assert_eq!(report["blocks"][0]["differing"][0]["line"], 2);
    assert_eq!(
        report["newContent"],
        "def span(a, b):\n    return abs(b - a)\n"
    );
    assert_eq!(text(&out.stderr), WARNING);
}

#[test]
fn a_patch_written_and_a_failing_one_refused() {
    let (dir, file) = project();
    // Its hunk matched only at level unicode: held back (tester 43a-18),
    // written with --force.
    let out = srview(&["apply", &file, "-", "--write", "--json"], PATCH);
    assert_eq!(out.status.code(), Some(1));
    let report = support::runner::stdout_json(&out);
    assert_eq!(report["write"]["state"], "held-back");
    assert_eq!(
        report["write"]["reasons"][0],
        "hunk 1 of calc.py matched the file only at level unicode: Codex would replace lines \
         of the file that are not the patch's (line 2 is \"    return b – a\" where the patch has \
         \"    return b - a\")"
    );
    assert_eq!(read(&file), CALC);
    let out = srview(
        &["apply", &file, "-", "--write", "--force", "--json"],
        PATCH,
    );
    assert_eq!(out.status.code(), Some(0));
    let report = support::runner::stdout_json(&out);
    assert_eq!(report["write"]["state"], "written");
    assert_eq!(read(&file), "def span(a, b):\n    return abs(b - a)\n");
    let out = srview(&["apply", &file, "-", "--write", "--json"], PATCH);
    assert_eq!(out.status.code(), Some(1));
    let report = support::runner::stdout_json(&out);
    assert_eq!(report["write"]["state"], "not-applied");
    let out = srview(&["apply", &file, "-", "--write"], PATCH);
    assert_eq!(out.status.code(), Some(1));
    let real = dir.path().canonicalize().expect("real path");
    assert_eq!(
        text(&out.stderr),
        format!(
            "Failed to find expected lines in {}/calc.py:\ndef span(a, b):\n    return b - a\n",
            real.display()
        )
    );
    assert_eq!(read(&file), "def span(a, b):\n    return abs(b - a)\n");
}

/// `apply --write` of PATCH with its `Update File:` line replaced by
/// `header` edits FILE itself (no `lib/` made) and says `note` (given FILE's
/// path) on stderr before the patch's warning.
fn edits_file_saying(header: &str, note: impl Fn(&str) -> String, warning: &str) {
    let (dir, file) = project();
    let patch = PATCH.replace("*** Update File: calc.py\n", header);
    let out = srview(&["apply", &file, "-", "--write", "--force"], &patch);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(text(&out.stderr), format!("{}\n{warning}", note(&file)));
    assert_eq!(read(&file), "def span(a, b):\n    return abs(b - a)\n");
    assert!(!dir.path().join("lib").exists());
}

/// FILE is edited in place when the patch moves it, and that is said.
#[test]
fn a_moving_patch_edits_file_in_place_and_says_so() {
    edits_file_saying(
        "*** Update File: calc.py\n*** Move to: lib/calc2.py\n",
        |file| {
            // The command that moves it, runnable as printed: the patch's
            // folder is FILE's (tester finding 50/T-11).
            let folder = Path::new(file)
                .parent()
                .and_then(|p| p.canonicalize().ok())
                .expect("FILE's folder");
            format!(
                "srview: note: the patch moves calc.py to lib/calc2.py; {file} is edited in \
                 place (`srview apply --transcript - --cwd {} --write` moves it, given the same \
                 input on stdin)",
                folder.display()
            )
        },
        &WARNING.replace("patch lines 3-6", "patch lines 4-7"),
    );
}

/// An input whose path names another file is refused by `apply`, `check`
/// and `fix` FILE, whatever its dialect (tester finding 36/06): exit 1,
/// FILE left as it is, `--write` writes nothing, `fix` prints no fix. A lone patch section, an
/// edit's JSON, and an Aider block that only lands on FILE because Aider
/// retries a failed SEARCH on the chat's files (FILE is in the chat).
#[test]
fn an_input_naming_another_file_is_refused_in_every_dialect() {
    let (dir, file) = project();
    let patch = PATCH.replace("calc.py", "lib/calc2.py");
    let edit = r#"{"file_path": "lib/calc2.py", "old_string": "b – a", "new_string": "a + b"}"#;
    let write = r#"{"file_path": "lib/calc2.py", "content": "x = 1\n"}"#;
    let editor = r#"{"path": "lib/calc2.py", "old_text": "b – a", "new_text": "a + b"}"#;
    let reply = "lib/calc2.py\n```python\n<<<<<<< SEARCH\n    return b – a\n=======\n    return a + b\n>>>>>>> REPLACE\n```\n";
    // The command run, said again for lib/calc2.py (tester finding 50/T-11:
    // it said `srview apply lib/calc2.py INPUT` whatever was run); no
    // lib/calc2.py is here, which is said (session 51: the command printed
    // failed, "cannot read"), and `apply`'s has `--new-file`.
    let one_file = |command: &[&str], flags: &[&str]| {
        let words: Vec<&str> = [command[0], "lib/calc2.py", command[2]]
            .into_iter()
            .chain(flags.iter().copied())
            .chain(command[3..].iter().copied())
            .chain(["--new-file"])
            .collect();
        match command[0] {
            "check" => "there is no lib/calc2.py here to check it on".to_string(),
            "fix" => "there is no lib/calc2.py here to correct it for".to_string(),
            _ => format!(
                "there is no lib/calc2.py here to apply it to; `srview {}` starts it from an \
                 empty file",
                words.join(" ")
            ),
        }
    };
    let aider = |command: &[&str], _: &[&str]| {
        format!(
            "Aider 0.86.2's diff edit format would apply it to calc.py only because its SEARCH \
             text is not in lib/calc2.py and calc.py is in the chat; `srview apply --transcript \
             {} --dialect aider-diff` runs it over the folder",
            command[2]
        )
    };
    type How<'a> = &'a dyn Fn(&[&str], &[&str]) -> String;
    let (edit_how, aider_how): (How, How) = (&one_file, &aider);
    let cases: [(&str, &str, &[&str], &str, How); 9] = [
        ("patch", &patch, &[], &file, edit_how),
        ("edit", edit, &[], &file, edit_how),
        ("write", write, &[], &file, edit_how),
        ("editor", editor, &[], &file, edit_how),
        // The agents' one-file tools: refused as an edit's JSON is, not run
        // on the path they name (a tester's find: "the agent fails: File
        // not found").
        (
            "opencode",
            r#"{"filePath": "lib/calc2.py", "oldString": "b – a", "newString": "a + b"}"#,
            &["--dialect", "opencode-edit"],
            &file,
            edit_how,
        ),
        (
            "gemini",
            r#"{"file_path": "lib/calc2.py", "instruction": "x", "old_string": "b – a", "new_string": "a + b"}"#,
            &["--dialect", "gemini-replace"],
            &file,
            edit_how,
        ),
        ("qwen", edit, &["--dialect", "qwen-edit"], &file, edit_how),
        (
            "pi",
            r#"{"path": "lib/calc2.py", "edits": [{"oldText": "b – a", "newText": "a + b"}]}"#,
            &["--dialect", "pi-edit"],
            &file,
            edit_how,
        ),
        (
            "reply",
            reply,
            &["--dialect", "aider-diff"],
            "calc.py",
            aider_how,
        ),
    ];
    for (name, input, flags, shown, how) in cases {
        support::files::write(dir.path(), name, input.as_bytes());
        for command in [
            &["apply", shown, name][..],
            &["apply", shown, name, "--write"],
            &["apply", shown, name, "--json"],
            &["check", shown, name],
            &["fix", shown, name],
        ] {
            let args: Vec<&str> = command.iter().chain(flags).copied().collect();
            let out = run_in(dir.path(), &args);
            let how = how(command, flags);
            let want = format!(
                "srview: the input edits lib/calc2.py, not {shown}: {shown} is left as it is \
                 ({how})\n"
            );
            assert_eq!(
                (out.status.code(), text(&out.stdout), text(&out.stderr)),
                (Some(1), String::new(), want),
                "{args:?}"
            );
            assert_eq!(read(&file), CALC, "{args:?}");
        }
    }
    assert!(!dir.path().join("lib").exists());
}

/// Paths that name FILE itself are not refused: `./calc.py`, FILE's
/// absolute path, its name, folders and name ending FILE's absolute path
/// (`DIR/calc.py` where no such path is here), a path relative to the
/// current folder, a link to FILE; for an Aider block too.
#[test]
fn an_input_naming_file_in_another_form_edits_it() {
    let (dir, file) = project();
    let sub = dir.path().join("sub");
    std::fs::create_dir(&sub).expect("sub");
    support::files::write(&sub, "calc.py", CALC.as_bytes());
    #[cfg(unix)]
    std::os::unix::fs::symlink(&file, dir.path().join("link.py")).expect("link");
    let fixed = "def span(a, b):\n    return a + b\n";
    let folder = dir.path().file_name().expect("named").to_string_lossy();
    let ending = format!("{folder}/calc.py");
    let mut named = vec![
        ("calc.py", "./calc.py"),
        ("calc.py", "calc.py"),
        ("calc.py", file.as_str()),
        ("calc.py", ending.as_str()),
        // From another machine or a container: nothing there here.
        ("calc.py", "/elsewhere/src/calc.py"),
        ("sub/calc.py", "sub/calc.py"),
        ("sub/calc.py", "./sub/../sub/calc.py"),
    ];
    if cfg!(unix) {
        named.push(("calc.py", "link.py"));
    }
    for (target, path) in named {
        let edit =
            serde_json::json!({"file_path": path, "old_string": "b – a", "new_string": "a + b"});
        support::files::write(dir.path(), "e.json", edit.to_string().as_bytes());
        let out = run_in(dir.path(), &["apply", target, "e.json"]);
        assert_eq!(
            (out.status.code(), text(&out.stdout), text(&out.stderr)),
            (Some(0), fixed.to_string(), String::new()),
            "{path}"
        );
        // The agents' one-file tools run on FILE too, whatever form of its
        // path they name (an edit saved from a session names the agent's
        // machine's path).
        for (dialect, input) in [
            (
                "opencode-edit",
                serde_json::json!({"filePath": path, "oldString": "b – a", "newString": "a + b"}),
            ),
            (
                "pi-edit",
                serde_json::json!({"path": path, "edits": [{"oldText": "b – a", "newText": "a + b"}]}),
            ),
        ] {
            support::files::write(dir.path(), "a.json", input.to_string().as_bytes());
            let out = run_in(
                dir.path(),
                &["apply", target, "a.json", "--dialect", dialect],
            );
            assert_eq!(
                (out.status.code(), text(&out.stdout), text(&out.stderr)),
                (Some(0), fixed.to_string(), String::new()),
                "{dialect} {path}"
            );
        }
        let patch = PATCH
            .replace("calc.py", path)
            .replace("-    return b - a", "-    return b – a");
        support::files::write(dir.path(), "p.patch", patch.as_bytes());
        let out = run_in(dir.path(), &["check", target, "p.patch"]);
        assert_eq!(out.status.code(), Some(0), "{path}: {}", text(&out.stderr));
        // `fix` is not refused either: the patch is exact, printed as it is.
        let out = run_in(dir.path(), &["fix", target, "p.patch"]);
        assert_eq!(
            (out.status.code(), text(&out.stdout)),
            (Some(0), patch.clone()),
            "{path}: {}",
            text(&out.stderr)
        );
    }
    // pi reads `~/` as its home (its expandPath): a path of the agent's
    // machine too, not another file (a tester's find: it was refused).
    let tilde = serde_json::json!({"path": "~/no-such-project-here/calc.py", "edits": [{"oldText": "b – a", "newText": "a + b"}]});
    support::files::write(dir.path(), "t.json", tilde.to_string().as_bytes());
    let out = run_in(
        dir.path(),
        &["apply", "calc.py", "t.json", "--dialect", "pi-edit"],
    );
    assert_eq!(
        (out.status.code(), text(&out.stdout), text(&out.stderr)),
        (Some(0), fixed.to_string(), String::new())
    );
    let reply = "./calc.py\n```python\n<<<<<<< SEARCH\n    return b – a\n=======\n    return a + b\n>>>>>>> REPLACE\n```\n";
    support::files::write(dir.path(), "r.md", reply.as_bytes());
    let out = run_in(
        dir.path(),
        &["apply", "calc.py", "r.md", "--dialect", "aider-diff"],
    );
    assert_eq!(
        (out.status.code(), text(&out.stdout)),
        (Some(0), fixed.to_string()),
        "{}",
        text(&out.stderr)
    );
}

/// A path naming a file of FILE's name in another folder names another
/// file (tester finding 37/05): `deploy/staging/values.yaml`, relative or
/// absolute, is refused for FILE `deploy/prod/values.yaml` by `check`,
/// `fix`, `apply` and `--write`, as is an absolute path of another machine
/// and a bare name that is another file here; the paths that end FILE's
/// own (`prod/values.yaml`, `values.yaml` from `deploy/prod`) edit it.
#[test]
fn a_same_named_file_in_another_folder_is_another_file() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path();
    let values = "replicas: 3\nimage:\n  tag: \"1.4.0\"\n";
    for folder in ["deploy/prod", "deploy/staging"] {
        std::fs::create_dir_all(root.join(folder)).expect("folder");
        support::files::write(&root.join(folder), "values.yaml", values.as_bytes());
    }
    let real = root.canonicalize().expect("real path");
    let staging = format!("{}/deploy/staging/values.yaml", real.display());
    let patch = |path: &str| {
        format!(
            "*** Begin Patch\n*** Update File: {path}\n@@\n image:\n-  tag: \"1.4.0\"\n+  tag: \"1.5.0-rc1\"\n*** End Patch\n"
        )
    };
    let edit = |path: &str| {
        serde_json::json!({"file_path": path, "old_string": "  tag: \"1.4.0\"\n", "new_string": "  tag: \"1.5.0-rc1\"\n"})
            .to_string()
    };
    let file = "deploy/prod/values.yaml";
    // Each refused path, where srview runs, FILE there, and the path that
    // edits it here (the agent's machine's paths mapped to this one's).
    let refused = [
        (
            "deploy/staging/values.yaml",
            root.to_path_buf(),
            file,
            "deploy/staging/values.yaml",
        ),
        (staging.as_str(), root.to_path_buf(), file, staging.as_str()),
        // The agent's machine's path: its tail is staging's file here
        // (tester finding 37c/01), from the folder or one below it.
        (
            "/home/user/project/deploy/staging/values.yaml",
            root.to_path_buf(),
            file,
            "deploy/staging/values.yaml",
        ),
        (
            "/home/user/project/deploy/staging/values.yaml",
            root.join("deploy/prod"),
            "values.yaml",
            staging.as_str(),
        ),
        (
            "values.yaml",
            root.join("deploy/staging"),
            "../prod/values.yaml",
            "values.yaml",
        ),
    ];
    for (path, cwd, file, here) in refused {
        for input in [patch(path), edit(path)] {
            support::files::write(root, "input", input.as_bytes());
            let input = root.join("input");
            let input = input.to_str().expect("UTF-8");
            for command in [
                &["check", file, input][..],
                &["fix", file, input],
                &["apply", file, input],
                &["apply", file, input, "--write"],
            ] {
                // The command run, for the path here (a patch's too).
                let verb = match command[0] {
                    "check" => "checks",
                    "fix" => "corrects",
                    _ => "applies",
                };
                let rest = command[3..]
                    .iter()
                    .map(|w| format!(" {w}"))
                    .collect::<String>();
                let how = format!(
                    "`srview {} {here} {input}{rest}` {verb} it there",
                    command[0]
                );
                let want = format!(
                    "srview: the input edits {path}, not {file}: {file} is left as it is ({how})\n"
                );
                let out = run_in(&cwd, command);
                assert_eq!(
                    (out.status.code(), text(&out.stdout), text(&out.stderr)),
                    (Some(1), String::new(), want),
                    "{command:?} {path}"
                );
            }
        }
    }
    let prod = root.join("deploy/prod/values.yaml");
    assert_eq!(std::fs::read_to_string(&prod).expect("prod"), values);
    let own = format!("{}/deploy/prod/values.yaml", real.display());
    let edits = [
        ("prod/values.yaml", root.to_path_buf(), file),
        ("./deploy/prod/values.yaml", root.to_path_buf(), file),
        (own.as_str(), root.to_path_buf(), file),
        ("values.yaml", root.join("deploy/prod"), "values.yaml"),
        ("prod/values.yaml", root.join("deploy/prod"), "values.yaml"),
        // A path from another machine (nothing there here): its tail is
        // FILE here; a Windows one too (tester finding 37c/03).
        (
            "/elsewhere/deploy/prod/values.yaml",
            root.to_path_buf(),
            file,
        ),
        (
            "/home/user/project/deploy/prod/values.yaml",
            root.join("deploy/prod"),
            "values.yaml",
        ),
        (r"C:\repo\deploy\prod\values.yaml", root.to_path_buf(), file),
        // Nothing of it here but its name: taken by its name.
        ("/workspace/values.yaml", root.to_path_buf(), file),
    ];
    let new = values.replace("1.4.0", "1.5.0-rc1");
    for (path, cwd, file) in edits {
        for input in [patch(path), edit(path)] {
            support::files::write(root, "input", input.as_bytes());
            let input = root.join("input");
            let input = input.to_str().expect("UTF-8");
            let out = run_in(&cwd, &["apply", file, input]);
            assert_eq!(
                (out.status.code(), text(&out.stdout), text(&out.stderr)),
                (Some(0), new.clone(), String::new()),
                "{path}"
            );
        }
    }
}

#[test]
fn a_patch_of_several_files_names_them() {
    let (_dir, file) = project();
    let two = "*** Begin Patch\n*** Update File: a.py\n@@\n-x\n+y\n*** Update File: b.py\n@@\n-x\n+y\n*** End Patch\n";
    let out = srview(&["apply", &file, "-"], two);
    assert_eq!(out.status.code(), Some(2));
    assert_contains(&text(&out.stderr), "a.py, b.py");
}

#[test]
fn edits_of_each_agent_apply_as_blocks_with_stage_exact() {
    let (_dir, file) = project();
    let claude =
        serde_json::json!({"file_path": file, "old_string": "b – a", "new_string": "a + b"});
    let out = srview(&["apply", &file, "-", "--json"], &claude.to_string());
    assert_eq!(out.status.code(), Some(0));
    let report = support::runner::stdout_json(&out);
    assert_eq!(report["blocks"][0]["stage"], "exact");
    assert_eq!(report["blocks"][0]["original"]["startLine"], 2);
    assert_eq!(report["newContent"], "def span(a, b):\n    return a + b\n");

    let cline = r#"{"path": "calc.py", "old_text": "def span", "new_text": "def width"}"#;
    let out = srview(&["apply", &file, "-"], cline);
    assert_eq!(text(&out.stdout), "def width(a, b):\n    return b – a\n");

    // Cline's editor creates a file from a path and the new text alone.
    let created = std::path::Path::new(&file).with_file_name("new.py");
    let created = created.to_str().expect("UTF-8");
    let create = r#"{"path": "new.py", "new_text": "print(2)\n"}"#;
    let out = srview(&["apply", created, "-", "--new-file", "--write"], create);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(read(created), "print(2)\n");

    // Sent again, the Write is what the file holds: held back as the gate
    // doubts it ("looks applied already"), the file as it was.
    let write = r#"{"file_path": "calc.py", "content": "x = 1\n"}"#;
    for (state, code) in [("written", 0), ("held-back", 1)] {
        let out = srview(&["apply", &file, "-", "--write", "--json"], write);
        assert_eq!(out.status.code(), Some(code), "{}", text(&out.stderr));
        let report = support::runner::stdout_json(&out);
        assert_eq!(report["write"]["state"], state);
        assert_eq!(read(&file), "x = 1\n");
    }
    let report: serde_json::Value =
        serde_json::from_slice(&srview(&["apply", &file, "-", "--write", "--json"], write).stdout)
            .expect("JSON");
    assert_eq!(
        report["write"]["reasons"][0],
        format!(
            "{file} already holds exactly this content (1 line): the write changes nothing, so \
             it looks applied already"
        )
    );
}

/// An edit whose old text starts or ends inside a word of the file applies
/// (the agents replace text), but not as it reads: warned about by apply
/// in every mode and by check (exit 1); `--write` holds it back unless
/// `--force` (on a stream too), which still warns; a read-only file is
/// refused as such, not held back.
#[test]
fn an_edit_that_cuts_a_word_is_said_and_held_back() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().expect("temp dir");
    let file = support::files::write(dir.path(), "sub.py", b"max = 10\n");
    let file = file.to_str().expect("UTF-8");
    let edit = r#"{"file_path": "sub.py", "old_string": "x = 1", "new_string": "y = 2"}"#;
    let why = "the edit's old text `x = 1` starts inside the word `max` of line 1 (`max = \
               10`): it changes part of a word it does not show";
    let out = srview(&["check", file, "-"], edit);
    assert_eq!(out.status.code(), Some(1));
    assert_contains(&text(&out.stdout), &format!("    ! {why}\n"));
    let out = srview(&["check", file, "-", "--json"], edit);
    assert_eq!(out.status.code(), Some(1));
    let report = support::runner::stdout_json(&out);
    assert_eq!(
        report["doubts"],
        serde_json::json!([
            why,
            "the edit's old text `x = 1` ends inside the word `10` of line 1 (`max = 10`): it \
             changes part of a word it does not show"
        ])
    );
    let whole = r#"{"file_path": "sub.py", "old_string": "max = 10", "new_string": "max = 20"}"#;
    let out = srview(&["check", file, "-", "--json"], whole);
    assert_eq!(out.status.code(), Some(0));
    let report = support::runner::stdout_json(&out);
    assert!(report.get("doubts").is_none(), "{report}");
    let out = srview(&["fix", file, "-"], edit);
    assert_eq!(
        out.status.code(),
        Some(1),
        "fix vouches for no edit in doubt"
    );
    assert_contains(
        &text(&out.stderr),
        &format!("srview: the corrected edit is in doubt: {why}"),
    );
    assert_contains(&text(&out.stdout), r#""old_string":"x = 1""#);
    let out = srview(&["apply", file, "-"], edit);
    assert_eq!(out.status.code(), Some(0));
    assert_contains(&text(&out.stderr), &format!("srview: warning: {why}\n"));
    for stream in [&[][..], &["--stream"]] {
        let args = [&["apply", file, "-", "--write", "--json"][..], stream].concat();
        let out = srview(&args, edit);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        assert_contains(
            &text(&out.stderr),
            &format!("srview: {file} was not written: {why} (--force writes it)\n"),
        );
        let stdout = text(&out.stdout);
        let report: serde_json::Value =
            serde_json::from_str(stdout.lines().last().expect("a line")).expect("JSON");
        assert_eq!(report["ok"], true);
        assert_eq!(report["write"]["state"], "held-back", "{args:?}");
        assert_eq!(report["write"]["reasons"][0], why);
        assert_eq!(read(file), "max = 10\n");
    }
    let locked = std::fs::Permissions::from_mode(0o444);
    std::fs::set_permissions(file, locked).expect("chmod");
    let out = srview(&["apply", file, "-", "--write"], edit);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out.stderr),
        format!("srview: {file} was not written: it is read-only\n")
    );
    std::fs::set_permissions(file, std::fs::Permissions::from_mode(0o644)).expect("chmod");
    let out = srview(&["apply", file, "-", "--write", "--force"], edit);
    assert_eq!(out.status.code(), Some(0));
    assert_contains(&text(&out.stderr), &format!("srview: warning: {why}\n"));
    assert_eq!(read(file), "may = 20\n");
}

#[test]
fn a_failing_edit_says_the_agents_error() {
    let (_dir, file) = project();
    let cline = r#"{"path": "calc.py", "old_text": "nothing", "new_text": "x"}"#;
    let out = srview(&["apply", &file, "-", "--write"], cline);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stderr),
        format!(
            "srview: block #1 does not apply:\nNo replacement performed: text not found in {file}.\n"
        )
    );
    let claude = r#"{"file_path": "calc.py", "old_string": "a", "new_string": "x"}"#;
    let out = srview(&["apply", &file, "-", "--json"], claude);
    assert_eq!(out.status.code(), Some(1));
    let report = support::runner::stdout_json(&out);
    assert_eq!(report["ok"], false);
    assert!(
        report["error"].as_str().is_some_and(|e| e
            .starts_with("Found 3 matches of the string to replace, but replace_all is false.")),
        "{report}"
    );
    assert_eq!(read(&file), CALC);
}

#[test]
fn dialect_forces_the_reading() {
    let (_dir, file) = project();
    // Read as SEARCH/REPLACE, a patch holds no block: the file is unchanged.
    let out = srview(&["apply", &file, "-", "--dialect", "search-replace"], PATCH);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(text(&out.stdout), CALC);
    // Read as an edit, it is no JSON.
    let out = srview(&["apply", &file, "-", "--dialect", "edit-json"], PATCH);
    assert_eq!(out.status.code(), Some(2));
    assert_contains(&text(&out.stderr), "the JSON is no edit");
}

#[test]
fn check_shows_each_hunk_level_and_fix_makes_the_patch_exact() {
    let (dir, file) = project();
    let out = srview(&["check", &file, "-"], PATCH);
    assert_eq!(
        out.status.code(),
        Some(1),
        "a loose match is held back, as by `apply --write` (tester 43a-18)"
    );
    assert_eq!(
        text(&out.stdout),
        format!(
            "{file}: hunk #1 (patch lines 3-6): applies at lines 1-2, level unicode\n    line 2: file \"    return b – a\"\n             patch \"    return b - a\"\n"
        )
    );
    let out = srview(&["fix", &file, "-"], PATCH);
    assert_eq!(out.status.code(), Some(0));
    let fixed = text(&out.stdout);
    // The added line keeps the file's en dash where the model kept the
    // text (round 36: a correction carries the file's form).
    assert_eq!(
        fixed,
        PATCH
            .replace("-    return b - a", "-    return b – a")
            .replace("+    return abs(b - a)", "+    return abs(b – a)")
    );
    // The corrected patch matches exactly: no warning, a clean check.
    let patch_file = support::files::write(dir.path(), "fixed.patch", fixed.as_bytes());
    let out = srview(&["check", &file, patch_file.to_str().expect("UTF-8")], "");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
    assert_eq!(text(&out.stderr), "");
    assert!(text(&out.stdout).contains("level exact"));
}

#[test]
fn check_diagnoses_a_failing_edit_and_fix_corrects_it() {
    let (_dir, file) = project();
    let edit = r#"{"file_path": "calc.py", "old_string": "    return b - a", "new_string": "    return a"}"#;
    let out = srview(&["check", &file, "-", "--json"], edit);
    assert_eq!(out.status.code(), Some(1));
    let report = support::runner::stdout_json(&out);
    assert_eq!(report["block"]["state"], "failed");
    assert_eq!(report["diagnosis"]["reason"], "unicode-lookalike");
    assert_eq!(report["diagnosis"]["closest"]["startLine"], 2);
    let out = srview(&["fix", &file, "-"], edit);
    assert_eq!(out.status.code(), Some(0));
    let fixed = support::runner::stdout_json(&out);
    assert_eq!(fixed["old_string"], "    return b – a");
    // The corrected edit applies.
    let out = srview(&["apply", &file, "-"], &text(&out.stdout));
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(text(&out.stdout), "def span(a, b):\n    return a\n");
}

/// Runs `srview apply FILE --stream` with `parts` arriving one by one.
fn stream(file: &str, parts: &[&str]) -> (Vec<serde_json::Value>, Output) {
    streamed(
        support::runner::srview([
            "apply",
            file,
            "--stream",
            "--stream-interval",
            "0",
            "--stream-content",
            "--write",
            "--force",
        ]),
        parts,
    )
}

/// `srview` (an `apply --stream`) run with `parts` arriving one by one,
/// each answered by its own line before the next is sent: every JSON line
/// and the run.
fn streamed(srview: support::runner::Srview, parts: &[&str]) -> (Vec<serde_json::Value>, Output) {
    let mut child = srview.spawn_piped();
    let mut stdin = child.stdin.take().expect("piped");
    let mut stdout = std::io::BufReader::new(child.stdout.take().expect("piped"));
    let mut lines = Vec::new();
    for part in parts {
        stdin.write_all(part.as_bytes()).expect("written");
        stdin.flush().expect("flushed");
        let mut line = String::new();
        std::io::BufRead::read_line(&mut stdout, &mut line).expect("a line per part");
        lines.push(line);
    }
    drop(stdin);
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut stdout, &mut rest).expect("the final line");
    lines.extend(rest.lines().map(str::to_string));
    let out = child.wait_with_output().expect("srview finishes");
    let lines = lines
        .iter()
        .map(|l| serde_json::from_str(l).expect("every line is JSON"))
        .collect();
    (lines, out)
}

/// An edit's JSON cut off mid-string still gets a last line, `"final":
/// true` with the reason, as the documentation promises, and exit 2; FILE
/// is not written.
#[test]
fn a_streamed_edit_cut_off_ends_with_a_final_failed_line() {
    let (_dir, file) = project();
    let cut = r#"{"file_path": "calc.py", "old_string": "b – a", "new_string": "a +"#;
    let out = srview(&["apply", &file, "-", "--stream", "--write"], cut);
    assert_eq!(out.status.code(), Some(2));
    let stdout = text(&out.stdout);
    let last: serde_json::Value =
        serde_json::from_str(stdout.lines().last().expect("a last line")).expect("JSON");
    assert_eq!(last["final"], true);
    assert_eq!(last["ok"], false);
    assert_eq!(last["dialect"], "edit-json");
    assert_eq!(last["write"]["state"], "not-applied");
    let error = last["error"].as_str().expect("an error");
    assert_starts_with(error, "invalid Edit tool input: EOF");
    assert_eq!(text(&out.stderr), format!("srview: {error}\n"));
    assert_eq!(read(&file), CALC);
}

#[test]
fn a_streamed_patch_shows_its_hunk_as_it_grows_and_ends_as_the_one_shot_apply() {
    let (_dir, file) = project();
    let (lines, out) = stream(
        &file,
        &[
            "*** Begin Patch\n*** Update File: calc.py\n@@\n",
            " def span(a, b):\n-    return b - a\n",
            "+    return abs(b - a)\n",
            "*** End Patch\n",
        ],
    );
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(lines.len(), 5, "{lines:?}");
    assert!(lines.iter().all(|l| l["dialect"] == "apply-patch"));
    let streaming: Vec<_> = lines
        .iter()
        .filter(|l| l["blocks"][0]["state"] == "streaming")
        .collect();
    assert!(!streaming.is_empty(), "the hunk is shown while it streams");
    let last = lines.last().expect("a final line");
    assert_eq!(last["final"], true);
    assert_eq!(last["blocks"][0]["level"], "unicode");
    // `--write` is said on the last line only.
    assert_eq!(last["write"]["state"], "written");
    assert!(
        lines[..lines.len() - 1]
            .iter()
            .all(|l| l.get("write").is_none())
    );
    assert_eq!(
        last["newContent"],
        "def span(a, b):\n    return abs(b - a)\n"
    );
    assert_eq!(text(&out.stderr), WARNING);
    assert_eq!(read(&file), "def span(a, b):\n    return abs(b - a)\n");
}

#[test]
fn a_streamed_edit_is_one_block_from_search_streaming_to_applied() {
    let (_dir, file) = project();
    let (lines, out) = stream(
        &file,
        &[
            r#"{"file_path": "calc.py", "old_str"#,
            r#"ing": "b – a", "new_str"#,
            r#"ing": "a + b"}"#,
        ],
    );
    assert_eq!(out.status.code(), Some(0));
    let states: Vec<&str> = lines
        .iter()
        .filter_map(|l| l["blocks"][0]["state"].as_str())
        .collect();
    assert_eq!(states.last(), Some(&"applied"));
    let last = lines.last().expect("a final line");
    assert_eq!(last["final"], true);
    assert_eq!(last["blocks"][0]["stage"], "exact");
    assert_eq!(read(&file), "def span(a, b):\n    return a + b\n");
}

#[test]
fn the_demo_patch_matches_its_first_hunk_loosely_as_the_readme_says() {
    let demo = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/demo");
    let file = demo.join("calc.py");
    let patch = demo.join("calc.patch");
    let out = srview(
        &[
            "check",
            file.to_str().expect("UTF-8"),
            patch.to_str().expect("UTF-8"),
        ],
        "",
    );
    assert_eq!(
        out.status.code(),
        Some(1),
        "held back, as by `apply --write` (tester 43a-18)"
    );
    let report = text(&out.stdout);
    assert_contains(
        &report,
        "hunk #1 (patch lines 3-6): applies at lines 5-6, level unicode",
    );
    assert_contains(
        &report,
        "hunk #2 (patch lines 7-9): applies at lines 10-10, level exact",
    );
    assert!(text(&out.stderr).starts_with("srview: warning: calc.py hunk 1"));
}

#[test]
fn a_failing_hunk_is_diagnosed_and_fix_rewrites_it_onto_the_file() {
    let (_dir, file) = project_with(
        "f.py",
        "def span(a, b):\n    result = b - a\n    return result\n",
    );
    let patch = "*** Begin Patch\n*** Update File: f.py\n@@\n def span(a, b):\n-    reslt = b - a\n+    result = abs(b - a)\n     return result\n*** End Patch\n";
    let out = srview(&["check", &file, "-", "--json"], patch);
    assert_eq!(out.status.code(), Some(1));
    let report = support::runner::stdout_json(&out);
    assert_eq!(report["blocks"][0]["state"], "failed");
    assert_eq!(report["diagnoses"][0]["closest"]["startLine"], 1);
    assert_eq!(report["diagnoses"][0]["closest"]["endLine"], 3);
    let out = srview(&["fix", &file, "-"], patch);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let fixed = text(&out.stdout);
    assert_eq!(fixed, patch.replace("-    reslt", "-    result"));
    let out = srview(&["apply", &file, "-"], &fixed);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        text(&out.stdout),
        "def span(a, b):\n    result = abs(b - a)\n    return result\n"
    );
    assert_eq!(text(&out.stderr), "", "the corrected patch matches exactly");
}

/// `check` and `apply --write` agree on the exit status: a hunk matched
/// only at the unicode level holds both back (the reference writes it over
/// the file's lines that differ; tester 43a-18), and a failing patch's
/// error is printed once.
#[test]
fn check_agrees_with_apply_write_and_says_a_failure_once() {
    let (dir, file) = project();
    let check = srview(&["check", &file, "-"], PATCH);
    let copy = support::files::write(dir.path(), "copy.py", CALC.as_bytes());
    let copy = copy.to_str().expect("UTF-8").to_string();
    let write = srview(
        &["apply", &copy, "-", "--write"],
        &PATCH.replace("calc.py", "copy.py"),
    );
    assert_eq!(check.status.code(), Some(1), "{}", text(&check.stdout));
    assert_eq!(write.status.code(), Some(1));
    assert_eq!(std::fs::read_to_string(&copy).expect("read"), CALC);
    assert_contains(&text(&check.stdout), "level unicode");
    let forced = srview(
        &["apply", &copy, "-", "--write", "--force"],
        &PATCH.replace("calc.py", "copy.py"),
    );
    assert_eq!(forced.status.code(), Some(0));
    // Applied already: it no longer matches, and the error is said once.
    let failing = srview(&["check", &copy, "-"], &PATCH.replace("calc.py", "copy.py"));
    assert_eq!(failing.status.code(), Some(1));
    let out = text(&failing.stdout);
    assert_eq!(
        out.matches("Failed to find expected lines").count(),
        1,
        "{out}"
    );
}

/// An edit JSON re-sent after it applied (its new text holds its old text
/// and stands in the file already): `check` says so and exits 1, `apply
/// --write` holds it back.
#[test]
fn an_edit_json_sent_again_is_applied_already() {
    let (_dir, file) = project_with("aa.py", "import os\nimport sys\n\nprint(sys.argv)\n");
    let edit = r#"{"file_path": "aa.py", "old_string": "import os", "new_string": "import os\nimport sys"}"#;
    let out = srview(&["check", &file, "-"], edit);
    assert_eq!(out.status.code(), Some(1));
    assert_contains(
        &text(&out.stdout),
        "its new text is already there (lines 1-2): this looks applied already",
    );
    let out = srview(&["apply", &file, "-", "--write"], edit);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(read(&file), "import os\nimport sys\n\nprint(sys.argv)\n");
}

/// A patch's similarities in `check --json` have three decimals, cut, as
/// every dialect's.
#[test]
fn patch_similarities_have_three_decimals() {
    let (_dir, file) = project_with(
        "cls.py",
        "class Foo:\n    def __init__(self):\n        self.x = 1\n\n    def bar(self):\n        return self.x\n",
    );
    let patch = "*** Begin Patch\n*** Update File: cls.py\n@@\n def bar(self):\n-    return self.x\n+    return self.x + 1\n*** End Patch\n";
    let out = srview(&["check", &file, "-", "--json"], patch);
    let report = support::runner::stdout_json(&out);
    let sim = report["diagnoses"][0]["closest"]["similarity"]
        .as_f64()
        .expect("a similarity");
    assert_eq!(sim, 0.888, "{report}");
}

/// The records of a corpus in tests/fixtures/matchers/.
fn corpus(name: &str) -> Vec<serde_json::Value> {
    support::corpus::matcher_records(name)
}

/// The corpora were made with the agent's project root here.
const ORACLE_ROOT: &str = "/home/user/project";

/// `srview apply FILE INPUT --dialect NAME --json`, the contract scripts
/// use, on the first records of each kind of every one-file corpus: run in
/// a folder holding the record's file (the input's absolute paths moved
/// there), the agent's verdict, texts, stage and the file after are the
/// corpus's, and the exit status is 0 exactly when the agent succeeds.
#[test]
fn apply_json_on_one_tool_call_is_the_agents_own_result() {
    let corpora = [
        ("opencode-edit", "opencode-edit-1.18.33"),
        ("gemini-replace", "gemini-replace-0.61.0"),
        ("qwen-edit", "qwen-edit-0.24.4"),
        ("pi-edit", "pi-edit-0.73.1"),
        ("aider-diff", "aider-diff-0.86.2"),
    ];
    let mut checked = 0;
    for (dialect, name) in corpora {
        let mut kinds = std::collections::BTreeSet::new();
        for record in corpus(name) {
            let kind = record["kind"].as_str().unwrap_or_default().to_string();
            let path = record["path"].as_str().unwrap_or_default();
            let plain = record["file"].is_string() || record["file"].is_null();
            // Paths under the home folder and other chat files need more
            // than one folder; the in-process corpus tests cover them.
            let simple = plain
                && !kind.contains("path")
                && !record["expect"]["other_files"].is_object()
                && !record.to_string().contains("directory");
            if !simple || !kinds.insert(kind.clone()) {
                continue;
            }
            let dir = tempfile::tempdir().expect("temp dir");
            let root = dir.path().canonicalize().expect("canonical");
            let root_text = root.to_str().expect("UTF-8");
            let file = root.join(path);
            let before = record["file"].as_str();
            if let Some(content) = before {
                std::fs::create_dir_all(file.parent().expect("parent")).expect("mkdir");
                std::fs::write(&file, content).expect("write");
            }
            let input = match record["input"].get("reply") {
                Some(reply) if dialect == "aider-diff" => {
                    reply.as_str().expect("reply").to_string()
                }
                _ => record["input"].to_string().replace(ORACLE_ROOT, root_text),
            };
            let out = run_in_with(
                &root,
                &["apply", path, "-", "--dialect", dialect, "--json"],
                &input,
            );
            let id = format!("{dialect} {} ({kind})", record["id"]);
            let report: serde_json::Value = serde_json::from_slice(&out.stdout)
                .unwrap_or_else(|e| panic!("{id}: {e}: {}", text(&out.stderr)));
            let want = &record["expect"];
            let here =
                |v: &serde_json::Value| v.as_str().map(|s| s.replace(ORACLE_ROOT, root_text));
            assert_eq!(report["ok"], want["ok"], "{id}");
            assert_eq!(here(&report["error"]), here(&want["error"]), "{id}");
            assert_eq!(here(&report["message"]), here(&want["message"]), "{id}");
            assert_eq!(report["stage"], want["stage"], "{id}");
            let after = |v: &serde_json::Value| v.as_str().or(before).map(str::to_string);
            assert_eq!(
                after(&report["newContent"]),
                after(&want["content"]),
                "{id}"
            );
            let ok = want["ok"] == true;
            assert_eq!(out.status.code(), Some(if ok { 0 } else { 1 }), "{id}");
            // Without --write nothing is written.
            assert_eq!(
                std::fs::read_to_string(&file).ok().as_deref(),
                before,
                "{id}"
            );
            checked += 1;
        }
    }
    assert!(checked > 60, "only {checked} records checked");
}

/// `--write` writes what the agent writes; an edit a loose stage placed is
/// held back (exit 1, said why) until `--force`.
#[test]
fn apply_write_holds_back_a_loose_stage_until_forced() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path();
    let before = "def f():\n    if x:\n        return 1\n";
    support::files::write(root, "a.py", before.as_bytes());
    // OpenCode's LineTrimmedReplacer places it, writing the model's
    // indentation: the `if` leaves the function.
    let input = r#"{"filePath":"a.py","oldString":"if x:\n    return 1","newString":"if x:\n    return 2"}"#;
    let run = |extra: &[&str]| {
        let mut args = vec!["apply", "a.py", "-", "--write"];
        args.extend_from_slice(extra);
        support::runner::srview(args)
            .cwd(root)
            .stdin(input.as_bytes())
            .output()
    };
    let held = run(&[]);
    assert_eq!(held.status.code(), Some(1));
    assert_contains(
        &text(&held.stderr),
        "edit 1 was placed at lines 2-3 by LineTrimmedReplacer, a loose stage of OpenCode 1.18.33's edit tool",
    );
    assert_eq!(
        std::fs::read_to_string(root.join("a.py")).expect("read"),
        before
    );
    let forced = run(&["--force"]);
    assert_eq!(forced.status.code(), Some(0), "{}", text(&forced.stderr));
    assert_eq!(
        std::fs::read_to_string(root.join("a.py")).expect("read"),
        "def f():\nif x:\n    return 2\n"
    );
}

/// `check` names each edit's stage and exits 1 for a loose one, with the
/// reading the input's keys decided said on stderr.
#[test]
fn check_names_the_stage_and_the_detected_dialect() {
    let dir = support::files::folder(&[("a.py", "def f():\n    return 1\n")]);
    let root = dir.path();
    let exact = r#"{"filePath":"a.py","oldString":"return 1","newString":"return 2"}"#;
    let out = run_in_with(root, &["check", "a.py", "-"], exact);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        text(&out.stdout),
        "edit 1: SimpleReplacer at line 2 (exact)\nthe agent says: Edit applied successfully.\n"
    );
    assert_eq!(
        text(&out.stderr),
        "srview: note: read as --dialect opencode-edit (OpenCode 1.18.33's edit tool), from the input's keys\n"
    );
    let missing = r#"{"filePath":"a.py","oldString":"return 7","newString":"return 2"}"#;
    let out = run_in_with(
        root,
        &["check", "a.py", "-", "--dialect", "opencode-edit"],
        missing,
    );
    assert_eq!(out.status.code(), Some(1));
    let said = text(&out.stdout);
    assert_starts_with(
        &said,
        "edit 1: not placed (none)\nerror: the agent fails:\nCould not find oldString in the file. It must match exactly, including whitespace, indentation, and line endings.\nedit 1: oldString does not occur in the file; closest: line 2",
    );
    // `return 7` for `return 1`: what it should become cannot be told.
    assert_ends_with(
        &said,
        "no corrected edit: srview cannot stand behind a correction of this edit\n",
    );
}

/// An Aider reply given as a transcript runs as Aider runs it: its own
/// matcher over the folder, its failure text on stdout (exit 1); `--write`
/// writes nothing of a failing reply, `--write --force` the blocks Aider
/// would have written.
#[test]
fn an_aider_reply_transcript_is_run_by_aiders_own_matcher() {
    let dir = support::files::folder(&[("a.py", "def f():\n    return 1\n"), ("b.py", "x = 1\n")]);
    let root = dir.path();
    let reply = "Here are the changes.\n\na.py\n```python\n<<<<<<< SEARCH\ndef f():\n    return 1\n=======\ndef f():\n    return 2\n>>>>>>> REPLACE\n```\n\nb.py\n```python\n<<<<<<< SEARCH\ny = 1\n=======\ny = 2\n>>>>>>> REPLACE\n```\n";
    let msg = support::files::write(root, "reply.md", reply.as_bytes());
    let run = |extra: &[&str]| {
        let mut args = vec![
            "apply",
            "--transcript",
            support::files::p(&msg),
            "--cwd",
            ".",
        ];
        args.extend_from_slice(extra);
        support::runner::srview(args).cwd(root).output()
    };
    let read = |name: &str| std::fs::read_to_string(root.join(name)).expect("read");
    let dry = run(&[]);
    assert_eq!(dry.status.code(), Some(1));
    let said = text(&dry.stdout);
    assert_starts_with(
        &said,
        "# 1 SEARCH/REPLACE block failed to match!\n\n## SearchReplaceNoExactMatch: This SEARCH block failed to exactly match lines in b.py\n",
    );
    assert_contains(
        &said,
        "# The other 1 SEARCH/REPLACE block were applied successfully.\n",
    );
    let held = run(&["--write"]);
    assert_eq!(held.status.code(), Some(1));
    assert_eq!(
        text(&held.stderr),
        "srview: nothing written: the agent fails, after writing a.py (--force writes what it would)\n"
    );
    assert_eq!(read("a.py"), "def f():\n    return 1\n");
    let forced = run(&["--write", "--force"]);
    assert_eq!(forced.status.code(), Some(1), "Aider still fails");
    assert_eq!(read("a.py"), "def f():\n    return 2\n");
    assert_eq!(read("b.py"), "x = 1\n");
}

/// Tester finding 37/01: an Aider block with an empty SEARCH and an Aider
/// udiff hunk of only `+` lines name no place; on a file that holds text
/// Aider appends them after its last line (an `import` put after
/// `main()`). `check` says so and exits 1, `apply --transcript --write`
/// holds the write back and `--force` writes it; sent again, its text
/// already ends the file, and that is said as for any block applied
/// already (`check` exits 1, `--write` holds back: no second copy).
#[test]
fn an_aider_append_to_a_file_with_text_is_in_doubt_and_held_back() {
    let original = "import os\n\ndef main():\n    print(os.getcwd())\n";
    let block = "e.py\n```python\n<<<<<<< SEARCH\n=======\nimport sys\n>>>>>>> REPLACE\n```\n";
    let hunk = "e.py\n```diff\n--- e.py\n+++ e.py\n@@ -1,0 +1,1 @@\n+import sys\n```\n";
    let note = "srview: note: read as --dialect aider-udiff (Aider 0.86.2's udiff edit format), \
                from its ```diff fence of unified-diff hunks\n";
    let again = "its new text is already there (line 5, where the file ends and the agent \
                 appends it): this looks applied already, and applied again it repeats what it \
                 adds";
    for (reply, dialect, stage, noted, unplaced) in [
        (
            block,
            "aider-diff",
            "empty_search_append",
            "",
            "Aider appends this block at the end of the file (after line 4): its SEARCH is \
             empty, so the block names no place: to put its lines elsewhere, send the lines \
             they go after as the SEARCH, and in the REPLACE those lines followed by the new \
             ones",
        ),
        (
            hunk,
            "aider-udiff",
            "append",
            note,
            "Aider appends this hunk at the end of the file (after line 4): the hunk has only \
             added lines, so it names no place, whatever its @@ line says: to put its lines \
             elsewhere, send the hunk with the lines they go after as context",
        ),
    ] {
        let dir = support::files::folder(&[("e.py", original), ("reply.md", reply)]);
        let root = dir.path();
        let read = || std::fs::read_to_string(root.join("e.py")).expect("e.py");
        let check = || run_in(root, &["check", "e.py", "reply.md", "--dialect", dialect]);
        let write = |force: bool| {
            let mut args = vec!["apply", "--transcript", "reply.md", "--cwd", ".", "--write"];
            if force {
                args.push("--force");
            }
            run_in(root, &args)
        };
        // `check` says `doubt` (exit 1) and `--write` holds the file back.
        let doubted_and_held = |doubt: &str, file: &str| {
            let out = check();
            let checked = format!(
                "edit 1: {stage} (exact)\nwarning: edit 1: {doubt}\n\
                 the agent says: Applied edit to e.py\n"
            );
            assert_eq!(
                (out.status.code(), text(&out.stdout), text(&out.stderr)),
                (Some(1), checked, String::new()),
                "{dialect}"
            );
            let out = write(false);
            assert_eq!(
                (out.status.code(), text(&out.stdout), text(&out.stderr)),
                (
                    Some(1),
                    String::new(),
                    format!(
                        "{noted}srview: nothing written: edit 1: {doubt} (--force writes it)\n"
                    )
                ),
                "{dialect}"
            );
            assert_eq!(read(), file, "{dialect}: held back");
        };
        doubted_and_held(unplaced, original);
        let out = write(true);
        assert_eq!(
            (out.status.code(), text(&out.stdout)),
            (Some(0), "Applied edit to e.py\n".to_string()),
            "{dialect}: {}",
            text(&out.stderr)
        );
        let appended = format!("{original}import sys\n");
        assert_eq!(read(), appended, "{dialect}: forced");
        // Sent again: its text already ends the file; not appended twice.
        doubted_and_held(again, &appended);
    }
}

/// An empty SEARCH on an empty file, or on a file that does not exist, is
/// Aider's way to create a file: no doubt, `--write` writes both.
#[test]
fn an_aider_empty_search_creating_a_file_is_no_doubt() {
    let reply = "empty.py\n```python\n<<<<<<< SEARCH\n=======\nimport sys\n>>>>>>> REPLACE\n```\n\n\
                 new.py\n```python\n<<<<<<< SEARCH\n=======\nx = 1\n>>>>>>> REPLACE\n```\n";
    let dir = support::files::folder(&[("empty.py", ""), ("reply.md", reply)]);
    let root = dir.path();
    let out = run_in(
        root,
        &["check", "empty.py", "reply.md", "--dialect", "aider-diff"],
    );
    assert_eq!(
        (out.status.code(), text(&out.stdout), text(&out.stderr)),
        (
            Some(0),
            "edit 1: empty_search_append (exact)\nedit 2: empty_search_new_file (exact)\n\
             the agent says: Applied edit to empty.py\nApplied edit to new.py\n"
                .to_string(),
            String::new()
        )
    );
    let out = run_in(
        root,
        &["apply", "--transcript", "reply.md", "--cwd", ".", "--write"],
    );
    assert_eq!(
        (out.status.code(), text(&out.stdout), text(&out.stderr)),
        (
            Some(0),
            "Applied edit to empty.py\nApplied edit to new.py\n".to_string(),
            String::new()
        )
    );
    let read = |name: &str| std::fs::read_to_string(root.join(name)).expect("written");
    assert_eq!(
        (read("empty.py"), read("new.py")),
        ("import sys\n".to_string(), "x = 1\n".to_string())
    );
}

/// pi's fuzzy stage writes the whole file normalized: the lines it changes
/// outside the edit are named (JSON `rewrittenOutside`, a warning), and
/// `check` exits 1.
#[test]
fn pis_whole_file_rewrite_is_named() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path();
    // Line 1 ends in two spaces; the edit's old text has a trailing space
    // line 2 lacks, so only the fuzzy stage finds it.
    support::files::write(root, "p.py", b"a = 1  \nb = 1\nc = 2\n");
    let input = r#"{"path":"p.py","edits":[{"oldText":"b = 1 ","newText":"b = 3"}]}"#;
    let out = run_in_with(root, &["apply", "p.py", "-", "--json"], input);
    assert_eq!(out.status.code(), Some(0));
    let report = support::runner::stdout_json(&out);
    assert_eq!(report["stage"], "fuzzy");
    assert_eq!(report["newContent"], "a = 1\nb = 3\nc = 2\n");
    assert_eq!(report["rewrittenOutside"], serde_json::json!([[1, 1]]));
    assert_contains(
        &text(&out.stderr),
        "srview: warning: pi 0.73.1's edit tool also rewrites line 1, which no edit covers: it writes the whole file normalized\n",
    );
    let check = run_in_with(root, &["check", "p.py", "-", "--dialect", "pi-edit"], input);
    assert_eq!(check.status.code(), Some(1));
    assert_contains(&text(&check.stdout), "edit 1: fuzzy at line 2 (loose)\n");
}

/// `check` on a loose or failed string edit explains it as srview explains
/// an exact-string edit and prints the corrected tool input, checked with
/// the agent's own matcher; where srview cannot stand behind one (a
/// misindented line), it says so and offers none.
#[test]
fn check_corrects_a_loose_edit_in_the_agents_own_schema() {
    let dir = support::files::folder(&[("c.py", "def f():\n    total = 0\n    return total\n")]);
    let root = dir.path();
    // A misremembered middle line: OpenCode's BlockAnchorReplacer would
    // replace it silently.
    let anchored = r#"{"filePath":"c.py","oldString":"def f():\n    totl = 0\n    return total","newString":"def f():\n    total = 1\n    return total"}"#;
    let out = run_in_with(root, &["check", "c.py", "-"], anchored);
    assert_eq!(out.status.code(), Some(1));
    let said = text(&out.stdout);
    assert_contains(&said, "edit 1: BlockAnchorReplacer at lines 1-3 (loose)\n");
    // The line it replaced that the model remembered otherwise.
    assert_contains(
        &said,
        "  edit 1: line 2: the file has \"    total = 0\" where the model wrote \"    totl = 0\"\n",
    );
    assert_contains(
        &said,
        "edit 1: oldString does not occur in the file; closest: lines 1-3",
    );
    assert_contains(
        &said,
        "corrected edit (the tool's input, placed exactly by OpenCode 1.18.33's edit tool):\n{\"filePath\":\"c.py\",\"newString\":\"def f():\\n    total = 1\\n    return total\",\"oldString\":\"def f():\\n    total = 0\\n    return total\"}\n",
    );
    let misindented = r#"{"filePath":"c.py","oldString":"    total = 0\n  return total","newString":"    total = 2\n  return total"}"#;
    let out = run_in_with(root, &["check", "c.py", "-", "--json"], misindented);
    assert_eq!(out.status.code(), Some(1));
    let report = support::runner::stdout_json(&out);
    assert_eq!(report["blocks"][0]["stage"], "LineTrimmedReplacer");
    assert_eq!(report["correctedInput"], serde_json::Value::Null);
    // The gate's reason (the re-indentation's, which answers the
    // diagnosis' "line 2 of the text is indented unlike file line 3"):
    // check, fix and the gate give the same one.
    assert_eq!(
        report["explained"][0]["message"],
        "oldString does not occur in the file; closest: lines 2-3 (similarity 0.96): \
         indentation or spacing differs from the file."
    );
    assert_eq!(
        report["correctionWithheld"],
        "re-indented as the file is, the new line `total = 2` would sit at another depth \
         against the old lines than the model wrote it"
    );
}

/// `fix` prints the corrected tool input (exit 0), checked with the
/// agent's own matcher; a patch dialect is not a string edit (exit 2).
#[test]
fn fix_prints_the_corrected_tool_input() {
    let dir = support::files::folder(&[("c.py", "def f():\n    total = 0\n    return total\n")]);
    let root = dir.path();
    let input = r#"{"file_path":"c.py","instruction":"set total","old_string":"def f():\n    totl = 0\n    return total","new_string":"def f():\n    total = 1\n    return total"}"#;
    let out = run_in_with(
        root,
        &["fix", "c.py", "-", "--dialect", "gemini-replace"],
        input,
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let fixed = support::runner::stdout_json(&out);
    assert_eq!(
        fixed["old_string"],
        "def f():\n    total = 0\n    return total"
    );
    assert_eq!(
        fixed["instruction"], "set total",
        "the rest of the input kept"
    );
    // No correction srview stands behind (a misindented line): nothing on
    // stdout, exit 1.
    let misindented = r#"{"filePath":"c.py","oldString":"    total = 0\n  return total","newString":"    total = 2\n  return total"}"#;
    let out = run_in_with(
        root,
        &["fix", "c.py", "-", "--dialect", "opencode-edit"],
        misindented,
    );
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(text(&out.stdout), "");
    let patch = run_in_with(
        root,
        &["fix", "c.py", "-", "--dialect", "opencode-apply-patch"],
        "*** Begin Patch\n*** End Patch\n",
    );
    assert_eq!(patch.status.code(), Some(2));
    // FILE not edited by the input: said, nothing printed (a string edit
    // refused as an edit's JSON naming another file is, a patch).
    support::files::write(root, "other.py", b"x = 1\n");
    for (dialect, input, code, said) in [
        (
            "gemini-replace",
            input,
            1,
            // `fix`'s own command for c.py, the input again on stdin.
            "srview: the input edits c.py, not other.py: other.py is left as it is \
             (`srview fix c.py - --dialect gemini-replace` corrects it there, given the same \
             input on stdin)\n",
        ),
        (
            "opencode-apply-patch",
            r#"{"patchText":"*** Begin Patch\n*** Update File: c.py\n@@\n-    total = 0\n+    total = 1\n*** End Patch"}"#,
            2,
            "srview: other.py: the input does not edit this file, or it cannot be read\n",
        ),
    ] {
        let out = run_in_with(root, &["fix", "other.py", "-", "--dialect", dialect], input);
        assert_eq!(text(&out.stdout), "", "{dialect}");
        assert_eq!(
            (out.status.code(), text(&out.stderr)),
            (Some(code), said.to_string()),
            "{dialect}"
        );
    }
}

/// The arguments of `srview apply --transcript - --cwd . --dialect DIALECT
/// --write`: the transcript on stdin run by `dialect` and written.
fn write_transcript(dialect: &str) -> [&str; 8] {
    [
        "apply",
        "--transcript",
        "-",
        "--cwd",
        ".",
        "--dialect",
        dialect,
        "--write",
    ]
}

/// `srview apply --transcript PATCH --cwd DIR --dialect NAME --write`, the
/// whole-patch contract, on the first records of each kind of the two patch
/// corpora: stdout is what the model reads, the exit status 0 exactly when
/// the agent succeeds, and the folder ends as the agent leaves it (nothing
/// written when it fails).
#[test]
fn a_whole_patch_runs_as_the_agent_runs_it() {
    let mut checked = 0;
    for (dialect, name) in [
        ("opencode-apply-patch", "opencode-apply-patch-1.18.33"),
        ("cline-apply-patch", "cline-apply-patch-3.0.65"),
    ] {
        let mut kinds = std::collections::BTreeSet::new();
        for record in corpus(name) {
            let kind = record["kind"].as_str().unwrap_or_default().to_string();
            let want = &record["expect"];
            // Hangs, file-system faults and paths outside the folder need
            // more than a folder of plain files: the in-process corpus
            // tests cover them.
            let plain = want["hang"] != true
                && !kind.contains("fs")
                && !kind.contains("path")
                && !record.to_string().contains("..");
            if !plain || !kinds.insert(kind.clone()) {
                continue;
            }
            let dir = tempfile::tempdir().expect("temp dir");
            let root = dir.path().canonicalize().expect("canonical");
            let root_text = root.to_str().expect("UTF-8").to_string();
            let files = record["files"].as_object().cloned().unwrap_or_default();
            for (path, content) in &files {
                let file = root.join(path);
                std::fs::create_dir_all(file.parent().expect("parent")).expect("mkdir");
                std::fs::write(&file, content.as_str().unwrap_or_default()).expect("write");
            }
            let input = record["input"].to_string().replace(ORACLE_ROOT, &root_text);
            let out = support::runner::srview(write_transcript(dialect))
                .cwd(&root)
                .stdin(input.as_bytes())
                .output();
            let id = format!("{dialect} {} ({kind})", record["id"]);
            let ok = want["ok"] == true;
            let said = [&want["model_text"], &want["error"], &want["message"]]
                .into_iter()
                .find_map(|v| v.as_str().filter(|s| !s.is_empty()))
                .unwrap_or_default()
                .replace(ORACLE_ROOT, &root_text);
            let said = if said.ends_with('\n') {
                said
            } else {
                format!("{said}\n")
            };
            // A loose stage, a hunk whose lines stand at several places
            // (the agent takes the first), or lines OpenCode's parser drops
            // (a line without a prefix between lines it reads), a result
            // srview cannot stand behind (the synthetic corpus's patches
            // drop a class's closing `}` with an `*** End of File` hunk):
            // held back.
            let loose = text(&out.stderr).contains("a loose stage")
                || text(&out.stderr).contains("the agent takes the first place")
                || text(&out.stderr).contains("OpenCode drops patch line")
                || text(&out.stderr).contains("nothing written: the call leaves ")
                // Any other patch doubt (an Add over a file, a result's
                // layout broken) holds the write back too.
                || text(&out.stderr).contains("(--force writes it)");
            // The agent's summary is not printed over a write held back.
            let said = if ok && loose { String::new() } else { said };
            assert_eq!(text(&out.stdout), said, "{id}: {}", text(&out.stderr));
            let code = if ok && !loose { 0 } else { 1 };
            assert_eq!(out.status.code(), Some(code), "{id}: {}", text(&out.stderr));
            // `expect.files` is the whole folder as the agent leaves it.
            let expected = want["files"].as_object().cloned().unwrap_or_default();
            let meant = if ok && !loose { &expected } else { &files };
            for path in files.keys().chain(expected.keys()) {
                let now = std::fs::read_to_string(root.join(path)).ok();
                let meant = meant.get(path).and_then(|v| v.as_str());
                assert_eq!(now.as_deref(), meant, "{id}: {path}");
            }
            checked += 1;
        }
    }
    assert!(checked > 60, "only {checked} records checked");
}

/// What `--write` never does for an agent matcher without being asked: a
/// file outside the folder (an Aider reply naming `../x.py`, a patch adding
/// `../out.py`: exit 2, nothing written, no agent summary on stdout), a
/// move onto itself that the agents end by deleting the file (held back,
/// exit 1), another file than FILE for `apply FILE INPUT --write`.
#[test]
fn write_refuses_outside_files_self_moves_and_other_files() {
    let dir = tempfile::tempdir().expect("temp dir");
    let ws = dir.path().join("ws");
    std::fs::create_dir(&ws).expect("mkdir");
    support::files::write(&ws, "calc.py", b"def add(a, b):\n    return a + b\n");
    let run = |args: &[&str], stdin: &str| {
        support::runner::srview(args)
            .cwd(&ws)
            .stdin(stdin.as_bytes())
            .output()
    };
    let reply =
        "x\n\n../escape.py\n```python\n<<<<<<< SEARCH\n=======\nevil = 1\n>>>>>>> REPLACE\n```\n";
    let out = run(
        &["apply", "--transcript", "-", "--cwd", ".", "--write"],
        reply,
    );
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "");
    assert_contains(&text(&out.stderr), "escape.py lies outside");
    assert!(!dir.path().join("escape.py").exists());
    let add = "*** Begin Patch\n*** Add File: ../out.py\n+x\n*** End Patch\n";
    for dialect in ["opencode-apply-patch", "cline-apply-patch"] {
        let out = run(&write_transcript(dialect), add);
        assert_ne!(out.status.code(), Some(0), "{dialect}");
        assert!(!dir.path().join("out.py").exists(), "{dialect}");
    }
    let moved = "*** Begin Patch\n*** Update File: calc.py\n*** Move to: calc.py\n@@\n def add(a, b):\n-    return a + b\n+    return a - b\n*** End Patch\n";
    for dialect in ["opencode-apply-patch", "cline-apply-patch"] {
        let out = run(&write_transcript(dialect), moved);
        assert_eq!(out.status.code(), Some(1), "{dialect}");
        assert_contains(&text(&out.stderr), "the patch moves calc.py onto itself");
        assert!(ws.join("calc.py").exists(), "{dialect}: the file is kept");
    }
    support::files::write(&ws, "other.py", b"y = 1\n");
    let other = r#"{"filePath":"other.py","oldString":"y = 1","newString":"y = 2"}"#;
    let out = run(
        &[
            "apply",
            "calc.py",
            "-",
            "--dialect",
            "opencode-edit",
            "--write",
        ],
        other,
    );
    // Refused as an edit's JSON naming another file is, before it runs.
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stderr),
        "srview: the input edits other.py, not calc.py: calc.py is left as it is (`srview \
         apply other.py - --dialect opencode-edit --write` applies it there, given the same \
         input on stdin)\n"
    );
    // Without --write: FILE is left as it is, said plainly, exit 1.
    let out = run(
        &["apply", "calc.py", "-", "--dialect", "opencode-edit"],
        other,
    );
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(text(&out.stdout), "");
    assert_eq!(
        text(&out.stderr),
        "srview: the input edits other.py, not calc.py: calc.py is left as it is (`srview \
         apply other.py - --dialect opencode-edit` applies it there, given the same input on \
         stdin)\n"
    );
    assert_eq!(
        std::fs::read_to_string(ws.join("other.py")).expect("read"),
        "y = 1\n"
    );
}

/// Aider's tool input as JSON (`{"reply": TEXT}`) is read as its reply.
#[test]
fn an_aider_reply_as_json_is_its_reply() {
    let dir = tempfile::tempdir().expect("temp dir");
    support::files::write(dir.path(), "calc.py", b"def add(a, b):\n    return a + b\n");
    let input = r#"{"reply": "calc.py\n```python\n<<<<<<< SEARCH\ndef add(a, b):\n=======\ndef plus(a, b):\n>>>>>>> REPLACE\n```\n"}"#;
    let out = support::runner::srview(["apply", "calc.py", "-", "--json"])
        .cwd(dir.path())
        .stdin(input.as_bytes())
        .output();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let report = support::runner::stdout_json(&out);
    assert_eq!(report["stage"], "perfect");
    assert_eq!(report["newContent"], "def plus(a, b):\n    return a + b\n");
}

/// A recorded tool call (tests/fixtures/matchers/recorded/): the file as
/// the agent had it and the tool input, written into a new folder as
/// `inventory.py` and `input.json` (the input's path made `inventory.py`).
fn recorded_call(module: &str, name: &str, path_key: &str) -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().expect("tempdir");
    let record: serde_json::Value = serde_json::from_str(&support::files::read(
        Path::new(env!("CARGO_MANIFEST_DIR")),
        &format!("tests/fixtures/matchers/recorded/{module}/{name}.json"),
    ))
    .expect("JSON");
    std::fs::write(
        dir.path().join("inventory.py"),
        record["before"].as_str().expect("before"),
    )
    .expect("written");
    // In the order models write the keys (serde's own output sorts them).
    let json = |v: &serde_json::Value| serde_json::to_string(v).expect("JSON");
    let input = &record["input"];
    let pair = |edit: &serde_json::Value, old: &str, new: &str| {
        format!(
            "{{\"{old}\": {}, \"{new}\": {}}}",
            json(&edit[old]),
            json(&edit[new])
        )
    };
    let input = match input.get("edits").and_then(|e| e.as_array()) {
        Some(edits) => format!(
            "{{\"{path_key}\": \"inventory.py\", \"edits\": [{}]}}",
            edits
                .iter()
                .map(|e| pair(e, "oldText", "newText"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        None => format!(
            "{{\"{path_key}\": \"inventory.py\", \"oldString\": {}, \"newString\": {}}}",
            json(&input["oldString"]),
            json(&input["newString"])
        ),
    };
    (dir, input)
}

/// `apply --stream --dialect` of an agent's matcher, `parts` arriving one
/// by one in `dir`: the JSON lines and the run.
fn agent_stream(
    dir: &Path,
    dialect: &str,
    parts: &[&str],
    extra: &[&str],
) -> (Vec<serde_json::Value>, Output) {
    let mut args = vec![
        "apply",
        "inventory.py",
        "--stream",
        "--stream-interval",
        "0",
        "--dialect",
        dialect,
    ];
    args.extend_from_slice(extra);
    streamed(support::runner::srview(args).cwd(dir), parts)
}

/// Splits `text` in three at character boundaries: inside the first
/// edit's old text, inside its new text, and the rest.
fn three_parts<'a>(text: &'a str, first: &str, second: &str) -> [&'a str; 3] {
    let a = text.find(first).expect("first cut") + first.len();
    let b = text.find(second).expect("second cut") + second.len();
    [&text[..a], &text[a..b], &text[b..]]
}

/// OpenCode's BlockAnchorReplacer replacing two misremembered lines (a
/// recorded run), streamed: while it arrives, the old text is found exactly
/// as far as it matches the file, then not exactly; the last line is the
/// agent's own result, loose, by its stage.
#[test]
fn a_streamed_agent_edit_shows_its_old_text_then_the_agents_own_placement() {
    let (dir, input) = recorded_call("opencode_edit", "c2_fuzzy_block_anchor-1", "filePath");
    let parts = three_parts(
        &input,
        "def total_value(items):\\n    tot",
        "\"newString\": \"def",
    );
    let (lines, out) = agent_stream(dir.path(), "opencode-edit", &parts, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(lines.len(), 4, "{lines:?}");
    for line in &lines[..3] {
        assert_eq!(line["final"], false);
        assert_eq!(line["dialect"], "opencode-edit");
    }
    assert_eq!(
        lines[0]["edits"],
        serde_json::json!([{"arriving": true, "found": "exact", "index": 1, "lines": [17, 18]}])
    );
    assert_eq!(
        lines[1]["edits"],
        serde_json::json!([{"arriving": false, "found": "not-exact", "index": 1, "lines": null}])
    );
    let last = &lines[3];
    assert_eq!(last["final"], true);
    assert_eq!(last["seq"], 4);
    assert_eq!(last["bytes"], input.len());
    assert_eq!(last["ok"], true);
    assert_eq!(last["stage"], "BlockAnchorReplacer");
    assert_eq!(
        last["blocks"],
        serde_json::json!([{"lines": [17, 21], "loose": true, "stage": "BlockAnchorReplacer"}])
    );
    assert_contains(&text(&out.stderr), "BlockAnchorReplacer, a loose stage");
}

/// pi's two edits in one call, streamed with `--write`: each edit is listed
/// as it arrives, and the whole call is written as pi writes it.
#[test]
fn a_streamed_multi_edit_call_lists_each_edit_and_is_written_whole() {
    let (dir, input) = recorded_call("pi_edit", "i_multi_edit_one_call-1", "path");
    let record: serde_json::Value = serde_json::from_str(&support::files::read(
        Path::new(env!("CARGO_MANIFEST_DIR")),
        "tests/fixtures/matchers/recorded/pi_edit/i_multi_edit_one_call-1.json",
    ))
    .expect("JSON");
    let second = input.rfind("\"oldText\": \"").expect("two edits") + "\"oldText\": \"".len();
    let parts = [
        &input[..second],
        &input[second..input.len() - 10],
        &input[input.len() - 10..],
    ];
    let (lines, out) = agent_stream(dir.path(), "pi-edit", &parts, &["--write"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let edits = |i: usize| lines[i]["edits"].as_array().expect("edits").len();
    assert_eq!((edits(0), edits(1), edits(2)), (2, 2, 2), "{lines:?}");
    assert_eq!(lines[0]["edits"][1]["found"], "waiting");
    assert_eq!(lines[1]["edits"][0]["found"], "exact");
    assert_eq!(lines[1]["edits"][1]["found"], "exact");
    let last = lines.last().expect("a last line");
    assert_eq!(last["final"], true);
    assert_eq!(last["ok"], true);
    assert_eq!(last["write"]["state"], "written");
    assert_eq!(
        support::files::read(dir.path(), "inventory.py"),
        record["after"].as_str().expect("after")
    );
}

/// A tool input cut off mid-string still ends with a final line that says
/// so; nothing is written.
#[test]
fn a_streamed_agent_input_cut_off_ends_with_a_final_failed_line() {
    let (dir, input) = recorded_call("opencode_edit", "c2_fuzzy_block_anchor-1", "filePath");
    let cut = &input[..input.len() / 2];
    let (lines, out) = agent_stream(dir.path(), "opencode-edit", &[cut], &["--write"]);
    assert_eq!(out.status.code(), Some(2));
    let last = lines.last().expect("a last line");
    assert_eq!(last["final"], true);
    assert_eq!(last["ok"], false);
    assert_eq!(last["write"]["state"], "not-applied");
    assert_contains(
        last["error"].as_str().expect("error"),
        "the input is not a whole JSON object",
    );
}

/// An OpenCode edit sent again after it applied matches exactly once
/// (OpenCode would add its docstring a second time): `check` says it looks
/// applied already and exits 1, `apply --write` holds it back.
#[test]
fn an_agent_edit_sent_again_is_said_to_be_applied_already_and_held_back() {
    let file = "def f():\n    \"\"\"Doc.\"\"\"\n    return 1\n";
    let said = "edit 1: its new text is already there (lines 1-2): this looks applied already, \
                and applied again it repeats what it adds";
    let checked = opencode_edit_held_back(
        ("a.py", file),
        r#"{"filePath": "a.py", "oldString": "def f():\n", "newString": "def f():\n    \"\"\"Doc.\"\"\"\n"}"#,
        said,
    );
    assert_eq!(
        checked,
        format!(
            "edit 1: SimpleReplacer at line 1 (exact)\nwarning: {said}\nthe agent says: Edit applied successfully.\n"
        )
    );
}

/// The OpenCode edit `edit` of the file `(name, content)`, in a folder of
/// its own: `srview check NAME edit.json --dialect opencode-edit` exits 1
/// (its stdout is returned), and `srview apply ... --write` exits 1 saying
/// "nothing written: {said}", NAME left as `content`.
fn opencode_edit_held_back((name, content): (&str, &str), edit: &str, said: &str) -> String {
    let dir = support::files::folder(&[(name, content), ("edit.json", edit)]);
    let edit_of = [name, "edit.json", "--dialect", "opencode-edit"];
    let check = run_in(dir.path(), &[&["check"][..], &edit_of].concat());
    assert_eq!(check.status.code(), Some(1), "{}", text(&check.stdout));
    let apply = run_in(
        dir.path(),
        &[&["apply"][..], &edit_of, &["--write"]].concat(),
    );
    assert_eq!(apply.status.code(), Some(1));
    assert_contains(&text(&apply.stderr), &format!("nothing written: {said}"));
    assert_eq!(support::files::read(dir.path(), name), content);
    text(&check.stdout)
}

/// `fix` on a patch tool's input (OpenCode's and Cline's apply_patch): the
/// hunk the agent cannot place (or places loosely) is corrected onto the
/// file, other files' sections kept, and the corrected input applies with
/// every hunk exact through the agent's own matcher.
#[test]
fn fix_corrects_a_patch_tools_input_that_its_agent_then_places_exactly() {
    let dir = support::files::folder(&[("a.py", "def f():\n    return  1\n"), ("c.py", "x = 1\n")]);
    let patch = "*** Begin Patch\n*** Update File: a.py\n@@\n def f():\n-    return 1\n+    return 2\n\
                 *** Update File: c.py\n@@\n-x = 1\n+x = 3\n*** End Patch";
    for (dialect, field) in [
        ("opencode-apply-patch", "patchText"),
        ("cline-apply-patch", "input"),
    ] {
        let input = serde_json::json!({ field: patch }).to_string();
        let fixed = run_on_input(dir.path(), ["fix", "a.py", "input.json"], &input, dialect);
        assert_eq!(
            fixed.status.code(),
            Some(0),
            "{dialect}: {}",
            text(&fixed.stderr)
        );
        let corrected: serde_json::Value =
            serde_json::from_slice(&fixed.stdout).expect("the corrected input");
        let corrected_patch = corrected[field].as_str().expect("the patch");
        // The file's two spaces kept on the changed line (round 36).
        assert_contains(corrected_patch, "-    return  1\n+    return  2\n");
        assert_contains(
            corrected_patch,
            "*** Update File: c.py\n@@\n-x = 1\n+x = 3\n",
        );
        std::fs::write(dir.path().join("fixed.json"), corrected.to_string()).expect("written");
        let applied = run_in(
            dir.path(),
            &[
                "apply",
                "--transcript",
                "fixed.json",
                "--cwd",
                ".",
                "--dialect",
                dialect,
                "--json",
            ],
        );
        assert_eq!(
            applied.status.code(),
            Some(0),
            "{dialect}: {}",
            text(&applied.stderr)
        );
        let report: serde_json::Value = serde_json::from_slice(&applied.stdout).expect("JSON");
        let blocks = report["blocks"].as_array().expect("blocks");
        assert_eq!(blocks.len(), 2, "{report}");
        assert!(
            blocks.iter().all(|b| b["loose"] == false),
            "{dialect}: {report}"
        );
        assert_eq!(report["files"]["a.py"], "def f():\n    return  2\n");
    }
}

/// `fix calc.py NAME --dialect DIALECT` in `dir` exits 0 printing `want`;
/// that reply, applied with `--json`, gives the report.
fn fixed_then_applied(dir: &Path, dialect: &str, name: &str, want: &str) -> serde_json::Value {
    let fixed = run_in(dir, &["fix", "calc.py", name, "--dialect", dialect]);
    assert_eq!(fixed.status.code(), Some(0), "{}", text(&fixed.stderr));
    assert_eq!(text(&fixed.stdout), want);
    std::fs::write(dir.join("fixed.md"), &fixed.stdout).expect("written");
    let args = [
        "apply",
        "calc.py",
        "fixed.md",
        "--dialect",
        dialect,
        "--json",
    ];
    let applied = run_in(dir, &args);
    serde_json::from_slice(&applied.stdout).expect("JSON")
}

/// `fix calc.py NAME --dialect DIALECT` in `dir` exits 1 printing nothing
/// on stdout; what it says on stderr.
fn refused_fix(dir: &Path, dialect: &str, name: &str) -> String {
    let refused = run_in(dir, &["fix", "calc.py", name, "--dialect", dialect]);
    assert_eq!(refused.status.code(), Some(1));
    assert!(refused.stdout.is_empty());
    text(&refused.stderr)
}

/// `fix FILE REPLY --dialect aider-diff`: a block whose SEARCH lost its
/// indentation (Aider places it by a loose stage) comes back as a reply
/// whose SEARCH is the file's own lines, which Aider places `perfect`; a
/// block srview cannot place gets its closest region said and no reply.
#[test]
fn fix_corrects_an_aider_reply_or_says_why_not() {
    let dir = support::files::folder(&[("calc.py", "def f():\n    x = 1\n    return x\n")]);
    let reply = |search: &str| {
        format!(
            "calc.py\n```python\n<<<<<<< SEARCH\n{search}=======\n    x = 2\n    return x\n>>>>>>> REPLACE\n```\n"
        )
    };
    std::fs::write(dir.path().join("loose.md"), reply("x = 1\nreturn x\n")).expect("written");
    std::fs::write(
        dir.path().join("typo.md"),
        reply("    x = 11\n    return x\n"),
    )
    .expect("written");
    let report = fixed_then_applied(
        dir.path(),
        "aider-diff",
        "loose.md",
        "calc.py\n```\n<<<<<<< SEARCH\n    x = 1\n    return x\n=======\n    x = 2\n    return x\n>>>>>>> REPLACE\n```\n\n",
    );
    assert_eq!(report["blocks"][0]["stage"], "perfect", "{report}");
    let refused = refused_fix(dir.path(), "aider-diff", "typo.md");
    assert_contains(&refused, "closest region (lines 2-3)");
    assert_contains(&refused, "no corrected reply");
}

/// `fix FILE REPLY --dialect aider-udiff` (a tester's find, round 45: the
/// same edit `--dialect aider-diff` corrects got no reply): a hunk sent
/// 4 columns short of a method, which Aider places by its relative-indent
/// stage, comes back as a udiff reply whose lines are the file's own,
/// placed `search_and_replace` (exact); a hunk srview cannot place gets no
/// reply, said why.
#[test]
fn fix_corrects_an_aider_udiff_reply_or_says_why_not() {
    let calc = "class Calc:\n    def add(self, a, b):\n        return a + b\n\n    def sub(self, a, b):\n        return a - b\n";
    let dir = support::files::folder(&[("calc.py", calc)]);
    let reply = |old: &str| {
        format!(
            "```diff\n--- calc.py\n+++ calc.py\n@@ ... @@\n def add(self, a, b):\n-{old}\n+    result = a + b\n+    return result\n```\n"
        )
    };
    std::fs::write(dir.path().join("short.md"), reply("    return a + b")).expect("written");
    std::fs::write(dir.path().join("typo.md"), reply("    return a * q")).expect("written");
    let report = fixed_then_applied(
        dir.path(),
        "aider-udiff",
        "short.md",
        "```diff\n--- calc.py\n+++ calc.py\n@@ ... @@\n     def add(self, a, b):\n-        return a + b\n+        result = a + b\n+        return result\n```\n",
    );
    assert_eq!(
        report["blocks"][0]["stage"], "search_and_replace",
        "{report}"
    );
    assert_eq!(
        report["newContent"],
        calc.replace(
            "        return a + b\n",
            "        result = a + b\n        return result\n"
        )
    );
    let refused = refused_fix(dir.path(), "aider-udiff", "typo.md");
    assert_contains(&refused, "no corrected reply");
}

/// Cline's similarity stage places a misremembered hunk on the first window
/// at least 0.66 similar (here line 2, not the meant line 3) and Cline
/// reports success: srview says the stage is loose and what it does.
#[test]
fn clines_similarity_stage_is_said_to_take_the_first_similar_window() {
    let dir = support::files::folder(&[("f.py", "start\ntotal = 1\ntotal = 2\nend\n")]);
    let input = serde_json::json!({
        "input": "*** Begin Patch\n*** Update File: f.py\n-total = 3\n+total = 4\n*** End Patch"
    });
    let out = run_on_input(
        dir.path(),
        ["apply", "f.py", "input.json"],
        &input.to_string(),
        "cline-apply-patch",
    );
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(text(&out.stdout), "start\ntotal = 4\ntotal = 2\nend\n");
    assert_contains(
        &text(&out.stderr),
        "by similarity, a loose stage of Cline 3.0.65's apply_patch tool: the text it replaced is \
         not the text the model wrote; Cline's similarity stage takes the FIRST window at least \
         0.66 similar, not the best one",
    );
    assert_contains(&text(&out.stderr), "(\"fuzz factor 1000\")");
}

/// OpenCode's apply_patch takes the first place a hunk's lines stand at:
/// where they stand twice (two classes ending alike), `check` says so and
/// exits 1 (as srview says it of a Codex patch).
#[test]
fn a_hunk_whose_lines_stand_twice_is_said_for_a_first_match_agent() {
    let dir = support::files::folder(&[(
        "b.py",
        "class A:\n    def f(self):\n        y = 1\n        return y\n\n\nclass B:\n    def g(self):\n        y = 2\n        return y\n",
    )]);
    let input = serde_json::json!({
        "patchText": "*** Begin Patch\n*** Update File: b.py\n@@\n-        return y\n+        return y or None\n*** End Patch"
    });
    let out = run_on_input(
        dir.path(),
        ["check", "b.py", "p.json"],
        &input.to_string(),
        "opencode-apply-patch",
    );
    assert_eq!(out.status.code(), Some(1));
    assert_contains(
        &text(&out.stdout),
        "warning: edit 1: the text it replaced also stands at line 10: the agent takes the first \
         place, which may not be the one meant\n",
    );
}

/// A corrected edit whose old text the model rendered with smart quotes:
/// the correction finds the file's lines, and its new text keeps the file's
/// straight quotes on the line the model kept (written as sent, the curly
/// quotes would break the Python file), for srview's own edit JSON and an
/// agent's tool input alike.
#[test]
fn a_corrected_edit_keeps_the_files_own_text_on_lines_the_model_kept() {
    let dir = support::files::folder(&[(
        "a.py",
        "def f(item):\n    label = \"low\" if item.qty < 5 else \"ok\"\n    return f\"{item.name}: ({label})\"\n",
    )]);
    let old = "    label = \u{201c}low\u{201d} if item.qty < 5 else \u{201c}ok\u{201d}\n    return f\"{item.name}: ({label})\"\n";
    let new = "    label = \u{201c}low\u{201d} if item.qty < 5 else \u{201c}ok\u{201d}\n    if item.qty == 0:\n        label = \"out\"\n    return f\"{item.name}: ({label})\"\n";
    let want_new = "    label = \"low\" if item.qty < 5 else \"ok\"\n    if item.qty == 0:\n        label = \"out\"\n    return f\"{item.name}: ({label})\"\n";
    for (name, input, new_key, dialect) in [
        (
            "claude.json",
            serde_json::json!({"file_path": "a.py", "old_string": old, "new_string": new}),
            "new_string",
            None,
        ),
        (
            "opencode.json",
            serde_json::json!({"filePath": "a.py", "oldString": old, "newString": new}),
            "newString",
            Some("opencode-edit"),
        ),
    ] {
        std::fs::write(dir.path().join(name), input.to_string()).expect("written");
        let mut args = vec!["fix", "a.py", name];
        if let Some(d) = dialect {
            args.extend(["--dialect", d]);
        }
        let out = support::runner::srview(args).cwd(dir.path()).output();
        assert_eq!(out.status.code(), Some(0), "{name}: {}", text(&out.stderr));
        let fixed = support::runner::stdout_json(&out);
        assert_eq!(fixed[new_key], want_new, "{name}: {fixed}");
    }
}

/// An edit replacing every occurrence (Gemini's `allow_multiple`,
/// OpenCode's `replaceAll`, Qwen's `replace_all`) names every place it
/// changed, in check's text, its JSON and apply's stderr, not only the
/// first; a loose Gemini stage's warning names them too.
#[test]
fn a_replace_all_edit_names_every_place_it_changes() {
    let file = "def a():\n    x = 1\n    return x\n\n\ndef b():\n    x = 1\n    return x\n";
    let dir = support::files::folder(&[("a.py", file)]);
    let root = dir.path().canonicalize().expect("canonical");
    let absolute = root.join("a.py").to_string_lossy().into_owned();
    let inputs = [
        (
            "gemini-replace",
            "Gemini CLI 0.61.0's replace tool",
            "exact",
            serde_json::json!({"file_path": absolute, "instruction": "i", "old_string": "    x = 1\n    return x", "new_string": "    x = 2\n    return x", "allow_multiple": true}),
        ),
        (
            "opencode-edit",
            "OpenCode 1.18.33's edit tool",
            "SimpleReplacer",
            serde_json::json!({"filePath": "a.py", "oldString": "    x = 1\n    return x", "newString": "    x = 2\n    return x", "replaceAll": true}),
        ),
        (
            "qwen-edit",
            "Qwen Code 0.24.4's edit tool",
            "literal",
            serde_json::json!({"file_path": absolute, "old_string": "    x = 1\n    return x", "new_string": "    x = 2\n    return x", "replace_all": true}),
        ),
    ];
    let run = |args: &[&str]| run_in(dir.path(), args);
    for (dialect, title, stage, input) in inputs {
        let check = run_on_input(
            dir.path(),
            ["check", "a.py", "edit.json"],
            &input.to_string(),
            dialect,
        );
        assert_eq!(check.status.code(), Some(0), "{dialect}");
        let said = text(&check.stdout);
        let note =
            format!("{title} replaces every occurrence: it changes lines 2-3 and also lines 7-8");
        assert!(
            said.starts_with(&format!(
                "edit 1: {stage} at lines 2-3 and lines 7-8 (exact)\nnote: {note}\n"
            )),
            "{dialect}: {said}"
        );
        let json = run(&["check", "a.py", "edit.json", "--dialect", dialect, "--json"]);
        let report: serde_json::Value = serde_json::from_slice(&json.stdout).expect("JSON");
        assert_eq!(
            report["alsoReplaced"],
            serde_json::json!([[7, 8]]),
            "{dialect}"
        );
        let apply = run(&["apply", "a.py", "edit.json", "--dialect", dialect]);
        assert_eq!(text(&apply.stderr), format!("srview: note: {note}\n"));
    }
    // Gemini's flexible stage (indentation ignored) with allow_multiple:
    // its loose warning names the second place too, whole (tester 51,
    // T-10: it said "line 7", the one line of the place that changes).
    let loose = serde_json::json!({"file_path": absolute, "instruction": "i", "old_string": "x = 1\nreturn x", "new_string": "x = 2\nreturn x", "allow_multiple": true});
    let check = run_on_input(
        dir.path(),
        ["check", "a.py", "edit.json"],
        &loose.to_string(),
        "gemini-replace",
    );
    assert_eq!(check.status.code(), Some(1));
    assert_contains(
        &text(&check.stdout),
        "warning: edit 1 was placed at lines 2-3 and lines 7-8 by flexible, a loose stage",
    );
}

/// OpenCode's `replaceAll` runs JS's String.replaceAll, which expands `$&`
/// (the matched text) and `$$` in the new text: the text written is not the
/// model's, so check says so and exits 1, and --write holds it back.
#[test]
fn an_opencode_replace_all_expanding_dollar_patterns_is_said_and_held_back() {
    let file = "label = \"cost\"\nprint(label)\nlabel = \"cost\"\n";
    let said = "edit 1: the text written is not the model's new text (the agent rewrote it: \
                line 1 of it is \"label = `cost: label = \\\"cost\\\" $`\", the model wrote \
                \"label = `cost: $& $$`\")";
    let checked = opencode_edit_held_back(
        ("c.py", file),
        r#"{"filePath": "c.py", "oldString": "label = \"cost\"", "newString": "label = `cost: $& $$`", "replaceAll": true}"#,
        said,
    );
    assert_contains(&checked, &format!("warning: {said}\n"));
}

/// Gemini's flexible stage re-indents the new text to the file's: check
/// lists the written lines that differ from the model's new text, beside
/// the old text's differing lines, and its JSON carries them per block.
#[test]
fn check_shows_the_lines_geminis_flexible_stage_rewrote() {
    let dir = support::files::folder(&[("a.py", "def a():\n    x = 1\n    return x\n")]);
    let absolute = dir
        .path()
        .canonicalize()
        .expect("canonical")
        .join("a.py")
        .to_string_lossy()
        .into_owned();
    let input = serde_json::json!({"file_path": absolute, "instruction": "i", "old_string": "x = 1\nreturn x", "new_string": "x = 2\nreturn x"});
    std::fs::write(dir.path().join("edit.json"), input.to_string()).expect("written");
    let run = |args: &[&str]| run_in(dir.path(), args);
    let check = run(&["check", "a.py", "edit.json", "--dialect", "gemini-replace"]);
    assert_eq!(check.status.code(), Some(1));
    assert_contains(
        &text(&check.stdout),
        "  edit 1: line 3: the file has \"    return x\" where the model wrote \"return x\"\n  \
         edit 1: new text line 1: the agent writes \"    x = 2\" where the model wrote \"x = 2\"\n  \
         edit 1: new text line 2: the agent writes \"    return x\" where the model wrote \"return x\"\n",
    );
    let json = run(&[
        "check",
        "a.py",
        "edit.json",
        "--dialect",
        "gemini-replace",
        "--json",
    ]);
    let report: serde_json::Value = serde_json::from_slice(&json.stdout).expect("JSON");
    assert_eq!(
        report["blocks"][0]["writtenDiffers"],
        serde_json::json!([
            {"line": 1, "written": "    x = 2", "model": "x = 2"},
            {"line": 2, "written": "    return x", "model": "return x"}
        ])
    );
}

/// `fix` on an Aider reply names a block by its lines in the reply (its
/// SEARCH marker through its REPLACE marker), not by lines of srview's own
/// rewriting of it.
#[test]
fn fix_names_an_aider_block_by_its_reply_lines() {
    let dir = support::files::folder(&[
        ("calc.py", "def f():\n    x = 1\n    return x\n"),
        (
            "typo.md",
            "Intro.\n\ncalc.py\n```python\n<<<<<<< SEARCH\n    x = 11\n    return x\n=======\n    x = 2\n    return x\n>>>>>>> REPLACE\n```\n",
        ),
    ]);
    let out = run_in(
        dir.path(),
        &["fix", "calc.py", "typo.md", "--dialect", "aider-diff"],
    );
    assert_eq!(out.status.code(), Some(1));
    assert_contains(&text(&out.stderr), "srview: block #1 (reply lines 5-11) ");
}

/// srview's diagnosis of an agent's failing string edit names the agent's
/// own fields (OpenCode's `oldString`, Gemini's `old_string`), never the
/// SEARCH of srview's blocks.
#[test]
fn an_agents_failing_edit_is_diagnosed_in_its_own_field_names() {
    let dir = support::files::folder(&[
        ("s.py", "def a():\n    x = 1\n    return x\n"),
        (
            "edit.json",
            r#"{"filePath": "s.py", "oldString": "def a():\n    x = 5\n    return y", "newString": "z"}"#,
        ),
    ]);
    let out = run_in(
        dir.path(),
        &["check", "s.py", "edit.json", "--dialect", "opencode-edit"],
    );
    assert_eq!(out.status.code(), Some(1));
    let said = text(&out.stdout);
    assert_holds(
        &said,
        &["line 2 of the file differs from oldString line 2 in more"],
        &["SEARCH"],
    );
}

/// An Aider reply holding no edit (prose; a unified diff without the
/// ```` ```diff ```` fence Aider's udiff parser needs) leaves FILE as it
/// is, as a diff without a SEARCH/REPLACE block does (tester finding
/// 36/05): `apply` prints FILE unchanged (a redirect keeps it) with a
/// warning naming what was not found, `check` and `fix` exit 1; `apply
/// --transcript` over the folder prints the same warning, exit 0 as
/// `apply`.
#[test]
fn an_aider_reply_without_an_edit_leaves_file_unchanged_and_says_so() {
    let unfenced = "--- calc.py\n+++ calc.py\n@@ @@\n-    return b – a\n+    return a + b\n";
    let dir = support::files::folder(&[
        ("calc.py", CALC),
        ("u.diff", unfenced),
        ("p.txt", "just prose\n"),
    ]);
    let unfenced_said = "no ```diff fence found in u.diff: Aider 0.86.2 reads udiff hunks only \
                         inside a ```diff fence, and finds no hunk in a unified diff without one";
    let cases = [
        ("u.diff", "aider-udiff", unfenced_said, "no_hunks"),
        (
            "p.txt",
            "aider-udiff",
            "no ```diff hunk found in p.txt",
            "no_hunks",
        ),
        (
            "p.txt",
            "aider-diff",
            "no SEARCH/REPLACE block found in p.txt",
            "no_blocks",
        ),
    ];
    for (input, dialect, said, stage) in cases {
        let run = |args: &[&str]| {
            let mut all = args.to_vec();
            all.extend(["--dialect", dialect]);
            let out = run_in(dir.path(), &all);
            (out.status.code(), text(&out.stdout), text(&out.stderr))
        };
        assert_eq!(
            run(&["apply", "calc.py", input]),
            (
                Some(0),
                CALC.to_string(),
                format!("srview: warning: {said}: the output is calc.py unchanged\n")
            )
        );
        let json = serde_json::json!({
            "blocks": [], "dialect": dialect, "error": null, "message": null,
            "newContent": CALC, "ok": true, "stage": stage,
        });
        assert_eq!(
            run(&["apply", "calc.py", input, "--json"]),
            (
                Some(0),
                format!("{json}\n"),
                format!("srview: warning: {said}: the output is calc.py unchanged\n")
            )
        );
        assert_eq!(
            run(&["apply", "calc.py", input, "--write"]),
            (
                Some(0),
                String::new(),
                format!("srview: warning: {said}: calc.py left as it was\n")
            )
        );
        assert_eq!(
            run(&["check", "calc.py", input]),
            (
                Some(1),
                format!("{said}: nothing to check\n"),
                String::new()
            )
        );
        assert_eq!(
            run(&["check", "calc.py", input, "--json"]),
            (
                Some(1),
                format!("{json}\n"),
                format!("srview: warning: {said}: nothing to check\n")
            )
        );
        assert_eq!(
            run(&["fix", "calc.py", input]),
            (
                Some(1),
                String::new(),
                format!("srview: warning: {said}: nothing to fix, nothing printed\n")
            )
        );
        for (write, what) in [
            (None, "no file is edited"),
            (Some("--write"), "no file written"),
        ] {
            let mut args = vec!["apply", "--transcript", input, "--cwd", "."];
            args.extend(write);
            assert_eq!(
                run(&args),
                (
                    Some(0),
                    String::new(),
                    format!("srview: warning: {said}: {what}\n")
                ),
                "{args:?}"
            );
        }
    }
    assert_eq!(
        std::fs::read_to_string(dir.path().join("calc.py")).expect("calc.py"),
        CALC
    );
}

/// What srview says of an Aider udiff hunk of only added lines on s.py
/// after its replace-all (8 lines).
const APPEND_HUNK: &str = "Aider appends this hunk at the end of the file (after line 8): the hunk \
                           has only added lines, so it names no place, whatever its @@ line \
                           says: to put its lines elsewhere, send the hunk with the lines they \
                           go after as context";

/// An Aider udiff reply (tests/fixtures/aider-udiff, tester finding 05) is
/// read by `check`, `fix`, `apply` and `apply --transcript` with Aider's
/// own udiff applier: told by its ```` ```diff ```` fence (said on stderr)
/// or by `--dialect aider-udiff`. Both places of a repeated before-text
/// change, as Aider changes them, and that is a doubt (tester finding
/// 36/10): `check` and `fix` exit 1 with a warning that says to add
/// context, `--write` holds it back until `--force`. A hunk of only `+`
/// lines is appended, and that is a doubt too (tester finding 37/01). A
/// bare git diff is not read as one.
#[test]
fn an_aider_udiff_reply_is_read_by_aiders_own_udiff_applier() {
    let fixture = |name: &str| {
        let path = format!(
            "{}/tests/fixtures/aider-udiff/{name}",
            env!("CARGO_MANIFEST_DIR")
        );
        std::fs::read_to_string(path).expect("fixture")
    };
    // The reply as the history shows it: from its fence to the fence's end.
    let reply_of = |history: &str| {
        let start = history.find("```diff").expect("fence");
        let end = history[start + 3..].find("```\n").expect("end") + start + 7;
        format!("Here is the change:\n\n{}", &history[start..end])
    };
    let before = fixture("replace_all.before.py");
    let after = fixture("replace_all.after.py");
    let dir = support::files::folder(&[
        ("s.py", before.as_str()),
        (
            "reply.md",
            reply_of(&fixture("replace_all.history.md")).as_str(),
        ),
        (
            "append.md",
            reply_of(&fixture("append.history.md")).as_str(),
        ),
        (
            "git.diff",
            "--- a/s.py\n+++ b/s.py\n@@ -1,3 +1,3 @@\n def load_a(path):\n     with open(path) as fh:\n-        return fh.read()\n+        return fh.read().strip()\n",
        ),
    ]);
    let note = "srview: note: read as --dialect aider-udiff (Aider 0.86.2's udiff edit format), \
                from its ```diff fence of unified-diff hunks\n";
    let both = "edit 1: Aider 0.86.2's udiff edit format replaces every occurrence: it changes lines \
                2-3 and also lines 7-8: the hunk changed 2 places, each where its text stands, \
                and the model may have meant one: add a line of context to the hunk so that its \
                text stands at one place";
    let check = format!(
        "edit 1: search_and_replace at lines 2-3 and lines 7-8 (exact)\nwarning: {both}\n\
         the agent says: Applied edit to s.py\n"
    );
    let out = run_in(dir.path(), &["check", "s.py", "reply.md"]);
    assert_eq!(
        (out.status.code(), text(&out.stdout), text(&out.stderr)),
        (Some(1), check.clone(), note.to_string())
    );
    let out = run_in(
        dir.path(),
        &["check", "s.py", "reply.md", "--dialect", "aider-udiff"],
    );
    assert_eq!(
        (out.status.code(), text(&out.stdout), text(&out.stderr)),
        (Some(1), check, String::new())
    );
    // The result is Aider's: both places change.
    let out = run_in(dir.path(), &["apply", "s.py", "reply.md"]);
    assert_eq!(
        (out.status.code(), text(&out.stdout), text(&out.stderr)),
        (
            Some(0),
            after.clone(),
            format!("{note}srview: warning: {both}\n")
        )
    );
    let out = run_in(dir.path(), &["fix", "s.py", "reply.md"]);
    assert_eq!(
        (out.status.code(), text(&out.stdout), text(&out.stderr)),
        (
            Some(1),
            String::new(),
            format!(
                "{note}srview: warning: {both}\nsrview: no corrected reply: every edit is placed \
                 exactly, but in doubt (the warning says what to change)\n"
            )
        )
    );
    // Written as a reply to s.py, and as a transcript: held back alike.
    for args in [
        &["apply", "s.py", "reply.md", "--write"][..],
        &["apply", "--transcript", "reply.md", "--cwd", ".", "--write"],
    ] {
        let out = run_in(dir.path(), args);
        assert_eq!(
            (out.status.code(), text(&out.stdout), text(&out.stderr)),
            (
                Some(1),
                String::new(),
                format!("{note}srview: nothing written: {both} (--force writes it)\n")
            ),
            "{args:?}"
        );
        assert_eq!(
            std::fs::read_to_string(dir.path().join("s.py")).expect("s.py"),
            before,
            "{args:?}"
        );
    }
    let out = run_in(
        dir.path(),
        &[
            "apply",
            "--transcript",
            "reply.md",
            "--cwd",
            ".",
            "--write",
            "--force",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "Applied edit to s.py\n");
    assert_eq!(
        std::fs::read_to_string(dir.path().join("s.py")).expect("s.py"),
        after
    );

    // A hunk of only `+` lines names no place: Aider appends it after the
    // file's last line, and srview says so (tester finding 37/01).
    let out = run_in(dir.path(), &["check", "s.py", "append.md"]);
    assert_eq!(
        (out.status.code(), text(&out.stdout)),
        (
            Some(1),
            format!(
                "edit 1: append (exact)\nwarning: edit 1: {APPEND_HUNK}\nthe agent says: Applied edit to s.py\n"
            )
        ),
        "{}",
        text(&out.stderr)
    );
    let out = run_in(dir.path(), &["check", "s.py", "git.diff"]);
    assert!(!text(&out.stderr).contains("aider-udiff"), "{out:?}");
}

/// OpenCode's `apply_patch` parser skips, without a word, a hunk line that
/// starts with none of ` `, `-`, `+` (an empty line between added lines,
/// a code line that lost its prefix): the file it writes lacks the line.
/// `check` warns and exits 1; `apply` prints OpenCode's result as it is and
/// says it on stderr; `--write` holds it back, `--force` writes it.
#[test]
fn lines_opencodes_patch_parser_drops_are_a_doubt() {
    // OpenCode's call of the patch on `name` in `dir`, saved as p.json, and
    // `check` of it.
    let check_call = |dir: &Path, name: &str, patch: &str| {
        let input = serde_json::json!({ "patchText": patch }).to_string();
        run_on_input(
            dir,
            ["check", name, "p.json"],
            &input,
            "opencode-apply-patch",
        )
    };
    // `apply --write` of p.json on `name` in `dir` (`--force` with `force`).
    let write = |dir: &Path, name: &str, force: bool| {
        let mut args = vec![
            "apply",
            name,
            "p.json",
            "--dialect",
            "opencode-apply-patch",
            "--write",
        ];
        if force {
            args.push("--force");
        }
        run_in(dir, &args)
    };
    let readme = "# Tool\n\nIntro text.\n\n## Usage\n\nRun it.\n";
    let blank = "*** Begin Patch\n*** Update File: README.md\n@@\n ## Usage\n \n-Run it.\n+Run it \
                 with `tool go`.\n\n+It never writes outside the current folder.\n*** End Patch";
    let (dir, file) = project_with("README.md", readme);
    let dropped = "OpenCode drops patch line 8 (an empty line without a prefix) in hunk #1 of \
                   README.md: its parser skips, without a word, a line that starts with none of \
                   ` `, `-`, `+`, so it writes 4 lines where the patch has 5: send every line of a \
                   hunk with its prefix: ` ` (a space) for a line kept, `-` for one removed, `+` \
                   for one added (an empty added line as `+` alone)";
    let check = check_call(dir.path(), "README.md", blank);
    assert_eq!(
        (check.status.code(), text(&check.stdout)),
        (
            Some(1),
            format!(
                "edit 1: exact at lines 5-7 (exact)\nwarning: {dropped}\nthe agent says: \
                 Success. Updated the following files:\nM README.md\n"
            )
        ),
        "{}",
        text(&check.stderr)
    );
    let merged = "# Tool\n\nIntro text.\n\n## Usage\n\nRun it with `tool go`.\nIt never writes \
                  outside the current folder.\n";
    let apply = run_in(
        dir.path(),
        &[
            "apply",
            "README.md",
            "p.json",
            "--dialect",
            "opencode-apply-patch",
        ],
    );
    assert_eq!(
        (
            apply.status.code(),
            text(&apply.stdout),
            text(&apply.stderr)
        ),
        (
            Some(0),
            merged.to_string(),
            format!("srview: warning: {dropped}\n")
        )
    );
    let held = write(dir.path(), "README.md", false);
    assert_eq!(held.status.code(), Some(1), "{}", text(&held.stderr));
    assert_eq!(
        text(&held.stderr),
        format!("srview: nothing written: {dropped} (--force writes it)\n")
    );
    assert_eq!(read(&file), readme);
    let forced = write(dir.path(), "README.md", true);
    assert_eq!(forced.status.code(), Some(0), "{}", text(&forced.stderr));
    assert_eq!(read(&file), merged);

    // A code line that lost its prefix: Codex refuses the patch, OpenCode
    // drops the line (`import json`), and the program fails without it.
    let imports = "import os\n\nprint(os.getcwd(), json.dumps(1))\n";
    let (dir, file) = project_with("imp.py", imports);
    let unprefixed = "*** Begin Patch\n*** Update File: imp.py\n@@\n import os\n+import \
                      sys\nimport json\n+import re\n*** End Patch";
    let check = check_call(dir.path(), "imp.py", unprefixed);
    assert_eq!(
        (check.status.code(), text(&check.stdout)),
        (
            Some(1),
            "edit 1: exact at line 1 (exact)\nwarning: OpenCode drops patch line 6 (`import \
             json`, a line without a prefix) in hunk #1 of imp.py: its parser skips, without a \
             word, a line that starts with none of ` `, `-`, `+`, so it writes 3 lines where the \
             patch has 4: send every line of a hunk with its prefix: ` ` (a space) for a line \
             kept, `-` for one removed, `+` for one added (an empty added line as `+` \
             alone)\nthe agent says: Success. Updated the following files:\nM imp.py\n"
                .to_string()
        )
    );
    let held = write(dir.path(), "imp.py", false);
    assert_eq!(held.status.code(), Some(1), "{}", text(&held.stderr));
    assert_contains(
        &text(&held.stderr),
        "srview: nothing written: OpenCode drops patch line 6",
    );
    assert_eq!(read(&file), imports);
}

/// The cart of round 38a's findings 02 and 03: `total` summing prices.
const CART: &str = "function total(items) {\n  let sum = 0;\n  for (const i of items) sum += i.price;\n  return sum;\n}\n\nmodule.exports = { total };\n";

/// Round 38a, finding 02: an Aider reply adds a `subtotal` helper holding
/// `total`'s loop, then changes the loop's return. Aider applies the second
/// block on the file as the first left it and takes the first place, the
/// new helper: `check` says where it landed (lines of the file after edit
/// 1), that edit 1 added that text, and where the meant copy stands, and
/// exits 1; `--write` holds the result back.
#[test]
fn an_aider_block_landing_in_text_an_earlier_block_added_is_in_doubt() {
    let dir = support::files::folder(&[("cart.js", CART)]);
    let reply = "Add a `subtotal` helper and make `total` include tax.\n\ncart.js\n```javascript\n<<<<<<< SEARCH\nfunction total(items) {\n=======\nfunction subtotal(items) {\n  let sum = 0;\n  for (const i of items) sum += i.price;\n  return sum;\n}\n\nfunction total(items) {\n>>>>>>> REPLACE\n```\n\ncart.js\n```javascript\n<<<<<<< SEARCH\n  for (const i of items) sum += i.price;\n  return sum;\n=======\n  for (const i of items) sum += i.price;\n  return sum * 1.2;\n>>>>>>> REPLACE\n```\n";
    let check = run_on_input(
        dir.path(),
        ["check", "cart.js", "reply.md"],
        reply,
        "aider-diff",
    );
    assert_eq!(check.status.code(), Some(1), "{}", text(&check.stdout));
    let doubt = "edit 2: in the file as edit 1 left it, the text it replaced stands at lines 3-4 \
                 (text edit 1 added) and also at lines 9-10 (lines 3-4 of the file before the \
                 call): the agent takes the first place, which may not be the one meant";
    assert_eq!(
        text(&check.stdout),
        format!(
            "edit 1: perfect at line 1 (exact)\nedit 2: perfect at lines 3-4 of the file as edit \
             1 left it (exact)\nwarning: {doubt}\nthe agent says: Applied edit to cart.js\n"
        )
    );
    let write = run_in(
        dir.path(),
        &[
            "apply",
            "cart.js",
            "reply.md",
            "--dialect",
            "aider-diff",
            "--write",
        ],
    );
    assert_eq!(write.status.code(), Some(1));
    assert_eq!(
        text(&write.stderr),
        format!("srview: nothing written: {doubt} (--force writes it)\n")
    );
    assert_eq!(read(&dir.path().join("cart.js").to_string_lossy()), CART);
    // The same second block alone on a file holding both copies: the
    // doubt as before, both places of the file before the call.
    let twin = "function subtotal(items) {\n  let sum = 0;\n  for (const i of items) sum += i.price;\n  return sum;\n}\n\nfunction total(items) {\n  let sum = 0;\n  for (const i of items) sum += i.price;\n  return sum;\n}\n";
    support::files::write(dir.path(), "twin.js", twin.as_bytes());
    let second = "twin.js\n```javascript\n<<<<<<< SEARCH\n  for (const i of items) sum += i.price;\n  return sum;\n=======\n  for (const i of items) sum += i.price;\n  return sum * 1.2;\n>>>>>>> REPLACE\n```\n";
    let alone = run_on_input(
        dir.path(),
        ["check", "twin.js", "r2.md"],
        second,
        "aider-diff",
    );
    assert_eq!(alone.status.code(), Some(1));
    assert_contains(
        &text(&alone.stdout),
        "warning: edit 1: the text it replaced also stands at lines 9-10: the agent takes the \
         first place, which may not be the one meant\n",
    );
}

/// Round 38a, finding 05: two functions alike, the patch naming the second
/// by its `@@` line. Cline 3.x's and OpenCode's `apply_patch` move past it
/// and place the hunk there, as the Codex reference does: no doubt, `check`
/// exits 0 and `--write` writes. With an `@@` line not in the file, which
/// Cline ignores, it lands in the first function: the doubt names the place
/// taken, the other, and the `@@` line not found.
#[test]
fn a_patch_hunk_placed_by_its_header_is_not_a_first_place_doubt() {
    let file = support::finds::TWIN_PARSERS;
    let patch = |header: &str| format!("{}\n", support::finds::twin_parsers_patch("p.js", header));
    let fixed = "function parseA(s) {\n  const parts = s.split(\",\");\n  return parts.map(Number);\n}\n\nfunction parseB(s) {\n  const parts = s.split(\",\");\n  return parts.map(Number).filter(Boolean);\n}\n";
    for (dialect, said) in [
        (
            "cline-apply-patch",
            "the agent says: Successfully applied patch to the following files:\np.js\n",
        ),
        (
            "opencode-apply-patch",
            "the agent says: Success. Updated the following files:\nM p.js\n",
        ),
        ("apply-patch", ""),
    ] {
        let dir =
            support::files::folder(&[("p.js", file), ("ok.patch", &patch("function parseB(s) {"))]);
        let check = run_in(
            dir.path(),
            &["check", "p.js", "ok.patch", "--dialect", dialect],
        );
        assert_eq!(
            check.status.code(),
            Some(0),
            "{dialect}: {}",
            text(&check.stdout)
        );
        if !said.is_empty() {
            assert_eq!(
                text(&check.stdout),
                format!("edit 1: exact at lines 7-8 (exact)\n{said}"),
                "{dialect}"
            );
        }
        let write = run_in(
            dir.path(),
            &["apply", "p.js", "ok.patch", "--dialect", dialect, "--write"],
        );
        assert_eq!(
            write.status.code(),
            Some(0),
            "{dialect}: {}",
            text(&write.stderr)
        );
        assert_eq!(
            read(&dir.path().join("p.js").to_string_lossy()),
            fixed,
            "{dialect}"
        );
    }
    let dir = support::files::folder(&[
        ("p.js", file),
        ("bad.patch", &patch("function parseB(str) {")),
    ]);
    let check = run_in(
        dir.path(),
        &[
            "check",
            "p.js",
            "bad.patch",
            "--dialect",
            "cline-apply-patch",
        ],
    );
    assert_eq!(check.status.code(), Some(1));
    assert_eq!(
        text(&check.stdout),
        "edit 1: exact at lines 2-3 (exact)\nwarning: edit 1: its @@ line 'function \
         parseB(str) {' is not in the file, so the agent searched from the top without it and \
         took lines 2-3; the same text stands at lines 7-8: the agent takes the first place, \
         which may not be the one meant\nthe agent says: Successfully applied patch to the \
         following files:\np.js\n"
    );
}

/// Round 38a, finding 03: an Aider udiff reply whose first hunk adds a
/// helper holding `total`'s loop, and whose second changes the loop's
/// return: Aider replaces both places of the second hunk's text. The
/// warning names that hunk, edit 2, and its own first place (lines of the
/// file as edit 1 left it), not edit 1's line; the JSON ties
/// `alsoReplaced` to that block (the call's top-level field, which the
/// replace-all tools' readers use, stays).
#[test]
fn a_udiff_hunk_changing_several_places_is_named_with_its_own_place() {
    let dir = support::files::folder(&[("cart.js", CART)]);
    let reply = "```diff\n--- cart.js\n+++ cart.js\n@@ ... @@\n+function subtotal(items) {\n+  let sum = 0;\n+  for (const i of items) sum += i.price;\n+  return sum;\n+}\n+\n function total(items) {\n@@ ... @@\n   for (const i of items) sum += i.price;\n-  return sum;\n+  return sum * 1.2;\n```\n";
    let check = run_on_input(
        dir.path(),
        ["check", "cart.js", "u.md"],
        reply,
        "aider-udiff",
    );
    assert_eq!(check.status.code(), Some(1));
    assert_eq!(
        text(&check.stdout),
        "edit 1: search_and_replace at line 1 (exact)\nedit 2: search_and_replace at lines 3-4 \
         and lines 9-10 of the file as edit 1 left it (exact)\nwarning: edit 2: Aider 0.86.2's \
         udiff edit format replaces every occurrence: it changes lines 3-4 and also lines 9-10 \
         of the file as edit 1 left it: the hunk changed 2 places, each where its text stands, \
         and the model may have meant one: add a line of context to the hunk so that its text \
         stands at one place\nthe agent says: Applied edit to cart.js\n"
    );
    let json = run_in(
        dir.path(),
        &[
            "check",
            "cart.js",
            "u.md",
            "--dialect",
            "aider-udiff",
            "--json",
        ],
    );
    assert_eq!(json.status.code(), Some(1));
    let report: serde_json::Value = serde_json::from_slice(&json.stdout).expect("JSON");
    assert_eq!(
        report["blocks"],
        serde_json::json!([
            {"lines": [1, 1], "loose": false, "stage": "search_and_replace"},
            {"alsoReplaced": [[9, 10]], "lines": [3, 4], "loose": false, "stage": "search_and_replace"}
        ])
    );
    assert_eq!(report["alsoReplaced"], serde_json::json!([[9, 10]]));
}

/// Round 43a, finding 11: an Aider udiff hunk written at another
/// indentation than the file's, applied by Aider's relative-indentation
/// strategy, whose text stands at two places (an `if` in a function and
/// the same `if` in a method): Aider's `str.replace` changes both (its
/// shipped `apply_hunk`, run from the aider-chat 0.86.2 wheel, wrote the
/// newContent below). srview named one span, lines 3-10, over both; it
/// names each place, counts them, and `--write` holds the result back.
#[test]
fn a_flexibly_placed_udiff_hunk_names_each_place_it_changes() {
    let file = "def a():\n    if x:\n        y = 1\n        z = 2\n\n\nclass B:\n    def b(self):\n        if x:\n            y = 1\n            z = 2\n";
    let dir = support::files::folder(&[("a.py", file)]);
    let reply = "a.py\n```diff\n--- a.py\n+++ a.py\n@@ @@\n if x:\n-    y = 1\n+    y = 10\n     z = 2\n```\n";
    let check = run_on_input(dir.path(), ["check", "a.py", "u.md"], reply, "aider-udiff");
    assert_eq!(
        (check.status.code(), text(&check.stdout)),
        (
            Some(1),
            "edit 1: search_and_replace_relative_indent at lines 2-4 and lines 9-11 (loose)\n\
             warning: edit 1 was placed at lines 2-4 and lines 9-11 by \
             search_and_replace_relative_indent, a loose stage of Aider 0.86.2's udiff edit \
             format: the text it replaced is not the text the model wrote\n\
             warning: edit 1: Aider 0.86.2's udiff edit format replaces every occurrence: it \
             changes lines 2-4 and also lines 9-11: the hunk changed 2 places, each where its \
             text stands, and the model may have meant one: add a line of context to the hunk \
             so that its text stands at one place\nthe agent says: Applied edit to a.py\n"
                .to_string()
        )
    );
    let apply = |flag: &str| {
        run_in(
            dir.path(),
            &["apply", "a.py", "u.md", "--dialect", "aider-udiff", flag],
        )
    };
    let report: serde_json::Value = serde_json::from_slice(&apply("--json").stdout).expect("JSON");
    assert_eq!(
        report["blocks"],
        serde_json::json!([{"alsoReplaced": [[9, 11]], "lines": [2, 4], "loose": true,
                            "stage": "search_and_replace_relative_indent"}])
    );
    assert_eq!(
        report["newContent"],
        "def a():\n    if x:\n        y = 10\n        z = 2\n\n\nclass B:\n    def b(self):\n        if x:\n            y = 10\n            z = 2\n"
    );
    assert_eq!(apply("--write").status.code(), Some(1));
    let kept = std::fs::read_to_string(dir.path().join("a.py")).expect("read");
    assert_eq!(kept, file);
}

/// Round 38a, finding 06: an OpenCode edit that misremembers one line of a
/// function (`return null;` where the file throws) and changes that very
/// line. No corrected edit, and the reason says the line as sent is not
/// the file's line and the edit changes it, quoting both: not that it
/// "looks like part of" the file's line, with which it shares only its
/// indentation.
#[test]
fn a_misremembered_line_the_edit_changes_is_not_called_part_of_the_files() {
    let file = "function find(id) {\n  const row = db.get(id);\n  if (!row) {\n    throw new Error(\"missing\");\n  }\n  return row;\n}\n";
    let dir = support::files::folder(&[("f.js", file)]);
    let input = serde_json::json!({
        "filePath": "f.js",
        "oldString": "function find(id) {\n  const row = db.get(id);\n  if (!row) {\n    return null;\n  }\n  return row;\n}",
        "newString": "function find(id) {\n  const row = db.get(id);\n  if (!row) {\n    return undefined;\n  }\n  return row.value;\n}",
    });
    let out = run_on_input(
        dir.path(),
        ["fix", "f.js", "e.json"],
        &input.to_string(),
        "opencode-edit",
    );
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stderr),
        "srview: edit 1: oldString does not occur in the file; closest: lines 1-7 (similarity \
         0.86): the closest region of the file has different content. No corrected edit: line 4 \
         of the text as sent (`return null;`) is not file line 4 (`throw new \
         Error(\"missing\");`), and the edit changes that line: what the file's line should \
         become cannot be told; send the edit with the file's line as it stands.\nsrview: no \
         corrected edit: srview cannot stand behind a correction of this edit\n"
    );
    assert_eq!(text(&out.stdout), "");
}

/// render.js of the round-38a finding 01: `formatPrice` is there.
const RENDER_JS: &str = "function formatPrice(p) {\n  return \"$\" + p.toFixed(2);\n}\n\nfunction render(items) {\n  return items.map((i) => formatPrice(i.price)).join(\"\\n\");\n}\n\nmodule.exports = { render };\n";

/// The edit of finding 01: `formatPrice` added again before the exports.
const READD_OLD: &str = "module.exports = { render };\n";
const READD_NEW: &str = "function formatPrice(p) {\n  return \"$\" + p.toFixed(2);\n}\n\nmodule.exports = { render };\n";

/// What srview says of finding 01's result.
const READD_SAID: &str = "as written, the file defines function `formatPrice` twice at its top \
     level, at lines 1 and 9: JavaScript keeps the later one (line 9) without a word, and the \
     one at line 1 never runs: the file has it already: leave it out of the new text, or change \
     the definition that is there (its text in the old text) instead of adding another";

/// A tester's find (round 38a, 01): a helper the file already has, added
/// again at another anchor, was called exact by `check` (Claude Code's and
/// pi's edit JSON) and written by `apply --write`. Each now says the file
/// defines it twice, exits 1, and holds the write back.
#[test]
fn a_function_added_again_at_another_place_is_doubted_and_held_back() {
    let dir = tempfile::tempdir().expect("temp dir");
    assert_doubted_and_held_back_as_claude_and_pi(
        dir.path(),
        ("render.js", RENDER_JS),
        (READD_OLD, READD_NEW),
        ("defining a name twice", READD_SAID),
    );
}

/// The edit replacing `old` with `new` in the file `name` of `dir`
/// (written there holding `content`) as Claude Code's Edit
/// ([`assert_edit_doubted_and_held_back`], `apply --write` saying the file
/// was not written: `said`) and as pi's call of that one edit: `check`
/// exits 1 warning that the call leaves the file `leaves`: `said`, and
/// `apply --write` exits 1, the file as it was.
#[track_caller]
fn assert_doubted_and_held_back_as_claude_and_pi(
    dir: &Path,
    (name, content): (&str, &str),
    (old, new): (&str, &str),
    (leaves, said): (&str, &str),
) {
    let stderr = assert_edit_doubted_and_held_back(
        dir,
        (name, content),
        (old, new),
        &format!("    ! {said}\n"),
    );
    assert_contains(&stderr, &format!("srview: {name} was not written: {said}"));
    let pi = serde_json::json!({"path": name, "edits": [{"oldText": old, "newText": new}]});
    let out = run_on_input(dir, ["check", name, "pi.json"], &pi.to_string(), "pi-edit");
    assert_eq!(out.status.code(), Some(1), "{name}: {}", text(&out.stdout));
    assert_contains(
        &text(&out.stdout),
        &format!("warning: the call leaves {name} {leaves}: {said}\n"),
    );
    let write = run_in(
        dir,
        &["apply", name, "pi.json", "--dialect", "pi-edit", "--write"],
    );
    assert_eq!(
        write.status.code(),
        Some(1),
        "{name}: {}",
        text(&write.stderr)
    );
    assert_eq!(
        std::fs::read_to_string(dir.join(name)).expect("read"),
        content,
        "{name}"
    );
}

/// A tester's find (round 39a, 14): a function added with the name the
/// file imports (JavaScript `import { formatDate }`, Rust `use
/// crate::util::parse;`) was called fine; node and rustc refuse the
/// result. `check` exits 1 naming the import's line; a helper of another
/// name passes.
#[test]
fn a_function_named_as_an_import_is_doubted() {
    let show = (
        "show.js",
        "import { formatDate } from './util';\n\nexport function show(d) {\n  return formatDate(d);\n}\n",
    );
    let old = "  return formatDate(d);\n}\n";
    let added = "\nfunction formatDate(d) {\n  return d.toISOString();\n}\n";
    assert_edit_doubted(
        show,
        (old, &format!("{old}{added}")),
        "    ! as written, the file imports `formatDate` at line 1 and defines it again at line \
         7 (function `formatDate`): JavaScript refuses to load the module (SyntaxError: \
         Identifier 'formatDate' has already been declared)",
    );
    let other = added.replace("function formatDate", "function formatIso");
    check_edit_exits(0, show, (old, &format!("{old}{other}")));
    let run = "use crate::util::parse;\n\npub fn run() -> u32 {\n    parse(\"1\")\n}\n";
    let old = "    parse(\"1\")\n}\n";
    let new = format!("{old}\nfn parse(s: &str) -> u32 {{\n    s.parse().unwrap_or(0)\n}}\n");
    assert_edit_doubted(
        ("run.rs", run),
        (old, &new),
        "the file imports `parse` at line 1 and defines it again at line 7 (fn `parse`): Rust \
         refuses to compile it (E0255: the name `parse` is defined multiple times)",
    );
}

/// A tester's find (round 38a, 04): an exact edit whose old text holds a
/// block's closing `}` and whose new text does not (Rust: with the next
/// function as trailing context; JavaScript: a line added in an if-block)
/// was called fine. `check` now exits 1 naming the brace and its line,
/// and `apply --write` holds the write back.
#[test]
fn an_edit_dropping_a_closing_brace_is_doubted_and_held_back() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path();
    let head = "as written, the file has one `}` fewer than `{` (srview counts them outside \
                strings and comments; the file before has as many of each): the edit's old text \
                closes a block its new text does not close";
    let main_rs = "fn greet(name: &str) -> String {\n    format!(\"Hi {}\", name)\n}\n\nfn main() {\n    println!(\"{}\", greet(\"a\"));\n}\n";
    let check_js =
        "function check(u) {\n  if (!u) {\n    return false;\n  }\n  return u.active;\n}\n";
    let cases = [
        (
            "main.rs",
            main_rs,
            "    format!(\"Hi {}\", name)\n}\n\nfn main() {",
            "    format!(\"Hi {}!\", name)\n\nfn main() {",
            "(line 3 `}`)",
        ),
        (
            "c.js",
            check_js,
            "  if (!u) {\n    return false;\n  }\n  return u.active;",
            "  if (!u) {\n    log(\"no user\");\n    return false;\n  return u.active;",
            "(line 4 `}`)",
        ),
    ];
    for (name, content, old, new, line) in cases {
        let said = format!("{head} {line}: send the new text with its closing `}}`");
        assert_doubted_and_held_back_as_claude_and_pi(
            root,
            (name, content),
            (old, new),
            ("with its brackets unbalanced", &said),
        );
    }
}

/// One edit of a call may unbalance what the next balances (a block's
/// `}` moved from one edit to the other, a function replaced by a new
/// version in two edits): the call's whole result is judged, not each
/// edit alone. A whole balanced function added is no doubt either.
#[test]
fn a_call_whose_edits_balance_together_is_not_doubted() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path();
    support::files::write(
        root,
        "c.js",
        b"function a(x) {\n  if (x) {\n    b();\n  }\n  c();\n}\n",
    );
    let moved = serde_json::json!({"path": "c.js", "edits": [
        {"oldText": "    b();\n  }\n", "newText": "    b();\n"},
        {"oldText": "  c();\n", "newText": "    c();\n  }\n"},
    ]});
    let added = serde_json::json!({"path": "c.js", "edits": [
        {"oldText": "  c();\n}\n", "newText": "  c();\n}\n\nfunction d(y) {\n  return [y, { y }];\n}\n"},
    ]});
    for input in [moved, added] {
        let out = run_on_input(
            root,
            ["check", "c.js", "pi.json"],
            &input.to_string(),
            "pi-edit",
        );
        assert_eq!(out.status.code(), Some(0), "{input}: {}", text(&out.stdout));
    }
}

/// A tester's find (round 38e, 01): a C++ raw string over several lines
/// was read as an ordinary string, so a file holding one got no bracket
/// check (an `if`'s `}` dropped: exit 0, written) and adding one was a
/// doubt ("one `)` more than `(`"). Likewise a Rust comment nesting
/// another. Now the drop is doubted and held back, the addition is fine.
#[test]
fn raw_strings_and_nested_comments_are_read_as_the_language_reads_them() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path();
    let shader = "static const char* kFragment = R\"(\n#version 330 core\nout vec4 color;\nvoid main() {\n    color = vec4(1.0, 0.5, 0.2, 1.0);\n}\n)\";\n";
    let render = format!(
        "#include <cstdio>\n\n{shader}\nint compile(const char* src) {{\n    return src[0] != 0;\n}}\n\nint main() {{\n    if (!compile(kFragment)) {{\n        std::puts(\"failed\");\n        return 1;\n    }}\n    return 0;\n}}\n"
    );
    let nested = "/*\nfn legacy(s: &str) -> u32 {\n    /* TODO: hex */\n    s.parse().unwrap()\n}\n*/\n\nfn main() {\n    if true {\n        println!(\"x\");\n    }\n}\n";
    let drops = [
        (
            "render.cpp",
            render.as_str(),
            "        return 1;\n    }\n    return 0;",
            "        return 1;\n    return 0;",
        ),
        (
            "n.rs",
            nested,
            "        println!(\"x\");\n    }\n}\n",
            "        println!(\"x\");\n}\n",
        ),
    ];
    for (name, content, old, new) in drops {
        assert_edit_doubted_and_held_back(
            root,
            (name, content),
            (old, new),
            "! as written, the file has one `}` fewer than `{`",
        );
    }
    let plain = "#include <cstdio>\n\nint compile(const char* src) {\n    return src[0] != 0;\n}\n";
    let file = support::files::write(root, "plain.cpp", plain.as_bytes());
    let anchor = "int compile(const char* src) {";
    let out = check_edit_in(root, "plain.cpp", anchor, &format!("{shader}\n{anchor}"));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
    assert_eq!(
        text(&out.stdout),
        "plain.cpp: block #1 (Edit): applies, stage exact, 1 occurrence\n"
    );
    let write = run_in(root, &["apply", "plain.cpp", "e.json", "--write"]);
    assert_eq!(write.status.code(), Some(0), "{}", text(&write.stderr));
    assert_eq!(
        std::fs::read_to_string(&file).expect("read"),
        plain.replace(anchor, &format!("{shader}\n{anchor}"))
    );
}

/// Tester's finds (round 39a, 01 and 09): C and its kin splice a line
/// ending in `\` onto the next before removing comments, and compile one
/// branch of an `#if` chain. A `//` comment ending in `\` that hides the
/// next line's `}` is doubted and held back; a string continued by `\`, a
/// signature written once per `#ifdef` branch and a block opened in
/// `#if 0` pass; a `}` dropped in a file holding such a chain is doubted.
#[test]
fn line_splicing_and_preprocessor_branches_are_read_as_the_compiler_reads_them() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path();
    let main = "int main() {\n  int n = 0;\n  if (n > 0) {\n    n = 1;\n  }\n  return n;\n}\n";
    assert_edit_doubted_and_held_back(
        root,
        ("b.cpp", main),
        ("    n = 1;\n", "    n = 1; // files go to C:\\temp\\\n"),
        "! as written, the file has one `}` fewer than `{` (srview counts them outside strings \
         and comments; the file before has as many of each): the `\\` ending line 4 continues \
         its `//` comment onto line 5 `}`, which the compiler reads as comment: end the comment \
         with another character than `\\`\n",
    );
    let log = "#include <stdio.h>\n\nint open_log(void) {\n  return 0;\n}\n";
    let twins = "#ifdef _WIN32\nint open_log(const wchar_t *path) {\n#else\nint open_log(const char *path) {\n#endif\n";
    let passes = [
        (
            "rs0.cpp",
            "int f() {\n  return 0;\n}\n",
            "}\n",
            "}\n#define X \"a\\\n{\"\n",
        ),
        ("p.c", log, "int open_log(void) {\n", twins),
        (
            "m.c",
            log,
            "  return 0;\n",
            "  return 0;\n#if 0\n  if (x) {\n#endif\n",
        ),
    ];
    for (name, content, old, new) in passes {
        support::files::write(root, name, content.as_bytes());
        let out = check_edit_in(root, name, old, new);
        assert_eq!(out.status.code(), Some(0), "{name}: {}", text(&out.stdout));
        assert_eq!(
            text(&out.stdout),
            format!("{name}: block #1 (Edit): applies, stage exact, 1 occurrence\n")
        );
    }
    let chained = log.replace("int open_log(void) {\n", twins);
    assert_edit_doubted_and_held_back(
        root,
        ("q.c", &chained),
        ("  return 0;\n}\n", "  return 0;\n"),
        "! as written, the file has one `}` fewer than `{`",
    );
}

/// A tester's find (round 38e, 06): the same dropped `}` was doubted in
/// `f.cpp` and called fine in Dart, Gradle, Groovy, Solidity, Objective-C,
/// CUDA, JSONC, Zig and Protobuf files. Now each is doubted, and Terraform
/// and HCL too since tester 47 T-05 (their heredocs and comments read); a
/// `.m` file with no Objective-C line (`#import`, `@interface`, ...: else
/// it may be MATLAB) is still not read.
#[test]
fn a_dropped_brace_is_doubted_in_the_brace_languages_added() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path();
    let content = "void z() {\n  if (a) {\n    b();\n  }\n  c();\n}\n";
    let objc = format!("#import <Foundation/Foundation.h>\n{content}");
    let codes = [
        ("f.cpp", content, 1),
        ("f.dart", content, 1),
        ("build.gradle", content, 1),
        ("f.groovy", content, 1),
        ("f.sol", content, 1),
        ("f.m", &objc, 1),
        ("f.mm", content, 1),
        ("f.cu", content, 1),
        ("f.cuh", content, 1),
        ("f.jsonc", content, 1),
        ("f.zig", content, 1),
        ("f.proto", content, 1),
        ("matlab.m", content, 0),
        ("f.tf", content, 1),
        ("f.hcl", content, 1),
    ];
    for (name, content, code) in codes {
        support::files::write(root, name, content.as_bytes());
        let out = check_edit_in(root, name, "    b();\n  }\n  c();\n", "    b();\n  c();\n");
        assert_eq!(
            out.status.code(),
            Some(code),
            "{name}: {}",
            text(&out.stdout)
        );
        assert_eq!(
            text(&out.stdout).contains("one `}` fewer than `{`"),
            code == 1,
            "{name}: {}",
            text(&out.stdout)
        );
    }
}

/// `check` of a Claude Code edit replacing `old` with `new` in the file
/// `name` holding `content` exits `code`: its output.
#[track_caller]
fn check_edit_exits(code: i32, (name, content): (&str, &str), (old, new): (&str, &str)) -> String {
    let dir = support::files::folder(&[(name, content)]);
    let out = check_edit_in(dir.path(), name, old, new);
    let said = text(&out.stdout);
    assert_eq!(out.status.code(), Some(code), "{name}: {said}");
    said
}

/// [`check_edit_exits`] 1, its output holding `said`: a doubt.
#[track_caller]
fn assert_edit_doubted(file: (&str, &str), edit: (&str, &str), said: &str) {
    assert_contains(&check_edit_exits(1, file, edit), said);
}

/// [`assert_edit_doubted`] of each `(name, content, old, new, said)`.
#[track_caller]
fn assert_each_edit_doubted(cases: &[(&str, &str, &str, &str, &str)]) {
    for &(name, content, old, new, said) in cases {
        assert_edit_doubted((name, content), (old, new), said);
    }
}

/// `check` of a Claude Code edit replacing `old` with `new` in the file
/// `name` of `dir`, the edit written to `dir/e.json` first.
fn check_edit_in(dir: &Path, name: &str, old: &str, new: &str) -> Output {
    let edit = serde_json::json!({"file_path": name, "old_string": old, "new_string": new});
    run_on_input(
        dir,
        ["check", name, "e.json"],
        &edit.to_string(),
        "edit-json",
    )
}

/// `content` written to `dir/name`, [`check_edit_in`] exits 1, its output
/// holding `said`; `apply --write` of the edit exits 1 and leaves the file
/// as it was. What `apply --write` said on stderr.
#[track_caller]
fn assert_edit_doubted_and_held_back(
    dir: &Path,
    (name, content): (&str, &str),
    (old, new): (&str, &str),
    said: &str,
) -> String {
    support::files::write(dir, name, content.as_bytes());
    let out = check_edit_in(dir, name, old, new);
    assert_eq!(out.status.code(), Some(1), "{name}: {}", text(&out.stdout));
    assert_contains(&text(&out.stdout), said);
    let write = run_in(dir, &["apply", name, "e.json", "--write"]);
    assert_eq!(write.status.code(), Some(1), "{name}");
    assert_eq!(
        std::fs::read_to_string(dir.join(name)).expect("read"),
        content,
        "{name}"
    );
    text(&write.stderr)
}

/// A tester's find (round 38e, 05): `#[inline]` above the Rust function
/// there switched the "defined twice" check off (with the attribute on
/// the new copy, another attribute, or none). `check` now exits 1.
#[test]
fn a_rust_function_added_again_below_an_attribute_is_doubted() {
    let lib = "#[inline]\npub fn clamp(x: i32) -> i32 {\n    x.max(0).min(10)\n}\n\npub fn helper() {}\n\npub fn run() -> i32 {\n    clamp(5)\n}\n";
    for (attr, later) in [("#[inline]\n", 9), ("#[must_use]\n", 9), ("", 8)] {
        let new = format!(
            "{attr}pub fn clamp(x: i32) -> i32 {{\n    x.clamp(0, 10)\n}}\n\npub fn run() -> i32 {{"
        );
        assert_edit_doubted(
            ("lib.rs", lib),
            ("pub fn run() -> i32 {", &new),
            &format!(
                "    ! as written, the file defines fn `clamp` twice at its top level, at lines 2 \
                 and {later}: Rust refuses to compile it"
            ),
        );
    }
}

/// A tester's find (round 39a, 16): the "defined twice" message said the
/// later copy wins for a class constructor twice and for a function twice
/// in an ES module (both a SyntaxError: `node -e 'class A { constructor()
/// {} constructor(x) {} }'`, `node --input-type=module -e 'export function
/// a() {} export function a() {}'`), called a struct "enum", and a trait
/// implemented twice "duplicate definitions" (`rustc --crate-type lib`:
/// error[E0119]). `check` exits 1 saying the real error.
#[test]
fn defined_twice_messages_name_the_real_error_and_each_kind() {
    let cases = [
        (
            "ct.js",
            "export class Registry {\n  constructor() {\n    this.items = [];\n  }\n}\n",
            "    this.items = [];\n  }\n",
            "    this.items = [];\n  }\n\n  constructor(items) {\n    this.items = items;\n  }\n",
            "    ! as written, the file defines method `constructor` twice in `export class \
             Registry` (line 1), at lines 2 and 6: JavaScript refuses to load the file \
             (SyntaxError: A class may only have one constructor): ",
        ),
        (
            "m.js",
            "export function ids() {\n  return 1;\n}\n",
            "  return 1;\n}\n",
            "  return 1;\n}\n\nexport function ids() {\n  return 2;\n}\n",
            "    ! as written, the file defines function `ids` twice at its top level, at lines 1 \
             and 5: JavaScript refuses to load the module (SyntaxError: Identifier 'ids' has \
             already been declared): ",
        ),
        (
            "i.rs",
            "pub struct Foo;\n\nimpl Foo {\n    pub fn new() -> Self {\n        Foo\n    }\n}\n",
            "pub struct Foo;\n",
            "pub struct Foo;\n\npub enum Foo {\n    A,\n}\n",
            "    ! as written, the file defines `Foo` twice at its top level, struct `Foo` at line \
             1 and enum `Foo` at line 3: Rust refuses to compile it (the name `Foo` is defined \
             multiple times): ",
        ),
        (
            "tr.rs",
            "pub struct A;\ntrait Named { fn name(&self) -> String; }\nimpl Named for A {\n    fn name(&self) -> String {\n        \"a\".into()\n    }\n}\n",
            "        \"a\".into()\n    }\n}\n",
            "        \"a\".into()\n    }\n}\nimpl Named for A {\n    fn name(&self) -> String {\n        \"b\".into()\n    }\n}\n",
            "    ! as written, the file implements `Named` for `A` twice, in `impl Named for A` at \
             lines 3 and 8 (fn `name` at lines 4 and 9): Rust refuses to compile it (E0119: \
             conflicting implementations of trait `Named` for type `A`): change the `impl` \
             block that is there (its text in the old text) instead of adding another\n",
        ),
    ];
    assert_each_edit_doubted(&cases);
}

/// A tester's find (round 38e, 02): TypeScript overload signatures over
/// several lines or with a comment after them were called a second
/// implementation (exit 1). Exact now; a second body still is a doubt.
#[test]
fn overload_signatures_over_lines_or_commented_are_exact() {
    let parse =
        "export function parse(input: string | Buffer): number {\n  return input.length;\n}\n";
    let old = "export function parse(input: string | Buffer): number {";
    let news = [
        "export function parse(\n  input: string,\n): number;\nexport function parse(input: Buffer): number;\nexport function parse(input: string | Buffer): number {",
        "export function parse(input: string): number; // text\nexport function parse(input: Buffer): number; // bytes\nexport function parse(input: string | Buffer): number {",
    ];
    for new in news {
        assert_eq!(
            check_edit_exits(0, ("parse.ts", parse), (old, new)),
            "parse.ts: block #1 (Edit): applies, stage exact, 1 occurrence\n"
        );
    }
    let body = "export function parse(\n  input: string,\n): number {\n  return 0;\n}\nexport function parse(input: string | Buffer): number {";
    assert_edit_doubted(
        ("parse.ts", parse),
        (old, body),
        "as written, the file defines function `parse` twice at its top level, at lines 1 and 6",
    );
}

/// A tester's find (round 38e, 04): package.json's `"scripts"` added again
/// (`JSON.parse` keeps the later: `build` and `test` lost), a quoted YAML
/// key beside the plain one and a key twice in a YAML flow mapping were
/// called fine. `check` now exits 1 naming the key and both lines.
#[test]
fn a_json_or_quoted_or_flow_yaml_key_added_again_is_doubted() {
    let package = "{\n  \"name\": \"app\",\n  \"scripts\": {\n    \"build\": \"tsc\",\n    \"test\": \"jest\"\n  },\n  \"dependencies\": {\n    \"react\": \"^18.2.0\"\n  }\n}\n";
    let cases = [
        (
            "package.json",
            package,
            "  \"dependencies\": {",
            "  \"scripts\": {\n    \"lint\": \"eslint .\"\n  },\n  \"dependencies\": {",
            "    ! as written, the file has the key `scripts` twice at the top level, at lines 3 \
             and 7: JSON.parse (Node, npm and most JSON readers) keeps the later value (line 7) \
             without a word, and the one at line 3 is lost: change the key that is there (its \
             line in the old text) instead of adding it again\n",
        ),
        (
            "k.yaml",
            "server:\n  limits: {cpu: 1, memory: 2Gi}\n",
            "  limits: {cpu: 1, memory: 2Gi}\n",
            "  limits: {cpu: 1, memory: 2Gi, cpu: 2}\n",
            "    ! as written, the file has the key `cpu` twice in one flow mapping on line 2: ",
        ),
        (
            "q.yaml",
            "server:\n  host: localhost\n  port: 8080\n",
            "  port: 8080\n",
            "  port: 8080\n  \"host\": 0.0.0.0\n",
            "    ! as written, the file has the key `host` twice in the mapping under line 1 \
             (`server:`), at lines 2 and 4: ",
        ),
    ];
    assert_each_edit_doubted(&cases);
}

/// A tester's find (round 39a, 04): a trailing comma, legal JSONC and
/// everywhere in tsconfig and VS Code settings, switched the duplicate-key
/// check off: `compilerOptions` and `editor.tabSize` re-added passed.
/// `check` now exits 1 naming the key; a new key there exits 0.
#[test]
fn a_jsonc_key_added_again_beside_trailing_commas_is_doubted() {
    let tsconfig = "{\n  \"compilerOptions\": {\n    \"strict\": true,\n    \"target\": \"es2020\",\n  },\n  \"include\": [\"src\"],\n}\n";
    let settings = "{\n  // editor\n  \"editor.tabSize\": 2,\n  \"files.exclude\": {\n    \"**/dist\": true,\n  },\n}\n";
    let cases = [
        (
            "tc.jsonc",
            tsconfig,
            "  \"compilerOptions\": {\n    \"outDir\": \"dist\",\n  },\n",
            "    ! as written, the file has the key `compilerOptions` twice at the top level, at \
             lines 2 and 6: ",
        ),
        (
            ".vscode/settings.json",
            settings,
            "  \"editor.tabSize\": 4,\n",
            "    ! as written, the file has the key `editor.tabSize` twice at the top level, at \
             lines 3 and 7: ",
        ),
    ];
    for (name, content, added, said) in cases {
        assert_edit_doubted(
            (name, content),
            ("  },\n", &format!("  }},\n{added}")),
            said,
        );
        let other = added
            .replace("tabSize", "rulers")
            .replace("compilerOptions", "watchOptions");
        check_edit_exits(0, (name, content), ("  },\n", &format!("  }},\n{other}")));
    }
}

/// A tester's find (round 39a, 21): an edit leaving package.json without a
/// comma between two scripts, or with a trailing comma after the last,
/// passed every check and `apply --write` wrote it (npm then refuses the
/// file). Each now is a doubt naming the line and column, and the write is
/// held back; a trailing comma in a tsconfig (JSONC) is fine, a comma left
/// out there is not.
#[test]
fn a_json_file_left_unparseable_is_doubted_and_held_back() {
    let package = "{\n  \"name\": \"x\",\n  \"scripts\": {\n    \"build\": \"tsc\",\n    \"test\": \"jest\"\n  }\n}\n";
    let old = "    \"test\": \"jest\"\n";
    let cases = [
        (
            "    \"test\": \"jest\"\n    \"lint\": \"eslint .\"\n",
            "line 6, column 5: expected `,` or `}`",
        ),
        (
            "    \"test\": \"jest\",\n    \"lint\": \"eslint .\",\n",
            "line 7, column 3: trailing comma",
        ),
    ];
    for (new, at) in cases {
        let dir = tempfile::tempdir().expect("temp dir");
        let said = format!("the file was valid JSON before and is not after: {at}");
        let stderr = assert_edit_doubted_and_held_back(
            dir.path(),
            ("package.json", package),
            (old, new),
            &format!(
                "    ! {said}: its readers refuse the whole file: send the edit so that the \
                      file stays JSON (a comma between two entries, none after the last)\n"
            ),
        );
        assert_contains(
            &stderr,
            &format!("srview: package.json was not written: {said}"),
        );
    }
    // The comma there: exact.
    let fine = "    \"test\": \"jest\",\n    \"lint\": \"eslint .\"\n";
    check_edit_exits(0, ("package.json", package), (old, fine));
    // A tsconfig, read as JSONC: a trailing comma exits 0, a comma left out 1.
    let tsconfig = "{\n  \"compilerOptions\": {\n    \"strict\": true\n  }\n}\n";
    let old = "    \"strict\": true\n";
    check_edit_exits(
        0,
        ("tsconfig.json", tsconfig),
        (old, "    \"strict\": true,\n"),
    );
    assert_edit_doubted(
        ("tsconfig.json", tsconfig),
        (old, "    \"strict\": true\n    \"outDir\": \"dist\",\n"),
        "    ! the file was valid JSON (comments and trailing commas allowed, as for JSONC) \
         before and is not after: line 4, column 5: expected `,` or `}`",
    );
}

/// A tester's find (round 39a, 10): a UTF-8 byte order mark (Windows
/// editors, PowerShell) hid the file's first line: package.json's
/// `"scripts"` re-added, a YAML first key added again, a JS first-line
/// function defined again passed. `check` now exits 1 as without the mark.
#[test]
fn a_byte_order_mark_hides_no_first_line_from_the_checks() {
    let cases = [
        (
            "package.json",
            "\u{feff}{\n  \"name\": \"x\",\n  \"scripts\": {\n    \"build\": \"tsc\"\n  },\n  \"dependencies\": {}\n}\n",
            "  \"dependencies\": {}\n",
            "  \"dependencies\": {},\n  \"scripts\": {\n    \"lint\": \"eslint .\"\n  }\n",
            "    ! as written, the file has the key `scripts` twice at the top level, at lines 3 \
             and 7: ",
        ),
        (
            "c.yaml",
            "\u{feff}host: a\nport: 1\n",
            "port: 1\n",
            "port: 1\nhost: b\n",
            "    ! as written, the file has the key `host` twice at the top level, at lines 1 and \
             3: ",
        ),
        (
            "a.js",
            "\u{feff}function go() {\n  return 1;\n}\n",
            "  return 1;\n}\n",
            "  return 1;\n}\n\nfunction go() {\n  return 2;\n}\n",
            "    ! as written, the file defines function `go` twice at its top level, at lines 1 \
             and 5: ",
        ),
    ];
    for (name, content, old, new, said) in cases {
        assert_edit_doubted((name, content), (old, new), said);
        // A line that adds nothing twice: exact.
        check_edit_exits(0, (name, content), (old, &format!("{old}\n")));
    }
}

/// A tester's find (round 39a, 08): a Helm chart's template setting `mode`
/// in its `{{- if }}` and `{{- else }}` branches was called a duplicate key
/// (exit 1; the gate's deny told the model to undo the conditional). A
/// template is not read for duplicate keys: exit 0. The same key twice in
/// a plain YAML file still exits 1.
#[test]
fn a_helm_template_setting_a_key_in_each_branch_is_not_doubted() {
    let cm = "apiVersion: v1\nkind: ConfigMap\ndata:\n  mode: dev\n";
    let branches = "{{- if .Values.prod }}\n  mode: prod\n{{- else }}\n  mode: dev\n{{- end }}\n";
    for name in ["cm.yaml", "chart/templates/cm.yaml"] {
        check_edit_exits(0, (name, cm), ("  mode: dev\n", branches));
    }
    assert_edit_doubted(
        ("cm.yaml", cm),
        ("  mode: dev\n", "  mode: prod\n  mode: dev\n"),
        "    ! as written, the file has the key `mode` twice in the mapping under line 3 \
         (`data:`), at lines 4 and 5: ",
    );
}

/// A tester's find (round 38e, 03): a JS `const`, a class method, a Rust
/// `impl` method and `struct`, a Go `type` re-sent changed a little were
/// called fine. `check` now exits 1 saying which and where.
#[test]
fn consts_classes_methods_and_types_added_again_are_doubted() {
    let cases = [
        (
            "f.js",
            "export const formatPrice = (p) => {\n  return '$' + p.toFixed(2);\n};\n\nexport function render(items) {\n  return items.map((i) => formatPrice(i.price));\n}\n\nexport default render;\n",
            "export default render;\n",
            "export const formatPrice = (p) => {\n  return '$' + p.toFixed(3);\n};\n\nexport default render;\n",
            "    ! as written, the file defines const `formatPrice` twice at its top level, at lines \
             1 and 9: JavaScript refuses to load the file (SyntaxError: Identifier 'formatPrice' \
             has already been declared): change the definition that is there",
        ),
        (
            "f.ts",
            "class Cart {\n  total() {\n    return 1;\n  }\n\n  clear() {\n    this.items = [];\n  }\n}\n",
            "  clear() {",
            "  total() {\n    return 2;\n  }\n\n  clear() {",
            "    ! as written, the file defines method `total` twice in `class Cart` (line 1), at \
             lines 2 and 6: ",
        ),
        (
            "f.rs",
            "struct S;\n\nimpl S {\n    fn area(&self) -> u32 {\n        1\n    }\n\n    fn name(&self) -> &str {\n        \"s\"\n    }\n}\n",
            "    fn name(&self) -> &str {",
            "    fn area(&self) -> u32 {\n        2\n    }\n\n    fn name(&self) -> &str {",
            "    ! as written, the file defines fn `area` twice in `impl S` (line 3), at lines 4 \
             and 8: ",
        ),
        (
            "f.rs",
            "struct Config {\n    a: u32,\n}\n\nfn helper() {}\n\nfn main() {}\n",
            "fn main() {}",
            "struct Config {\n    a: u32,\n    b: u32,\n}\n\nfn main() {}",
            "    ! as written, the file defines struct `Config` twice at its top level, at lines 1 \
             and 7: ",
        ),
        (
            "f.go",
            "package p\n\ntype Config struct {\n\tA int\n}\n\nfunc helper() {}\n\nfunc Use() {}\n",
            "func Use() {}",
            "type Config struct {\n\tA int\n\tB int\n}\n\nfunc Use() {}",
            "    ! as written, the file defines type `Config` twice at its top level, at lines 3 \
             and 9: ",
        ),
    ];
    assert_each_edit_doubted(&cases);
}

/// A tester's find (round 39a, 18): an `if` closed after the call's
/// `, [id]);` keeps every bracket's count even, so `check` said exact and
/// `apply --write` wrote a file node refuses (SyntaxError). Brackets are
/// matched now: check exits 1 naming the crossing, the write is held back.
#[test]
fn brackets_that_cross_are_doubted_and_held_back() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path();
    let before =
        "useEffect(() => {\n  load();\n}, [id]);\n\nexport function App() {\n  return 1;\n}\n";
    let said = "as written, the file's brackets cross: the `)` on line 5 meets the `{` opened on \
                line 1 (srview matches them outside strings and comments; the file before \
                matched each): send the new text with each block closed where it ends";
    let stderr = assert_edit_doubted_and_held_back(
        root,
        ("ue.js", before),
        (
            "  load();\n}, [id]);\n",
            "  load();\n  if (id) {\n    save();\n  }, [id]);\n}\n",
        ),
        &format!("    ! {said}\n"),
    );
    assert_contains(&stderr, said);
    // Each block closed where it ends: exact, exit 0.
    check_edit_exits(
        0,
        ("ue.js", before),
        (
            "  load();\n}, [id]);\n",
            "  load();\n  if (id) {\n    save();\n  }\n}, [id]);\n",
        ),
    );
}

/// A tester's find (round 40a, 01): an edit adding a second definition of
/// a shell function, a Ruby method or a Make target's recipe was called
/// exact and written; the later definition wins when the file runs (bash,
/// Ruby, GNU make: tests/fixtures/trust/defines/cases.json), so the
/// model's new one, written above, never ran. `check` exits 1 naming both
/// lines, `apply --write` holds the file back; the same edit into an
/// `if`'s other branch (shell) or a rule without a recipe (make) passes.
#[test]
fn a_shell_function_ruby_method_or_make_recipe_added_again_is_held_back() {
    let cases = [
        (
            "run.sh",
            "#!/bin/bash\nset -e\n\nusage() {\n  echo \"usage: run.sh FILE\"\n}\n\nbuild() {\n  make all\n}\n\nbuild\n",
            "set -e\n",
            "set -e\n\nbuild() {\n  make all -j4\n}\n",
            "as written, the file defines function `build` twice at its top level, at lines 4 \
             and 12: bash keeps the later one (line 12) without a word, and the one at line 4 \
             never runs",
        ),
        (
            "cart.rb",
            "class Cart\n  def initialize\n    @items = []\n  end\n\n  def total\n    @items.size\n  end\nend\n",
            "  def initialize\n    @items = []\n  end\n",
            "  def initialize\n    @items = []\n  end\n\n  def total\n    @items.sum(&:price)\n  end\n",
            "as written, the file defines method `total` twice in `class Cart` (line 1), at lines \
             6 and 10: Ruby keeps the later one (line 10)",
        ),
        (
            "Makefile",
            "all: build\n\nbuild:\n\tgcc -o app main.c\n\ntest:\n\t./app --test\n",
            "all: build\n",
            "all: build\n\nbuild:\n\tgcc -O2 -o app main.c\n",
            "as written, the Makefile gives target `build` two recipes, at lines 3 and 6: make \
             runs the later one (line 6), saying only \"warning: overriding recipe for target \
             'build'\"",
        ),
    ];
    for (name, content, old, new, said) in cases {
        let dir = support::files::folder(&[(name, content)]);
        let stderr =
            assert_edit_doubted_and_held_back(dir.path(), (name, content), (old, new), said);
        assert_contains(&stderr, &format!("srview: {name} was not written: {said}"));
    }
    let fine = [
        (
            "run.sh",
            "#!/bin/bash\nif [ -n \"$FAST\" ]; then\n  build() { make -j4; }\nfi\n",
            "fi\n",
            "else\n  build() { make; }\nfi\n",
        ),
        (
            "Makefile",
            "build: main.c\n\tgcc -o app main.c\n",
            "\tgcc -o app main.c\n",
            "\tgcc -o app main.c\n\nbuild: util.c\n",
        ),
    ];
    for (name, content, old, new) in fine {
        check_edit_exits(0, (name, content), (old, new));
    }
}

/// A tester's find (round 40a, 10): a method made abstract, or a
/// `Protocol`'s member, whose body is `...` was held as "stands in for
/// lines it leaves out". `check` exits 0 and `apply --write` writes it;
/// the same `...` in a plain class is still held back.
#[test]
fn an_abstract_method_or_protocol_member_whose_body_is_an_ellipsis_is_written() {
    let get = "    def get(self, key: str) -> bytes:\n        data = self._db.read(key)\n        self._hits += 1\n        log(key)\n        return data\n";
    let declared = "    def get(self, key: str) -> bytes:\n        ...\n";
    let cases = [
        (
            "from abc import ABC, abstractmethod\n\n\nclass Store(ABC):\n",
            format!("    @abstractmethod\n{declared}"),
        ),
        (
            "from typing import Protocol\n\n\nclass Store(Protocol):\n",
            declared.to_string(),
        ),
    ];
    for (head, new) in cases {
        let content = format!("{head}{get}");
        let dir = support::files::folder(&[("store.py", content.as_str())]);
        let out = check_edit_in(dir.path(), "store.py", get, &new);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
        let write = run_in(dir.path(), &["apply", "store.py", "e.json", "--write"]);
        assert_eq!(write.status.code(), Some(0), "{}", text(&write.stderr));
        assert_eq!(
            std::fs::read_to_string(dir.path().join("store.py")).expect("read"),
            format!("{head}{new}")
        );
    }
    let plain = format!("class Store(Base):\n{get}");
    let dir = support::files::folder(&[("store.py", plain.as_str())]);
    assert_edit_doubted_and_held_back(
        dir.path(),
        ("store.py", &plain),
        (get, declared),
        "its new text stands in for lines it leaves out (its line 2: `...`)",
    );
}

/// A tester's find (42c-12): an Aider block with `...` lines that Aider's
/// `try_dotdotdots` refuses was explained as a SEARCH line (the `...`)
/// missing from the file. Now `check` and `fix` say the rule that failed: a
/// REPLACE `...` written otherwise than the SEARCH's (and `fix` writes it as
/// the SEARCH's, placed exactly by Aider), and a piece an earlier piece's
/// REPLACE adds again (no corrected reply: two blocks are needed).
#[test]
fn an_aider_dotdotdots_refusal_is_said_by_its_rule() {
    let app = "class Service:\n    def run(self, x):\n        if x:\n            return x\n        return None\n\n\ndef helper(x):\n    return x\n\n\ndef main():\n    print(helper(1))\n";
    let unmatched = "app.py\n```python\n<<<<<<< SEARCH\n    def run(self, x):\n...\ndef helper(x):\n    return x\n=======\n    def run(self, x: int):\n    ...\ndef helper(x):\n    return x * 2\n>>>>>>> REPLACE\n```\n";
    let twice = "app.py\n```python\n<<<<<<< SEARCH\nclass Service:\n...\ndef helper(x):\n    return x\n\n\n=======\ndef helper(x):\n    return x\n\n\nclass Service:\n...\n>>>>>>> REPLACE\n```\n";
    let dir = support::files::folder(&[
        ("app.py", app),
        ("unmatched.md", unmatched),
        ("twice.md", twice),
    ]);
    let run = |cmd: &str, name: &str| {
        run_in(
            dir.path(),
            &[cmd, "app.py", name, "--dialect", "aider-diff"],
        )
    };
    let said_unmatched = "its REPLACE's `...` line `    ...` is not written as its SEARCH's \
                          `...`: Aider needs each pair of `...` lines alike, so it refuses the \
                          block (\"Unmatched ... in SEARCH/REPLACE block\"): write the REPLACE's \
                          `...` lines exactly as the SEARCH's";
    let checked = run("check", "unmatched.md");
    assert_eq!(checked.status.code(), Some(1));
    assert_contains(
        &text(&checked.stdout),
        &format!("edit 1: {said_unmatched}\n"),
    );
    let fixed = run("fix", "unmatched.md");
    assert_eq!(fixed.status.code(), Some(0), "{}", text(&fixed.stderr));
    assert_eq!(
        text(&fixed.stderr),
        format!(
            "srview: block #1 (reply lines 3-13): {said_unmatched}\nsrview: corrected the \
             reply's blocks for app.py (placed exactly by Aider 0.86.2's diff edit format)\n"
        )
    );
    assert_eq!(
        text(&fixed.stdout),
        unmatched.replace("    ...\ndef", "...\ndef")
    );
    std::fs::write(dir.path().join("fixed.md"), &fixed.stdout).expect("written");
    let applied = run("apply", "fixed.md");
    assert_eq!(applied.status.code(), Some(0), "{}", text(&applied.stderr));
    assert_eq!(
        text(&applied.stdout),
        app.replace("def run(self, x):", "def run(self, x: int):")
            .replace(
                "    return x\n\n\ndef main",
                "    return x * 2\n\n\ndef main"
            )
    );

    let said_twice = "its SEARCH piece 2 (from `def helper(x):`) stands once in the file but at \
                      2 places once the pieces before it are replaced (their REPLACE adds it \
                      again): Aider replaces the pieces one after another and refuses a piece \
                      standing at more than one place: send two blocks, the one that removes it \
                      first";
    let checked = run("check", "twice.md");
    assert_eq!(checked.status.code(), Some(1));
    assert_contains(&text(&checked.stdout), &format!("edit 1: {said_twice}\n"));
    let refused = run("fix", "twice.md");
    assert_eq!(refused.status.code(), Some(1));
    assert!(refused.stdout.is_empty());
    assert_eq!(
        text(&refused.stderr),
        format!(
            "srview: block #1 (reply lines 3-17): {said_twice}\nsrview: no corrected reply: \
             srview cannot place every block of app.py\n"
        )
    );
}

/// A tester's find (43b-12): `fix` mended a REPLACE whose `...` line was
/// written otherwise than the SEARCH's, but not one writing a stand-in in
/// its place (`…`, `    # ...`), which Aider 0.86.2 refuses (its shipped
/// `replace_most_similar_chunk`, from the wheel, returns None: "Unpaired
/// ..."). `check` says it, `fix` writes the stand-in as the SEARCH's
/// `...` line, and Aider places the mended block (the same code returns
/// the content `apply` prints). A SEARCH without `...` whose REPLACE
/// writes `    …`: Aider writes the `…` literally (the same code returns
/// `    a = 10\n    …\n    c = 30`), `b = 2` gone; srview called it exact
/// and wrote it. `check` says the stand-in, exit 1; `--write` holds it
/// back; `fix` offers no block. The same for an ASCII `...` beside the
/// body's other statements; a stub's `...` alone is an ordinary edit.
#[test]
fn an_aider_stand_in_for_dots_is_said_and_mended_only_where_certain() {
    let file = "def f():\n    a = 1\n    b = 2\n    c = 3\n    return a\n";
    let block = |search: &str, replace: &str| {
        format!("a.py\n```\n<<<<<<< SEARCH\n{search}=======\n{replace}>>>>>>> REPLACE\n```\n")
    };
    let dotted = "    a = 1\n...\n    c = 3\n";
    let dir = support::files::folder(&[("a.py", file)]);
    let run =
        |cmd: &str, name: &str| run_in(dir.path(), &[cmd, "a.py", name, "--dialect", "aider-diff"]);
    for (name, stand_in) in [("ellipsis.md", "\u{2026}"), ("comment.md", "    # ...")] {
        let reply = block(dotted, &format!("    a = 10\n{stand_in}\n    c = 30\n"));
        std::fs::write(dir.path().join(name), &reply).expect("write");
        let said = format!(
            "its REPLACE writes `{}` where its SEARCH has a `...` line: Aider reads only a line \
             of `...` alone as one and would write any other line as it stands, so the pieces \
             do not pair and it refuses the block (\"Unpaired ... in SEARCH/REPLACE block\"): \
             write the REPLACE's `...` lines exactly as the SEARCH's",
            stand_in.trim()
        );
        let checked = run("check", name);
        assert_eq!(checked.status.code(), Some(1), "{name}");
        assert_contains(&text(&checked.stdout), &format!("edit 1: {said}\n"));
        let fixed = run("fix", name);
        assert_eq!(
            (fixed.status.code(), text(&fixed.stderr)),
            (
                Some(0),
                format!(
                    "srview: block #1 (reply lines 3-11): {said}\nsrview: corrected the \
                     reply's blocks for a.py (placed exactly by Aider 0.86.2's diff edit format)\n"
                )
            ),
            "{name}"
        );
        assert_eq!(
            text(&fixed.stdout),
            block(dotted, "    a = 10\n...\n    c = 30\n"),
            "{name}"
        );
        std::fs::write(dir.path().join("fixed.md"), &fixed.stdout).expect("write");
        let applied = run("apply", "fixed.md");
        assert_eq!(
            (applied.status.code(), text(&applied.stdout)),
            (
                Some(0),
                "def f():\n    a = 10\n    b = 2\n    c = 30\n    return a\n".to_string()
            ),
            "{name}"
        );
    }
    // Two stand-ins for one `...`: which one stands for it is not
    // certain, so no corrected reply.
    let two = block(dotted, "    a = 10\n    # ...\n    # ...\n    c = 30\n");
    std::fs::write(dir.path().join("two.md"), &two).expect("write");
    let refused = run("fix", "two.md");
    assert_eq!(refused.status.code(), Some(1));
    assert!(refused.stdout.is_empty());

    // The same with an ASCII `...` beside the body's other statements
    // (a helper's find, round 44: Aider writes it as code, the same code
    // returning `    a = 10\n    ...\n    c = 30`; srview called it exact):
    // it does nothing there, and stands in for `b = 2`.
    for stand_in in ["\u{2026}", "..."] {
        let literal = block(
            "    a = 1\n    b = 2\n    c = 3\n",
            &format!("    a = 10\n    {stand_in}\n    c = 30\n"),
        );
        std::fs::write(dir.path().join("literal.md"), &literal).expect("write");
        let doubt = format!(
            "edit 1: its new text stands in for lines it leaves out (its line 2: `{stand_in}`), \
             so it deletes 3 non-blank lines of the text it replaces: send every line the \
             edit keeps, or edit only the lines that change"
        );
        let checked = run("check", "literal.md");
        assert_eq!(
            (checked.status.code(), text(&checked.stdout)),
            (
                Some(1),
                format!(
                    "edit 1: perfect at lines 2-4 (exact)\nwarning: {doubt}\nthe agent says: \
                     Applied edit to a.py\n"
                )
            )
        );
        let write = run_in(
            dir.path(),
            &[
                "apply",
                "a.py",
                "literal.md",
                "--dialect",
                "aider-diff",
                "--write",
            ],
        );
        assert_eq!(
            (write.status.code(), text(&write.stderr)),
            (
                Some(1),
                format!("srview: nothing written: {doubt} (--force writes it)\n")
            )
        );
        assert_eq!(
            std::fs::read_to_string(dir.path().join("a.py")).expect("read"),
            file
        );
        let unfixed = run("fix", "literal.md");
        assert_eq!(unfixed.status.code(), Some(1));
        assert!(unfixed.stdout.is_empty());
    }
    // A stub: a short body replaced by `...` alone is what the model
    // asked, an ordinary edit.
    support::files::write(dir.path(), "a.py", b"def g():\n    x = 2\n    return x\n");
    let stub = block("    x = 2\n    return x\n", "    ...\n");
    std::fs::write(dir.path().join("stub.md"), &stub).expect("write");
    let checked = run("check", "stub.md");
    assert_eq!(
        (checked.status.code(), text(&checked.stdout)),
        (
            Some(0),
            "edit 1: perfect at lines 2-3 (exact)\nthe agent says: Applied edit to a.py\n"
                .to_string()
        )
    );
}

/// A tester's find (43a-10): `fix` "corrected" an old text Gemini CLI's
/// `regex` stage (OpenCode's `WhitespaceNormalizedReplacer`) matched at
/// the start of a line to the whole line with the model's new text, the
/// line's rest the model never saw dropped (`[0]`, ` or 0`), exit 0. The
/// correction keeps it: applied, it writes what the agent's own loose
/// match writes. A match ending inside a word (`retries = 1` of
/// `retries = 10`) gets none: exit 1, nothing on stdout, the word said.
#[test]
fn fix_keeps_the_rest_of_a_line_a_loose_stage_matched_part_of() {
    let file = "def first(rows, cache, key):\n    row = fetch(rows)[0]\n    value = cache.get(key) or 0\n    retries = 10\n    return row\n";
    let dir = support::files::folder(&[("z.py", file)]);
    let root = dir.path();
    for (dialect, input, want_old, want_new) in [
        (
            "gemini-replace",
            r#"{"file_path":"z.py","instruction":"x","old_string":"    row  = fetch(rows)","new_string":"    row = fetch(rows, limit=1)"}"#,
            "    row = fetch(rows)[0]",
            "    row = fetch(rows, limit=1)[0]",
        ),
        (
            "opencode-edit",
            r#"{"filePath":"z.py","oldString":"    value  = cache.get(key)","newString":"    value = cache.get(key, ttl=5)"}"#,
            "    value = cache.get(key) or 0",
            "    value = cache.get(key, ttl=5) or 0",
        ),
    ] {
        let out = run_on_input(root, ["fix", "z.py", "e.json"], input, dialect);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{dialect}: {}",
            text(&out.stderr)
        );
        let fixed = support::runner::stdout_json(&out);
        let (old, new) = match dialect {
            "opencode-edit" => ("oldString", "newString"),
            _ => ("old_string", "new_string"),
        };
        assert_eq!(fixed[old], want_old, "{dialect}");
        assert_eq!(fixed[new], want_new, "{dialect}");
        // Applied, the correction changes the line and keeps its rest: the
        // agent's own result of the input as sent (Gemini CLI's; OpenCode's
        // writes the model's new text, indentation and all, after the
        // line's indentation it left out of its match).
        let corrected = run_on_input(
            root,
            ["apply", "z.py", "f.json"],
            &text(&out.stdout),
            dialect,
        );
        assert_eq!(corrected.status.code(), Some(0), "{dialect}");
        let meant = file.replacen(want_old, want_new, 1);
        assert_eq!(text(&corrected.stdout), meant, "{dialect}");
        let own = run_on_input(root, ["apply", "z.py", "e.json"], input, dialect);
        let own_line = match dialect {
            "opencode-edit" => format!("    {want_new}"),
            _ => want_new.to_string(),
        };
        assert_eq!(
            text(&own.stdout),
            file.replacen(want_old, &own_line, 1),
            "{dialect}"
        );
    }
    let stale = r#"{"file_path":"z.py","instruction":"x","old_string":"    retries  = 1","new_string":"    retries = 2"}"#;
    let out = run_on_input(root, ["fix", "z.py", "e.json"], stale, "gemini-replace");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(text(&out.stdout), "");
    assert_contains(
        &text(&out.stderr),
        "No corrected edit: the text the agent matched ends inside `10` of file line 4 \
         (`retries = 10`): the old_string is part of a word it does not show",
    );
    assert_eq!(read(&root.join("z.py").to_string_lossy()), file);
    // `check` quotes the file's whole line, not the part matched.
    let checked = run_on_input(root, ["check", "z.py", "e.json"], stale, "gemini-replace");
    assert_contains(
        &text(&checked.stdout),
        "  edit 1: line 4: the file has \"    retries = 10\" where the model wrote \"    retries  = 1\"\n",
    );
}

/// A tester's find (43a-06): a patch hunk whose lines, trimmed, fit two
/// places indented differently was tightened onto the first by `fix` (exit
/// 0, in Codex's, OpenCode's and Cline's patch dialects), the second never
/// named. Now `check` names both, and `fix` exits 1 without a correction.
#[test]
fn fix_does_not_tighten_a_loose_hunk_fitting_two_places() {
    let file = "def load(path):\n    data = read(path)\n    return parse(data)\n\n\nclass Loader:\n    def load(self, path):\n        data = read(path)\n        return parse(data)\n";
    let patch = "*** Begin Patch\n*** Update File: m.py\n@@\n           data = read(path)\n-          return parse(data)\n+          return parse(data, strict=True)\n*** End Patch\n";
    let dir = support::files::folder(&[("m.py", file), ("p.patch", patch)]);
    let root = dir.path();
    let checked = run_in(root, &["check", "m.py", "p.patch"]);
    assert_eq!(checked.status.code(), Some(1));
    assert_contains(
        &text(&checked.stdout),
        "; its lines also fit lines 8-9 as loosely: which place is meant cannot be told\n",
    );
    let said = "hunk #1 is left as written: it matched only loosely (trimmed) at lines 2-3, and \
                its lines fit lines 8-9 as loosely: which place is meant cannot be told";
    let fixed = run_in(root, &["fix", "m.py", "p.patch"]);
    assert_eq!(fixed.status.code(), Some(1));
    assert_contains(&text(&fixed.stderr), said);
    assert_eq!(text(&fixed.stdout), patch, "left as written");
    for dialect in ["opencode-apply-patch", "cline-apply-patch"] {
        let fixed = run_in(root, &["fix", "m.py", "p.patch", "--dialect", dialect]);
        assert_eq!(fixed.status.code(), Some(1), "{dialect}");
        assert_eq!(text(&fixed.stdout), "", "{dialect}");
        assert_contains(&text(&fixed.stderr), said);
    }
}

/// A tester's find (43a-04): a Qwen Code edit whose old text fits line 6
/// by its quote style (where Qwen's loose stage edits) and line 11 by its
/// trailing spaces was corrected onto line 11, exit 0. No correction now:
/// both lines named, exit 1; Gemini CLI's (whose loose stage takes line
/// 11) the same.
#[test]
fn fix_names_both_places_an_old_text_fits_by_different_forms() {
    let readme = "# Tool\n\n## Linux\n\nInstall the package.\nThen run \u{201c}make test\u{201d} first.\n\n## macOS\n\nInstall with brew.\nThen run \"make test\" first.  \n";
    let dir = support::files::folder(&[("README.md", readme)]);
    let root = dir.path();
    let qwen = serde_json::json!({
        "file_path": root.join("README.md"),
        "old_string": "Then run \"make test\" first.\n",
        "new_string": "Then run \"make check\" first.\n",
    })
    .to_string();
    for (dialect, input, placed) in [
        (
            "qwen-edit",
            qwen.as_str(),
            "Qwen Code 0.24.4's edit tool places it at line 6 by its loose stage `normalizeBasicCharacters`",
        ),
        (
            "gemini-replace",
            r#"{"file_path":"README.md","instruction":"x","old_string":"Then run \"make test\" first.\n","new_string":"Then run \"make check\" first.\n"}"#,
            "Gemini CLI 0.61.0's replace tool places it at line 11 by its loose stage `regex`",
        ),
    ] {
        let out = run_on_input(root, ["fix", "README.md", "e.json"], input, dialect);
        assert_eq!(out.status.code(), Some(1), "{dialect}");
        assert_eq!(text(&out.stdout), "", "{dialect}");
        assert_contains(
            &text(&out.stderr),
            &format!(
                "No corrected edit: the old_string fits line 6 and line 11 about as loosely \
                 ({placed}): which place is meant cannot be told"
            ),
        );
    }
}

/// Found by the false-alarm sweep of 43a-10's fix: where the agent places
/// nothing (OpenCode refuses `e  = elem`, found in `e = elem[i]` and in
/// `parent_node = elem...`; Claude Code finds no `fetchh`), srview's own correction
/// widened the old text to the whole line all the same, dropping `[i]`.
/// No correction now, the unseen text named.
#[test]
fn fix_offers_no_whole_line_correction_dropping_what_the_text_did_not_show() {
    let file = "def f(elem, i, rows):\n    e = elem[i]\n    parent_node = elem.getparent()\n    row = fetch(rows)[0]\n    return e, parent_node, row\n";
    let dir = support::files::folder(&[("f.py", file)]);
    let root = dir.path();
    for (dialect, input, said) in [
        (
            "opencode-edit",
            r#"{"filePath":"f.py","oldString":"    e  = elem","newString":"    e = elem_x"}"#,
            "No corrected edit: line 1 of the text does not show `[i]` of file line 2 (`e = \
             elem[i]`), which the corrected edit, the whole line, would write away",
        ),
        (
            "edit-json",
            r#"{"file_path":"f.py","old_string":"    row = fetchh(rows)","new_string":"    row = fetch(rows, limit=1)"}"#,
            "No corrected edit: line 1 of the text does not show `[0]` of file line 4 (`row = \
             fetch(rows)[0]`)",
        ),
    ] {
        let out = run_on_input(root, ["fix", "f.py", "e.json"], input, dialect);
        assert_eq!(
            out.status.code(),
            Some(1),
            "{dialect}: {}",
            text(&out.stderr)
        );
        assert_eq!(text(&out.stdout), "", "{dialect}");
        assert_contains(&text(&out.stderr), said);
    }
}

/// A tester's find (43b-10): a loose match of part of a line whose new
/// text already writes what the line keeps unseen (`result = fetch(rows)` ->
/// `result = fetch_all(rows)[0]` over `result = fetch(rows)[0]  # first`)
/// was corrected to `[0][0]`; at the line's start, OpenCode's `value =
/// value = ...`. Now no correction, the text that would stand twice named.
#[test]
fn fix_keeps_no_rest_the_new_text_writes_again() {
    let dir = support::files::folder(&[
        (
            "g.py",
            "def get(rows):\n    result = fetch(rows)[0]  # first\n    return result\n",
        ),
        (
            "v.py",
            "def f(x, y, offset):\n    value = compute(x)  + offset\n    return value\n",
        ),
    ]);
    let root = dir.path().display().to_string();
    let gemini = format!(
        r#"{{"file_path":"{root}/g.py","old_string":"result = fetch( rows )","new_string":"result = fetch_all(rows)[0]","instruction":"x"}}"#
    );
    let opencode = format!(
        r#"{{"filePath":"{root}/v.py","oldString":"compute(x) + offset","newString":"value = compute(y) + offset"}}"#
    );
    for (file, input, dialect, again) in [
        ("g.py", gemini, "gemini-replace", "`[0]`"),
        ("v.py", opencode, "opencode-edit", "`value =`"),
    ] {
        std::fs::write(dir.path().join("e.json"), input).expect("written");
        let out = run_in(dir.path(), &["fix", file, "e.json", "--dialect", dialect]);
        assert_eq!(
            out.status.code(),
            Some(1),
            "{dialect}: {}",
            text(&out.stdout)
        );
        assert!(out.stdout.is_empty());
        assert_contains(
            &text(&out.stderr),
            &format!(
                "and the new text already holds {again}, which the line keeps beside the part matched: kept, it would stand twice"
            ),
        );
    }
}

/// A tester's find (43b-09): a file of LF lines with one stray CRLF line,
/// which pi writes all LF, was said to "mix CRLF, CR and LF endings"; it
/// has no CR line.
#[test]
fn a_stray_crlf_line_is_said_as_the_endings_the_file_has() {
    let dir = support::files::folder(&[("s.py", "a = 1\nb = 2\r\nc = 3\nd = 4\n")]);
    let input = format!(
        r#"{{"path":"{}/s.py","edits":[{{"oldText":"c = 3","newText":"c = 30"}}]}}"#,
        dir.path().display()
    );
    std::fs::write(dir.path().join("pi.json"), input).expect("written");
    let out = run_in(
        dir.path(),
        &["check", "s.py", "pi.json", "--dialect", "pi-edit"],
    );
    assert_eq!(out.status.code(), Some(1));
    assert_contains(
        &text(&out.stdout),
        "the file's lines mix CRLF and LF endings and the agent writes every line with LF, so 1 \
         line outside the edit changes its ending",
    );
}

/// Cline 3.x's similarity stage in check's words ([`srview::dialect::placed`]).
const CLINE_SIMILARITY: &str = "Cline's similarity stage takes the FIRST window at least 0.66 \
    similar, not the best one: in Cline's own corpus about half of these hunks land elsewhere \
    than meant, and Cline reports them as success (\"fuzz factor 1000\")";

/// `check FILE p.patch --dialect cline-apply-patch` in a folder holding
/// FILE with `content`, which exits 1 (a loose stage placed the patch):
/// the folder and stdout.
fn cline_loose_check(file: &str, content: &str, patch: &str) -> (tempfile::TempDir, String) {
    let dir = support::files::folder(&[(file, content)]);
    let out = run_on_input(
        dir.path(),
        ["check", file, "p.patch"],
        patch,
        "cline-apply-patch",
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let said = text(&out.stdout);
    (dir, said)
}

/// The first two lines `check` says of Cline's edit 1 placed at `lines`
/// by its similarity stage `stage`.
fn cline_loose_header(stage: &str, lines: &str) -> String {
    format!(
        "edit 1: {stage} at lines {lines} (loose)\nwarning: edit 1 was placed at lines {lines} by \
         {stage}, a loose stage of Cline 3.0.65's apply_patch tool: the text it replaced is not \
         the text the model wrote; {CLINE_SIMILARITY}\n"
    )
}

/// A tester's find (43a-03): Cline 3.x's similarity stage placed a hunk
/// written for `load_groups` on `load_users`, the first window similar
/// enough, and `check` said only "similarity at lines 1-4". It says each
/// line that differs, that lines 1-4 are another definition (and where
/// the model's stands), and what Cline writes there; `apply --write`
/// holds it back, the file unchanged.
#[test]
fn a_similarity_placement_in_another_function_is_said_and_held_back() {
    let before = "def load_users(path):\n    with open(path) as f:\n        data = json.load(f)\n    return [User(**row) for row in data]\n\n\ndef load_groups(path):\n    with open(path) as f:\n        data = json.load(f)\n    return [Group(**row) for row in data]\n";
    let patch = "*** Begin Patch\n*** Update File: a.py\n@@\n def load_groups(path):\n     with open(path, encoding=\"utf-8\") as f:\n-        data = json.load(f)\n+        data = json.loads(f.read())\n     return [Group(**row) for row in data]\n*** End Patch\n";
    let (dir, said) = cline_loose_check("a.py", before, patch);
    assert_eq!(
        said,
        format!(
            "{}\
             \x20 edit 1: line 1: the file has \"def load_users(path):\" where the model wrote \
             \"def load_groups(path):\"\n\
             \x20 edit 1: line 2: the file has \"    with open(path) as f:\" where the model wrote \
             \"    with open(path, encoding=\\\"utf-8\\\") as f:\"\n\
             \x20 edit 1: line 4: the file has \"    return [User(**row) for row in data]\" where \
             the model wrote \"    return [Group(**row) for row in data]\"\n\
             \x20 edit 1: placed in another definition: line 1 reads \"def load_users(path):\", \
             the model wrote its text for \"def load_groups(path):\" (which stands at line 7)\n\
             \x20 edit 1: Cline 3.0.65's apply_patch tool replaces line 3 \"        data = \
             json.load(f)\" with 1 line: \"        data = json.loads(f.read())\"\n\
             the agent says: Successfully applied patch to the following files:\n\
             a.py\n\
             Note: Patch applied with fuzz factor 1000\n",
            cline_loose_header("similarity", "1-4")
        )
    );
    let held = run_in(
        dir.path(),
        &[
            "apply",
            "a.py",
            "p.patch",
            "--dialect",
            "cline-apply-patch",
            "--write",
        ],
    );
    assert_eq!(held.status.code(), Some(1));
    assert_eq!(
        text(&held.stderr),
        format!(
            "srview: nothing written: edit 1 was placed at lines 1-4 by similarity, a loose \
             stage of Cline 3.0.65's apply_patch tool: the text it replaced is not the text the \
             model wrote; {CLINE_SIMILARITY} (--force writes it)\n"
        )
    );
    assert_eq!(read(&dir.path().join("a.py").display().to_string()), before);
}

/// A tester's find (43a-14): Cline 3.x searches an `*** End of File`
/// section from `lines.length - context.length`, where `lines` holds the
/// empty rest after the final newline, so the similarity stage takes the
/// window one line down (as in its corpus, case pub-00013): the removed
/// `return count` stays, the new line is appended after it and the final
/// newline is gone. `check` said only "eof+similarity at lines 4-7"; it
/// says the shift, the end of the file, and what Cline writes there.
#[test]
fn an_end_of_file_section_shifted_by_similarity_says_what_cline_writes() {
    let before = "def total(items):\n    count = 0\n    for item in items:\n        count += item.price\n        count -= item.discount\n        count += item.tax\n    return count\n";
    let patch = "*** Begin Patch\n*** Update File: cart.py\n@@\n     for item in items:\n         count += item.price\n         count -= item.discount\n         count += item.tax\n-    return count\n+    return round(count, 2)\n*** End of File\n*** End Patch\n";
    let (dir, said) = cline_loose_check("cart.py", before, patch);
    assert_eq!(
        said,
        format!(
            "{}\
             \x20 edit 1: line 4: the file has \"        count += item.price\" where the model \
             wrote \"    for item in items:\"\n\
             \x20 edit 1: line 5: the file has \"        count -= item.discount\" where the model \
             wrote \"        count += item.price\"\n\
             \x20 edit 1: line 6: the file has \"        count += item.tax\" where the model wrote \
             \"        count -= item.discount\"\n\
             \x20 edit 1: and 1 more differing line\n\
             \x20 edit 1: the file ends after line 7, where the model wrote 1 more line: \"    \
             return count\"\n\
             \x20 edit 1: Cline 3.0.65's apply_patch tool writes 1 line after line 7, the file's \
             last line, in place of its final newline: \"    return round(count, 2)\"\n\
             the agent says: Successfully applied patch to the following files:\n\
             cart.py\n\
             Note: Patch applied with fuzz factor 1000\n",
            cline_loose_header("eof+similarity", "4-7")
        )
    );
    // What `check` says is what Cline writes.
    let applied = run_in(
        dir.path(),
        &[
            "apply",
            "cart.py",
            "p.patch",
            "--dialect",
            "cline-apply-patch",
        ],
    );
    assert_eq!(
        text(&applied.stdout),
        before.replacen(
            "    return count\n",
            "    return count\n    return round(count, 2)",
            1
        )
    );
}

/// A tester's find (43a-05): Gemini CLI's fuzzy stage (`allow_multiple`)
/// rewrote a second window, whose line 12 (`self.drain()`, not the
/// model's `self.flush()`) it overwrote: `check` listed only the first
/// window's differing lines. Each window's are listed.
#[test]
fn a_fuzzy_second_window_lists_its_own_differing_lines() {
    let before = "def start(self):\n    if self.ready is None:\n        raise RuntimeError(\"not ready\")\n    self.count += 1\n    self.flush()\n    return None\n\ndef stop(self):\n    if self.ready is None:\n        raise RuntimeError(\"not ready\")\n    self.count += 1\n    self.drain()\n    return None\n";
    let dir = support::files::folder(&[("s.py", before)]);
    let input = r#"{"file_path":"s.py","instruction":"count by two","old_string":"    ifzself.ready is None:\n        raise RuntimeError(\"not ready\")\n    self.count += 1\n    self.flush()\n    return None","new_string":"    if self.ready is None:\n        raise RuntimeError(\"not ready\")\n    self.count += 2\n    self.flush()\n    return None","allow_multiple":true}"#;
    let out = run_on_input(
        dir.path(),
        ["check", "s.py", "g.json"],
        input,
        "gemini-replace",
    );
    assert_eq!(out.status.code(), Some(1));
    let said = text(&out.stdout);
    assert_starts_with(
        &said,
        "edit 1: fuzzy at lines 2-6 and lines 9-13 (loose)\n\
         warning: edit 1 was placed at lines 2-6 and lines 9-13 by fuzzy, a loose stage of \
         Gemini CLI 0.61.0's replace tool: the text it replaced is not the text the model wrote\n\
         note: Gemini CLI 0.61.0's replace tool replaces every occurrence: it changes lines 2-6 \
         and also lines 9-13\n\
         \x20 edit 1: line 2: the file has \"    if self.ready is None:\" where the model wrote \
         \"    ifzself.ready is None:\"\n\
         \x20 edit 1: line 9: the file has \"    if self.ready is None:\" where the model wrote \
         \"    ifzself.ready is None:\"\n\
         \x20 edit 1: line 12: the file has \"    self.drain()\" where the model wrote \"    \
         self.flush()\"\n\
         the agent says: Successfully modified file: ",
    );
}

/// A tester's find (43b-09): `check` called Gemini CLI's, Qwen Code's and
/// Claude Code's matcher "the reference", a name neither the user nor the
/// model knows: each is named.
#[test]
fn check_names_the_agents_matcher_never_the_reference() {
    let mixed = "a = 1\r\nb = 2\r\nc = 3\nd = 4\r\n";
    let dir = support::files::folder(&[("m.py", mixed)]);
    let root = dir.path().display().to_string();
    let sentence = |own: &str| {
        format!(
            "the file mixes CRLF and LF line endings, and {own} writes every line with CRLF, \
             whatever the edit's text: 1 line outside the edit (line 3) changes its ending to \
             CRLF: tell the user, who can unify the file's line endings first"
        )
    };
    let gemini =
        r#"{"file_path":"m.py","instruction":"x","old_string":"a = 1","new_string":"a = 5"}"#;
    let qwen =
        format!(r#"{{"file_path":"{root}/m.py","old_string":"a = 1","new_string":"a = 5"}}"#);
    for (input, dialect, first, own) in [
        (
            gemini.to_string(),
            "gemini-replace",
            "exact",
            "Gemini CLI 0.61.0's replace tool",
        ),
        (qwen, "qwen-edit", "literal", "Qwen Code 0.24.4's edit tool"),
    ] {
        let out = run_on_input(dir.path(), ["check", "m.py", "e.json"], &input, dialect);
        assert_eq!(out.status.code(), Some(1), "{dialect}");
        assert_starts_with(
            &text(&out.stdout),
            &format!(
                "edit 1: {first} at line 1 (exact)\nwarning: {}\nthe agent says: ",
                sentence(own)
            ),
        );
    }
    let claude = r#"{"file_path":"m.py","old_string":"a = 1","new_string":"a = 5"}"#;
    let out = run_on_input(dir.path(), ["check", "m.py", "e.json"], claude, "edit-json");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stdout),
        format!(
            "m.py: block #1 (Edit): applies, stage exact, 1 occurrence\n    ! {}\n",
            sentence("Claude Code's Edit")
        )
    );
    let held = run_in(dir.path(), &["apply", "m.py", "e.json", "--write"]);
    assert_eq!(held.status.code(), Some(1));
    assert_eq!(
        text(&held.stderr),
        format!(
            "srview: m.py was not written: {} (--force writes it)\n",
            sentence("Claude Code's Edit")
        )
    );
}

/// A tester's find (43a-09): OpenCode's edit failed, and the closest
/// region `check` named was the other class's method, by similarity alone,
/// while the old text's first and last lines (where OpenCode's
/// BlockAnchorReplacer looks) stand at this one's; or at both classes'.
/// Both places are said and no correction is offered.
#[test]
fn a_closest_region_the_anchors_do_not_point_at_is_said_with_theirs() {
    let one_anchored = "class Reader:\n    def load(self, path):\n        self.target = path\n        self.handle = open(path, \"w\")\n        return self.data\n\n\nclass Writer:\n    def load(self, path):\n        log.debug(\"opening\")\n        stream = create_stream()\n        return self.handle\n";
    let both_anchored = "class Reader:\n    def load(self, path):\n        self.path = path\n        self.data = open(path).read()\n        return self\n\n\nclass Writer:\n    def load(self, path):\n        self.target = path\n        self.handle = open(path, \"w\")\n        return self\n";
    let one = r#"{"filePath":"k.py","oldString":"    def load(self, path):\n        self.target = path\n        self.handle = open(path, \"w\")\n        return self.handle","newString":"    def load(self, path):\n        return self.handle"}"#;
    let both = r#"{"filePath":"k.py","oldString":"    def load(self, path):\n        log.debug(\"writer open\")\n        stream_for_output = create()\n        return self","newString":"    def load(self, path):\n        return self"}"#;
    let failed = "edit 1: not placed (none)\nerror: the agent fails:\nCould not find oldString in \
                  the file. It must match exactly, including whitespace, indentation, and line \
                  endings.\n";
    for (content, input, said) in [
        (
            one_anchored,
            one,
            "edit 1: oldString does not occur in the file; closest: lines 2-5 (similarity 0.96): \
             the closest region of the file has different content. Its first and last lines \
             stand at lines 9-12, where OpenCode 1.18.33's edit tool looks with its block-anchor \
             stage, not at the closest region: which one is meant cannot be told. No corrected \
             edit: send the oldString with context that occurs only at the intended place.\n",
        ),
        (
            both_anchored,
            both,
            "edit 1: oldString does not occur in the file; closest: lines 2-5 (similarity 0.72): \
             the closest region of the file has different content. Its first and last lines \
             stand at lines 2-5 and lines 9-12, the places OpenCode 1.18.33's edit tool weighs \
             with its block-anchor stage: which one is meant cannot be told from them. No \
             corrected edit: send the oldString with context that occurs only at the intended \
             place.\n",
        ),
    ] {
        let dir = support::files::folder(&[("k.py", content)]);
        let out = run_on_input(
            dir.path(),
            ["check", "k.py", "e.json"],
            input,
            "opencode-edit",
        );
        assert_eq!(out.status.code(), Some(1));
        assert_eq!(
            text(&out.stdout),
            format!(
                "{failed}{said}no corrected edit: srview cannot stand behind a correction of \
                 this edit\n"
            )
        );
    }
}

/// A tester's find (43a-19): pi refused an edit whose text it counts at
/// two places once normalized, and `check` gave only pi's count: line 1
/// holds the text in curly quotes, line 2 with white space after it. Both
/// places are said, with what was normalized at each.
#[test]
fn pis_count_of_normalized_places_says_what_was_normalized() {
    let dir = support::files::folder(&[(
        "q.py",
        "name = \u{201c}Ada\u{201d}\nname = \"Ada\"   \nother = 1\n",
    )]);
    let path = dir.path().join("q.py").display().to_string();
    let input = format!(
        r#"{{"path":"{path}","edits":[{{"oldText":"name = \"Ada\"","newText":"name = \"Bob\""}}]}}"#
    );
    let out = run_on_input(dir.path(), ["check", "q.py", "pi.json"], &input, "pi-edit");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stdout),
        format!(
            "edit 1: not placed\nerror: the agent fails:\nFound 2 occurrences of the text in \
             {path}. The text must be unique. Please provide more context to make it unique.\n\
             edit 1: pi counts the old text's places with the file and the text normalized \
             (NFKC, each line's trailing white space removed, typographic quotes, dashes and \
             spaces made ASCII): it stands at line 1 (typographic quotes, dashes or spaces \
             normalized) and line 2 (trailing white space normalized)\n"
        )
    );
}

/// A helper's find (round 44): an old text at two places was diagnosed
/// for Gemini CLI with Claude Code's flag (`set replace_all`), which Gemini
/// CLI does not read. Each agent's own flag is named; pi, which has none,
/// gets no such advice.
#[test]
fn an_old_text_at_two_places_names_the_agents_own_replace_all_flag() {
    let (dir, file) = project_with("amb.py", "a = 1\nb = 2\na = 1\n");
    let cases = [
        (
            "gemini-replace",
            r#"{"file_path": "FILE", "instruction": "x", "old_string": "a = 1", "new_string": "a = 3"}"#,
            "old_string",
            " or set allow_multiple to true to change every one.",
        ),
        (
            "qwen-edit",
            r#"{"file_path": "FILE", "old_string": "a = 1", "new_string": "a = 3"}"#,
            "old_string",
            " or set replace_all to true to change every one.",
        ),
        (
            "pi-edit",
            r#"{"path": "FILE", "edits": [{"oldText": "a = 1", "newText": "a = 3"}]}"#,
            "oldText",
            "",
        ),
    ];
    for (dialect, input, field, flag) in cases {
        let input = input.replace("FILE", &file);
        let out = run_on_input(
            dir.path(),
            ["check", "amb.py", "edit.json"],
            &input,
            dialect,
        );
        let said = format!(
            "edit 1: {field} occurs 2 times (line 1, line 3): the edit cannot tell which is \
             meant, so no corrected edit is offered. Add context that occurs only at the \
             intended place{}\n",
            if flag.is_empty() {
                ".".to_string()
            } else {
                format!(",{flag}")
            }
        );
        assert_contains(&text(&out.stdout), &said);
    }
}

/// An old text that occurs nowhere as sent, whose trimmed text stands at
/// two equal places: each named, neither picked as the closest (a tester's
/// find, 43b-06: "closest: line 2 (similarity 0.66)", line 5 never named),
/// and no correction; the same for every agent whose fields differ.
#[test]
fn an_old_text_trimmed_at_two_equal_places_names_both_and_picks_neither() {
    let dir = support::files::folder(&[("t.py", "def a():\n    x = 1\n\ndef b():\n    x = 1\n")]);
    let root = dir.path().display().to_string();
    let opencode = r#"{"filePath":"t.py","oldString":"x = 1 ","newString":"x = 2"}"#;
    let qwen =
        format!(r#"{{"file_path":"{root}/t.py","old_string":"x = 1 ","new_string":"x = 2"}}"#);
    let gemini =
        r#"{"file_path":"t.py","instruction":"x","old_string":"x = 1 ","new_string":"x = 2"}"#;
    for (input, dialect, field) in [
        (opencode.to_string(), "opencode-edit", "oldString"),
        (qwen, "qwen-edit", "old_string"),
        (gemini.to_string(), "gemini-replace", "old_string"),
    ] {
        let out = run_on_input(dir.path(), ["check", "t.py", "e.json"], &input, dialect);
        assert_eq!(out.status.code(), Some(1), "{dialect}");
        assert_ends_with(
            &text(&out.stdout),
            &format!(
                "edit 1: {field} does not occur in the file; trimmed, it occurs at line 2 and \
                 line 5: which one is meant cannot be told, so no corrected edit is offered.\n\
                 no corrected edit: srview cannot stand behind a correction of this edit\n"
            ),
        );
    }
}

/// An old text ending inside a word quotes what it sent and the whole
/// line beside the word (a tester's find, 43b-08: only `10` was quoted,
/// so `retries = 1` against `retries = 10` had to be guessed); an old text
/// of several lines quotes its line at the cut.
#[test]
fn an_old_text_cutting_a_word_quotes_its_part_and_the_line() {
    let dir = support::files::folder(&[("r.py", "def f():\n    retries = 10\n    timeout = 5\n")]);
    for (old, quoted) in [
        ("retries = 1", "`retries = 1`"),
        (
            "def f():\\n    retries = 1",
            "(its last line `retries = 1`)",
        ),
    ] {
        let input = format!(r#"{{"filePath":"r.py","oldString":"{old}","newString":"x"}}"#);
        let out = run_on_input(
            dir.path(),
            ["check", "r.py", "e.json"],
            &input,
            "opencode-edit",
        );
        assert_eq!(out.status.code(), Some(1), "{old}");
        assert_contains(
            &text(&out.stdout),
            &format!(
                "warning: edit 1: the edit's old text {quoted} ends inside the word `10` of line \
                 2 (`retries = 10`): it changes part of a word it does not show\n"
            ),
        );
    }
}

/// Every command a refusal of an input meant for another file prints runs
/// as printed (tester finding 50/T-11: `srview apply sp ace/o'k.py INPUT`,
/// unquoted, a placeholder for the input, `apply` to a user who ran
/// `check`): run with `sh -c` in the same folder (srview on PATH, the input
/// again on stdin when the refusal says so), it does what it says for the
/// other file, whose path holds a space and a `'`.
#[test]
fn a_refusals_command_runs_as_printed_in_a_shell() {
    let (dir, base) = project_with("base.py", "x = 0\n");
    let root = dir.path();
    let other = "sp ace/o'k.py";
    let before = "def f():\n    count = 0\n";
    let after = "def f():\n    count = 1\n";
    let edit = r#"{"file_path": "sp ace/o'k.py", "old_string": "    count = 0", "new_string": "    count = 1"}"#;
    let opencode = r#"{"filePath": "sp ace/o'k.py", "oldString": "    count = 0", "newString": "    count = 1"}"#;
    let patch = "*** Begin Patch\n*** Update File: sp ace/o'k.py\n@@\n def f():\n-    count = 0\n+    count = 1\n*** End Patch\n";
    std::fs::create_dir(root.join("sp ace")).expect("folder");
    let inputs: [(&str, &str, &[&str]); 3] = [
        ("in put.json", edit, &[]),
        ("p'atch.diff", patch, &[]),
        ("oc.json", opencode, &["--dialect", "opencode-edit"]),
    ];
    for (name, input, flags) in inputs {
        support::files::write(root, name, input.as_bytes());
        for (command, extra) in [
            ("check", &[][..]),
            ("fix", &[]),
            ("apply", &[]),
            ("apply", &["--write"]),
        ] {
            for from in [name, "-"] {
                support::files::write(root, other, before.as_bytes());
                let args: Vec<&str> = [command, "base.py", from]
                    .into_iter()
                    .chain(flags.iter().copied())
                    .chain(extra.iter().copied())
                    .collect();
                let refused = run_in_with(root, &args, input);
                let said = text(&refused.stderr);
                assert_eq!(refused.status.code(), Some(1), "{args:?}: {said}");
                let printed = said
                    .split('`')
                    .nth(1)
                    .unwrap_or_else(|| panic!("{args:?}: no command in {said}"));
                assert!(
                    printed.starts_with(&format!("srview {command} ")),
                    "{printed}"
                );
                let again = said.contains("given the same input on stdin");
                assert_eq!(again, from == "-", "{said}");
                let out = support::runner::sh_with_srview(
                    printed,
                    root,
                    if again { input.as_bytes() } else { b"" },
                );
                let why = format!("{printed}: {}", text(&out.stderr));
                assert_eq!(out.status.code(), Some(0), "{why}");
                let on_disk = std::fs::read_to_string(root.join(other)).expect("other");
                match (command, extra) {
                    ("apply", []) => {
                        assert_eq!(text(&out.stdout), after, "{why}");
                        assert_eq!(on_disk, before, "{why}");
                    }
                    ("apply", _) => assert_eq!(on_disk, after, "{why}"),
                    _ => assert_eq!(on_disk, before, "{why}"),
                }
            }
        }
    }
    assert_eq!(read(&base), "x = 0\n");
    // The note on a patch that moves FILE gives the command that moves it.
    let moving = patch.replace("@@", "*** Move to: lib/o k.py\n@@");
    support::files::write(root, "move.diff", moving.as_bytes());
    support::files::write(root, other, before.as_bytes());
    let noted = run_in(root, &["apply", other, "move.diff"]);
    let said = text(&noted.stderr);
    assert_eq!(noted.status.code(), Some(0), "{said}");
    let printed = said.split('`').nth(1).expect("a command");
    assert_eq!(printed, "srview apply --transcript move.diff --write");
    let out = support::runner::sh_with_srview(printed, root, b"");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let moved = std::fs::read_to_string(root.join("lib/o k.py")).expect("moved");
    assert_eq!(moved, after);
    assert!(!root.join(other).exists(), "moved away");
}

/// Session 51: an edit's JSON naming a file that is not here was refused
/// with a command for that file which then failed ("cannot read"). `check`
/// and `fix` say there is no such file; `apply` says so and gives the
/// command with `--new-file`, which runs as printed (a Write creates it).
#[test]
fn an_input_naming_a_file_not_here_says_so() {
    let (dir, _) = project();
    let write = r#"{"file_path": "src/new.py", "content": "q = 1\n"}"#;
    support::files::write(dir.path(), "w.json", write.as_bytes());
    let refused = |command: &[&str]| {
        let out = run_in(dir.path(), command);
        assert_eq!(
            (out.status.code(), text(&out.stdout)),
            (Some(1), String::new()),
            "{command:?}"
        );
        text(&out.stderr)
    };
    let said = |how: &str| {
        format!(
            "srview: the input edits src/new.py, not calc.py: calc.py is left as it is ({how})\n"
        )
    };
    assert_eq!(
        refused(&["check", "calc.py", "w.json"]),
        said("there is no src/new.py here to check it on")
    );
    assert_eq!(
        refused(&["fix", "calc.py", "w.json"]),
        said("there is no src/new.py here to correct it for")
    );
    let apply = refused(&["apply", "calc.py", "w.json", "--write"]);
    assert_eq!(
        apply,
        said(
            "there is no src/new.py here to apply it to; `srview apply src/new.py w.json \
             --write --new-file` starts it from an empty file"
        )
    );
    std::fs::create_dir(dir.path().join("src")).expect("src");
    let command = apply
        .split_once("; `")
        .and_then(|(_, rest)| rest.split_once('`'))
        .map(|(command, _)| command)
        .expect("a command");
    let ran = support::runner::sh_with_srview(command, dir.path(), b"");
    assert_eq!(ran.status.code(), Some(0), "{}", text(&ran.stderr));
    assert_eq!(
        std::fs::read_to_string(dir.path().join("src/new.py")).expect("written"),
        "q = 1\n"
    );
}

/// Session 51: the note on a patch moving FILE onto a file that exists
/// said "`srview apply --transcript DIFF --write` moves it", a command that
/// then refuses (the target's content would be lost). It says the move
/// replaces that file and gives `--force`; run as printed, it moves.
#[test]
fn a_move_onto_an_existing_file_is_said_with_force() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::create_dir(dir.path().join("src")).expect("src");
    support::files::write(dir.path(), "src/a.py", b"x = 1\n");
    support::files::write(dir.path(), "src/new.py", b"old\n");
    let patch = "*** Begin Patch\n*** Update File: src/a.py\n*** Move to: src/new.py\n@@\n-x = 1\n\
                 +x = 2\n*** End Patch\n";
    support::files::write(dir.path(), "mv.patch", patch.as_bytes());
    let out = run_in(&dir.path().join("src"), &["check", "a.py", "../mv.patch"]);
    let root = dir.path().canonicalize().expect("real path");
    let command = format!(
        "srview apply --transcript ../mv.patch --cwd {} --write --force",
        root.display()
    );
    assert_eq!(
        (out.status.code(), text(&out.stdout), text(&out.stderr)),
        (
            Some(0),
            "a.py: hunk #1 (patch lines 4-6): applies at lines 1-1, level exact\n".to_string(),
            format!(
                "srview: note: the patch moves src/a.py to src/new.py; a.py is edited in place \
                 (`{command}` moves it, replacing src/new.py, which exists (its content is \
                 lost))\n"
            )
        )
    );
    let ran = support::runner::sh_with_srview(&command, &dir.path().join("src"), b"");
    assert_eq!(ran.status.code(), Some(0), "{}", text(&ran.stderr));
    assert!(!dir.path().join("src/a.py").exists());
    assert_eq!(
        read(&dir.path().join("src/new.py").display().to_string()),
        "x = 2\n"
    );
}
