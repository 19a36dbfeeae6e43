//! `srview gate install`: the gate written into each agent's own config,
//! through the binary, with HOME a temporary folder holding the config the
//! recordings ran with (tests/fixtures/gate/install/<agent>/, each file as
//! the real CLI read it). For each agent: install writes srview's entry
//! (checked in the file), installing again changes nothing, `--uninstall`
//! gives back every file byte for byte and removes the files and folders
//! install created, `--dry-run` writes nothing.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

fn fixture(agent: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/gate/install")
        .join(agent)
}

/// srview's absolute path, as install writes it into the hook command.
fn srview() -> String {
    std::fs::canonicalize(env!("CARGO_BIN_EXE_srview"))
        .expect("srview's path")
        .to_string_lossy()
        .into_owned()
}

/// A temporary HOME holding `agent`'s recorded config, and a project
/// folder beside it (the current folder of each run).
struct World {
    _dir: tempfile::TempDir,
    home: PathBuf,
    project: PathBuf,
}

impl World {
    fn new(agent: &str) -> World {
        let world = World::empty();
        super::support::files::copy_tree(&fixture(agent), &world.home);
        world
    }

    /// An empty HOME and an empty project folder.
    fn empty() -> World {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let world = World {
            home: dir.path().join("home"),
            project: dir.path().join("project"),
            _dir: dir,
        };
        std::fs::create_dir_all(&world.project).expect("the project");
        std::fs::create_dir_all(&world.home).expect("HOME");
        world
    }

    /// A HOME and a project holding nothing but `files` (path under HOME,
    /// text).
    fn bare(files: &[(&str, &str)]) -> World {
        let world = World::empty();
        for (path, text) in files {
            write_settings(&world.home.join(path), text);
        }
        world
    }

    /// The text of `relative` under HOME.
    fn text(&self, relative: &str) -> String {
        std::fs::read_to_string(self.home.join(relative)).expect("the file")
    }

    /// `srview gate install ARGS`: (stdout, stderr, exit status).
    fn install(&self, args: &[&str]) -> (String, String, Option<i32>) {
        let out = Command::new(env!("CARGO_BIN_EXE_srview"))
            .current_dir(&self.project)
            .env("HOME", &self.home)
            .env_remove("CODEX_HOME")
            .env_remove("XDG_CONFIG_HOME")
            .args(["gate", "install"])
            .args(args)
            .output()
            .expect("srview runs");
        (
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
            out.status.code(),
        )
    }

    /// `install` expected to succeed; its stdout.
    fn ok(&self, args: &[&str]) -> String {
        let (stdout, stderr, code) = self.install(args);
        assert_eq!(code, Some(0), "gate install {args:?}: {stderr}");
        stdout
    }

    /// Every file (its bytes) and folder under HOME and the project.
    fn snapshot(&self) -> BTreeMap<PathBuf, Option<Vec<u8>>> {
        let mut all = BTreeMap::new();
        for root in [&self.home, &self.project] {
            walk(root, &mut all);
        }
        all
    }

    fn json(&self, relative: &str) -> Value {
        let text = std::fs::read_to_string(self.home.join(relative)).expect("the settings");
        serde_json::from_str(&text).expect("the settings stay JSON")
    }

    /// The hook groups the settings file `relative` holds for `event`.
    fn hooks(&self, relative: &str, event: &str) -> Vec<Value> {
        match &self.json(relative)["hooks"][event] {
            Value::Array(groups) => groups.clone(),
            other => panic!("{relative}: hooks.{event} is no list: {other}"),
        }
    }
}

/// The user's settings `text` written at `path`, its folders made first.
fn write_settings(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().expect("a folder")).expect("folders");
    std::fs::write(path, text).expect("the user's settings");
}

/// `groups` holds the user's group running `command`, then srview's `gate`
/// group, and nothing else.
fn assert_users_group_then_srviews(groups: &[Value], command: &str, gate: Value, why: &str) {
    assert_eq!(groups.len(), 2, "{why}");
    assert_eq!(groups[0]["hooks"][0]["command"], command, "{why}");
    assert_eq!(groups[1], gate, "{why}");
}

fn walk(dir: &Path, all: &mut BTreeMap<PathBuf, Option<Vec<u8>>>) {
    all.insert(dir.to_path_buf(), None);
    for entry in std::fs::read_dir(dir).expect("a folder") {
        let path = entry.expect("an entry").path();
        if path.is_dir() {
            walk(&path, all);
        } else {
            all.insert(path.clone(), Some(std::fs::read(&path).expect("a file")));
        }
    }
}

/// The life of one install: `--dry-run` writes nothing and shows the
/// change, install changes the files, a second install changes nothing
/// more, `--uninstall` gives back the tree as it was. `check` looks at the
/// installed files.
fn install_twice_then_uninstall(agent: &str, args: &[&str], check: impl Fn(&World)) -> World {
    let world = World::new(agent);
    let original = world.snapshot();
    let with_agent = |extra: &[&str]| -> Vec<String> {
        ["--agent", agent]
            .iter()
            .chain(args)
            .chain(extra)
            .map(|s| s.to_string())
            .collect()
    };
    let run = |extra: &[&str]| {
        let all = with_agent(extra);
        let all: Vec<&str> = all.iter().map(String::as_str).collect();
        world.ok(&all)
    };

    let dry = run(&["--dry-run"]);
    assert_eq!(world.snapshot(), original, "--dry-run wrote something");
    assert!(dry.contains("\n+++ ") && dry.starts_with("--- "), "{dry}");
    assert!(
        dry.contains(&srview()),
        "the diff shows srview's path: {dry}"
    );
    assert!(dry.ends_with("(--dry-run: nothing written)\n"), "{dry}");

    let said = run(&[]);
    assert!(said.starts_with("srview gate: installed for "), "{said}");
    let installed = world.snapshot();
    assert_ne!(installed, original, "install changed nothing");
    // Every file there before is still there.
    for path in original.keys() {
        assert!(installed.contains_key(path), "{} went", path.display());
    }
    check(&world);

    let again = run(&[]);
    assert!(
        again.starts_with("srview gate: already installed for "),
        "{again}"
    );
    assert_eq!(
        world.snapshot(),
        installed,
        "a second install changed the files"
    );

    let dry_out = run(&["--uninstall", "--dry-run"]);
    assert!(
        dry_out.starts_with("--- ") && dry_out.contains("\n-"),
        "{dry_out}"
    );
    assert_eq!(
        world.snapshot(),
        installed,
        "--uninstall --dry-run wrote something"
    );

    let gone = run(&["--uninstall"]);
    assert!(gone.starts_with("srview gate: uninstalled for "), "{gone}");
    assert_eq!(
        world.snapshot(),
        original,
        "uninstall left the tree changed"
    );
    let nothing = run(&["--uninstall"]);
    assert!(
        nothing.starts_with("srview gate: nothing to uninstall for "),
        "{nothing}"
    );
    world
}

/// A settings file's hook command: srview's `invocation`, and a deny by
/// exit 2 when srview cannot be run or dies without answering.
fn hook_command(invocation: &str) -> String {
    format!(
        "{invocation} || {{ s=$?; [ $s = 2 ] || printf 'srview gate: %s did not answer (exit %s): \
         the edit is blocked\\n' {} $s >&2; exit 2; }}",
        srview()
    )
}

/// The group srview adds to a hook event's array; `created` is what its
/// install created around it (`--install-created`: `none`, or some of
/// `file,hooks,event`), read back by `--uninstall`.
fn gate_group(matcher: &str, agent: &str, created: &str, seconds: u32, timeout: u64) -> Value {
    serde_json::json!({
        "matcher": matcher,
        "hooks": [{
            "type": "command",
            "command": hook_command(&format!(
                "{} gate --agent {agent} --install-created {created} --timeout {seconds}",
                srview()
            )),
            "timeout": timeout,
        }],
    })
}

