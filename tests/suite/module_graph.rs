//! The modules of `zarrdt-core` depend on each other one way only (issue 7): reading the
//! sources, every top-level module's references to the others (`crate::x`, `super::x` from a
//! top-level module and `super::super::x` from one level down, and the names `lib.rs`
//! re-exports from `x`) form a graph without cycles.
//!
//! References in comments and in `#[cfg(test)] mod tests` are not dependencies and are left
//! out.
//!
//! And where each type's impl blocks live (issue 18): in every library crate, a public type's
//! public methods written outside the type's own top-level module are each listed in the type's
//! docs.

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

/// The library crates whose types' impl blocks are checked.
const LIBRARY_CRATES: [&str; 5] = [
    "zarrdt-core",
    "zarrdt-zarrs",
    "zarrdt-arrow",
    "zarrdt-cli",
    "zarrdt-derive",
];

/// The type an inherent impl block's header is for (`impl<T: X> Name<T>` → `Name`); `None`
/// for a trait impl (`impl X for Y`).
fn inherent_impl_type(header: &str) -> Option<&str> {
    let rest = header.strip_prefix("impl")?;
    if !(rest.starts_with('<') || rest.starts_with(' ')) || header.contains(" for ") {
        return None;
    }
    let mut depth = 0usize;
    let mut after_generics = rest;
    if rest.starts_with('<') {
        for (index, c) in rest.char_indices() {
            match c {
                '<' => depth += 1,
                '>' => {
                    depth -= 1;
                    if depth == 0 {
                        after_generics = &rest[index + 1..];
                        break;
                    }
                }
                _ => {}
            }
        }
    }
    identifiers(after_generics).first().copied()
}

/// The public methods of each top-level inherent impl block of `text`: (type, methods). A block
/// starts at a line `impl…` (its header may run over lines, up to the one ending in `{`) and
/// ends at a `}` in the first column.
fn inherent_impls(text: &str) -> Vec<(String, Vec<String>)> {
    let mut impls = Vec::new();
    let mut header: Option<String> = None;
    let mut current: Option<(String, Vec<String>)> = None;
    for line in code(text).lines() {
        if let Some(open) = header.as_mut() {
            open.push(' ');
            open.push_str(line.trim());
        } else if current.is_none() && line.starts_with("impl") {
            header = Some(line.to_owned());
        }
        if let Some(full) = header.as_ref().filter(|h| h.ends_with('{')) {
            let full = full.trim_end_matches('{').trim_end().to_owned();
            header = None;
            current = Some((
                inherent_impl_type(&full).unwrap_or("").to_owned(),
                Vec::new(),
            ));
            continue;
        }
        if header.is_some() {
            continue;
        }
        if let Some((name, methods)) = current.as_mut() {
            if line.starts_with('}') {
                let (name, methods) = current.take().unwrap();
                if !name.is_empty() {
                    impls.push((name, methods));
                }
            } else if let Some(rest) = line.strip_prefix("    pub fn ")
                && !name.is_empty()
            {
                methods.extend(identifiers(rest).first().map(|m| (*m).to_owned()));
            }
        }
    }
    impls
}

/// The top-level module of `file` in the crate whose sources are `src` (`lib` for `lib.rs`).
fn top_module(src: &Path, file: &Path) -> String {
    let first = file.strip_prefix(src).unwrap().components().next().unwrap();
    let name = first.as_os_str().to_string_lossy();
    name.strip_suffix(".rs").unwrap_or(&name).to_owned()
}

/// The public types (structs, enums) of the files: name → (defining file, doc comment).
fn public_types(files: &[PathBuf]) -> BTreeMap<String, (PathBuf, String)> {
    let mut types = BTreeMap::new();
    for file in files {
        let text = fs::read_to_string(file).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        for (index, line) in lines.iter().enumerate() {
            let Some(rest) = line
                .strip_prefix("pub struct ")
                .or_else(|| line.strip_prefix("pub enum "))
            else {
                continue;
            };
            let name = identifiers(rest)[0].to_owned();
            let docs: Vec<&str> = lines[..index]
                .iter()
                .rev()
                .take_while(|l| l.starts_with("///") || l.starts_with("#["))
                .copied()
                .collect();
            types.insert(name, (file.clone(), docs.join("\n")));
        }
    }
    types
}

/// For one crate: each public method of a public type written in an inherent impl block
/// outside the type's own top-level module that the type's docs do not list (as a link
/// `(Type::method)`), as "Type::method in file".
fn unlisted_methods(crate_dir: &str) -> Vec<String> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(crate_dir)
        .join("src");
    let files = rs_files(&src);
    let types = public_types(&files);
    let mut unlisted = Vec::new();
    for file in &files {
        for (name, methods) in inherent_impls(&fs::read_to_string(file).unwrap()) {
            let Some((home, docs)) = types.get(&name) else {
                continue;
            };
            if top_module(&src, home) == top_module(&src, file) {
                continue;
            }
            for method in methods {
                if !docs.contains(&format!("({name}::{method})")) {
                    let at = file.strip_prefix(&src).unwrap().display();
                    unlisted.push(format!("{name}::{method} in {crate_dir}/src/{at}"));
                }
            }
        }
    }
    unlisted
}

/// Where each type's impl blocks live (issue 18): a public type's methods live in its own
/// module, or, where they belong to another module's concept (`Layout`'s codec in `codec`, its
/// fill values in `fill_value`), the type's docs list each of them, so that its whole API is
/// found from the type.
#[test]
fn methods_outside_their_types_module_are_listed_in_its_docs() {
    let mut unlisted = Vec::new();
    for crate_dir in LIBRARY_CRATES {
        unlisted.extend(unlisted_methods(crate_dir));
    }
    assert!(
        unlisted.is_empty(),
        "the docs of these types do not list these methods of theirs, written in other \
         modules:\n{}",
        unlisted.join("\n")
    );
    // The scan sees the impl blocks it is about: `Layout`'s in `codec` and `fill_value`.
    let codec = fs::read_to_string(src().join("codec/record.rs")).unwrap();
    assert!(
        inherent_impls(&codec)
            .iter()
            .any(|(name, methods)| name == "Layout" && methods.len() >= 4)
    );
}

#[test]
fn the_impl_scan_sees_public_methods_of_inherent_impls_only() {
    let text = "impl Layout {\n    pub fn a(&self) {}\n    fn b() {}\n    pub(crate) fn c() {}\n}\n\
                impl Display for Layout {\n    pub fn d() {}\n}\n\
                impl<T: Into<u8>> Wrapper<T>\nwhere\n    T: Copy,\n{\n    pub fn e() {}\n}\n";
    assert_eq!(
        inherent_impls(text),
        [
            ("Layout".to_owned(), vec!["a".to_owned()]),
            ("Wrapper".to_owned(), vec!["e".to_owned()])
        ]
    );
    assert_eq!(inherent_impl_type("impl<T> A<T>"), Some("A"));
    assert_eq!(inherent_impl_type("impl Trait for A"), None);
    assert_eq!(inherent_impl_type("implement"), None);
}
