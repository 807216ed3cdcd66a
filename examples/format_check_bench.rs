//! How long the camera-ready format check takes (issue 44 item 2), and the sample paper the
//! crate comparison in bench/README.md ("PDF format check (issue 44 item 2)") reads. A
//! benchmark's tool, not part of the server.
//!
//! ```sh
//! cargo build --release --example format_check_bench
//! target/release/examples/format_check_bench OUT.pdf [MORE.pdf ...]
//! ```
//!
//! Writes a ten-page A4 paper as the tests make it (tests/common/papers.rs: embedded DejaVu
//! subsets, 30 lines a page, a figure on pages 3, 6 and 9) to `OUT.pdf`, then checks it and
//! every further file 50 times after one warm-up check, with the default rules but no page or
//! size limit, and prints the median, p90 and fastest check and what the check found.

use std::error::Error;
use std::time::Instant;

use conference::proceedings::format_check::{FormatRules, check};

#[allow(dead_code)]
#[path = "../tests/common/papers.rs"]
mod papers;

fn main() -> Result<(), Box<dyn Error>> {
    let mut files = std::env::args().skip(1);
    let out = files.next().ok_or("usage: format_check_bench OUT.pdf [MORE.pdf ...]")?;
    std::fs::write(&out, papers::a4_text(10))?;
    let rules = FormatRules { max_pages: u32::MAX, max_bytes: u64::MAX, ..FormatRules::default() };
    for path in std::iter::once(out).chain(files) {
        let pdf = std::fs::read(&path)?;
        let report = check(&pdf, &rules);
        let mut micros: Vec<u128> = (0..50)
            .map(|_| {
                let start = Instant::now();
                std::hint::black_box(check(std::hint::black_box(&pdf), &rules));
                start.elapsed().as_micros()
            })
            .collect();
        micros.sort_unstable();
        let found: Vec<String> =
            report.failures.iter().map(|f| format!("{} on {} pages", f.rule.key(), f.pages.len())).collect();
        println!(
            "{path}: {} bytes, {:?} pages; check median {} µs, p90 {} µs, fastest {} µs; failures: {found:?}",
            pdf.len(),
            report.pages,
            micros[25],
            micros[45],
            micros[0]
        );
    }
    Ok(())
}
