//! Start-up: the subcommands of DESIGN.md section 2 and serving with graceful shutdown.

use tokio::net::TcpListener;

use crate::config::{Cli, Command, Config};
use crate::state::AppState;
use crate::{db, mail, routes};

/// Runs the chosen subcommand to completion.
pub async fn run(cli: Cli) -> Result<(), Box<dyn std::error::Error>> {
    let config = cli.config;
    match cli.command.unwrap_or(Command::Serve) {
        Command::Migrate => {
            let pool = db::connect(&config.database_url).await?;
            db::migrate(&pool).await?;
            tracing::info!("migrations applied");
        }
        Command::Seed { file } => {
            let pool = db::connect(&config.database_url).await?;
            db::migrate(&pool).await?;
            // Organisers edit the file and re-apply it without rebuilding; a binary run
            // elsewhere falls back to the seed it was built with.
            if file.exists() {
                let sql = std::fs::read_to_string(&file)?;
                db::seed_with(&pool, sql).await?;
                tracing::info!(file = %file.display(), "content seed applied");
            } else {
                db::seed(&pool).await?;
                tracing::info!(missing = %file.display(), "content seed applied from the copy built into the binary");
            }
        }
        Command::Export { kind, out } => {
            let pool = db::connect(&config.database_url).await?;
            db::migrate(&pool).await?;
            match (kind, out) {
                (crate::export::ExportKind::Papers, Some(out)) => {
                    let written = crate::export::papers::write_all(&pool, &config.data_dir, &out).await?;
                    tracing::info!(written, out = %out.display(), "papers exported");
                }
                (kind, _) => crate::export::export(&pool, kind, std::io::stdout().lock()).await?,
            }
        }
        Command::Serve => serve(config).await?,
    }
    Ok(())
}

async fn serve(config: Config) -> Result<(), Box<dyn std::error::Error>> {
    // Fails closed (DESIGN.md section 6): `live` without its credentials does not start.
    let payments = crate::payments::PaymentConfig::resolve(&config)?;
    match &payments.off_reason {
        Some(reason) => tracing::warn!("payments are OFF: {reason}; Register and Pay say so"),
        None => tracing::info!(mode = payments.mode.as_str(), "payments"),
    }
    std::fs::create_dir_all(&config.data_dir)?;
    let pool = db::connect(&config.database_url).await?;
    db::migrate(&pool).await?;
    if db::seed_if_empty(&pool).await? {
        tracing::info!("empty database: content seed applied");
    }
    sweep_stale_uploads(&config.data_dir.join("tmp"), std::time::Duration::from_secs(3600));
    // Mail goes out in the background (DESIGN.md section 8); a bad SMTP_URL stops start-up.
    let transport = mail::MailTransport::from_config(&config)?;
    let (stop_mail, mail_stopped) = tokio::sync::watch::channel(false);
    let mail_worker = mail::Worker::new(pool.clone(), transport, &config).spawn(mail_stopped);
    // Content in memory before the first visitor (DESIGN.md section 10); the watcher reloads
    // it when `conference seed` runs, here or in another process.
    let state = AppState::new(pool.clone(), config.clone());
    state.content.reload().await?;
    tokio::spawn(crate::assets::warm());
    let listener = TcpListener::bind(config.listen_addr).await?;
    tracing::info!("serving on http://{}", listener.local_addr()?);
    let app = routes::app(state);
    axum::serve(listener, app.into_make_service_with_connect_info::<std::net::SocketAddr>())
        .with_graceful_shutdown(shutdown_signal())
        .await?;
    // The worker finishes the mail in hand; one stuck on a slow server is picked up again
    // after its claim expires, by the next start.
    let _ = stop_mail.send(true);
    if tokio::time::timeout(std::time::Duration::from_secs(10), mail_worker).await.is_err() {
        tracing::warn!("mail worker did not stop in time");
    }
    pool.close().await;
    tracing::info!("stopped");
    Ok(())
}

/// Removes upload temp files a crashed process left behind. Only files older than `age` go:
/// another server copy sharing `DATA_DIR` may be receiving a paper right now.
pub fn sweep_stale_uploads(tmp_dir: &std::path::Path, age: std::time::Duration) -> usize {
    let Ok(entries) = std::fs::read_dir(tmp_dir) else { return 0 };
    let mut removed = 0;
    for entry in entries.flatten() {
        let stale = entry
            .metadata()
            .ok()
            .filter(|m| m.is_file())
            .and_then(|m| m.modified().ok())
            .and_then(|modified| modified.elapsed().ok())
            .is_some_and(|elapsed| elapsed >= age);
        if stale && std::fs::remove_file(entry.path()).is_ok() {
            removed += 1;
        }
    }
    if removed > 0 {
        tracing::info!(removed, dir = %tmp_dir.display(), "removed stale upload temp files");
    }
    removed
}

/// Resolves on Ctrl-C or SIGTERM, so in-flight requests finish before the process exits.
async fn shutdown_signal() {
    let ctrl_c = async {
        tokio::signal::ctrl_c().await.expect("Ctrl-C handler");
    };
    #[cfg(unix)]
    let terminate = async {
        tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
            .expect("SIGTERM handler")
            .recv()
            .await;
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = terminate => {},
    }
    tracing::info!("shutting down");
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    #[test]
    fn sweep_removes_only_old_temp_files() {
        let dir = tempfile::tempdir().unwrap();
        let old = dir.path().join("old.part");
        let file = std::fs::File::create(&old).unwrap();
        file.set_modified(std::time::SystemTime::now() - Duration::from_secs(2 * 3600)).unwrap();
        let fresh = dir.path().join("fresh.part");
        std::fs::write(&fresh, b"arriving").unwrap();
        assert_eq!(super::sweep_stale_uploads(dir.path(), Duration::from_secs(3600)), 1);
        assert!(!old.exists());
        assert!(fresh.exists());
        assert_eq!(super::sweep_stale_uploads(&dir.path().join("missing"), Duration::ZERO), 0);
    }
}
