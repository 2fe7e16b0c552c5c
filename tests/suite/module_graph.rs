//! The modules of `zarrdt-core` depend on each other one way only (issue 7): reading the
//! sources, every top-level module's references to the others (`crate::x`, `super::x` from a
//! top-level module and `super::super::x` from one level down, and the names `lib.rs`
//! re-exports from `x`) form a graph without cycles.
//!
//! References in comments and in `#[cfg(test)] mod tests` are not dependencies and are left
//! out.

#![allow(clippy::unwrap_used)]

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("zarrdt-core/src")
}

/// The identifiers of `text`, in order.
fn identifiers(text: &str) -> Vec<&str> {
    text.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|word| !word.is_empty())
        .collect()
}

/// `text` without `//` comments and without a trailing `#[cfg(test)] mod tests { … }`.
fn code(text: &str) -> String {
    let text = match text.find("#[cfg(test)]\nmod tests") {
        Some(start) => &text[..start],
        None => text,
    };
    text.lines()
        .map(|line| match line.find("//") {
            Some(start) => &line[..start],
            None => line,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The top-level modules of the crate, each with its source files.
fn modules() -> BTreeMap<String, Vec<PathBuf>> {
    let lib = fs::read_to_string(src().join("lib.rs")).unwrap();
    let mut modules = BTreeMap::new();
    for line in lib.lines() {
        if let Some(name) = line.strip_prefix("mod ").and_then(|l| l.strip_suffix(';')) {
            let dir = src().join(name);
            let files = if dir.is_dir() {
                rs_files(&dir)
            } else {
                vec![src().join(format!("{name}.rs"))]
            };
            modules.insert(name.to_owned(), files);
        }
    }
    modules.insert("__private".to_owned(), vec![src().join("private.rs")]);
    modules
}

fn rs_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files.extend(rs_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
    files
}

/// Which module each name `lib.rs` re-exports (`pub use module::{Name, …};`) comes from.
fn reexports() -> BTreeMap<String, String> {
    let lib = code(&fs::read_to_string(src().join("lib.rs")).unwrap());
    let mut names = BTreeMap::new();
    for statement in lib.split(';') {
        let Some(rest) = statement.trim().strip_prefix("pub use ") else {
            continue;
        };
        let words = identifiers(rest);
        if let Some((module, items)) = words.split_first() {
            for item in items {
                names.insert((*item).to_owned(), (*module).to_owned());
            }
        }
    }
    names
}

/// The modules `module`'s code refers to.
fn dependencies(
    files: &[PathBuf],
    modules: &BTreeMap<String, Vec<PathBuf>>,
    names: &BTreeMap<String, String>,
) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    let resolve = |word: &str, found: &mut BTreeSet<String>| {
        if modules.contains_key(word) {
            found.insert(word.to_owned());
        } else if let Some(module) = names.get(word) {
            found.insert(module.clone());
        }
    };
    for file in files {
        let text = code(&fs::read_to_string(file).unwrap());
        for rest in root_paths(&text, module_depth(file)) {
            if let Some(group) = rest.strip_prefix('{') {
                let end = group.find("};").unwrap_or(group.len());
                for word in identifiers(&group[..end]) {
                    resolve(word, &mut found);
                }
            } else if let Some(word) = identifiers(rest).first() {
                resolve(word, &mut found);
            }
        }
    }
    found
}

/// How deep in the crate the module of `file` is: 1 for `src/x.rs` and `src/x/mod.rs`, 2 for
/// `src/x/y.rs`, and so on (`super::` repeated that many times is the crate's root).
fn module_depth(file: &Path) -> usize {
    let relative = file.strip_prefix(src()).unwrap();
    let parts = relative.components().count();
    if relative.file_name().is_some_and(|name| name == "mod.rs") {
        parts - 1
    } else {
        parts
    }
}

/// What follows each path of `text` that starts at the crate's root: `crate::`, or `super::`
/// written `depth` times in a row (from a module `depth` deep).
fn root_paths(text: &str, depth: usize) -> Vec<&str> {
    let mut paths: Vec<&str> = text
        .match_indices("crate::")
        .map(|(index, _)| &text[index + "crate::".len()..])
        .collect();
    let supers = "super::".repeat(depth);
    let mut from = 0;
    while let Some(found) = text[from..].find(&supers) {
        let start = from + found;
        let end = start + supers.len();
        // Exactly `depth` of them: not the tail of a longer run, not followed by another.
        let longer_before = text[..start].ends_with("super::");
        if !longer_before && !text[end..].starts_with("super::") {
            paths.push(&text[end..]);
        }
        from = end;
    }
    paths
}

#[test]
fn paths_from_the_root_include_supers_that_reach_it() {
    let text = "use super::super::codec::Swap; use super::sibling; use crate::{layout, path};";
    let words: Vec<&str> = root_paths(text, 2)
        .iter()
        .map(|rest| identifiers(rest)[0])
        .collect();
    assert_eq!(words, ["layout", "codec"]);
    // From a top-level module, one `super::` is the root.
    let words: Vec<&str> = root_paths("use super::scalar::X;", 1)
        .iter()
        .map(|rest| identifiers(rest)[0])
        .collect();
    assert_eq!(words, ["scalar"]);
    assert!(root_paths("use super::super::x;", 1).is_empty());
    assert_eq!(module_depth(&src().join("value/mod.rs")), 1);
    assert_eq!(module_depth(&src().join("codec/scalar.rs")), 2);
}

/// A cycle of `graph`, if it has one.
fn cycle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        node: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        stack: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(start) = stack.iter().position(|n| n == node) {
            let mut cycle = stack[start..].to_vec();
            cycle.push(node.to_owned());
            return Some(cycle);
        }
        if done.contains(node) {
            return None;
        }
        stack.push(node.to_owned());
        for next in graph.get(node).into_iter().flatten() {
            if let Some(cycle) = visit(next, graph, stack, done) {
                return Some(cycle);
            }
        }
        stack.pop();
        done.insert(node.to_owned());
        None
    }
    let mut done = BTreeSet::new();
    graph
        .keys()
        .find_map(|node| visit(node, graph, &mut Vec::new(), &mut done))
}

