//! The checks themselves: upward imports, root items, cycles, rulesets named past the
//! registry, flag names and exit codes, and the crates' dependencies from `cargo tree`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

use syn::visit::Visit;

use crate::resolve::Reach;
use crate::tree::Workspace;
use crate::walker::Walker;
use crate::{CRATES, HEAVY, REGISTRY_MACRO, ROOT_ITEMS_ALLOWED, RULES};

pub(super) struct Check {
    pub(super) root: PathBuf,
    pub(super) failures: Vec<String>,
    /// (file, what) already reported.
    pub(super) seen: BTreeSet<(String, String)>,
}

pub(super) fn cycles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    // Tarjan's strongly connected components, those with more than one member.
    struct T<'g> {
        graph: &'g BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'g str, usize>,
        low: BTreeMap<&'g str, usize>,
        stack: Vec<&'g str>,
        on: BTreeSet<&'g str>,
        out: Vec<Vec<String>>,
    }
    impl<'g> T<'g> {
        fn visit(&mut self, v: &'g str) {
            let n = self.index.len();
            self.index.insert(v, n);
            self.low.insert(v, n);
            self.stack.push(v);
            self.on.insert(v);
            for w in self.graph.get(v).into_iter().flatten() {
                if !self.index.contains_key(w.as_str()) {
                    self.visit(w);
                    let lw = self.low[w.as_str()];
                    let lv = self.low.get_mut(v).unwrap();
                    *lv = (*lv).min(lw);
                } else if self.on.contains(w.as_str()) {
                    let iw = self.index[w.as_str()];
                    let lv = self.low.get_mut(v).unwrap();
                    *lv = (*lv).min(iw);
                }
            }
            if self.low[v] == self.index[v] {
                let mut component = Vec::new();
                loop {
                    let w = self.stack.pop().unwrap();
                    self.on.remove(w);
                    component.push(w.to_string());
                    if w == v {
                        break;
                    }
                }
                if component.len() > 1 {
                    component.sort();
                    self.out.push(component);
                }
            }
        }
    }
    let mut t = T {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on: BTreeSet::new(),
        out: Vec::new(),
    };
    for v in graph.keys() {
        if !t.index.contains_key(v.as_str()) {
            t.visit(v);
        }
    }
    t.out
}

impl Check {
    fn rel(&self, p: &Path) -> String {
        p.strip_prefix(&self.root).unwrap_or(p).display().to_string()
    }

    /// One line per violation: the first place a file breaks a rule towards one target
    /// (`what` up to its first " (", before the path as written).
    fn fail(&mut self, file: &str, line: usize, what: String) {
        let key = what.split(" (").next().unwrap_or(&what).to_string();
        if self.seen.insert((file.to_string(), key)) {
            self.failures.push(format!("{file}:{line}: {what}"));
        }
    }

