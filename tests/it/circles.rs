//! No import circle inside a crate, nor between the page's TypeScript modules: when two
//! files need each other, neither can be read or tested without the other, so the
//! shared item moves down to a file both import.
//!
//! The check reads the sources, not a compiler's output. A crate's files are found
//! from its root by its `mod` lines (a `#[cfg(test)]` module and a `#[path]` one are
//! left out: tests may import anything); a `mod` line places a child and is not an
//! import. Every path a file names (in a `use`, or written out as `crate::…`,
//! `super::…`, `self::…` or `child::…`) is an edge to the file that defines the
//! module it reaches; a name the module only re-exports with `use` is followed to the
//! file that defines it. A path into the file itself or into a module that encloses it
//! (its parent, up to the crate's root) is no edge: a module is a part of its parent,
//! which lists it, may re-export it and may hold what its children share, as a
//! crate's root does. Comments and strings are skipped. Then a circle is a strongly
//! connected set of two files or more.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The source roots of every crate of the workspace.
fn crate_roots() -> Vec<PathBuf> {
    let root = root();
    let mut roots = vec![root.join("src/lib.rs"), root.join("xtask/src/main.rs")];
    let mut crates: Vec<PathBuf> = fs::read_dir(root.join("crates"))
        .expect("crates/ is readable")
        .map(|entry| entry.expect("an entry of crates/").path())
        .collect();
    crates.sort();
    for dir in crates {
        roots.push(dir.join("src/lib.rs"));
    }
    roots.retain(|path| path.is_file());
    assert!(roots.len() >= 8, "the crates were not found: {roots:?}");
    roots
}

#[test]
fn no_rust_module_is_in_an_import_circle() {
    let mut found = Vec::new();
    for crate_root in crate_roots() {
        let modules = Crate::read(&crate_root);
        for circle in circles(&modules.edges()) {
            found.push(
                circle
                    .iter()
                    .map(|file| display(&modules.files[*file]))
                    .collect::<Vec<_>>()
                    .join(", "),
            );
        }
    }
    assert!(found.is_empty(), "import circles:\n{}", found.join("\n"));
}

#[test]
fn no_typescript_module_of_the_page_is_in_an_import_circle() {
    let dir = root().join("web/src").canonicalize().unwrap();
    let mut files = Vec::new();
    collect_ts(&dir, &mut files);
    assert!(files.len() >= 5, "web/src was not found");
    let mut edges = BTreeMap::new();
    for file in &files {
        let text = strip(
            &fs::read_to_string(file).expect("a source is readable"),
            true,
        );
        let mut targets = BTreeSet::new();
        // `import … from "./x"`, `export … from "./x"` and `import "./x"`.
        for (at, _) in text
            .match_indices("from \"")
            .chain(text.match_indices("import \""))
        {
            let rest = &text[at..];
            let start = rest.find('"').unwrap() + 1;
            let Some(len) = rest[start..].find('"') else {
                continue;
            };
            let spec = &rest[start..start + len];
            if !spec.starts_with('.') {
                continue;
            }
            let base = file.parent().unwrap().join(spec);
            let target = [base.with_extension("ts"), base.join("index.ts")]
                .into_iter()
                .find(|path| path.is_file())
                .map(|path| path.canonicalize().unwrap());
            if let Some(target) = target {
                targets.insert(files.iter().position(|f| *f == target).unwrap());
            }
        }
        edges.insert(files.iter().position(|f| f == file).unwrap(), targets);
    }
    let found: Vec<String> = circles(&edges)
        .iter()
        .map(|circle| {
            circle
                .iter()
                .map(|&file| display(&files[file]))
                .collect::<Vec<_>>()
                .join(", ")
        })
        .collect();
    assert!(found.is_empty(), "import circles:\n{}", found.join("\n"));
}

/// The check itself, on a crate made for it: two files that import each other are
/// found, through a re-export too; a child importing its parent is no circle, nor is
/// a test module importing anything.
#[test]
fn a_circle_is_found() {
    let dir = std::env::temp_dir().join(format!("cmg-circles-{}", std::process::id()));
    let write = |name: &str, text: &str| {
        let path = dir.join(name);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, text).unwrap();
    };
    write(
        "lib.rs",
        "mod a;\nmod b;\nmod c;\npub use b::Thing;\n#[cfg(test)]\nmod tests;\n",
    );
    write(
        "a.rs",
        "// crate::c::Used is a comment\nuse crate::Thing;\npub fn f() {}\n",
    );
    write("b.rs", "pub struct Thing;\nfn g() { crate::a::f() }\n");
    write(
        "c.rs",
        "use super::a::f;\nmod inner { use crate::b::Thing; }\n",
    );
    write("tests.rs", "use crate::a::*;\nuse crate::b::*;\n");
    let modules = Crate::read(&dir.join("lib.rs"));
    let found: Vec<Vec<String>> = circles(&modules.edges())
        .iter()
        .map(|circle| {
            circle
                .iter()
                .map(|file| modules.module_name(*file))
                .collect()
        })
        .collect();
    fs::remove_dir_all(&dir).unwrap();
    assert_eq!(found, [["a", "b"]]);
}

