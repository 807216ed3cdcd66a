//! Automatic assignment of reviewers to papers (issue 32 item 4, DESIGN.md section 15).
//!
//! [`assign`] gives each paper up to `reviewers_per_paper` reviewers, counting those it has,
//! never a conflicted pair ([`super::conflicts`], through [`conflicted_pairs`]), never one
//! reviewer twice on a paper, and never more papers to a reviewer than their capacity
//! (`max_papers_per_reviewer` minus their live assignments). Among the assignments that give
//! the most reviewers in all, it takes, in this order of priority:
//! 1. the most even load: the lowest sum of squares of every reviewer's live papers. Such an
//!    assignment also has the lowest busiest load and the highest idlest load of all
//!    (Frank and Murota, "Discrete decreasing minimization", 2019: the sets of loads a flow
//!    network reaches are M-convex, where square-sum minimisers are decreasingly minimal and
//!    increasingly maximal), so the spread between the busiest and the idlest reviewer is at
//!    most 1 whenever any assignment allows it;
//! 2. papers covered evenly: a paper's first missing reviewer before another's second;
//! 3. the most topic matches ([`paper_topics`]).
//!
//! It is a minimum-cost maximum flow, solved by `ac_library::MinCostFlowGraph` (successive
//! shortest paths): source → paper (one arc per missing reviewer, the k-th dearer than the
//! one before), paper → reviewer (capacity 1, cheaper on a topic match; no arc for a
//! conflicted or already assigned pair), reviewer → sink (one arc per paper the reviewer may
//! still take, the k-th costing `2(load + k) - 1`, the growth of the square of their load).
//! The three priorities are weights far enough apart that no amount of a lower one outweighs
//! one step of a higher one. 250 papers and 60 reviewers take a few milliseconds
//! (`bench/assign.sh`).

use std::collections::{HashMap, HashSet};

use ac_library::MinCostFlowGraph;

use super::conflicts;

/// A paper to assign: its submission id and the focus areas it is about (normalised,
/// [`topic_key`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Paper {
    pub id: i64,
    pub topics: Vec<String>,
}

/// An accepted reviewer: id, topics (normalised, [`topic_key`]), the papers they hold now
/// (live assignments: staged or released, any paper) and how many more they may take.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reviewer {
    pub id: i64,
    pub topics: Vec<String>,
    pub load: usize,
    pub capacity: usize,
}

/// What [`assign`] works on. Pairs are `(paper id, reviewer id)`.
#[derive(Debug, Clone, Copy)]
pub struct Problem<'a> {
    pub papers: &'a [Paper],
    pub reviewers: &'a [Reviewer],
    /// The live assignments of these papers: they count towards `reviewers_per_paper`, and
    /// the pair is not given again.
    pub live: &'a HashSet<(i64, i64)>,
    /// Pairs a conflict rule keeps apart ([`conflicted_pairs`]).
    pub conflicts: &'a HashSet<(i64, i64)>,
    pub reviewers_per_paper: usize,
}

/// A topic or focus area as compared: lower-case words separated by one space.
pub fn topic_key(topic: &str) -> String {
    topic.split_whitespace().map(str::to_lowercase).collect::<Vec<_>>().join(" ")
}

/// Words that say nothing about a field.
const STOP_WORDS: [&str; 12] =
    ["and", "the", "for", "with", "from", "into", "over", "under", "about", "its", "their", "using"];

/// The lower-case words of `text` that can name a field: letters and digits, at least four
/// characters, not a stop word; a plural `s` is dropped (`grids` reads as `grid`).
fn significant_words(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.chars().count() >= 4)
        .map(str::to_lowercase)
        .filter(|w| !STOP_WORDS.contains(&w.as_str()))
        .map(|w| match w.strip_suffix('s') {
            Some(stem) if stem.chars().count() >= 4 && !stem.ends_with('s') => stem.to_owned(),
            _ => w,
        })
}

