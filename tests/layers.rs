//! The code reads one way (DESIGN.md section 11): a module of `src/` names only modules of
//! its own layer or of lower ones, files never import each other in a loop, nothing below the
//! handlers names `AppState`, and a child module never takes a name from its parent's file
//! (a `mod.rs` holds declarations, not helpers its children need). The layers are the ones
//! `src/lib.rs` declares. The islands' TypeScript (`islands/src/`) has no import loop either.
//!
//! Read from the source as written: comments and string literals are blanked, then every
//! `use` tree and every path that starts with `crate`, `super`, `self`, a child module or a
//! name a `use` bound to a module is resolved to the module file it lands in.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// A source tree: module path (`["cache", "pages"]` for `src/cache/pages.rs`) to its text.
type Tree = BTreeMap<Vec<String>, String>;

/// One layer of `lib.rs`'s table: its number (1 is the top) and name, per top-level module.
type Layers = BTreeMap<String, (u32, String)>;

#[test]
fn src_has_one_direction_and_no_loops() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let tree = read_tree(&root);
    let layers = layer_table(&tree[&Vec::new()]);
    assert!(layers.len() >= 6, "src/lib.rs declares its modules under numbered layer headings: {layers:?}");
    let problems = check(&tree, &layers);
    assert!(problems.is_empty(), "the layer rule (DESIGN.md section 11) is broken:\n{}", problems.join("\n"));
}

#[test]
fn islands_have_no_import_loop() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("islands/src");
    let mut files = BTreeMap::new();
    read_ts(&root, &root, &mut files);
    assert!(files.len() > 20, "islands/src was read ({} files)", files.len());
    let loops = ts_loops(&files);
    assert!(loops.is_empty(), "islands/src imports in a loop:\n{}", loops.join("\n"));
}

/// The same check on the real tree with one upward import added (the cache naming the
/// accept loop): it is reported, with its file and name.
#[test]
fn an_upward_import_added_to_src_is_reported() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut tree = read_tree(&root);
    let layers = layer_table(&tree[&Vec::new()]);
    let pages = tree.get_mut(&vec!["cache".to_string(), "pages".to_string()]).expect("src/cache/pages.rs");
    pages.push_str("\nfn stop() { let _ = crate::server::accept::shutdown_signal(); }\n");
    let problems = check(&tree, &layers).join("\n");
    assert!(
        problems.contains("src/cache/pages.rs (6 foundation) names crate::server::accept::shutdown_signal (1 process)"),
        "{problems}"
    );
}

/// The `src/` root holds the entry points and the foundation's few shared files (DESIGN.md
/// section 11); every other file sits in the folder of the area it serves.
#[test]
fn the_src_root_holds_only_entry_points_and_shared_foundation_files() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let allowed = ["main.rs", "lib.rs", "cli.rs", "config.rs", "db.rs", "error.rs"];
    let mut loose: Vec<String> = std::fs::read_dir(&root)
        .unwrap()
        .map(|entry| entry.unwrap())
        .filter(|entry| entry.file_type().unwrap().is_file())
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
        .filter(|name| !allowed.contains(&name.as_str()))
        .collect();
    loose.sort();
    assert!(loose.is_empty(), "files loose at the src/ root, each belongs in an area's folder: {loose:?}");
}

/// A migration both engines accept is one file, linked from `migrations/postgres/`, never a
/// copy that could drift (migrations/README.md).
#[test]
fn no_migration_is_copied_between_engines() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("migrations");
    let mut copies = Vec::new();
    for entry in std::fs::read_dir(root.join("postgres")).unwrap() {
        let path = entry.unwrap().path();
        let sqlite = root.join("sqlite").join(path.file_name().unwrap());
        let linked = std::fs::symlink_metadata(&path).unwrap().file_type().is_symlink();
        if !linked && sqlite.exists() && std::fs::read(&path).unwrap() == std::fs::read(&sqlite).unwrap() {
            copies.push(path.file_name().unwrap().to_string_lossy().into_owned());
        }
    }
    copies.sort();
    assert!(copies.is_empty(), "migrations/postgres/ copies these from sqlite/ instead of linking them: {copies:?}");
}