fn display(path: &Path) -> String {
    path.strip_prefix(root())
        .unwrap_or(path)
        .display()
        .to_string()
}

fn collect_ts(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            collect_ts(&path, out);
        } else if path.extension().is_some_and(|ext| ext == "ts") {
            out.push(path);
        }
    }
}

/// A crate's files, each with its module path, its children and its imports.
struct Crate {
    files: Vec<PathBuf>,
    modules: Vec<Vec<String>>,
    /// Each file's text, comments, strings and test modules left out.
    texts: Vec<String>,
    /// Each file's child modules declared with `mod` (and not a test's).
    children: Vec<BTreeSet<String>>,
}

impl Crate {
    fn read(root: &Path) -> Crate {
        let mut modules = Crate {
            files: Vec::new(),
            modules: Vec::new(),
            texts: Vec::new(),
            children: Vec::new(),
        };
        modules.visit(root.to_path_buf(), Vec::new());
        modules
    }

    fn visit(&mut self, file: PathBuf, module: Vec<String>) {
        let text = strip(
            &fs::read_to_string(&file).expect("a source is readable"),
            false,
        );
        let (text, declared) = without_test_modules(&text);
        let is_dir_owner = matches!(
            file.file_name().and_then(|name| name.to_str()),
            Some("lib.rs" | "main.rs" | "mod.rs")
        );
        let dir = if is_dir_owner {
            file.parent().unwrap().to_path_buf()
        } else {
            file.with_extension("")
        };
        self.files.push(file);
        self.modules.push(module.clone());
        self.texts.push(text);
        self.children.push(declared.iter().cloned().collect());
        for name in declared {
            let child = [
                dir.join(format!("{name}.rs")),
                dir.join(&name).join("mod.rs"),
            ]
            .into_iter()
            .find(|path| path.is_file());
            if let Some(child) = child {
                let mut path = module.clone();
                path.push(name);
                self.visit(child, path);
            }
        }
    }

    fn module_name(&self, file: usize) -> String {
        self.modules[file].join("::")
    }

    fn file_of(&self, module: &[String]) -> Option<usize> {
        self.modules.iter().position(|m| m == module)
    }

    /// Each file's imports: the files that define what its paths reach.
    fn edges(&self) -> BTreeMap<usize, BTreeSet<usize>> {
        let mut edges = BTreeMap::new();
        for file in 0..self.files.len() {
            let mut targets = BTreeSet::new();
            for path in paths(&self.texts[file]) {
                if let Some(absolute) = self.absolute(file, &path) {
                    if let Some(target) = self.definer(&absolute, 0) {
                        if !self.modules[file].starts_with(&self.modules[target]) {
                            targets.insert(target);
                        }
                    }
                }
            }
            edges.insert(file, targets);
        }
        edges
    }

    /// A path written in `file`, from the crate's root, or `None` outside the crate.
    fn absolute(&self, file: usize, path: &[String]) -> Option<Vec<String>> {
        let here = &self.modules[file];
        let mut out = here.clone();
        let mut rest = path;
        match path.first().map(String::as_str) {
            Some("crate") => {
                out.clear();
                rest = &path[1..];
            }
            Some("self") => rest = &path[1..],
            Some("super") => {
                while rest.first().map(String::as_str) == Some("super") {
                    out.pop()?;
                    rest = &rest[1..];
                }
            }
            Some(first) if self.children[file].contains(first) => {}
            _ => return None,
        }
        out.extend(rest.iter().cloned());
        Some(out)
    }

    /// The file that defines what `path` names: the deepest module file on it, or,
    /// when that file only imports the next name, the file that defines it.
    fn definer(&self, path: &[String], depth: usize) -> Option<usize> {
        let (file, len) = (0..=path.len())
            .rev()
            .find_map(|len| self.file_of(&path[..len]).map(|file| (file, len)))?;
        let Some(name) = path.get(len) else {
            return Some(file);
        };
        if depth < 8 {
            for (bound, target) in bindings(&self.texts[file]) {
                if bound == *name {
                    if let Some(mut absolute) = self.absolute(file, &target) {
                        absolute.extend(path[len + 1..].iter().cloned());
                        return self.definer(&absolute, depth + 1).or(Some(file));
                    }
                }
            }
        }
        Some(file)
    }
}

