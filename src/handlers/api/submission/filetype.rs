//! Recognising a paper as PDF, DOC or DOCX by its content (spec section 5; 415 otherwise).

use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

/// What a paper may be (spec section 5: PDF or Word, .doc or .docx).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PaperKind {
    Pdf,
    Doc,
    Docx,
}

impl PaperKind {
    /// The extension the stored paper gets.
    pub fn extension(self) -> &'static str {
        match self {
            PaperKind::Pdf => "pdf",
            PaperKind::Doc => "doc",
            PaperKind::Docx => "docx",
        }
    }

    /// The MIME type stored with the paper and sent with its attachment.
    pub fn mime(self) -> &'static str {
        match self {
            PaperKind::Pdf => "application/pdf",
            PaperKind::Doc => "application/msword",
            PaperKind::Docx => "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        }
    }
}

/// Bytes read from the start of a paper to recognise it.
const HEAD_BYTES: usize = 64 * 1024;
/// Largest ZIP central directory read to look for `word/` (a DOCX has a few dozen entries).
const MAX_CENTRAL_DIRECTORY: u64 = 1024 * 1024;

/// [`detect`] on a file on disk (blocking: call it off the async runtime).
pub(super) fn detect_path(path: &Path) -> std::io::Result<Option<PaperKind>> {
    detect(&mut std::fs::File::open(path)?)
}

/// Recognises a paper by its content, never by its name or the type the client claims:
/// - PDF: `%PDF` within the first 1024 bytes (infer's rule, after the PDF reference);
/// - DOC: an OLE compound file (the Word 97-2003 container; infer's signature check);
/// - DOCX: a ZIP archive with entries under `word/` (infer's check of the first entries,
///   else the archive's central directory, which lists every entry whatever their order).
pub fn detect<R: Read + Seek>(file: &mut R) -> std::io::Result<Option<PaperKind>> {
    let mut head = Vec::with_capacity(HEAD_BYTES);
    file.by_ref().take(HEAD_BYTES as u64).read_to_end(&mut head)?;
    if infer::archive::is_pdf(&head) {
        return Ok(Some(PaperKind::Pdf));
    }
    // infer names the bare compound-file signature `is_msi`; Word's CLSID check
    // (`infer::doc::is_doc`) needs the whole file in memory, which an upload never is.
    if infer::archive::is_msi(&head) {
        return Ok(Some(PaperKind::Doc));
    }
    if infer::archive::is_zip(&head) && (infer::doc::is_docx(&head) || zip_has_word_entries(file)?) {
        return Ok(Some(PaperKind::Docx));
    }
    Ok(None)
}

/// Whether a ZIP archive's central directory lists an entry under `word/`.
fn zip_has_word_entries<R: Read + Seek>(file: &mut R) -> std::io::Result<bool> {
    const EOCD: &[u8] = b"PK\x05\x06";
    const ENTRY: &[u8] = b"PK\x01\x02";
    let len = file.seek(SeekFrom::End(0))?;
    // The end-of-central-directory record (22 bytes) ends the file, after a comment of at
    // most 65535 bytes.
    let tail_len = len.min(22 + 65_535);
    file.seek(SeekFrom::Start(len - tail_len))?;
    let mut tail = Vec::with_capacity(tail_len as usize);
    file.by_ref().take(tail_len).read_to_end(&mut tail)?;
    let Some(at) = tail.windows(4).rposition(|w| w == EOCD) else { return Ok(false) };
    let record = &tail[at..];
    if record.len() < 22 {
        return Ok(false);
    }
    let dir_size = u64::from(u32::from_le_bytes(record[12..16].try_into().expect("4 bytes")));
    let dir_offset = u64::from(u32::from_le_bytes(record[16..20].try_into().expect("4 bytes")));
    if dir_size > MAX_CENTRAL_DIRECTORY || dir_offset.saturating_add(dir_size) > len {
        return Ok(false);
    }
    file.seek(SeekFrom::Start(dir_offset))?;
    let mut dir = Vec::with_capacity(dir_size as usize);
    file.by_ref().take(dir_size).read_to_end(&mut dir)?;
    let mut pos = 0;
    while pos + 46 <= dir.len() && &dir[pos..pos + 4] == ENTRY {
        let u16_at = |i: usize| usize::from(u16::from_le_bytes([dir[pos + i], dir[pos + i + 1]]));
        let (name_len, extra_len, comment_len) = (u16_at(28), u16_at(30), u16_at(32));
        let Some(name) = dir.get(pos + 46..pos + 46 + name_len) else { break };
        if name.starts_with(b"word/") {
            return Ok(true);
        }
        pos += 46 + name_len + extra_len + comment_len;
    }
    Ok(false)
}

#[cfg(test)]
mod tests {
    use std::io::Cursor;

    use super::*;

    #[test]
    fn kinds_are_recognised_by_content() {
        let kind = |bytes: &[u8]| detect(&mut Cursor::new(bytes.to_vec())).unwrap();
        assert_eq!(kind(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n"), Some(PaperKind::Pdf));
        assert_eq!(kind(&[0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1, 0, 0, 0, 0]), Some(PaperKind::Doc));
        assert_eq!(kind(b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR"), None);
        assert_eq!(kind(b"hello, world"), None);
        assert_eq!(kind(b""), None);
        // A ZIP that is not a Word document (no word/ entries) is refused.
        assert_eq!(kind(b"PK\x03\x04rest-of-a-zip"), None);
    }
}
