//! Colours and symbols. Every colour has a symbol or word beside it, so the
//! screen stays readable with `NO_COLOR` and on 256-colour terminals.

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
    OutOfOrder,
    Unattributed,
}

impl Tint {
    /// One-character gutter symbol (the stage readable without colour).
    pub fn symbol(self) -> &'static str {
        match self {
            Tint::Stage(Stage::Exact) => "E",
            Tint::Stage(Stage::LineTrimmed) => "T",
            Tint::Stage(Stage::BlockAnchor) => "A",
            Tint::Stage(Stage::WholeFile) => "W",
            Tint::Stage(Stage::Empty) => "∅",
            Tint::OutOfOrder => "O",
            Tint::Unattributed => "?",
        }
    }

    fn rgb(self) -> (u8, u8, u8) {
        match self {
            Tint::Stage(Stage::Exact) | Tint::Stage(Stage::Empty) => (24, 64, 36),
            Tint::Stage(Stage::LineTrimmed) => (22, 52, 82),
            Tint::Stage(Stage::BlockAnchor) => (86, 66, 12),
            Tint::Stage(Stage::WholeFile) | Tint::OutOfOrder => (78, 28, 78),
            Tint::Unattributed => (60, 60, 60),
        }
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
        self.with_bg(tint.rgb())
    }

    /// Words that differ inside a changed line: brighter than the line's tint.
    pub fn word(&self, tint: Tint) -> Style {
        let (r, g, b) = tint.rgb();
        let bright = (
            r.saturating_mul(2),
            g.saturating_mul(2),
            b.saturating_mul(2),
        );
        match self.mode {
            ColourMode::None => Style::new().add_modifier(Modifier::UNDERLINED),
            // A fixed light foreground: syntax colours vanish on a bright tint.
            _ => match self.colour((250, 250, 250)) {
                Some(fg) => self.with_bg(bright).fg(fg).add_modifier(Modifier::BOLD),
                None => self.with_bg(bright).add_modifier(Modifier::BOLD),
            },
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
        let (r, g, b) = tint.rgb();
        self.fg_style((
            r.saturating_mul(3),
            g.saturating_mul(3),
            b.saturating_mul(3),
        ))
    }

    fn fg_style(&self, rgb: (u8, u8, u8)) -> Style {
        match self.colour(rgb) {
            Some(c) => Style::new().fg(c),
            None => Style::new(),
        }
    }

    /// The selected block or tab: a background of its own where colour is
    /// allowed (reverse video would turn a coloured word into a block).
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

    #[test]
    fn no_colour_keeps_symbols() {
        let t = Theme::new(ColourMode::None);
        assert_eq!(t.change(Tint::Stage(Stage::LineTrimmed)), Style::new());
        assert_eq!(Tint::Stage(Stage::BlockAnchor).symbol(), "A");
    }
}