/// The README's "Layout" table names every top-level module of `src/`, and every `src/`
/// path it names exists.
#[test]
fn the_readme_layout_table_matches_the_tree() {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(manifest.join("README.md")).unwrap();
    let table = readme.split("## Layout").nth(1).unwrap().split("\n## ").next().unwrap();
    let rows: Vec<&str> = table.lines().filter(|line| line.starts_with('|')).collect();
    let named: Vec<&str> =
        rows.iter().flat_map(|row| row.split('`').skip(1).step_by(2)).filter(|path| path.starts_with("src/")).collect();
    for path in &named {
        assert!(manifest.join(path).exists(), "README's Layout table names {path}, which does not exist");
    }
    let layers = layer_table(&std::fs::read_to_string(manifest.join("src/lib.rs")).unwrap());
    for module in layers.keys() {
        let listed = named.iter().any(|path| {
            *path == format!("src/{module}.rs")
                || *path == format!("src/{module}/")
                || path.starts_with(&format!("src/{module}/"))
        });
        assert!(listed, "README's Layout table does not name src/{module}");
    }
    // The layers appear in order, top first.
    let order: Vec<u32> =
        rows.iter().filter_map(|row| row.trim_start_matches("| ").split(' ').next()?.parse().ok()).collect();
    assert_eq!(order, [1, 2, 3, 4, 5, 6], "README's Layout table shows each layer once, in order");
}

/// The layout's figures (issue 41 item 4), printed for the README's Layout section, and held
/// where they stand so they never grow back: `cargo test --test site layers::layout_figures
/// -- --nocapture` prints them.
/// - floors: the longest chain of imports between the areas of `src/` (a folder is one
///   area, a root file one, `main.rs` on top), each area one floor above what it imports;
/// - the handlers' share of the Rust lines under `src/`, and their longest file.
#[test]
fn layout_figures() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let tree = read_tree(&root);
    let (floors, chain, heights) = floors(&tree);
    let lines = |path: &Path| std::fs::read_to_string(path).unwrap().lines().count();
    let mut all = 0;
    let mut handlers = 0;
    let mut longest = (0, String::new());
    for path in rust_files(&root) {
        let n = lines(&path);
        all += n;
        if path.starts_with(root.join("handlers")) {
            handlers += n;
            let name = path.strip_prefix(&root).unwrap().display().to_string();
            longest = longest.max((n, name));
        }
    }
    let share = 100.0 * handlers as f64 / all as f64;
    println!("floors: {floors} ({})", chain.join(" > "));
    for floor in (1..=floors).rev() {
        let areas: Vec<&str> = heights.iter().filter(|(_, h)| **h == floor).map(|(a, _)| a.as_str()).collect();
        println!("  floor {floor:>2}: {}", areas.join(", "));
    }
    println!("handlers: {handlers} of {all} lines under src/ ({share:.1}%)");
    println!("longest handler file: src/{} ({} lines)", longest.1, longest.0);
    // Where they stand now (issue 41's targets: 10 floors, 20%, 400 lines); lower these
    // as the layout improves, never raise them.
    assert!(floors <= FLOORS_NOW, "{floors} floors, more than the {FLOORS_NOW} of before: {}", chain.join(" > "));
    assert!(share <= HANDLER_SHARE_NOW, "handlers hold {share:.1}% of src/, more than {HANDLER_SHARE_NOW}%");
    assert!(longest.0 <= HANDLER_LINES_NOW, "src/{} has {} lines, over {HANDLER_LINES_NOW}", longest.1, longest.0);
}

/// The figures [`layout_figures`] holds: the most they may be today.
const FLOORS_NOW: usize = 10;
const HANDLER_SHARE_NOW: f64 = 16.5;
const HANDLER_LINES_NOW: usize = 330;

