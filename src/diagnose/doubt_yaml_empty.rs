//! *Pure.* An edit that adds a YAML key with no value and, below it, the
//! lines meant as its content at the key's own column (a tester's find,
//! round 48 T-05: `with:` then `python-version: '3.11'` both at the column
//! of `with`, under `- uses: actions/setup-python@v5`). The file still
//! parses: PyYAML reads `with: null` and `python-version` as a sibling of
//! `uses`, and setup-python runs with its default version; srview called
//! it fine.
//!
//! The rule, by evidence only, for a YAML file both before and after the
//! edit parse: a plain key the result holds nothing for (`with:`, no value,
//! YAML's null), on a line the edit changed, whose next key in the same
//! mapping stands at its column on a changed line below it and holds a
//! scalar written there (`python-version: '3.11'`), is doubted when its
//! value is a block by either of:
//! - the file before holds the same key's name with a mapping or a list
//!   (and never with a scalar);
//! - the key is one whose value is a block by the schema of the files that
//!   use it: GitHub Actions' `with`, `env`, `steps`, `jobs`, `services`,
//!   `strategy`, `matrix`, `outputs`, `inputs`, `defaults`; Docker
//!   Compose's `environment`, `ports`, `volumes`, `depends_on`, `labels`,
//!   `healthcheck`, `deploy`, `extra_hosts`, `networks`; Kubernetes'
//!   `metadata`, `spec`, `containers`, `selector`, `matchLabels`,
//!   `annotations`, `resources`, `requests`, `limits`, `volumeMounts`,
//!   `data`; Ansible's `tasks`, `handlers`, `vars`.
//!
//! The lines meant as its content are that key and the following keys of
//! the same mapping that also hold a scalar, stand on changed lines, and
//! follow without a line at a smaller column between them. The doubt
//! offers them indented by the file's step (the most common column a
//! mapping's first key stands right of its own key; 2 where none), where
//! the file so corrected parses and the key then holds a mapping of
//! exactly those keys (the reading PyYAML gives it).
//!
//! Not doubted: an empty key the file before already held above the same
//! sibling; a sibling holding nothing or a block itself (Compose's named
//! volumes, `db-data:` above `logs:`, are empty on purpose; a key written
//! with its own block below it is read as meant beside the empty one); a
//! list at the key's column (`steps:` then `- run: x` is the list of
//! `steps`, as YAML reads it); a key whose name the file holds with a
//! scalar somewhere; a file that does not parse before or after (the parse
//! check, [`super::doubt_not_yaml`], speaks for it).

use super::doubt_yaml_value::{Holds, Key, keys};
use crate::textdiff::changed_lines;
use std::collections::HashMap;

/// An empty key an edit adds above the lines meant as its content, at its
/// own column.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EmptyKey {
    /// The result's line (1-based) holding the key.
    pub line: usize,
    /// The key.
    pub key: String,
    /// The first key below it read as its sibling: its line (1-based) and
    /// that line, trimmed.
    pub sibling: (usize, String),
    /// How many keys below it were meant as its content.
    pub keys: usize,
    /// Why its value is a block.
    pub why: Block,
    /// The lines meant as its content indented by the file's step (the
    /// step, the lines as corrected), where so corrected the file parses
    /// with the key holding them.
    pub offer: Option<(usize, Vec<String>)>,
}

/// What says a key's value is a block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Block {
    /// The file held the key with a mapping (`true`) or a list, on this
    /// line (1-based): of the result where the edit kept that line
    /// (`true`), else of the file before.
    Elsewhere(usize, bool, bool),
    /// The key's value is a block by the schema of the files using it.
    Schema,
}

/// Keys whose value is a mapping or a list wherever they are used: GitHub
/// Actions, Docker Compose, Kubernetes and Ansible (see the module).
const BLOCK_KEYS: [&str; 38] = [
    "with",
    "env",
    "steps",
    "jobs",
    "services",
    "strategy",
    "matrix",
    "outputs",
    "inputs",
    "defaults",
    "environment",
    "ports",
    "volumes",
    "depends_on",
    "labels",
    "healthcheck",
    "deploy",
    "extra_hosts",
    "networks",
    "metadata",
    "spec",
    "containers",
    "initContainers",
    "selector",
    "matchLabels",
    "annotations",
    "resources",
    "requests",
    "limits",
    "volumeMounts",
    "data",
    "template",
    "tasks",
    "handlers",
    "vars",
    "pre_tasks",
    "post_tasks",
    "env_file",
];