    pub(super) fn modules(&mut self, ws: &Workspace) {
        for (k, krate) in ws.crates.iter().enumerate() {
            let mut walker = Walker {
                krate,
                module: 0,
                file: PathBuf::new(),
                refs: Vec::new(),
                // Flag names and exit codes are the binary's (the last crate); the programs
                // beside the crates are programs of their own (see "Benches, examples and
                // fuzz targets").
                terms: krate.program.is_none() && k + 1 < CRATES.len(),
                term_hits: Vec::new(),
            };
            for (&m, file) in &krate.files {
                walker.module = m;
                walker.file = krate.modules[m].file.clone();
                walker.visit_file(file);
            }
            let (refs, term_hits) = (walker.refs, walker.term_hits);
            // Macros in textual scope: a root's `macro_rules!` are the root's items; a
            // `#[macro_use]` module's are that module's.
            let mut textual: BTreeMap<&str, Option<usize>> = BTreeMap::new();
            for name in &krate.modules[0].macros {
                textual.insert(name, None);
            }
            for (i, module) in krate.modules.iter().enumerate() {
                let mut up = Some(i);
                while let Some(u) = up {
                    if u == 0 {
                        break;
                    }
                    if krate.modules[u].macro_use && krate.modules[u].path.len() == 1 {
                        for name in &module.macros {
                            textual.insert(name, Some(u));
                        }
                    }
                    up = krate.modules[u].parent;
                }
            }
            let order = &krate.modules[0].order;
            let position = |name: &str| order.iter().position(|n| n == name).unwrap();
            let mut graph: BTreeMap<String, BTreeSet<String>> =
                order.iter().map(|n| (n.clone(), BTreeSet::new())).collect();
            let mut printed: BTreeMap<String, BTreeSet<String>> = graph.clone();
            // Folder (a module's path) -> child -> children it names, with a first place.
            let mut folders: BTreeMap<Vec<String>, BTreeMap<String, BTreeSet<String>>> = BTreeMap::new();
            let mut places: BTreeMap<(Vec<String>, String, String), String> = BTreeMap::new();
            for r in &refs {
                let from = &krate.modules[r.module];
                let file = self.rel(&r.file);
                let written = format!("{}{}", if r.lead { "::" } else { "" }, r.segs.join("::"));
                let mut reach = Reach::default();
                if r.bare_macro {
                    match textual.get(r.segs[0].as_str()) {
                        Some(None) => reach.root_item = Some(format!("{}!", r.segs[0])),
                        Some(Some(m)) => reach.modules.push((k, *m)),
                        None => {}
                    }
                } else {
                    ws.resolve(k, r.module, r.lead, &r.segs, &mut reach, 0);
                }
                let top = match (krate.program, krate.top(r.module)) {
                    (None, Some(top)) => top,
                    // The crate root is above its modules (it may name any of them and its
                    // own items), and a program beside the crates is apart from the layers:
                    // both only keep to the registry (the walker leaves out the registry
                    // line itself, in the rules crate's root).
                    (program, _) => {
                        let who = program.unwrap_or("the crate root");
                        for &(tk, tm) in &reach.modules {
                            if let Some(ruleset) = ws.ruleset(tk, tm) {
                                self.leak(&file, r.line, who, ruleset, &written);
                            }
                        }
                        continue;
                    }
                };
                if let Some(item) = &reach.root_item {
                    let allowed = ROOT_ITEMS_ALLOWED.iter().any(|&(c, i, m)| c == krate.name && i == item && m == top);
                    printed.get_mut(top).unwrap().insert(format!("crate::{item}"));
                    if !allowed {
                        self.fail(&file, r.line, format!(
                            "{top} names the crate root's {item} ({written}): the root declares every module and is above them all; move {item} into a module of its own, declared before {top}"
                        ));
                    }
                }
                for &(tk, tm) in &reach.modules {
                    let target = &ws.crates[tk].modules[tm];
                    let Some(ttop) = target.path.first() else { continue };
                    if tk != k {
                        if ws.crates[tk].name == RULES && ws.crates[tk].rulesets.contains(ttop) {
                            self.leak(&file, r.line, top, ttop, &written);
                        }
                        continue;
                    }
                    // The folder both live in, and the child of it each is in.
                    let common = from.path.iter().zip(&target.path).take_while(|(a, b)| a == b).count();
                    if common < from.path.len() && common < target.path.len() {
                        let (a, b) = (from.path[common].clone(), target.path[common].clone());
                        let folder = from.path[..common].to_vec();
                        places
                            .entry((folder.clone(), a.clone(), b.clone()))
                            .or_insert_with(|| format!("{file}:{}", r.line));
                        folders.entry(folder).or_default().entry(a).or_default().insert(b);
                    }
                    if ttop == top {
                        continue;
                    }
                    graph.get_mut(top).unwrap().insert(ttop.clone());
                    printed.get_mut(top).unwrap().insert(ttop.clone());
                    if position(ttop) > position(top) {
                        self.fail(&file, r.line, format!(
                            "{top} names {ttop} ({written}): {ttop} is declared after {top} in {}, and modules import only those before them",
                            krate.root_file
                        ));
                    }
                    if krate.rulesets.contains(ttop) {
                        if krate.rulesets.contains(top) {
                            self.fail(&file, r.line, format!(
                                "ruleset {top} names ruleset {ttop} ({written}): rulesets are peers and share only the modules below them"
                            ));
                        } else {
                            self.leak(&file, r.line, top, ttop, &written);
                        }
                    }
                }
            }
            if krate.program.is_some() {
                if ws.crates[k - 1].program.is_none() {
                    println!("benches, examples and fuzz targets (each a root of its own), read for ruleset names:");
                }
                println!("  {} ({})", krate.name, krate.program.unwrap_or_default());
                continue;
            }
            println!("{} ({}), lowest first:", krate.name, krate.src);
            for n in order {
                let refs: Vec<&str> = printed[n].iter().map(String::as_str).collect();
                println!("  {n:<18} -> {}", if refs.is_empty() { "(nothing)".to_string() } else { refs.join(", ") });
            }
            for (folder, graph) in &folders {
                for component in cycles(graph) {
                    let at: Vec<String> = component
                        .iter()
                        .flat_map(|a| component.iter().map(move |b| (a, b)))
                        .filter_map(|(a, b)| {
                            places.get(&(folder.clone(), a.clone(), b.clone())).map(|p| format!("{a} -> {b} at {p}"))
                        })
                        .collect();
                    let place = if folder.is_empty() {
                        krate.src.to_string()
                    } else {
                        format!("{}/{}", krate.src, folder.join("/"))
                    };
                    self.failures.push(format!(
                        "{place}: modules {} import each other ({})",
                        component.join(", "),
                        at.join("; ")
                    ));
                }
            }
            for (file, line, what) in term_hits {
                let failure = format!("{}:{line}: {what}", self.rel(&file));
                if !self.failures.contains(&failure) {
                    self.failures.push(failure);
                }
            }
        }
    }