/// The number of floors of `tree`, one longest chain (top first) and each area's floor:
/// `main` imports `cli` and `server`; an area imports the areas its files name.
fn floors(tree: &Tree) -> (usize, Vec<String>, BTreeMap<String, usize>) {
    let area = |module: &[String]| module.first().cloned().unwrap_or_else(|| "lib".into());
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (module, text) in tree {
        if module.is_empty() {
            continue; // lib.rs only declares the areas
        }
        let code = blank_comments_and_strings(text);
        let from = area(module);
        let targets = graph.entry(from.clone()).or_default();
        for (_, target) in references(module, &code, tree) {
            let to = area(&target);
            if to != from && to != "lib" {
                targets.insert(to);
            }
        }
    }
    graph.insert("main".into(), ["cli".to_string(), "server".to_string()].into());
    fn height(
        node: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        memo: &mut BTreeMap<String, Vec<String>>,
        path: &mut Vec<String>,
    ) -> Vec<String> {
        if let Some(done) = memo.get(node) {
            return done.clone();
        }
        assert!(!path.iter().any(|p| p == node), "the areas import each other in a loop: {path:?} > {node}");
        path.push(node.to_string());
        let mut best = Vec::new();
        for next in graph.get(node).into_iter().flatten() {
            let chain = height(next, graph, memo, path);
            if chain.len() > best.len() {
                best = chain;
            }
        }
        path.pop();
        let mut chain = vec![node.to_string()];
        chain.extend(best);
        memo.insert(node.to_string(), chain.clone());
        chain
    }
    let mut memo = BTreeMap::new();
    let chain = height("main", &graph, &mut memo, &mut Vec::new());
    for area in graph.keys() {
        height(area, &graph, &mut memo, &mut Vec::new());
    }
    let heights = memo.into_iter().map(|(area, chain)| (area, chain.len())).collect();
    (chain.len(), chain, heights)
}

/// The check itself, on a small made-up tree: an upward import, a loop, `AppState` in the
/// domain and a child taking a helper from its `mod.rs` are each named, with file and name.
#[test]
fn the_check_names_each_kind_of_breach() {
    let lib = "// 1. process\npub mod server;\n// 2. handlers\npub mod handlers;\n// 3. domain\npub mod mail;\n// 4. foundation\npub mod cache;\n";
    let files = [
        (vec![], lib),
        (vec!["server"], "use crate::cache::Prepared;\npub fn lower_thread_priority() {}"),
        (vec!["handlers"], "use crate::mail::outbox;\npub struct AppState;"),
        (vec!["cache"], "pub fn f() { crate::server::lower_thread_priority(); }"),
        (vec!["mail"], "pub mod outbox;\npub mod worker;\npub fn compose() {}\npub fn a(state: &AppState) {}"),
        (vec!["mail", "outbox"], "use super::worker::run;\npub fn claim() {}"),
        (vec!["mail", "worker"], "use super::outbox;\npub fn run() { outbox::claim(); super::compose(); }"),
    ];
    let tree: Tree = files
        .into_iter()
        .map(|(path, text)| (path.into_iter().map(String::from).collect(), text.to_string()))
        .collect();
    let layers = layer_table(lib);
    let problems = check(&tree, &layers).join("\n");
    assert!(
        problems.contains("src/cache.rs (4 foundation) names crate::server::lower_thread_priority (1 process)"),
        "{problems}"
    );
    assert!(problems.contains("loop: src/mail/outbox.rs -> src/mail/worker.rs -> src/mail/outbox.rs"), "{problems}");
    assert!(problems.contains("loop: src/cache.rs -> src/server.rs -> src/cache.rs"), "{problems}");
    assert!(problems.contains("src/mail/mod.rs (3 domain) names AppState"), "{problems}");
    assert!(problems.contains("src/mail/worker.rs takes super::compose from its parent src/mail/mod.rs"), "{problems}");
    // Allowed: the same layer, a lower layer, a sibling named through `super`.
    assert!(!problems.contains("src/server.rs (1"), "{problems}");
    assert!(!problems.contains("src/handlers.rs"), "{problems}");
    assert_eq!(problems.lines().count(), 5, "{problems}");

    let ts: BTreeMap<String, String> = [
        ("runtime.ts", "import { a } from './lib/a';\nconst m = () => import('./mount');"),
        ("mount.tsx", "import {\n  actionable,\n} from './runtime';\nimport './styles/a.css';"),
        ("lib/a.ts", "export const a = 1;"),
    ]
    .into_iter()
    .map(|(name, text)| (name.to_string(), text.to_string()))
    .collect();
    assert_eq!(ts_loops(&ts), ["loop: mount.tsx -> runtime.ts -> mount.tsx"]);
}

