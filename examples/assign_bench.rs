//! How long automatic review assignment takes (issue 32 item 4: 250 papers and 60 reviewers,
//! two reviewers a paper, in under a second). A benchmark's tool, not part of the server:
//! `bench/assign.sh` runs it. No database: it times the domain code the organisers' "Stage
//! automatic assignment" runs between reading the rows and writing the staged ones.
//!
//! ```sh
//! cargo build --release --example assign_bench
//! target/release/examples/assign_bench [PAPERS [REVIEWERS [PER_PAPER [ROUNDS]]]]
//! ```
//!
//! Made-up papers and reviewers from a fixed seed: each paper's title names one or two of 8
//! focus areas; each reviewer has one to three of them, a mail domain and an institution
//! that some authors share (about 3% of the pairs conflict by domain or affiliation), and
//! 2% of the pairs carry a declared conflict. Every reviewer may take 15 papers
//! (`max_papers_per_reviewer`'s default), 10 of them already holding one or two. Prints,
//! per round, the milliseconds of each step (the papers' topics, the conflict rules over
//! every pair, the min-cost flow) and checks the result: no conflict assigned, every paper
//! full, the loads' spread.

use std::collections::{HashMap, HashSet};
use std::error::Error;
use std::time::Instant;

use conference::review::assign::{self, Paper, Problem, Reviewer, paper_topics, topic_key};
use conference::review::conflicts;

#[path = "../tests/common/rng.rs"]
mod rng;

use rng::Rng;

const AREAS: [&str; 8] = [
    "Climate Change",
    "Renewable Energy",
    "Circular Economy",
    "Sustainable Technologies",
    "Smart Cities",
    "Water Management",
    "Artificial Intelligence",
    "Green Buildings",
];
const SUBJECTS: [&str; 8] = [
    "climate adaptation in coastal towns",
    "renewable microgrids for islands",
    "circular supply chains",
    "sustainable packaging technologies",
    "smart traffic for growing cities",
    "water reuse in industrial parks",
    "artificial neural forecasts of demand",
    "green roofs on public buildings",
];
const PLACES: [&str; 12] = [
    "University of Manila",
    "Port Quill Polytechnic",
    "Tide Institute",
    "Lantern College",
    "Harbour University",
    "Institute of Fog Signals",
    "Quillmouth Institute of Tides",
    "Northern Technical University",
    "Coastal Research Centre",
    "Delta State University",
    "Island Energy Lab",
    "City Planning Institute",
];

fn arg(n: usize, default: usize) -> Result<usize, Box<dyn Error>> {
    match std::env::args().nth(n) {
        Some(value) => Ok(value.parse().map_err(|_| format!("argument {n} ({value:?}) is not a number"))?),
        None => Ok(default),
    }
}