/// PreToolUse only: Claude Code 2.1.328 runs no hook for an Edit its own
/// validation refuses (tests/gate_e2e/, against the real CLI), so srview
/// installs no PostToolUseFailure group.
#[test]
fn claude_code_gets_pre_tool_use_only() {
    install_twice_then_uninstall("claude-code", &[], |world| {
        let settings = world.json(".claude/settings.json");
        assert_users_group_then_srviews(
            &world.hooks(".claude/settings.json", "PreToolUse"),
            "python3 /home/user/.hooks/hook.py claude a",
            gate_group("Edit|Write", "claude-code", "none", 60, 60),
            "the recorded hook stays, srview's follows",
        );
        assert_eq!(
            settings["hooks"].as_object().map(|h| h.len()),
            Some(1),
            "{settings}"
        );
    });
}

/// A settings file an earlier srview wrote before `--install-created`
/// (PreToolUse and the PostToolUseFailure group it no longer installs):
/// those commands cannot be told from ones the user wrote by hand, so they
/// are the user's: install leaves them, names each in a note, and adds its
/// own group; uninstall gives back the file byte for byte.
#[test]
fn an_earlier_unmarked_gate_hook_is_left_and_named() {
    let world = World::new("claude-code");
    let path = world.home.join(".claude/settings.json");
    let invocation = format!("{} gate --agent claude-code --timeout 60", srview());
    let group = |matcher: &str| {
        format!(
            "[\n      {{\n        \"matcher\": \"{matcher}\",\n        \"hooks\": [\n          {{\n            \
             \"type\": \"command\",\n            \"command\": {},\n            \
             \"timeout\": 60\n          }}\n        ]\n      }}",
            Value::from(invocation.as_str())
        )
    };
    let earlier = format!(
        "{{\n  \"cleanupPeriodDays\": 30,\n  \"hooks\": {{\n    \"PreToolUse\": {}\n    ],\n    \"PostToolUseFailure\": {}\n    ]\n  }}\n}}\n",
        group("Edit|Write"),
        group("Edit")
    );
    std::fs::write(&path, &earlier).expect("the earlier install's settings");
    let said = world.ok(&["--agent", "claude-code"]);
    let note = |n: usize, event: &str, matcher: &str| {
        format!(
            "note: {}: group {n} of hooks.{event} (matcher \"{matcher}\") runs `{invocation}`, which `srview gate \
             install` did not write (by hand, or by an srview from before --install-created): srview leaves it as it \
             is; beside srview's own hook the gate runs twice: take one of them out by hand\n",
            path.display()
        )
    };
    assert_eq!(
        said,
        format!(
            "srview gate: installed for Claude Code: {invocation}\n  changed {}\n{}{}",
            path.display(),
            note(1, "PreToolUse", "Edit|Write"),
            note(1, "PostToolUseFailure", "Edit")
        )
    );
    assert_users_group_then_srviews(
        &world.hooks(".claude/settings.json", "PreToolUse"),
        &invocation,
        gate_group("Edit|Write", "claude-code", "none", 60, 60),
        "the earlier group stays, srview's follows",
    );
    assert_eq!(
        world
            .hooks(".claude/settings.json", "PostToolUseFailure")
            .len(),
        1
    );
    world.ok(&["--agent", "claude-code", "--uninstall"]);
    assert_eq!(
        std::fs::read_to_string(&path).expect("the settings"),
        earlier
    );
}

/// The project's `.claude/settings.json`, created with its folder, both
/// gone after the uninstall; HOME's settings untouched.
#[test]
fn claude_code_project_scope_creates_and_removes_its_folder() {
    let world =
        install_twice_then_uninstall("claude-code", &["--project", "--timeout", "7"], |world| {
            let text = std::fs::read_to_string(world.project.join(".claude/settings.json"))
                .expect("the project's settings");
            let settings: Value = serde_json::from_str(&text).expect("JSON");
            assert_eq!(
                settings["hooks"]["PreToolUse"],
                serde_json::json!([gate_group(
                    "Edit|Write",
                    "claude-code",
                    "file,hooks,event",
                    7,
                    7
                )])
            );
            assert!(
                text.starts_with("{\n  \"hooks\": {\n    \"PreToolUse\": [\n"),
                "{text}"
            );
        });
    assert!(!world.project.join(".claude").exists());
}

/// Codex: the group in hooks.json and its trust in config.toml, the key
/// and the hash as Codex computes them (the identity's compact JSON with
/// sorted keys, SHA-256), appended after the user's own config.
#[test]
fn codex_gets_its_hook_and_the_trust_it_needs() {
    use sha2::Digest;
    let original =
        std::fs::read_to_string(fixture("codex").join(".codex/config.toml")).expect("config");
    install_twice_then_uninstall("codex", &["--policy", "loose=deny"], |world| {
        let pre = world.hooks(".codex/hooks.json", "PreToolUse");
        assert_eq!(pre.len(), 2);
        let command = hook_command(&format!(
            "{} gate --agent codex --install-created none --timeout 60 --policy loose=deny",
            srview()
        ));
        assert_eq!(pre[1]["matcher"], "apply_patch");
        assert_eq!(pre[1]["hooks"][0]["command"], command.as_str());
        assert_eq!(pre[1]["hooks"][0]["timeout"], 60);

        let identity = format!(
            r#"{{"event_name":"pre_tool_use","hooks":[{{"async":false,"command":{},"timeout":60,"type":"command"}}],"matcher":"apply_patch"}}"#,
            Value::from(command.as_str())
        );
        let hash: String = sha2::Sha256::digest(identity.as_bytes())
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        let config =
            std::fs::read_to_string(world.home.join(".codex/config.toml")).expect("config");
        let key = format!(
            "{}/.codex/hooks.json:pre_tool_use:1:0",
            world.home.display()
        );
        let expected = format!(
            "{original}\n# srview gate install: trust for srview's hook (srview gate install --uninstall removes it)\n\
             [hooks.state.\"{key}\"]\ntrusted_hash = \"sha256:{hash}\"\n"
        );
        assert_eq!(config, expected);
    });
}

/// Gemini CLI's timeout is in milliseconds; the gate's stays in seconds.
#[test]
fn gemini_cli_gets_before_tool_with_its_timeout_in_milliseconds() {
    install_twice_then_uninstall("gemini-cli", &["--timeout", "9"], |world| {
        let settings = world.json(".gemini/settings.json");
        let before = world.hooks(".gemini/settings.json", "BeforeTool");
        assert_eq!(before.len(), 2);
        assert_eq!(
            before[1],
            gate_group("replace|write_file", "gemini-cli", "none", 9, 9000)
        );
        assert_eq!(
            settings["security"]["folderTrust"]["enabled"], false,
            "the rest stays"
        );
    });
}

#[test]
fn qwen_code_gets_pre_tool_use_in_seconds() {
    install_twice_then_uninstall("qwen-code", &[], |world| {
        let pre = world.hooks(".qwen/settings.json", "PreToolUse");
        assert_eq!(
            pre[1],
            gate_group("edit|write_file", "qwen-code", "none", 60, 60)
        );
    });
    let world = World::new("qwen-code");
    let (_, stderr, code) = world.install(&["--agent", "qwen-code", "--timeout", "1000"]);
    assert_eq!(code, Some(2));
    assert_eq!(
        stderr,
        "srview: gate install: Qwen Code reads a hook timeout of 1000 or more as milliseconds: \
         give --timeout below 1000 seconds\n"
    );
}

