//! The syntax pack: bat's grammars split so a file loads only the one it
//! needs (written by `examples/syntax_pack.rs`, which says why).
//!
//! Layout, integers little-endian u32:
//! `MAGIC`, catalogue length, catalogue, theme length, theme, entry count,
//! per entry (offset into the dumps, length, index of its syntax in the
//! dump), then the dumps. The catalogue is JSON (see `CatalogueEntry`); the
//! theme and dumps are syntect's uncompressed dumps.

use std::sync::OnceLock;

use serde::{Deserialize, Serialize};
use syntect::dumps;
use syntect::highlighting::Theme;
use syntect::parsing::{Regex, SyntaxSet};

const MAGIC: &[u8; 8] = b"SRVSYNP1";

/// Where one catalogue syntax's grammar is: which dump (of the syntax and
/// every syntax it embeds; several syntaxes may share one) and its index there.
/// (Written by `examples/syntax_pack.rs`, which compiles this file in; the
/// previewer only reads packs.)
#[allow(dead_code)]
pub struct PackEntry {
    pub dump: usize,
    pub index_in_dump: usize,
}

/// The pack's bytes (for `examples/syntax_pack.rs`). Panics if an entry
/// names a dump that is not in `dumps`.
#[allow(dead_code)]
pub fn encode(catalogue: &[u8], theme: &[u8], dumps: &[Vec<u8>], entries: &[PackEntry]) -> Vec<u8> {
    let mut out = MAGIC.to_vec();
    for part in [catalogue, theme] {
        push_u32(&mut out, part.len());
        out.extend_from_slice(part);
    }
    push_u32(&mut out, entries.len());
    let offsets: Vec<usize> = dumps
        .iter()
        .scan(0, |at, d| {
            let start = *at;
            *at += d.len();
            Some(start)
        })
        .collect();
    for e in entries {
        push_u32(&mut out, offsets[e.dump]);
        push_u32(&mut out, dumps[e.dump].len());
        push_u32(&mut out, e.index_in_dump);
    }
    for d in dumps {
        out.extend_from_slice(d);
    }
    out
}

#[allow(dead_code)] // by `encode`
fn push_u32(out: &mut Vec<u8>, n: usize) {
    let n = u32::try_from(n).expect("syntax pack parts are far below 4 GiB");
    out.extend_from_slice(&n.to_le_bytes());
}

/// A decoded view of a pack; nothing is deserialised until asked for.
pub struct Pack<'a> {
    catalogue: &'a [u8],
    theme: &'a [u8],
    table: &'a [u8],
    dumps: &'a [u8],
}

#[derive(Debug, thiserror::Error)]
#[error("syntax pack: {0}")]
pub struct PackError(pub String);

const ENTRY_BYTES: usize = 12;

impl<'a> Pack<'a> {
    pub fn decode(bytes: &'a [u8]) -> Result<Self, PackError> {
        let mut rest = bytes
            .strip_prefix(MAGIC.as_slice())
            .ok_or_else(|| PackError("wrong magic".into()))?;
        let catalogue = take_sized(&mut rest)?;
        let theme = take_sized(&mut rest)?;
        let count = take_u32(&mut rest)?;
        let table_len = count
            .checked_mul(ENTRY_BYTES)
            .filter(|&n| n <= rest.len())
            .ok_or_else(|| PackError("entry table runs past the end".into()))?;
        let (table, dumps) = rest.split_at(table_len);
        Ok(Pack {
            catalogue,
            theme,
            table,
            dumps,
        })
    }

    /// Every syntax's name, extensions and first-line pattern, without rules;
    /// its indices are the entries'.
    pub fn catalogue(&self) -> Result<Catalogue, PackError> {
        let entries: Vec<CatalogueEntry> =
            serde_json::from_slice(self.catalogue).map_err(|e| PackError(e.to_string()))?;
        Ok(Catalogue {
            entries,
            first_lines: OnceLock::new(),
        })
    }

    pub fn theme(&self) -> Result<Theme, PackError> {
        dumps::from_uncompressed_data(self.theme).map_err(|e| PackError(e.to_string()))
    }

    pub fn len(&self) -> usize {
        self.table.len() / ENTRY_BYTES
    }

    /// Where catalogue syntax `index`'s grammar is. Syntaxes that share a
    /// dump have equal `offset`s.
    pub fn entry(&self, index: usize) -> Result<Entry, PackError> {
        let mut row = self
            .table
            .get(index * ENTRY_BYTES..(index + 1) * ENTRY_BYTES)
            .ok_or_else(|| PackError(format!("no entry {index}")))?;
        Ok(Entry {
            offset: take_u32(&mut row)?,
            len: take_u32(&mut row)?,
            index_in_dump: take_u32(&mut row)?,
        })
    }

