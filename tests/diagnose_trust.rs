//! The cases a new user met where the diagnosis was confidently wrong, and
//! what it must say instead (issue: "never confidently wrong").

use srview::diagnose::{DifferenceKind, MIN_SIMILARITY, Reason, Status, diagnose};
use srview::engine::{Options, Stage, Version, apply};
use std::process::Output;

mod support;

use support::text::assert_contains;

use support::diff::block_of_lines as block;

/// A TypeScript file with many classes: `}` and `super();` repeat.
fn widgets() -> String {
    let mut out = String::from("import { Base } from \"./base\";\n\n");
    for (i, name) in ["Widget", "Gadget", "Gizmo", "Doohickey", "Contraption"]
        .iter()
        .enumerate()
    {
        out.push_str(&format!(
            "export class {name} extends Base {{\n  private count = {i};\n\n  constructor() {{\n    super();\n  }}\n\n  describe(): string {{\n    return `{name} ${{this.count}} of {i}`;\n  }}\n\n  reset(): void {{\n    this.count = 0;\n    return;\n  }}\n}}\n\n"
        ));
    }
    out
}

fn options(version: Version, is_final: bool) -> Options {
    Options { version, is_final }
}

fn final_v1() -> Options {
    options(Version::V1, true)
}

fn line_of(text: &str, needle: &str) -> usize {
    text.lines()
        .position(|l| l.contains(needle))
        .expect("line present")
        + 1
}

/// A typo line followed by a common `}`: the region is the typo line's true
/// place, never an unrelated `super(); }`, and the suggestion edits only it.
#[test]
fn typo_line_with_a_common_line_finds_its_true_place() {
    let file = widgets();
    for (search, lines, source) in [
        (
            "    return `Gizmo ${this.cuont} of 2`;\n  }\n",
            2,
            "`Gizmo ",
        ),
        (
            "    return `Contraptoin ${this.count} of 4`;\n  }\n\n",
            3,
            "`Contraption ",
        ),
        (
            "\n  describe(): strnig {\n    return `Gadget ${this.count} of 1`;\n",
            3,
            "`Gadget ",
        ),
    ] {
        // Replacing the typo'd lines: the file's line is the same line
        // misspelt, so the suggestion replaces exactly the region's lines.
        let d = &one_block(&file, search, "    replaced();\n");
        assert_eq!(d.reason, Some(Reason::Edited), "{}", d.message);
        let c = d.closest.expect("a region");
        assert!(c.similarity >= MIN_SIMILARITY && c.similarity < 1.0);
        assert_eq!(c.end_line - c.start_line + 1, lines, "{}", d.message);
        let got = applied_suggestion(d, &file);
        let kept: Vec<&str> = file.lines().collect();
        let mut want: Vec<&str> = kept[..c.start_line - 1].to_vec();
        want.push("    replaced();");
        want.extend(&kept[c.end_line..]);
        assert_eq!(got, want.join("\n") + "\n", "{}", d.message);
        // Keeping it and adding a line after the region: the suggestion,
        // applied alone, adds exactly that line after exactly those lines.
        let d = &one_block(&file, search, &format!("{search}    added();\n"));
        assert_eq!(d.closest, Some(c), "{}", d.message);
        let got = applied_suggestion(d, &file);
        let mut want: Vec<&str> = file.lines().collect();
        want.insert(c.end_line, "    added();");
        assert_eq!(got, want.join("\n") + "\n");
        // ... and those are the lines the SEARCH text was taken from.
        let at = line_of(&file, source);
        assert!((c.start_line..=c.end_line).contains(&at), "{}", d.message);
    }
}

/// A paragraph with nothing like it in the file: not found, no region, no
/// suggestion (it used to get `edited` at similarity 0.3 and a suggestion
/// replacing five random lines).
#[test]
fn unrelated_text_is_not_found() {
    let file = widgets();
    let d = &one_block(
        &file,
        "The quick brown fox jumps over the lazy dog while\nthe committee deliberates about the annual budget\nand nobody remembers where the meeting notes went\nafter the fire drill on Tuesday afternoon ended.\n",
        "nothing\n",
    );
    assert_eq!(d.reason, Some(Reason::NotFound), "{}", d.message);
    assert_eq!(d.closest, None);
    assert_eq!(d.suggestion, None);
    assert_contains(&d.message, "nothing similar exists");
    assert!(
        d.why_no_region()
            .expect("says why")
            .contains("no similar region")
    );
}

/// The middle of a longer line is `partial-line` at that line, and its
/// suggestion replaces just that piece.
#[test]
fn a_middle_fragment_is_a_partial_line() {
    let file = widgets();
    let d = &one_block(&file, "${this.count} of 3\n", "${this.count} of three\n");
    assert_eq!(d.reason, Some(Reason::PartialLine), "{}", d.message);
    let c = d.closest.expect("the line");
    let line = line_of(&file, "Doohickey ${");
    assert_eq!((c.start_line, c.end_line), (line, line));
    // The file's line has code on both sides of the fragment, and the edit
    // rewrites it: both changed the line, so nothing is merged inside it.
    assert_eq!(d.suggestion, None);
    assert_contains(
        d.withheld.as_deref().expect("says why"),
        &format!("the SEARCH text is only part of line {line}"),
    );
}

/// A block the engine failed on has no stage; how it would match on its
/// own is `wouldMatch`.
#[test]
fn a_failed_block_has_no_stage() {
    let file = widgets();
    // v2 rejects the unclosed block, though its SEARCH text is in the file.
    let diff = "------- SEARCH\n    this.count = 0;\n    return;\n=======\n    this.count = 1;\n";
    let options = options(Version::V2, true);
    let d = &diagnose(diff, &file, options)[0];
    assert_eq!(d.state, Status::Failed);
    assert_eq!(d.stage, None);
    assert_eq!(d.would_match, Some(Stage::Exact));
    let json = serde_json::to_value(d).expect("serializes");
    assert_eq!(json["stage"], serde_json::Value::Null);
    assert_eq!(json["wouldMatch"], "exact");
}

/// A block indented two spaces too deep: every line pairs with its own
/// file line (the closing braces included), each an indentation change.
#[test]
fn a_reindented_block_pairs_every_line_with_its_own() {
    let file = widgets();
    let start = line_of(&file, "class Gizmo");
    let lines: Vec<&str> = file.lines().skip(start - 1).take(7).collect();
    let search: String = lines.iter().map(|l| format!("  {l}\n")).collect();
    let d = &one_block(&file, &search, "x\n");
    // Blank lines indented too are indentation changes as well.
    let nonblank: Vec<usize> = (0..7).collect();
    assert_eq!(d.differences.len(), nonblank.len(), "{:#?}", d.differences);
    for (x, &k) in d.differences.iter().zip(&nonblank) {
        assert_eq!(x.kind, DifferenceKind::Indentation, "{x:?}");
        assert_eq!(x.search_line, Some(k + 1));
        assert_eq!(x.file_line, Some(start + k));
    }
    let lines_named: Vec<String> = nonblank.iter().map(|k| (k + 1).to_string()).collect();
    assert_contains(
        &d.message,
        &format!("on SEARCH lines {}", lines_named.join(", ")),
    );
}

/// A block whose first and last lines are common matches through the
/// block-anchor fallback at the first place they fit; when its middle is
/// clearly another region's, the diagnosis says the edit lands at the
/// wrong place and points at the right one.
#[test]
fn a_block_anchor_match_at_the_wrong_place_is_called_so() {
    let file = widgets();
    // The reference matches it by its first and last lines at the first
    // reset(); every reset() is alike, so that place is a guess: the
    // diagnosis says so and suggests nothing.
    let d = &one_block(
        &file,
        "  reset(): void {\n    this.count = 0;\n    retrun;\n  }\n",
        "  reset(): void {\n  }\n",
    );
    assert_eq!(d.state, Status::Applied);
    assert_eq!(d.stage, Some(Stage::BlockAnchor));
    assert!(d.risky && !d.misplaced, "{}", d.message);
    assert!(d.tie.is_some(), "{}", d.message);
    assert_eq!(d.suggestion, None);
    assert_contains(&d.message, "the place is a guess");

    // Now a block whose anchors (`{` ... `}`) fit first at Widget's
    // describe() but whose middle is Contraption's.
    let diff = block(
        "  describe(): string {\n    return `Contraption ${this.count} of 4`;\n  }\n",
        "  describe(): string {\n    return `C`;\n  }\n",
    );
    let mut damaged = file.clone();
    damaged = damaged.replace(
        "  describe(): string {\n    return `Contraption",
        "  describe(): string  {\n    return `Contraption",
    );
    let out = apply(&diff, &damaged, final_v1());
    let b = &out.blocks[0];
    assert_eq!(b.stage, Some(Stage::BlockAnchor), "{b:?}");
    let d = &diagnose(&diff, &damaged, final_v1())[0];
    assert!(d.misplaced, "{}", d.message);
    let c = d.closest.expect("the right region");
    let want = line_of(&damaged, "describe(): string  {");
    assert_eq!(c.start_line, want, "{}", d.message);
    assert_contains(&d.message, "the edit lands at the wrong place");
    // The line the author kept is the file's own (its double space stays).
    assert_eq!(
        applied_suggestion(d, &damaged),
        damaged.replace(
            "    return `Contraption ${this.count} of 4`;\n",
            "    return `C`;\n"
        )
    );
}

/// Two places equally similar: neither is offered.
#[test]
fn a_tie_offers_no_region() {
    let file =
        "fn a() {\n    let total = compute(1);\n}\n\nfn b() {\n    let total = compute(2);\n}\n";
    let d = &one_block(
        file,
        "    let total = compute(X);\n",
        "    let total = 0;\n",
    );
    assert_eq!(d.closest, None, "{}", d.message);
    assert_eq!(d.suggestion, None);
    let [a, b] = d.tie.expect("a tie");
    assert_eq!((a.start_line, b.start_line), (2, 6));
    assert_contains(&d.message, "no single closest region");
}

/// A SEARCH made only of lines the file repeats cannot be placed.
#[test]
fn only_common_lines_is_vague() {
    let file = widgets();
    let d = &one_block(&file, "  }\n  }\n}\n  }\n", "}\n");
    assert!(d.vague, "{}", d.message);
    assert_eq!(d.closest, None);
    assert_eq!(d.suggestion, None);
}

const INVENTORY: &str = "class Inventory:\n    def add(self, item):\n        if item.sku in self.items:\n            raise ValueError(f\"duplicate sku {item.sku}\")\n        self.items[item.sku] = item\n\n    def sell(self, sku: str, amount: int) -> bool:\n        item = self.items.get(sku)\n        if item is None:\n            return False\n        if item.qty < amount:\n            return False\n        item.qty -= amount\n        return True\n";

/// What a suggestion applied alone makes of `file`.
fn suggested_result(file: &str, diff: &str) -> String {
    applied_suggestion(&diagnose(diff, file, final_v1())[0], file)
}

/// What the suggestion for one block (SEARCH `search`, REPLACE
/// `replace`), applied alone, makes of `file`.
fn suggested_by(file: &str, search: &str, replace: &str) -> String {
    suggested_result(file, &block(search, replace))
}

/// What `d`'s suggestion, applied alone, makes of `file` (it must have
/// one, and it must apply).
fn applied_suggestion(d: &srview::diagnose::BlockDiagnosis, file: &str) -> String {
    let s = d
        .suggestion
        .as_deref()
        .unwrap_or_else(|| panic!("no suggestion: {}", d.message));
    apply(s, file, final_v1())
        .result
        .expect("the suggestion applies")
        .new_content
}

/// The author's change is carried onto the file's lines: lines the SEARCH
/// text left out stay, a typo copied into both sections is not written
/// back, a block indented wrong in both sections is shifted back, entities
/// in new lines follow the file, CRLF files get CRLF lines.
#[test]
fn suggestions_carry_the_change_not_the_damage() {
    // Two lines left out of SEARCH, one line added: the two stay.
    assert_eq!(
        suggested_by(
            INVENTORY,
            "    def sell(self, sku: str, amount: int) -> bool:\n        item = self.items.get(sku)\n        if item is None:\n            return False\n        item.qty -= amount\n        return True\n",
            "    def sell(self, sku: str, amount: int) -> bool:\n        item = self.items.get(sku)\n        if item is None:\n            return False\n        item.qty -= amount\n        self.log(sku, amount)\n        return True\n"
        ),
        INVENTORY.replace(
            "        item.qty -= amount\n",
            "        item.qty -= amount\n        self.log(sku, amount)\n"
        )
    );
    // A typo in a line both sections keep.
    assert_eq!(
        suggested_by(
            INVENTORY,
            "            raise ValueError(f\"duplicate sku {item.sk}\")\n        self.items[item.sku] = item\n",
            "            raise ValueError(f\"duplicate sku {item.sk}\")\n        self.items[item.sku] = item\n        self.count += 1\n"
        ),
        INVENTORY.replace(
            "        self.items[item.sku] = item\n",
            "        self.items[item.sku] = item\n        self.count += 1\n"
        )
    );
    // Both sections indented two spaces instead of four.
    assert_eq!(
        suggested_by(
            INVENTORY,
            "  def sell(self, sku: str, amount: int) -> bool:\n    item = self.items.get(sku)\n",
            "  def sell(self, sku: str, amount: int) -> bool:\n    item = self.items.get(sku.upper())\n"
        ),
        INVENTORY.replace("self.items.get(sku)", "self.items.get(sku.upper())")
    );
    // Entities in both sections.
    let diff = block(
        "        if item.qty &lt; amount:\n",
        "        if item.qty &lt;= amount:\n",
    );
    assert_eq!(
        suggested_result(INVENTORY, &diff),
        INVENTORY.replace("item.qty < amount", "item.qty <= amount")
    );
    // A CRLF file and an LF diff with a typo.
    let crlf = INVENTORY.replace('\n', "\r\n");
    assert_eq!(
        suggested_by(
            &crlf,
            "        if item is Nome:\n            return False\n",
            "        if item is None:\n            raise KeyError(sku)\n"
        ),
        crlf.replacen(
            "            return False\r\n",
            "            raise KeyError(sku)\r\n",
            1
        )
    );
}

/// The reference matches text, not lines: a SEARCH text that is the end of
/// a longer line matches inside it. A lone `}` inside `    }` or a blank
/// line after a line's text is `partial-line`, risky, with no suggestion;
/// a SEARCH indented less than the file is `whitespace`.
#[test]
fn a_match_inside_a_line_is_called_so() {
    let file = "fn alpha() {\n    if x {\n        y();\n    }\n}\n";
    for search in ["}\n", "\n"] {
        let d = &one_block(file, search, "}\n\nfn zeta() {}\n");
        assert_eq!(d.state, Status::Applied);
        assert_eq!(
            d.reason,
            Some(Reason::PartialLine),
            "{search:?}: {}",
            d.message
        );
        assert!(d.risky);
        assert_eq!(d.suggestion, None);
    }
    let diff = block("  y();\n", "  z();\n");
    let d = &diagnose(&diff, file, final_v1())[0];
    assert_eq!(d.reason, Some(Reason::Whitespace), "{}", d.message);
    assert_eq!(suggested_result(file, &diff), file.replace("y();", "z();"));
}

/// Identical handlers: block #1 (a typo) is meant for `get_refund`; block
/// #2, exact text every handler has, goes after block #1's place, as the
/// reference would apply it once block #1 is fixed, never to the first
/// handler.
#[test]
fn a_block_after_a_failed_one_is_placed_after_its_region() {
    let mut file = String::new();
    for name in ["order", "invoice", "refund", "coupon"] {
        file.push_str(&format!(
            "fn get_{name}(id: u32) -> Item {{\n    let item = store.{name}s.get(id);\n    if item.is_none() {{\n        return not_found();\n    }}\n    item\n}}\n\n"
        ));
    }
    let diff = block(
        "    let item = store.refunds.get(idd);\n",
        "    let item = store.refunds.get(ctx, id);\n",
    ) + &block(
        "    if item.is_none() {\n        return not_found();\n",
        "    if item.is_none() {\n        return refund_not_found();\n",
    );
    let d = diagnose(&diff, &file, final_v1());
    let refund = line_of(&file, "store.refunds");
    assert_eq!(d[0].closest.map(|c| c.start_line), Some(refund));
    assert_eq!(d[1].state, Status::NotReached);
    assert_eq!(d[1].would_match, Some(Stage::Exact));
    assert_eq!(
        d[1].matched_lines,
        Some([refund + 1, refund + 2]),
        "{}",
        d[1].message
    );
}

/// A SEARCH cut short inside a line. When the REPLACE text writes the
/// whole line on (it goes on the way the file's line does), it is the
/// line; when it rewrites only the piece, the file's line has code beside
/// it (`.find(id);`, ` {`) and both changed the same line: how they
/// combine cannot be told (`db.articles.find(id);` reads well, `return
/// result + OFFSET.round(2)` does not), so nothing is suggested.
#[test]
fn a_line_cut_short_keeps_its_rest() {
    let file = "async function get(id) {\n  const row = await db.posts.find(id);\n  if (Number.isNaN(id)) {\n    return null;\n  }\n}\n";
    for (search, replace, line) in [
        (
            "  const row = await db.posts\n",
            "  const row = await db.articles\n",
            2,
        ),
        (
            "  if (Number.isNaN(id))\n",
            "  if (Number.isNaN(id) || id <= 0)\n",
            3,
        ),
    ] {
        let d = &diagnose(&block(search, replace), file, final_v1())[0];
        assert_eq!(d.reason, Some(Reason::PartialLine), "{}", d.message);
        assert_eq!(d.suggestion, None, "{}", d.message);
        assert_contains(
            d.withheld.as_deref().expect("why"),
            &format!("the SEARCH text is only part of line {line}"),
        );
    }
    let diff = block(
        "  const row = await db\n",
        "  const row = await db.posts.findOne({ id });\n",
    );
    let d = &diagnose(&diff, file, final_v1())[0];
    assert_eq!(d.reason, Some(Reason::PartialLine), "{}", d.message);
    assert_eq!(
        suggested_result(file, &diff),
        file.replacen(
            "  const row = await db.posts.find(id);\n",
            "  const row = await db.posts.findOne({ id });\n",
            1
        )
    );
}

/// Two blocks quoting the same line: the second matches only before the
/// first's edit, on lines it changes. The reference applies both and
/// repeats the line; the diagnosis says so and suggests nothing.
#[test]
fn an_out_of_order_block_over_an_earlier_edit_is_called_so() {
    let file = "fn update(u: &User) -> Result<()> {\n    let n = db.exec(\"UPDATE\")?;\n    if n == 0 {\n        return Err(missing());\n    }\n    Ok(())\n}\n";
    let diff = block(
        "fn update(u: &User) -> Result<()> {\n    let n = db.exec(\"UPDATE\")?;\n",
        "fn update(u: &User) -> Result<()> {\n    check(u)?;\n    let n = db.exec(\"UPDATE\")?;\n",
    ) + &block(
        "    let n = db.exec(\"UPDATE\")?;\n    if n == 0 {\n",
        "    let n = db.exec(\"UPDATE\").context(\"update\")?;\n    if n == 0 {\n",
    );
    let d = diagnose(&diff, file, final_v1());
    assert_eq!(d[1].reason, Some(Reason::OutOfOrder), "{}", d[1].message);
    assert!(d[1].risky);
    assert_eq!(d[1].suggestion, None);
    assert_contains(&d[1].message, "It overlaps block #1's lines 1-2");
}

/// Indentation that differs from the file's by no one rule: the new lines'
/// indentation cannot be told, so nothing is suggested (a line at the
/// SEARCH text's indentation would not even parse in Python).
#[test]
fn no_suggestion_when_the_indentation_has_no_rule() {
    let file = "class S:\n    def stop(self):\n        if not self.running:\n            return\n        log.info(\"stopping\")\n        self.running = False\n";
    let d = &one_block(
        file,
        "    def stop(self):\n        if not self.running:\n            return\n      log.info(\"stopping\")\n      self.running = False\n",
        "    def stop(self):\n        if not self.running:\n            return\n      log.info(\"stopping\")\n      self.running = False\n      self.stopped_at = now()\n",
    );
    assert!(d.closest.is_some(), "{}", d.message);
    assert_eq!(d.suggestion, None, "{}", d.message);
}

/// Only the look-alikes the SEARCH text needed replaced are replaced in
/// the new lines: a dash or an ellipsis the author wrote on purpose stays.
#[test]
fn only_the_damaged_lookalikes_are_replaced() {
    let file = "# Notes\n\n- It's fast.\n- It is small.\n";
    assert_eq!(
        suggested_by(
            file,
            "- It\u{2019}s fast.\n",
            "- It\u{2019}s fast \u{2014} really fast\u{2026}\n"
        ),
        file.replace(
            "- It's fast.\n",
            "- It's fast \u{2014} really fast\u{2026}\n"
        )
    );
}

/// While the diff still streams, a complete SEARCH with no match has none
/// *yet*: it is not reported as a block that does not apply.
#[test]
fn a_streaming_block_without_a_match_is_not_called_failed() {
    let file = widgets();
    let diff = "------- SEARCH\n  def nonexistent(self):\n=======\n  def other(";
    let partial = options(Version::V1, false);
    let d = &diagnose(diff, &file, partial)[0];
    assert_contains(&d.message, "has no match so far");
    assert!(!d.message.contains("does not apply"), "{}", d.message);
}

/// A file that starts with a byte-order mark: a block for its first line
/// matches after the mark, which is the line's start, not inside it.
#[test]
fn a_match_after_a_byte_order_mark_is_a_whole_line() {
    let file = "\u{FEFF}import os\nimport sys\n\ndef main():\n    pass\n";
    let d = &one_block(
        file,
        "import os\nimport sys\n",
        "import os\nimport sys\nimport json\n",
    );
    assert_eq!(d.state, Status::Applied);
    assert_eq!(d.reason, None, "{}", d.message);
    assert_eq!(d.suggestion, None);
}

/// The tie rule holds for one-line regions, apart or adjacent: `alpha2`
/// is as like `alpha` (line 2) as `alpha_2` (0.976 and 0.977), so neither
/// is named and nothing is suggested.
#[test]
fn one_line_places_tie_apart_and_adjacent() {
    let diff = block(
        "    if (alpha2 > 0) { total += alpha2; }\n",
        "    if (alpha2 > 1) { total += alpha2; }\n",
    );
    for (file, lines) in [
        (
            "int f(int a, int b) {\n    if (alpha > 0) { total += alpha; }\n    return total;\n}\n\nint g(int a, int b) {\n    if (alpha_2 > 0) { total += alpha_2; }\n    return total;\n}\n",
            [2, 7],
        ),
        (
            "int f() {\n    if (alpha > 0) { total += alpha; }\n    if (alpha_2 > 0) { total += alpha_2; }\n}\n",
            [2, 3],
        ),
    ] {
        let d = &diagnose(&diff, file, final_v1())[0];
        assert_eq!(d.closest, None, "{}", d.message);
        assert_eq!(d.suggestion, None);
        let [a, b] = d.tie.expect("a tie");
        let mut got = [a.start_line, b.start_line];
        got.sort_unstable();
        assert_eq!(got, lines, "{}", d.message);
        assert_contains(&d.message, "no single closest region");
    }
}

/// `why_no_region` explains a block that needs a region and has none: a
/// block that matched, exactly or loosely, gets `None`.
#[test]
fn why_no_region_is_only_for_blocks_without_a_place() {
    let file = "fn main() {\n    let x = 1;\n    let y = 2;\n}\n";
    let diff = [
        block("    let x = 1;\n", "    let x = 10;\n"),
        block("  let y = 2;\n", "  let y = 20;\n"),
        block("    let z = 3;\n", "    let z = 30;\n"),
    ]
    .concat();
    let d = diagnose(&diff, file, final_v1());
    assert_eq!(d[0].reason, None, "{}", d[0].message);
    assert_eq!(d[0].why_no_region(), None, "exact");
    assert!(d[1].matched_lines.is_some(), "{}", d[1].message);
    assert_eq!(d[1].why_no_region(), None, "matched loosely");
    let failed = diagnose(
        &block("    let z = 3;\n", "    let z = 30;\n"),
        file,
        final_v1(),
    );
    assert_eq!(failed[0].closest, None, "{}", failed[0].message);
    assert_contains(
        &failed[0]
            .why_no_region()
            .expect("a failed block without a region"),
        "no similar region in the file",
    );
}

/// Line endings are blamed for what they are: a last line without a final
/// newline in an LF file, marker lines ending in `\r` in a CRLF diff on a
/// CRLF file, CRLF against LF only where one side has `\r` and the other not.
#[test]
fn the_line_endings_cause_is_named() {
    let crlf_diff = "------- SEARCH\r\nb\r\n=======\r\nB\r\n+++++++ REPLACE\r\n";
    for (file, diff, cause) in [
        (
            "a\nb\nc",
            "------- SEARCH\nc\n=======\nC\n+++++++ REPLACE\n",
            "the file's last line has no final newline",
        ),
        (
            "a\r\nb\r\nc\r\n",
            crlf_diff,
            "the diff's marker lines end in \\r (CRLF)",
        ),
        (
            "a\nb\nc\n",
            crlf_diff,
            "line endings differ (CRLF against LF)",
        ),
    ] {
        let d = &diagnose(diff, file, final_v1())[0];
        assert_eq!(d.reason, Some(Reason::LineEndings), "{}", d.message);
        assert_contains(&d.message, cause);
        if !cause.contains("CRLF against LF") {
            assert!(!d.message.contains("CRLF against LF"), "{}", d.message);
        }
    }
}

/// A SEARCH text for a function the file lacks, whose look-alike sibling
/// is there: the sibling is still shown as the closest region, but three
/// of its lines are other code (the `def` line scores 0.69, below 0.75),
/// so no suggestion moves the edit onto it.
#[test]
fn a_sibling_function_is_shown_but_not_suggested() {
    let file = "class UserService:\n    def __init__(self, db):\n        self.db = db\n\n    def create_user(self, name, email):\n        user = User(name=name, email=email)\n        self.db.add(user)\n        self.db.commit()\n        return user\n";
    let d = &one_block(
        file,
        "    def delete_user(self, user_id):\n        user = self.db.get(User, user_id)\n        self.db.delete(user)\n        self.db.commit()\n        return user\n",
        "    def delete_user(self, user_id):\n        user = self.db.get(User, user_id)\n        self.db.delete(user)\n        self.db.flush()\n        return user\n",
    );
    let c = d.closest.expect("the sibling is shown");
    assert_eq!((c.start_line, c.end_line), (5, 9));
    assert_eq!(d.suggestion, None);
    assert_contains(
        &d.message,
        "No suggestion: SEARCH line 1 is no near copy of file line 5 (similarity 0.69, below 0.75): the region holds different code.",
    );
}