/// A run of the real Qwen Code 0.24.4 (tests/gate_e2e/) writes
/// `"$version": 4` into every settings file it reads, the project's one
/// that install created too: uninstall still removes that file and its
/// folder (nothing of the user's is in it), and keeps a file that holds
/// anything else.
#[test]
fn qwen_codes_version_mark_does_not_keep_a_file_install_created() {
    let world = World::new("qwen-code");
    let original = world.snapshot();
    world.ok(&["--agent", "qwen-code", "--project"]);
    let path = world.project.join(".qwen/settings.json");
    let installed = std::fs::read_to_string(&path).expect("the project's settings");
    // What the run left (the bytes of the real CLI's rewrite).
    let ran = installed
        .strip_suffix("\n}\n")
        .map(|head| format!("{head},\n  \"$version\": 4\n}}\n"))
        .expect("the settings end with the root's brace");
    std::fs::write(&path, &ran).expect("the run's rewrite");
    world.ok(&["--agent", "qwen-code", "--project", "--uninstall"]);
    assert_eq!(
        world.snapshot(),
        original,
        "uninstall left the tree changed"
    );

    world.ok(&["--agent", "qwen-code", "--project"]);
    let kept = ran.replace("\"$version\": 4", "\"$version\": 4,\n  \"model\": {}");
    std::fs::write(&path, &kept).expect("settings of the user's own");
    world.ok(&["--agent", "qwen-code", "--project", "--uninstall"]);
    assert_eq!(
        std::fs::read_to_string(&path).expect("kept"),
        "{\n  \"$version\": 4,\n  \"model\": {}\n}\n"
    );
}

/// OpenCode: srview's plugin copied into the plugin folder (created, and
/// removed by the uninstall), with srview's path, the timeout and the
/// policy written in; opencode.json untouched.
#[test]
fn opencode_gets_the_plugin_file() {
    let world = install_twice_then_uninstall(
        "opencode",
        &["--policy", "loose=deny", "--timeout", "30"],
        |world| {
            let plugin =
                std::fs::read_to_string(world.home.join(".config/opencode/plugin/srview-gate.js"))
                    .expect("the plugin");
            assert!(
                plugin.contains(&format!("const SRVIEW = {};", Value::from(srview()))),
                "{plugin}"
            );
            assert!(plugin.contains("const TIMEOUT_SECONDS = 30;"));
            assert!(plugin.contains(
            r#"["gate", "--agent", "opencode", "--timeout", String(TIMEOUT_SECONDS), "--policy", "loose=deny"]"#
        ));
        },
    );
    assert!(!world.home.join(".config/opencode/plugin").exists());
}

#[test]
fn pi_gets_the_extension_file() {
    install_twice_then_uninstall("pi", &[], |world| {
        let extension =
            std::fs::read_to_string(world.home.join(".pi/agent/extensions/srview-gate.ts"))
                .expect("the extension");
        assert!(extension.contains(&format!("const SRVIEW = {};", Value::from(srview()))));
        assert!(extension.contains("const TIMEOUT_SECONDS = 60;"));
    });
}

/// A tester's find (round 38d): the user's edit of srview's plugin (a
/// tool added to its list) was reverted by a re-install without a word,
/// and an uninstall deleted the edited file. srview's own files end with a
/// seal (the SHA-256 of the lines above it): a file whose seal no longer
/// matches is left as it is, install and uninstall exit 2 saying so. An
/// unedited file is replaced and removed as before.
#[test]
fn srviews_own_file_changed_by_the_user_is_left_as_it_is() {
    for (agent, relative) in [
        ("opencode", ".config/opencode/plugin/srview-gate.js"),
        ("pi", ".pi/agent/extensions/srview-gate.ts"),
        ("cline-cli", "Documents/Cline/Hooks/PreToolUse"),
    ] {
        let world = World::bare(&[]);
        world.ok(&["--agent", agent]);
        let written = world.text(relative);
        let edited = written.replacen("srview gate", "srview gate (mine)", 1);
        std::fs::write(world.home.join(relative), &edited).expect("the user's edit");
        let said = format!(
            "{} was changed since srview wrote it (its last line, srview's seal, no longer \
             matches the lines above it): it is left as it is, so your changes are not lost; \
             move them elsewhere or delete the file, then run this again",
            world.home.join(relative).display()
        );
        for args in [
            vec!["--agent", agent, "--timeout", "30"],
            vec!["--agent", agent, "--uninstall"],
        ] {
            let (_, stderr, code) = world.install(&args);
            assert_eq!(code, Some(2), "{agent} {args:?}: {stderr}");
            assert!(stderr.contains(&said), "{agent} {args:?}: {stderr}");
            assert_eq!(world.text(relative), edited, "{agent} {args:?}");
        }
        // Put back as srview wrote it: replaced and removed again.
        std::fs::write(world.home.join(relative), &written).expect("srview's file");
        world.ok(&["--agent", agent, "--timeout", "30"]);
        assert!(world.text(relative).contains("30"), "{agent}");
        world.ok(&["--agent", agent, "--uninstall"]);
        assert!(!world.home.join(relative).exists(), "{agent}");
    }
}

/// Cline's hook file is a program (0755) running the gate, which blocks
/// the edit (a cancel) when srview cannot run: Cline CLI 3.0.65 ran the
/// tool when its hook answered nothing (srview deleted, tests/gate_e2e/).
#[test]
fn cline_cli_gets_its_hook_file_which_cancels_when_srview_cannot_run() {
    use std::os::unix::fs::PermissionsExt;
    let world = install_twice_then_uninstall("cline-cli", &[], |world| {
        let path = world.home.join("Documents/Cline/Hooks/PreToolUse");
        let text = std::fs::read_to_string(&path).expect("the hook file");
        let body = text
            .rsplit_once("# srview-gate seal: sha256 ")
            .map_or(text.as_str(), |(body, _)| body);
        assert_eq!(
            text,
            format!(
                "{body}# srview-gate seal: sha256 {}\n",
                srview::gate::sha256_hex(body.as_bytes())
            )
        );
        assert_eq!(
            body,
            format!(
                "#!/bin/sh\n# srview gate for Cline CLI 3.x (run offline against Cline CLI 3.0.65: it runs this file\n\
                 # for every tool call; srview's deny, a cancel, stops Cline's whole task). Written by\n\
                 # `srview gate install --agent cline-cli`; removed by `srview gate install --agent cline-cli --uninstall`.\n\
                 # When srview cannot run or dies without answering, the edit is blocked: Cline runs the tool\n\
                 # when its hook gives no answer.\n\
                 {srview} gate --agent cline-cli --timeout 60 && exit 0\ns=$?\n\
                 printf '%s%s%s\\n' '{{\"cancel\":true,\"errorMessage\":\"srview gate: {srview} did not answer (exit ' \
                 \"$s\" '): the edit is blocked\"}}'\n",
                srview = srview()
            )
        );
        let mode = std::fs::metadata(&path)
            .expect("its mode")
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o755);
        // A file this process just wrote can be "busy" for a moment: another
        // test thread's fork holds the write descriptor until its exec, so
        // ETXTBSY is retried (as Go's os/exec does).
        let run = |file: &std::path::Path| {
            let mut tries = 0;
            let out = loop {
                match Command::new(file)
                    .stdin(std::process::Stdio::null())
                    .output()
                {
                    Err(e) if e.kind() == std::io::ErrorKind::ExecutableFileBusy && tries < 100 => {
                        tries += 1;
                        std::thread::sleep(std::time::Duration::from_millis(20));
                    }
                    other => break other.expect("the hook file runs"),
                }
            };
            (
                String::from_utf8_lossy(&out.stdout).into_owned(),
                out.status.code(),
            )
        };
        // srview answers itself: an empty payload is denied.
        let (stdout, code) = run(&path);
        assert_eq!(code, Some(0));
        let answer: Value = serde_json::from_str(&stdout).expect("srview's JSON");
        assert_eq!(answer["cancel"], true, "{stdout}");
        // srview gone: Cline still reads a cancel.
        let gone = world.home.join("no-srview-here");
        let moved = world.home.join("PreToolUse-gone");
        std::fs::write(&moved, text.replace(&srview(), &gone.to_string_lossy())).expect("a copy");
        std::fs::set_permissions(&moved, std::fs::Permissions::from_mode(0o755)).expect("its mode");
        let (stdout, code) = run(&moved);
        std::fs::remove_file(&moved).expect("removed");
        assert_eq!(code, Some(0));
        assert_eq!(
            serde_json::from_str::<Value>(&stdout).expect("JSON"),
            serde_json::json!({
                "cancel": true,
                "errorMessage": format!(
                    "srview gate: {} did not answer (exit 127): the edit is blocked",
                    gone.display()
                )
            })
        );
    });
    assert!(!world.home.join("Documents").exists());
}

