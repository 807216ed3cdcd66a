//! brotli and gzip for answers compressed ahead of requests, at their top qualities: the cost
//! is paid once per content version (or minute), not per request.

use std::io::Write;

/// brotli quality for answers compressed ahead of time: the highest (11), since it is paid
/// once per content version (or minute) rather than per request.
pub const BROTLI_QUALITY: u32 = 11;
/// Largest brotli window (log2 bytes), 4 MiB. Each answer gets the smallest window that holds
/// it: at quality 11 the encoder's match finder is sized by the window (about 8 bytes per
/// window byte), so a 4 MiB window for a 60 KB page would cost ~32 MB of memory per pass for
/// nothing.
const BROTLI_WINDOW_MAX: u32 = 22;

/// `data` brotli-compressed at [`BROTLI_QUALITY`] with the smallest window that holds it.
pub fn brotli(data: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(data.len() / 4);
    // brotli's smallest window is 2^10 bytes.
    let window = (usize::BITS - data.len().max(1024).saturating_sub(1).leading_zeros()).clamp(10, BROTLI_WINDOW_MAX);
    {
        let mut writer = brotli::CompressorWriter::new(&mut out, 64 * 1024, BROTLI_QUALITY, window);
        writer.write_all(data).expect("writing to memory");
    }
    out
}

/// `data` gzip-compressed at the best level.
pub fn gzip(data: &[u8]) -> Vec<u8> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::with_capacity(data.len() / 3), flate2::Compression::best());
    encoder.write_all(data).expect("writing to memory");
    encoder.finish().expect("writing to memory")
}