/// The focus areas (the seed's `site.focus_areas`, one a line) a paper is about, normalised
/// ([`topic_key`]). The paper form has no topic field, so a paper is about a focus area when
/// its title or public abstract (`text`) has one of the area's significant words: four
/// letters or more, not "and", "the", "for", ..., plural `s` dropped. "Renewable Energy"
/// matches "Energy storage for islands"; "Tidal Computing" matches "Tidal models". Only a
/// preference rests on it: a wrong guess costs a topic match, never a conflict.
pub fn paper_topics(text: &str, focus_areas: &[&str]) -> Vec<String> {
    let words: HashSet<String> = significant_words(text).collect();
    focus_areas
        .iter()
        .filter(|area| significant_words(area).any(|w| words.contains(&w)))
        .map(|area| topic_key(area))
        .filter(|key| !key.is_empty())
        .collect()
}

/// A reviewer or a paper as the conflict rules read it, with its id.
pub type WithId<'a, T> = (i64, T);

/// Every `(paper id, reviewer id)` pair that a rule of [`conflicts::conflict`] keeps apart.
/// `declared` holds the `(paper id, reviewer id)` pairs with a declared conflict.
pub fn conflicted_pairs(
    papers: &[WithId<'_, conflicts::Paper<'_>>],
    reviewers: &[WithId<'_, conflicts::Reviewer<'_>>],
    webmail: &HashSet<String>,
    declared: &HashSet<(i64, i64)>,
) -> HashSet<(i64, i64)> {
    let mut pairs = HashSet::new();
    for (paper_id, paper) in papers {
        for (reviewer_id, reviewer) in reviewers {
            let pair = (*paper_id, *reviewer_id);
            if conflicts::conflict(reviewer, paper, webmail, declared.contains(&pair)).is_some() {
                pairs.insert(pair);
            }
        }
    }
    pairs
}

/// How many papers each of `reviewers` would hold after `new` pairs are added (their `load`
/// plus the new pairs), by reviewer id.
pub fn loads_after(reviewers: &[Reviewer], new: &[(i64, i64)]) -> HashMap<i64, usize> {
    let mut loads: HashMap<i64, usize> = reviewers.iter().map(|r| (r.id, r.load)).collect();
    for (_, reviewer) in new {
        *loads.entry(*reviewer).or_default() += 1;
    }
    loads
}

/// The busiest load minus the idlest (0 for no reviewer): what balance keeps at most 1.
pub fn spread(loads: &HashMap<i64, usize>) -> usize {
    loads.values().max().copied().unwrap_or(0) - loads.values().min().copied().unwrap_or(0)
}