fn read_tree(root: &Path) -> Tree {
    let mut tree = Tree::new();
    for path in rust_files(root) {
        let relative = path.strip_prefix(root).unwrap().to_string_lossy().into_owned();
        // The binary names the library by its crate name; it is above every layer.
        if relative == "main.rs" {
            continue;
        }
        let mut module: Vec<String> = relative.trim_end_matches(".rs").split('/').map(String::from).collect();
        if matches!(module.last().map(String::as_str), Some("mod" | "lib")) {
            module.pop();
        }
        tree.insert(module, std::fs::read_to_string(&path).unwrap());
    }
    tree
}

/// `lib.rs`'s table: a comment line `// N. name...` opens layer N; each `pub mod x;` below it
/// (up to the next heading) belongs to it.
fn layer_table(lib: &str) -> Layers {
    let mut layers = Layers::new();
    let mut current = None;
    for line in lib.lines().map(str::trim) {
        if let Some(heading) = line.strip_prefix("// ")
            && let Some((number, name)) = heading.split_once(". ")
            && let Ok(number) = number.parse::<u32>()
        {
            let name = name.split(|c: char| !c.is_alphanumeric()).next().unwrap_or(name);
            current = Some((number, name.to_string()));
        } else if let Some(module) = line.strip_prefix("pub mod").and_then(|rest| rest.trim().strip_suffix(';'))
            && let Some(layer) = &current
        {
            layers.insert(module.trim().to_string(), layer.clone());
        }
    }
    layers
}

fn file_name(module: &[String], tree: &Tree) -> String {
    if module.is_empty() {
        return "src/lib.rs".into();
    }
    let is_dir = tree.keys().any(|other| other.len() > module.len() && other.starts_with(module));
    if is_dir { format!("src/{}/mod.rs", module.join("/")) } else { format!("src/{}.rs", module.join("/")) }
}

/// Every breach of the rule in `tree`, one line each.
fn check(tree: &Tree, layers: &Layers) -> Vec<String> {
    let mut problems = Vec::new();
    let handlers = layers.values().find(|(_, name)| name == "handlers").map_or(0, |(number, _)| *number);
    let layer_of = |module: &[String]| module.first().and_then(|top| layers.get(top));
    let mut edges: BTreeMap<Vec<String>, BTreeMap<Vec<String>, String>> = BTreeMap::new();
    for (module, text) in tree {
        if module.is_empty() {
            continue;
        }
        let Some((number, name)) = layer_of(module) else {
            problems.push(format!("{} is in no layer of src/lib.rs", file_name(module, tree)));
            continue;
        };
        let code = blank_comments_and_strings(text);
        if *number > handlers && has_word(&code, "AppState") {
            problems.push(format!("{} ({number} {name}) names AppState", file_name(module, tree)));
        }
        for (path, target) in references(module, &code, tree) {
            let Some((target_number, target_name)) = layer_of(&target) else { continue };
            if target_number < number {
                problems.push(format!(
                    "{} ({number} {name}) names {} ({target_number} {target_name})",
                    file_name(module, tree),
                    path.join("::")
                ));
            }
            if target.len() < module.len() && module.starts_with(&target) {
                problems.push(format!(
                    "{} takes {} from its parent {}",
                    file_name(module, tree),
                    path.join("::"),
                    file_name(&target, tree)
                ));
            }
            edges.entry(module.clone()).or_default().entry(target).or_insert_with(|| path.join("::"));
        }
    }
    let graph: BTreeMap<String, BTreeSet<String>> = edges
        .iter()
        .map(|(from, to)| (file_name(from, tree), to.keys().map(|to| file_name(to, tree)).collect()))
        .collect();
    problems.extend(loops(&graph));
    problems
}

