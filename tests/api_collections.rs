//! GET `/api/collections/{name}/records` (DESIGN.md section 5): the old content backend's
//! list shape, paging, sorting and the 400s for bad parameters.

use axum::http::StatusCode;
use serde_json::Value;

use crate::common::{COLLECTIONS, TestApp, app};

/// The spec's fields of each collection (section 3), beyond the record basics.
fn spec_fields(collection: &str) -> &'static [&'static str] {
    match collection {
        "dates" => &["date", "title", "description"],
        "committee" => &["committee", "name", "designation", "details", "country", "img"],
        "schedule" => &["date"],
        "speakers" => &["order", "category", "name", "role", "image", "bio"],
        "co_organizers_img" => &["img_url", "img_title"],
        "download_buttons" => &["title", "link"],
        other => panic!("unknown collection {other}"),
    }
}

async fn list(app: &TestApp, query: &str) -> Value {
    let (status, body) = app.json(query).await;
    assert_eq!(status, StatusCode::OK, "GET {query}: {body}");
    body
}

fn ids(list: &Value) -> Vec<String> {
    list["items"].as_array().expect("items").iter().map(|i| i["id"].as_str().expect("id").to_string()).collect()
}

#[tokio::test]
async fn every_collection_answers_in_the_list_shape() {
    let app = app().await;
    for name in COLLECTIONS {
        let body = list(&app, &format!("/api/collections/{name}/records?perPage=500")).await;
        let object = body.as_object().expect("an object");
        for key in ["page", "perPage", "totalItems", "totalPages", "items"] {
            assert!(object.contains_key(key), "{name}: {key} present in {body}");
        }
        assert_eq!(body["page"], 1);
        assert_eq!(body["perPage"], 500);
        let items = body["items"].as_array().unwrap();
        assert!(!items.is_empty(), "{name} has records");
        assert_eq!(body["totalItems"].as_u64(), Some(items.len() as u64), "{name}: totalItems");
        assert_eq!(body["totalPages"], 1);
        // The schedule collection lists the programme's sessions (migration 0016).
        let table = if name == "schedule" { "sessions" } else { name };
        assert_eq!(app.count(table).await, items.len() as i64, "{name}: every row is listed");
        for item in items {
            for key in ["id", "collectionId", "collectionName", "created", "updated"] {
                assert!(item.get(key).is_some(), "{name}: item has {key}: {item}");
            }
            assert_eq!(item["collectionName"], name);
            assert!(item["collectionId"].as_str().is_some_and(|c| !c.is_empty()));
            assert!(item["created"].as_str().is_some_and(|c| c.starts_with("20")), "{name}: created is a timestamp");
            for field in spec_fields(name) {
                assert!(item.get(*field).is_some(), "{name}: item has the spec's {field}: {item}");
            }
        }
    }
}

#[tokio::test]
async fn speakers_carry_a_numeric_order() {
    let app = app().await;
    let body = list(&app, "/api/collections/speakers/records?sort=order&perPage=500").await;
    let orders: Vec<i64> =
        body["items"].as_array().unwrap().iter().map(|i| i["order"].as_i64().expect("order")).collect();
    assert!(orders.len() >= 3);
    assert!(orders.windows(2).all(|w| w[0] <= w[1]), "sort=order is ascending: {orders:?}");
    let body = list(&app, "/api/collections/speakers/records?sort=-order&perPage=500").await;
    let descending: Vec<i64> = body["items"].as_array().unwrap().iter().map(|i| i["order"].as_i64().unwrap()).collect();
    assert!(descending.windows(2).all(|w| w[0] >= w[1]), "sort=-order is descending: {descending:?}");
}

#[tokio::test]
async fn paging_walks_the_full_list() {
    let app = app().await;
    for name in COLLECTIONS {
        let full = ids(&list(&app, &format!("/api/collections/{name}/records?perPage=500&sort=created")).await);
        let total = full.len();
        let second = list(&app, &format!("/api/collections/{name}/records?perPage=2&page=2&sort=created")).await;
        assert_eq!(second["page"], 2);
        assert_eq!(second["perPage"], 2);
        assert_eq!(second["totalItems"].as_u64(), Some(total as u64));
        assert_eq!(second["totalPages"].as_u64(), Some(total.div_ceil(2) as u64), "{name}: totalPages");
        assert_eq!(ids(&second), full[2..total.min(4)], "{name}: page 2 of 2 holds the 3rd and 4th");

        let mut walked = Vec::new();
        for page in 1..=total.div_ceil(3) {
            walked.extend(ids(&list(
                &app,
                &format!("/api/collections/{name}/records?perPage=3&page={page}&sort=created"),
            )
            .await));
        }
        assert_eq!(walked, full, "{name}: pages neither overlap nor skip");

        let past =
            list(&app, &format!("/api/collections/{name}/records?perPage=2&page={}", total.div_ceil(2) + 1)).await;
        assert_eq!(past["items"].as_array().map(Vec::len), Some(0), "{name}: a page past the end is empty");
        assert_eq!(past["totalItems"].as_u64(), Some(total as u64));
    }
}