/// Agents without a hook, an unknown one and a bad policy: exit 2 with
/// the reason, nothing written.
#[test]
fn agents_without_a_hook_are_refused() {
    let world = World::new("claude-code");
    let before = world.snapshot();
    let cases = [
        (
            vec!["--agent", "aider"],
            "srview: gate install: --agent aider: Aider has no pre-edit hook: it applies its edits itself, \
             with nothing run before; there is nothing to install\n",
        ),
        (
            vec!["--agent", "cline-classic"],
            "srview: gate install: --agent cline-classic: Cline (the VS Code extension, classic) has no \
             pre-edit hook srview can install; Cline 3.x's CLI has one: --agent cline-cli; there is nothing to install\n",
        ),
        (
            vec!["--agent", "cursor"],
            "srview: gate install: unknown --agent 'cursor' (one of: claude-code, codex, gemini-cli, \
             qwen-code, cline-cli, opencode, pi)\n",
        ),
    ];
    for (args, message) in cases {
        let (stdout, stderr, code) = world.install(&args);
        assert_eq!(
            (stdout.as_str(), stderr.as_str(), code),
            ("", message, Some(2))
        );
    }
    let (_, stderr, code) = world.install(&["--agent", "claude-code", "--policy", "loose=maybe"]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.starts_with("srview: gate install: "), "{stderr}");
    // A case given twice is not installed (the gate would refuse it on
    // every call).
    let (_, stderr, code) = world.install(&[
        "--agent",
        "claude-code",
        "--policy",
        "doubt=deny,doubt=allow",
    ]);
    assert_eq!(
        (stderr.as_str(), code),
        (
            "srview: gate install: --policy: doubt is given twice (doubt=deny, then doubt=allow): \
             give each case once\n",
            Some(2)
        )
    );
    assert_eq!(world.snapshot(), before);
}

/// Settings that are not JSON are left alone, with the line said.
#[test]
fn settings_that_are_not_json_are_left_alone() {
    let world = World::new("claude-code");
    let path = world.home.join(".claude/settings.json");
    std::fs::write(&path, "{\n  \"hooks\": {,\n}\n").expect("broken settings");
    let (_, stderr, code) = world.install(&["--agent", "claude-code"]);
    assert_eq!(code, Some(2));
    assert_eq!(
        stderr,
        format!(
            "srview: gate install: {}: not JSON (line 2: a key should be here); it is left as it is\n",
            path.display()
        )
    );
    assert_eq!(
        std::fs::read_to_string(&path).expect("read"),
        "{\n  \"hooks\": {,\n}\n"
    );
}

/// A tester's find (round 39a, 15): settings that are a pipe blocked
/// install, its dry run and uninstall forever; each now refuses at once
/// (exit 2), naming the file, and leaves it a pipe.
#[test]
fn settings_that_are_a_pipe_are_refused_at_once() {
    let world = World::empty();
    std::fs::create_dir_all(world.home.join(".claude")).expect("folder");
    let path = world.home.join(".claude/settings.json");
    crate::support::files::mkfifo(&path);
    for args in [&[][..], &["--dry-run"], &["--uninstall"]] {
        let args = [&["--agent", "claude-code"][..], args].concat();
        let (stdout, stderr, code) = world.install(&args);
        assert_eq!(code, Some(2), "{args:?}");
        assert_eq!(stdout, "", "{args:?}");
        assert_eq!(
            stderr,
            format!(
                "srview: gate install: cannot read {}: not a regular file (a device, a pipe or a \
                 socket): it is left as it is\n",
                path.display()
            ),
            "{args:?}"
        );
        use std::os::unix::fs::FileTypeExt;
        assert!(
            std::fs::metadata(&path)
                .expect("there")
                .file_type()
                .is_fifo()
        );
    }
}

/// The command install writes for Claude Code (as for Codex, Gemini CLI
/// and Qwen Code), run by `sh -c` as the agents run it: srview's answer
/// passes as it is; when srview is not there, a deny by exit 2 with the
/// reason on stderr (the real CLIs each read it as a deny: without it
/// Claude Code and Codex let the edit run, tests/gate_e2e/).
#[test]
fn the_installed_command_denies_when_srview_cannot_run() {
    let world = World::new("claude-code");
    world.ok(&["--agent", "claude-code"]);
    let settings = world.json(".claude/settings.json");
    let command = settings["hooks"]["PreToolUse"][1]["hooks"][0]["command"]
        .as_str()
        .expect("srview's command")
        .to_string();
    let sh = |command: &str| {
        use std::io::Write;
        let mut child = Command::new("sh")
            .args(["-c", command])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("sh runs");
        // The command may end before it reads its payload (srview
        // missing): a broken pipe here is that, not a failure.
        if let Err(e) = child
            .stdin
            .take()
            .expect("stdin")
            .write_all(b"not a payload")
        {
            assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "{e}");
        }
        let out = child.wait_with_output().expect("sh ends");
        (
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
            out.status.code(),
        )
    };
    let (stdout, _, code) = sh(&command);
    assert_eq!(code, Some(0), "srview answers itself");
    assert!(
        stdout.contains("\"permissionDecision\":\"deny\""),
        "{stdout}"
    );

    let gone = world.home.join("no-srview-here");
    let (stdout, stderr, code) = sh(&command.replace(&srview(), &gone.to_string_lossy()));
    assert_eq!(code, Some(2), "{stderr}");
    assert_eq!(stdout, "");
    assert!(
        stderr.ends_with(&format!(
            "srview gate: {} did not answer (exit 127): the edit is blocked\n",
            gone.display()
        )),
        "{stderr}"
    );
}

/// Settings the user already had that hold nothing srview adds to (a
/// `{}` file, an empty `"hooks": {}`, an empty event array, an empty
/// config.toml) are given back byte for byte by `--uninstall`, in both
/// scopes: install marks in its command what it created
/// (`--install-created`) and uninstall takes out only that.
#[test]
fn uninstall_keeps_the_empty_settings_the_user_had() {
    let cases: &[(&str, &[(&str, &str)])] = &[
        ("claude-code", &[(".claude/settings.json", "{}\n")]),
        (
            "claude-code",
            &[(".claude/settings.json", "{\"hooks\": {\"PreToolUse\": []}}")],
        ),
        (
            "gemini-cli",
            &[(".gemini/settings.json", "{ \"hooks\": {} }\n")],
        ),
        (
            "qwen-code",
            &[(
                ".qwen/settings.json",
                "{\"hooks\": {}, \"model\": {\"name\": \"m\"}}\n",
            )],
        ),
        (
            "codex",
            &[(".codex/hooks.json", "{}\n"), (".codex/config.toml", "")],
        ),
    ];
    for (agent, files) in cases {
        for scope in ["--project", "--user"] {
            let world = World::empty();
            for (path, text) in *files {
                // Codex's config.toml is HOME's in either scope.
                let base = if scope == "--project" && !path.ends_with("config.toml") {
                    &world.project
                } else {
                    &world.home
                };
                write_settings(&base.join(path), text);
            }
            let original = world.snapshot();
            let said = world.ok(&["--agent", agent, scope]);
            assert!(said.contains("changed "), "{agent} {scope}: {said}");
            assert_ne!(world.snapshot(), original, "{agent} {scope}: installed");
            world.ok(&["--agent", agent, scope]);
            let said = world.ok(&["--agent", agent, scope, "--uninstall"]);
            assert!(!said.contains("removed "), "{agent} {scope}: {said}");
            assert_eq!(
                world.snapshot(),
                original,
                "{agent} {scope}: the user's settings came back"
            );
        }
    }
}

