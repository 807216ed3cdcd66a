//! The backup archive on disk: a gzip-compressed tar of `manifest.json`, `database.sqlite`
//! (the site's tables in SQLite, whatever engine the site runs on) and `files/…` (each paper
//! under its path relative to `DATA_DIR`), written whole under a temp name and renamed.
//!
//! Reading unpacks into a temp folder and checks every file against the manifest's SHA-256
//! and size; gzip's CRC-32 and tar's header checksums catch a changed byte anywhere else.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{BufWriter, Read, Write};
use std::path::{Component, Path, PathBuf};

use flate2::Compression;
use flate2::read::GzDecoder;
use flate2::write::GzEncoder;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::error::BackupError;

/// The manifest's name in the archive.
pub const MANIFEST: &str = "manifest.json";
/// The database snapshot's name in the archive.
pub const DATABASE: &str = "database.sqlite";
/// The folder of the data files in the archive; below it, paths relative to `DATA_DIR`.
pub const FILES: &str = "files";
/// What `format` says in every manifest of this program.
pub const FORMAT: &str = "conference-backup";
/// The layout version of the archive (not the schema's): 1.
pub const FORMAT_VERSION: u32 = 1;

/// What an archive holds, written as `manifest.json`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Manifest {
    /// Always [`FORMAT`].
    pub format: String,
    /// [`FORMAT_VERSION`] when written.
    pub format_version: u32,
    /// When the snapshot was taken, RFC 3339 UTC.
    pub created: String,
    /// The engine of the site backed up: `sqlite` or `postgres`.
    pub engine: String,
    /// The highest migration applied to the database backed up (`migrations/*/NNNN_*.sql`).
    pub schema_version: i64,
    /// Rows per table in the snapshot.
    pub tables: BTreeMap<String, i64>,
    /// Every file of the archive but the manifest, by its path in the archive.
    pub files: Vec<FileEntry>,
}

/// One file of the archive.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileEntry {
    /// Path in the archive, e.g. `files/papers/P-2025-7KQ4M9.pdf`.
    pub path: String,
    /// Size in bytes.
    pub bytes: u64,
    /// SHA-256 of the content, lowercase hex.
    pub sha256: String,
}

/// `relative` as a path below a folder, when it is one: relative, and only plain names (no
/// `..`, no root, no `.`). Paths read from an archive or a database row are checked with it
/// before anything is written, so a crafted archive cannot write outside the folder.
pub fn below(relative: &str) -> Option<PathBuf> {
    let path = Path::new(relative);
    let plain = path.components().all(|c| matches!(c, Component::Normal(_)));
    (plain && path.components().next().is_some()).then(|| path.to_path_buf())
}

/// SHA-256 and size of a file, read in 64 KiB pieces.
pub fn hash_file(path: &Path) -> std::io::Result<(u64, String)> {
    let mut file = File::open(path)?;
    let mut hasher = Sha256::new();
    let mut buffer = vec![0u8; 64 * 1024];
    let mut bytes = 0u64;
    loop {
        let n = file.read(&mut buffer)?;
        if n == 0 {
            break;
        }
        hasher.update(&buffer[..n]);
        bytes += n as u64;
    }
    Ok((bytes, hex::encode(hasher.finalize())))
}

