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

/// How near the end `%%EOF` must be, in bytes: the PDF reference puts it on the last line;
/// writers and mail gateways add a few line ends or padding after it.
const PDF_EOF_WINDOW: u64 = 1024;

/// [`detect`] on a file on disk (blocking: call it off the async runtime).
pub fn detect_path(path: &Path) -> std::io::Result<Option<PaperKind>> {
    detect(&mut std::fs::File::open(path)?)
}

/// Recognises a paper by its structure, never by its name or the type the client claims
/// (DESIGN.md section 5):
/// - PDF: `%PDF-` at offset 0 and `%%EOF` within the last [`PDF_EOF_WINDOW`] bytes;
/// - DOC: an OLE compound file (read with `cfb`) holding a `WordDocument` stream;
/// - DOCX: a ZIP archive starting at offset 0 (read with `zip`) whose directory lists
///   `[Content_Types].xml` and `word/document.xml`.
///
/// Anything else, an empty or unreadable file included, is `None`.
pub fn detect<R: Read + Seek>(file: &mut R) -> std::io::Result<Option<PaperKind>> {
    let len = file.seek(SeekFrom::End(0))?;
    let mut head = [0u8; 8];
    file.seek(SeekFrom::Start(0))?;
    let head_len = file.by_ref().take(8).read(&mut head)?;
    let head = &head[..head_len];
    if head.starts_with(b"%PDF-") {
        let tail_len = len.min(PDF_EOF_WINDOW);
        file.seek(SeekFrom::Start(len - tail_len))?;
        let mut tail = Vec::with_capacity(tail_len as usize);
        file.by_ref().take(tail_len).read_to_end(&mut tail)?;
        let ends = tail.windows(5).any(|w| w == b"%%EOF");
        return Ok(ends.then_some(PaperKind::Pdf));
    }
    if head.starts_with(&[0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1]) {
        file.seek(SeekFrom::Start(0))?;
        let is_word = cfb::CompoundFile::open(&mut *file).is_ok_and(|doc| doc.is_stream("/WordDocument"));
        return Ok(is_word.then_some(PaperKind::Doc));
    }
    if head.starts_with(b"PK\x03\x04") {
        file.seek(SeekFrom::Start(0))?;
        let is_docx = zip::ZipArchive::new(&mut *file).is_ok_and(|zip| {
            zip.index_for_name("[Content_Types].xml").is_some() && zip.index_for_name("word/document.xml").is_some()
        });
        return Ok(is_docx.then_some(PaperKind::Docx));
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use std::io::Cursor;

    use super::*;

    /// A minimal PDF: header, one line, the end marker.
    pub(crate) fn pdf() -> Vec<u8> {
        b"%PDF-1.7\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n".to_vec()
    }

    fn docx(entries: &[&str]) -> Vec<u8> {
        let mut zip = zip::ZipWriter::new(Cursor::new(Vec::new()));
        for name in entries {
            zip.start_file(
                *name,
                zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored),
            )
            .unwrap();
            std::io::Write::write_all(&mut zip, b"<xml/>").unwrap();
        }
        zip.finish().unwrap().into_inner()
    }

    fn doc(stream: &str) -> Vec<u8> {
        let mut cfb = cfb::CompoundFile::create(Cursor::new(Vec::new())).unwrap();
        std::io::Write::write_all(&mut cfb.create_stream(stream).unwrap(), &[0xEC, 0xA5, 0xC1, 0, 1, 2, 3]).unwrap();
        cfb.flush().unwrap();
        cfb.into_inner().into_inner()
    }

    fn kind(bytes: &[u8]) -> Option<PaperKind> {
        detect(&mut Cursor::new(bytes.to_vec())).unwrap()
    }

    #[test]
    fn real_structures_are_recognised() {
        assert_eq!(kind(&pdf()), Some(PaperKind::Pdf));
        assert_eq!(kind(&doc("/WordDocument")), Some(PaperKind::Doc));
        assert_eq!(kind(&docx(&["[Content_Types].xml", "_rels/.rels", "word/document.xml"])), Some(PaperKind::Docx));
    }

    #[test]
    fn look_alikes_are_refused() {
        // The findings: HTML with a PDF inside, NUL bytes then %PDF, an OLE header
        // followed by zeros.
        assert_eq!(kind(b"<html>%PDF-1.7\n%%EOF\n"), None);
        assert_eq!(kind(b"\0\0\0\0%PDF-1.7\n%%EOF\n"), None);
        let mut ole = vec![0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1];
        ole.resize(4096, 0);
        assert_eq!(kind(&ole), None);
        // A PDF cut short (no end marker), an Excel-like compound file, a ZIP of other things.
        assert_eq!(kind(b"%PDF-1.7\n1 0 obj << >> endobj\n"), None);
        let mut late_eof = pdf();
        late_eof.extend(std::iter::repeat_n(b' ', 2000));
        assert_eq!(kind(&late_eof), None);
        assert_eq!(kind(&doc("/Workbook")), None);
        assert_eq!(kind(&docx(&["[Content_Types].xml", "xl/workbook.xml"])), None);
        assert_eq!(kind(&docx(&["word/document.xml"])), None);
        let mut prefixed = b"<html>".to_vec();
        prefixed.extend(docx(&["[Content_Types].xml", "word/document.xml"]));
        assert_eq!(kind(&prefixed), None);
        assert_eq!(kind(b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR"), None);
        assert_eq!(kind(b""), None);
    }
}
