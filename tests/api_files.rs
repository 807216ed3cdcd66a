//! GET `/api/files/{collectionId}/{id}/{filename}` (DESIGN.md section 5): conference
//! materials download as attachments, and nothing else can be reached through it.

use axum::http::StatusCode;

use conference::repo::content;

use crate::common::app;

#[tokio::test]
async fn each_material_downloads_as_a_pdf_attachment() {
    let app = app().await;
    let (_, listing) = app.json("/api/collections/download_buttons/records?perPage=500").await;
    let items = listing["items"].as_array().expect("materials");
    assert_eq!(items.len(), 3);
    for item in items {
        let (collection, id, link) =
            (item["collectionId"].as_str().unwrap(), item["id"].as_str().unwrap(), item["link"].as_str().unwrap());
        let path = format!("/api/files/{collection}/{id}/{link}");
        let reply = app.request(&path, &[]).await;
        assert_eq!(reply.status, StatusCode::OK, "{path}");
        let disposition = reply.header("content-disposition").unwrap_or_default();
        assert!(disposition.starts_with("attachment"), "{path}: {disposition}");
        assert!(disposition.contains(&format!("filename=\"{link}\"")), "{path} is saved under its name: {disposition}");
        assert_eq!(reply.header("content-type"), Some("application/pdf"), "{path}");
        assert!(reply.body.starts_with(b"%PDF"), "{path} is a PDF");
        assert!(reply.body.len() > 200, "{path} is a real document");
    }
}

#[tokio::test]
async fn only_the_file_a_record_names_is_served() {
    let app = app().await;
    let materials = content::materials(&app.pool).await.unwrap();
    let brochure = materials.iter().find(|m| m.id == "dl-programme").expect("the programme's record");
    let other = materials.iter().find(|m| m.id != brochure.id).unwrap();
    let (id, link) = (&brochure.id, &brochure.link);
    for path in [
        format!("/api/files/committee/{id}/{link}"),
        format!("/api/files/download_button/{id}/{link}"),
        format!("/api/files/DOWNLOAD_BUTTONS/{id}/{link}"),
        format!("/api/files/download_buttons/no-such-record/{link}"),
        format!("/api/files/download_buttons/{id}/{}", other.link),
        format!("/api/files/download_buttons/{id}/{}", link.to_uppercase()),
        format!("/api/files/download_buttons/{id}/{link}.exe"),
        format!("/api/files/download_buttons/{id}/x{link}"),
        format!("/api/files/download_buttons/{id}/"),
        format!("/api/files/download_buttons/{id}"),
        format!("/api/files/download_buttons/{}/{link}", other.id),
    ] {
        let reply = app.request(&path, &[]).await;
        assert_eq!(reply.status, StatusCode::NOT_FOUND, "{path}");
        assert!(!reply.body.starts_with(b"%PDF"), "{path} gives no file");
    }
}

#[tokio::test]
async fn path_traversal_reaches_nothing() {
    let app = app().await;
    // The record the paths below start from exists and serves its own file.
    let reply = app.request("/api/files/download_buttons/dl-programme/icsift-2025-brochure.pdf", &[]).await;
    assert_eq!(reply.status, StatusCode::OK, "the fixture's programme downloads");
    for path in [
        "/api/files/download_buttons/dl-programme/..%2F..%2FCargo.toml",
        "/api/files/download_buttons/dl-programme/..%2F..%2F..%2Fetc%2Fpasswd",
        "/api/files/download_buttons/dl-programme/%2e%2e%2f%2e%2e%2fCargo.toml",
        "/api/files/download_buttons/dl-programme/%2E%2E%5C%2E%2E%5CCargo.toml",
        "/api/files/download_buttons/dl-programme/..%252F..%252FCargo.toml",
        "/api/files/download_buttons/..%2F..%2F/Cargo.toml",
        "/api/files/download_buttons/dl-programme%2F..%2F..%2Fsrc/main.rs",
        "/api/files/../../Cargo.toml",
        "/api/files/download_buttons/../../Cargo.toml",
        "/api/files/download_buttons/dl-programme/%2Fetc%2Fpasswd",
        "/api/files/download_buttons/dl-programme/icsift-2025-brochure.pdf%00.txt",
        "/api/files/download_buttons/dl-programme/..%2Fmaterials%2Ficsift-2025-brochure.pdf",
    ] {
        let reply = app.request(path, &[]).await;
        assert_eq!(reply.status, StatusCode::NOT_FOUND, "{path}");
        let body = reply.text();
        assert!(!body.contains("[package]") && !body.contains("root:"), "{path} leaks nothing");
        assert!(!reply.body.starts_with(b"%PDF"), "{path}");
    }
}

#[tokio::test]
async fn materials_are_not_reachable_as_static_files() {
    let app = app().await;
    for material in content::materials(&app.pool).await.unwrap() {
        for path in [
            format!("/static/materials/{}", material.link),
            format!("/static/{}", material.link),
            format!("/static/img/..%2Fmaterials%2F{}", material.link),
            format!("/static/img/../materials/{}", material.link),
            format!("/assets/{}", material.link),
            format!("/assets/..%2F..%2Fstatic%2Fmaterials%2F{}", material.link),
        ] {
            let reply = app.request(&path, &[]).await;
            assert_ne!(reply.status, StatusCode::OK, "{path}");
            assert!(!reply.body.starts_with(b"%PDF"), "{path} gives no file");
        }
    }
    for path in [
        "/static/..%2F..%2FCargo.toml",
        "/static/../Cargo.toml",
        "/assets/..%2F.vite%2Fmanifest.json",
        "/assets/.vite/manifest.json",
    ] {
        let reply = app.request(path, &[]).await;
        assert_eq!(reply.status, StatusCode::NOT_FOUND, "{path}");
    }
}