/// The installed OpenCode plugin, run by Node.js as OpenCode runs it, hands
/// a large rewritten edit back whole: srview's answer (over 64 KiB, so read
/// in several pieces) decoded as UTF-8 across the reads, no character
/// split into U+FFFD (session 34's tester found 5 in a 144 KB edit). pi's
/// extension holds the same reading code (TypeScript: not run here).
#[test]
fn the_opencode_plugin_reads_a_large_answer_whole() {
    let world = World::new("opencode");
    world.ok(&["--agent", "opencode", "--project"]);
    std::fs::write(
        world.project.join("big.py"),
        "def f():\n    x = 1\n    return x\n",
    )
    .expect("the file");
    let driver = r#"
import { SrviewGate } from "./.opencode/plugin/srview-gate.js";
const cwd = process.cwd();
const text = "日本語のテキスト".repeat(6000);
const output = { args: { filePath: cwd + "/big.py", oldString: "  x = 1\n  return x\n",
  newString: "  x = 1\n  s = '" + text + "'\n  return x\n" } };
const hooks = await SrviewGate({ directory: cwd });
await hooks["tool.execute.before"]({ tool: "edit", sessionID: "s", callID: "c" }, output);
const n = output.args.newString;
console.log(JSON.stringify({ old: output.args.oldString, replaced: (n.match(/\uFFFD/g) || []).length, whole: n.includes(text) }));
"#;
    std::fs::write(world.project.join("drive.mjs"), driver).expect("the driver");
    let out = Command::new("node")
        .arg("drive.mjs")
        .current_dir(&world.project)
        .env("HOME", &world.home)
        .output()
        .expect("node runs (the machine's Node.js)");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let seen: Value = serde_json::from_str(stdout.trim()).expect("the driver's line");
    assert_eq!(
        seen,
        serde_json::json!({"old": "    x = 1\n    return x\n", "replaced": 0, "whole": true}),
        "the rewritten edit as OpenCode would run it"
    );
    let pi = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/gate/srview-gate.pi.ts"),
    )
    .expect("the pi extension");
    for stream in ["stdout", "stderr"] {
        assert!(
            pi.contains(&format!("child.{stream}.setEncoding(\"utf8\");")),
            "pi's extension decodes its {stream} as UTF-8 across reads"
        );
    }
}

/// The command install writes for `agent` (seconds, `created`).
fn installed_command(agent: &str, created: &str, seconds: u32) -> String {
    hook_command(&format!(
        "{} gate --agent {agent} --install-created {created} --timeout {seconds}",
        srview()
    ))
}

/// Round-38c finding 03: a group of the user's holding an audit hook and a
/// hand-written srview gate command. Install touches neither (the
/// hand-written command is the user's: named in a note), adds its own
/// group recording that it created nothing, and uninstall gives back the
/// file byte for byte: the audit hook, `hooks` and `PreToolUse` stay.
#[test]
fn install_leaves_a_users_group_holding_a_hand_written_gate() {
    let settings = "{\n  \"model\": \"opus\",\n  \"hooks\": {\n    \"PreToolUse\": [\n      {\n        \
                    \"matcher\": \"Edit|Write|Bash\",\n        \"hooks\": [\n          \
                    {\"type\": \"command\", \"command\": \"/usr/local/bin/audit-log.sh\", \"timeout\": 5},\n          \
                    {\"type\": \"command\", \"command\": \"/opt/srview gate --agent claude-code --timeout 10\", \"timeout\": 10}\n        \
                    ]\n      }\n    ]\n  }\n}\n";
    let world = World::bare(&[(".claude/settings.json", settings)]);
    let path = world.home.join(".claude/settings.json");
    let said = world.ok(&["--agent", "claude-code"]);
    assert_eq!(
        said,
        format!(
            "srview gate: installed for Claude Code: {} gate --agent claude-code --timeout 60\n  changed {}\n\
             note: {}: group 1 of hooks.PreToolUse (matcher \"Edit|Write|Bash\") runs `/opt/srview gate --agent \
             claude-code --timeout 10`, which `srview gate install` did not write (by hand, or by an srview from before \
             --install-created): srview leaves it as it is; beside srview's own hook the gate runs twice: take \
             one of them out by hand\n",
            srview(),
            path.display(),
            path.display()
        )
    );
    let installed = world.text(".claude/settings.json");
    let srviews = format!(
        ",\n      {{\n        \"matcher\": \"Edit|Write\",\n        \"hooks\": [\n          {{\n            \
         \"type\": \"command\",\n            \"command\": {},\n            \"timeout\": 60\n          }}\n        \
         ]\n      }}",
        Value::from(installed_command("claude-code", "none", 60))
    );
    let at = settings
        .rfind("\n    ]\n  }")
        .expect("the end of PreToolUse");
    assert_eq!(
        installed,
        format!("{}{srviews}{}", &settings[..at], &settings[at..])
    );
    world.ok(&["--agent", "claude-code"]);
    assert_eq!(world.text(".claude/settings.json"), installed);
    let gone = world.ok(&["--agent", "claude-code", "--uninstall"]);
    assert_eq!(
        gone,
        format!(
            "srview gate: uninstalled for Claude Code\n  changed {}\n",
            path.display()
        )
    );
    assert_eq!(world.text(".claude/settings.json"), settings);
}

/// Round-38c finding 03 (its one-line file): a hand-written srview group
/// alone in the user's file. Install adds its own group beside it (on the
/// one line), records that it created nothing, and uninstall gives the
/// file back: neither the file nor `.claude/` is removed.
#[test]
fn a_one_line_file_with_a_hand_written_gate_comes_back_whole() {
    let settings = "{\"hooks\": {\"PreToolUse\": [{\"matcher\":\"Edit|Write\",\"hooks\":[{\"type\":\"command\",\
                    \"command\":\"/old/srview gate --agent claude-code --timeout 5\"}]}]}}\n";
    let world = World::bare(&[(".claude/settings.json", settings)]);
    let original = world.snapshot();
    world.ok(&["--agent", "claude-code"]);
    assert_eq!(
        world.text(".claude/settings.json"),
        format!(
            "{{\"hooks\": {{\"PreToolUse\": [{{\"matcher\":\"Edit|Write\",\"hooks\":[{{\"type\":\"command\",\
             \"command\":\"/old/srview gate --agent claude-code --timeout 5\"}}]}}, {{\"matcher\": \"Edit|Write\", \
             \"hooks\": [{{\"type\": \"command\", \"command\": {}, \"timeout\": 60}}]}}]}}}}\n",
            Value::from(installed_command("claude-code", "none", 60))
        )
    );
    let said = world.ok(&["--agent", "claude-code", "--uninstall"]);
    assert!(!said.contains("removed"), "{said}");
    assert_eq!(world.snapshot(), original);
}

/// Round-38c finding 05: a hook of another tool whose command merely
/// mentions `srview gate --agent gemini-cli` (a shell comment) is the
/// user's: install keeps it and says nothing of it (it does not run
/// srview), uninstall gives the file back.
#[test]
fn a_hook_that_mentions_the_gate_is_not_srviews() {
    let settings = "{\n  \"hooks\": {\n    \"BeforeTool\": [\n      {\"matcher\": \"run_shell_command\", \"hooks\": \
                    [{\"type\": \"command\", \"command\": \"/usr/bin/lint.sh # was: srview gate --agent gemini-cli\", \
                    \"timeout\": 5000}]}\n    ]\n  }\n}\n";
    let world = World::bare(&[(".gemini/settings.json", settings)]);
    let original = world.snapshot();
    let said = world.ok(&["--agent", "gemini-cli"]);
    assert!(!said.contains("note:"), "{said}");
    assert_users_group_then_srviews(
        &world.hooks(".gemini/settings.json", "BeforeTool"),
        "/usr/bin/lint.sh # was: srview gate --agent gemini-cli",
        gate_group("replace|write_file", "gemini-cli", "none", 60, 60000),
        "the user's hook stays, srview's follows",
    );
    world.ok(&["--agent", "gemini-cli", "--uninstall"]);
    assert_eq!(world.snapshot(), original);
}