impl EmptyKey {
    /// One sentence without a final stop.
    pub fn describe(&self) -> String {
        let Some((step, lines)) = &self.offer else {
            return format!("{}: indent its content under it", self.fault());
        };
        let count = match lines.len() {
            1 => "the line".to_string(),
            n => format!("the {n} lines"),
        };
        let shown: Vec<String> = lines.iter().map(|l| format!("`{l}`")).collect();
        format!(
            "{}: indent {count} below it by {step} columns ({}) to put {} under `{}`",
            self.fault(),
            shown.join(", "),
            if self.keys == 1 { "it" } else { "them" },
            self.key
        )
    }

    /// [`Self::describe`] without what to send instead.
    pub fn fault(&self) -> String {
        let why = match self.why {
            Block::Elsewhere(line, kept, mapping) => {
                let what = if mapping { "a mapping" } else { "a list" };
                let place = if kept {
                    format!("line {line}")
                } else {
                    format!("line {line} of the file before")
                };
                format!("{place} gives `{}` {what}", self.key)
            }
            Block::Schema => format!("`{}` holds a mapping or a list", self.key),
        };
        let (line, text) = &self.sibling;
        format!(
            "as written, line {} (`{}:`) leaves `{}` empty, which YAML reads as null, and \
             line {line} (`{text}`), at the column of `{}` itself, as its sibling, not its \
             content ({why})",
            self.line, self.key, self.key, self.key
        )
    }
}

/// The first empty key `result` (a YAML file as an edit leaves it) gains
/// above the lines meant as its content at its own column (see the
/// module).
pub(super) fn yaml_empty_key(original: &str, result: &str) -> Option<EmptyKey> {
    if original == result {
        return None;
    }
    let (old, new, prefix, suffix) = changed_lines(original, result);
    let old_len = old.len();
    let changed = prefix + 1..=new.len() - suffix;
    if changed.is_empty() {
        return None;
    }
    let after = keys(result)?;
    let candidates: Vec<(usize, usize)> = after
        .iter()
        .enumerate()
        .filter(|(_, k)| k.holds == Holds::Nothing && changed.contains(&k.line))
        .filter_map(|(i, _)| Some((i, next_in_mapping(&after, i)?)))
        .filter(|&(i, j)| {
            let (k, s) = (&after[i], &after[j]);
            s.line > k.line
                && s.column == k.column
                && s.holds == Holds::Scalar
                && changed.contains(&s.line)
        })
        .collect();
    if candidates.is_empty() {
        return None;
    }
    let before = keys(original)?;
    candidates.into_iter().find_map(|(i, j)| {
        let key = &after[i];
        let was_so = before.iter().enumerate().any(|(b, k)| {
            k.name == key.name
                && k.holds == Holds::Nothing
                && next_in_mapping(&before, b).is_some_and(|s| before[s].name == after[j].name)
        });
        if was_so {
            return None;
        }
        // A line of the file before as the result numbers it, where kept.
        let kept = |line: usize| match line {
            l if l <= prefix => Some(l),
            l if l > old_len - suffix => Some(l + new.len() - old_len),
            _ => None,
        };
        let why = match block_by(&before, &key.name)? {
            Block::Elsewhere(line, _, mapping) => match kept(line) {
                Some(now) => Block::Elsewhere(now, true, mapping),
                None => Block::Elsewhere(line, false, mapping),
            },
            schema => schema,
        };
        let content = content_keys(&after, i, &changed);
        let sibling = after[j].line;
        let offer = offer(result, &after, key, &content, step(&before, &after));
        Some(EmptyKey {
            line: key.line,
            key: key.name.clone(),
            sibling: (
                sibling,
                new.get(sibling - 1)
                    .map_or(String::new(), |l| l.trim().to_string()),
            ),
            keys: content.len(),
            why,
            offer,
        })
    })
}