fn has_word(code: &str, word: &str) -> bool {
    code.match_indices(word).any(|(at, _)| {
        let before = code[..at].chars().next_back();
        let after = code[at + word.len()..].chars().next();
        !before.is_some_and(is_ident) && !after.is_some_and(is_ident)
    })
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// `text` with comments removed and string and char literals emptied, lengths kept (so
/// positions still match) except for what was blanked.
fn blank_comments_and_strings(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
            out.push(' ');
        } else if c == 'r'
            && (next == Some('"') || next == Some('#'))
            && !chars[..i].last().is_some_and(|&p| is_ident(p))
        {
            // A raw string: r"..." or r#"..."#.
            let mut j = i + 1;
            let mut hashes = 0;
            while chars.get(j) == Some(&'#') {
                hashes += 1;
                j += 1;
            }
            if chars.get(j) != Some(&'"') {
                out.push(c);
                i += 1;
                continue;
            }
            j += 1;
            loop {
                if j >= chars.len() {
                    break;
                }
                if chars[j] == '"' && (0..hashes).all(|k| chars.get(j + 1 + k) == Some(&'#')) {
                    j += 1 + hashes;
                    break;
                }
                j += 1;
            }
            out.push_str("\"\"");
            i = j;
        } else if c == '"' {
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                i += if chars[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
            out.push_str("\"\"");
        } else if c == '\'' && (next == Some('\\') || chars.get(i + 2) == Some(&'\'')) {
            // A char literal ('x', '\n', '\''), not a lifetime.
            i += 1;
            while i < chars.len() && chars[i] != '\'' {
                i += if chars[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
            out.push_str("' '");
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

/// The inline modules of a file (`mod tests { ... }`): name and the span of their body.
fn inline_modules(code: &str) -> Vec<(String, std::ops::Range<usize>)> {
    let mut found = Vec::new();
    for (at, _) in code.match_indices("mod ") {
        if code[..at].chars().next_back().is_some_and(is_ident) {
            continue;
        }
        let rest = &code[at + 4..];
        let name: String = rest.chars().take_while(|&c| is_ident(c)).collect();
        let after = rest[name.len()..].trim_start();
        if name.is_empty() || !after.starts_with('{') {
            continue;
        }
        let open = at + 4 + name.len() + (rest[name.len()..].len() - after.len());
        let mut depth = 0;
        let mut end = code.len();
        for (offset, c) in code[open..].char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = open + offset;
                        break;
                    }
                }
                _ => {}
            }
        }
        found.push((name, open..end));
    }
    found
}

/// The child modules a file declares (`mod x;`, `pub mod x;`).
fn declared_children(code: &str) -> BTreeSet<String> {
    code.split(';')
        .filter_map(|statement| {
            let words: Vec<&str> = statement.split_whitespace().collect();
            let at = words.iter().rposition(|w| *w == "mod")?;
            (at + 2 == words.len()).then(|| words[at + 1].to_string())
        })
        .collect()
}

/// Every path of `code` (the file of `module`) that names a module of `tree`: the path as
/// written, made absolute, and the module file it lands in (other than the file's own).
fn references(module: &[String], code: &str, tree: &Tree) -> Vec<(Vec<String>, Vec<String>)> {
    let inline = inline_modules(code);
    let children = declared_children(code);
    // The module a position of the file is in (inline modules nest below the file's).
    let scope = |at: usize| {
        let mut scope = module.to_vec();
        for (name, span) in &inline {
            if span.contains(&at) {
                scope.push(name.clone());
            }
        }
        scope
    };
    let landing = |absolute: &[String]| {
        (1..=absolute.len()).rev().map(|n| absolute[..n].to_vec()).find(|prefix| tree.contains_key(prefix))
    };
    // `use` trees first: they bind names, which later paths may start with.
    let mut bound: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut paths: Vec<(usize, Vec<String>)> = Vec::new();
    let mut rest = String::with_capacity(code.len());
    let mut cursor = 0;
    for (at, _) in code.match_indices("use ") {
        if at < cursor || code[..at].chars().next_back().is_some_and(is_ident) {
            continue;
        }
        let Some(end) = code[at..].find(';') else { continue };
        for (path, name) in expand_use(&code[at + 4..at + end]) {
            if let Some(name) = name {
                bound.insert(name, path.clone());
            }
            paths.push((at, path));
        }
        rest.push_str(&code[cursor..at]);
        rest.push_str(&" ".repeat(end + 1));
        cursor = at + end + 1;
    }
    rest.push_str(&code[cursor..]);
    paths.extend(inline_paths(&rest));
    let mut found = Vec::new();
    for (at, path) in paths {
        let scope = scope(at);
        let mut absolute = match path[0].as_str() {
            "crate" => path[1..].to_vec(),
            "self" => [scope.clone(), path[1..].to_vec()].concat(),
            "super" => {
                let supers = path.iter().take_while(|s| *s == "super").count();
                let Some(keep) = scope.len().checked_sub(supers) else { continue };
                [scope[..keep].to_vec(), path[supers..].to_vec()].concat()
            }
            first if children.contains(first) && scope.len() == module.len() => [scope.clone(), path.clone()].concat(),
            first => match bound.get(first) {
                Some(target) if path.len() > 1 => [resolve_bound(target, module), path[1..].to_vec()].concat(),
                _ => continue,
            },
        };
        absolute.retain(|segment| segment != "*" && segment != "self");
        let Some(target) = landing(&absolute) else { continue };
        if target.as_slice() != module {
            found.push((path, target));
        }
    }
    found
}

/// What a `use` bound a name to, made absolute when it started with `crate`.
fn resolve_bound(target: &[String], module: &[String]) -> Vec<String> {
    match target[0].as_str() {
        "crate" => target[1..].to_vec(),
        "super" => {
            let supers = target.iter().take_while(|s| *s == "super").count();
            [module[..module.len().saturating_sub(supers)].to_vec(), target[supers..].to_vec()].concat()
        }
        "self" => [module.to_vec(), target[1..].to_vec()].concat(),
        _ => [module.to_vec(), target.to_vec()].concat(),
    }
}

/// The paths of a `use` tree (`crate::{a, b::{c, d as e}}`), each with the name it binds.
fn expand_use(tree: &str) -> Vec<(Vec<String>, Option<String>)> {
    fn expand(prefix: &[String], tree: &str, out: &mut Vec<(Vec<String>, Option<String>)>) {
        let tree = tree.trim();
        if tree.is_empty() {
            return;
        }
        if let Some(open) = tree.find('{') {
            let base: Vec<String> =
                tree[..open].split("::").map(str::trim).filter(|s| !s.is_empty()).map(String::from).collect();
            let prefix = [prefix.to_vec(), base].concat();
            let inner = &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())];
            let (mut depth, mut start) = (0, 0);
            for (i, c) in inner.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        expand(&prefix, &inner[start..i], out);
                        start = i + 1;
                    }
                    _ => {}
                }
            }
            expand(&prefix, &inner[start..], out);
            return;
        }
        let (path, alias) = match tree.split_once(" as ") {
            Some((path, alias)) => (path, Some(alias.trim().to_string())),
            None => (tree, None),
        };
        let mut path: Vec<String> =
            [prefix.to_vec(), path.split("::").map(|s| s.trim().to_string()).collect()].concat();
        if path.last().is_some_and(|s| s == "self") {
            path.pop();
        }
        let name = alias.or_else(|| path.last().cloned()).filter(|name| name != "*" && name != "_");
        out.push((path, name));
    }
    let tree = tree.trim();
    let tree = tree.strip_prefix("::").unwrap_or(tree);
    let mut out = Vec::new();
    expand(&[], tree, &mut out);
    out.retain(|(path, _)| !path.is_empty());
    out
}

