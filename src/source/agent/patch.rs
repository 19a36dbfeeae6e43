//! An apply_patch text cut into its file sections: Codex and Cline CLI
//! report one edit per `*** Add/Update/Delete File` section.

/// What a section does to its file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SectionKind {
    /// `*** Add File:`.
    Add,
    /// `*** Update File:`.
    Update,
    /// `*** Delete File:`.
    Delete,
}

/// One file's section, as a patch of its own.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PatchSection {
    /// Add, update or delete.
    pub kind: SectionKind,
    /// The path as the patch names it.
    pub path: String,
    /// `*** Begin Patch`, this section's lines, `*** End Patch`.
    pub patch: String,
}

const HEADERS: [(&str, SectionKind); 3] = [
    ("*** Add File: ", SectionKind::Add),
    ("*** Update File: ", SectionKind::Update),
    ("*** Delete File: ", SectionKind::Delete),
];

/// The sections of `patch`, in order. Text before the first section header
/// (`*** Begin Patch`) and from `*** End Patch` on is not part of any.
pub fn split_patch(patch: &str) -> Vec<PatchSection> {
    let mut sections: Vec<PatchSection> = Vec::new();
    let mut body: Option<String> = None;
    let close = |sections: &mut Vec<PatchSection>, body: Option<String>| {
        if let (Some(body), Some(last)) = (body, sections.last_mut()) {
            last.patch = format!("*** Begin Patch\n{body}*** End Patch\n");
        }
    };
    for line in patch.split_inclusive('\n') {
        let bare = line.trim_end_matches(['\n', '\r']);
        if let Some((path, kind)) = HEADERS
            .iter()
            .find_map(|(h, k)| bare.strip_prefix(h).map(|p| (p.trim(), *k)))
        {
            close(&mut sections, body.take());
            sections.push(PatchSection {
                kind,
                path: path.to_string(),
                patch: String::new(),
            });
            body = Some(format!("{bare}\n"));
        } else if bare.trim() == "*** End Patch" {
            close(&mut sections, body.take());
        } else if let Some(b) = &mut body {
            b.push_str(line);
            if !line.ends_with('\n') {
                b.push('\n');
            }
        }
    }
    close(&mut sections, body.take());
    sections
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_section_per_file_in_patch_order() {
        let patch = "*** Begin Patch\n*** Add File: b.py\n+x = 1\n*** Update File: a.py\n@@\n-y\n+z\n*** End Patch\n";
        let sections = split_patch(patch);
        assert_eq!(sections.len(), 2);
        assert_eq!(sections[0].kind, SectionKind::Add);
        assert_eq!(sections[0].path, "b.py");
        assert_eq!(
            sections[0].patch,
            "*** Begin Patch\n*** Add File: b.py\n+x = 1\n*** End Patch\n"
        );
        assert_eq!(sections[1].path, "a.py");
        assert_eq!(
            sections[1].patch,
            "*** Begin Patch\n*** Update File: a.py\n@@\n-y\n+z\n*** End Patch\n"
        );
    }
}