/// Writes the archive at `out`: `manifest` (whose `files` this fills in from `files`, each an
/// archive path and the file on disk), then every file. Written to a temp name in `out`'s
/// folder, synced, then renamed: a crash leaves no half archive under `out`.
pub fn write(out: &Path, manifest: &mut Manifest, files: &[(String, PathBuf)]) -> Result<(), BackupError> {
    manifest.files.clear();
    for (path, source) in files {
        let (bytes, sha256) =
            hash_file(source).map_err(|e| BackupError::Refused(format!("reading {}: {e}", source.display())))?;
        manifest.files.push(FileEntry { path: path.clone(), bytes, sha256 });
    }
    let folder = match out.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = out.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let temp = tempfile::Builder::new()
        .prefix(&format!(".{name}."))
        .suffix(".part")
        .tempfile_in(&folder)
        .map_err(|e| BackupError::Refused(format!("cannot write in {}: {e}", folder.display())))?;
    // Level 1: papers (PDF, DOCX) are compressed already and gain nothing from more effort;
    // the database still shrinks several times.
    let gzip = GzEncoder::new(BufWriter::new(temp.as_file()), Compression::fast());
    let mut tar = tar::Builder::new(gzip);
    let json = serde_json::to_vec_pretty(manifest).expect("a manifest serialises");
    let mut header = tar::Header::new_gnu();
    header.set_size(json.len() as u64);
    header.set_mode(0o644);
    header.set_mtime(0);
    header.set_entry_type(tar::EntryType::Regular);
    tar.append_data(&mut header, MANIFEST, json.as_slice())?;
    for (path, source) in files {
        let mut file = File::open(source)?;
        tar.append_file(path, &mut file)?;
    }
    let mut buffered = tar.into_inner()?.finish()?;
    buffered.flush()?;
    drop(buffered);
    temp.as_file().sync_all()?;
    temp.persist(out)
        .map_err(|e| BackupError::Refused(format!("cannot rename the archive to {}: {}", out.display(), e.error)))?;
    Ok(())
}

/// An archive unpacked into a temp folder (removed on drop), its files checked.
#[derive(Debug)]
pub struct Unpacked {
    pub dir: tempfile::TempDir,
    pub manifest: Manifest,
}

impl Unpacked {
    /// The database snapshot's path in the temp folder.
    pub fn database(&self) -> PathBuf {
        self.dir.path().join(DATABASE)
    }

    /// The unpacked file of `relative` (a path relative to `DATA_DIR`).
    pub fn file(&self, relative: &Path) -> PathBuf {
        self.dir.path().join(FILES).join(relative)
    }
}

/// The CRC-32 and the length modulo 2^32 in the last 8 bytes of a one-member gzip file
/// (RFC 1952 section 2.3), as [`flate2::Crc`] gives them for the bytes read.
fn gzip_trailer(archive: &Path) -> std::io::Result<(u32, u32)> {
    use std::io::{Seek, SeekFrom};
    let mut file = File::open(archive)?;
    file.seek(SeekFrom::End(-8))?;
    let mut trailer = [0u8; 8];
    file.read_exact(&mut trailer)?;
    let word = |at: usize| u32::from_le_bytes(trailer[at..at + 4].try_into().expect("4 bytes"));
    Ok((word(0), word(4)))
}

