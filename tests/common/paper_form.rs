//! A paper submission as the form posts it (multipart), for the tests that upload papers to a
//! running binary: the crash and backup tests (`site`) and the cluster's rolling restart.

/// A paper submission's multipart body (paper `n`, its own author address) carrying `pdf`.
pub fn paper_form_with(n: usize, pdf: &[u8]) -> (String, Vec<u8>) {
    let boundary = "crashtestboundary";
    let mut body = Vec::new();
    for (name, value) in [
        ("paperType", "Full Paper"),
        ("authorName", "Ana Cruz"),
        ("number", "+639171234567"),
        // One address per paper: an address gets at most 3 acknowledgements a day.
        ("email", &format!("author{n}@example.org")),
        ("country", "Philippines"),
        ("coAuthorName", "Ben Reyes"),
        ("paperTitle", &format!("Paper {n}")),
        ("department", "Engineering"),
        ("universityOrganization", "University of Manila"),
        ("presentationType", "Oral"),
        ("message", "Crash test"),
        ("conferenceSource", "linkedin"),
    ] {
        body.extend(
            format!("--{boundary}\r\nContent-Disposition: form-data; name=\"{name}\"\r\n\r\n{value}\r\n").bytes(),
        );
    }
    body.extend(
        format!("--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"p{n}.pdf\"\r\nContent-Type: application/pdf\r\n\r\n")
            .bytes(),
    );
    body.extend(pdf);
    body.extend(format!("\r\n--{boundary}--\r\n").bytes());
    (format!("multipart/form-data; boundary={boundary}"), body)
}