/// Paths written in code (`crate::cache::Prepared::new`, `super::x`, `outbox::claim`): every
/// run of identifiers joined by `::` that is not itself the tail of a longer path.
fn inline_paths(code: &str) -> Vec<(usize, Vec<String>)> {
    let bytes = code.as_bytes();
    let mut found = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i] as char;
        let starts = (c.is_ascii_alphabetic() || c == '_')
            && !(i > 0 && (is_ident(bytes[i - 1] as char) || (i >= 2 && &code[i - 2..i] == "::")));
        if !starts {
            i += 1;
            continue;
        }
        let begin = i;
        let mut path = Vec::new();
        loop {
            let start = i;
            while i < bytes.len() && is_ident(bytes[i] as char) {
                i += 1;
            }
            path.push(code[start..i].to_string());
            if code[i..].starts_with("::") && code[i + 2..].starts_with(|c: char| c.is_alphabetic() || c == '_') {
                i += 2;
            } else {
                break;
            }
        }
        if path.len() > 1 {
            found.push((begin, path));
        }
    }
    found
}

/// Each import loop of `graph` (file to the files it names), as `loop: a -> b -> a`.
fn loops(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<String> {
    // Tarjan's strongly connected components; a component of two or more files is a loop,
    // named by one cycle through it (the shortest from its first file).
    struct Tarjan<'g> {
        graph: &'g BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'g str, usize>,
        low: BTreeMap<&'g str, usize>,
        stack: Vec<&'g str>,
        on_stack: BTreeSet<&'g str>,
        components: Vec<Vec<&'g str>>,
    }
    impl<'g> Tarjan<'g> {
        fn visit(&mut self, node: &'g str) {
            let n = self.index.len();
            self.index.insert(node, n);
            self.low.insert(node, n);
            self.stack.push(node);
            self.on_stack.insert(node);
            for next in self.graph.get(node).into_iter().flatten() {
                let next = next.as_str();
                if !self.index.contains_key(next) {
                    self.visit(next);
                    let low = self.low[node].min(self.low[next]);
                    self.low.insert(node, low);
                } else if self.on_stack.contains(next) {
                    let low = self.low[node].min(self.index[next]);
                    self.low.insert(node, low);
                }
            }
            if self.low[node] == self.index[node] {
                let mut component = Vec::new();
                while let Some(top) = self.stack.pop() {
                    self.on_stack.remove(top);
                    component.push(top);
                    if top == node {
                        break;
                    }
                }
                if component.len() > 1 {
                    component.sort();
                    self.components.push(component);
                }
            }
        }
    }
    let mut tarjan = Tarjan {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        components: Vec::new(),
    };
    for node in graph.keys() {
        if !tarjan.index.contains_key(node.as_str()) {
            tarjan.visit(node);
        }
    }
    let mut found: Vec<String> = tarjan
        .components
        .iter()
        .map(|component| {
            let inside: BTreeSet<&str> = component.iter().copied().collect();
            let start = component[0];
            // Breadth-first from `start` back to it, within the component.
            let mut previous: BTreeMap<&str, &str> = BTreeMap::new();
            let mut queue = std::collections::VecDeque::from([start]);
            let mut last = start;
            'search: while let Some(node) = queue.pop_front() {
                for next in graph.get(node).into_iter().flatten().map(String::as_str) {
                    if next == start {
                        last = node;
                        break 'search;
                    }
                    if inside.contains(next) && !previous.contains_key(next) {
                        previous.insert(next, node);
                        queue.push_back(next);
                    }
                }
            }
            let mut cycle = vec![start, last];
            while let Some(&before) = previous.get(cycle[cycle.len() - 1]) {
                cycle.push(before);
            }
            cycle.reverse();
            cycle.insert(0, start);
            cycle.dedup();
            let size = if component.len() > 2 { format!(" ({} files in all)", component.len()) } else { String::new() };
            format!("loop: {}{size}", cycle.join(" -> "))
        })
        .collect();
    found.sort();
    found
}