/// Unpacks `archive` into a temp folder and checks it: only known entries at safe paths,
/// a manifest of this format, and every file present with its SHA-256 and size, nothing
/// unlisted. Errs with what is wrong; the database inside is checked by the caller.
pub fn unpack(archive: &Path) -> Result<Unpacked, BackupError> {
    let file =
        File::open(archive).map_err(|e| BackupError::Refused(format!("cannot open {}: {e}", archive.display())))?;
    let dir = tempfile::Builder::new()
        .prefix("conference-restore-")
        .tempdir()
        .map_err(|e| BackupError::Refused(format!("cannot make a temp folder: {e}")))?;
    let damaged = |e: std::io::Error| BackupError::Damaged(e.to_string());
    // The gzip trailer (CRC-32 and length of what it holds, RFC 1952 section 2.3) is compared
    // here, not left to flate2: a change in the stream's last bytes (tar's zero padding) can
    // make its decoder stop at the end of the input without an error and without the check.
    let trailer = gzip_trailer(archive).map_err(damaged)?;
    let mut tar = tar::Archive::new(flate2::CrcReader::new(GzDecoder::new(file)));
    let mut found: BTreeMap<String, (u64, String)> = BTreeMap::new();
    let mut manifest_json: Option<Vec<u8>> = None;
    for entry in tar.entries().map_err(damaged)? {
        let mut entry = entry.map_err(damaged)?;
        let path = entry.path().map_err(damaged)?.to_string_lossy().into_owned();
        if !matches!(entry.header().entry_type(), tar::EntryType::Regular) {
            return Err(BackupError::Damaged(format!("{path:?} is not a plain file")));
        }
        let known = path == MANIFEST || path == DATABASE || path.starts_with(&format!("{FILES}/"));
        let Some(relative) = below(&path).filter(|_| known) else {
            return Err(BackupError::Damaged(format!("unexpected entry {path:?}")));
        };
        if found.contains_key(&path) || (path == MANIFEST && manifest_json.is_some()) {
            return Err(BackupError::Damaged(format!("{path:?} is in the archive twice")));
        }
        if path == MANIFEST {
            let mut json = Vec::new();
            entry.read_to_end(&mut json).map_err(damaged)?;
            manifest_json = Some(json);
            continue;
        }
        let target = dir.path().join(&relative);
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent)?;
        }
        let mut out = BufWriter::new(File::create(&target)?);
        let mut hasher = Sha256::new();
        let mut buffer = vec![0u8; 64 * 1024];
        let mut bytes = 0u64;
        loop {
            let n = entry.read(&mut buffer).map_err(damaged)?;
            if n == 0 {
                break;
            }
            hasher.update(&buffer[..n]);
            out.write_all(&buffer[..n])?;
            bytes += n as u64;
        }
        out.flush()?;
        found.insert(path, (bytes, hex::encode(hasher.finalize())));
    }
    // Read the rest of the gzip stream: its CRC-32 is checked at the end, which tar, done at
    // its end-of-archive blocks, would otherwise never reach.
    let mut rest = tar.into_inner();
    std::io::copy(&mut rest, &mut std::io::sink()).map_err(damaged)?;
    if (rest.crc().sum(), rest.crc().amount()) != trailer {
        return Err(BackupError::Damaged("its gzip checksum does not match what it holds".into()));
    }
    let json = manifest_json.ok_or_else(|| BackupError::Damaged(format!("no {MANIFEST}")))?;
    let manifest: Manifest =
        serde_json::from_slice(&json).map_err(|e| BackupError::Damaged(format!("{MANIFEST} cannot be read: {e}")))?;
    if manifest.format != FORMAT || manifest.format_version != FORMAT_VERSION {
        return Err(BackupError::Refused(format!(
            "not a backup of this program's format (format {:?}, version {}; expected {FORMAT:?}, version {FORMAT_VERSION})",
            manifest.format, manifest.format_version
        )));
    }
    for listed in &manifest.files {
        match found.remove(&listed.path) {
            None => return Err(BackupError::Damaged(format!("{} is listed in the manifest but missing", listed.path))),
            Some((bytes, _)) if bytes != listed.bytes => {
                return Err(BackupError::Damaged(format!(
                    "{} has {bytes} bytes, the manifest says {}",
                    listed.path, listed.bytes
                )));
            }
            Some((_, sha256)) if sha256 != listed.sha256 => {
                return Err(BackupError::Damaged(format!(
                    "{} does not match its SHA-256 in the manifest (changed after the backup)",
                    listed.path
                )));
            }
            Some(_) => {}
        }
    }
    if let Some(extra) = found.keys().next() {
        return Err(BackupError::Damaged(format!("{extra} is in the archive but not in the manifest")));
    }
    if !manifest.files.iter().any(|f| f.path == DATABASE) {
        return Err(BackupError::Damaged(format!("no {DATABASE}")));
    }
    Ok(Unpacked { dir, manifest })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_plain_relative_paths_are_below_a_folder() {
        assert_eq!(below("papers/P-2025-ABC234.pdf"), Some(PathBuf::from("papers/P-2025-ABC234.pdf")));
        assert_eq!(below("../etc/passwd"), None);
        assert_eq!(below("/etc/passwd"), None);
        assert_eq!(below("papers/../../x"), None);
        assert_eq!(below(""), None);
    }
}
