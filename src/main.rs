use std::io::IsTerminal;

use clap::Parser;
use tracing_subscriber::EnvFilter;

fn main() -> std::process::ExitCode {
    // Before any thread or large allocation exists.
    conference::base::sys::tune_allocator();
    tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("the tokio runtime starts").block_on(run())
}

async fn run() -> std::process::ExitCode {
    // Logs go to stderr: stdout belongs to what a command prints (`export` writes CSV there,
    // often into a file), and colour codes only where a person reads them.
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_ansi(std::io::stderr().is_terminal())
        .with_env_filter(
            EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| EnvFilter::new("info,tower_http=info,sqlx::postgres::notice=warn")),
        )
        .init();
    let cli = conference::cli::Cli::parse();
    let outcome =
        if cli.serves() { conference::server::serve(cli.config).await } else { conference::cli::run(cli).await };
    match outcome {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(err) => {
            tracing::error!("{err}");
            std::process::ExitCode::FAILURE
        }
    }
}