fn main() -> Result<(), Box<dyn Error>> {
    let papers_count = arg(1, 250)?;
    let reviewers_count = arg(2, 60)?;
    let per_paper = arg(3, 2)?;
    let rounds = arg(4, 5)?.max(1);
    let max_papers = 15;
    let mut rng = Rng(0x5EED_2026_1127);

    // Authors: one institution (and its domain) each; reviewers: elsewhere mostly.
    let authors: Vec<(String, String, String)> = (0..papers_count)
        .map(|i| {
            let place = rng.below(PLACES.len());
            let title = if rng.chance(30) {
                format!("{} and {}", rng.pick(&SUBJECTS), rng.pick(&SUBJECTS))
            } else {
                format!("On {} ({i})", rng.pick(&SUBJECTS))
            };
            (format!("author{i}@inst{place}.example.org"), PLACES[place].to_owned(), title)
        })
        .collect();
    let people: Vec<(String, String, Vec<String>)> = (0..reviewers_count)
        .map(|j| {
            let place = rng.below(PLACES.len() * 4);
            let (email, affiliation) = if place < PLACES.len() && rng.chance(10) {
                (format!("reviewer{j}@inst{place}.example.org"), PLACES[place].to_owned())
            } else {
                (format!("reviewer{j}@lab{j}.example.net"), format!("Independent Lab {j}"))
            };
            let topics = (0..1 + rng.below(3)).map(|_| rng.pick(&AREAS).to_string()).collect();
            (email, affiliation, topics)
        })
        .collect();
    let declared: HashSet<(i64, i64)> = (0..papers_count)
        .flat_map(|p| (0..reviewers_count).map(move |r| (p as i64, r as i64)))
        .filter(|_| rng.chance(2))
        .collect();
    let held: Vec<usize> = (0..reviewers_count).map(|j| if j < 10 { 1 + j % 2 } else { 0 }).collect();
    let webmail: HashSet<String> = ["gmail.com".to_owned()].into_iter().collect();

    println!(
        "# {papers_count} papers, {reviewers_count} reviewers, {per_paper} a paper, at most {max_papers} a reviewer; {rounds} rounds"
    );
    println!(
        "{:>6} {:>10} {:>12} {:>10} {:>10}  result",
        "round", "topics_ms", "conflicts_ms", "assign_ms", "total_ms"
    );
    let mut totals = Vec::new();
    for round in 1..=rounds {
        let started = Instant::now();
        let areas: Vec<&str> = AREAS.to_vec();
        let papers: Vec<Paper> = authors
            .iter()
            .enumerate()
            .map(|(i, (_, _, title))| Paper { id: i as i64, topics: paper_topics(title, &areas) })
            .collect();
        let topics_done = Instant::now();
        let rule_papers: Vec<(i64, conflicts::Paper<'_>)> = authors
            .iter()
            .enumerate()
            .map(|(i, (email, affiliation, _))| (i as i64, conflicts::Paper { email, affiliation }))
            .collect();
        let rule_reviewers: Vec<(i64, conflicts::Reviewer<'_>)> = people
            .iter()
            .enumerate()
            .map(|(j, (email, affiliation, _))| (j as i64, conflicts::Reviewer { email, affiliation }))
            .collect();
        let conflicted = assign::conflicted_pairs(&rule_papers, &rule_reviewers, &webmail, &declared);
        let conflicts_done = Instant::now();
        let reviewers: Vec<Reviewer> = people
            .iter()
            .enumerate()
            .map(|(j, (_, _, topics))| Reviewer {
                id: j as i64,
                topics: topics.iter().map(|t| topic_key(t)).collect(),
                load: held[j],
                capacity: max_papers - held[j],
            })
            .collect();
        let live = HashSet::new();
        let problem = Problem {
            papers: &papers,
            reviewers: &reviewers,
            live: &live,
            conflicts: &conflicted,
            reviewers_per_paper: per_paper,
        };
        let pairs = assign::assign(&problem);
        let done = Instant::now();

        assert!(pairs.iter().all(|pair| !conflicted.contains(pair)), "a conflicted pair was assigned");
        let mut per: HashMap<i64, usize> = HashMap::new();
        for (paper, _) in &pairs {
            *per.entry(*paper).or_default() += 1;
        }
        let full = per.values().filter(|n| **n == per_paper).count();
        let loads = assign::loads_after(&reviewers, &pairs);
        let (low, high) = (loads.values().min().copied().unwrap_or(0), loads.values().max().copied().unwrap_or(0));
        let matched = pairs
            .iter()
            .filter(|(p, r)| papers[*p as usize].topics.iter().any(|t| reviewers[*r as usize].topics.contains(t)))
            .count();
        let ms = |from: Instant, to: Instant| (to - from).as_secs_f64() * 1000.0;
        let total = ms(started, done);
        totals.push(total);
        println!(
            "{round:>6} {:>10.2} {:>12.2} {:>10.2} {:>10.2}  {} pairs, {full}/{papers_count} papers full, {} conflicted pairs, loads {low}..{high}, {matched} topic matches",
            ms(started, topics_done),
            ms(topics_done, conflicts_done),
            ms(conflicts_done, done),
            total,
            pairs.len(),
            conflicted.len(),
        );
    }
    totals.sort_by(f64::total_cmp);
    println!("assignment: median {:.2} ms, worst {:.2} ms", totals[totals.len() / 2], totals[totals.len() - 1]);
    Ok(())
}