fn read_ts(root: &Path, dir: &Path, files: &mut BTreeMap<String, String>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            read_ts(root, &path, files);
        } else if path.extension().is_some_and(|e| e == "ts" || e == "tsx") {
            let name = path.strip_prefix(root).unwrap().to_string_lossy().into_owned();
            files.insert(name, std::fs::read_to_string(&path).unwrap());
        }
    }
}

/// Import loops among `files` (path relative to `islands/src/` to text), through static
/// `import ... from './x'`, `export ... from './x'` and dynamic `import('./x')`: a module
/// that loads its importer lazily still needs it, so the pair is one unit to read and test.
fn ts_loops(files: &BTreeMap<String, String>) -> Vec<String> {
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (name, text) in files {
        let dir = Path::new(name).parent().unwrap_or(Path::new(""));
        // `... from './x'` (imports and re-exports, over any number of lines), `import './x'`
        // and `import('./x')`.
        let targets =
            ["from '", "from \"", "import '", "import \"", "import('", "import(\""].into_iter().flat_map(|marker| {
                text.match_indices(marker).filter_map(move |(at, _)| {
                    let rest = &text[at + marker.len()..];
                    Some(&rest[..rest.find(['\'', '"'])?])
                })
            });
        for target in targets {
            if !target.starts_with('.') {
                continue;
            }
            let mut parts: Vec<String> = dir.iter().map(|s| s.to_string_lossy().into_owned()).collect();
            for segment in target.split('/') {
                match segment {
                    "." => {}
                    ".." => {
                        parts.pop();
                    }
                    other => parts.push(other.to_string()),
                }
            }
            let base = parts.join("/");
            let resolved = [".ts", ".tsx", "/index.ts", "/index.tsx", ""]
                .iter()
                .map(|ext| format!("{base}{ext}"))
                .find(|candidate| files.contains_key(candidate));
            if let Some(resolved) = resolved {
                graph.entry(name.clone()).or_default().insert(resolved);
            }
        }
    }
    loops(&graph)
}

