//! Splitting input bytes into the units a parser reads: complete lines,
//! complete top-level JSON objects, or one whole document.

use std::ops::Range;

/// Bytes received and not yet handed out.
pub(super) struct Input {
    buf: Vec<u8>,
    /// Where unread bytes start in `buf` (consumed bytes are dropped in
    /// batches, so a huge input is never held whole).
    start: usize,
    mode: Mode,
}

enum Mode {
    Lines,
    Objects(Scan),
    Document,
}

/// The state of the object scanner between pushes.
#[derive(Default)]
struct Scan {
    /// Next byte to look at (absolute index into `buf`).
    pos: usize,
    /// Where the object being read starts.
    object: Option<usize>,
    depth: usize,
    strings: JsonStrings,
}

/// Follows the strings of a JSON text read byte by byte (their quotes and
/// backslash escapes), so that a scanner of its structure takes no
/// bracket, comma, colon or quote inside a string for one. Every byte of
/// JSON's structure is ASCII: UTF-8 text scans as bytes.
#[derive(Debug, Default, Clone, Copy)]
pub(super) struct JsonStrings {
    in_string: bool,
    escaped: bool,
}

/// Where a byte [`JsonStrings::take`] took falls.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum JsonByte {
    /// Outside every string: the text's structure (the quote that opens a
    /// string included).
    Structure,
    /// Inside a string, its escapes included.
    InString,
    /// The quote that closes a string.
    StringEnd,
}

impl JsonStrings {
    /// Takes the text's next byte.
    pub(super) fn take(&mut self, b: u8) -> JsonByte {
        if !self.in_string {
            self.in_string = b == b'"';
            return JsonByte::Structure;
        }
        if self.escaped {
            self.escaped = false;
        } else if b == b'\\' {
            self.escaped = true;
        } else if b == b'"' {
            self.in_string = false;
            return JsonByte::StringEnd;
        }
        JsonByte::InString
    }

    /// The bytes taken end inside a string.
    pub(super) fn in_string(&self) -> bool {
        self.in_string
    }

    /// The last byte taken is a backslash inside a string (the next one
    /// is escaped).
    pub(super) fn escaped(&self) -> bool {
        self.escaped
    }
}

impl Input {
    pub(super) fn lines() -> Input {
        Input::with(Mode::Lines)
    }

    pub(super) fn objects() -> Input {
        Input::with(Mode::Objects(Scan::default()))
    }

    pub(super) fn document() -> Input {
        Input::with(Mode::Document)
    }

    fn with(mode: Mode) -> Input {
        Input {
            buf: Vec::new(),
            start: 0,
            mode,
        }
    }

    pub(super) fn push(&mut self, bytes: &[u8]) {
        if self.start > 0 && self.start * 2 >= self.buf.len() {
            self.drop_read();
        }
        self.buf.extend_from_slice(bytes);
    }

    /// Drops the bytes handed out already.
    fn drop_read(&mut self) {
        self.buf.drain(..self.start);
        if let Mode::Objects(scan) = &mut self.mode {
            scan.pos -= self.start;
            scan.object = scan.object.map(|o| o - self.start);
        }
        self.start = 0;
    }

    /// Gives back the memory of the bytes handed out, once no more input
    /// comes (a reader kept after the end of a huge session, beside the
    /// review of all of it, keeps no buffer the size of the pieces it was
    /// fed).
    pub(super) fn release(&mut self) {
        self.drop_read();
        self.buf.shrink_to_fit();
    }

    /// Where the next complete unit is, for [`Input::unit`] (not copied);
    /// at the end of the input, a torn last line too (a torn object is
    /// dropped: it cannot be read).
    pub(super) fn next_unit(&mut self, at_end: bool) -> Option<Range<usize>> {
        match &mut self.mode {
            Mode::Lines => {
                let from = self.start;
                let rest = &self.buf[from..];
                if let Some(i) = memchr::memchr(b'\n', rest) {
                    let end = if i > 0 && rest[i - 1] == b'\r' {
                        i - 1
                    } else {
                        i
                    };
                    self.start += i + 1;
                    Some(from..from + end)
                } else if at_end && !rest.is_empty() {
                    self.start = self.buf.len();
                    Some(from..self.buf.len())
                } else {
                    None
                }
            }
            Mode::Document => {
                if at_end && self.start < self.buf.len() {
                    let from = self.start;
                    self.start = self.buf.len();
                    Some(from..self.buf.len())
                } else {
                    None
                }
            }
            Mode::Objects(scan) => {
                let found = scan.next(&self.buf, self.start.max(scan.pos));
                match found {
                    Some((from, to)) => {
                        self.start = to;
                        Some(from..to)
                    }
                    None => {
                        if scan.object.is_none() {
                            // Text between objects is skipped.
                            self.start = self.buf.len();
                        }
                        None
                    }
                }
            }
        }
    }