/// The index of the key after `keys[at]` in the same mapping.
fn next_in_mapping(keys: &[Key], at: usize) -> Option<usize> {
    let mapping = keys.get(at)?.mapping;
    (at + 1..keys.len()).find(|&i| keys[i].mapping == mapping)
}

/// Why the key `name` holds a block: the file before gives it one, and
/// never a scalar, or its name is one of [`BLOCK_KEYS`].
fn block_by(before: &[Key], name: &str) -> Option<Block> {
    let same: Vec<&Key> = before.iter().filter(|k| k.name == name).collect();
    if same.iter().any(|k| k.holds == Holds::Scalar) {
        return None;
    }
    let held = same.iter().find_map(|k| match k.holds {
        Holds::Mapping => Some(Block::Elsewhere(k.line, false, true)),
        Holds::Sequence => Some(Block::Elsewhere(k.line, false, false)),
        _ => None,
    });
    held.or_else(|| BLOCK_KEYS.contains(&name).then_some(Block::Schema))
}

/// The keys after `keys[empty]` in its mapping meant as its content: each
/// holding a scalar, on a changed line, in a row.
fn content_keys(
    keys: &[Key],
    empty: usize,
    changed: &std::ops::RangeInclusive<usize>,
) -> Vec<usize> {
    let mut found = Vec::new();
    let mut at = empty;
    while let Some(next) = next_in_mapping(keys, at) {
        let k = &keys[next];
        if k.holds != Holds::Scalar || !changed.contains(&k.line) {
            break;
        }
        found.push(next);
        at = next;
    }
    found
}

/// The file's indentation step: the most common column a mapping's first
/// key stands right of the key holding that mapping, in the file before
/// (else as the edit leaves it; 2 where neither has one).
fn step(before: &[Key], after: &[Key]) -> usize {
    let count = |keys: &[Key]| {
        let mut steps: HashMap<usize, usize> = HashMap::new();
        for pair in keys.windows(2) {
            let (holder, first) = (&pair[0], &pair[1]);
            if holder.holds == Holds::Mapping
                && first.line > holder.line
                && first.column > holder.column
            {
                *steps.entry(first.column - holder.column).or_default() += 1;
            }
        }
        steps
            .into_iter()
            .max_by_key(|&(step, n)| (n, std::cmp::Reverse(step)))
            .map(|(step, _)| step)
    };
    count(before).or_else(|| count(after)).unwrap_or(2)
}

/// The lines of the content keys indented by `step` (from the first
/// content key's line to the line before the next line at the key's column
/// or left of it), where the result so corrected parses with the key
/// holding a mapping of exactly those keys.
fn offer(
    result: &str,
    all: &[Key],
    key: &Key,
    content: &[usize],
    step: usize,
) -> Option<(usize, Vec<String>)> {
    let first = all.get(*content.first()?)?.line;
    let last = all.get(*content.last()?)?.line;
    let lines: Vec<&str> = result.split_inclusive('\n').collect();
    let column = |line: &str| line.chars().take_while(|&c| c == ' ').count();
    let content_line = |line: &str| {
        let t = line.trim();
        !t.is_empty() && !t.starts_with('#')
    };
    // The last content key's value may run on below it, deeper.
    let end = (last..lines.len())
        .find(|&i| content_line(lines[i]) && column(lines[i]) <= key.column)
        .unwrap_or(lines.len());
    let pad = " ".repeat(step);
    let mut corrected = String::new();
    let mut shown = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        if (first - 1..end).contains(&i) && !line.trim().is_empty() {
            corrected.push_str(&pad);
            shown.push(format!("{pad}{}", line.trim_end()));
        }
        corrected.push_str(line);
    }
    let read = keys(&corrected)?;
    let at = read
        .iter()
        .position(|k| k.line == key.line && k.name == key.name)?;
    let held = read[at].holds == Holds::Mapping
        && read.get(at + 1).is_some_and(|k| {
            read.iter().filter(|c| c.mapping == k.mapping).count() == content.len()
        });
    held.then_some((step, shown))
}

#[cfg(test)]
mod tests {
    use super::{Block, yaml_empty_key};

