//! Colours and symbols. Every colour has a symbol or word beside it, so the
//! screen stays readable with `NO_COLOR` and on 256-colour terminals.

use crate::diagnose::Side;
use ratatui::style::{Color, Modifier, Style};

use crate::engine::Stage;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ColourMode {
    None,
    Ansi256,
    TrueColor,
}

impl ColourMode {
    /// From the environment: `NO_COLOR` set (to anything) disables colour;
    /// `COLORTERM=truecolor|24bit` enables 24-bit colour.
    pub fn from_env() -> Self {
        if std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty()) {
            return ColourMode::None;
        }
        match std::env::var("COLORTERM").as_deref() {
            Ok("truecolor") | Ok("24bit") => ColourMode::TrueColor,
            _ => ColourMode::Ansi256,
        }
    }
}

/// How a row of a change is tinted: by the stage that matched its block.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tint {
    Stage(Stage),
    /// An apply_patch hunk matched only with typographic look-alikes read
    /// as ASCII (the `unicode` level).
    Unicode,
    /// An agent's fuzzy stage placed it: text that differs beyond white
    /// space (Gemini CLI's `fuzzy`, OpenCode's `EscapeNormalizedReplacer`).
    Fuzzy,
    OutOfOrder,
    Unattributed,
}

/// A 24-bit colour.
type Rgb = (u8, u8, u8);
/// Three 256-colour palette entries: (row tint, changed words, stage word).
type Palette = (u8, u8, u8);

impl Tint {
    /// How the tint is drawn, in one table: its one-character gutter symbol
    /// (the stage readable without colour); its row tint on a 24-bit
    /// terminal, a hue of its own per stage (exact green, line-trimmed blue,
    /// block-anchor amber, whole-file and out-of-order magenta) so two
    /// stages are told apart at a glance; and the same hues chosen by hand
    /// from the 256-colour palette as (row tint, changed words, stage word):
    /// the nearest cube colours of the 24-bit tints would put exact (22) and
    /// line-trimmed (23) next to each other.
    fn drawn(self) -> (&'static str, Rgb, Palette) {
        match self {
            Tint::Stage(Stage::Exact) => ("E", (20, 72, 32), (22, 28, 77)),
            Tint::Stage(Stage::Empty) => ("∅", (20, 72, 32), (22, 28, 77)),
            Tint::Stage(Stage::LineTrimmed) => ("T", (24, 48, 112), (18, 26, 75)),
            Tint::Unicode => ("U", (24, 48, 112), (18, 26, 75)),
            Tint::Stage(Stage::BlockAnchor) => ("A", (100, 70, 0), (94, 136, 214)),
            Tint::Fuzzy => ("F", (100, 70, 0), (94, 136, 214)),
            Tint::Stage(Stage::WholeFile) => ("W", (100, 20, 80), (53, 90, 170)),
            Tint::OutOfOrder => ("O", (100, 20, 80), (53, 90, 170)),
            Tint::Unattributed => ("?", (60, 60, 60), (237, 240, 250)),
        }
    }

    /// One-character gutter symbol (the stage readable without colour).
    pub fn symbol(self) -> &'static str {
        self.drawn().0
    }

    /// The row tint on a 24-bit terminal.
    pub fn rgb(self) -> Rgb {
        self.drawn().1
    }

    /// The 256-colour palette entries: (row tint, changed words, stage word).
    fn palette(self) -> Palette {
        self.drawn().2
    }
}

#[derive(Debug, Clone, Copy)]
pub struct Theme {
    pub mode: ColourMode,
}

impl Theme {
    pub fn new(mode: ColourMode) -> Self {
        Theme { mode }
    }

    pub fn colour(&self, (r, g, b): (u8, u8, u8)) -> Option<Color> {
        match self.mode {
            ColourMode::None => None,
            ColourMode::TrueColor => Some(Color::Rgb(r, g, b)),
            ColourMode::Ansi256 => Some(Color::Indexed(to_256(r, g, b))),
        }
    }

    /// A syntax colour as the terminal can show it.
    pub fn fg(&self, c: Color) -> Option<Color> {
        match c {
            Color::Rgb(r, g, b) => self.colour((r, g, b)),
            other if self.mode != ColourMode::None => Some(other),
            _ => None,
        }
    }

