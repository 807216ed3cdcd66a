//! Built beside the server by the edit loop (`node dev/dev.mjs`, issue 45), never run. Naming an
//! example makes cargo resolve features with the dev-dependencies, as `cargo test` does, so the
//! loop's `cargo build` reuses every dependency the test build compiled and makes the same
//! server binary (a plain `cargo build --bin conference` compiles a third of the dependencies
//! again with fewer features: 4.5 minutes on this 2-core machine, bench/README.md "Edit loop").
fn main() {}