/// The new `(paper id, reviewer id)` pairs to stage, sorted (see the module's rules).
pub fn assign(problem: &Problem<'_>) -> Vec<(i64, i64)> {
    let mut existing: HashMap<i64, usize> = HashMap::new();
    for (paper, _) in problem.live {
        *existing.entry(*paper).or_default() += 1;
    }
    let has = |paper: i64| existing.get(&paper).copied().unwrap_or(0);
    // The papers still short of reviewers, each with the reviewers it may get.
    let open: Vec<(&Paper, usize, Vec<usize>)> = problem
        .papers
        .iter()
        .filter_map(|paper| {
            let needed = problem.reviewers_per_paper.saturating_sub(has(paper.id));
            let allowed: Vec<usize> = (0..problem.reviewers.len())
                .filter(|&j| {
                    let pair = (paper.id, problem.reviewers[j].id);
                    problem.reviewers[j].capacity > 0
                        && !problem.conflicts.contains(&pair)
                        && !problem.live.contains(&pair)
                })
                .collect();
            (needed > 0 && !allowed.is_empty()).then_some((paper, needed, allowed))
        })
        .collect();
    // A bound on the pairs made; the weights below keep each priority above any sum of the
    // lower ones.
    let most: usize = open.iter().map(|(_, needed, allowed)| (*needed).min(allowed.len())).sum();
    if most == 0 {
        return Vec::new();
    }
    let most = most as i128;
    let paper_weight = most + 1;
    let load_weight = paper_weight * most * problem.reviewers_per_paper as i128 + most + 1;
    // How many of the open papers each reviewer may take: no arc beyond that is ever used.
    let mut reachable = vec![0usize; problem.reviewers.len()];
    for (_, _, allowed) in &open {
        for &j in allowed {
            reachable[j] += 1;
        }
    }

    let source = 0;
    let first_reviewer = 1 + open.len();
    let sink = first_reviewer + problem.reviewers.len();
    let mut graph = MinCostFlowGraph::<i128>::new(sink + 1);
    let mut pair_arcs = Vec::new();
    for (i, (paper, needed, allowed)) in open.iter().enumerate() {
        let node = 1 + i;
        for k in 0..*needed {
            graph.add_edge(source, node, 1, paper_weight * (has(paper.id) + k) as i128);
        }
        for &j in allowed {
            let reviewer = &problem.reviewers[j];
            let matched = paper.topics.iter().any(|t| reviewer.topics.contains(t));
            let arc = graph.add_edge(node, first_reviewer + j, 1, if matched { 0 } else { 1 });
            pair_arcs.push((arc, paper.id, reviewer.id));
        }
    }
    for (j, reviewer) in problem.reviewers.iter().enumerate() {
        for k in 1..=reviewer.capacity.min(reachable[j]) {
            let load = (reviewer.load + k) as i128;
            graph.add_edge(first_reviewer + j, sink, 1, load_weight * (2 * load - 1));
        }
    }
    graph.flow(source, sink, i128::MAX);
    let mut pairs: Vec<(i64, i64)> = pair_arcs
        .into_iter()
        .filter(|(arc, _, _)| graph.get_edge(*arc).flow == 1)
        .map(|(_, paper, reviewer)| (paper, reviewer))
        .collect();
    pairs.sort_unstable();
    pairs
}

#[cfg(test)]
mod tests {
    use ac_library::MfGraph;

    use super::*;