/// Issue 41 item 4: no block of 10 or more lines stands twice in `src/`. Lines are compared
/// trimmed; blank lines, comments, `use` lines and lines of closing punctuation alone
/// (`}`, `});`, ...) are left out, so a block counts by what it says, not by its layout. Same
/// shape with other names (structs with the same field types, say) is the `duplicates` tool's
/// finding (README, Layout), not this test's.
#[test]
fn no_ten_line_block_stands_twice_in_src() {
    const BLOCK: usize = 10;
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut seen: BTreeMap<Vec<String>, (String, usize)> = BTreeMap::new();
    let mut twice = Vec::new();
    for path in rust_files(&root) {
        let name = path.strip_prefix(&root).unwrap().display().to_string();
        let text = std::fs::read_to_string(&path).unwrap();
        let kept: Vec<(usize, String)> = text
            .lines()
            .enumerate()
            .map(|(n, line)| (n + 1, line.trim().to_owned()))
            .filter(|(_, line)| {
                !line.is_empty()
                    && !line.starts_with("//")
                    && !line.starts_with("use ")
                    && !line.starts_with("pub use ")
                    && line.chars().any(|c| c.is_alphanumeric())
            })
            .collect();
        let mut last_reported = 0;
        for window in kept.windows(BLOCK) {
            let lines: Vec<String> = window.iter().map(|(_, l)| l.clone()).collect();
            let at = window[0].0;
            match seen.get(&lines) {
                Some((first, first_at)) if at > last_reported => {
                    twice.push(format!("src/{name}:{at} repeats src/{first}:{first_at}"));
                    last_reported = window[BLOCK - 1].0;
                }
                Some(_) => {}
                None => {
                    seen.insert(lines, (name.clone(), at));
                }
            }
        }
    }
    assert!(twice.is_empty(), "blocks of {BLOCK} lines written twice: make one and call it:\n{}", twice.join("\n"));
}

/// Every `.rs` file under `root`, sorted by path.
fn rust_files(root: &Path) -> Vec<std::path::PathBuf> {
    let mut stack = vec![root.to_path_buf()];
    let mut files = Vec::new();
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}