    fn with_bg(&self, rgb: (u8, u8, u8)) -> Style {
        match self.colour(rgb) {
            Some(c) => Style::new().bg(c),
            None => Style::new(),
        }
    }

    pub fn change(&self, tint: Tint) -> Style {
        match self.mode {
            ColourMode::Ansi256 => Style::new().bg(Color::Indexed(tint.palette().0)),
            _ => self.with_bg(tint.rgb()),
        }
    }

    /// The style of a row's empty columns right of its text: the row's
    /// background only, so a tint covers the whole pane width, as in delta.
    pub fn fill(base: Style) -> Style {
        match base.bg {
            Some(bg) => Style::new().bg(bg),
            None => Style::new(),
        }
    }

    /// Words that differ inside a changed line: brighter than the line's tint.
    pub fn word(&self, tint: Tint) -> Style {
        let (r, g, b) = tint.rgb();
        let bright = (
            r.saturating_mul(2),
            g.saturating_mul(2),
            b.saturating_mul(2),
        );
        let bg = match self.mode {
            ColourMode::None => return Style::new().add_modifier(Modifier::UNDERLINED),
            ColourMode::Ansi256 => Style::new().bg(Color::Indexed(tint.palette().1)),
            ColourMode::TrueColor => self.with_bg(bright),
        };
        // A fixed light foreground: syntax colours vanish on a bright tint.
        match self.colour((250, 250, 250)) {
            Some(fg) => bg.fg(fg).add_modifier(Modifier::BOLD),
            None => bg.add_modifier(Modifier::BOLD),
        }
    }

    /// Original lines the stream has not reached, on the result side.
    pub fn pending(&self) -> Style {
        match self.colour((110, 110, 110)) {
            Some(c) => Style::new().fg(c).add_modifier(Modifier::DIM),
            None => Style::new().add_modifier(Modifier::DIM),
        }
    }

    /// Where a failing block should have matched.
    pub fn closest(&self) -> Style {
        match self.colour((90, 30, 30)) {
            Some(c) => Style::new().bg(c),
            None => Style::new().add_modifier(Modifier::UNDERLINED),
        }
    }

    pub fn gutter(&self) -> Style {
        match self.colour((120, 120, 130)) {
            Some(c) => Style::new().fg(c),
            None => Style::new(),
        }
    }

    pub fn streaming_line(&self) -> Style {
        Style::new().add_modifier(Modifier::BOLD)
    }

    pub fn bar(&self) -> Style {
        match (self.colour((40, 44, 52)), self.colour((220, 220, 220))) {
            (Some(bg), Some(fg)) => Style::new().bg(bg).fg(fg),
            _ => Style::new().add_modifier(Modifier::REVERSED),
        }
    }

    pub fn ok(&self) -> Style {
        self.fg_style((110, 200, 120))
    }

    pub fn bad(&self) -> Style {
        self.fg_style((235, 100, 100)).add_modifier(Modifier::BOLD)
    }

    pub fn warn(&self) -> Style {
        self.fg_style((225, 190, 90))
    }

    pub fn stage_word(&self, tint: Tint) -> Style {
        if self.mode == ColourMode::Ansi256 {
            return Style::new().fg(Color::Indexed(tint.palette().2));
        }
        let (r, g, b) = tint.rgb();
        self.fg_style((
            r.saturating_mul(3),
            g.saturating_mul(3),
            b.saturating_mul(3),
        ))
    }

    /// A line of the SEARCH-against-file diff in the blocks pane, by its
    /// tag: `delete` (SEARCH only), `insert` (file only) or `equal`.
    pub fn diagnosis_line(&self, tag: Side) -> Style {
        match tag {
            Side::Delete => self.fg_style((235, 100, 100)),
            Side::Insert => self.fg_style((110, 200, 120)),
            Side::Equal => self.gutter(),
        }
    }

    /// The words that differ inside such a line: underlined, so they show
    /// without colour too.
    pub fn diagnosis_word(&self, tag: Side) -> Style {
        self.diagnosis_line(tag)
            .add_modifier(Modifier::BOLD | Modifier::UNDERLINED)
    }