    fn leak(&mut self, file: &str, line: usize, top: &str, ruleset: &str, written: &str) {
        self.fail(file, line, format!(
            "{top} names ruleset {ruleset} ({written}): only the registry (the {REGISTRY_MACRO}! line in crates/rules/src/lib.rs) names a ruleset's module; ask the registry through the Ruleset trait"
        ));
    }

    pub(super) fn dependencies(&mut self) {
        let names: Vec<&str> = CRATES.iter().map(|c| c.0).collect();
        for (i, name) in names.iter().enumerate() {
            // Offline first (no index update); online when the lock needs resolving.
            let mut tree = Err(String::new());
            for network in [&["--offline"][..], &[]] {
                let out = Command::new("cargo")
                    .arg("tree")
                    .args(network)
                    .args(["-p", name, "-e", "normal", "--prefix", "none", "--format", "{p}"])
                    .current_dir(&self.root)
                    .output();
                match out {
                    Ok(o) if o.status.success() => {
                        tree = Ok(String::from_utf8_lossy(&o.stdout).into_owned());
                        break;
                    }
                    Ok(o) => tree = Err(String::from_utf8_lossy(&o.stderr).trim().to_string()),
                    Err(e) => {
                        println!("cargo not found ({e}): crate dependencies not checked");
                        return;
                    }
                }
            }
            let tree = match tree {
                Ok(tree) => tree,
                Err(e) => {
                    self.failures.push(format!("cargo tree -p {name} failed: {e}"));
                    continue;
                }
            };
            let packages: BTreeSet<&str> = tree.lines().filter_map(|l| l.split_whitespace().next()).collect();
            let above: Vec<&str> = names[i + 1..].iter().copied().filter(|n| packages.contains(n)).collect();
            let manifest = format!("{}/Cargo.toml", CRATES[i].1.trim_end_matches("src").trim_end_matches('/'));
            let manifest = manifest.trim_start_matches('/');
            if !above.is_empty() {
                self.failures.push(format!("{manifest}: {name} depends on {}, above it", above.join(", ")));
            }
            // The browser's engine builds without them too: none compiles for wasm32.
            let refused: &[&str] = if i < 2 || *name == "combat-odds-wasm" {
                HEAVY
            } else if *name != "combat-odds" {
                &["clap"]
            } else {
                &[]
            };
            let heavy: Vec<&str> = refused.iter().copied().filter(|h| packages.contains(h)).collect();
            if !heavy.is_empty() {
                self.failures.push(format!("{manifest}: {name} pulls in {}", heavy.join(", ")));
            }
            let local: Vec<&str> = names[..i].iter().copied().filter(|n| packages.contains(n)).collect();
            println!(
                "{name} depends on: {}",
                if local.is_empty() { "(no crate of this workspace)".to_string() } else { local.join(", ") }
            );
        }
    }
}