/// The text without comments, and unless `keep_strings`, with every string and character
/// literal emptied, so that neither is read as code.
fn strip(text: &str, keep_strings: bool) -> String {
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < bytes.len() {
        let rest = &text[i..];
        if rest.starts_with("//") {
            i += rest.find('\n').unwrap_or(rest.len());
        } else if rest.starts_with("/*") {
            i += rest.find("*/").map_or(rest.len(), |end| end + 2);
        } else if keep_strings {
            let c = rest.chars().next().unwrap();
            out.push(c);
            i += c.len_utf8();
        } else if rest.starts_with('"') {
            let quote = bytes[i];
            let mut j = i + 1;
            while j < bytes.len() && bytes[j] != quote {
                j += if bytes[j] == b'\\' { 2 } else { 1 };
            }
            out.push_str("\"\"");
            i = j + 1;
        } else if rest.starts_with("r#\"") || rest.starts_with("r\"") {
            let hashes = rest[1..].find('"').unwrap();
            let close = format!("\"{}", "#".repeat(hashes));
            let body = 1 + hashes + 1;
            i += body
                + rest[body..]
                    .find(&close)
                    .map_or(rest.len() - body, |end| end + close.len());
            out.push_str("\"\"");
        } else if rest.starts_with('\'') && rest[1..].chars().nth(1) == Some('\'') {
            // A character literal ('x'); a lifetime has no closing quote.
            i += 1 + rest[1..].chars().next().unwrap().len_utf8() + 1;
            out.push_str("' '");
        } else if rest.starts_with("'\\") {
            i += 3 + rest[3..].find('\'').map_or(0, |end| end + 1);
            out.push_str("' '");
        } else {
            let c = rest.chars().next().unwrap();
            out.push(c);
            i += c.len_utf8();
        }
    }
    out
}

/// The text without its `#[cfg(test)]` modules (inline ones whole), and the names of
/// the other modules it declares with `mod NAME;` (a `#[path]` one left out).
fn without_test_modules(text: &str) -> (String, Vec<String>) {
    let mut out = String::new();
    let mut declared = Vec::new();
    let mut rest = text;
    while let Some(at) = find_word(rest, "mod") {
        let before = &rest[..at];
        let after = &rest[at + 3..];
        let name: String = after
            .trim_start()
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        let tail = after.trim_start()[name.len()..].trim_start();
        let attributes = last_attributes(before);
        let is_test = attributes.contains("cfg(test)");
        if tail.starts_with(';') {
            if !is_test && !attributes.contains("path") && !name.is_empty() {
                declared.push(name);
            }
            out.push_str(&rest[..at + 3]);
            rest = &rest[at + 3..];
        } else if tail.starts_with('{') && is_test {
            out.push_str(before);
            let open = at + 3 + (after.len() - tail.len());
            let close = matching_brace(rest, open);
            rest = &rest[close..];
        } else {
            out.push_str(&rest[..at + 3]);
            rest = &rest[at + 3..];
        }
    }
    out.push_str(rest);
    (out, declared)
}

/// The attributes (`#[...]` lines) just before the end of `before`.
fn last_attributes(before: &str) -> String {
    let mut attributes = String::new();
    let mut text = before.trim_end();
    // Skip `pub`, `pub(crate)` and the like.
    for prefix in ["pub(crate)", "pub(super)", "pub"] {
        if let Some(stripped) = text.strip_suffix(prefix) {
            text = stripped.trim_end();
            break;
        }
    }
    while text.ends_with(']') {
        let Some(open) = text.rfind("#[") else { break };
        attributes.push_str(&text[open..]);
        text = text[..open].trim_end();
    }
    attributes
}

fn matching_brace(text: &str, open: usize) -> usize {
    let mut depth = 0;
    for (i, c) in text[open..].char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return open + i + 1;
                }
            }
            _ => {}
        }
    }
    text.len()
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Where `word` occurs as a whole word.
fn find_word(text: &str, word: &str) -> Option<usize> {
    text.match_indices(word).map(|(at, _)| at).find(|&at| {
        !text[..at].ends_with(is_ident) && !text[at + word.len()..].starts_with(is_ident)
    })
}

/// The `use` items of a text as (bound name, path) pairs, globs left out.
fn bindings(text: &str) -> Vec<(String, Vec<String>)> {
    let mut out = Vec::new();
    for tree in use_trees(text) {
        expand(tree, &mut Vec::new(), &mut out);
    }
    out
}