/// srview's own command (as install writes it) that the user moved into a
/// group of theirs beside another hook: only that hook is taken out of the
/// group (said in a note), never the group; install then adds srview's
/// own group, recording that it created nothing.
#[test]
fn srviews_hook_in_a_users_group_is_taken_out_alone() {
    let moved = installed_command("claude-code", "hooks,event", 60);
    let settings = format!(
        "{{\"hooks\": {{\"PreToolUse\": [{{\"matcher\": \"Edit|Write|Bash\", \"hooks\": [{{\"type\": \"command\", \
         \"command\": \"/usr/local/bin/audit-log.sh\"}}, {{\"type\": \"command\", \"command\": {}}}]}}]}}}}\n",
        Value::from(moved.as_str())
    );
    let users = "{\"hooks\": {\"PreToolUse\": [{\"matcher\": \"Edit|Write|Bash\", \"hooks\": [{\"type\": \
                 \"command\", \"command\": \"/usr/local/bin/audit-log.sh\"}]}]}}\n";
    for uninstall in [false, true] {
        let world = World::bare(&[(".claude/settings.json", &settings)]);
        let path = world.home.join(".claude/settings.json");
        let mut args = vec!["--agent", "claude-code"];
        if uninstall {
            args.push("--uninstall");
        }
        let said = world.ok(&args);
        let note = format!(
            "note: {}: took srview's hook out of group 1 of hooks.PreToolUse (matcher \"Edit|Write|Bash\"), which \
             holds hooks of yours: they stay as they are\n",
            path.display()
        );
        assert!(said.ends_with(&note), "{said}");
        let text = world.text(".claude/settings.json");
        if uninstall {
            assert_eq!(text, users);
        } else {
            assert_eq!(
                text,
                format!(
                    "{}, {{\"matcher\": \"Edit|Write\", \"hooks\": [{{\"type\": \"command\", \"command\": {}, \
                     \"timeout\": 60}}]}}]}}}}\n",
                    users.strip_suffix("]}}\n").expect("the list's end"),
                    Value::from(installed_command("claude-code", "none", 60))
                )
            );
            world.ok(&["--agent", "claude-code", "--uninstall"]);
            assert_eq!(world.text(".claude/settings.json"), users);
        }
    }
}

/// Installing again with another timeout replaces srview's group where it
/// is, keeping what its first install recorded: the user's groups after it
/// stay where they are.
#[test]
fn a_reinstall_replaces_srviews_group_in_place() {
    let world = World::bare(&[(
        ".claude/settings.json",
        "{\n  \"hooks\": {\n    \"PreToolUse\": []\n  }\n}\n",
    )]);
    let original = world.snapshot();
    world.ok(&["--agent", "claude-code"]);
    // The user adds a group of theirs after srview's.
    let text = world.text(".claude/settings.json");
    let at = text.rfind("\n    ]").expect("the list's end");
    let theirs = ",\n      {\"matcher\": \"Bash\", \"hooks\": [{\"type\": \"command\", \"command\": \"echo B\"}]}";
    std::fs::write(
        world.home.join(".claude/settings.json"),
        format!("{}{theirs}{}", &text[..at], &text[at..]),
    )
    .expect("the user's edit");
    world.ok(&["--agent", "claude-code", "--timeout", "30"]);
    let pre = world.hooks(".claude/settings.json", "PreToolUse");
    assert_eq!(pre.len(), 2);
    assert_eq!(
        pre[0],
        gate_group("Edit|Write", "claude-code", "none", 30, 30)
    );
    assert_eq!(pre[1]["hooks"][0]["command"], "echo B");
    world.ok(&["--agent", "claude-code", "--uninstall"]);
    let text = world.text(".claude/settings.json");
    assert_eq!(
        text,
        format!(
            "{{\n  \"hooks\": {{\n    \"PreToolUse\": [\n      {}\n    ]\n  }}\n}}\n",
            &theirs[8..]
        )
    );
    std::fs::write(
        world.home.join(".claude/settings.json"),
        "{\n  \"hooks\": {\n    \"PreToolUse\": []\n  }\n}\n",
    )
    .expect("back");
    assert_eq!(world.snapshot(), original);
}

/// Install then uninstall gives back the same bytes, for each settings
/// agent, with a one-line file and with a file holding other hooks of the
/// same event, of another event, and another agent's gate.
#[test]
fn install_then_uninstall_gives_back_each_shape() {
    let shapes = |event: &str| {
        vec![
            format!(
                "{{\"hooks\": {{\"{event}\": [{{\"matcher\": \"x\", \"hooks\": [{{\"type\": \"command\", \"command\": \"a\"}}]}}]}}}}"
            ),
            format!("{{\"model\": \"m\", \"hooks\": {{\"Other\": []}}}}\n"),
            format!(
                "{{\n    \"hooks\": {{\n        \"{event}\": [\n            {{\n                \"matcher\": \"*\",\n                \
                 \"hooks\": [\n                    {{ \"type\": \"command\", \"command\": \"/usr/bin/srview gate --agent pi --timeout 5\" }},\n                    \
                 {{ \"type\": \"command\", \"command\": \"audit\" }}\n                ]\n            }}\n        ],\n        \
                 \"Stop\": []\n    }}\n}}\n"
            ),
            "// mine\n{\n\t\"a\": [1, 2] /* kept */\n}".to_string(),
        ]
    };
    let agents = [
        ("claude-code", ".claude/settings.json", "PreToolUse"),
        ("gemini-cli", ".gemini/settings.json", "BeforeTool"),
        ("qwen-code", ".qwen/settings.json", "PreToolUse"),
        ("codex", ".codex/hooks.json", "PreToolUse"),
    ];
    for (agent, file, event) in agents {
        for shape in shapes(event) {
            let world = World::bare(&[(file, &shape)]);
            let original = world.snapshot();
            world.ok(&["--agent", agent]);
            assert_ne!(world.text(file), shape, "{agent}: {shape}");
            world.ok(&["--agent", agent]);
            world.ok(&["--agent", agent, "--uninstall"]);
            assert_eq!(world.snapshot(), original, "{agent}: {shape}");
        }
    }
}

/// Round-38c finding 01: a key on the path install edits given twice (the
/// agents read JSON keeping the last, as JSON.parse and Python's json do:
/// a hook added to the first `hooks` would never run). Refused, exit 2,
/// the key and its lines named, nothing written; uninstall too.
#[test]
fn a_hook_key_given_twice_is_refused() {
    let cases = [
        (
            "claude-code",
            ".claude/settings.json",
            "{\n  \"hooks\": {\n    \"PreToolUse\": [\n      {\"matcher\": \"Bash\", \"hooks\": [{\"type\": \"command\", \
             \"command\": \"echo old\"}]}\n    ]\n  },\n  \"model\": \"opus\",\n  \"hooks\": {\n    \"PostToolUse\": [\n      \
             {\"matcher\": \"Bash\", \"hooks\": [{\"type\": \"command\", \"command\": \"echo new\"}]}\n    ]\n  }\n}\n",
            "\"hooks\" is given twice (lines 2 and 8): srview edits no settings with a hook key given twice, since \
             Claude Code reads only one of them",
        ),
        (
            "gemini-cli",
            ".gemini/settings.json",
            "{\n  \"hooks\": {\n    \"BeforeTool\": [],\n    \"BeforeTool\": [\n      {\"matcher\": \"run_shell_command\", \
             \"hooks\": [{\"type\": \"command\", \"command\": \"echo x\", \"timeout\": 5000}]}\n    ]\n  }\n}\n",
            "\"hooks\".\"BeforeTool\" is given twice (lines 3 and 4): srview edits no settings with a hook key given \
             twice, since Gemini CLI reads only one of them",
        ),
        (
            "codex",
            ".codex/hooks.json",
            "{\"hooks\": {}, \"hooks\": {},\n\"hooks\": {}}",
            "\"hooks\" is given 3 times (lines 1, 1 and 2): srview edits no settings with a hook key given twice, \
             since Codex reads only one of them",
        ),
    ];
    for (agent, file, text, why) in cases {
        let world = World::bare(&[(file, text)]);
        let original = world.snapshot();
        for uninstall in [false, true] {
            let mut args = vec!["--agent", agent];
            if uninstall {
                args.push("--uninstall");
            }
            let (stdout, stderr, code) = world.install(&args);
            assert_eq!(
                (stdout.as_str(), stderr, code),
                (
                    "",
                    format!(
                        "srview: gate install: {}: {why} (the last, if it reads JSON as JavaScript's JSON.parse \
                         and Python's json do), so a hook written into the other would never run: merge them into \
                         one; it is left as it is\n",
                        world.home.join(file).display()
                    ),
                    Some(2)
                ),
                "{agent} {args:?}"
            );
            assert_eq!(world.snapshot(), original, "{agent}: nothing written");
        }
    }
}