    /// The bytes of a unit [`Input::next_unit`] gave (until the next push).
    pub(super) fn unit(&self, range: Range<usize>) -> &[u8] {
        &self.buf[range]
    }

    /// The torn last line, for a parser that previews text as it streams.
    /// Whether the input so far ends inside a unit: a line without its
    /// end, or an object not closed (call before reading at the end).
    /// Every complete unit must have been read (`next_unit` until `None`).
    pub(super) fn ends_inside_unit(&self) -> bool {
        match &self.mode {
            Mode::Lines => self.start < self.buf.len(),
            // The scan stopped inside an object it has not seen close.
            Mode::Objects(scan) => scan.object.is_some(),
            Mode::Document => false,
        }
    }

    pub(super) fn pending_text(&self) -> Option<String> {
        match self.mode {
            Mode::Lines if self.start < self.buf.len() => {
                Some(String::from_utf8_lossy(&self.buf[self.start..]).into_owned())
            }
            _ => None,
        }
    }
}

impl Scan {
    /// Scans `buf` from `from` for the end of a top-level object; returns
    /// its byte range. Brackets count inside an object only, so both a
    /// stream of objects and an array of objects give the objects.
    fn next(&mut self, buf: &[u8], from: usize) -> Option<(usize, usize)> {
        let mut i = from;
        while i < buf.len() {
            let b = buf[i];
            if self.object.is_none() {
                if b == b'{' {
                    self.object = Some(i);
                    self.depth = 1;
                    self.strings = JsonStrings::default();
                }
            } else if self.strings.take(b) == JsonByte::Structure {
                match b {
                    b'{' | b'[' => self.depth += 1,
                    b'}' | b']' => {
                        self.depth -= 1;
                        if self.depth == 0 {
                            let start = self.object.take().unwrap_or(i);
                            self.pos = i + 1;
                            return Some((start, i + 1));
                        }
                    }
                    _ => {}
                }
            }
            i += 1;
        }
        self.pos = i;
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn next(input: &mut Input, at_end: bool) -> Option<Vec<u8>> {
        input.next_unit(at_end).map(|r| input.unit(r).to_vec())
    }

    #[test]
    fn a_torn_line_waits_until_it_grows() {
        let mut input = Input::lines();
        input.push(b"one\ntw");
        assert_eq!(next(&mut input, false), Some(b"one".to_vec()));
        assert_eq!(next(&mut input, false), None);
        input.push(b"o\r\nthr");
        assert_eq!(next(&mut input, false), Some(b"two".to_vec()));
        assert_eq!(next(&mut input, true), Some(b"thr".to_vec()));
        assert_eq!(next(&mut input, true), None);
    }

    #[test]
    fn an_object_left_open_is_a_torn_end() {
        let mut input = Input::objects();
        input.push(b"[{\"a\": 1},\n {\"b\"");
        while input.next_unit(false).is_some() {}
        assert!(input.ends_inside_unit());
        input.push(b": 2}]");
        while input.next_unit(false).is_some() {}
        assert!(!input.ends_inside_unit());
        let mut lines = Input::lines();
        lines.push(b"one\ntw");
        while lines.next_unit(false).is_some() {}
        assert!(lines.ends_inside_unit());
    }

    #[test]
    fn objects_are_cut_from_arrays_streams_and_pretty_text() {
        let mut input = Input::objects();
        input.push(b"header line\n[{\"a\": \"}{\\\"\", \"b\": [1, {\"c\": 2}]},\n {\"d\"");
        assert_eq!(
            next(&mut input, false),
            Some(b"{\"a\": \"}{\\\"\", \"b\": [1, {\"c\": 2}]}".to_vec())
        );
        assert_eq!(next(&mut input, false), None);
        input.push(b": 1}]");
        assert_eq!(next(&mut input, false), Some(b"{\"d\": 1}".to_vec()));
        assert_eq!(next(&mut input, true), None);
    }
}