/// A SEARCH text found at several places, exactly or only with white space
/// ignored, is ambiguous: the other places are listed, each named where the
/// suggestion is withheld (43b-06: only the first was), and no suggestion
/// pins the first (the reference's pick: context that makes it unique would
/// name a place the diff does not). A block after an earlier one is judged
/// on the part of the file the reference searched for it.
#[test]
fn a_block_that_fits_several_places_is_ambiguous_and_gets_no_suggestion() {
    let twice = "def f():\n    x = 1\n    return x\n\ndef g():\n    x = 1\n    return x\n";
    for (search, stage, fits) in [
        (
            "\tx = 1\n",
            Stage::LineTrimmed,
            "the SEARCH text, trimmed, occurs",
        ),
        ("    x = 1\n", Stage::Exact, "the SEARCH text occurs"),
    ] {
        let d = &diagnose(&block(search, "    x = 2\n"), twice, final_v1())[0];
        assert_eq!((d.stage, d.reason), (Some(stage), Some(Reason::Ambiguous)));
        assert_eq!(other_places(d), [Some(6)]);
        assert_eq!(d.suggestion, None);
        assert_eq!(
            d.withheld.as_deref(),
            Some(
                format!("{fits} at line 2 and line 6, and which one is meant cannot be told")
                    .as_str()
            )
        );
    }

    // After a block that matched line 3, only line 6 is searched: one place.
    let diff = format!(
        "{}{}",
        block("    return x\n", "    return 0\n"),
        block("\tx = 1\n", "    x = 2\n")
    );
    let d = &diagnose(&diff, twice, final_v1())[1];
    assert_eq!(d.stage, Some(Stage::LineTrimmed));
    assert_eq!(d.reason, Some(Reason::Whitespace));
    assert!(d.suggestion.is_some());
}

/// A diff that ends inside a SEARCH section has no REPLACE text: no
/// suggestion invents one (an empty one would delete the lines found), and
/// a block just begun (its SEARCH text still empty) names no place.
#[test]
fn a_block_cut_before_its_separator_gets_no_suggestion_and_an_empty_one_no_place() {
    let original = "def total(self):\n    total = 0\n    for x in self.items:\n        total += x\n    return total\n";
    for cut in [
        "------- SEARCH\ndef total(self):\n    total = 0",
        "------- SEARCH\ndef total(self):\n    tot",
    ] {
        let d = &diagnose(cut, original, final_v1())[0];
        assert_eq!(d.state, Status::Dropped, "{cut}");
        assert!(
            d.closest.is_some(),
            "the lines found are still named: {cut}"
        );
        assert_eq!(d.suggestion, None, "{cut}");
    }
    let begun = format!(
        "{}------- SEARCH\n",
        block("    total = 0\n", "    total = 1\n")
    );
    let d = &diagnose(&begun, original, final_v1())[1];
    assert_eq!(d.closest, None);
    assert_eq!(d.suggestion, None);
    assert!(!d.message.contains("closest"), "{}", d.message);
}

/// The reference matches text: a SEARCH line found first inside a deeper
/// indented line is applied there, though it is a whole line further on.
/// The diagnosis says where the reference applied it, and names the whole
/// line, the place most likely meant.
#[test]
fn a_partial_line_match_names_the_whole_line_copy() {
    let original = "def f(a):\n    if a:\n        log(\"x\")\n    log(\"x\")\n";
    let d = &one_block(original, "    log(\"x\")\n", "    log(\"y\")\n");
    assert_eq!(d.reason, Some(Reason::PartialLine));
    assert_eq!(d.matched_lines, Some([3, 3]));
    assert_eq!(other_places(d), [Some(4)]);
    assert_contains(
        &d.message,
        "(it is a whole line at file line 4, but the reference took its first match, inside a longer line)",
    );
    assert_eq!(d.suggestion, None);
}

/// The file lines `d` names as other places its SEARCH text fits.
fn other_places(d: &srview::diagnose::BlockDiagnosis) -> Vec<Option<usize>> {
    d.differences
        .iter()
        .filter(|x| x.kind == DifferenceKind::OtherOccurrence)
        .map(|x| x.file_line)
        .collect()
}

/// A SEARCH line indented less than the file matches after part of the
/// file's indentation. With one REPLACE line the result is consistent
/// (`whitespace`); with several, only the first lands after the rest of the
/// indentation, so the new lines disagree: a match inside a line, in doubt.
#[test]
fn an_under_indented_match_with_several_replace_lines_is_in_doubt() {
    let original = "def add(a, b):\n    return a + b\n";
    let d = &one_block(original, "  return a + b\n", "  return b + a\n");
    assert_eq!(d.reason, Some(Reason::Whitespace));
    let several = "  if a:\n      return a + b\n  return b\n";
    let d = &one_block(original, "  return a + b\n", several);
    assert_eq!(d.reason, Some(Reason::PartialLine));
    assert!(d.risky);
    assert_eq!(d.suggestion, None);
    assert_eq!(
        srview::diagnose::doubt::place_doubt(d),
        Some(srview::diagnose::doubt::PlaceDoubt::InsideLine)
    );
}

/// The final diagnosis of one block (SEARCH `search`, REPLACE `replace`)
/// over `original`.
fn one_block(original: &str, search: &str, replace: &str) -> srview::diagnose::BlockDiagnosis {
    diagnose(&block(search, replace), original, final_v1()).remove(0)
}

// ---------------------------------------------------------------------------
// Edits that match and still damage the file (issue 27: a new user's three
// cases). The reference's result is unchanged; srview says what it does.

use srview::diagnose::doubt::{PlaceDoubt, place_doubt};
use srview::diagnose::effect::IndentShift;

/// The standard library's textwrap.py (Python 3.11), a class whose methods
/// sit 4 columns in.
fn textwrap() -> String {
    std::fs::read_to_string("tests/fixtures/trust/textwrap.py.txt").expect("fixture")
}

/// `TextWrapper.fill`'s lines (1-based, inclusive), each `dedent` columns
/// less indented, with `edit` applied to its last line.
fn fill_method(file: &str, dedent: usize, edit: impl Fn(&str) -> String) -> (String, String) {
    let lines: Vec<&str> = file.lines().collect();
    let start = lines
        .iter()
        .position(|l| l.starts_with("    def fill(self, text):"))
        .expect("TextWrapper.fill");
    let method = &lines[start..start + 8];
    let shallow: Vec<String> = method
        .iter()
        .map(|l| l.get(dedent.min(l.len())..).unwrap_or("").to_string())
        .collect();
    let mut edited = shallow.clone();
    let last = edited.len() - 1;
    edited[last] = edit(&edited[last]);
    (shallow.join("\n") + "\n", edited.join("\n") + "\n")
}

/// Both sections written 4 columns too shallow (the class indentation
/// lost): the line-trimmed fallback matches and writes the method at
/// column 0, out of its class. It is named, held back, and the re-indented
/// block is offered.
#[test]
fn a_trimmed_match_that_moves_a_method_out_of_its_class_is_damage() {
    let file = textwrap();
    let (search, replace) = fill_method(&file, 4, |l| format!("{l} + \"\\n\""));
    let diff = block(&search, &replace);
    let d = &diagnose(&diff, &file, final_v1())[0];
    assert_eq!(d.state, Status::Applied);
    assert_eq!(d.stage, Some(Stage::LineTrimmed));
    assert_eq!(d.shift, Some(IndentShift::Columns(-4)), "{}", d.message);
    assert_contains(
        &d.message,
        "the new lines are 4 columns left of the lines they replace: in code whose \
         indentation has a meaning (Python, YAML, ...) this moves them out of the enclosing \
         block",
    );
    assert!(d.misreads() && d.damages());
    assert_eq!(place_doubt(d), Some(PlaceDoubt::Shifted));
    // The reference's result is unchanged: the method leaves its class.
    let reference = apply(&diff, &file, final_v1()).result.expect("applies");
    assert!(
        reference
            .new_content
            .contains("\ndef fill(self, text):\n    \"\"\"fill(text")
    );
    // The suggestion writes it where it was, re-indented.
    let fixed = d.suggestion.as_deref().expect("the re-indented block");
    let out = apply(fixed, &file, final_v1());
    assert_eq!(out.blocks[0].stage, Some(Stage::Exact));
    let want = file.replace(
        "        return \"\\n\".join(self.wrap(text))\n\n\n# -- Convenience",
        "        return \"\\n\".join(self.wrap(text)) + \"\\n\"\n\n\n# -- Convenience",
    );
    assert_ne!(want, file);
    assert_eq!(out.result.expect("applies").new_content, want);
}

/// SEARCH too shallow but REPLACE written at the file's indentation: what
/// is written lands where it belongs, no damage. A SEARCH text that differs
/// only in trailing space is no shift either.
#[test]
fn a_replace_text_at_the_files_indentation_is_no_shift() {
    let file = textwrap();
    let (search, _) = fill_method(&file, 4, str::to_string);
    let (_, replace) = fill_method(&file, 0, |l| format!("{l} + \"\\n\""));
    let d = &diagnose(&block(&search, &replace), &file, final_v1())[0];
    assert_eq!(d.stage, Some(Stage::LineTrimmed));
    assert_eq!(d.shift, None, "{}", d.message);
    assert!(!d.misreads(), "{}", d.message);
    let d = &diagnose(
        &block("    x = 1  \n", "    x = 2\n"),
        "def f():\n    x = 1\n",
        final_v1(),
    )[0];
    assert_eq!(d.stage, Some(Stage::LineTrimmed));
    assert_eq!(d.shift, None);
}

/// Spaces written into a tab-indented file by a trimmed match: said, held back.
#[test]
fn spaces_written_into_a_tab_indented_block_are_damage() {
    let file = "class A:\n\tdef f(self):\n\t\treturn 1\n";
    let d = &one_block(
        file,
        "    def f(self):\n        return 1\n",
        "    def f(self):\n        return 2\n",
    );
    assert_eq!(d.stage, Some(Stage::LineTrimmed));
    assert_eq!(d.shift, Some(IndentShift::SpacesForTabs));
    assert_contains(
        &d.message,
        "the new lines are indented with spaces where the lines they replace use tabs",
    );
    assert_eq!(place_doubt(d), Some(PlaceDoubt::Shifted));
    let fixed = d.suggestion.as_deref().expect("the re-indented block");
    assert_contains(fixed, "=======\n\tdef f(self):\n\t\treturn 2\n");
}

/// An edit re-sent after it applied: its SEARCH text still matches (its
/// REPLACE text only adds lines), and applying it again repeats them.
#[test]
fn an_edit_sent_again_after_it_applied_is_already_applied() {
    let file = "def main():\n    load()\n    run()\n    save()\n";
    let diff = block(
        "    load()\n    run()\n",
        "    load()\n    run()\n    save()\n",
    );
    let d = &diagnose(&diff, file, final_v1())[0];
    assert_eq!(d.state, Status::Applied);
    assert_eq!(d.reason, Some(Reason::AlreadyApplied), "{}", d.message);
    assert_eq!(d.already, Some([2, 4]));
    assert_contains(
        &d.message,
        "the REPLACE text is already there (lines 2-4): this looks applied already",
    );
    assert_eq!(d.suggestion, None);
    assert!(d.misreads());
    assert_eq!(place_doubt(d), Some(PlaceDoubt::AlreadyApplied));
    // Before it applied, the same edit is fine.
    let before = "def main():\n    load()\n    run()\n";
    let d = &diagnose(&diff, before, final_v1())[0];
    assert_eq!(d.reason, None, "{}", d.message);
}

/// A failed block whose REPLACE text stands at its closest region: applied
/// already, not "the region holds different code".
#[test]
fn a_failed_block_whose_new_text_is_at_its_region_is_already_applied() {
    let file = "def total(items):\n    tax = compute_tax(items, rate=0.21)\n    return tax\n";
    let d = &one_block(
        file,
        "    tax = compute_tax(items, rate=0.2)\n",
        "    tax = compute_tax(items, rate=0.21)\n",
    );
    assert_eq!(d.state, Status::Failed);
    assert_eq!(d.reason, Some(Reason::AlreadyApplied), "{}", d.message);
    assert_eq!(d.already, Some([2, 2]));
    assert_contains(&d.message, "this looks applied already");
    assert_eq!(d.suggestion, None);
}

/// The file and the author changed the same line: no merge inside it.
#[test]
fn no_suggestion_merges_two_changes_inside_one_line() {
    for (file, search, replace, kept) in [
        (
            "class Calc:\n    def total(self, result):\n        return result.round(2)\n",
            "        return result\n",
            "        return result + OFFSET\n",
            ".round(2)",
        ),
        (
            "def fill(text, width=70):\n    w = TextWrapper(width=width)\n    return w.fill(text).strip()\n",
            "    return w.fill(text)\n",
            "    return w.fill(text) + \"\\n\"\n",
            ".strip()",
        ),
    ] {
        let d = &diagnose(&block(search, replace), file, final_v1())[0];
        assert_eq!(d.suggestion, None, "{}", d.message);
        let why = d.withheld.as_deref().expect("says why");
        assert_contains(why, "the SEARCH text is only part of line 3");
        assert_contains(why, &format!("`{kept}`"));
    }
    // A change in the middle of a fragment, or one word for another, is a
    // change to the same line too (`y = a` into `y = 1 - a` over the file's
    // `y = a - b`: `1 - a - b` or `1 - (a - b)`?): never merged.
    for (search, replace) in [
        ("    y = a\n", "    y = 1 - a\n"),
        ("    y = a\n", "    y = b\n"),
    ] {
        let d = &diagnose(
            &block(search, replace),
            "def f(a, b):\n    y = a - b\n    return y\n",
            final_v1(),
        )[0];
        assert_eq!(d.suggestion, None, "{replace}");
        assert_contains(d.withheld.as_deref().expect("why"), "only part of line 2");
    }
    // Only indentation before a fragment: the line is the SEARCH text's,
    // and the edit is carried over.
    let d = &diagnose(
        &block("x = 1;\n", "x = 2;\n"),
        "fn f() {\n    x = 1;\n}\n",
        final_v1(),
    )[0];
    assert!(d.suggestion.is_some(), "{}", d.message);
}

/// Nothing like the SEARCH text as a whole, but its last line is a near
/// copy of a file line (`return object` against `return obj`): that line
/// is the place, not "nothing similar exists"; nothing is suggested.
#[test]
fn a_near_line_is_a_region_not_nothing_similar() {
    let file = "import os\n\n\ndef load(path):\n    obj = read(path)\n    return obj\n";
    let d = &one_block(
        file,
        "    cfg = Config.from_env(strict=True)\n    validator.check_all(cfg, mode=\"fast\")\n    return object\n",
        "    return None\n",
    );
    assert_eq!(d.reason, Some(Reason::Edited), "{}", d.message);
    assert!(
        !d.message.contains("nothing similar exists"),
        "{}",
        d.message
    );
    let c = d.closest.expect("the near line");
    assert_eq!((c.start_line, c.end_line), (6, 6));
    assert_eq!(d.suggestion, None);
    assert_contains(
        d.withheld.as_deref().expect("why"),
        "only SEARCH line 3 is like a line of the file (line 6, similarity 0.90)",
    );
}

/// A SEARCH text with an elision comment is named as elided, with the
/// real region; the suggestion quotes the file's lines in its place.
#[test]
fn an_elided_search_text_is_named_so() {
    let file = "def f(obj):\n    x = 1\n    y = 2\n    z = 3\n    return obj\n";
    let d = &one_block(
        file,
        "def f(obj):\n    # ... existing code ...\n    return obj\n",
        "def f(obj):\n    # ... existing code ...\n    return obj + 1\n",
    );
    assert_contains(
        &d.message,
        "SEARCH line 2 `# ... existing code ...` is an elision, standing for file lines 2-4: \
         the reference matches it as text, never as lines left out",
    );
    let c = d.closest.expect("the real region");
    assert_eq!((c.start_line, c.end_line), (1, 5));
    assert_eq!(
        applied_suggestion(d, file),
        file.replace("return obj", "return obj + 1")
    );
}

/// A reviewer's damaging edits that were called fine: a shift on a later
/// line than the first, and a block wrapped in `if True:` at the SEARCH
/// text's base (the methods after it leave their class). Both are damage;
/// a deletion that never applied is not "applied already", nor is a
/// REPLACE text that only adds a blank line.
#[test]
fn later_line_shifts_and_wrapped_blocks_are_damage_and_deletions_are_not_applied() {
    let cls = "class Foo:\n    def __init__(self):\n        self.x = 1\n\n    def bar(self):\n        return self.x\n\n    def baz(self):\n        return 2\n";
    for (search, replace) in [
        (
            "    def bar(self):\n    return self.x\n",
            "    def bar(self):\n    y = 0\n    return self.x\n",
        ),
        (
            "def bar(self):\n    return self.x\n",
            "if True:\n    def bar(self):\n        return self.x\n",
        ),
    ] {
        let d = &diagnose(&block(search, replace), cls, final_v1())[0];
        assert_eq!(d.stage, Some(Stage::LineTrimmed));
        assert_eq!(d.shift, Some(IndentShift::Columns(-4)), "{replace}");
        assert_eq!(place_doubt(d), Some(PlaceDoubt::Shifted));
    }
    let base = "import os\n\n\ndef main():\n    print(os.getcwd())\n";
    let d = &diagnose(
        &block("def main():\n    print(os.getcwdd())\n", "def main():\n"),
        base,
        final_v1(),
    )[0];
    assert_ne!(d.reason, Some(Reason::AlreadyApplied), "{}", d.message);
    let pep = "import os\n\ndef a():\n    pass\n\ndef b():\n    pass\n";
    let d = &diagnose(&block("def b():\n", "\ndef b():\n"), pep, final_v1())[0];
    assert_eq!(d.reason, None, "{}", d.message);
}

/// A rewrite re-sent after it applied, placed by its first and last lines
/// (block-anchor) over lines that already are its REPLACE text: applied
/// already, not `edited`, and no suggestion that would be a no-op block.
#[test]
fn a_rewrite_sent_again_and_placed_by_its_anchors_is_already_applied() {
    let file = "def indent(text):\n    # keep the margin\n    if __debug__ and margin:\n        for line in text:\n            pass\n";
    let d = &one_block(
        file,
        "    # keep the margin\n    if 0 and margin:\n        for line in text:\n",
        "    # keep the margin\n    if __debug__ and margin:\n        for line in text:\n",
    );
    assert_eq!(d.stage, Some(Stage::BlockAnchor));
    assert_eq!(d.reason, Some(Reason::AlreadyApplied), "{}", d.message);
    assert_eq!(d.already, Some([2, 4]));
    assert_eq!(d.suggestion, None);
    assert_eq!(place_doubt(d), Some(PlaceDoubt::AlreadyApplied));
}

/// An elision standing for many lines: each run of SEARCH lines around it
/// is found on its own, and the region spans them all (not only the run
/// after it); the suggestion carries the edit over the lines it stands for.
#[test]
fn a_long_elision_spans_its_real_region() {
    let file = "class Decoder:\n    def decode(self, s, _w=WHITESPACE.match):\n        \"\"\"Return the Python representation of s.\n\n        \"\"\"\n        obj, end = self.raw_decode(s, idx=_w(s, 0).end())\n        end = _w(s, end).end()\n        if end != len(s):\n            raise JSONDecodeError(\"Extra data\", s, end)\n        return obj\n\n    def raw_decode(self, s, idx=0):\n        return None\n";
    let d = &one_block(
        file,
        "    def decode(self, s, _w=WHITESPACE.match):\n        # ... existing code ...\n        if end != len(s):\n            raise JSONDecodeError(\"Extra data\", s, end)\n        return obj\n",
        "    def decode(self, s, _w=WHITESPACE.match):\n        # ... existing code ...\n        if end != len(s):\n            raise JSONDecodeError(\"Extra data\", s, end)\n        return self.post(obj)\n",
    );
    let c = d.closest.expect("the real region");
    assert_eq!((c.start_line, c.end_line), (2, 10), "{}", d.message);
    assert_contains(&d.message, "is an elision, standing for file lines 3-7");
    assert_eq!(
        applied_suggestion(d, file),
        file.replace("        return obj\n", "        return self.post(obj)\n")
    );
}

/// Nothing like the SEARCH text as a whole, and its one familiar line is
/// a line the file has twice: a tie between those places, not "nothing
/// similar exists".
#[test]
fn a_familiar_line_the_file_repeats_is_a_tie_not_nothing() {
    let file = "def a(text):\n        return text\n\ndef b(text):\n    return text\n";
    let d = &one_block(
        file,
        "    cache = load_cache()\n    if cache.stale:\n        cache.refresh()\n    return text\n",
        "    return text.strip()\n",
    );
    assert!(
        !d.message.contains("nothing similar exists"),
        "{}",
        d.message
    );
    let [a, b] = d.tie.expect("a tie");
    assert_eq!((a.start_line, b.start_line), (2, 5));
    assert_eq!(d.suggestion, None);
}

/// Bracketed notes standing where three lines or more of code go are
/// stand-ins (`<existing code>`, `[... rest of the file ...]`,
/// `[unchanged]`, `(rest unchanged)`); bracketed lines that are code or
/// content are not: an HTML or JSX element, a Python list, a spread, a
/// call, a TOML table, Markdown links and notes in prose.
#[test]
fn bracketed_notes_are_stand_ins_and_bracketed_code_is_not() {
    use srview::dialect::elided::{bracketed_note, elided};
    let old = "function a(x) {\n  const y = x + 1;\n  log(y);\n  return y;\n}\n\nfunction c(x) {\n  return a(x);\n}\n";
    for note in [
        "<existing code>",
        "[... rest of the file ...]",
        "[unchanged]",
        "(rest unchanged)",
        "<… 3 functions omitted …>",
        "[lines 1-5 remain the same]",
        "(the same as before)",
    ] {
        let new = format!("{note}\n\nfunction c(x) {{\n  return a(x) * 2;\n}}\n");
        let found = elided("a.js", old, &new).unwrap_or_else(|| panic!("{note}: not a stand-in"));
        assert_eq!((found.line, found.placeholder.as_str()), (1, note));
    }
    for code in [
        "<div>",
        "</div>",
        "<div class=\"rest\">",
        "<App />",
        "<existing-code>",
        "<main>",
        "<>",
        "[...]",
        "[1, 2, 3]",
        "[x.rest]",
        "[...remaining]",
        "[...a, ...b]",
        "(...args)",
        "(rest items)",
        "(a + b)",
        "[rest]",
        "[tool.rest]",
        "[existing]",
        "[Unreleased]",
        "[link](https://example.com)",
        "[1]: https://example.com/rest-of-it",
        "(See the rest of the guide.)",
    ] {
        assert!(!bracketed_note(code), "{code}");
    }
    // A JSX element in place of three lines: its closing tag is no line
    // of the old text, so nothing stands alone where they went.
    let jsx_old = "return (\n  <div>\n    <A />\n    <B />\n    <C />\n  </div>\n);\n";
    let jsx_new =
        "return (\n  <div>\n    <main>\n      <Rest unchanged />\n    </main>\n  </div>\n);\n";
    assert_eq!(elided("a.jsx", jsx_old, jsx_new), None);
    // Markdown whose prose is the content: a section rewritten with a
    // parenthesized sentence, and a note held by the old text already.
    let md_old = "# Guide\n\nStep one.\nStep two.\nStep three.\n\n## Next\n";
    let md_new = "# Guide\n\n(See the rest of the guide.)\n\n## Next\n";
    assert_eq!(elided("a.md", md_old, md_new), None);
    let held = "a = 1\n[unchanged]\nb = 2\nc = 3\nd = 4\ne = 5\n";
    assert_eq!(elided("a.toml", held, "a = 1\n[unchanged]\ne = 5\n"), None);
}

/// A multi-line SEARCH whose last line is cut short (the file goes on with
/// `["orders"]`) and whose edit changes another line only: the line the
/// edit leaves as it is keeps the file's rest, and the suggestion carries
/// the edit over (tester finding 08b: it was refused as "the edit rewrites
/// the SEARCH text" for a line it does not touch).
#[test]
fn a_fragment_line_the_edit_keeps_keeps_the_files_rest() {
    let file = "def load_users(path):\n    with open(path) as fh:\n        data = json.load(fh)\n    return data\n\n\ndef load_orders(path):\n    with open(path) as fh:\n        data = json.load(fh)\n    return data[\"orders\"]\n";
    let search = "def load_orders(path):\n    with open(path) as fh:\n        data = json.load(fh)\n    return data\n";
    let replace = "def load_orders(path):\n    with open(path, encoding=\"utf-8\") as fh:\n        data = json.load(fh)\n    return data\n";
    let d = &diagnose(&block(search, replace), file, final_v1())[0];
    assert_eq!(d.withheld, None, "{}", d.message);
    assert_eq!(
        suggested_by(file, search, replace),
        file.replace(
            "def load_orders(path):\n    with open(path) as fh:",
            "def load_orders(path):\n    with open(path, encoding=\"utf-8\") as fh:"
        )
    );
    // The same edit changing the cut line too is two changes in one line.
    let replace = replace.replace("    return data\n", "    return data or {}\n");
    let d = &diagnose(&block(search, &replace), file, final_v1())[0];
    assert_eq!(d.suggestion, None, "{}", d.message);
    assert_contains(
        d.withheld.as_deref().expect("says why"),
        "the SEARCH text is only part of line 10, whose rest (`[\"orders\"]`)",
    );
    // Code before a fragment's first line, the first line kept, a later
    // line changed: carried over with the file's head.
    let file = "let total = sum(xs)\nreport(total)\n";
    let diff = block("sum(xs)\nreport(total)\n", "sum(xs)\nreport(total, unit)\n");
    let d = &diagnose(&diff, file, final_v1())[0];
    assert_eq!(d.withheld, None, "{}", d.message);
    assert_eq!(
        suggested_result(file, &diff),
        "let total = sum(xs)\nreport(total, unit)\n"
    );
}