    /// The syntax set an entry points into.
    pub fn load(&self, entry: Entry) -> Result<SyntaxSet, PackError> {
        let dump = entry
            .offset
            .checked_add(entry.len)
            .and_then(|end| self.dumps.get(entry.offset..end))
            .ok_or_else(|| PackError(format!("dump at {} runs past the end", entry.offset)))?;
        let set: SyntaxSet =
            dumps::from_uncompressed_data(dump).map_err(|e| PackError(e.to_string()))?;
        if entry.index_in_dump >= set.syntaxes().len() {
            return Err(PackError(format!(
                "dump at {} has no syntax {}",
                entry.offset, entry.index_in_dump
            )));
        }
        Ok(set)
    }

    /// The grammar of catalogue syntax `index`: a set and the syntax's index in it.
    #[cfg(test)]
    pub fn grammar(&self, index: usize) -> Result<(SyntaxSet, usize), PackError> {
        let entry = self.entry(index)?;
        Ok((self.load(entry)?, entry.index_in_dump))
    }
}

/// One catalogue syntax's place in the pack.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Entry {
    pub offset: usize,
    pub len: usize,
    pub index_in_dump: usize,
}

/// How files are matched to one syntax. A few short strings: the syntect
/// `SyntaxReference` it stands for is about 450 bytes with its allocations.
#[derive(Debug, Serialize, Deserialize)]
pub struct CatalogueEntry {
    pub name: Box<str>,
    /// File extensions and whole file names, one per line.
    pub extensions: Box<str>,
    pub first_line: Option<Box<str>>,
}

/// syntect's lookups (`find_syntax_by_extension`, `find_syntax_by_first_line`)
/// over catalogue entries: later syntaxes win, as in the set.
pub struct Catalogue {
    entries: Vec<CatalogueEntry>,
    /// First-line patterns compiled on the first lookup, as syntect does.
    first_lines: OnceLock<Vec<(Regex, usize)>>,
}

impl Catalogue {
    pub fn empty() -> Self {
        Catalogue {
            entries: Vec::new(),
            first_lines: OnceLock::new(),
        }
    }

    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn name(&self, index: usize) -> Option<&str> {
        self.entries.get(index).map(|e| &*e.name)
    }

    pub fn by_extension(&self, extension: &str) -> Option<usize> {
        self.entries.iter().rposition(|e| {
            e.extensions
                .lines()
                .any(|x| x.eq_ignore_ascii_case(extension))
        })
    }

    pub fn by_first_line(&self, line: &str) -> Option<usize> {
        let line = line.strip_prefix('\u{feff}').unwrap_or(line);
        let regexes = self.first_lines.get_or_init(|| {
            let patterns = self.entries.iter().enumerate();
            patterns
                .filter_map(|(i, e)| Some((Regex::new(e.first_line.as_deref()?.to_string()), i)))
                .collect()
        });
        regexes
            .iter()
            .rev()
            .find(|(r, _)| r.search(line, 0, line.len(), None))
            .map(|&(_, i)| i)
    }
}

fn take_u32(rest: &mut &[u8]) -> Result<usize, PackError> {
    let (head, tail) = rest
        .split_first_chunk::<4>()
        .ok_or_else(|| PackError("truncated".into()))?;
    *rest = tail;
    Ok(u32::from_le_bytes(*head) as usize)
}

fn take_sized<'a>(rest: &mut &'a [u8]) -> Result<&'a [u8], PackError> {
    let len = take_u32(rest)?;
    if len > rest.len() {
        return Err(PackError("truncated".into()));
    }
    let (part, tail) = rest.split_at(len);
    *rest = tail;
    Ok(part)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn damaged_packs_are_errors_not_panics() {
        let good = encode(
            b"cat",
            b"theme",
            &[b"dump".to_vec()],
            &[PackEntry {
                dump: 0,
                index_in_dump: 0,
            }],
        );
        let pack = Pack::decode(&good).expect("decodes");
        assert_eq!(pack.len(), 1);
        assert!(pack.grammar(1).is_err());
        assert!(pack.grammar(0).is_err(), "\"dump\" is not a syntax set");
        for cut in 0..good.len() {
            if let Ok(p) = Pack::decode(&good[..cut]) {
                let _ = p.grammar(0);
            }
        }
        assert!(Pack::decode(b"NOTAPACK").is_err());
    }
}
