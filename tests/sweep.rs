//! The sweep of what a crash leaves in `DATA_DIR` (issue 11): stale upload and mail temp
//! files and papers without a row go; a stored paper and anything still being written stay.

use std::path::Path;
use std::time::{Duration, SystemTime};

use conference::server::sweep::{Sweeper, Swept};

use crate::common::app_with;

fn write_aged(path: &Path, age: Duration) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let file = std::fs::File::create(path).unwrap();
    std::io::Write::write_all(&mut &file, b"bytes").unwrap();
    file.set_modified(SystemTime::now() - age).unwrap();
}

#[tokio::test]
async fn the_sweep_removes_stale_temp_files_and_papers_without_a_row() {
    let app = app_with(|c| {
        c.body_timeout_secs = 15;
        c.orphan_grace_secs = 600;
    })
    .await;
    let data = app.dir.path();
    // A stored paper: its row names it.
    sqlx::query(
        "INSERT INTO submissions (reference, name, number, email, country, author_name, co_author_name, paper_title,
             department, university_organization, paper_type, presentation_type, message, conference_source,
             file_path, file_name, file_type, file_size, created)
         VALUES ('P-2025-STORED', '', '1', 'a@b.co', 'X', 'A', 'B', 'T', 'D', 'U', 'Abstract', 'Oral', 'M', 'others',
             'papers/P-2025-STORED.pdf', 'p.pdf', 'application/pdf', 5, '2025-01-01T00:00:00.000000Z')",
    )
    .execute(&app.pool)
    .await
    .unwrap();
    let hour = Duration::from_secs(3600);
    let papers = data.join("papers");
    write_aged(&papers.join("P-2025-STORED.pdf"), hour);
    write_aged(&papers.join("P-2025-ORPHAN.pdf"), hour);
    write_aged(&papers.join("P-2025-YOUNG1.pdf"), Duration::from_secs(5));
    write_aged(&papers.join(".upload-stale.part"), Duration::from_secs(60));
    write_aged(&papers.join(".upload-live.part"), Duration::from_secs(2));
    write_aged(&data.join("tmp/paper-old.part"), hour);
    write_aged(&data.join("mail/.outbox-7-abc.eml.tmp"), Duration::from_secs(60));
    write_aged(&data.join("mail/outbox-6.eml"), hour);

    let swept = Sweeper::new(app.pool.clone(), &app.config).run_once().await;
    assert_eq!(swept, Swept { temp_files: 3, orphan_papers: 1 });
    let mut left: Vec<String> = ["papers", "mail", "tmp"]
        .iter()
        .flat_map(|sub| {
            std::fs::read_dir(data.join(sub))
                .unwrap()
                .map(move |e| format!("{sub}/{}", e.unwrap().file_name().to_string_lossy()))
        })
        .collect();
    left.sort();
    assert_eq!(
        left,
        ["mail/outbox-6.eml", "papers/.upload-live.part", "papers/P-2025-STORED.pdf", "papers/P-2025-YOUNG1.pdf"]
    );
    // A second run finds nothing more.
    assert_eq!(Sweeper::new(app.pool.clone(), &app.config).run_once().await, Swept::default());
}