/// SEARCH/REPLACE blocks that match exactly and damage the file in ways
/// the trust checks now see (they said "ok" and were written): the only
/// line of a Python `for` body commented out (Python: expected an
/// indented block), a Makefile recipe line added with spaces under tab
/// recipes (make: missing separator), a method body written as `pass  #
/// unchanged`, a method added again beside its old self (Python keeps the
/// later one silently). `check` exits 1 saying what it found, `apply --write`
/// holds the result back and leaves the file as it was.
#[test]
fn exact_blocks_that_empty_a_block_or_break_a_recipe_are_held_back() {
    let report = "def main():\n    for r in [[1, 2], [3]]:\n        print(\"row\", r)\n\n\nif __name__ == \"__main__\":\n    main()\n";
    let makefile = "all: app\n\napp: main.c\n\tcc -o app main.c\n\nclean:\n\trm -f app\n";
    let cart = "class Cart:\n    def total(self):\n        t = sum(self.items)\n        t -= self.discount\n        return t\n";
    let cases = [
        (
            "report.py",
            report,
            block(
                "        print(\"row\", r)\n",
                "        # print(\"row\", r)\n",
            ),
            "held back: the diff leaves report.py misindented: as written, line 6 (`if __name__ \
             == \"__main__\":`) is at column 0, not deeper than line 2 (`for r in [[1, 2], \
             [3]]:`), which ends with `:`, and no indented line comes between them: Python \
             refuses the file (IndentationError: expected an indented block)",
        ),
        (
            "Makefile",
            makefile,
            block(
                "\tcc -o app main.c\n",
                "\tcc -o app main.c\n    strip app\n",
            ),
            "held back: the diff leaves Makefile misindented: as written, line 5 (`strip app`) \
             is indented with spaces in a recipe whose lines start with a tab (line 4): make \
             takes a recipe line only after a tab and stops there (`*** missing separator.  \
             Stop.`)",
        ),
        (
            "cart.py",
            cart,
            block(
                "        t = sum(self.items)\n        t -= self.discount\n        return t\n",
                "        pass  # unchanged\n",
            ),
            "REPLACE text stands in for lines it leaves out (its line 1: `pass  # unchanged`)",
        ),
        (
            "cart.py",
            cart,
            block(
                "class Cart:\n",
                "class Cart:\n    def total(self):\n        return sum(self.items)\n\n",
            ),
            "held back: the diff leaves cart.py defining a name twice: as written, the file \
             defines `total` twice in class `Cart` (line 1), at lines 2 and 5: Python keeps the \
             later one (line 5) without a word, and the one at line 2 never runs",
        ),
    ];
    for (name, content, diff, said) in cases {
        assert_checked_and_held_back(name, content, &diff, said);
    }
}

/// A Markdown file's line ending in two spaces (a hard line break), which
/// the model's old text lost: `srview fix` (a SEARCH/REPLACE block, a
/// patch, an edit) writes the changed line with the file's two spaces
/// (every corrected edit wrote it without them); where the model's lines
/// end in a break the file's line has not, no correction, and the note
/// says why. A Python file's trailing spaces mean nothing: its correction
/// is as before.
#[test]
fn a_correction_never_changes_a_markdown_hard_break() {
    use srview::diagnose::fix::fix_for;
    use srview::dialect::{Dialect, corrected::correct, one_file::Target};
    let poem = "# Notes\n\nRoses are red,  \nViolets are blue.\n\nEnd.\n";
    let plain = poem.replace("red,  ", "red,");
    let lost = block(
        "Roses are red,\nViolets are blue.\n",
        "Roses are crimson,\nViolets are blue.\n",
    );
    let carried = block(
        "Roses are red,  \nViolets are blue.\n",
        "Roses are crimson,  \nViolets are blue.\n",
    );
    assert_eq!(fix_for("notes.md", &lost, poem, final_v1()).diff, carried);
    // The model's break over a line without one: kept as written, said why.
    let fixed = fix_for("plain.md", &carried, &plain, final_v1());
    assert_eq!(fixed.diff, carried);
    assert_eq!(
        fixed
            .notes
            .iter()
            .map(|n| n.line("plain.md"))
            .collect::<Vec<_>>(),
        [
            "block #1 (diff lines 1-7) has no suggestion for its closest region (lines 3-4): the \
          edit's line `Roses are crimson,  ` ends in two trailing spaces, which file line 3 \
          (`Roses are red,`) does not have, and the edit's old line has it too: two trailing \
          spaces are a Markdown line break, and whether the model means to add it cannot be \
          told: kept as written"
        ]
    );
    // Python: no meaning, the model's line as it wrote it.
    let py = "LOW = 5  \nTAX = 0.2\n";
    let sent = block("LOW = 5\nTAX = 0.2\n", "LOW = 10\nTAX = 0.2\n");
    assert_eq!(
        fix_for("stock.py", &sent, py, final_v1()).diff,
        block("LOW = 5  \nTAX = 0.2\n", "LOW = 10\nTAX = 0.2\n")
    );

    let target = |name, content| Target {
        cwd: "/project",
        name,
        content: Some(content),
    };
    let patch = |name: &str, old: &str, new: &str| {
        format!(
            "*** Begin Patch\n*** Update File: {name}\n@@\n-{old}\n-Violets are blue.\n+{new}\n+Violets are blue.\n*** End Patch\n"
        )
    };
    let fixed = correct(
        &patch("notes.md", "Roses are red,", "Roses are crimson,"),
        Dialect::ApplyPatch,
        &target("notes.md", poem),
        "notes.md",
    )
    .expect("a patch");
    assert_eq!(
        fixed.text,
        Some(patch(
            "notes.md",
            "Roses are red,  ",
            "Roses are crimson,  "
        ))
    );
    assert!(fixed.complete, "{:?}", fixed.note);
    let fixed = correct(
        &patch("plain.md", "Roses are red,  ", "Roses are crimson,  "),
        Dialect::ApplyPatch,
        &target("plain.md", &plain),
        "plain.md",
    )
    .expect("a patch");
    assert!(!fixed.complete);
    assert_eq!(
        fixed.note.as_deref(),
        Some(
            "the patch is not fully corrected: the edit's line `Roses are crimson,  ` ends in \
             two trailing spaces, which the file's line in hunk 1 of plain.md (`Roses are red,`) \
             does not have, and the edit's old line has it too: two trailing spaces are a \
             Markdown line break, and whether the model means to add it cannot be told"
        )
    );
    let edit = r#"{"file_path":"notes.md","old_string":"Roses are red,\nViolets are blue.\n","new_string":"Roses are crimson,\nViolets are blue.\n"}"#;
    let fixed = correct(
        edit,
        Dialect::EditJson,
        &target("notes.md", poem),
        "notes.md",
    )
    .expect("an edit");
    assert_eq!(
        fixed.text.as_deref(),
        Some(
            "{\"tool\":\"Edit\",\"file_path\":\"notes.md\",\"old_string\":\"Roses are red,  \\nViolets are blue.\\n\",\"new_string\":\"Roses are crimson,  \\nViolets are blue.\\n\",\"replace_all\":false}\n"
        )
    );
}

/// The same damage in files told Python or a Makefile by their first line
/// or their makefile name, not by `.py` or `Makefile` (a tester's find:
/// `check` said "the diff applies" and `apply --write` wrote): an
/// executable script starting `#!/usr/bin/env python3`, `debian/rules`
/// starting `#!/usr/bin/make -f` (by its first line and its place),
/// `Makefile.in`, `Makefile.am`, `BSDmakefile`. A file without either
/// is not read so.
#[test]
fn files_told_python_or_make_by_first_line_or_name_are_held_back() {
    let tool = "#!/usr/bin/env python3\nimport sys\n\n\ndef main():\n    if len(sys.argv) > 1:\n        print(sys.argv[1])\n    return 0\n";
    let emptied = block(
        "        print(sys.argv[1])\n",
        "        # print(sys.argv[1])\n",
    );
    let recipe = "build:\n\tgcc -o app main.c\n\tstrip app\n";
    let spaced = block("\tstrip app\n", "\tstrip app\n    chmod +x app\n");
    let make_said = "misindented: as written, line 4 (`chmod +x app`) is indented with spaces \
                     in a recipe whose lines start with a tab (line 3)";
    let rules = format!("#!/usr/bin/make -f\n{recipe}");
    let make_said_rules = make_said
        .replace("line 4", "line 5")
        .replace("line 3", "line 4");
    let cases = [
        (
            "bin/tool",
            tool.to_string(),
            &emptied,
            "held back: the diff leaves tool misindented: as written, line 8 (`return 0`) is at \
             column 4, not deeper than line 6 (`if len(sys.argv) > 1:`)"
                .to_string(),
        ),
        (
            "debian/rules",
            rules.clone(),
            &spaced,
            make_said_rules.clone(),
        ),
        ("pkg/rules", rules, &spaced, make_said_rules),
        (
            "Makefile.in",
            recipe.to_string(),
            &spaced,
            make_said.to_string(),
        ),
        (
            "Makefile.am",
            recipe.to_string(),
            &spaced,
            make_said.to_string(),
        ),
        (
            "BSDmakefile",
            recipe.to_string(),
            &spaced,
            make_said.to_string(),
        ),
    ];
    for (name, content, diff, said) in &cases {
        assert_checked_and_held_back(name, content, diff, said);
    }
    // Neither by name nor by first line: the layout is not read.
    for (name, content, diff) in [
        ("bin/tool", tool.replace("python3", "node"), &emptied),
        ("rules", recipe.to_string(), &spaced),
    ] {
        let (_dir, file, edit) = file_and_edit((name, &content), ("edit.diff", diff));
        let out = support::runner::srview(["check", &file, &edit]).output();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(0), "{name}: {stdout}");
    }
}

/// A SEARCH/REPLACE diff adding a new rule whose recipe is in spaces (a
/// tester's find: `check` said ok, `apply --write` wrote it, and `make -n`
/// stopped: `Makefile:7: *** missing separator.  Stop.`): `check` exits 1
/// saying the line and the rule, `apply --write` holds it back. The rule
/// with a tab, a continuation, a `define` body or conditionals in spaces
/// applies and is written. So with a recipe line in spaces starting with
/// a variable reference (another find: `$(MAKE) -C sub`, `$(CC) -c $<`
/// said ok; make stopped the same way, or dropped the line where the
/// variable was empty) and with `$(info ...)` in spaces before a tab
/// recipe line (make: `*** recipe commences before first target.`); the
/// rule with a lone `$(info ...)`, an assignment to `$(N)_FLAGS` after
/// its tab line, or an `$(error ...)` in a conditional applies.
#[test]
fn a_new_rule_whose_recipe_is_in_spaces_is_held_back() {
    let makefile = "all: build\n\nbuild:\n\tgo build ./...\n\ntest:\n\tgo test ./...\n";
    let two = |rule: &str| {
        format!(
            "------- SEARCH\nbuild:\n=======\nbuild: gen\n+++++++ REPLACE\n------- SEARCH\n\
             test:\n=======\n{rule}\ntest:\n+++++++ REPLACE\n"
        )
    };
    assert_checked_and_held_back(
        "Makefile",
        makefile,
        &two("gen:\n    go generate ./...\n"),
        "held back: the diff leaves Makefile misindented: as written, line 7 (`go generate \
         ./...`) is indented with 4 spaces (column 5) in the recipe of the rule on line 6 \
         (`gen:`): make takes a recipe line only after a tab and stops there (`*** missing \
         separator.  Stop.`): send the recipe lines indented with a tab",
    );
    for command in ["$(MAKE) -C sub", "$(CC) -c $<", "${GO} generate ./..."] {
        assert_checked_and_held_back(
            "Makefile",
            makefile,
            &two(&format!("gen:\n    {command}\n")),
            &format!(
                "held back: the diff leaves Makefile misindented: as written, line 7 \
                 (`{command}`) is indented with 4 spaces (column 5) in the recipe of the rule \
                 on line 6 (`gen:`): make takes a recipe line only after a tab and stops there \
                 (`*** missing separator.  Stop.`), or drops the line where it expands to \
                 nothing: send the recipe lines indented with a tab"
            ),
        );
    }
    assert_checked_and_held_back(
        "Makefile",
        makefile,
        &two("gen:\n    $(info generating)\n\tgo generate ./...\n"),
        "held back: the diff leaves Makefile misindented: as written, line 7 (`$(info \
         generating)`) is indented with spaces in the recipe of line 6: make reads it as a \
         makefile line ending the recipe, and stops at the recipe line after it, line 8 (`go \
         generate ./...`: `*** recipe commences before first target.  Stop.`): send it \
         indented with a tab, or out of the recipe",
    );
    for rule in [
        "gen:\n\tgo generate ./...\n",
        "gen:\n\tgo generate \\\n    ./...\n",
        "define GEN\n    go generate ./...\nendef\ngen:\n\t$(GEN)\n",
        "gen:\n  ifeq ($(CI),1)\n\tgo generate ./...\n  else\n\tgo generate -x ./...\n  endif\n",
        "gen:\n\tgo generate ./...\n    $(info generated)\n    $(N)_FLAGS := -x\n",
        "gen:\n  ifndef CI\n    $(error CI unset)\n  endif\n\tgo generate ./...\n",
    ] {
        let (_dir, file, edit) = file_and_edit(("Makefile", makefile), ("edit.diff", &two(rule)));
        let out = support::runner::srview(["check", &file, &edit]).output();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(0), "{rule:?}: {stdout}");
        assert_contains(&stdout, "2 blocks, the diff applies\n");
        let out = support::runner::srview(["apply", &file, &edit, "--write"]).output();
        assert_eq!(out.status.code(), Some(0), "{rule:?}");
        let written = std::fs::read_to_string(&file).expect("read");
        assert!(written.contains(rule), "{rule:?}: {written}");
    }
}

/// A diff whose REPLACE text adds bidirectional controls the file did not
/// hold (a tester's find: `check` said "the diff applies", the previewer
/// and `v` showed a harmless string): `check` exits 1 naming the code
/// points and the line, `apply --write` holds it back and `--force`
/// writes it. Counted by character: over a file already holding one
/// U+202E, a diff adding another is held back saying how many it adds; a
/// diff keeping the file's own (its line edited) applies without a word,
/// one moving it into a code line is held back (tester finding 37/04).
#[test]
fn a_diff_adding_bidi_controls_is_held_back() {
    let file = "def is_admin(user):\n    access = \"user\"\n    if access != \"none\":\n        return True\n    return False\n";
    let diff = block(
        "    access = \"user\"\n",
        "    access = \"user\u{202e} \u{2066}// Check if admin\u{2069} \u{2066}\"\n",
    );
    assert_checked_and_held_back(
        "a.py",
        file,
        &diff,
        "held back: the diff adds invisible bidirectional control characters the file did not \
         hold (U+202E RIGHT-TO-LEFT OVERRIDE, U+2066 LEFT-TO-RIGHT ISOLATE, U+2069 POP \
         DIRECTIONAL ISOLATE, at line 2)",
    );
    let (_dir, path, edit) = file_and_edit(("a.py", file), ("b.diff", &diff));
    let out = support::runner::srview(["apply", &path, &edit, "--write", "--force"]).output();
    assert_eq!(out.status.code(), Some(0), "{:?}", out);
    assert_contains(
        &std::fs::read_to_string(&path).expect("read"),
        "\"user\u{202e} \u{2066}",
    );
    // Over a file holding one U+202E already: one more is added.
    let held = file.replace("\"none\"", "\"none\u{202e}\"");
    assert_checked_and_held_back(
        "a.py",
        &held,
        &block("    return False\n", "    return \"\u{202e}\" == access\n"),
        "held back: the diff adds more invisible bidirectional control characters than the \
         file held (U+202E RIGHT-TO-LEFT OVERRIDE: 1 more than the file's 1, at line 5): they \
         reorder or hide the text around them",
    );
    // The file's own kept, its line edited: nothing added.
    std::fs::write(&path, &held).expect("write");
    let kept = block(
        "    if access != \"none\u{202e}\":\n",
        "    if access == \"none\u{202e}\":\n",
    );
    std::fs::write(&edit, &kept).expect("write");
    let out = support::runner::srview(["check", &path, &edit]).output();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    // The file's one taken out of its string and put in a code line, as
    // many as before (tester finding 37/04): held back naming the line.
    let moved = format!(
        "{}{}",
        block(
            "    if access != \"none\u{202e}\":\n",
            "    if access != \"none\":\n",
        ),
        block(
            "    return False\n",
            "    return False # \u{202e} } if (user.guest) {\n",
        )
    );
    assert_checked_and_held_back(
        "a.py",
        &held,
        &moved,
        "held back: the diff puts invisible bidirectional control characters the file held \
         where they were not (U+202E RIGHT-TO-LEFT OVERRIDE, at line 5): they reorder or hide \
         the text around them",
    );
}

/// A new temp folder holding the file `(name, content)` and the edit
/// `(edit_name, edit)` (a diff, or an agent's JSON): the folder (to keep
/// while they are used) and the two paths, as `srview check` and `apply`
/// take them.
fn file_and_edit(
    (name, content): (&str, &str),
    (edit_name, edit): (&str, &str),
) -> (tempfile::TempDir, String, String) {
    let dir = tempfile::tempdir().expect("temp dir");
    support::files::write_all(dir.path(), [(name, content), (edit_name, edit)]);
    let file = dir.path().join(name).display().to_string();
    let edit = dir.path().join(edit_name).display().to_string();
    (dir, file, edit)
}

/// `check` of the file `(name, content)` and the edit, then `apply
/// --write` of them: both runs and the file's text after.
fn check_then_apply(file: (&str, &str), edit: (&str, &str)) -> (Output, Output, String) {
    let (_dir, path, edit) = file_and_edit(file, edit);
    let check = support::runner::srview(["check", &path, &edit]).output();
    let apply = support::runner::srview(["apply", &path, &edit, "--write"]).output();
    let written = std::fs::read_to_string(&path).expect("read");
    (check, apply, written)
}

/// `apply --write` of the file `(name, content)` and the diff: it exits
/// 0 (else `what` and its output are said); the file's text after.
fn written_by_apply(name: &str, content: &str, diff: &str, what: &str) -> String {
    let (_dir, file, edit) = file_and_edit((name, content), ("edit.diff", diff));
    let out = support::runner::srview(["apply", &file, &edit, "--write"]).output();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{what}: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    std::fs::read_to_string(&file).expect("read")
}

/// [`check_then_apply`]'s runs held the edit to `name` back: `check`
/// exited 1 saying `said`, `apply --write` exited 1 and left the file as
/// it was (`before`).
fn assert_held_back(name: &str, ran: &(Output, Output, String), said: &str, before: &str) {
    let (check, apply, written) = ran;
    let stdout = String::from_utf8_lossy(&check.stdout);
    assert_eq!(check.status.code(), Some(1), "{name}: {stdout}");
    assert_contains(&stdout, said);
    assert_eq!(apply.status.code(), Some(1), "{name}");
    assert_eq!(written, before, "{name}");
}

/// [`check_then_apply`]'s runs wrote the edit: `check` and `apply
/// --write` exited 0, and the file holds `want`.
fn assert_written(ran: &(Output, Output, String), want: &str) {
    let (check, apply, written) = ran;
    let stdout = String::from_utf8_lossy(&check.stdout);
    assert_eq!(check.status.code(), Some(0), "{stdout}");
    let stderr = String::from_utf8_lossy(&apply.stderr);
    assert_eq!(apply.status.code(), Some(0), "{stderr}");
    assert_eq!(written, want);
}

/// `check` of the file `(name, content)` and the diff exits 1 saying
/// `said`; `apply --write` exits 1 and leaves the file as it was.
fn assert_checked_and_held_back(name: &str, content: &str, diff: &str, said: &str) {
    let ran = check_then_apply((name, content), ("edit.diff", diff));
    assert_held_back(name, &ran, said, content);
}

/// A tester's find (round 39b, 07): an edit leaving a YAML file
/// unparseable (a tab in an indentation, a quote or a `[` left open) was
/// written and called fine. `check` exits 1 with the parser's line,
/// column and words, `apply --write` holds it back and leaves the file as
/// it was; a key one column too deep keeps the misindent doubt alone (one
/// doubt, not two); the same edit with its quote and bracket closed is
/// written, and a Helm template that did not parse before is not judged.
#[test]
fn a_yaml_file_left_unparseable_is_doubted_and_held_back() {
    let config = "server:\n  host: a\n  port: 80\n";
    let cases = [
        (
            "  port: 80\n\ttimeout: 5\n",
            "held back: the diff leaves a.yaml unreadable as YAML: the file was valid YAML \
             before and is not after: line 3, column 9: while scanning a plain scalar, found a \
             tab (line 4 is indented with a tab): YAML readers refuse the whole file: send the \
             edit so that the file stays YAML (indentation in spaces: YAML forbids tabs there)",
        ),
        (
            "  port: 80\n  name: \"web\n",
            "held back: the diff leaves a.yaml unreadable as YAML: the file was valid YAML \
             before and is not after: line 4, column 9: while scanning a quoted scalar, found \
             unexpected end of stream",
        ),
        (
            "  port: 80\n  tags: [a, b\n",
            "held back: the diff leaves a.yaml unreadable as YAML: the file was valid YAML \
             before and is not after: line 5, column 1 (the end of the file): while parsing a \
             flow sequence, expected ',' or ']'",
        ),
    ];
    for (new, said) in cases {
        let diff = block("  port: 80\n", new);
        assert_checked_and_held_back("a.yaml", config, &diff, said);
        assert_checked_and_held_back("ci.yml", config, &diff, "unreadable as YAML");
    }
    // The misindent doubt says it; the parser's is not added.
    let deep = block("  port: 80\n", "  port: 80\n   debug: true\n");
    assert_checked_and_held_back(
        "a.yaml",
        config,
        &deep,
        "held back: the diff leaves a.yaml misindented: as written, line 4 (`debug: true`) is a \
         key at column 3",
    );
    let (_dir, file, edit) = file_and_edit(("a.yaml", config), ("edit.diff", &deep));
    let out = support::runner::srview(["check", &file, &edit]).output();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(!stdout.contains("unreadable as YAML"), "{stdout}");
    // Closed, the same edits are written; a template is not judged; nor
    // is a file that is not YAML by its name.
    let helm = "metadata:\n  labels:\n    {{- include \"x\" . | nindent 4 }}\n  port: 80\n";
    for (name, content, new) in [
        ("a.yaml", config, "  port: 80\n  name: \"web\"\n"),
        ("a.yml", config, "  port: 80\n  tags: [a, b]\n"),
        ("a.yaml", config, "  port: 80\n  timeout: 5\n"),
        ("templates/cm.yaml", helm, "  port: 80\n  name: \"web\n"),
        ("a.txt", config, "  port: 80\n  name: \"web\n"),
    ] {
        let diff = block("  port: 80\n", new);
        let written = written_by_apply(name, content, &diff, &format!("{name} {new:?}"));
        assert!(written.contains(new), "{name}: {written}");
    }
}