    fn fg_style(&self, rgb: (u8, u8, u8)) -> Style {
        match self.colour(rgb) {
            Some(c) => Style::new().fg(c),
            None => Style::new(),
        }
    }

    /// The selected block or tab: a background of its own where colour is
    /// allowed (reverse video would turn a coloured word into a block).
    /// A match of the `/` search in the panes: reversed, readable in
    /// every colour mode (NO_COLOR included).
    pub fn search_match(&self) -> Style {
        Style::new().add_modifier(Modifier::REVERSED | Modifier::BOLD)
    }

    pub fn selected(&self) -> Style {
        match self.colour((70, 80, 115)) {
            Some(bg) => Style::new().bg(bg).add_modifier(Modifier::BOLD),
            None => Style::new().add_modifier(Modifier::REVERSED),
        }
    }
}

/// Nearest colour of xterm's 6x6x6 cube.
fn to_256(r: u8, g: u8, b: u8) -> u8 {
    let q = |v: u8| -> u8 {
        if v < 48 {
            0
        } else if v < 115 {
            1
        } else {
            (v - 35) / 40
        }
    };
    16 + 36 * q(r) + 6 * q(g) + q(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cube_mapping_hits_corners() {
        assert_eq!(to_256(0, 0, 0), 16);
        assert_eq!(to_256(255, 255, 255), 231);
        assert_eq!(to_256(255, 0, 0), 196);
    }

    /// xterm's RGB for a palette index of the 6x6x6 cube or the grey ramp.
    fn xterm_rgb(i: u8) -> (u8, u8, u8) {
        match i {
            16..=231 => {
                let level = |v: u8| if v == 0 { 0 } else { 55 + 40 * v };
                let i = i - 16;
                (level(i / 36), level(i / 6 % 6), level(i % 6))
            }
            232..=255 => {
                let v = 8 + 10 * (i - 232);
                (v, v, v)
            }
            _ => panic!("not a cube or grey colour: {i}"),
        }
    }

    fn distance(a: (u8, u8, u8), b: (u8, u8, u8)) -> f64 {
        let d = |x: u8, y: u8| (f64::from(x) - f64::from(y)).powi(2);
        (d(a.0, b.0) + d(a.1, b.1) + d(a.2, b.2)).sqrt()
    }

    fn rgb_of(theme: &Theme, tint: Tint) -> (u8, u8, u8) {
        match theme.change(tint).bg {
            Some(Color::Rgb(r, g, b)) => (r, g, b),
            Some(Color::Indexed(i)) => xterm_rgb(i),
            other => panic!("no tint colour: {other:?}"),
        }
    }

    /// Every pair of stage tints differs clearly, on 24-bit and on
    /// 256-colour terminals (where exact and line-trimmed used to be the
    /// neighbouring palette colours 22 and 23).
    #[test]
    fn stage_tints_are_told_apart() {
        let tints = [
            Tint::Stage(Stage::Exact),
            Tint::Stage(Stage::LineTrimmed),
            Tint::Stage(Stage::BlockAnchor),
            Tint::Stage(Stage::WholeFile),
        ];
        for (mode, floor) in [(ColourMode::TrueColor, 75.0), (ColourMode::Ansi256, 95.0)] {
            let theme = Theme::new(mode);
            for (i, &a) in tints.iter().enumerate() {
                for &b in &tints[i + 1..] {
                    let d = distance(rgb_of(&theme, a), rgb_of(&theme, b));
                    assert!(d > floor, "{mode:?}: {a:?} and {b:?} are {d:.0} apart");
                }
            }
        }
        let ansi = Theme::new(ColourMode::Ansi256);
        assert_ne!(
            ansi.change(Tint::Stage(Stage::Exact)).bg,
            Some(Color::Indexed(23)),
            "exact keeps its green"
        );
        assert_eq!(
            ansi.change(Tint::Stage(Stage::LineTrimmed)).bg,
            Some(Color::Indexed(18))
        );
    }

    #[test]
    fn no_colour_keeps_symbols() {
        let t = Theme::new(ColourMode::None);
        assert_eq!(t.change(Tint::Stage(Stage::LineTrimmed)), Style::new());
        assert_eq!(Tint::Stage(Stage::BlockAnchor).symbol(), "A");
    }
}