#[tokio::test]
async fn sort_by_created_and_minus_created_reverse_each_other() {
    let app = app().await;
    for name in COLLECTIONS {
        let ascending = list(&app, &format!("/api/collections/{name}/records?perPage=500&sort=created")).await;
        let descending = list(&app, &format!("/api/collections/{name}/records?perPage=500&sort=-created")).await;
        let created = |l: &Value| -> Vec<String> {
            l["items"].as_array().unwrap().iter().map(|i| i["created"].as_str().unwrap().to_string()).collect()
        };
        let up = created(&ascending);
        assert!(up.windows(2).all(|w| w[0] <= w[1]), "{name}: sort=created ascends");
        let mut down = created(&descending);
        down.reverse();
        assert_eq!(up, down, "{name}: -created is created reversed");
        let unique: std::collections::BTreeSet<&String> = up.iter().collect();
        if unique.len() == up.len() {
            let mut reversed = ids(&descending);
            reversed.reverse();
            assert_eq!(ids(&ascending), reversed, "{name}: the same records, reversed");
        }
    }
}

#[tokio::test]
async fn per_page_defaults_and_its_maximum() {
    let app = app().await;
    let default = list(&app, "/api/collections/schedule/records").await;
    assert_eq!(default["page"], 1);
    let per_page = default["perPage"].as_u64().expect("perPage");
    assert!((1..=500).contains(&per_page));
    assert_eq!(
        default["items"].as_array().unwrap().len() as u64,
        per_page.min(default["totalItems"].as_u64().unwrap())
    );
    let max = list(&app, "/api/collections/schedule/records?perPage=500").await;
    assert_eq!(max["perPage"], 500);
    let one = list(&app, "/api/collections/schedule/records?perPage=1").await;
    assert_eq!(one["items"].as_array().unwrap().len(), 1);
    assert_eq!(one["totalPages"], one["totalItems"]);
}

#[tokio::test]
async fn bad_parameters_answer_400_with_a_message() {
    let app = app().await;
    for query in [
        "page=0",
        "page=-1",
        "page=abc",
        "page=1.5",
        "page=",
        "perPage=0",
        "perPage=501",
        "perPage=-5",
        "perPage=abc",
        "perPage=99999999999999999999999",
        "sort=unknown",
        "sort=-nope",
        "sort=created,bogus",
        "sort=password",
    ] {
        let path = format!("/api/collections/dates/records?{query}");
        let (status, body) = app.json(&path).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{path}: {body}");
        assert!(body["message"].as_str().is_some_and(|m| !m.is_empty()), "{path}: a message, got {body}");
    }
}

#[tokio::test]
async fn unknown_collections_answer_404_json() {
    let app = app().await;
    for path in [
        "/api/collections/nope/records",
        "/api/collections/site/records",
        "/api/collections/ticket_plans/records",
        "/api/collections/sqlite_master/records",
        "/api/collections/DATES/records",
        "/api/collections/dates%3B%20DROP%20TABLE%20dates/records",
        "/api/no-such-endpoint",
    ] {
        let (status, body) = app.json(path).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{path}: {body}");
        assert!(body["message"].as_str().is_some_and(|m| !m.is_empty()), "{path}: {body}");
    }
    assert_eq!(app.count("dates").await, 7, "nothing was dropped");
}

#[tokio::test]
async fn injection_looking_sort_values_are_refused_and_harmless() {
    let app = app().await;
    let before = list(&app, "/api/collections/dates/records?perPage=500").await;
    for sort in [
        "created%3B%20DROP%20TABLE%20dates",
        "created%3BDROP%20TABLE%20dates--",
        "(SELECT%201)",
        "created)%20--",
        "created%20DESC",
        "-created%2C(SELECT%20name%20FROM%20sqlite_master)",
        "id%27%20OR%20%271%27%3D%271",
        "1",
        "%22created%22",
    ] {
        let path = format!("/api/collections/dates/records?sort={sort}");
        let (status, body) = app.json(&path).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{path}: {body}");
        assert!(body["message"].is_string(), "{path}");
    }
    let after = list(&app, "/api/collections/dates/records?perPage=500").await;
    assert_eq!(before, after, "the table still answers, unchanged");
}

#[tokio::test]
async fn collections_are_read_only() {
    let app = app().await;
    for method in ["POST", "PUT", "PATCH", "DELETE"] {
        let request = axum::http::Request::builder()
            .method(method)
            .uri("/api/collections/dates/records")
            .header("content-type", "application/json")
            .body(axum::body::Body::from("{}"))
            .unwrap();
        let reply = app.send(request).await;
        assert!(
            reply.status == StatusCode::METHOD_NOT_ALLOWED || reply.status == StatusCode::NOT_FOUND,
            "{method} answers {}",
            reply.status
        );
    }
    assert_eq!(app.count("dates").await, 7);
}
