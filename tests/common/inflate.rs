//! Compressed bodies in tests: decoding what the server sent (gzip, brotli) and measuring how
//! big a file travels (the first-load JavaScript budget).

use std::io::{Read, Write};

/// Decodes a gzip stream (RFC 1952); panics on anything that is not one.
pub fn gunzip(data: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(data).read_to_end(&mut out).expect("a valid gzip stream");
    out
}

/// Decodes a brotli stream (RFC 7932); panics on anything that is not one.
pub fn unbrotli(data: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    brotli::Decompressor::new(data, 4096).read_to_end(&mut out).expect("a valid brotli stream");
    out
}

/// Bytes of `data` gzipped at the default level: an upper bound of what a browser downloads
/// for it (the server prefers brotli, which is smaller).
pub fn gzip_len(data: &[u8]) -> usize {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    encoder.write_all(data).expect("writing to memory");
    encoder.finish().expect("writing to memory").len()
}
