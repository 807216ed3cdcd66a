//! Where papers are kept and under what names: the reference a paper is filed under, its
//! file in `DATA_DIR/papers` (SQLite; on PostgreSQL the same path names its chunks), the
//! temp names of an upload under way (which the sweep recognises), and the attachment's
//! name organisers see.

use super::filetype::PaperKind;

/// Characters of references: no 0/O or 1/I, so a reference read over the phone is not
/// misheard. 32^6 ≈ 10^9 per year.
const REFERENCE_ALPHABET: &[u8] = b"23456789ABCDEFGHJKLMNPQRSTUVWXYZ";

/// A fresh reference, e.g. `P-2025-7KQ4M9` (P for paper, the year of submission).
pub fn new_reference() -> String {
    let year = time::OffsetDateTime::now_utc().year();
    let code: String =
        (0..6).map(|_| char::from(REFERENCE_ALPHABET[rand::random_range(0..REFERENCE_ALPHABET.len())])).collect();
    format!("P-{year}-{code}")
}

/// Where papers are kept, relative to `DATA_DIR`.
pub const PAPERS_DIR: &str = "papers";

/// Name prefix and suffix of an upload's temp file in `DATA_DIR/papers` (the sweep in
/// `crate::server::sweep` knows them; a leading dot keeps them apart from stored papers).
pub const UPLOAD_TEMP_PREFIX: &str = ".upload-";
pub const UPLOAD_TEMP_SUFFIX: &str = ".part";

/// The name organisers see on the attachment: the uploaded name without any folder part and
/// with only safe characters, ending in the extension of what the file really is.
pub fn upload_name(sent: &str, reference: &str, kind: PaperKind) -> String {
    let base = sent.rsplit(['/', '\\']).next().unwrap_or_default();
    let stem = match base.rsplit_once('.') {
        Some((stem, _)) => stem,
        None => base,
    };
    let clean: String = stem
        .chars()
        .map(|c| if c.is_alphanumeric() || matches!(c, '-' | '_' | ' ' | '(' | ')') { c } else { '_' })
        .take(100)
        .collect();
    let clean = clean.trim();
    if clean.is_empty() { format!("{reference}.{}", kind.extension()) } else { format!("{clean}.{}", kind.extension()) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn references_read_well() {
        let r = new_reference();
        assert!(r.starts_with("P-20"), "{r}");
        assert_eq!(r.len(), "P-2025-7KQ4M9".len());
        assert!(r[7..].bytes().all(|b| REFERENCE_ALPHABET.contains(&b)), "{r}");
    }

    #[test]
    fn attachment_names_are_safe_and_match_the_content() {
        assert_eq!(upload_name("C:\\papers\\My paper.v2.PDF", "P-1", PaperKind::Pdf), "My paper_v2.pdf");
        assert_eq!(upload_name("../../etc/passwd", "P-1", PaperKind::Docx), "passwd.docx");
        assert_eq!(upload_name("paper.pdf", "P-1", PaperKind::Doc), "paper.doc");
        assert_eq!(upload_name("", "P-2025-ABC234", PaperKind::Pdf), "P-2025-ABC234.pdf");
    }
}
