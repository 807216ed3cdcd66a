//! The content collections of `/api/collections/{name}/records`, in the shape of the old
//! content backend (DESIGN.md section 5), listed from the snapshot: no SQL per request.

use std::cmp::Ordering;

use serde_json::Value;

/// A collection the API exposes and the fields a client may sort on (the record's JSON
/// keys: the spec's `order` is the speaker's `position` column).
#[derive(Debug)]
pub struct Collection {
    pub name: &'static str,
    sortable: &'static [&'static str],
}

/// Every collection the old backend served, with the spec's names.
pub static COLLECTIONS: [Collection; 6] = [
    Collection { name: "dates", sortable: &["created", "updated", "id", "date", "title"] },
    Collection { name: "committee", sortable: &["created", "updated", "id", "name", "committee"] },
    Collection { name: "schedule", sortable: &["created", "updated", "id", "date"] },
    Collection { name: "speakers", sortable: &["created", "updated", "id", "order", "name", "category"] },
    Collection { name: "co_organizers_img", sortable: &["created", "updated", "id", "img_title"] },
    Collection { name: "download_buttons", sortable: &["created", "updated", "id", "title"] },
];

/// Looks a collection up by its name (the id the API uses is the name too).
pub fn find(name: &str) -> Option<&'static Collection> {
    COLLECTIONS.iter().find(|c| c.name == name)
}

/// One sort key: a field and whether it sorts descending.
pub type SortKey = (&'static str, bool);

impl Collection {
    /// Turns a `sort` parameter (`created`, `-order`, `-created,id`) into sort keys of
    /// whitelisted fields, then `id` ascending as a stable tie-break so pages never overlap
    /// or skip records. `Err` names the first unknown field.
    pub fn sort_keys(&self, sort: &str) -> Result<Vec<SortKey>, String> {
        let mut keys = Vec::new();
        for part in sort.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (field, descending) = match part.strip_prefix('-') {
                Some(field) => (field, true),
                None => (part.strip_prefix('+').unwrap_or(part), false),
            };
            let field = self.sortable.iter().find(|f| **f == field).ok_or_else(|| field.to_string())?;
            keys.push((*field, descending));
        }
        keys.push(("id", false));
        Ok(keys)
    }
}

/// Sorts records by `keys`: strings by bytes (SQL's BINARY collation), numbers by value.
pub fn sort(records: &mut [&Value], keys: &[SortKey]) {
    records.sort_by(|a, b| {
        keys.iter()
            .map(|(field, descending)| {
                let order = compare(&a[*field], &b[*field]);
                if *descending { order.reverse() } else { order }
            })
            .find(|o| o.is_ne())
            .unwrap_or(Ordering::Equal)
    });
}

fn compare(a: &Value, b: &Value) -> Ordering {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            x.as_f64().unwrap_or(0.0).partial_cmp(&y.as_f64().unwrap_or(0.0)).unwrap_or(Ordering::Equal)
        }
        (Value::String(x), Value::String(y)) => x.cmp(y),
        // NULL sorts first, as in SQLite.
        (Value::Null, Value::Null) => Ordering::Equal,
        (Value::Null, _) => Ordering::Less,
        (_, Value::Null) => Ordering::Greater,
        _ => a.to_string().cmp(&b.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn sort_keys_are_whitelisted_and_end_with_id() {
        let speakers = find("speakers").unwrap();
        assert_eq!(speakers.sort_keys("-order, name").unwrap(), vec![("order", true), ("name", false), ("id", false)]);
        assert_eq!(speakers.sort_keys("").unwrap(), vec![("id", false)]);
        assert_eq!(speakers.sort_keys("password").unwrap_err(), "password");
    }

    #[test]
    fn records_sort_by_number_then_id() {
        let (a, b, c) =
            (json!({"id": "b", "order": 2}), json!({"id": "a", "order": 2}), json!({"id": "c", "order": 10}));
        let mut records = vec![&c, &a, &b];
        sort(&mut records, &[("order", false), ("id", false)]);
        assert_eq!(records, vec![&b, &a, &c]);
    }
}