/// Codex's trust hash for srview's `command` (its identity's compact JSON
/// with sorted keys, SHA-256).
fn codex_hash(command: &str, timeout: u32) -> String {
    use sha2::Digest;
    let identity = format!(
        r#"{{"event_name":"pre_tool_use","hooks":[{{"async":false,"command":{},"timeout":{timeout},"type":"command"}}],"matcher":"apply_patch"}}"#,
        Value::from(command)
    );
    let hex: String = sha2::Sha256::digest(identity.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    format!("sha256:{hex}")
}

/// Round-38c finding 02's setup: the user's hook A (trusted at place 0),
/// srview installed after it (place 1), then the user's hook B added after
/// srview's and trusted at place 2.
fn codex_with_a_hook_after_srviews() -> World {
    let world = World::bare(&[
        (
            ".codex/hooks.json",
            "{\n  \"hooks\": {\n    \"PreToolUse\": [\n      {\"matcher\": \"Bash\", \"hooks\": [{\"type\": \"command\", \
             \"command\": \"echo A\", \"timeout\": 3}]}\n    ]\n  }\n}\n",
        ),
        (".codex/config.toml", "model = \"gpt-5.5\"\n"),
    ]);
    // The user trusts the group at place `n` with `hash`, in config.toml.
    let trust = |n: usize, hash: &str| {
        let config = world.text(".codex/config.toml");
        std::fs::write(
            world.home.join(".codex/config.toml"),
            format!(
                "{config}\n[hooks.state.\"{}/.codex/hooks.json:pre_tool_use:{n}:0\"]\ntrusted_hash = \"{hash}\"\n",
                world.home.display()
            ),
        )
        .expect("config.toml");
    };
    trust(0, "sha256:aaaa");
    world.ok(&["--agent", "codex"]);
    let path = world.home.join(".codex/hooks.json");
    let text = world.text(".codex/hooks.json");
    let at = text.rfind("\n    ]").expect("the list's end");
    std::fs::write(
        &path,
        format!(
            "{},\n      {{\"matcher\": \"apply_patch\", \"hooks\": [{{\"type\": \"command\", \"command\": \"echo B\", \
             \"timeout\": 3}}]}}{}",
            &text[..at],
            &text[at..]
        ),
    )
    .expect("B added");
    trust(2, "sha256:bbbb");
    world
}

/// Round-38c finding 02, uninstall: B moves from place 2 to 1, off its
/// trust: said plainly, exit 1; the user's trust entries stay as they are.
#[test]
fn codex_uninstall_says_which_hooks_lose_their_trust() {
    let world = codex_with_a_hook_after_srviews();
    let config = world.text(".codex/config.toml");
    let (stdout, stderr, code) = world.install(&["--agent", "codex", "--uninstall"]);
    let hooks = world.home.join(".codex/hooks.json");
    let toml = world.home.join(".codex/config.toml");
    assert_eq!(
        (stdout, stderr, code),
        (
            format!(
                "srview gate: uninstalled for Codex\n  changed {}\n  changed {}\nwarning: your hook `echo B` moves \
                 from group 3 to group 2 of hooks.PreToolUse in {}: Codex keys its trust by its place \
                 (pre_tool_use:2:0 in {}, now pre_tool_use:1:0), and skips it, silently, until it is trusted again: \
                 trust it in Codex's TUI (/hooks)\n",
                hooks.display(),
                toml.display(),
                hooks.display(),
                toml.display()
            ),
            String::new(),
            Some(1)
        )
    );
    let key = |n: usize| {
        format!(
            "{}/.codex/hooks.json:pre_tool_use:{n}:0",
            world.home.display()
        )
    };
    assert!(config.contains("# srview gate install"), "{config}");
    assert_eq!(
        world.text(".codex/config.toml"),
        format!(
            "model = \"gpt-5.5\"\n\n[hooks.state.\"{}\"]\ntrusted_hash = \"sha256:aaaa\"\n\n\
             [hooks.state.\"{}\"]\ntrusted_hash = \"sha256:bbbb\"\n",
            key(0),
            key(2)
        ),
        "srview's trust block goes, the user's entries stay"
    );
    let pre = world.hooks(".codex/hooks.json", "PreToolUse");
    assert_eq!(pre.len(), 2);
    assert_eq!(pre[1]["hooks"][0]["command"], "echo B");
}

/// Round-38c finding 02, re-install with another timeout: srview's group
/// is replaced where it is, so B keeps its place and its trust, and
/// srview's trust is written for the new hash at the same key: installed,
/// exit 0.
#[test]
fn codex_reinstall_keeps_every_group_in_its_place() {
    let world = codex_with_a_hook_after_srviews();
    let config = world.text(".codex/config.toml");
    let said = world.ok(&["--agent", "codex", "--timeout", "30"]);
    assert!(
        said.starts_with("srview gate: installed for Codex: "),
        "{said}"
    );
    assert!(!said.contains("warning"), "{said}");
    let pre = world.hooks(".codex/hooks.json", "PreToolUse");
    let commands: Vec<&str> = pre
        .iter()
        .map(|g| g["hooks"][0]["command"].as_str().expect("a command"))
        .collect();
    let ours = installed_command("codex", "none", 30);
    assert_eq!(commands, ["echo A", ours.as_str(), "echo B"]);
    let key = format!(
        "{}/.codex/hooks.json:pre_tool_use:1:0",
        world.home.display()
    );
    let old_hash = codex_hash(&installed_command("codex", "none", 60), 60);
    assert!(config.contains(&old_hash));
    let user = |n: usize, hash: &str| {
        format!(
            "[hooks.state.\"{}/.codex/hooks.json:pre_tool_use:{n}:0\"]\ntrusted_hash = \"{hash}\"\n",
            world.home.display()
        )
    };
    assert_eq!(
        world.text(".codex/config.toml"),
        format!(
            "model = \"gpt-5.5\"\n\n{}\n{}\n# srview gate install: trust for srview's hook (srview gate install \
             --uninstall removes it)\n[hooks.state.\"{key}\"]\ntrusted_hash = \"{}\"\n",
            user(0, "sha256:aaaa"),
            user(2, "sha256:bbbb"),
            codex_hash(&ours, 30)
        ),
        "srview's trust, at the same key, has the new hash; the user's stay"
    );
}

/// A trust of the user's already at srview's key: with another hash,
/// Codex would skip srview's hook: not "installed", a warning saying what
/// to do, exit 1, config.toml untouched; with srview's own hash, installed
/// with nothing added.
#[test]
fn codex_says_when_srviews_hook_will_not_be_trusted() {
    let hooks = "{\"hooks\": {\"PreToolUse\": [{\"matcher\": \"Bash\", \"hooks\": [{\"type\": \"command\", \
                 \"command\": \"echo A\", \"timeout\": 3}]}]}}\n";
    let ours = installed_command("codex", "none", 60);
    for (hash, off) in [
        ("sha256:cccc".to_string(), true),
        (codex_hash(&ours, 60), false),
    ] {
        let world = World::bare(&[(".codex/hooks.json", hooks)]);
        let key = format!(
            "{}/.codex/hooks.json:pre_tool_use:1:0",
            world.home.display()
        );
        let config = format!("[hooks.state.\"{key}\"]\ntrusted_hash = \"{hash}\"\n");
        std::fs::write(world.home.join(".codex/config.toml"), &config).expect("config.toml");
        let (stdout, _, code) = world.install(&["--agent", "codex"]);
        assert_eq!(world.text(".codex/config.toml"), config);
        assert_eq!(world.hooks(".codex/hooks.json", "PreToolUse").len(), 2);
        if off {
            assert_eq!(code, Some(1), "{stdout}");
            assert_eq!(
                stdout,
                format!(
                    "srview gate: written for Codex, but Codex will not run it until you act (warning below): {} \
                     gate --agent codex --timeout 60\n  changed {}\nwarning: Codex skips srview's hook: {} already \
                     trusts another hook at srview's place ([hooks.state.\"{key}\"] trusted_hash = \"{hash}\"), and \
                     srview leaves the user's trust as it is: trust srview's hook in Codex's TUI (/hooks), or take \
                     that entry out and run `srview gate install` again\n",
                    srview(),
                    world.home.join(".codex/hooks.json").display(),
                    world.home.join(".codex/config.toml").display()
                )
            );
        } else {
            assert_eq!(code, Some(0), "{stdout}");
            assert!(
                stdout.starts_with("srview gate: installed for Codex: "),
                "{stdout}"
            );
        }
        world.ok(&["--agent", "codex", "--uninstall"]);
        assert_eq!(world.text(".codex/hooks.json"), hooks);
        assert_eq!(world.text(".codex/config.toml"), config);
    }
}

/// Round-38c finding 04: settings whose own switch turns every hook off
/// (Claude Code's and Qwen Code's `"disableAllHooks": true`, Gemini CLI's
/// `"hooksConfig": {"enabled": false}`, Codex's `[features] hooks =
/// false`): install still writes, but says plainly that the hook will not
/// run until the setting is removed, never "installed": exit 1. The
/// user's switch stays; uninstall gives the files back.
#[test]
fn install_under_a_switch_turning_hooks_off_says_so() {
    let cases = [
        (
            "claude-code",
            ".claude/settings.json",
            "{\"disableAllHooks\": true}\n",
            "Claude Code runs no hook while {path} sets \"disableAllHooks\": true (line 1)",
        ),
        (
            "qwen-code",
            ".qwen/settings.json",
            "{\n  \"disableAllHooks\": false,\n  \"disableAllHooks\": true\n}\n",
            "Qwen Code runs no hook while {path} sets \"disableAllHooks\": true (line 3)",
        ),
        (
            "gemini-cli",
            ".gemini/settings.json",
            "{\n  \"hooksConfig\": {\n    \"enabled\": false\n  }\n}\n",
            "Gemini CLI runs no hook while {path} sets \"hooksConfig\": {\"enabled\": false} (line 3)",
        ),
        (
            "codex",
            ".codex/config.toml",
            "[features]\nhooks = false\n",
            "Codex runs no hook while {path} sets hooks = false in its [features]",
        ),
    ];
    for (agent, file, text, why) in cases {
        let world = World::bare(&[(file, text)]);
        let original = world.snapshot();
        let path = world.home.join(file);
        let (stdout, _, code) = world.install(&["--agent", agent]);
        assert_eq!(code, Some(1), "{agent}: {stdout}");
        let title = stdout
            .strip_prefix("srview gate: written for ")
            .and_then(|rest| rest.split_once(", but "))
            .map(|(title, _)| title.to_string())
            .expect("the first line");
        assert!(
            stdout.starts_with(&format!(
                "srview gate: written for {title}, but {title} will not run it until you act (warning below): {} \
                 gate --agent {agent} --timeout 60\n",
                srview()
            )),
            "{stdout}"
        );
        assert!(
            stdout.ends_with(&format!(
                "warning: {}: srview's hook is written, but it will not run until that setting is removed (srview \
                 leaves your setting as it is)\n",
                why.replace("{path}", &path.display().to_string())
            )),
            "{stdout}"
        );
        assert!(
            world
                .text(file)
                .starts_with(text.trim_end_matches(['}', '\n'])),
            "{agent}: the switch stays"
        );
        let (again, _, code) = world.install(&["--agent", agent]);
        assert_eq!(code, Some(1), "{again}");
        assert!(
            again.starts_with(&format!("srview gate: already written for {title}, but ")),
            "{again}"
        );
        let (dry, _, code) = world.install(&["--agent", agent, "--dry-run"]);
        assert_eq!(code, Some(1), "{dry}");
        assert!(dry.contains("\nwarning: "), "{dry}");
        world.ok(&["--agent", agent, "--uninstall"]);
        assert_eq!(world.snapshot(), original, "{agent}");
    }
}

/// srview's group as the user laid it out again (one line, a comment
/// inside): installing again with the same options keeps it as it is.
#[test]
fn a_reinstall_keeps_srviews_group_however_laid_out() {
    let settings = format!(
        "{{\n  \"hooks\": {{\n    \"PreToolUse\": [\n      {{ \"matcher\": \"Edit|Write\", /* srview */ \"hooks\": \
         [ {{ \"type\": \"command\", \"command\": {}, \"timeout\": 60 }} ] }}\n    ]\n  }}\n}}\n",
        Value::from(installed_command("claude-code", "none", 60))
    );
    let world = World::bare(&[(".claude/settings.json", &settings)]);
    let said = world.ok(&["--agent", "claude-code"]);
    assert_eq!(said, "srview gate: already installed for Claude Code\n");
    assert_eq!(world.text(".claude/settings.json"), settings);
    world.ok(&["--agent", "claude-code", "--timeout", "9"]);
    assert_eq!(
        world.hooks(".claude/settings.json", "PreToolUse"),
        vec![gate_group("Edit|Write", "claude-code", "none", 9, 9)]
    );
    world.ok(&["--agent", "claude-code", "--uninstall"]);
    assert_eq!(
        world.text(".claude/settings.json"),
        "{\n  \"hooks\": {\n    \"PreToolUse\": []\n  }\n}\n",
        "the group recorded that the user had hooks and the event's list"
    );
}

/// Codex canonicalises `CODEX_HOME` (its `find_codex_home`) and keys the
/// hook's trust by its hooks.json there: behind a symbolic link, srview
/// writes the real folder's files and key (a tester's find: the key named
/// the link, and Codex skipped the gate silently); a relative
/// `CODEX_HOME`, which Codex reads against the folder it runs in, is
/// refused with exit 2 and nothing written.
#[test]
fn codex_home_is_resolved_as_codex_resolves_it() {
    let world = World::empty();
    let real = world.home.join("dotfiles/codex");
    std::fs::create_dir_all(&real).expect("the real folder");
    let link = world.home.join("codex-link");
    std::os::unix::fs::symlink(&real, &link).expect("the link");
    let real = real.canonicalize().expect("canonical");
    let run = |codex_home: &Path| {
        Command::new(env!("CARGO_BIN_EXE_srview"))
            .current_dir(&world.project)
            .env("HOME", &world.home)
            .env("CODEX_HOME", codex_home)
            .args(["gate", "install", "--agent", "codex"])
            .output()
            .expect("srview runs")
    };
    let out = run(&link);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let config = std::fs::read_to_string(real.join("config.toml")).expect("config.toml");
    let key = format!(
        "[hooks.state.\"{}:pre_tool_use:0:0\"]",
        real.join("hooks.json").display()
    );
    assert!(config.contains(&key), "{config}");
    assert!(!config.contains("codex-link"), "{config}");
    let before = world.snapshot();
    let out = run(Path::new("codex-here"));
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "srview: gate install: CODEX_HOME (codex-here) is a relative path, which Codex reads \
         against the folder it runs in: set CODEX_HOME to an absolute path (in the shell that \
         runs Codex too) and install again\n"
    );
    assert_eq!(world.snapshot(), before);
}