    /// xorshift64* (Vigna, 2016): the same instances on every run, no dependency.
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
        }

        fn below(&mut self, n: usize) -> usize {
            (self.next() % n as u64) as usize
        }

        fn chance(&mut self, percent: usize) -> bool {
            self.below(100) < percent
        }
    }

    const TOPICS: [&str; 5] = ["tidal computing", "lantern studies", "harbour logistics", "quill craft", "fog signals"];

    /// Each reviewer's (lower, upper) bound on new papers.
    type Bounds<'a> = &'a dyn Fn(&Reviewer) -> (i64, i64);

    /// An instance owned by the test: papers, reviewers, live pairs, conflicts, the target.
    struct Instance {
        papers: Vec<Paper>,
        reviewers: Vec<Reviewer>,
        live: HashSet<(i64, i64)>,
        conflicts: HashSet<(i64, i64)>,
        per_paper: usize,
    }

    impl Instance {
        fn problem(&self) -> Problem<'_> {
            Problem {
                papers: &self.papers,
                reviewers: &self.reviewers,
                live: &self.live,
                conflicts: &self.conflicts,
                reviewers_per_paper: self.per_paper,
            }
        }

        fn matches(&self, paper: i64, reviewer: i64) -> bool {
            let p = self.papers.iter().find(|p| p.id == paper).unwrap();
            let r = self.reviewers.iter().find(|r| r.id == reviewer).unwrap();
            p.topics.iter().any(|t| r.topics.contains(t))
        }

        fn existing(&self, paper: i64) -> usize {
            self.live.iter().filter(|(p, _)| *p == paper).count()
        }

        fn needed(&self, paper: i64) -> usize {
            self.per_paper.saturating_sub(self.existing(paper))
        }

        /// Whether a new pair may be made at all.
        fn allowed(&self, paper: i64, reviewer: &Reviewer) -> bool {
            reviewer.capacity > 0
                && !self.conflicts.contains(&(paper, reviewer.id))
                && !self.live.contains(&(paper, reviewer.id))
        }

        /// The most new pairs any assignment makes, by a plain maximum flow (Dinic's, a
        /// different algorithm from the one under test), with each reviewer's new papers
        /// between `bounds` (lower, upper) when given; `None` when those bounds cannot hold.
        fn max_pairs(&self, bounds: Option<Bounds<'_>>, total: Option<i64>) -> Option<i64> {
            let (papers, reviewers) = (self.papers.len(), self.reviewers.len());
            let (source, sink, spare) = (0, 1 + papers + reviewers, 2 + papers + reviewers);
            let mut g = MfGraph::<i64>::new(spare + 1);
            for (i, paper) in self.papers.iter().enumerate() {
                g.add_edge(source, 1 + i, self.needed(paper.id) as i64);
                for (j, reviewer) in self.reviewers.iter().enumerate() {
                    if self.allowed(paper.id, reviewer) {
                        g.add_edge(1 + i, 1 + papers + j, 1);
                    }
                }
            }
            let Some(bounds) = bounds else {
                for (j, reviewer) in self.reviewers.iter().enumerate() {
                    g.add_edge(1 + papers + j, sink, reviewer.capacity as i64);
                }
                return Some(g.flow(source, sink));
            };
            // Lower bounds as mandatory arcs to the sink; the rest through `spare`, which lets
            // only what the total leaves over pass: the flow reaches `total` only when every
            // reviewer gets at least their lower bound.
            let total = total.unwrap();
            let mut lower_sum = 0;
            for (j, reviewer) in self.reviewers.iter().enumerate() {
                let (lower, upper) = bounds(reviewer);
                if lower > upper || upper < 0 {
                    return None;
                }
                let lower = lower.max(0);
                lower_sum += lower;
                g.add_edge(1 + papers + j, sink, lower);
                g.add_edge(1 + papers + j, spare, upper - lower);
            }
            if lower_sum > total {
                return None;
            }
            g.add_edge(spare, sink, total - lower_sum);
            (g.flow(source, sink) == total).then_some(total)
        }

        /// Whether some assignment with the most pairs leaves every reviewer's load within one
        /// of every other's.
        fn balance_possible(&self, pairs: i64) -> bool {
            if self.reviewers.is_empty() {
                return true;
            }
            let sum: i64 = self.reviewers.iter().map(|r| r.load as i64).sum::<i64>() + pairs;
            let low = sum / self.reviewers.len() as i64;
            let bounds = |r: &Reviewer| (low - r.load as i64, (low + 1 - r.load as i64).min(r.capacity as i64));
            self.max_pairs(Some(&bounds), Some(pairs)).is_some()
        }
    }

    /// A random instance: up to 40 papers and 12 reviewers, some already assigned, some
    /// conflicts, capacities from tight to ample.
    fn generate(rng: &mut Rng) -> Instance {
        let per_paper = 1 + rng.below(3);
        let papers: Vec<Paper> = (0..1 + rng.below(40))
            .map(|i| Paper { id: 100 + i as i64, topics: vec![TOPICS[rng.below(TOPICS.len())].to_owned()] })
            .collect();
        let reviewer_count = 1 + rng.below(12);
        let tight = rng.chance(30);
        let mut reviewers: Vec<Reviewer> = (0..reviewer_count)
            .map(|j| {
                let topics = (0..1 + rng.below(2)).map(|_| TOPICS[rng.below(TOPICS.len())].to_owned()).collect();
                let capacity = if tight { rng.below(4) } else { 2 + rng.below(20) };
                Reviewer { id: 1 + j as i64, topics, load: 0, capacity }
            })
            .collect();
        let conflict_percent = [0, 5, 20, 60][rng.below(4)];
        let mut conflicts = HashSet::new();
        let mut live = HashSet::new();
        for paper in &papers {
            for reviewer in reviewers.iter_mut() {
                if rng.chance(conflict_percent) {
                    conflicts.insert((paper.id, reviewer.id));
                } else if rng.chance(5) && reviewer.capacity > 0 {
                    live.insert((paper.id, reviewer.id));
                    reviewer.load += 1;
                    reviewer.capacity -= 1;
                }
            }
        }
        // Papers not in this run (decided ones) that some reviewers hold.
        for reviewer in reviewers.iter_mut() {
            if rng.chance(20) {
                let more = rng.below(3);
                reviewer.load += more;
                reviewer.capacity = reviewer.capacity.saturating_sub(more);
            }
        }
        Instance { papers, reviewers, live, conflicts, per_paper }
    }

    /// The rules every result keeps; whether balance was possible, and whether it was kept.
    fn check(instance: &Instance, pairs: &[(i64, i64)], seed: u64) -> (bool, bool) {
        let problem = instance.problem();
        let mut seen = HashSet::new();
        for pair in pairs {
            assert!(!instance.conflicts.contains(pair), "seed {seed}: conflicted pair {pair:?} assigned");
            assert!(!instance.live.contains(pair), "seed {seed}: pair {pair:?} assigned twice");
            assert!(seen.insert(*pair), "seed {seed}: pair {pair:?} given twice");
        }
        for paper in &instance.papers {
            let got = pairs.iter().filter(|(p, _)| *p == paper.id).count();
            assert!(got <= instance.needed(paper.id), "seed {seed}: paper {} got {got}, more than it needs", paper.id);
        }
        for reviewer in &instance.reviewers {
            let got = pairs.iter().filter(|(_, r)| *r == reviewer.id).count();
            assert!(got <= reviewer.capacity, "seed {seed}: reviewer {} above capacity", reviewer.id);
        }
        let most = instance.max_pairs(None, None).unwrap();
        assert_eq!(pairs.len() as i64, most, "seed {seed}: {} pairs where {most} were possible", pairs.len());
        // When every paper can have all it needs, it has.
        let needed: usize = instance.papers.iter().map(|p| instance.needed(p.id)).sum();
        if most as usize == needed {
            for paper in &instance.papers {
                let got = pairs.iter().filter(|(p, _)| *p == paper.id).count();
                assert_eq!(got, instance.needed(paper.id), "seed {seed}: paper {} short", paper.id);
            }
        }
        let possible = instance.balance_possible(most);
        let loads = loads_after(problem.reviewers, pairs);
        let spread = spread(&loads);
        if possible {
            assert!(spread <= 1, "seed {seed}: loads spread {spread} although balance was possible: {loads:?}");
        }
        (possible, spread <= 1)
    }

    #[test]
    fn generated_instances_are_assigned_fully_without_conflicts_and_balanced() {
        let mut balanced = 0;
        let runs: u64 = 400;
        for seed in 1..=runs {
            let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15));
            let instance = generate(&mut rng);
            let pairs = assign(&instance.problem());
            let (possible, _) = check(&instance, &pairs, seed);
            balanced += usize::from(possible);
        }
        // The generator must reach the case the rule is about, often.
        assert!(balanced > runs as usize / 4, "only {balanced} of {runs} instances could be balanced");
    }

    /// Reviewers in groups by topic, each group's papers exactly filling its reviewers: an
    /// assignment exists that is both even and all topic matches, so it is the one taken,
    /// whatever the conflicts between groups.
    #[test]
    fn a_perfect_topic_matching_is_found_when_one_exists() {
        for seed in 1..=60u64 {
            let mut rng = Rng(seed.wrapping_mul(0xD1B5_4A32_D192_ED03) | 1);
            let groups = 2 + rng.below(3);
            let per_group = 2 + rng.below(3);
            let per_paper = 1 + rng.below(per_group.min(3));
            // Papers per group so that papers × per_paper is a multiple of the group's size.
            let papers_per_group = per_group * (1 + rng.below(3));
            let mut papers = Vec::new();
            let mut reviewers = Vec::new();
            let mut conflicts = HashSet::new();
            for (g, topic) in TOPICS.iter().enumerate().take(groups) {
                for j in 0..per_group {
                    let id = (g * 10 + j) as i64 + 1;
                    reviewers.push(Reviewer { id, topics: vec![topic.to_string()], load: 0, capacity: 50 });
                }
                for i in 0..papers_per_group {
                    papers.push(Paper { id: (1000 + g * 100 + i) as i64, topics: vec![topic.to_string()] });
                }
            }
            for paper in &papers {
                for reviewer in &reviewers {
                    if paper.topics != reviewer.topics && rng.chance(40) {
                        conflicts.insert((paper.id, reviewer.id));
                    }
                }
            }
            let live = HashSet::new();
            let instance = Instance { papers, reviewers, live, conflicts, per_paper };
            let pairs = assign(&instance.problem());
            check(&instance, &pairs, seed);
            let off_topic: Vec<_> = pairs.iter().filter(|(p, r)| !instance.matches(*p, *r)).collect();
            assert!(
                off_topic.is_empty(),
                "seed {seed}: off-topic pairs {off_topic:?} though a perfect matching exists"
            );
        }
    }

    #[test]
    fn existing_loads_count_and_a_paper_full_already_gets_nobody() {
        // Reviewer 1 holds 3 papers elsewhere, the others fewer: the new papers go to the
        // idler reviewers first.
        let papers =
            vec![Paper { id: 10, topics: vec![] }, Paper { id: 11, topics: vec![] }, Paper { id: 12, topics: vec![] }];
        let reviewers = vec![
            Reviewer { id: 1, topics: vec![], load: 3, capacity: 10 },
            Reviewer { id: 2, topics: vec![], load: 0, capacity: 10 },
            Reviewer { id: 3, topics: vec![], load: 1, capacity: 10 },
        ];
        // Paper 12 has its two reviewers already.
        let live: HashSet<(i64, i64)> = [(12, 2), (12, 3)].into_iter().collect();
        let mut reviewers = reviewers;
        reviewers[1].load += 1;
        reviewers[2].load += 1;
        let conflicts = HashSet::new();
        let problem = Problem {
            papers: &papers,
            reviewers: &reviewers,
            live: &live,
            conflicts: &conflicts,
            reviewers_per_paper: 2,
        };
        let pairs = assign(&problem);
        assert_eq!(pairs.len(), 4);
        assert!(pairs.iter().all(|(p, _)| *p != 12), "{pairs:?}");
        let loads = loads_after(problem.reviewers, &pairs);
        // 3 + 1 + 2 existing, 4 new: 10 in all over three reviewers, so 3, 3, 4 in some order.
        let mut sorted: Vec<usize> = loads.values().copied().collect();
        sorted.sort_unstable();
        assert_eq!(sorted, vec![3, 3, 4], "{loads:?}");
    }

    #[test]
    fn topics_come_from_the_title_and_abstract_words_of_each_focus_area() {
        let areas = ["Renewable Energy", "Climate Change", "Tidal Computing", "The Circular Economy"];
        assert_eq!(paper_topics("Energy storage for islands", &areas), vec!["renewable energy"]);
        assert_eq!(
            paper_topics("Tidal models. Abstract: circular flows of renewables", &areas),
            vec!["renewable energy", "tidal computing", "the circular economy"]
        );
        assert!(paper_topics("The and for", &areas).is_empty(), "stop words and short words match nothing");
        assert_eq!(topic_key("  Tidal   COMPUTING "), "tidal computing");
    }

    #[test]
    fn conflicted_pairs_apply_every_rule_of_the_conflicts_module() {
        let papers = [
            (1, conflicts::Paper { email: "ana@tide.edu", affiliation: "Tide University" }),
            (2, conflicts::Paper { email: "ben@lantern.org", affiliation: "Lantern Works" }),
            (3, conflicts::Paper { email: "cy@gmail.com", affiliation: "Fog Institute" }),
        ];
        let reviewers = [
            (7, conflicts::Reviewer { email: "dee@tide.edu", affiliation: "Elsewhere" }),
            (8, conflicts::Reviewer { email: "eve@gmail.com", affiliation: "The Lantern Works" }),
            (9, conflicts::Reviewer { email: "fay@quill.org", affiliation: "" }),
        ];
        let webmail: HashSet<String> = ["gmail.com".to_owned()].into_iter().collect();
        let declared: HashSet<(i64, i64)> = [(3, 9)].into_iter().collect();
        let pairs = conflicted_pairs(&papers, &reviewers, &webmail, &declared);
        let expected: HashSet<(i64, i64)> = [(1, 7), (2, 8), (3, 9)].into_iter().collect();
        assert_eq!(pairs, expected);
    }
}
