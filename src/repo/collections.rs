//! Read-only listing of content collections in the shape of the old content backend
//! (DESIGN.md section 5, `/api/collections/{name}/records`).

use serde::Serialize;
use serde_json::Value;
use sqlx::AssertSqlSafe;

use crate::db::Pool;

use super::content::{CoOrganizer, CommitteeMember, DateItem, Material, ScheduleEntry, Speaker};

/// A collection the API exposes: its table and the fields a client may sort on,
/// each mapped to its column (the spec's `order` is the `position` column).
#[derive(Debug)]
pub struct Collection {
    pub name: &'static str,
    sortable: &'static [(&'static str, &'static str)],
}

const COMMON: [(&str, &str); 3] = [("created", "created"), ("updated", "updated"), ("id", "id")];

/// Every collection the old backend served, with the spec's names.
pub static COLLECTIONS: [Collection; 6] = [
    Collection { name: "dates", sortable: &[COMMON[0], COMMON[1], COMMON[2], ("date", "date"), ("title", "title")] },
    Collection {
        name: "committee",
        sortable: &[COMMON[0], COMMON[1], COMMON[2], ("name", "name"), ("committee", "committee")],
    },
    Collection { name: "schedule", sortable: &[COMMON[0], COMMON[1], COMMON[2], ("date", "date")] },
    Collection {
        name: "speakers",
        sortable: &[COMMON[0], COMMON[1], COMMON[2], ("order", "position"), ("name", "name"), ("category", "category")],
    },
    Collection { name: "co_organizers_img", sortable: &[COMMON[0], COMMON[1], COMMON[2], ("img_title", "img_title")] },
    Collection { name: "download_buttons", sortable: &[COMMON[0], COMMON[1], COMMON[2], ("title", "title")] },
];

/// Looks a collection up by its name (the id the API uses is the name too).
pub fn find(name: &str) -> Option<&'static Collection> {
    COLLECTIONS.iter().find(|c| c.name == name)
}

impl Collection {
    /// Turns a `sort` parameter (`created`, `-order`, `-created,id`) into an `ORDER BY`
    /// clause of whitelisted columns. `Err` names the first unknown field.
    pub fn order_by(&self, sort: &str) -> Result<String, String> {
        let mut clauses = Vec::new();
        for part in sort.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (field, direction) = match part.strip_prefix('-') {
                Some(field) => (field, "DESC"),
                None => (part.strip_prefix('+').unwrap_or(part), "ASC"),
            };
            let column = self
                .sortable
                .iter()
                .find(|(api, _)| *api == field)
                .map(|(_, column)| *column)
                .ok_or_else(|| field.to_string())?;
            clauses.push(format!("{column} {direction}"));
        }
        // A stable tie-break so pages never overlap or skip rows.
        clauses.push("id ASC".into());
        Ok(clauses.join(", "))
    }

    pub async fn count(&self, pool: &Pool) -> Result<i64, sqlx::Error> {
        let sql = format!("SELECT COUNT(*) FROM {}", self.name);
        let (n,): (i64,) = sqlx::query_as(AssertSqlSafe(sql)).fetch_one(pool).await?;
        Ok(n)
    }

    /// One page of records as JSON objects with `collectionId` and `collectionName` added.
    /// `order_by` must come from [`Collection::order_by`].
    pub async fn records(
        &self,
        pool: &Pool,
        order_by: &str,
        limit: i64,
        offset: i64,
    ) -> Result<Vec<Value>, sqlx::Error> {
        let sql = format!("SELECT * FROM {} ORDER BY {order_by} LIMIT $1 OFFSET $2", self.name);
        let sql = AssertSqlSafe(sql);
        let items = match self.name {
            "dates" => to_values::<DateItem>(sqlx::query_as(sql).bind(limit).bind(offset).fetch_all(pool).await?),
            "committee" => {
                to_values::<CommitteeMember>(sqlx::query_as(sql).bind(limit).bind(offset).fetch_all(pool).await?)
            }
            "schedule" => {
                to_values::<ScheduleEntry>(sqlx::query_as(sql).bind(limit).bind(offset).fetch_all(pool).await?)
            }
            "speakers" => to_values::<Speaker>(sqlx::query_as(sql).bind(limit).bind(offset).fetch_all(pool).await?),
            "co_organizers_img" => {
                to_values::<CoOrganizer>(sqlx::query_as(sql).bind(limit).bind(offset).fetch_all(pool).await?)
            }
            "download_buttons" => {
                to_values::<Material>(sqlx::query_as(sql).bind(limit).bind(offset).fetch_all(pool).await?)
            }
            other => unreachable!("collection {other} has no record type"),
        };
        Ok(items
            .into_iter()
            .map(|mut item| {
                if let Value::Object(map) = &mut item {
                    map.insert("collectionId".into(), Value::from(self.name));
                    map.insert("collectionName".into(), Value::from(self.name));
                }
                item
            })
            .collect())
    }
}

fn to_values<T: Serialize>(rows: Vec<T>) -> Vec<Value> {
    rows.iter().map(|row| serde_json::to_value(row).expect("records serialize")).collect()
}