/// The cases a reference tool's verdicts were recorded for, in
/// tests/fixtures/trust/FOLDER/cases.json (written by record.py there).
fn recorded_cases(folder: &str) -> Vec<serde_json::Value> {
    let path = format!(
        "{}/tests/fixtures/trust/{folder}/cases.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(path).expect("the fixture");
    serde_json::from_str(&text).expect("JSON")
}

/// [`recorded_cases`], at least `least` of them and at least half of them
/// edits the reference reads as fine (`fine`): a check that doubted every
/// edit would not pass.
fn balanced_cases(
    folder: &str,
    least: usize,
    fine: impl Fn(&serde_json::Value) -> bool,
) -> Vec<serde_json::Value> {
    let cases = recorded_cases(folder);
    let good = cases.iter().filter(|c| fine(c)).count();
    assert!(
        cases.len() >= least && good * 2 >= cases.len(),
        "{folder}: {good} fine of {}",
        cases.len()
    );
    cases
}

/// A recorded case's name and its texts before and after the edit.
fn case_texts(case: &serde_json::Value) -> (&str, &str, &str) {
    (
        case["name"].as_str().expect("a name"),
        case["before"].as_str().expect("a text before"),
        case["after"].as_str().expect("a text after"),
    )
}

/// PyYAML's verdict on each recorded YAML edit
/// (tests/fixtures/trust/yaml/cases.json, written by record.py there):
/// srview's YAML reading agrees on every case, and each edit PyYAML
/// refuses is a doubt (the parser's, or the layout check's where it speaks
/// first); no edit PyYAML reads is called unreadable.
#[test]
fn yaml_parse_verdicts_agree_with_pyyaml() {
    use srview::diagnose::doubt_not_yaml::parses;
    use srview::diagnose::layout::layout_break;
    let cases = balanced_cases("yaml", 40, |c| c["pyyaml_loads"] == true);
    for case in &cases {
        let (name, before, after) = case_texts(case);
        let loads = case["pyyaml_loads"].as_bool().expect("a verdict");
        assert!(parses(before), "{name}: the file before");
        assert_eq!(parses(after), loads, "{name}");
        let doubt = layout_break("case.yaml", before, after);
        if loads {
            assert!(
                doubt
                    .as_ref()
                    .is_none_or(|d| d.leaves() != "unreadable as YAML"),
                "{name}: {doubt:?}"
            );
        } else {
            assert!(doubt.is_some(), "{name}");
        }
    }
}

/// A tester's find (round 41a, 02): `serde` added again to Cargo.toml's
/// `[dependencies]`, or `[dependencies]` declared again, was written and
/// called fine; Cargo then refuses the manifest. `check` exits 1 naming
/// the key and the line of the first, `apply --write` holds it back and
/// leaves the file as it was; the same edits without the repeat, and a
/// file that did not parse before, are written.
#[test]
fn a_toml_key_or_table_added_again_is_doubted_and_held_back() {
    let cargo = "[package]\nname = \"x\"\nversion = \"0.1.0\"\n\n[dependencies]\nserde = \"1.0\"\nanyhow = \"1\"\n";
    let again = block(
        "anyhow = \"1\"\n",
        "anyhow = \"1\"\nserde = { version = \"1.0\", features = [\"derive\"] }\n",
    );
    assert_checked_and_held_back(
        "Cargo.toml",
        cargo,
        &again,
        "held back: the diff leaves Cargo.toml unreadable as TOML: the file was valid TOML \
         before and is not after: line 8, column 1: the key `serde` set twice in table \
         [dependencies], first at line 6: Cargo, pip and every TOML reader refuse the whole \
         file: send the edit so that the file stays TOML (each key once in its table: change \
         the line that sets it, not add another)",
    );
    let table = block(
        "version = \"0.1.0\"\n",
        "version = \"0.1.0\"\n\n[dependencies]\nclap = \"4\"\n",
    );
    assert_checked_and_held_back(
        "Cargo.toml",
        cargo,
        &table,
        "the file was valid TOML before and is not after: line 8, column 2: the table \
         [dependencies] declared twice, first at line 5",
    );
    let py = "[project]\nname = \"app\"\n\n[tool.ruff]\nline-length = 88\n";
    let ruff = block(
        "line-length = 88\n",
        "line-length = 88\n\n[tool.ruff]\nselect = [\"E\"]\n",
    );
    assert_checked_and_held_back(
        "pyproject.toml",
        py,
        &ruff,
        "the table [tool.ruff] declared twice, first at line 4",
    );
    let broken = format!("{cargo}serde = \"2\"\n");
    for (name, content, diff) in [
        (
            "Cargo.toml",
            cargo,
            block("anyhow = \"1\"\n", "anyhow = \"1\"\nclap = \"4\"\n"),
        ),
        (
            "Cargo.toml",
            cargo,
            block(
                "serde = \"1.0\"\n",
                "serde = { version = \"1.0\", features = [\"derive\"] }\n",
            ),
        ),
        (
            "pyproject.toml",
            py,
            block(
                "line-length = 88\n",
                "line-length = 88\n\n[tool.ruff.lint]\nselect = [\"E\"]\n",
            ),
        ),
        (
            "Cargo.toml",
            broken.as_str(),
            block("anyhow = \"1\"\n", "anyhow = \"1\"\nclap = \"4\"\n"),
        ),
        ("a.txt", cargo, again.clone()),
    ] {
        let written = written_by_apply(name, content, &diff, &format!("{name} {diff:?}"));
        assert_ne!(written, content);
    }
}

/// Python's tomllib verdict on each recorded TOML edit
/// (tests/fixtures/trust/toml/cases.json, written by record.py there):
/// srview's TOML check agrees on every case: an edit tomllib refuses is
/// the doubt "unreadable as TOML", an edit it reads is no doubt at all. The
/// cases marked TOML 1.1 (read by Cargo and toml_edit, refused by
/// tomllib's TOML 1.0) are doubted in the files Python tools read
/// (pyproject.toml, Pipfile), and not elsewhere (Cargo reads them).
#[test]
fn toml_parse_verdicts_agree_with_tomllib() {
    use srview::diagnose::doubt_toml::toml_error;
    use srview::diagnose::layout::layout_break;
    let cases = recorded_cases("toml");
    let loading = cases.iter().filter(|c| c["tomllib_loads"] == true).count();
    let newer = cases.iter().filter(|c| c["toml"] == "1.1").count();
    assert!(
        cases.len() >= 40 && (loading + newer) * 2 >= cases.len() && newer >= 9,
        "{loading} + {newer} of {}",
        cases.len()
    );
    for case in &cases {
        let (name, before, after) = case_texts(case);
        let file = case["path"].as_str().expect("a file name");
        let loads = case["tomllib_loads"].as_bool().expect("a verdict");
        let doubt = layout_break(file, before, after);
        if case["toml"] == "1.1" {
            assert!(!loads, "{name}");
            assert!(toml_error(after).is_none(), "{name}");
            let python = ["pyproject.toml", "Pipfile"].contains(&file);
            assert_eq!(
                doubt.as_ref().map(|d| d.leaves()),
                python.then_some("unreadable as TOML"),
                "{name}"
            );
            continue;
        }
        assert!(toml_error(before).is_none(), "{name}: the file before");
        assert_eq!(toml_error(after).is_none(), loads, "{name}");
        if loads {
            assert_eq!(doubt, None, "{name}");
        } else {
            assert_eq!(
                doubt.as_ref().map(|d| d.leaves()),
                Some("unreadable as TOML"),
                "{name}"
            );
        }
    }
}

/// expat's verdict (Python's `xml.etree`) on each recorded XML edit
/// (tests/fixtures/trust/xml/cases.json, written by record.py there;
/// round 45 T-09): an edit expat refuses (an element left open, an end tag
/// of another name, a comment, CDATA or quote left open) is the doubt
/// "unreadable as XML", an edit it reads is no doubt.
#[test]
fn xml_well_formedness_agrees_with_expat() {
    use srview::diagnose::layout::layout_break;
    let cases = balanced_cases("xml", 30, |c| c["expat"] == "reads");
    for case in &cases {
        let (name, before, after) = case_texts(case);
        let file = case["path"].as_str().expect("a file name");
        let reads = case["expat"] == "reads";
        let doubt = layout_break(file, before, after);
        assert_eq!(
            doubt.as_ref().map(|d| d.leaves()),
            (!reads).then_some("unreadable as XML"),
            "{name}: {}",
            case["expat"]
        );
    }
}

/// tinycss2's, html5lib's and jinja2's verdicts on each recorded
/// stylesheet, page and template edit (tests/fixtures/trust/markup/
/// cases.json, written by record.py there; round 45 T-05 and its
/// addendum): an edit a reader calls lost (the stylesheet or page ends
/// inside a comment, a block or a raw-text element, or a `<script>`
/// swallows the next one's start tag) or refuses (jinja2) is the doubt
/// "with a comment, block or tag left open"; an edit they all read is no
/// doubt, and HTML nesting browsers repair (`</p>`, `</div>` left out)
/// is among those.
#[test]
fn markup_left_open_agrees_with_the_readers() {
    use srview::diagnose::layout::{BreakKind, layout_break};
    let reads = |c: &serde_json::Value| {
        ["tinycss2", "html5lib", "jinja2"]
            .iter()
            .all(|r| c.get(*r).is_none_or(|v| v == "reads"))
    };
    let cases = balanced_cases("markup", 50, reads);
    for case in &cases {
        let (name, before, after) = case_texts(case);
        let file = case["path"].as_str().expect("a file name");
        let doubt = layout_break(file, before, after);
        assert_eq!(
            doubt.as_ref().map(|d| (d.kind, d.leaves())),
            (!reads(case)).then_some((
                BreakKind::MarkupOpen,
                "with a comment, block or tag left open"
            )),
            "{name}: {case}"
        );
    }
}

/// Python's configparser verdict on each recorded INI edit
/// (tests/fixtures/trust/ini/cases.json, written by record.py there): an
/// edit configparser refuses for a section or an option twice is the doubt
/// "with a key twice", naming the section; one it reads is no doubt; a
/// line without `=` (configparser's `ParsingError`) is not this check's.
#[test]
fn ini_duplicate_verdicts_agree_with_configparser() {
    use srview::diagnose::layout::{BreakKind, layout_break};
    let cases = balanced_cases("ini", 20, |c| c["configparser"] == "reads");
    for case in &cases {
        let (name, before, after) = case_texts(case);
        let file = case["path"].as_str().expect("a file name");
        let said = case["configparser"].as_str().expect("a verdict");
        let doubt = layout_break(file, before, after);
        match said {
            "DuplicateOptionError" | "DuplicateSectionError" => {
                let doubt = doubt.expect(name);
                assert_eq!(doubt.kind, BreakKind::KeyTwice, "{name}");
                let what = if said == "DuplicateOptionError" {
                    "the option `"
                } else {
                    "the section ["
                };
                assert!(doubt.why.starts_with(what), "{name}: {}", doubt.why);
            }
            _ => assert_eq!(doubt, None, "{name} ({said})"),
        }
        // The same text in a file no configparser reads: not judged.
        assert_eq!(layout_break("uwsgi.ini", before, after), None, "{name}");
    }
}

/// iniconfig's verdict on each recorded pytest.ini edit
/// (tests/fixtures/trust/pytest_ini/cases.json, written by record.py
/// there with iniconfig 2.3.0, pytest's reader; tester round 41c, 02): a
/// "duplicate section" or "duplicate name" is the doubt "with a key
/// twice", naming the section or the name and iniconfig; an edit it reads
/// is no doubt; its other faults are not this check's.
#[test]
fn pytest_ini_verdicts_agree_with_iniconfig() {
    use srview::diagnose::layout::{BreakKind, layout_break};
    let cases = balanced_cases("pytest_ini", 20, |c| c["iniconfig"] == "reads");
    for case in &cases {
        let (name, before, after) = case_texts(case);
        let said = case["iniconfig"].as_str().expect("a verdict");
        let doubt = layout_break("pytest.ini", before, after);
        let twice = said
            .strip_prefix("duplicate name ")
            .map(|n| ("the option `", n))
            .or_else(|| {
                said.strip_prefix("duplicate section ")
                    .map(|n| ("the section [", n))
            });
        match twice {
            Some((what, quoted)) => {
                let doubt = doubt.expect(name);
                assert_eq!(doubt.kind, BreakKind::KeyTwice, "{name}");
                let named = format!("{what}{}", quoted.trim_matches('\''));
                assert!(doubt.why.starts_with(&named), "{name}: {}", doubt.why);
                assert!(
                    doubt.why.contains("iniconfig, which pytest reads"),
                    "{name}"
                );
            }
            None => assert_eq!(doubt, None, "{name} ({said})"),
        }
    }
}

/// A tester's find (round 41a, 10): an option added again to an INI
/// section; for tox.ini, read by configparser, `check` exits 1 and `apply
/// --write` holds it back; the same edit in another option is written.
#[test]
fn an_ini_option_added_again_is_held_back() {
    let tox = "[tox]\nenv_list = py311\n\n[testenv]\ndeps = pytest\ncommands = pytest\n";
    let again = block(
        "commands = pytest\n",
        "commands = pytest\ndeps = hypothesis\n",
    );
    assert_checked_and_held_back(
        "tox.ini",
        tox,
        &again,
        "held back: the diff leaves tox.ini with a key twice: the option `deps` twice in \
         section [testenv], at lines 5 and 7: Python's configparser, which setuptools, tox, \
         flake8, mypy, coverage and pylint read this file with, refuses the whole file: change \
         the option's line that is there instead of adding it again",
    );
    let other = block("commands = pytest\n", "commands = pytest\nsetenv = A=1\n");
    let written = written_by_apply("tox.ini", tox, &other, "tox.ini");
    assert!(written.contains("setenv = A=1\n"), "{written}");
}

/// The TOML check's cost on a 5,000-line Cargo.lock: read before and
/// after an edit of one line. Run with `cargo test --release --test
/// diagnose_trust -- --ignored toml_check_time --nocapture`.
#[test]
#[ignore]
fn toml_check_time_on_a_5000_line_lock_file() {
    use srview::diagnose::layout::layout_break;
    let mut big = String::from("# This file is automatically @generated by Cargo.\nversion = 4\n");
    for i in 0..625 {
        big.push_str(&format!(
            "\n[[package]]\nname = \"crate-{i}\"\nversion = \"1.{i}.0\"\nsource = \
             \"registry+https://github.com/rust-lang/crates.io-index\"\nchecksum = \
             \"{i:064x}\"\ndependencies = [\n \"crate-{}\",\n]\n",
            i + 1
        ));
    }
    assert!(big.lines().count() >= 5_000, "{}", big.lines().count());
    let broken = big.replacen(
        "version = \"1.7.0\"\n",
        "version = \"1.7.0\"\nversion = \"1.7.1\"\n",
        1,
    );
    let fine = big.replacen("version = \"1.7.0\"\n", "version = \"1.7.1\"\n", 1);
    for (what, after, doubted) in [("broken", &broken, true), ("fine", &fine, false)] {
        let each = mean_time(|| {
            assert_eq!(layout_break("Cargo.lock", &big, after).is_some(), doubted);
        });
        println!("{what}: {each:?} per check");
    }
}

/// The mean time of `check` over 20 runs (the ignored timing tests'
/// figures, printed by them; never asserted).
fn mean_time(mut check: impl FnMut()) -> std::time::Duration {
    let runs = 20;
    let start = std::time::Instant::now();
    for _ in 0..runs {
        check();
    }
    start.elapsed() / runs
}

/// The YAML check's cost on a 10,000-line file (a docker-compose-like
/// mapping of services): read before and after an edit of one line.
/// Run with `cargo test --release --test diagnose_trust -- --ignored
/// yaml_check_time --nocapture`.
#[test]
#[ignore]
fn yaml_check_time_on_a_10000_line_file() {
    use srview::diagnose::layout::layout_break;
    let mut big = String::from("services:\n");
    for i in 0..1000 {
        big.push_str(&format!(
            "  svc{i}:\n    image: \"registry.local/app:{i}\"\n    ports:\n      - \"{i}:80\"\n    \
             environment:\n      MODE: prod\n      LEVEL: {i}\n    command: [run, --id, \"{i}\"]\n    \
             # note {i}\n    restart: always\n"
        ));
    }
    assert_eq!(big.lines().count(), 10_001);
    let broken = big.replacen("      MODE: prod\n", "      MODE: \"prod\n", 1);
    let fine = big.replacen("      MODE: prod\n", "      MODE: dev\n", 1);
    for (what, after, doubted) in [("broken", &broken, true), ("fine", &fine, false)] {
        let each = mean_time(|| {
            assert_eq!(layout_break("compose.yaml", &big, after).is_some(), doubted);
        });
        println!("{what}: {each:?} per check (both texts read)");
    }
}

// --- Strings left open (tester round 39b, 06, 09, 10) ---

/// A tester's find (round 39b, 06): an edit dropping a string's closing
/// quote (`"x;` for `"x";`) in JavaScript, Go, Java or C was written and
/// called fine; node, go, javac and gcc refuse the file. `check` exits 1
/// naming the line, `apply --write` holds it back (the file unchanged),
/// `--force` writes it; the same edit keeping its quote is written.
#[test]
fn a_string_left_open_is_held_back() {
    let cases = [
        (
            "ds.js",
            "export function f(a) {\n  const s = \"x\";\n  if (a) {\n    return s;\n  }\n  return \"y\";\n}\n",
            "  const s = \"x\";\n",
            "  const s = \"x;\n",
            "  const s = \"say \\\"hi\\\" http://x\\\\\"; // don't\n",
            "line 2 opens a string it does not close (`const s = \"x;`): a `\"` string ends at \
             its line in JavaScript",
        ),
        (
            "ds.go",
            "package m\n\nfunc F(a bool) string {\n\ts := \"x\"\n\tif a {\n\t\treturn s\n\t}\n\treturn \"y\"\n}\n",
            "\ts := \"x\"\n",
            "\ts := \"x\n",
            "\ts := \"say \\\"hi\\\" http://x\\\\\" + string('\"') // don't\n",
            "line 4 opens a string it does not close (`s := \"x`): a `\"` string ends at its \
             line in Go",
        ),
        (
            "ds.java",
            "class A {\n  String f(boolean a) {\n    String s = \"x\";\n    if (a) { return s; }\n    return \"y\";\n  }\n}\n",
            "    String s = \"x\";\n",
            "    String s = \"x;\n",
            "    String s = \"say \\\"hi\\\" http://x\\\\\" + '\"'; // don't\n",
            "line 3 opens a string it does not close (`String s = \"x;`): a `\"` string ends \
             at its line in Java",
        ),
        (
            "ds.c",
            "const char *f(int a) {\n    const char *s = \"x\";\n    if (a) { return s; }\n    return \"y\";\n}\n",
            "    const char *s = \"x\";\n",
            "    const char *s = \"x;\n",
            "    const char *s = \"say \\\"hi\\\" http://x\\\\\"; /* don't */\n",
            "line 2 opens a string it does not close (`const char *s = \"x;`): a `\"` string \
             ends at its line in C",
        ),
    ];
    for (name, content, search, replace, kept, said) in cases {
        assert_checked_and_held_back(
            name,
            content,
            &block(search, replace),
            &format!("held back: the diff leaves {name} with a quote left open: {said}"),
        );
        let edit = block(search, replace);
        let (_dir, path, edit) = file_and_edit((name, content), ("e.diff", &edit));
        let out = support::runner::srview(["apply", &path, &edit, "--write"]).output();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_contains(&stderr, "was not written: the diff leaves");
        assert_contains(&stderr, "close it with its `\"`");
        let out = support::runner::srview(["apply", &path, &edit, "--write", "--force"]).output();
        assert_eq!(out.status.code(), Some(0), "{name}: {out:?}");
        assert_eq!(
            std::fs::read_to_string(&path).expect("read"),
            content.replacen(search, replace, 1)
        );
        // Its quote kept, escaped quotes and a `//` inside, an
        // apostrophe in a comment: written.
        std::fs::write(&path, content).expect("write");
        std::fs::write(&edit, block(search, kept)).expect("write");
        let out = support::runner::srview(["apply", &path, &edit, "--write"]).output();
        assert_eq!(out.status.code(), Some(0), "{name} {kept:?}: {out:?}");
        assert_eq!(
            std::fs::read_to_string(&path).expect("read"),
            content.replacen(search, kept, 1)
        );
    }
}

/// JSX text with apostrophes, a comment with one, a template literal over
/// lines: written as they are, no string left open.
#[test]
fn apostrophes_in_jsx_text_and_comments_are_written() {
    let content = "export const A = () => (\n  <div>\n    <p>Hi</p>\n  </div>\n);\n";
    let edit = block(
        "    <p>Hi</p>\n",
        "    <p>Don't panic, it's fine</p>\n    We're here {/* it's */}\n    {`a\n\"b`}\n",
    );
    let (_dir, file, diff) = file_and_edit(("a.jsx", content), ("e.diff", &edit));
    let out = support::runner::srview(["apply", &file, &diff, "--write"]).output();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert_contains(
        &std::fs::read_to_string(&file).expect("read"),
        "<p>Don't panic, it's fine</p>",
    );
}

/// Tester finds (round 39b, 09 and 10): a Rust raw C string `cr#".."#`
/// holding a `(`, and a C# raw string of four quotes holding `"""` and a
/// `(`, were refused as unbalanced; both files compile, and are written.
#[test]
fn rust_raw_c_strings_and_long_csharp_raw_strings_are_written() {
    let files = [
        (
            "src/cr1.rs",
            "pub fn a() -> &'static std::ffi::CStr { cr#\"say \"(\" please\"# }\n",
        ),
        (
            "src/S4.cs",
            "class S {\n    string b = \"\"\"\"\n        contains \"\"\" triple ( quotes\n        \"\"\"\";\n}\n",
        ),
    ];
    for (name, content) in files {
        let dir = tempfile::tempdir().expect("temp dir");
        let added: String = content.lines().map(|l| format!("+{l}\n")).collect();
        let patch = format!("*** Begin Patch\n*** Add File: {name}\n{added}*** End Patch\n");
        let patch_path = support::files::write(dir.path(), "p.patch", patch.as_bytes());
        let cwd = dir.path().join("w");
        std::fs::create_dir(&cwd).expect("mkdir");
        let out = support::runner::srview([
            "apply",
            "--transcript",
            &patch_path.display().to_string(),
            "--cwd",
            &cwd.display().to_string(),
            "--write",
        ])
        .output();
        assert_eq!(out.status.code(), Some(0), "{name}: {out:?}");
        assert_eq!(
            std::fs::read_to_string(cwd.join(name)).expect("read"),
            content
        );
    }
}

// --- Python names left unbound (tester round 41a, 06) ---

/// CPython's verdict on each recorded edit of a Python file
/// (tests/fixtures/trust/names/cases.json, written by record.py there
/// with `ast` and `symtable`): whether the result loads a module-level
/// name the file bound before and binds no longer. srview's check agrees
/// on every case, naming the first such name and the line that uses it;
/// at least 40 cases, half of them correct edits it must leave alone.
#[test]
fn python_names_gone_agree_with_symtable() {
    use srview::diagnose::layout::{BreakKind, layout_break};
    let cases = balanced_cases("names", 40, |c| c["loads_gone"] == false);
    for case in &cases {
        let (name, before, after) = case_texts(case);
        let gone = case["loads_gone"].as_bool().expect("a verdict");
        assert_eq!(layout_break("case.py", before, before), None, "{name}");
        let doubt = layout_break("case.py", before, after);
        let said = doubt.as_ref().filter(|d| d.kind == BreakKind::Undefined);
        assert_eq!(said.is_some(), gone, "{name}: {doubt:?}");
        if let Some(d) = said {
            let first = &case["first"];
            let (used, line) = (first[0].as_str().expect("a name"), &first[1]);
            assert_contains(
                &d.why,
                &format!("the file defined `{used}` at its top level"),
            );
            assert_contains(&d.why, &format!("but line {line} still uses it"));
            assert_eq!(d.leaves(), "using a name it no longer defines");
        }
    }
}

/// The tester's find (round 41a, 06): a whole-file `Write` of app.py that
/// leaves out `def helper` while `main` still calls it. `check` exits 1
/// naming the name, the line it was defined on and the line using it;
/// `apply --write` holds it back (the file unchanged); the same write
/// importing `helper` instead is written.
#[test]
fn a_write_leaving_out_a_function_still_called_is_held_back() {
    let app = "import sys\n\n\ndef parse(argv):\n    return argv[1:]\n\n\ndef helper(xs):\n    return [x.upper() for x in xs]\n\n\ndef main():\n    args = parse(sys.argv)\n    print(helper(args))\n\n\nif __name__ == \"__main__\":\n    main()\n";
    let lazy = app
        .replace(
            "def helper(xs):\n    return [x.upper() for x in xs]\n\n\n",
            "",
        )
        .replace("return argv[1:]", "return [a for a in argv[1:] if a]");
    let run = |content: &str| {
        let write = serde_json::json!({"file_path": "app.py", "content": content}).to_string();
        check_then_apply(("app.py", app), ("write.json", &write))
    };
    assert_held_back(
        "app.py",
        &run(&lazy),
        "the file defined `helper` at its top level before (line 8: `def helper(xs):`) and no \
         longer defines, assigns or imports it, but line 10 still uses it \
         (`print(helper(args))`): running that line raises NameError",
        app,
    );
    let imported = lazy.replace("import sys\n", "import sys\nfrom util import helper\n");
    assert_written(&run(&imported), &imported);
}

/// The name check's cost on a 10,000-line Python file (500 classes of
/// methods calling module functions): both texts read, an edit that
/// removes a function still called, and one that changes a line. Run with
/// `cargo test --release --test diagnose_trust -- --ignored
/// python_names_check_time --nocapture`.
#[test]
#[ignore]
fn python_names_check_time_on_a_10000_line_file() {
    use srview::diagnose::layout::{BreakKind, layout_break};
    let mut big = String::from("import os\nimport sys\n\n");
    for i in 0..500 {
        big.push_str(&format!(
            "LIMIT_{i} = {i}\ndef helper_{i}(xs, key=None):\n    \"\"\"Sort {i}.\"\"\"\n    return sorted(xs, key=key)  # {i}\n\n\n\
             class Thing{i}:\n    size = {i}\n\n    def __init__(self, name):\n        self.name = name\n\n    \
             def run(self, xs):\n        out = [helper_{i}(x) for x in xs if x]\n        return {{'n': len(out), 'f': f\"{{self.name}}-{i}\"}}\n\n    \
             def size_of(self):\n        return self.size + LIMIT_{i}\n\n\n"
        ));
    }
    let lines = big.lines().count();
    assert!((9_000..11_000).contains(&lines), "{lines}");
    let gone = big.replacen(
        "def helper_250(xs, key=None):\n    \"\"\"Sort 250.\"\"\"\n    return sorted(xs, key=key)  # 250\n",
        "",
        1,
    );
    let fine = big.replacen("size = 250\n", "size = 251\n", 1);
    for (what, after, doubted) in [("gone", &gone, true), ("fine", &fine, false)] {
        let each = mean_time(|| {
            let kind = layout_break("big.py", &big, after).map(|b| b.kind);
            assert_eq!(kind == Some(BreakKind::Undefined), doubted);
        });
        println!("{what}: {each:?} per check of {lines} lines (both texts read)");
    }
}

/// A tester's find (round 41a, 01): `check` called a replace-all renaming
/// the parameter `id` exact, and `apply --write` wrote it, though it also
/// renamed `doc.owner.id` and `owner.id`. `check` exits 1 naming the roles
/// and their lines, `apply --write` holds it back; the same rename of a
/// name used only as a name is written.
#[test]
fn a_replace_all_rename_reaching_attributes_is_held_back() {
    let r2 =
        "def can_edit(id, doc):\n    owner = db.user(id)\n    return doc.owner.id == owner.id\n";
    let local =
        "def can_edit(uid, doc):\n    owner = db.user(uid)\n    return doc.owner_id == owner\n";
    let run = |content: &str, old: &str| {
        let edit = serde_json::json!({"file_path": "r2.py", "old_string": old,
            "new_string": "user_id", "replace_all": true})
        .to_string();
        check_then_apply(("r2.py", content), ("edit.json", &edit))
    };
    assert_held_back(
        "r2.py",
        &run(r2, "id"),
        "the edit replaces every `id` (4 places), and they play different roles: as a name at \
         line 1 (`def can_edit(id, doc):`, 2 places); after a `.` (an attribute, maybe of \
         another object) at line 3 (`return doc.owner.id == owner.id`, 2 places)",
        r2,
    );
    assert_written(&run(local, "uid"), &local.replace("uid", "user_id"));
}

/// Testers' finds (round 41a, 03, 05, 09): a key added again to a Python
/// dict or a JavaScript object literal, a class attribute or a dataclass
/// field assigned again in its class body, a Lua function and an object
/// literal's method defined again, each above the old one: the old one
/// wins and the model's change has no effect. `check` exits 1 naming both
/// lines, `apply --write` holds the edit back and leaves the file; the
/// same edits adding another name are written.
#[test]
fn a_name_or_key_given_again_above_the_old_one_is_held_back() {
    let dict =
        "CONFIG = {\n    \"port\": 3000,\n    \"host\": \"localhost\",\n    \"debug\": False,\n}\n";
    let object = "module.exports = {\n  port: 3000,\n  host: \"localhost\",\n  debug: false,\n};\n";
    let config = "class Config:\n    DEBUG = False\n    PORT = 8000\n";
    let item = "from dataclasses import dataclass\n\n\n@dataclass\nclass Item:\n    name: str\n    qty: int = 0\n    price: float = 0.0\n";
    let lua = "local M = {}\n\nfunction M.greet(name)\n  return \"hi \" .. name\nend\n\nfunction M.bye(name)\n  return \"bye \" .. name\nend\n\nreturn M\n";
    let api = "const api = {\n  get(url) {\n    return fetch(url);\n  },\n  post(url, body) {\n    return fetch(url, { method: \"POST\", body });\n  },\n};\n";
    let cases = [
        (
            "cfg.py",
            dict,
            (
                "    \"port\": 3000,\n",
                "    \"port\": 3000,\n    \"timeout\": 5,\n    \"debug\": True,\n",
            ),
            "    \"timeout\": 5,\n",
            "held back: the diff leaves cfg.py with a key twice: as written, the file has the \
             key `debug` twice in the dict of line 1 (`CONFIG = {`), at lines 4 and 6: Python \
             keeps the later value (line 6) without a word, and the value at line 4 is lost",
        ),
        (
            "cfg.js",
            object,
            ("  port: 3000,\n", "  port: 3000,\n  debug: true,\n"),
            "  timeout: 5,\n",
            "held back: the diff leaves cfg.js with a key twice: as written, the file has the \
             key `debug` twice in the object literal of line 1 (`module.exports = {`), at lines \
             3 and 5: JavaScript keeps the later value (line 5)",
        ),
        (
            "k.py",
            config,
            (
                "    DEBUG = False\n",
                "    DEBUG = False\n    PORT = 9000\n    TIMEOUT = 5\n",
            ),
            "    TIMEOUT = 5\n",
            "held back: the diff leaves k.py defining a name twice: as written, the file \
             assigns `PORT` twice in class `Config` (line 1), at lines 3 and 5: Python keeps the \
             later value (line 5) without a word, and the one at line 3 has no effect: change \
             the assignment that is there",
        ),
        (
            "dc.py",
            item,
            ("    name: str\n", "    name: str\n    price: float = 1.0\n"),
            "    sku: str = \"\"\n",
            "as written, the file assigns `price` twice in class `Item` (line 5), at lines 7 \
             and 9",
        ),
        (
            "m.lua",
            lua,
            (
                "function M.greet(name)\n",
                "function M.bye(name)\n  return \"goodbye \" .. name\nend\n\nfunction M.greet(name)\n",
            ),
            "function M.wave(name)\n  return name\nend\n\n",
            "held back: the diff leaves m.lua defining a name twice: as written, the file \
             defines function `M.bye` twice at its top level, at lines 3 and 11: Lua keeps the \
             later one (line 11)",
        ),
        (
            "api.js",
            api,
            (
                "const api = {\n",
                "const api = {\n  post(url, body) {\n    return fetch(url, { method: \"POST\", body: JSON.stringify(body) });\n  },\n",
            ),
            "  put(url) {\n    return fetch(url);\n  },\n",
            "held back: the diff leaves api.js defining a name twice: as written, the file \
             defines the method `post` twice in the object literal of line 1 (`const api = {`), \
             at lines 2 and 8: JavaScript keeps the later one (line 8) without a word, and the \
             one at line 2 never runs",
        ),
    ];
    for (name, content, (old, new), other, said) in cases {
        assert_checked_and_held_back(name, content, &block(old, new), said);
        // The same place, another name: written.
        let fine = block(old, &format!("{old}{other}"));
        let written = written_by_apply(name, content, &fine, name);
        assert_eq!(written, content.replacen(old, &format!("{old}{other}"), 1));
    }
}

/// Tester round 41c, 04: an edit's old text found only inside a trailing
/// comment, a `/* */` comment or a docstring, while the code line the
/// model meant starts the same way: `check` exits 1 naming it, `apply
/// --write` leaves the file; the docstring's own edit is written.
#[test]
fn an_edit_landing_in_a_trailing_comment_block_comment_or_docstring_is_held_back() {
    let cases = [
        (
            "tc.py",
            "def price(p, q, d):\n    total = p * q * (1 - d)  # was: total = p * q\n    return total\n",
            r#"{"file_path": "tc.py", "old_string": "total = p * q\n", "new_string": "total = round(p * q)\n"}"#,
            "matches only inside the comment on line 2",
        ),
        (
            "bc.go",
            "func price(p, q, d float64) float64 {\n\t/*\n\ttotal := p * q\n\t*/\n\ttotal := p * q * (1 - d)\n\treturn total\n}\n",
            r#"{"file_path": "bc.go", "old_string": "\ttotal := p * q\n", "new_string": "\ttotal := math.Round(p * q)\n"}"#,
            "matches only inside the `/* */` comment on line 3",
        ),
        (
            "ds.py",
            "def price(p, q, d):\n    \"\"\"Price.\n\n    Formerly:\n    total = p * q\n    \"\"\"\n    total = p * q * (1 - d)\n    return total\n",
            r#"{"file_path": "ds.py", "old_string": "    total = p * q\n", "new_string": "    total = round(p * q, 2)\n"}"#,
            "matches only inside the triple-quoted string on line 5",
        ),
    ];
    for (name, content, edit, said) in cases {
        let ran = check_then_apply((name, content), ("edit.json", edit));
        assert_held_back(name, &ran, said, content);
    }
    let doc = cases[2].1;
    let own = r#"{"file_path": "ds.py", "old_string": "    Formerly:\n", "new_string": "    Before 2.0:\n"}"#;
    let ran = check_then_apply(("ds.py", doc), ("edit.json", own));
    assert_written(&ran, &doc.replace("Formerly:", "Before 2.0:"));
}

/// CPython's `compile()` verdict on each recorded Python edit
/// (tests/fixtures/trust/pysyntax/cases.json, written by record.py there
/// with Python 3.11; tester rounds 42a-01, 43b-01): a string left open is the
/// doubt "with a quote left open", a bracket never closed, closed by
/// another kind or with none open "with its brackets unbalanced", a
/// `return`, `yield`, `await`, `break` or `continue` outside its block
/// "with a statement outside the block it needs", a character the tokenizer
/// refuses "with a character Python refuses in its code", a statement ending
/// in an operator, an argument given twice and a `from __future__` import
/// below code (tester round 44, T-04) each its own kind, a default before
/// a parameter without one, `=` in a condition and a clause no block takes
/// (tester round 49, T-11) "with a statement Python's parser refuses", each
/// naming CPython's line and words; an edit CPython compiles is no doubt.
#[test]
fn python_syntax_verdicts_agree_with_compile() {
    use srview::diagnose::layout::{BreakKind, layout_break};
    let cases = balanced_cases("pysyntax", 40, |c| c["compiles"] == true);
    let mut judged = 0;
    for case in &cases {
        let (name, before, after) = case_texts(case);
        let doubt = layout_break("case.py", before, after);
        if case["compiles"] == true {
            assert_eq!(doubt, None, "{name}");
            continue;
        }
        let said = case["error"].as_str().expect("an error");
        // An f-string's field's bracket is said as a bracket's.
        let bracket = said.strip_prefix("f-string: ").unwrap_or(said);
        let kind = if said.starts_with("unterminated") {
            BreakKind::Unclosed
        } else if bracket.ends_with("was never closed")
            || bracket.starts_with("closing parenthesis")
            || bracket.starts_with("unmatched")
            || bracket.starts_with("expecting '}'")
        {
            BreakKind::Unbalanced
        } else if said.contains("outside")
            || said.contains("not properly in loop")
            || said.contains("inside")
        {
            BreakKind::Outside
        } else if said.starts_with("invalid character") || said.starts_with("invalid non-printable")
        {
            BreakKind::InvalidCharacter
        } else if said.starts_with("non-default argument") || said.contains("Maybe you meant '=='")
        {
            // A default before a parameter without one, `=` in a
            // condition (tester round 49, T-11).
            BreakKind::InvalidSyntax
        } else if said == "invalid syntax" && doubt.is_some() {
            // CPython's parser says this of many faults: the one srview
            // reads (a statement ending in an operator) is said in these
            // words; others (`lambda: return`) are not this check's.
            BreakKind::InvalidSyntax
        } else if said.starts_with("keyword argument repeated")
            || said.starts_with("duplicate argument")
        {
            BreakKind::ArgumentTwice
        } else if said == "from __future__ imports must occur at the beginning of the file" {
            BreakKind::LateFuture
        } else {
            // Another fault (`lambda: return`): not this check's.
            continue;
        };
        judged += 1;
        let line = case["line"].as_u64().expect("a line");
        let doubt = doubt.expect(name);
        assert_eq!(doubt.kind, kind, "{name}: {}", doubt.why);
        assert!(
            doubt.why.contains(&format!("line {line} (`")),
            "{name}: {}",
            doubt.why
        );
        assert!(
            doubt.why.contains(&format!("(SyntaxError: {said})")),
            "{name}: {}",
            doubt.why
        );
    }
    assert_eq!(judged, 62);
}

/// A tester's find (round 42a, 01): an exact edit leaving a Python file
/// with a `)` or a closing quote dropped, or a function's `return` moved
/// to the module's level, was written. `check` exits 1 naming the line
/// and CPython's words, `apply --write` holds it back and leaves the file
/// as it was; the same edits kept whole are written.
#[test]
fn a_python_edit_python_refuses_is_held_back() {
    let file = "class Cart:\n    def add(self, sku, qty):\n        if qty <= 0:\n            \
                raise ValueError(\"qty must be positive\")\n        \
                self.lines.append((sku, qty))\n\n\ndef f(a):\n    x = a + 1\n    return x\n";
    let cases = [
        (
            "        self.lines.append((sku, qty))\n",
            "        self.lines.append((sku, qty)\n",
            "held back: the diff leaves cart.py with its brackets unbalanced: as the edit leaves \
             it, Python refuses the file: line 5 (`self.lines.append((sku, qty)`) opens `(` and \
             nothing closes it (SyntaxError: '(' was never closed)",
        ),
        (
            "            raise ValueError(\"qty must be positive\")\n",
            "            raise ValueError(\"qty must be positive)\n",
            "held back: the diff leaves cart.py with a quote left open: as the edit leaves it, \
             Python refuses the file: line 4 (`raise ValueError(\"qty must be positive)`) opens \
             a string it does not close (SyntaxError: unterminated string literal (detected at \
             line 4))",
        ),
        (
            "    return x\n",
            "return x\n",
            "held back: the diff leaves cart.py with a statement outside the block it needs: as \
             the edit leaves it, Python refuses the file: line 10 (`return x`) has `return` \
             outside any function (SyntaxError: 'return' outside function)",
        ),
    ];
    for (old, new, said) in cases {
        let ran = check_then_apply(("cart.py", file), ("edit.diff", &block(old, new)));
        assert_held_back("cart.py", &ran, said, file);
    }
    for (old, new) in [
        (
            "        self.lines.append((sku, qty))\n",
            "        self.lines.append(\n            (sku, qty, \"(\")\n        )\n",
        ),
        (
            "    return x\n",
            "    if x:\n        return x\n    return 0\n",
        ),
    ] {
        let ran = check_then_apply(("cart.py", file), ("edit.diff", &block(old, new)));
        assert_written(&ran, &file.replacen(old, new, 1));
    }
}

/// Testers' finds (round 42a, 07 and 09): a new text dropping its old
/// text's final newline (`B = 20C = 3`, `var A = 10var B = 2`, `- TWO-
/// three`), and an empty new text deleting a trailing comment, whose
/// newline Claude Code's and Qwen Code's rule deletes too (`x = compute()
/// y = 2`), were written. `check` exits 1 naming the joined line, `apply
/// --write` leaves the file, for Claude Code's edit and Qwen Code's
/// (`--dialect qwen-edit`); Gemini CLI's keeps the newline and is written,
/// as are the edit with its newline and a join the new text shows meant.
#[test]
fn an_edit_joining_two_lines_is_held_back() {
    let cases = [
        (
            "c.py",
            "A = 1\nB = 2\nC = 3\n",
            r#"{"file_path": "c.py", "old_string": "B = 2\n", "new_string": "B = 20"}"#,
            "so line 3 (`C = 3`) is joined onto the new text's last line, which then reads \
             `B = 20C = 3`: end the new text with a newline",
        ),
        (
            "c.go",
            "package x\n\nvar A = 1\nvar B = 2\n",
            r#"{"file_path": "c.go", "old_string": "var A = 1\n", "new_string": "var A = 10"}"#,
            "which then reads `var A = 10var B = 2`",
        ),
        (
            "c.md",
            "- one\n- two\n- three\n",
            r#"{"file_path": "c.md", "old_string": "- two\n", "new_string": "- TWO"}"#,
            "which then reads `- TWO- three`",
        ),
        (
            "q.py",
            "def run():\n    x = compute()  # TODO remove\n    y = 2\n    return x + y\n",
            r#"{"file_path": "q.py", "old_string": "  # TODO remove", "new_string": ""}"#,
            "deleting `  # TODO remove` with an empty new text also deletes the line end after \
             it (the agent's rule for an empty new text), so line 3 (`    y = 2`) is joined \
             onto line 2, which then reads `    x = compute()    y = 2`",
        ),
    ];
    for (name, content, edit, said) in cases {
        let ran = check_then_apply((name, content), ("edit.json", edit));
        assert_held_back(name, &ran, said, content);
    }
    // Qwen Code's rule, and Gemini CLI's edit, which keeps the newline.
    let run = cases[3].1;
    for (dialect, held) in [("qwen-edit", true), ("gemini-replace", false)] {
        // Qwen Code takes an absolute path only.
        let (_dir, path, edit) = file_and_edit(("q.py", run), ("edit.json", ""));
        let input = serde_json::json!({"file_path": path, "instruction": "x",
            "old_string": "  # TODO remove", "new_string": ""});
        std::fs::write(&edit, input.to_string()).expect("write the edit");
        let check = support::runner::srview(["check", &path, &edit, "--dialect", dialect]).output();
        let stdout = String::from_utf8_lossy(&check.stdout);
        assert_eq!(
            check.status.code(),
            Some(i32::from(held)),
            "{dialect}: {stdout}"
        );
        assert_eq!(
            stdout.contains("joined onto line 2"),
            held,
            "{dialect}: {stdout}"
        );
        let apply = support::runner::srview([
            "apply",
            &path,
            &edit,
            "--dialect",
            dialect,
            "--write",
            "--allow-outside",
        ])
        .output();
        assert_eq!(
            apply.status.code(),
            Some(i32::from(held)),
            "{dialect}: {}",
            String::from_utf8_lossy(&apply.stderr)
        );
        let written = std::fs::read_to_string(&path).expect("read");
        let want = if held {
            run.to_string()
        } else {
            run.replace("  # TODO remove", "")
        };
        assert_eq!(written, want, "{dialect}");
    }
    for (name, content, edit, want) in [
        (
            "c.py",
            "A = 1\nB = 2\nC = 3\n",
            r#"{"file_path": "c.py", "old_string": "B = 2\n", "new_string": "B = 20\n"}"#,
            "A = 1\nB = 20\nC = 3\n",
        ),
        (
            "q.py",
            run,
            r#"{"file_path": "q.py", "old_string": "  # TODO remove\n", "new_string": "\n"}"#,
            "def run():\n    x = compute()\n    y = 2\n    return x + y\n",
        ),
        (
            "f.py",
            "total = f(a,\n          b)\n",
            r#"{"file_path": "f.py", "old_string": "total = f(a,\n", "new_string": "total = f(a,"}"#,
            "total = f(a,          b)\n",
        ),
    ] {
        let ran = check_then_apply((name, content), ("edit.json", edit));
        assert_written(&ran, want);
    }
}

/// Python's verdict on each recorded line-joining edit
/// (tests/fixtures/trust/joins/cases.json, written by record.py there with
/// `compile()` and `tokenize`): srview's port of Claude Code's `Edit`
/// writes the recorded result (an empty new text taking the newline after
/// its old text), and the joins-lines doubt speaks exactly where the join
/// changes or breaks the code (`same_code` false), never for a join
/// Python reads as the same code or an edit keeping its newline.
#[test]
fn line_joins_agree_with_python() {
    use srview::dialect::edit::{Edit, EditDoubtKind, apply, edit_doubt_kinds};
    let cases = balanced_cases("joins", 16, |c| c["same_code"] == true);
    for case in &cases {
        let (name, before, after) = case_texts(case);
        let input = serde_json::json!({"file_path": case["path"], "old_string": case["old"],
            "new_string": case["new"]});
        let edit = Edit::from_tool_input("Edit", &input.to_string()).expect(name);
        let outcome = apply(&edit, Some(before));
        let written = outcome
            .result
            .as_ref()
            .map(|done| done.new_content.as_str());
        assert_eq!(written, Ok(after), "{name}");
        let joins = edit_doubt_kinds(&outcome, before)
            .iter()
            .any(|(kind, _)| *kind == EditDoubtKind::JoinsLines);
        let same = case["same_code"].as_bool().expect("a verdict");
        assert_eq!(joins, !same, "{name}");
    }
}

/// A tester's find (round 42a, 19): an edit dropping a Markdown code
/// block's closing fence, so the rest of the README renders as code, was
/// written. `check` exits 1 naming the fence's line, `apply --write` holds
/// it back; the same edit keeping its fence is written.
#[test]
fn a_markdown_code_fence_left_open_is_held_back() {
    let readme = "# Cart\n\n## Usage\n\n```python\ncart = Cart()\nprint(cart.total())\n```\n\n## Options\n\n- `--fast`: skip checks\n";
    let dropped = block(
        "print(cart.total())\n```\n",
        "print(cart.total())\nprint(cart.subtotal())\n",
    );
    assert_checked_and_held_back(
        "README.md",
        readme,
        &dropped,
        "held back: the diff leaves README.md with a code block left open: as written, the \
         Markdown file's code fences were all closed before, and the ``` fence at line 5 opens \
         a code block nothing closes: everything after it (lines 6-12) renders as code: keep \
         the closing ``` line in the new text, or add one after the block's last line",
    );
    let kept = block(
        "print(cart.total())\n```\n",
        "print(cart.total())\nprint(cart.subtotal())\n```\n",
    );
    let written = written_by_apply("README.md", readme, &kept, "README.md");
    assert!(
        written.contains("print(cart.subtotal())\n```\n"),
        "{written}"
    );
}

/// A tester's find (round 42a, 20): an import the file already has, added
/// again to a Go import block, a Rust module and a TypeScript module, was
/// written; none compiles. `check` exits 1 naming both lines, `apply
/// --write` holds it back; a new import is written.
#[test]
fn an_import_added_again_is_held_back() {
    let go = "package shop\n\nimport (\n\t\"fmt\"\n\t\"strings\"\n)\n\nfunc Name(s string) string {\n\treturn fmt.Sprint(strings.ToUpper(s))\n}\n";
    let rs = "use std::fmt;\n\npub struct Cart;\n\nimpl fmt::Display for Cart {\n    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {\n        write!(f, \"cart\")\n    }\n}\n";
    let ts = "import { readFileSync } from \"node:fs\";\nimport path from \"node:path\";\n\nexport function load(p: string): string {\n  return readFileSync(path.join(\".\", p), \"utf8\");\n}\n";
    let cases = [
        (
            "shop.go",
            go,
            block("\t\"strings\"\n", "\t\"strings\"\n\t\"fmt\"\n"),
            "held back: the diff leaves shop.go defining a name twice: as written, the file \
             imports `fmt` (\"fmt\") at lines 4 and 6: Go refuses to compile the package (fmt \
             redeclared in this block): leave the import block as it is, the package is imported \
             already",
        ),
        (
            "lib.rs",
            rs,
            block("use std::fmt;\n", "use std::fmt;\nuse std::fmt;\n"),
            "held back: the diff leaves lib.rs defining a name twice: as written, the file \
             imports `fmt` (std::fmt) at lines 1 and 2: Rust refuses to compile it (E0252: the \
             name `fmt` is defined multiple times): leave the new import out, the name is \
             imported already",
        ),
        (
            "load.ts",
            ts,
            block(
                "import path from \"node:path\";\n",
                "import path from \"node:path\";\nimport { readFileSync } from \"node:fs\";\n",
            ),
            "held back: the diff leaves load.ts defining a name twice: as written, the file \
             imports `readFileSync` (from \"node:fs\") at lines 1 and 3: an ES module does not \
             load (SyntaxError: Identifier 'readFileSync' has already been declared), and \
             TypeScript refuses it (Duplicate identifier 'readFileSync'): leave the new import \
             out, the name is imported already",
        ),
    ];
    for (name, content, diff, said) in &cases {
        assert_checked_and_held_back(name, content, diff, said);
    }
    let new = block("\t\"strings\"\n", "\t\"strings\"\n\t\"os\"\n");
    let written = written_by_apply("shop.go", go, &new, "shop.go");
    assert!(written.contains("\t\"os\"\n"), "{written}");
}

/// node's and rustc's verdicts on recorded import edits
/// (tests/fixtures/trust/imports/cases.json, written by record.py there):
/// srview doubts exactly the edits the tool refuses for a name imported
/// twice, naming that name, and nothing the tool reads.
#[test]
fn import_verdicts_agree_with_node_and_rustc() {
    use srview::diagnose::layout::{BreakKind, layout_break};
    let cases = balanced_cases("imports", 25, |c| c["verdict"] == "reads");
    for case in &cases {
        let (name, before, after) = case_texts(case);
        let path = case["path"].as_str().expect("a path");
        let said = case["verdict"].as_str().expect("a verdict");
        let doubt = layout_break(path, before, after);
        let twice = said
            .strip_prefix("SyntaxError: Identifier '")
            .and_then(|r| r.split_once("' has already been declared"))
            .or_else(|| {
                said.strip_prefix("error[E0252]: the name `")
                    .and_then(|r| r.split_once("` is defined multiple times"))
            });
        match twice {
            // One srview knowingly says nothing of (the recorder says why).
            Some(_) if case.get("srview_silent").is_some() => {
                assert_eq!(doubt, None, "{name}");
            }
            Some((imported, _)) => {
                let doubt = doubt.expect(name);
                assert_eq!(doubt.kind, BreakKind::DefinesTwice, "{name}");
                let named = format!("as written, the file imports `{imported}` (");
                let two = format!("as written, the file binds `{imported}` twice: ");
                assert!(
                    doubt.why.starts_with(&named) || doubt.why.starts_with(&two),
                    "{name}: {}",
                    doubt.why
                );
            }
            None => {
                assert_eq!(said, "reads", "{name}");
                assert_eq!(doubt, None, "{name}");
            }
        }
    }
}

/// Every file under `SWEEP_DIRS` (colon-separated; default the cargo
/// registry's sources) whose name ends in one of `extensions`, sorted:
/// the files the ignored sweeps below read. A folder that cannot be read
/// is passed over.
fn sweep_files(extensions: &[&str]) -> Vec<std::path::PathBuf> {
    let home = std::env::var("HOME").unwrap_or_default();
    let dirs =
        std::env::var("SWEEP_DIRS").unwrap_or_else(|_| format!("{home}/.cargo/registry/src"));
    let mut files = Vec::new();
    let mut stack: Vec<std::path::PathBuf> = dirs.split(':').map(Into::into).collect();
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path
                .extension()
                .and_then(|e| e.to_str())
                .is_some_and(|ext| extensions.contains(&ext))
            {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// The false-alarm sweep of the fence and import checks: every Markdown,
/// Rust, Go, JavaScript and TypeScript file under `SWEEP_DIRS` (colon-
/// separated; default the cargo registry's sources), read as a file the
/// edit creates (every import or fence in it on a changed line), then
/// given ordinary edits: a line of prose or a comment added, a line
/// deleted, a new import or a closed code block added, outside code
/// blocks. Prints the counts and each doubt. Run with `cargo test --test
/// diagnose_trust -- --ignored fence_and_import_sweep --nocapture`.
#[test]
#[ignore]
fn fence_and_import_sweep() {
    use srview::diagnose::doubt_fence::fence_left_open;
    use srview::diagnose::doubt_imports::import_twice;
    let files = sweep_files(&["md", "markdown", "rs", "go", "js", "mjs", "ts", "tsx"]);
    let mut seed = 42u64;
    let mut next = |n: usize| {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((seed >> 33) as usize) % n.max(1)
    };
    let (mut read, mut whole, mut edits, mut doubts) = (0, 0, 0, 0);
    let (mut tried, mut caught) = (0, 0);
    for file in &files {
        let Ok(text) = std::fs::read_to_string(file) else {
            continue;
        };
        let path = file.to_string_lossy().to_string();
        let md = path.ends_with(".md") || path.ends_with(".markdown");
        read += 1;
        let judge = |before: &str, after: &str| -> Option<String> {
            if md {
                fence_left_open(&path, before, after).map(|f| f.fault())
            } else {
                import_twice(&path, before, after).map(|t| t.fault())
            }
        };
        if let Some(why) = judge("", &text) {
            whole += 1;
            println!("WHOLE {path}: {why}");
            continue;
        }
        let lines: Vec<&str> = text.lines().collect();
        if lines.is_empty() {
            continue;
        }
        let fence = |l: &str| {
            let t = l.trim_start();
            t.starts_with("```") || t.starts_with("~~~")
        };
        // Damage, to see the checks see it: the first closing fence
        // dropped, the first one-line top-level import doubled.
        let damaged = lines.iter().enumerate().find_map(|(i, l)| {
            let mut new: Vec<&str> = lines.clone();
            if md {
                let t = l.trim_start();
                let closer = (t.starts_with("```") || t.starts_with("~~~"))
                    && fence_left_open(&path, "", &lines[..i].join("\n")).is_some();
                closer.then(|| {
                    new.remove(i);
                    new.join("\n") + "\n"
                })
            } else {
                let one = (l.starts_with("use ") || l.starts_with("import "))
                    && l.trim_end().ends_with(';')
                    || (l.starts_with("import \"") && path.ends_with(".go"));
                one.then(|| {
                    new.insert(i, l);
                    new.join("\n") + "\n"
                })
            }
        });
        if let Some(after) = damaged {
            tried += 1;
            if judge(&text, &after).is_some() {
                caught += 1;
            } else {
                println!("MISSED {path}");
            }
        }
        for round in 0..4 {
            let at = next(lines.len());
            let mut new: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
            match round {
                0 => new.insert(
                    at,
                    if md {
                        "A new sentence.".into()
                    } else {
                        "// a note".into()
                    },
                ),
                1 if !fence(lines[at]) => {
                    new.remove(at);
                }
                2 if md
                    && lines[at].trim().is_empty()
                    && fence_left_open(&path, "", &lines[..at].join("\n")).is_none() =>
                {
                    new.insert(at, "```sh\ncargo build\n```".into());
                }
                2 if !md => {
                    let import = match path.rsplit('.').next() {
                        Some("rs") => "use sweep_crate::SweepName;",
                        Some("go") => "import \"sweep/name\"",
                        _ => "import { sweepName } from \"sweep\";",
                    };
                    let first = lines
                        .iter()
                        .position(|l| l.starts_with("use ") || l.starts_with("import "));
                    new.insert(first.unwrap_or(0), import.into());
                }
                3 => new[at] = format!("{} ", new[at]),
                _ => continue,
            }
            let after = new.join("\n") + "\n";
            edits += 1;
            if let Some(why) = judge(&text, &after) {
                doubts += 1;
                println!("EDIT {round} {path}:{}: {why}", at + 1);
            }
        }
    }
    println!(
        "sweep: {read} files read, {whole} doubted whole, {edits} ordinary edits, {doubts} doubted"
    );
    println!(
        "damage: {tried} edits (a closing fence dropped, a one-line import doubled), {caught} doubted"
    );
}

/// Testers' finds (round 42a, 13; 42b, 03, 05, 10): ordinary, correct
/// edits that were held back are written, and the doubts each check is
/// for still hold the edit back: a README's code example shortened to `//
/// ...` (the same cut in Rust source still stands in); a block deleted
/// with a note saying it was removed (a comment saying nothing of a
/// removal still stands in); a replace-all version bump reaching `v0.4.35`
/// and a prefix rename `self.btn_` (a version inside `10.4.35` is still a
/// cut word, said without asking for whole lines); a Compose `volumes:`
/// block moved to the top level by re-indenting it alone (moved beside a
/// changed value it is still a move).
#[test]
fn ordinary_edits_of_the_42_false_alarms_are_written() {
    let readme = "# log\n\n```rust\nuse log::{info, trace};\n\nfn main() {\n    trace!(\"Commencing yak shaving\");\n\n    loop {\n        let yak = find_a_yak();\n        shave(yak);\n        info!(\"Shaved a yak\");\n    }\n}\n```\n\n### In executables\n";
    let cut = "------- SEARCH\n    trace!(\"Commencing yak shaving\");\n\n    loop {\n        let yak = find_a_yak();\n        shave(yak);\n        info!(\"Shaved a yak\");\n    }\n}\n```\n=======\n    trace!(\"Commencing yak shaving\");\n    // ...\n}\n```\n+++++++ REPLACE\n";
    let shortened = readme.replace(
        "\n\n    loop {\n        let yak = find_a_yak();\n        shave(yak);\n        info!(\"Shaved a yak\");\n    }\n}",
        "\n    // ...\n}",
    );
    let ran = check_then_apply(("README.md", readme), ("edit.diff", cut));
    assert_written(&ran, &shortened);
    let ran = check_then_apply(("main.rs", readme), ("edit.diff", cut));
    assert_held_back(
        "main.rs",
        &ran,
        "block #1's REPLACE text stands in for lines it leaves out (its line 2: `// ...`)",
        readme,
    );

    let app = "export function route(path: string): string {\n  if (path === \"/\") {\n    return \"home\";\n  }\n  if (path === \"/legacy\") {\n    console.warn(\"legacy route\");\n    return \"legacy\";\n  }\n  return \"404\";\n}\n";
    let block = "  if (path === \\\"/legacy\\\") {\\n    console.warn(\\\"legacy route\\\");\\n    return \\\"legacy\\\";\\n  }\\n";
    let note = "// The /legacy route was removed in v2 (see CHANGELOG).";
    let removed = format!(
        r#"{{"file_path": "app.ts", "old_string": "{block}", "new_string": "  {note}\n"}}"#
    );
    let ran = check_then_apply(("app.ts", app), ("edit.json", &removed));
    let without = app.replace(
        "  if (path === \"/legacy\") {\n    console.warn(\"legacy route\");\n    return \"legacy\";\n  }\n",
        &format!("  {note}\n"),
    );
    assert_written(&ran, &without);
    let elided = format!(
        r#"{{"file_path": "app.ts", "old_string": "{block}", "new_string": "  // legacy route handling\n"}}"#
    );
    let ran = check_then_apply(("app.ts", app), ("edit.json", &elided));
    assert_held_back(
        "app.ts",
        &ran,
        "its new text stands in for lines it leaves out (its line 1: `// legacy route handling`)",
        app,
    );

    let install = "# Installing mytool\n\n    cargo install mytool --version 0.4.35\n\n    curl -LO https://example.com/download/v0.4.35/mytool-v0.4.35-x86_64.tar.gz\n";
    let bump = r#"{"file_path": "INSTALL.md", "old_string": "0.4.35", "new_string": "0.4.36", "replace_all": true}"#;
    let ran = check_then_apply(("INSTALL.md", install), ("edit.json", bump));
    assert_written(&ran, &install.replace("0.4.35", "0.4.36"));
    let dialog = "class Dialog:\n    def __init__(self):\n        self.btn_ok = Button()\n        self.btn_cancel = Button()\n        self.btn_ok.pack()\n";
    let rename = r#"{"file_path": "dialog.py", "old_string": "self.btn_", "new_string": "self.button_", "replace_all": true}"#;
    let ran = check_then_apply(("dialog.py", dialog), ("edit.json", rename));
    assert_written(&ran, &dialog.replace("self.btn_", "self.button_"));
    let pins = "pin 0.4.35\npin 10.4.35\n";
    let bump_pins = bump.replace("INSTALL.md", "pins.txt");
    let ran = check_then_apply(("pins.txt", pins), ("edit.json", &bump_pins));
    assert_held_back(
        "pins.txt",
        &ran,
        "the edit's old text `0.4.35` starts inside the word `10` of line 2 (`pin 10.4.35`): it \
         changes part of a word it does not show: a replace-all changes every such word (`10.4.35` becomes `10.4.36`): \
         to change whole words only, send one edit per place meant",
        pins,
    );

    let compose = "services:\n  db:\n    image: postgres:16\n  web:\n    image: nginx:1.27\n    volumes:\n      db-data:\n";
    let up = "------- SEARCH\n    volumes:\n      db-data:\n=======\n\nvolumes:\n  db-data:\n+++++++ REPLACE\n";
    let ran = check_then_apply(("docker-compose.yml", compose), ("edit.diff", up));
    assert_written(
        &ran,
        &compose.replace("    volumes:\n      db-data:\n", "\nvolumes:\n  db-data:\n"),
    );
    let changed = "------- SEARCH\n    volumes:\n      db-data:\n=======\nvolumes:\n  db-data:\n    driver: local\n+++++++ REPLACE\n";
    let ran = check_then_apply(("docker-compose.yml", compose), ("edit.diff", changed));
    assert_held_back(
        "docker-compose.yml",
        &ran,
        "moves the key `volumes` from under `services.web` to the top level",
        compose,
    );
}

/// PyYAML's verdict on each recorded YAML edit that only re-indents its
/// lines, all alike (tests/fixtures/trust/yaml_moves/cases.json, written
/// by record.py there; a tester's find, 42b-10): srview doubts it exactly
/// where PyYAML refuses the result or reads a value outside the moved
/// block at another place; the Compose case through `check` and `apply
/// --write` is in `ordinary_edits_of_the_42_false_alarms_are_written`.
#[test]
fn yaml_moves_by_reindenting_agree_with_pyyaml() {
    use srview::diagnose::layout::layout_break;
    let cases = balanced_cases("yaml_moves", 10, |c| {
        c["pyyaml_loads"] == true && c["others_kept"] == true
    });
    for case in &cases {
        let (name, before, after) = case_texts(case);
        let meant = case["pyyaml_loads"] == true && case["others_kept"] == true;
        let doubt = layout_break("compose.yaml", before, after);
        assert_eq!(doubt.is_none(), meant, "{name}: {doubt:?}");
    }
}

/// Testers' finds on line endings (rounds 42c, 11 and 13; 42a, 04), through
/// `check` and `apply --write`, in the gate's words
/// (tests/gate/judgment.rs):
/// - a Claude Code `Write` of LF content over a CRLF file was held back
///   as "the result mixes line endings" (it has one): it turns the whole
///   file from CRLF to LF, said so; the same content in CRLF, or a
///   content unifying one stray CRLF line of an LF file, is written;
/// - an `Edit` of a mixed file says the line Claude Code's write changes
///   and to tell the user; OpenCode, which keeps every line's ending, is
///   written;
/// - an `Edit` sent in CRLF to a CRLF file fails, told that Claude Code
///   reads the file with LF line endings, without sent and file lines
///   that read alike.
#[test]
fn line_endings_are_judged_on_what_each_agent_writes() {
    let crlf = "import os\r\n\r\ndef main():\r\n    x = 1\r\n    return x\r\n";
    let lf = crlf.replace("\r\n", "\n");
    let write =
        |content: &str| serde_json::json!({"file_path": "crlf.py", "content": content}).to_string();
    let ran = check_then_apply(
        ("crlf.py", crlf),
        ("edit.json", &write(&lf.replace('1', "2"))),
    );
    assert_held_back(
        "crlf.py",
        &ran,
        "crlf.py's lines end in CRLF: Claude Code writes the content as sent, so the write turns the whole file from CRLF to LF line \
         endings (all 5 lines differ in a diff): to keep CRLF, send the lines that change as \
         Edit calls (Claude Code's Edit writes a CRLF file back in CRLF); if the file should \
         become LF, tell the user",
        crlf,
    );
    assert!(
        !String::from_utf8_lossy(&ran.0.stdout).contains("mixes"),
        "{}",
        String::from_utf8_lossy(&ran.0.stdout)
    );
    assert_contains(
        &String::from_utf8_lossy(&ran.1.stderr),
        "was not written: its content ends every line with LF",
    );
    let same = crlf.replace('1', "2");
    let ran = check_then_apply(("crlf.py", crlf), ("edit.json", &write(&same)));
    assert_written(&ran, &same);
    let stray = lf.replacen('\n', "\r\n", 1);
    let ran = check_then_apply(("crlf.py", &stray), ("edit.json", &write(&lf)));
    assert_written(&ran, &lf);

    let mixed = "A = 1\nB = 2\r\nC = 3\nD = 4\n";
    let edit = r#"{"file_path": "m.py", "old_string": "D = 4\n", "new_string": "D = 5\n"}"#;
    let ran = check_then_apply(("m.py", mixed), ("edit.json", edit));
    assert_held_back(
        "m.py",
        &ran,
        "the file mixes CRLF and LF line endings, and Claude Code's Edit writes every line \
         with LF, whatever the edit's text: 1 line outside the edit (line 2) changes its ending \
         to LF: tell the user, who can unify the file's line endings first",
        mixed,
    );
    // OpenCode's path is the file's own (it resolves a relative one
    // against the folder it runs in).
    let (dir, path, edit) = file_and_edit(("m.py", mixed), ("edit.json", ""));
    let opencode =
        serde_json::json!({"filePath": path, "oldString": "D = 4", "newString": "D = 5"});
    std::fs::write(&edit, opencode.to_string()).expect("write the edit");
    let check = support::runner::srview(["check", &path, &edit]).output();
    assert_eq!(check.status.code(), Some(0), "{check:?}");
    let apply = support::runner::srview(["apply", &path, &edit, "--write"])
        .cwd(dir.path())
        .output();
    assert_eq!(apply.status.code(), Some(0), "{apply:?}");
    let written = std::fs::read_to_string(&path).expect("read");
    assert_eq!(written, "A = 1\nB = 2\r\nC = 3\nD = 5\n");

    let sent = r#"{"file_path": "crlf.py", "old_string": "    x = 1\r\n    return x\r\n", "new_string": "    x = 2\r\n    return x\r\n"}"#;
    let ran = check_then_apply(("crlf.py", crlf), ("edit.json", sent));
    let said = String::from_utf8_lossy(&ran.0.stdout).into_owned();
    assert_held_back(
        "crlf.py",
        &ran,
        "old_string does not occur in the file as Claude Code reads it: Claude Code reads this \
         CRLF file with LF line endings (and writes it back in CRLF), so an old_string whose \
         lines end in CRLF (\\r\\n) never matches; its text is the file's at lines 4-5: send \
         old_string and new_string with LF (\\n) line endings.",
        crlf,
    );
    assert!(
        !said.contains("CRLF against LF") && !said.contains("delete "),
        "{said}"
    );
}

/// Tester 42c, 04: a Rust `use` or a Go import binding a name the file
/// imports from another path (`std::io::Write` beside `std::fmt::Write`,
/// `"crypto/rand"` beside `"math/rand"`) was written; rustc (E0252) and
/// Go refuse it. `check` exits 1 naming the name, both paths and lines,
/// `apply --write` holds it back; the import renamed is written.
#[test]
fn an_import_of_a_bound_name_from_another_path_is_held_back() {
    let rs = "use std::fmt::Write;\n\npub fn f() -> String {\n    let mut s = String::new();\n    write!(s, \"x\").ok();\n    s\n}\n";
    let go = "package main\n\nimport (\n\t\"fmt\"\n\t\"math/rand\"\n)\n\nfunc main() {\n\tfmt.Println(rand.Intn(10))\n}\n";
    let cases = [
        (
            "w.rs",
            rs,
            (
                "use std::fmt::Write;\n",
                "use std::fmt::Write;\nuse std::io::Write;\n",
            ),
            "use std::io::Write as IoWrite;\n",
            "held back: the diff leaves w.rs defining a name twice: as written, the file binds \
             `Write` twice: `std::fmt::Write` at line 1, `std::io::Write` at line 2: Rust \
             refuses to compile it (E0252: the name `Write` is defined multiple times): import \
             one of them under another name (`use std::io::Write as IoWrite;`, or `as _` where \
             only a trait's methods are used)",
        ),
        (
            "main.go",
            go,
            ("\t\"math/rand\"\n", "\t\"math/rand\"\n\t\"crypto/rand\"\n"),
            "\tcrand \"crypto/rand\"\n",
            "held back: the diff leaves main.go defining a name twice: as written, the file \
             binds `rand` twice: \"math/rand\" at line 5, \"crypto/rand\" at line 6: Go refuses \
             to compile the package (rand redeclared in this block): import one of them under \
             another name (`crand \"crypto/rand\"`)",
        ),
    ];
    for (name, content, (old, new), renamed, said) in cases {
        assert_checked_and_held_back(name, content, &block(old, new), said);
        let fine = block(old, &format!("{old}{renamed}"));
        let written = written_by_apply(name, content, &fine, name);
        assert_eq!(
            written,
            content.replacen(old, &format!("{old}{renamed}"), 1)
        );
    }
}

/// Tester 42c, 06: a docstring's usage example brought up to date, sent
/// at the docstring's own indentation (8 columns, the code at 4), was
/// held back as changing "the string, not the code". It is written; the
/// same lines sent without their indentation, which may mean the code,
/// stay held back.
#[test]
fn a_docstring_example_edited_at_its_own_indentation_is_written() {
    let conn = "from .client import Client\n\n\ndef connect(timeout=5):\n    \"\"\"Open a connection.\n\n    Example::\n\n        client = Client()\n        client.connect()\n    \"\"\"\n    client = Client()\n    client.connect(timeout=timeout)\n    return client\n";
    let example = r#"{"file_path": "conn.py", "old_string": "        client = Client()\n        client.connect()\n", "new_string": "        client = Client()\n        client.connect(timeout=10)\n"}"#;
    let ran = check_then_apply(("conn.py", conn), ("edit.json", example));
    assert_written(
        &ran,
        &conn.replace("client.connect()\n", "client.connect(timeout=10)\n"),
    );
    let bare = r#"{"file_path": "conn.py", "old_string": "client = Client()\n        client.connect()\n", "new_string": "client = Client()\n        client.connect(timeout=10)\n"}"#;
    let ran = check_then_apply(("conn.py", conn), ("edit.json", bare));
    assert_held_back(
        "conn.py",
        &ran,
        "the edit's old text matches only inside the triple-quoted string on line 9 (`client = \
         Client()`), while line 12 holds code that starts the same way (`client = Client()`)",
        conn,
    );
}

/// The false-alarm sweep of the import check's names from two paths
/// (tester 42c, 04): every Rust and Go file under `SWEEP_DIRS` (colon-
/// separated; default the cargo registry's sources). Each top-level
/// one-line `use` or Go import line is taken out and added back by an
/// edit (the published file compiles: a doubt is a false alarm); then,
/// where a `use` binds a name the standard library has at another path
/// (`Write`, `Result`, `Error`, `HashMap`, `Ordering`, `fmt`, ...), a
/// `use` of that other path is added after it (a certain E0252: each one
/// not doubted is a miss). Prints the counts and each doubt or miss. Run
/// with `cargo test --test diagnose_trust -- --ignored import_name_sweep
/// --nocapture`.
#[test]
#[ignore]
fn import_name_sweep() {
    use srview::diagnose::doubt_imports::import_twice;
    let others: &[(&str, &[&str])] = &[
        ("Write", &["std::fmt::Write", "std::io::Write"]),
        ("Result", &["std::fmt::Result", "std::io::Result"]),
        (
            "Error",
            &["std::fmt::Error", "std::io::Error", "std::error::Error"],
        ),
        (
            "HashMap",
            &[
                "std::collections::HashMap",
                "std::collections::hash_map::HashMap",
            ],
        ),
        (
            "HashSet",
            &[
                "std::collections::HashSet",
                "std::collections::hash_set::HashSet",
            ],
        ),
        (
            "Ordering",
            &["std::cmp::Ordering", "std::sync::atomic::Ordering"],
        ),
        (
            "Entry",
            &[
                "std::collections::hash_map::Entry",
                "std::collections::btree_map::Entry",
            ],
        ),
        ("Mutex", &["std::sync::Mutex", "core::sync::Mutex"]),
        ("Duration", &["std::time::Duration", "core::time::Duration"]),
        ("fmt", &["std::fmt", "core::fmt"]),
        ("mem", &["std::mem", "core::mem"]),
        ("ptr", &["std::ptr", "core::ptr"]),
        ("swap", &["std::mem::swap", "std::ptr::swap"]),
    ];
    let files = sweep_files(&["rs", "go"]);
    let (mut read, mut edits, mut alarms, mut tried, mut caught) = (0, 0, 0, 0, 0);
    for file in &files {
        let Ok(text) = std::fs::read_to_string(file) else {
            continue;
        };
        let path = file.to_string_lossy().to_string();
        let go = path.ends_with(".go");
        read += 1;
        let lines: Vec<&str> = text.lines().collect();
        let mut in_go_block = false;
        for (i, l) in lines.iter().enumerate() {
            let one = if go {
                if l.starts_with("import (") {
                    in_go_block = true;
                }
                if l.starts_with(')') {
                    in_go_block = false;
                }
                (in_go_block && l.starts_with('\t') && l.trim_end().ends_with('"'))
                    || l.starts_with("import \"")
            } else {
                (l.starts_with("use ") || l.starts_with("pub use "))
                    && l.trim_end().ends_with(';')
                    && !lines[..i].last().is_some_and(|p| p.starts_with("#["))
            };
            if !one {
                continue;
            }
            edits += 1;
            let mut without = lines.clone();
            without.remove(i);
            let before = without.join("\n") + "\n";
            if let Some(t) = import_twice(&path, &before, &text) {
                alarms += 1;
                println!("ALARM {path}:{}: {}", i + 1, t.fault());
            }
            if go {
                continue;
            }
            let item = l.trim_end().trim_end_matches(';');
            let item = item.trim_start_matches("pub ").trim_start_matches("use ");
            if item.contains(['{', '*', ' ']) {
                continue;
            }
            let item = item.trim_start_matches("::");
            let name = item.rsplit("::").next().unwrap_or(item);
            let Some((_, paths)) = others.iter().find(|(n, _)| *n == name) else {
                continue;
            };
            let Some(other) = paths.iter().find(|p| **p != item) else {
                continue;
            };
            tried += 1;
            let mut with = lines.clone();
            let added = format!("use {other};");
            with.insert(i + 1, &added);
            let after = with.join("\n") + "\n";
            if import_twice(&path, &text, &after).is_some() {
                caught += 1;
            } else {
                println!("MISSED {path}:{}: {item} then {other}", i + 1);
            }
        }
    }
    println!(
        "{read} files; {edits} import lines added back, {alarms} doubted; {tried} clashes \
         added, {caught} doubted"
    );
}

/// CommonMark's verdict (markdown-it-py) on each recorded Markdown fence
/// edit (tests/fixtures/trust/fences/cases.json, written by record.py
/// there; a tester's find, 42c-03: a list item's fence left open was
/// blamed on an untouched fence below): in a file holding no fence inside
/// a list item, srview's fence check speaks exactly where the edit leaves
/// a fence open over the text after it; a fence inside a list item it does
/// not read (CommonMark closes that fence with its item): there it speaks
/// only where the edit does swallow text, and does of a top-level fence.
#[test]
fn markdown_fences_agree_with_commonmark() {
    use srview::diagnose::doubt_fence::fence_left_open;
    let cases = balanced_cases("fences", 12, |c| c["swallows"] == false);
    for case in &cases {
        let (name, before, after) = case_texts(case);
        let doubt = fence_left_open("doc.md", before, after);
        let swallows = case["swallows"].as_bool().expect("a verdict");
        if case["list_fence"] == true {
            assert!(doubt.is_none() || swallows, "{name}: {doubt:?}");
            if name.starts_with("a top-level") {
                assert!(doubt.is_some(), "{name}");
            }
        } else {
            assert_eq!(doubt.is_some(), swallows, "{name}: {doubt:?}");
        }
    }
}

/// Testers' finds (42c-02, 42c-08): a join the new text's line end was
/// read as meaning passed: a Markdown table row's closing `|` (the table
/// lost a row), a hard break's two spaces, a JS line's trailing space
/// (`const a = 10 const b = 2`, node refuses). Held back now; the same
/// edits ending with their newline, and a join after an operator, are
/// written.
#[test]
fn joins_after_a_row_a_hard_break_or_a_space_are_held_back() {
    let doc = "# Tool\n\nIntro line one.  \nSecond line.\n\n| name | default |\n|------|---------|\n| port | 8000 |\n| host | localhost |\n\nMore text.\n";
    let js = "const a = 1\nconst b = 2\nexport { a, b }\n";
    let sum = "const s = a +\n  b\nexport { s }\n";
    let edit = |path: &str, old: &str, new: &str| {
        serde_json::json!({"file_path": path, "old_string": old, "new_string": new}).to_string()
    };
    for (name, content, old, new, said) in [
        (
            "doc.md",
            doc,
            "| port | 8000 |\n",
            "| port | 9000 |",
            "which then reads `| port | 9000 || host | localhost |`",
        ),
        (
            "doc.md",
            doc,
            "Intro line one.  \n",
            "Intro line, revised.  ",
            "which then reads `Intro line, revised.  Second line.`",
        ),
        (
            "j.mjs",
            js,
            "const a = 1\n",
            "const a = 10 ",
            // Claude Code strips the trailing space the model wrote
            // (outside .md/.mdx: `normalizeFileEditInput`).
            "which then reads `const a = 10const b = 2`",
        ),
    ] {
        let ran = check_then_apply((name, content), ("edit.json", &edit(name, old, new)));
        assert_held_back(name, &ran, said, content);
        let kept = format!("{new}\n");
        let placed = if name.ends_with(".md") {
            kept.clone()
        } else {
            format!("{}\n", new.trim_end())
        };
        let ran = check_then_apply((name, content), ("edit.json", &edit(name, old, &kept)));
        assert_written(&ran, &content.replacen(old, &placed, 1));
    }
    let ran = check_then_apply(
        ("s.mjs", sum),
        (
            "edit.json",
            &edit("s.mjs", "const s = a +\n", "const s = a + "),
        ),
    );
    assert_written(&ran, "const s = a +  b\nexport { s }\n");
}

/// Testers' finds (42c-05, 42c-03): a Markdown section retitled, its
/// body dropped, was called a `#` comment standing in for the lines (the
/// gate denied it), and a list item's fence dropped was blamed on an
/// untouched fence: both are written now, as an edit and as a whole
/// write.
#[test]
fn markdown_headings_and_list_item_fences_are_read_as_markdown() {
    let readme = "# mytool\n\nA tool.\n\n## Legacy configuration\n\nSet MYTOOL_HOME in your shell.\nThen run mytool init --legacy.\nThis writes ~/.mytoolrc.\n\n## Usage\n\nmytool run\n";
    let section = "## Legacy configuration\n\nSet MYTOOL_HOME in your shell.\nThen run mytool init --legacy.\nThis writes ~/.mytoolrc.\n";
    let retitled = readme.replace(section, "## Configuration\n");
    let edit = serde_json::json!({"file_path": "R.md", "old_string": section,
        "new_string": "## Configuration\n"});
    let ran = check_then_apply(("R.md", readme), ("edit.json", &edit.to_string()));
    assert_written(&ran, &retitled);
    let write = serde_json::json!({"file_path": "R.md", "content": retitled});
    let ran = check_then_apply(("R.md", readme), ("edit.json", &write.to_string()));
    assert_written(&ran, &retitled);

    let steps = "# Guide\n\n1. Install:\n\n   ```sh\n   pip install tool\n   ```\n\n2. Configure.\n\n````markdown\nExample:\n```python\nprint(1)\n```\n````\n\nText after.\n";
    let edit = serde_json::json!({"file_path": "f.md",
        "old_string": "   pip install tool\n   ```\n", "new_string": "   pip install tool\n"});
    let ran = check_then_apply(("f.md", steps), ("edit.json", &edit.to_string()));
    assert_written(
        &ran,
        &steps.replace("   pip install tool\n   ```\n", "   pip install tool\n"),
    );
}

/// Testers' finds (round 42c, 14 and 01): an edit leaving a `(` open in
/// an f-string's field, or a `yield` in a comprehension, was written; an
/// added `"""` that flips the pairing of the quotes below it was blamed on
/// the far line CPython stops at. `check` exits 1 naming CPython's words
/// (and the edit's own `"""` line as the one opening the string), `apply
/// --write` holds it back; the field written whole, with a conversion and
/// a format spec, is written.
#[test]
fn python_f_string_fields_comprehension_yields_and_an_added_triple_quote_are_held_back() {
    let file = "def copy(src, buf):\n    \"\"\"Copy buf.\"\"\"\n    src.write(buf)\n    \
                return len(buf)\n\n\ndef size(buf):\n    \"\"\"The size isn't known.\"\"\"\n    \
                return 0\n";
    let old = "    src.write(buf)\n";
    let cases = [
        (
            "    print(f\"wrote {len(buf} bytes\")\n",
            "held back: the diff leaves cart.py with its brackets unbalanced: as the edit leaves \
             it, Python refuses the file: line 4 (`print(f\"wrote {len(buf} bytes\")`) ends an \
             f-string's `{...}` field while its `(` is open (SyntaxError: f-string: closing \
             parenthesis '}' does not match opening parenthesis '(')",
        ),
        (
            "    total = [x for x in buf if (yield x)]\n",
            "held back: the diff leaves cart.py with a statement outside the block it needs: as \
             the edit leaves it, Python refuses the file: line 4 (`total = [x for x in buf if \
             (yield x)]`) has `yield` inside a list comprehension",
        ),
        (
            "    \"\"\"Write buf.\n",
            "held back: the diff leaves cart.py with a quote left open: as the edit leaves it, \
             Python refuses the file: line 4 (`\"\"\"Write buf.`, in the new text) opens a \
             triple-quoted string that closes only at line 9, so the quotes after it pair the \
             other way: CPython reads the file to line 9 (`\"\"\"The size isn't known.\"\"\"`) \
             before it fails (SyntaxError: unterminated string literal (detected at line 9))",
        ),
    ];
    for (added, said) in cases {
        let ran = check_then_apply(
            ("cart.py", file),
            ("edit.diff", &block(old, &format!("{old}{added}"))),
        );
        assert_held_back("cart.py", &ran, said, file);
    }
    let whole =
        format!("{old}    print(f\"wrote {{len(buf)}} bytes {{buf!r:>10}} {{buf:'^8}}\")\n");
    let ran = check_then_apply(("cart.py", file), ("edit.diff", &block(old, &whole)));
    assert_written(&ran, &file.replace(old, &whole));
}

/// `check FILE INPUT --dialect DIALECT` then `apply FILE INPUT --dialect
/// DIALECT --write` in a folder holding `files` and the Aider reply
/// `reply` (`{"reply": ...}`): both runs and `file`'s bytes after.
fn aider_check_then_apply(
    dialect: &str,
    files: &[(&str, &str)],
    file: &str,
    reply: &str,
) -> (Output, Output, String) {
    let dir = tempfile::tempdir().expect("temp dir");
    let input = serde_json::json!({ "reply": reply }).to_string();
    support::files::write_all(
        dir.path(),
        files.iter().copied().chain([("r.json", &*input)]),
    );
    let run = |extra: &[&str]| {
        support::runner::srview(extra)
            .args(["--dialect", dialect])
            .cwd(dir.path())
            .output()
    };
    let check = run(&["check", file, "r.json"]);
    let apply = run(&["apply", file, "r.json", "--write"]);
    let written = std::fs::read_to_string(dir.path().join(file)).expect("read");
    (check, apply, written)
}

/// `srview check FILE r.json --dialect aider-diff --json` in a folder
/// holding only `file` (name, content) and the reply, as JSON.
fn aider_check_json((name, content): (&str, &str), reply: &str) -> serde_json::Value {
    let dir = tempfile::tempdir().expect("temp dir");
    let input = serde_json::json!({ "reply": reply }).to_string();
    support::files::write_all(dir.path(), [(name, content), ("r.json", &*input)]);
    let json = support::runner::srview(["check", name, "r.json", "--dialect", "aider-diff"])
        .arg("--json")
        .cwd(dir.path())
        .output();
    serde_json::from_slice(&json.stdout).expect("JSON")
}

/// One Aider SEARCH/REPLACE block on `path`.
fn aider_block(path: &str, search: &str, replace: &str) -> String {
    format!("{path}\n````\n<<<<<<< SEARCH\n{search}=======\n{replace}>>>>>>> REPLACE\n````\n")
}

/// Testers' finds (round 43a, 07): Aider's `strip_quoted_wrapping` cuts a
/// SEARCH's first line ending with the file's name (`COPY Dockerfile
/// /src/Dockerfile`, which the block deletes, stays) and a REPLACE's code
/// fences (a Markdown block written bare), and both were called exact and
/// written. `check` exits 1 saying the line cut and why, `apply --write`
/// leaves the file; the same blocks started one line earlier, and blocks
/// the model wrapped in the file's name and a fence on both sides (what
/// Aider's cut is for), are written.
#[test]
fn aider_blocks_losing_a_line_to_the_wrapping_cut_are_held_back() {
    let docker = "FROM python:3.12\nWORKDIR /src\nCOPY Dockerfile /src/Dockerfile\nRUN pip install -r requirements.txt\n";
    let cut = aider_block(
        "Dockerfile",
        "COPY Dockerfile /src/Dockerfile\nRUN pip install -r requirements.txt\n",
        "RUN pip install --no-cache-dir -r requirements.txt\n",
    );
    let ran = aider_check_then_apply("aider-diff", &[("Dockerfile", docker)], "Dockerfile", &cut);
    assert_held_back(
        "Dockerfile",
        &ran,
        "edit 1: Aider cuts SEARCH line 1, `COPY Dockerfile /src/Dockerfile`, before matching",
        docker,
    );
    let earlier = aider_block(
        "Dockerfile",
        "WORKDIR /src\nCOPY Dockerfile /src/Dockerfile\nRUN pip install -r requirements.txt\n",
        "WORKDIR /src\nRUN pip install --no-cache-dir -r requirements.txt\n",
    );
    let ran = aider_check_then_apply(
        "aider-diff",
        &[("Dockerfile", docker)],
        "Dockerfile",
        &earlier,
    );
    assert_written(
        &ran,
        "FROM python:3.12\nWORKDIR /src\nRUN pip install --no-cache-dir -r requirements.txt\n",
    );

    let readme = "# Tool\n\nRun the tests with: make test\n\nDone.\n";
    let fences = aider_block(
        "README.md",
        "Run the tests with: make test\n",
        "```bash\nmake test\n```\n",
    );
    let ran = aider_check_then_apply("aider-diff", &[("README.md", readme)], "README.md", &fences);
    assert_held_back(
        "README.md",
        &ran,
        "edit 1: Aider cuts REPLACE lines 1 and 3, \"```bash\" and \"```\", before writing",
        readme,
    );

    let calc = "import math\n\ndef area(r):\n    return r * r\n";
    let wrapped = aider_block(
        "calc.py",
        "calc.py\n```python\ndef area(r):\n    return r * r\n```\n",
        "calc.py\n```python\ndef area(r):\n    return math.pi * r * r\n```\n",
    );
    let ran = aider_check_then_apply("aider-diff", &[("calc.py", calc)], "calc.py", &wrapped);
    assert_written(&ran, &calc.replace("r * r", "math.pi * r * r"));
}

/// Testers' finds (round 43a, 13): Aider (diff and udiff) writes a CRLF
/// file back with LF on every line, and a one-line edit was called exact
/// and written. `check` exits 1 naming the lines outside the edit whose
/// ending changes, `apply --write` leaves the file; the same edit on the
/// file in LF is written.
#[test]
fn aider_writing_a_crlf_file_lf_is_held_back() {
    let lf = "a = 1\nb = 2\nc = 3\n";
    let crlf = lf.replace('\n', "\r\n");
    let block = aider_block("w.py", "b = 2\n", "b = 20\n");
    let hunk = "```diff\n--- w.py\n+++ w.py\n@@ ... @@\n-b = 2\n+b = 20\n```\n";
    for (dialect, reply) in [("aider-diff", &block), ("aider-udiff", &hunk.to_string())] {
        let ran = aider_check_then_apply(dialect, &[("w.py", &crlf)], "w.py", reply);
        assert_held_back(
            dialect,
            &ran,
            "also rewrites line 1, line 3, which no edit covers: the file's lines end in CRLF \
             and the agent writes every line with LF, so 2 lines outside the edit change their \
             ending",
            &crlf,
        );
        let ran = aider_check_then_apply(dialect, &[("w.py", lf)], "w.py", reply);
        assert_written(&ran, "a = 1\nb = 20\nc = 3\n");
    }
}

/// Testers' finds (round 43a, 17): a block naming a.py whose SEARCH is
/// only in b.py, which Aider applies to b.py (it tries the chat's files),
/// was written by `apply --transcript --write` as exact. It warns naming
/// both files (JSON `blocks[].named`) and writes nothing unless
/// `--force`; a block naming b.py is written.
#[test]
fn an_aider_block_landing_in_another_chat_file_is_held_back() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (a, b) = ("def f():\n    return 1\n", "def g():\n    return 2\n");
    let reply = |path: &str| {
        serde_json::json!({
            "reply": aider_block(path, "    return 2\n", "    return 20\n"),
            "chat_files": ["a.py", "b.py"],
        })
        .to_string()
    };
    support::files::write_all(dir.path(), [("a.py", a), ("b.py", b)]);
    std::fs::write(dir.path().join("r.json"), reply("a.py")).expect("write");
    let run = |extra: &[&str]| {
        support::runner::srview(["apply", "--transcript", "r.json", "--cwd", "."])
            .args(["--dialect", "aider-diff"])
            .args(extra)
            .cwd(dir.path())
            .output()
    };
    let said = "edit 1 names a.py, but its SEARCH text is not in a.py: Aider 0.86.2's diff \
                edit format applies it to b.py at line 2 only because b.py is in the chat";
    let json = run(&["--json"]);
    assert_contains(&String::from_utf8_lossy(&json.stderr), said);
    let report: serde_json::Value = serde_json::from_slice(&json.stdout).expect("JSON");
    assert_eq!(report["blocks"][0]["named"], "a.py");
    let write = run(&["--write"]);
    assert_eq!(write.status.code(), Some(1));
    assert_contains(&String::from_utf8_lossy(&write.stderr), said);
    let read = |name: &str| std::fs::read_to_string(dir.path().join(name)).expect("read");
    assert_eq!(read("b.py"), b);
    let forced = run(&["--write", "--force"]);
    assert_eq!(forced.status.code(), Some(0));
    assert_eq!(read("b.py"), "def g():\n    return 20\n");
    std::fs::write(dir.path().join("b.py"), b).expect("write");
    std::fs::write(dir.path().join("r.json"), reply("b.py")).expect("write");
    let named = run(&["--write"]);
    assert_eq!(named.status.code(), Some(0));
    assert_eq!(read("b.py"), "def g():\n    return 20\n");
    assert_eq!(read("a.py"), a);
}

/// A Python function of three assignments, for the `...` pieces below.
const THREE_ASSIGNMENTS: &str = "def f():\n    a = 1\n    b = 2\n    c = 3\n";

/// An Aider block on a.py whose `...` pieces stand in
/// [`THREE_ASSIGNMENTS`] in reverse order.
const SWAPPED_PIECES: &str = "a.py\n````\n<<<<<<< SEARCH\n    c = 3\n...\n    a = 1\n=======\n    c = 30\n...\n    a = 10\n>>>>>>> REPLACE\n````\n";

/// Testers' find (round 43b, 03): a block whose `...` pieces stand in the
/// file in reverse order. Aider (`try_dotdotdots`) writes each REPLACE
/// piece as sent where its SEARCH piece stands (`c = 30` at line 4, `a =
/// 10` at line 2), and srview says the stage loose; its list of new-text
/// lines "the agent writes otherwise" paired the written lines with the
/// REPLACE's by number (`a = 10` where the model wrote `c = 30`, the kept
/// `b = 2` where it wrote `...`). No REPLACE line is written otherwise:
/// none is listed (text and JSON), and the loose placement is still said
/// and held back.
#[test]
fn aider_dotdotdots_pieces_out_of_order_list_no_unrelated_lines() {
    // The pieces in reverse order: `c = 3` first, `a = 1` below it.
    let block = SWAPPED_PIECES;
    let file = THREE_ASSIGNMENTS;
    let (check, apply, written) =
        aider_check_then_apply("aider-diff", &[("a.py", file)], "a.py", block);
    assert_eq!(
        (
            check.status.code(),
            String::from_utf8_lossy(&check.stdout).into_owned()
        ),
        (
            Some(1),
            "edit 1: dotdotdots at lines 2-4 (loose)\nwarning: edit 1 was placed at lines 2-4 by \
             dotdotdots, a loose stage of Aider 0.86.2's diff edit format: the text it replaced \
             is not the text the model wrote; Aider replaces each piece between `...` lines \
             wherever it stands once in the file, in any order and any function: srview calls \
             it exact only when every piece is whole lines standing once, each below the one \
             before it and inside the block that one opens, as the `...` between them says; \
             send the lines between the pieces instead of `...` to say where\nthe agent says: \
             Applied edit to a.py\n"
                .to_string()
        )
    );
    assert_eq!((apply.status.code(), written.as_str()), (Some(1), file));
    let report = aider_check_json(("a.py", file), block);
    assert_eq!(
        report["blocks"],
        serde_json::json!([{"lines": [2, 4], "loose": true, "stage": "dotdotdots"}])
    );
    assert_eq!(
        report["newContent"],
        "def f():\n    a = 10\n    b = 2\n    c = 30\n"
    );
}

/// Testers' find (round 43b, 07): `check a.py BLOCKS` where the block
/// names a.py but its SEARCH stands only in b.py, which the input's chat
/// holds: Aider applies it to b.py. The single-file form ran a.py alone
/// (the input's chat replaced by FILE) and said Aider fails. It runs the
/// input's chat with FILE in it and says the move in the transcript
/// form's words (text and JSON `named`), exit 1; `apply a.py --write`
/// says it and writes neither file; `check b.py` refuses, as before.
#[test]
fn aider_single_file_check_says_a_block_landing_in_another_chat_file() {
    let (a, b) = ("def f():\n    return 1\n", "def g():\n    return 2\n");
    let dir = tempfile::tempdir().expect("temp dir");
    let input = serde_json::json!({
        "reply": aider_block("a.py", "    return 2\n", "    return 20\n"),
        "chat_files": ["a.py", "b.py"],
    })
    .to_string();
    support::files::write_all(dir.path(), [("a.py", a), ("b.py", b), ("r.json", &*input)]);
    let run = |args: &[&str]| {
        support::runner::srview(args)
            .args(["--dialect", "aider-diff"])
            .cwd(dir.path())
            .output()
    };
    let said = "edit 1 names a.py, but its SEARCH text is not in a.py: Aider 0.86.2's diff \
                edit format applies it to b.py at line 2 only because b.py is in the chat and \
                holds that text: the model meant a.py; if b.py is meant, send the block under \
                b.py's name";
    let check = run(&["check", "a.py", "r.json"]);
    assert_eq!(
        (
            check.status.code(),
            String::from_utf8_lossy(&check.stdout).into_owned()
        ),
        (
            Some(1),
            format!(
                "edit 1: perfect at line 2 (exact)\nwarning: {said}\nthe agent says: Applied \
                 edit to b.py\n"
            )
        )
    );
    let json = run(&["check", "a.py", "r.json", "--json"]);
    let report: serde_json::Value = serde_json::from_slice(&json.stdout).expect("JSON");
    assert_eq!(report["blocks"][0]["named"], "a.py");
    assert_eq!(report["message"], "Applied edit to b.py");
    let write = run(&["apply", "a.py", "r.json", "--write"]);
    assert_eq!(
        (
            write.status.code(),
            String::from_utf8_lossy(&write.stderr).into_owned()
        ),
        (
            Some(2),
            format!(
                "srview: {said}; the input edits b.py, not a.py: nothing written (apply --write \
                 writes a.py only; `srview apply --transcript r.json --dialect aider-diff \
                 --write` writes them all)\n"
            )
        )
    );
    let read = |name: &str| std::fs::read_to_string(dir.path().join(name)).expect("read");
    assert_eq!((read("a.py"), read("b.py")), (a.to_string(), b.to_string()));
    let other = run(&["check", "b.py", "r.json"]);
    assert_eq!(
        (
            other.status.code(),
            String::from_utf8_lossy(&other.stderr).into_owned()
        ),
        (
            Some(1),
            "srview: the input edits a.py, not b.py: b.py is left as it is (Aider 0.86.2's diff \
             edit format would apply it to b.py only because its SEARCH text is not in a.py and \
             b.py is in the chat; `srview apply --transcript r.json --dialect aider-diff` runs \
             it over the folder)\n"
                .to_string()
        )
    );
}

/// Testers' finds (round 43a, 15): Aider's `missing_leading_whitespace`
/// writes the REPLACE re-indented (a top-level `def` nested after a
/// `return`), and `check` listed none of the lines it writes otherwise.
/// It lists them as for the other agents (JSON `blocks[].writtenDiffers`).
#[test]
fn aider_reindented_replace_lines_are_listed() {
    let svc =
        "class Service:\n    def total(self, items):\n        s = sum(items)\n        return s\n";
    let block = aider_block(
        "svc.py",
        "s = sum(items)\nreturn s\n",
        "s = sum(items)\nreturn round(s, 2)\n\n\ndef helper():\n    return 0\n",
    );
    let (check, apply, written) =
        aider_check_then_apply("aider-diff", &[("svc.py", svc)], "svc.py", &block);
    let stdout = String::from_utf8_lossy(&check.stdout);
    assert_eq!(check.status.code(), Some(1), "{stdout}");
    assert_contains(
        &stdout,
        "edit 1: new text line 5: the agent writes \"        def helper():\" where the model \
         wrote \"def helper():\"",
    );
    assert_eq!((apply.status.code(), written.as_str()), (Some(1), svc));
    let report = aider_check_json(("svc.py", svc), &block);
    assert_eq!(
        report["blocks"][0]["writtenDiffers"][2],
        serde_json::json!({"line": 5, "written": "        def helper():", "model": "def helper():"})
    );
}

/// `bash -n`'s verdict on each recorded shell edit
/// (tests/fixtures/trust/shell/cases.json, written by record.py there; a
/// tester's find, round 44, T-12): srview doubts exactly the edits bash
/// refuses (a block or a quote left open, a block closed by another's
/// word, a block part left empty, an `&&`/`||`/`|` with no command after
/// it: round 45, T-01, T-08), naming bash's line where bash stops at the
/// file's end or at the fault itself; an edit bash accepts is no doubt,
/// but for a heredoc it warns is delimited by the file's end (every line
/// after it becomes its text: round 45, T-01), said as a string left open.
#[test]
fn shell_verdicts_agree_with_bash_n() {
    use srview::diagnose::layout::{BreakKind, layout_break};
    let cases = balanced_cases("shell", 30, |c| c["accepted"] == true);
    let mut doubted = 0;
    for case in &cases {
        let (name, before, after) = case_texts(case);
        let doubt = layout_break("deploy.sh", before, after);
        let want = case["doubted"].as_bool().expect("a verdict");
        assert_eq!(doubt.is_some(), want, "{name}: {doubt:?}");
        if case["accepted"] == true {
            assert_eq!(want, case["heredoc_to_end"] == true, "{name}");
            if let Some(doubt) = doubt {
                doubted += 1;
                assert_eq!(doubt.kind, BreakKind::Unclosed, "{name}: {}", doubt.why);
                assert!(
                    doubt.why.contains("as the heredoc's text"),
                    "{name}: {}",
                    doubt.why
                );
            }
            continue;
        }
        let Some(doubt) = doubt else { continue };
        doubted += 1;
        let said = case["error"].as_str().expect("an error");
        let quote = said.starts_with("unexpected EOF while looking for matching");
        let kind = if quote {
            BreakKind::Unclosed
        } else {
            BreakKind::Unbalanced
        };
        assert_eq!(doubt.kind, kind, "{name}: {}", doubt.why);
        assert!(
            doubt.why.contains("`bash -n` refuses the script: line "),
            "{name}: {}",
            doubt.why
        );
        // Where bash stops at a fault's own token, srview names its line.
        let line = case["line"].as_u64().expect("a line");
        if said.starts_with("syntax error near unexpected token") {
            assert!(
                doubt.why.contains(&format!("line {line} (`")),
                "{name}: {}",
                doubt.why
            );
        }
    }
    assert_eq!(doubted, 35);
}

/// `text` written as run.sh in a fresh directory and given to bash with
/// `options` before it (no arguments after): what bash did.
fn bash_run(options: &[&str], text: &str) -> std::process::Output {
    let dir = tempfile::tempdir().expect("temp dir");
    let script = dir.path().join("run.sh");
    std::fs::write(&script, text).expect("write run.sh");
    std::process::Command::new("bash")
        .args(options)
        .arg(&script)
        .current_dir(dir.path())
        .output()
        .expect("bash runs")
}

/// `text` run by bash as a script (no arguments): what it printed to
/// stderr.
fn bash_stderr(text: &str) -> String {
    String::from_utf8_lossy(&bash_run(&[], text).stderr).into_owned()
}

/// An extended glob (`@(a|b)`) put where bash parses it before any
/// `shopt -s extglob` has run (tester 46, T-13: a `shopt` inside the same
/// function comes too late: bash parses the whole definition first), each
/// result run by bash: doubted exactly where bash stops with `syntax error
/// near unexpected token `('`, an argument's `!(` too (tester 48, T-01);
/// one bash runs (a top-level `shopt` above, a `[[ ... ]]` pattern,
/// `!(cmd)` at a command's start, `$!`) is no doubt. `(what, result,
/// doubted)`; the script before is `RUN`.
#[test]
fn shell_extended_globs_agree_with_running_bash() {
    use srview::diagnose::layout::{BreakKind, layout_break};
    const RUN: &str =
        "#!/usr/bin/env bash\nset -euo pipefail\n\nmain() {\n  echo run\n}\n\nmain \"$@\"\n";
    let body = |new: &str| RUN.replace("  echo run\n", new);
    let case_ab = "  case x in\n    @(a|x)) echo ab ;;\n  esac\n";
    let cases: Vec<(&str, String, bool)> = vec![
        (
            "shopt inside the same function",
            body(&format!("  shopt -s extglob\n{case_ab}")),
            true,
        ),
        ("no shopt at all", body(case_ab), true),
        (
            "shopt on the same top-level line",
            RUN.replace("main \"$@\"\n", "shopt -s extglob; ls @(a|b)\n"),
            true,
        ),
        (
            "in a command substitution",
            body("  echo \"$(case x in @(a|x)) echo ab ;; esac)\"\n"),
            true,
        ),
        ("as an argument, *( )", body("  ls -d /tmp/*(x)\n"), true),
        // Tester 48, T-01: an argument's `!(` is a glob, as `@(` is.
        (
            "as an argument, !( )",
            body("  rm -rf !(keep|data)\n"),
            true,
        ),
        ("as an argument, +( )", body("  ls +(a|b)\n"), true),
        (
            "a case pattern, !( )",
            body("  case x in\n    !(a)) echo not-a ;;\n  esac\n"),
            true,
        ),
        (
            "! (cmd) and $!",
            body("  ! (false) && echo \"$!\" '!(a)'\n"),
            false,
        ),
        (
            "top-level shopt above the function",
            body(case_ab).replace("\nmain() {", "\nshopt -s extglob\nmain() {"),
            false,
        ),
        (
            "shopt in a function run above",
            body(case_ab).replace(
                "\nmain() {",
                "\nsetup() {\n  shopt -s extglob\n}\nsetup\nmain() {",
            ),
            false,
        ),
        (
            "in a [[ ]] test",
            body("  [[ x == @(a|x) ]] && echo ab\n"),
            false,
        ),
        (
            "!(cmd) is ! (cmd)",
            body("  if !(false); then echo no; fi\n"),
            false,
        ),
        ("quoted", body("  echo '@(a|x)' \"*(b)\"\n"), false),
    ];
    for (what, result, doubted) in &cases {
        let stops = bash_stderr(result).contains("syntax error near unexpected token `('");
        assert_eq!(stops, *doubted, "{what}: bash");
        let found = layout_break("run.sh", RUN, result);
        let said = found.as_ref().filter(|b| b.kind == BreakKind::ExtglobOff);
        assert_eq!(said.is_some(), *doubted, "{what}: {found:?}");
        if !doubted {
            assert_eq!(found, None, "{what}");
        }
    }
    let said = layout_break("run.sh", RUN, &cases[0].1).map(|b| b.why);
    assert_eq!(
        said.as_deref(),
        Some(
            "as the edit (from line 5) leaves it, line 7 (`@(a|x)) echo ab ;;`) holds the \
             extended glob `@(`, which bash parses only once `shopt -s extglob` has run, and no \
             top-level line above the command holding it runs that (the command it stands in \
             starts at line 4: bash parses a whole function, `if` or loop before it runs any line \
             of it, so a `shopt` inside it comes too late): running the script stops there with \
             `syntax error near unexpected token `('`, where the script before read clean: put \
             `shopt -s extglob` on a line of its own above line 4, or send a pattern without `@(`"
        )
    );
}

/// Whether `tool` (with `args`, the file's path last) refuses `text`
/// written as `name` in a fresh directory: a non-zero exit; for bash (run
/// as a script), a command it did not find.
fn refused_by(tool: &str, args: &[&str], name: &str, text: &str) -> bool {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join(name);
    std::fs::write(&file, text).expect("write the file");
    let out = std::process::Command::new(tool)
        .args(args)
        .arg(&file)
        .current_dir(dir.path())
        .output()
        .expect("the tool runs");
    if tool == "bash" {
        let said = String::from_utf8_lossy(&out.stderr);
        return said.contains("command not found") || said.contains("No such file or directory");
    }
    !out.status.success()
}

/// A Unicode space (U+00A0, U+2009, U+3000) put in code (tester 46,
/// T-10), each result given to the reader that judges it: gcc
/// (`-fsyntax-only`), rustc (`--emit=metadata`), bash (run). Doubted
/// exactly where the reader refuses (for bash: the command is not found);
/// one in a string, a comment, a character literal, an `#if 0` branch or
/// a shell command's argument is content, no doubt. Go has no compiler on
/// this machine: its reading is the unit test's (doubt_spaces).
#[test]
fn special_spaces_in_code_agree_with_gcc_rustc_and_bash() {
    use srview::diagnose::layout::{BreakKind, layout_break};
    const C: &str = "int main(void) {\n    int x = 1;\n    return x;\n}\n";
    const RS: &str = "fn main() {\n    let x = 1;\n    println!(\"{}\", x);\n}\n";
    const SH: &str = "#!/bin/bash\nset -e\necho start\nls /tmp >/dev/null\necho end\n";
    let c = |new: &str| C.replace("    int x = 1;\n", new);
    let rs = |new: &str| RS.replace("    let x = 1;\n", new);
    let sh = |new: &str| SH.replace("ls /tmp >/dev/null\n", new);
    let gcc: (&str, &[&str]) = ("gcc", &["-fsyntax-only"]);
    let rustc: (&str, &[&str]) = (
        "rustc",
        &["--edition", "2021", "--emit=metadata", "-o", "m.meta"],
    );
    let bash: (&str, &[&str]) = ("bash", &[]);
    // (what, the reader and its arguments, the file before, after, doubted)
    type Case<'a> = (&'a str, (&'a str, &'a [&'a str]), &'a str, String, bool);
    let cases: Vec<Case> = vec![
        ("C no-break space", gcc, C, c("    int\u{a0}x = 1;\n"), true),
        ("C thin space", gcc, C, c("    int x\u{2009}= 1;\n"), true),
        (
            "C string",
            gcc,
            C,
            c("    int x = sizeof \"a\u{a0}b\";\n"),
            false,
        ),
        (
            "C comment",
            gcc,
            C,
            c("    int x = 1; // a\u{a0}b\n"),
            false,
        ),
        (
            "C block comment",
            gcc,
            C,
            c("    /* a\u{a0}b */ int x = 1;\n"),
            false,
        ),
        (
            "C #if 0 branch",
            gcc,
            C,
            c("#if 0\n    int\u{a0}y;\n#endif\n    int x = 1;\n"),
            false,
        ),
        (
            "Rust no-break space",
            rustc,
            RS,
            rs("    let\u{a0}x = 1;\n"),
            true,
        ),
        (
            "Rust ideographic space",
            rustc,
            RS,
            rs("    let x =\u{3000}1;\n"),
            true,
        ),
        (
            "Rust string",
            rustc,
            RS,
            rs("    let x = \"a\u{a0}b\".len();\n"),
            false,
        ),
        (
            "Rust comment",
            rustc,
            RS,
            rs("    let x = 1; // a\u{a0}b\n"),
            false,
        ),
        (
            "shell command name",
            bash,
            SH,
            sh("ls\u{a0}/tmp >/dev/null\n"),
            true,
        ),
        ("shell function name", bash, SH, sh("true\u{a0}x\n"), true),
        (
            "shell argument",
            bash,
            SH,
            sh("ls /tmp\u{a0}/var >/dev/null\n"),
            true,
        ),
        (
            "shell assignment",
            bash,
            SH,
            sh("ls /tmp >/dev/null\nNAME=a\u{a0}b\n"),
            false,
        ),
        (
            "shell quoted",
            bash,
            SH,
            sh("ls \"/tmp\" >/dev/null\necho \"a\u{a0}b\"\n"),
            false,
        ),
        (
            "shell comment",
            bash,
            SH,
            sh("ls /tmp >/dev/null # a\u{a0}b\n"),
            false,
        ),
    ];
    for (what, (tool, args), before, result, doubted) in &cases {
        let name = match *tool {
            "gcc" => "m.c",
            "rustc" => "m.rs",
            _ => "run.sh",
        };
        assert!(
            !refused_by(tool, args, name, before),
            "{what}: {tool} refuses the file before"
        );
        assert_eq!(
            refused_by(tool, args, name, result),
            *doubted,
            "{what}: {tool}"
        );
        let found = layout_break(name, before, result);
        assert_eq!(
            found.as_ref().map(|b| (b.kind, b.leaves())),
            doubted.then_some((
                BreakKind::InvalidCharacter,
                "with a character its language refuses in its code"
            )),
            "{what}: {found:?}"
        );
    }
}

/// Tester 48, T-04: a Unicode space put between a shell command's
/// arguments (`rm -rf\u{a0}/tmp/x`), unquoted, is doubted, and the line
/// with ASCII spaces offered; bash, given each line's words (`set --
/// WORDS; echo $#`), counts one word fewer in the line as written than in
/// the line offered. Quoted, in a comment, in a heredoc's text or in an
/// assignment's value (`NAME=a b` would run `b`) it is not doubted.
#[test]
fn a_special_space_between_shell_arguments_is_one_word_to_bash() {
    use srview::diagnose::layout::{BreakKind, layout_break};
    const SH: &str = "#!/bin/bash\nset -e\nrm -rf /tmp/srview-t04\necho done\n";
    let words = |line: &str| {
        let out = bash_run(&[], &format!("set -- {line}\necho $#\n"));
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    };
    for (line, fixed) in [
        ("rm -rf\u{a0}/tmp/srview-t04", "rm -rf /tmp/srview-t04"),
        (
            "rm -rf /tmp/srview-t04\u{2009}/tmp/srview-u",
            "rm -rf /tmp/srview-t04 /tmp/srview-u",
        ),
        ("echo done\u{a0}now", "echo done now"),
        ("printf '%s\\n' a\u{3000}b", "printf '%s\\n' a b"),
    ] {
        let result = SH.replace("rm -rf /tmp/srview-t04", line);
        let said = layout_break("run.sh", SH, &result);
        assert_eq!(
            said.as_ref().map(|b| b.kind),
            Some(BreakKind::InvalidCharacter),
            "{line}"
        );
        let why = said.map(|b| b.why).unwrap_or_default();
        assert!(why.contains("reaches its command as one argument"), "{why}");
        assert!(
            why.contains(&format!(
                "send the line with an ASCII space there, `{fixed}`"
            )),
            "{why}"
        );
        let (a, b) = (words(line), words(fixed));
        let (a, b): (usize, usize) = (a.parse().expect("a count"), b.parse().expect("a count"));
        assert_eq!(
            a + 1,
            b,
            "{line}: bash reads {a} words, {b} in the line offered"
        );
    }
    for result in [
        "#!/bin/bash\nset -e\nrm -rf \"/tmp/srview\u{a0}t04\"\necho done\n",
        "#!/bin/bash\nset -e\nrm -rf /tmp/srview-t04 # a\u{a0}b\necho done\n",
        "#!/bin/bash\nset -e\ncat <<EOF\na\u{a0}b\nEOF\necho done\n",
        "#!/bin/bash\nset -e\nlocal_dir=a\u{a0}b\necho done\n",
    ] {
        assert_eq!(layout_break("run.sh", SH, result), None, "{result}");
    }
}

/// Bash's own reading of a script's commands: the script's lines (its
/// `#!` line dropped) as a function's body, printed back by `declare -f`,
/// one command a line.
fn bash_reading(script: &str) -> String {
    let body = script.split_once('\n').map_or(script, |(_, rest)| rest);
    let out = bash_run(&[], &format!("f() {{\n{body}\n}}\ndeclare -f f\n"));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Tester 48, T-03: an edit that leaves `--rm \ ` (a blank after the
/// `\`), puts a `# comment` before the `\`, or a comment line inside a
/// continued command: bash ends the command there and runs the next line
/// as a command of its own (`bash -n` reads it clean). Doubted exactly
/// where bash's reading (`declare -f`) holds more commands than the
/// script's before, and the line offered reads as the script before.
#[test]
fn a_command_cut_before_its_continued_line_agrees_with_bash() {
    use srview::diagnose::layout::{BreakKind, layout_break};
    const RUN: &str =
        "#!/bin/bash\nset -e\ndocker run \\\n  --rm \\\n  -e CI=1 \\\n  img\necho done\n";
    let commands = |script: &str| bash_reading(script).lines().count();
    let cases = [
        (RUN.replace("--rm \\\n", "--rm \\ \n"), true),
        (RUN.replace("--rm \\\n", "--rm \\\t\n"), true),
        (RUN.replace("--rm \\\n", "--rm # keep nothing \\\n"), true),
        (RUN.replace("  -e CI=1", "  # the CI flag\n  -e CI=1"), true),
        (
            RUN.replace("  img\n", "  --net host # \\\n  --pull always \\\n  img\n"),
            true,
        ),
        (RUN.replace("docker run", "# run it\ndocker run"), false),
        (RUN.replace("--rm \\\n", "--rm \\\n  --init \\\n"), false),
        (
            RUN.replace("echo done", "true && \\\n  # then say so\n  echo done"),
            false,
        ),
        (RUN.replace("img\n", "img # the image \\\n"), false),
    ];
    for (result, doubted) in &cases {
        assert_eq!(commands(result) > commands(RUN), *doubted, "bash: {result}");
        let found = layout_break("run.sh", RUN, result);
        assert_eq!(
            found.as_ref().map(|b| b.kind),
            doubted.then_some(BreakKind::CutsCommand),
            "{result}: {found:?}"
        );
        let Some(why) = found.map(|b| b.why) else {
            continue;
        };
        // The line offered, put in its place, reads as the script before.
        let Some((_, offered)) = why.split_once("alone at its end, `") else {
            continue;
        };
        let offered = offered.trim_end_matches('`');
        let line: usize = why
            .split_once("send line ")
            .map_or("", |(_, n)| n)
            .split(|c: char| !c.is_ascii_digit())
            .next()
            .and_then(|n| n.parse().ok())
            .expect("a line");
        let fixed: Vec<String> = result
            .lines()
            .enumerate()
            .map(|(i, l)| {
                if i + 1 == line {
                    format!("  {offered}")
                } else {
                    l.to_string()
                }
            })
            .collect();
        let fixed = format!("{}\n", fixed.join("\n"));
        assert_eq!(commands(&fixed), commands(RUN), "{fixed}");
    }
}

/// The same cut in a Makefile's recipe (tester 48, T-03): make hands a
/// recipe line ending in `\` to the shell with the next one, and one
/// ending in `\ ` alone; a comment before the `\` ends the shell's
/// command either way. Each result run by GNU make: doubted exactly where
/// the recipe fails (its last line run as a command of its own, `end: not
/// found`); a line added in the continuation, a variable's value, none.
#[test]
fn a_recipe_cut_before_its_continued_line_agrees_with_make() {
    use srview::diagnose::layout::{BreakKind, layout_break};
    const MAKE: &str = "SRCS = a.c \\\n  b.c\n\nall:\n\techo start \\\n\t  middle \\\n\t  end\n";
    let fails = |text: &str| {
        let dir = tempfile::tempdir().expect("temp dir");
        std::fs::write(dir.path().join("Makefile"), text).expect("write the Makefile");
        let out = std::process::Command::new("make")
            .arg("-s")
            .current_dir(dir.path())
            .output()
            .expect("make runs");
        !out.status.success()
    };
    assert!(!fails(MAKE));
    for (result, doubted) in [
        (MAKE.replace("middle \\\n", "middle \\ \n"), true),
        (MAKE.replace("middle \\\n", "middle # the rest \\\n"), true),
        (
            MAKE.replace("middle \\\n", "middle \\\n\t  more \\\n"),
            false,
        ),
    ] {
        assert_eq!(fails(&result), doubted, "make: {result}");
        let found = layout_break("Makefile", MAKE, &result);
        assert_eq!(
            found.as_ref().map(|b| b.kind),
            doubted.then_some(BreakKind::CutsCommand),
            "{result}: {found:?}"
        );
    }
}

/// `text` given to `bash -n`: whether it refuses it.
fn bash_n_refuses(text: &str) -> bool {
    !bash_run(&["-n"], text).status.success()
}

/// wt-shell's two leftovers (findings46): a heredoc's `cat <<EOF` line
/// taken out, its text then read as commands (bash stops at a `(` after a
/// command's words), and a `case` pattern list left starting with `|`
/// (the line holding its first pattern taken out); and the look-alikes
/// bash reads. Doubted exactly where `bash -n` refuses. `(what, result,
/// doubted)`; the script before is `RUN`.
#[test]
fn a_heredoc_read_as_commands_and_a_pattern_list_starting_with_a_bar_agree_with_bash_n() {
    use srview::diagnose::layout::{BreakKind, layout_break};
    const RUN: &str = "#!/bin/sh\nusage() {\n  cat <<EOF\nUsage: $0 [OPTION]\n  --libdir  print the \
                       library path (disabled here)\nEOF\n}\ncase \"$1\" in\n  (-H | --wi \\\n  | \
                       --with) echo with ;;\n  *) usage ;;\nesac\n";
    // (what, the text replaced, its replacement, doubted)
    let cases = [
        ("heredoc line taken out", "  cat <<EOF\n", "", true),
        (
            "first pattern's line taken out",
            "  (-H | --wi \\\n",
            "",
            true,
        ),
        ("a ( after words", "*) usage ;;", "*) echo a (b) ;;", true),
        (
            "a function's NAME ( ) with a blank",
            "usage() {",
            "usage ( ) {",
            false,
        ),
        (
            "an array, a quoted and an escaped (",
            "*) usage ;;",
            "*) x=(1 2); echo \"(\" \\( ;;",
            false,
        ),
        (
            "a subshell after !",
            "*) usage ;;",
            "*) if ! (usage); then :; fi ;;",
            false,
        ),
        (
            "a pattern list continued by a backslash",
            "  (-H | --wi \\\n",
            "  (-H | --wi \\\n  | --wit \\\n",
            false,
        ),
    ];
    let cases: Vec<(&str, String, bool)> = cases
        .iter()
        .map(|&(what, from, to, doubted)| (what, RUN.replace(from, to), doubted))
        .collect();
    for (what, result, doubted) in &cases {
        assert!(!bash_n_refuses(RUN), "bash -n refuses the script before");
        assert_eq!(bash_n_refuses(result), *doubted, "{what}: bash -n");
        let found = layout_break("run.sh", RUN, result);
        assert_eq!(
            found.as_ref().map(|b| b.kind),
            doubted.then_some(BreakKind::Unbalanced),
            "{what}: {found:?}"
        );
    }
    let said = layout_break("run.sh", RUN, &cases[0].1).map(|b| b.why);
    assert_eq!(
        said.as_deref(),
        Some(
            "as the edit (from line 3) leaves it, `bash -n` refuses the script: line 4 \
             (`--libdir  print the library path (disabled here)`) has a `(` after a command's \
             words, where bash reads one only at a command's start or in a function's `NAME ()` \
             (the edit took out line 3, `cat <<EOF`, whose heredoc text these lines were: bash \
             now reads them as commands), where the script before read clean: keep the line \
             that opens the heredoc in the new text"
        )
    );
    let said = layout_break("run.sh", RUN, &cases[1].1).map(|b| b.why);
    assert_eq!(
        said.as_deref(),
        Some(
            "as the edit (from line 9) leaves it, `bash -n` refuses the script: line 9 (`| \
             --with) echo with ;;`) starts a `case` pattern list with `|`, where bash reads a \
             pattern first, where the script before read clean: keep the pattern before the \
             `|` in the new text"
        )
    );
}

/// A real run of an edit's result: whether it `fails` (a name used before
/// the code defining it ran), what it `says` then, and the part of
/// srview's why that names it.
struct Run {
    fails: fn(&str) -> bool,
    says: &'static str,
    why: &'static str,
}

/// Each `(what, result, doubted)` edit of `file` (holding `before`): srview
/// says its used-before-defined doubt where `doubted` says, and exactly
/// where `run` fails, naming the failure in its why.
fn assert_used_before_defined_agrees(
    (file, before): (&str, &str),
    cases: &[(&str, String, bool)],
    run: Run,
) {
    use srview::diagnose::layout::{BreakKind, layout_break};
    for (what, result, doubted) in cases {
        let fails = (run.fails)(result);
        let found = layout_break(file, before, result);
        let said = found
            .as_ref()
            .filter(|b| b.kind == BreakKind::UsedBeforeDefined);
        assert_eq!(said.is_some(), *doubted, "{what}: {found:?}");
        assert!(!doubted || fails, "{what}: doubted, but it runs");
        assert_eq!(
            said.is_some(),
            fails,
            "{what}: {}{}",
            if fails { "" } else { "not so: " },
            run.says
        );
        if let Some(b) = said {
            assert_eq!(b.leaves(), "using a name before it defines it");
            assert_contains(&b.why, run.why);
        }
    }
}

// --- A Python name defined after the code that runs it (T-06) ---

/// `text` run by python3 as a script: whether it died with NameError.
fn python_raises_name_error(text: &str) -> bool {
    let dir = tempfile::tempdir().expect("temp dir");
    let script = dir.path().join("app.py");
    std::fs::write(&script, text).expect("write app.py");
    let out = std::process::Command::new("python3")
        .arg(&script)
        .output()
        .expect("python3 runs");
    String::from_utf8_lossy(&out.stderr).contains("NameError")
}

/// Edits of a script (the tester's find, T-06, and its look-alikes): each
/// result run by python3. A doubt is said only of a result python3 dies on
/// with NameError, and of every one listed as certain; a result that runs
/// is never doubted. `(what, result, doubted)`; the file before is `APP`.
#[test]
fn definitions_after_the_code_that_runs_them_agree_with_python3() {
    use srview::diagnose::layout::layout_break;
    const APP: &str = "import sys\n\n\ndef main():\n    print(\"start\")\n\n\nif __name__ == \"__main__\":\n    main()\n";
    let guard = "\n\nif __name__ == \"__main__\":\n    main()\n";
    let uses = "import sys\n\n\ndef main():\n    print(\"start\", helper())\n";
    let helper = "\n\ndef helper():\n    return 42\n";
    let cases: Vec<(&str, String, bool)> = vec![
        ("appended after the guard", format!("{uses}{guard}{helper}"), true),
        ("above the guard", format!("{uses}{helper}{guard}"), false),
        (
            "a top-level call",
            format!("{uses}\n\nmain(){helper}"),
            true,
        ),
        (
            "sys.exit(main())",
            format!("{uses}\n\nif __name__ == \"__main__\":\n    sys.exit(main()){helper}"),
            true,
        ),
        (
            "a constant",
            "def main():\n    print(LIMIT)\n\n\nif __name__ == \"__main__\":\n    main()\n\nLIMIT = 3\n"
                .to_string(),
            true,
        ),
        (
            "a class, through two functions",
            "def make():\n    return Thing()\n\n\ndef main():\n    make()\n\n\nif __name__ == '__main__':\n    main()\n\n\nclass Thing:\n    pass\n"
                .to_string(),
            true,
        ),
        (
            "used under an if",
            format!(
                "import sys\n\n\ndef main():\n    if len(sys.argv) > 5:\n        helper()\n{guard}{helper}"
            ),
            false,
        ),
        (
            "after an early return",
            format!("import sys\n\n\ndef main():\n    return\n    helper()\n{guard}{helper}"),
            false,
        ),
        (
            "after an exit under an if",
            format!(
                "import sys\n\n\ndef main():\n    if True:\n        sys.exit(0)\n    helper()\n{guard}{helper}"
            ),
            false,
        ),
        (
            "in a lambda",
            format!("import sys\n\n\ndef main():\n    f = lambda: helper()\n{guard}{helper}"),
            false,
        ),
        (
            "in a comprehension over nothing",
            format!("import sys\n\n\ndef main():\n    [helper() for _ in []]\n{guard}{helper}"),
            false,
        ),
        (
            "after `and`",
            format!("import sys\n\n\ndef main():\n    False and helper()\n{guard}{helper}"),
            false,
        ),
        (
            "a function never called",
            format!("{uses}\n\ndef other():\n    return 1\n\n\nif __name__ == \"__main__\":\n    other()\n{helper}"),
            false,
        ),
        (
            "a parameter of that name",
            format!("import sys\n\n\ndef main(helper=print):\n    helper()\n{guard}{helper}"),
            false,
        ),
        (
            "an attribute of that name",
            format!("import sys\n\n\ndef main():\n    sys.helper = 1\n{guard}{helper}"),
            false,
        ),
        (
            "a nested function",
            format!(
                "import sys\n\n\ndef main():\n    def inner():\n        return helper()\n    return 1\n{guard}{helper}"
            ),
            false,
        ),
    ];
    let python3 = Run {
        fails: python_raises_name_error,
        says: "python3 dies with NameError",
        why: "running the file raises NameError",
    };
    assert_used_before_defined_agrees(("app.py", APP), &cases, python3);
    // The file before already so: not the edit's doing, nothing said.
    let late = format!("{uses}{guard}{helper}");
    let touched = late.replace("\"start\"", "\"begin\"");
    assert_eq!(layout_break("app.py", &late, &touched), None);
}

/// `text` run by bash as a script (no argument): whether it printed
/// `command not found`.
fn bash_command_not_found(text: &str) -> bool {
    bash_stderr(text).contains("command not found")
}

/// The shell sibling (round 45, T-11): a function appended after the
/// script's top-level `main "$@"`, called by `main`, and its look-alikes,
/// each result run by bash. A doubt is said only of a result bash stops on
/// with `command not found`, and of every one listed as certain; one that
/// runs is never doubted. The judgment is doubt_late's, shared with
/// Python's. `(what, result, doubted)`; the script before is `RUN`.
#[test]
fn shell_functions_defined_after_the_call_that_runs_them_agree_with_bash() {
    use srview::diagnose::layout::layout_break;
    const RUN: &str =
        "#!/usr/bin/env bash\nset -euo pipefail\n\nmain() {\n  greet \"$@\"\n}\n\nmain \"$@\"\n";
    let greet = "\ngreet() {\n  echo \"hello, ${1:-world}\"\n}\n";
    let cases: Vec<(&str, String, bool)> = vec![
        ("appended after main \"$@\"", format!("{RUN}{greet}"), true),
        (
            "above main \"$@\"",
            RUN.replace("\nmain \"$@\"\n", &format!("{greet}\nmain \"$@\"\n")),
            false,
        ),
        (
            "called at the top level itself",
            format!("#!/bin/sh\ngreet world\n{greet}"),
            true,
        ),
        (
            "through two functions",
            "#!/bin/bash\nrun() {\n  greet x\n}\nmain() {\n  run\n}\nmain\ngreet() {\n  echo hi\n}\n"
                .to_string(),
            true,
        ),
        (
            "with the function keyword",
            format!("{RUN}\nfunction greet {{\n  echo hi\n}}\n"),
            true,
        ),
        (
            "used under an if",
            "#!/bin/bash\nmain() {\n  if [ $# -gt 5 ]; then\n    greet\n  fi\n}\nmain\ngreet() {\n  echo hi\n}\n"
                .to_string(),
            false,
        ),
        (
            "after a return",
            "#!/bin/bash\nmain() {\n  return 0\n  greet\n}\nmain\ngreet() {\n  echo hi\n}\n"
                .to_string(),
            false,
        ),
        (
            "after a top-level exit",
            "#!/bin/bash\nmain() {\n  echo start\n}\nmain\nexit 0\ngreet() {\n  echo hi\n}\ngreet\n"
                .to_string(),
            false,
        ),
        (
            "a function never called",
            format!("#!/bin/bash\nmain() {{\n  echo start\n}}\nmain\n{greet}"),
            false,
        ),
        (
            "a main run at the end",
            format!("#!/bin/bash\nmain() {{\n  greet\n}}\n{greet}\nmain\n"),
            false,
        ),
        // Tester 46, T-12: the entry point behind a `BASH_SOURCE` guard.
        (
            "after an if BASH_SOURCE guard",
            format!(
                "{}{greet}",
                RUN.replace(
                    "\nmain \"$@\"\n",
                    "\nif [[ \"${BASH_SOURCE[0]}\" == \"${0}\" ]]; then\n  main \"$@\"\nfi\n"
                )
            ),
            true,
        ),
        // wt-sh47's leftover: the guard's `then` on a line of its own.
        (
            "after an if guard whose then stands alone",
            format!(
                "{}{greet}",
                RUN.replace(
                    "\nmain \"$@\"\n",
                    "\nif [[ \"${BASH_SOURCE[0]}\" == \"$0\" ]]\nthen\n  main \"$@\"\nfi\n"
                )
            ),
            true,
        ),
        (
            "after an if guard whose then line runs main",
            format!(
                "{}{greet}",
                RUN.replace(
                    "\nmain \"$@\"\n",
                    "\nif [ \"$0\" = \"$BASH_SOURCE\" ]\nthen main \"$@\"\nfi\n"
                )
            ),
            true,
        ),
        (
            "behind an if on the arguments whose then stands alone",
            format!(
                "{}{greet}",
                RUN.replace(
                    "\nmain \"$@\"\n",
                    "\nif [[ $# -gt 0 ]]\nthen\n  main \"$@\"\nfi\n"
                )
            ),
            false,
        ),
        (
            "after a one-line if guard",
            format!(
                "{}{greet}",
                RUN.replace(
                    "\nmain \"$@\"\n",
                    "\nif [ \"$0\" = \"$BASH_SOURCE\" ]; then main \"$@\"; fi\n"
                )
            ),
            true,
        ),
        (
            "after a && guard",
            format!(
                "{}{greet}",
                RUN.replace(
                    "\nmain \"$@\"\n",
                    "\n[[ \"${BASH_SOURCE[0]}\" == \"${0}\" ]] && main \"$@\"\n"
                )
            ),
            true,
        ),
        (
            "after a [ $0 = $BASH_SOURCE ] && main",
            format!(
                "{}{greet}",
                RUN.replace("\nmain \"$@\"\n", "\n[ \"$0\" = \"$BASH_SOURCE\" ] && main\n")
            ),
            true,
        ),
        (
            "after a != guard with ||",
            format!(
                "{}{greet}",
                RUN.replace(
                    "\nmain \"$@\"\n",
                    "\n[[ \"${BASH_SOURCE[0]}\" != \"$0\" ]] || main \"$@\"\n"
                )
            ),
            true,
        ),
        (
            "after a (return 0) probe",
            format!(
                "{}{greet}",
                RUN.replace("\nmain \"$@\"\n", "\n(return 0 2>/dev/null) || main \"$@\"\n")
            ),
            true,
        ),
        (
            "after set -- then main on one line",
            format!(
                "{}{greet}",
                RUN.replace("\nmain \"$@\"\n", "\nset -- \"$@\"; main \"$@\"\n")
            ),
            true,
        ),
        (
            "behind a test on the arguments",
            format!(
                "{}{greet}",
                RUN.replace("\nmain \"$@\"\n", "\n[[ $# -gt 0 ]] && main \"$@\"\n")
            ),
            false,
        ),
        (
            "in a guard's else branch",
            format!(
                "{}{greet}",
                RUN.replace(
                    "\nmain \"$@\"\n",
                    "\nif [[ \"${BASH_SOURCE[0]}\" == \"$0\" ]]; then\n  echo run\nelse\n  main\nfi\n"
                )
            ),
            false,
        ),
        (
            "in a quoted ; inside an echo",
            format!(
                "{}{greet}",
                RUN.replace("\nmain \"$@\"\n", "\necho \"ready; greet now\"\n")
            ),
            false,
        ),
    ];
    let bash = Run {
        fails: bash_command_not_found,
        says: "bash stops with command not found",
        why: ": command not found`",
    };
    assert_used_before_defined_agrees(("run.sh", RUN), &cases, bash);
    // The tester's script, said in full.
    let said = layout_break("run.sh", RUN, &format!("{RUN}{greet}")).map(|b| b.why);
    assert_eq!(
        said.as_deref(),
        Some(
            "line 10 defines `greet` (`greet() {`) after line 8 (`main \"$@\"`), which runs \
             first, when the script runs, and uses it through `main` (line 5: `greet \"$@\"`): \
             running the script fails at line 5 with `greet: command not found`: define `greet` \
             above line 8 (`main \"$@\"`), or run that code after the definition"
        )
    );
    // The script before already so: nothing said.
    let late = format!("{RUN}{greet}");
    assert_eq!(
        layout_break("run.sh", &late, &late.replace("hello", "hi")),
        None
    );
}

/// The tester's find (T-09): a Claude Code `Write` of a README whose
/// content is the file twice. `check` exits 1 naming the lines written
/// twice, `apply --write` holds it back (the file unchanged); the same
/// content once is written.
#[test]
fn a_write_of_the_file_twice_is_held_back() {
    let readme = "# Project\n\nA tool for X.\n\n## Install\n\n    pip install x\n\n## Usage\n\nRun `x --help`.\n";
    let edited = readme.replace("for X.", "for X and Y.");
    let run = |content: &str| {
        let write = serde_json::json!({"file_path": "NOTES.md", "content": content}).to_string();
        check_then_apply(("NOTES.md", readme), ("write.json", &write))
    };
    assert_held_back(
        "NOTES.md",
        &run(&format!("{edited}\n{edited}")),
        "its content holds lines 1-11 twice, back to back (lines 1-11 and 13-23, from \
         `# Project` to `Run `x --help`.`)",
        readme,
    );
    assert_written(&run(&edited), &edited);
}

/// node's reading of lines starting with `(` or `[` inserted into
/// JavaScript written without semicolons (tests/fixtures/trust/asi/
/// cases.json, written by record.py there; a tester's find, 44-17):
/// srview doubts every line node reads as continuing the statement above
/// (but those it knowingly leaves, each saying why), none node reads as a
/// statement of its own, and a semicolon it offers is one node reads.
#[test]
fn statement_joins_agree_with_node() {
    use srview::diagnose::layout::{BreakKind, layout_break};
    let cases = recorded_cases("asi");
    let count = |verdict: &str| cases.iter().filter(|c| c["join"] == verdict).count();
    assert!(cases.len() >= 15 && count("join") >= 8 && count("no join") >= 5);
    for case in &cases {
        let (name, before, after) = case_texts(case);
        let doubt = layout_break("a.js", before, after);
        let doubted = doubt
            .as_ref()
            .is_some_and(|d| d.kind == BreakKind::JoinsStatements);
        match case["join"].as_str().expect("a verdict") {
            _ if case.get("srview_silent").is_some() => assert!(!doubted, "{name}"),
            "join" => assert!(doubted, "{name}: {doubt:?}"),
            "no join" => assert!(!doubted, "{name}: {doubt:?}"),
            _ => {}
        }
        let offered = doubt.is_some_and(|d| d.why.contains("with a semicolon (`;"));
        if offered {
            assert_eq!(case["semicolon"], "reads", "{name}");
        }
    }
}

/// What node, gcc, javac, rustc and python3 do with a name used in
/// another Unicode normalisation than it is declared in
/// (tests/fixtures/trust/normal/cases.json, written by record.py there; a
/// tester's find, 44-10): srview doubts exactly the edits a tool refuses,
/// naming the name, and none it runs (Python and Rust normalise names).
#[test]
fn names_in_two_forms_agree_with_the_languages() {
    use srview::diagnose::layout::{BreakKind, layout_break};
    let cases = recorded_cases("normal");
    let runs = cases.iter().filter(|c| c["verdict"] == "runs").count();
    assert!(cases.len() >= 10 && runs >= 5 && cases.len() - runs >= 4);
    for case in &cases {
        let (name, before, after) = case_texts(case);
        let path = case["path"].as_str().expect("a path");
        let doubt = layout_break(path, before, after);
        if case["verdict"] == "runs" {
            assert_eq!(doubt, None, "{name}");
            continue;
        }
        let doubt = doubt.expect(name);
        assert_eq!(doubt.kind, BreakKind::OtherForm, "{name}");
        assert!(
            doubt.why.starts_with("line ") && doubt.why.contains(" writes the name `caf"),
            "{name}: {}",
            doubt.why
        );
    }
}