    const CI: &str = "name: ci\non: [push]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    \
                      steps:\n      - uses: actions/checkout@v4\n      - uses: \
                      actions/setup-python@v5\n        with:\n          python-version: \
                      '3.11'\n      - run: pytest\n";

    fn said(original: &str, result: &str) -> Option<String> {
        yaml_empty_key(original, result).map(|e| e.describe())
    }

    /// The tester's find (round 48 T-05): a new step's `with:` and its
    /// input at one column. PyYAML reads the result as `{'uses':
    /// 'actions/setup-node@v4', 'with': None, 'node-version': '20'}`, and
    /// the offered lines as `{'uses': ..., 'with': {'node-version': '20',
    /// 'cache': 'npm'}}` (checked with python3 -c 'import yaml').
    #[test]
    fn an_empty_key_above_its_content_at_its_column_is_doubted() {
        let step = "      - uses: actions/checkout@v4\n";
        let node = "      - uses: actions/checkout@v4\n      - uses: actions/setup-node@v4\n        \
                    with:\n        node-version: '20'\n        cache: npm\n";
        let got = yaml_empty_key(CI, &CI.replace(step, node));
        assert_eq!(
            got.as_ref().map(|e| e.why.clone()),
            Some(Block::Elsewhere(13, true, true))
        );
        assert_eq!(
            said(CI, &CI.replace(step, node)).as_deref(),
            Some(
                "as written, line 9 (`with:`) leaves `with` empty, which YAML reads as null, \
                 and line 10 (`node-version: '20'`), at the column of `with` itself, as its \
                 sibling, not its content (line 13 gives `with` a mapping): \
                 indent the 2 lines below it by 2 columns (`          node-version: '20'`, \
                 `          cache: npm`) to put them under `with`"
            )
        );
        // A new `env:` where the file has none: by its schema.
        let env = "      - run: pytest\n        env:\n        CI: 'true'\n";
        let got = yaml_empty_key(CI, &CI.replace("      - run: pytest\n", env));
        assert_eq!(got.as_ref().map(|e| e.why.clone()), Some(Block::Schema));
        assert_eq!(got.map(|e| e.keys), Some(1));
        // Indented by 4 where the file steps by 4.
        let four = "a:\n    with:\n        x: 1\n    b: 1\n";
        let got = said(
            four,
            &four.replace("    b: 1\n", "    b: 1\n    env:\n    y: 2\n"),
        );
        assert!(
            got.as_deref().is_some_and(|g| g.ends_with(
                "indent the line below it by 4 columns (`        y: 2`) to put it under `env`"
            )),
            "{got:?}"
        );
    }

    /// No doubt: an empty key whose sibling holds nothing (Compose's named
    /// volumes), a list at the key's column, a key the file gives a
    /// scalar, a name neither the file nor a schema makes a block, the
    /// content indented, a sibling holding its own block, the pattern the
    /// file held already.
    #[test]
    fn empty_keys_meant_empty_are_not_doubted() {
        let compose = "services:\n  db:\n    image: postgres\nvolumes:\n  data:\n";
        let cases = [
            (compose, compose.replace("  data:\n", "  data:\n  logs:\n")),
            (
                CI,
                CI.replace(
                    "      - run: pytest\n",
                    "      - run: pytest\n        env:\n",
                ),
            ),
            (
                "a:\n  b: 1\n",
                "a:\n  b: 1\n  steps:\n  - run: x\n".to_string(),
            ),
            (
                "a:\n  with: 1\n",
                "a:\n  with: 1\nb:\n  with:\n  x: 1\n".to_string(),
            ),
            ("a:\n  b: 1\n", "a:\n  b: 1\n  extra:\n  x: 1\n".to_string()),
            (
                CI,
                CI.replace("        with:\n", "        with:\n          cache: pip\n"),
            ),
            (
                "a:\n  b: 1\n",
                "a:\n  b: 1\n  env:\n  deploy:\n    x: 1\n".to_string(),
            ),
            (
                "a:\n  env:\n  x: 1\n",
                "a:\n  env:\n  x: 1\nb: 2\n".to_string(),
            ),
        ];
        for (original, result) in cases {
            assert_eq!(said(original, &result), None, "{result}");
        }
    }
}