#[test]
fn core_modules_depend_on_each_other_one_way() {
    let modules = modules();
    let names = reexports();
    assert!(modules.len() > 10, "found modules: {:?}", modules.keys());
    let graph: BTreeMap<String, BTreeSet<String>> = modules
        .iter()
        .map(|(name, files)| {
            let mut deps = dependencies(files, &modules, &names);
            deps.remove(name);
            (name.clone(), deps)
        })
        .collect();
    if let Some(cycle) = cycle(&graph) {
        let edges: Vec<String> = graph
            .iter()
            .map(|(module, deps)| format!("{module} -> {deps:?}"))
            .collect();
        panic!("module cycle {}\n{}", cycle.join(" -> "), edges.join("\n"));
    }
    // The layering the crate docs describe, spot-checked.
    assert!(!graph["layout"].contains("data_type"));
    assert!(!graph["codec"].contains("element"));
    assert!(graph["element"].contains("codec"));
}

#[test]
fn the_check_sees_a_cycle() {
    let mut graph = BTreeMap::new();
    graph.insert("a".to_owned(), BTreeSet::from(["b".to_owned()]));
    graph.insert("b".to_owned(), BTreeSet::from(["a".to_owned()]));
    assert_eq!(cycle(&graph).unwrap(), ["a", "b", "a"]);
    graph.get_mut("b").unwrap().clear();
    assert_eq!(cycle(&graph), None);
}

/// The public methods declared in `impl Layout { … }` blocks of `text` (top-level blocks,
/// closed by a `}` in the first column).
fn layout_methods(text: &str) -> Vec<String> {
    let mut methods = Vec::new();
    let mut inside = false;
    for line in code(text).lines() {
        if line.starts_with("impl Layout {") {
            inside = true;
        } else if inside && line.starts_with('}') {
            inside = false;
        } else if inside && let Some(rest) = line.strip_prefix("    pub fn ") {
            methods.extend(identifiers(rest).first().map(|name| (*name).to_owned()));
        }
    }
    methods
}

#[test]
fn layout_docs_list_every_layout_method() {
    let layout = fs::read_to_string(src().join("layout/mod.rs")).unwrap();
    let docs: String = layout[..layout.find("pub enum Layout").unwrap()]
        .lines()
        .rev()
        .skip(1)
        .take_while(|line| line.starts_with("///") || line.starts_with("#["))
        .collect();
    let mut methods = Vec::new();
    for files in modules().values() {
        for file in files {
            methods.extend(layout_methods(&fs::read_to_string(file).unwrap()));
        }
    }
    assert!(methods.len() > 20, "found only {methods:?}");
    let missing: Vec<&String> = methods
        .iter()
        .filter(|name| !docs.contains(&format!("(Layout::{name})")))
        .collect();
    assert!(
        missing.is_empty(),
        "`Layout`'s docs do not list {missing:?}"
    );
}

#[test]
fn the_layout_method_scan_sees_public_methods_only() {
    let text = "impl Layout {\n    pub fn a(&self) {}\n    fn b() {}\n    pub(crate) fn c() {}\n}\nimpl Other {\n    pub fn d() {}\n}\n";
    assert_eq!(layout_methods(text), ["a"]);
}