/// The trees of every `use` item, from after `use` to the `;`.
fn use_trees(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(at) = find_word(rest, "use") {
        let tail = &rest[at + 3..];
        let end = tail.find(';').unwrap_or(tail.len());
        out.push(&tail[..end]);
        rest = &tail[end..];
    }
    out
}

/// Expands one use tree (`a::{b, c::d as e, self}`) under `prefix`.
fn expand(tree: &str, prefix: &mut Vec<String>, out: &mut Vec<(String, Vec<String>)>) {
    let tree = tree.trim();
    let (head, group) = match tree.find('{') {
        Some(open) => (
            &tree[..open],
            Some(&tree[open + 1..tree.rfind('}').unwrap_or(tree.len())]),
        ),
        None => (tree, None),
    };
    let (head, alias) = match head.split_once(" as ") {
        Some((head, alias)) => (head, Some(alias.trim().to_string())),
        None => (head, None),
    };
    let segments: Vec<String> = head
        .split("::")
        .map(|s| s.trim().trim_start_matches(':').to_string())
        .filter(|s| !s.is_empty())
        .collect();
    let depth = prefix.len();
    prefix.extend(segments.iter().cloned());
    match group {
        Some(group) => {
            for item in split_top(group) {
                expand(item, prefix, out);
            }
        }
        None => {
            if prefix.last().map(String::as_str) == Some("self") {
                prefix.pop();
            }
            let glob = prefix.last().map(String::as_str) == Some("*");
            if !glob && !prefix.is_empty() {
                let name = alias.unwrap_or_else(|| prefix.last().unwrap().clone());
                out.push((name, prefix.clone()));
            } else if glob {
                let mut path = prefix.clone();
                path.pop();
                out.push(("*".to_string(), path));
            }
        }
    }
    prefix.truncate(depth);
}

/// The items of a brace group, split at the commas outside nested groups.
fn split_top(group: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (i, c) in group.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                out.push(&group[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(&group[start..]);
    out.retain(|item| !item.trim().is_empty());
    out
}

/// Every path a text names: each `use` item's, and each written-out path of two
/// segments or more outside them.
fn paths(text: &str) -> Vec<Vec<String>> {
    let mut out: Vec<Vec<String>> = bindings(text).into_iter().map(|(_, path)| path).collect();
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let mut i = 0;
    while i < chars.len() {
        let (at, c) = chars[i];
        let starts_word = is_ident(c) && (i == 0 || !is_ident(chars[i - 1].1));
        let after_colons = at >= 2 && text[..at].ends_with("::");
        if !starts_word || after_colons {
            i += 1;
            continue;
        }
        let mut segments = Vec::new();
        let mut end = at;
        loop {
            let word: String = text[end..].chars().take_while(|c| is_ident(*c)).collect();
            if word.is_empty() {
                break;
            }
            end += word.len();
            segments.push(word);
            if text[end..].starts_with("::") && text[end + 2..].starts_with(is_ident) {
                end += 2;
            } else {
                break;
            }
        }
        if segments.len() >= 2 {
            out.push(segments);
        }
        while i < chars.len() && chars[i].0 < end {
            i += 1;
        }
    }
    out
}

/// The strongly connected sets of two nodes or more (Tarjan), each sorted.
fn circles(edges: &BTreeMap<usize, BTreeSet<usize>>) -> Vec<Vec<usize>> {
    struct State<'a> {
        edges: &'a BTreeMap<usize, BTreeSet<usize>>,
        index: BTreeMap<usize, usize>,
        low: BTreeMap<usize, usize>,
        stack: Vec<usize>,
        on_stack: BTreeSet<usize>,
        found: Vec<Vec<usize>>,
    }
    fn visit(state: &mut State, node: usize) {
        let n = state.index.len();
        state.index.insert(node, n);
        state.low.insert(node, n);
        state.stack.push(node);
        state.on_stack.insert(node);
        for &next in state.edges.get(&node).into_iter().flatten() {
            if !state.index.contains_key(&next) {
                visit(state, next);
                let low = state.low[&node].min(state.low[&next]);
                state.low.insert(node, low);
            } else if state.on_stack.contains(&next) {
                let low = state.low[&node].min(state.index[&next]);
                state.low.insert(node, low);
            }
        }
        if state.low[&node] == state.index[&node] {
            let mut set = Vec::new();
            loop {
                let member = state.stack.pop().unwrap();
                state.on_stack.remove(&member);
                set.push(member);
                if member == node {
                    break;
                }
            }
            if set.len() > 1 {
                set.sort();
                state.found.push(set);
            }
        }
    }
    let mut state = State {
        edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        found: Vec::new(),
    };
    for &node in edges.keys() {
        if !state.index.contains_key(&node) {
            visit(&mut state, node);
        }
    }
    state.found.sort();
    state.found
}
