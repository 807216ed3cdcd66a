//! The payer of the checkout tests: one complete registration form (spec section 3), shared
//! by the `site` payment tests and the cluster tests (tests/cluster.rs includes this file).

use serde_json::{Value, json};

/// The registration form plus `target` (`{"plan": ...}`, `{"package": ...}`, or a custom
/// payment's fields), as the checkout modal posts it to `/api/ccavenue-initiate`.
pub fn checkout(target: Value) -> Value {
    let mut body = json!({
        "name": "Ximena Quilla Oyelaran",
        "email": "ximena.oyelaran@example.net",
        "phone": "+63 2 8765 4390",
        "address": "77 Orchard Lane",
        "city": "Manila",
        "state": "Metro Manila",
        "zip": "1000",
        "country": "Philippines",
    });
    let map = body.as_object_mut().expect("object");
    for (k, v) in target.as_object().expect("target is an object") {
        map.insert(k.clone(), v.clone());
    }
    body
}
