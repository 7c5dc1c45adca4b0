//! The module tree: each crate and program read from its root file, following `mod`
//! declarations and the rules crate's `rulesets!` line, with what each module defines
//! and imports.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

use proc_macro2::{Span, TokenStream, TokenTree};
use syn::punctuated::Punctuated;

use crate::{CRATES, PROGRAMS, REGISTRY_MACRO, RULES};

/// One `use` leaf: the name it brings in (none for a glob) and the path it names.
pub(super) struct Use {
    pub(super) name: Option<String>,
    pub(super) target: Vec<String>,
    pub(super) lead: bool,
}

pub(super) struct Module {
    /// From the crate root; empty for the root.
    pub(super) path: Vec<String>,
    pub(super) parent: Option<usize>,
    /// The file its items are in.
    pub(super) file: PathBuf,
    /// Where its `mod x;` children are looked for.
    dir: PathBuf,
    /// Whether its body is a whole file (not an inline `mod x { }`).
    from_file: bool,
    pub(super) children: BTreeMap<String, usize>,
    /// Children in declaration order (the root's give the layers).
    pub(super) order: Vec<String>,
    /// Items defined here, other than modules and imports.
    pub(super) defined: BTreeSet<String>,
    pub(super) uses: Vec<Use>,
    /// `macro_rules!` names defined here.
    pub(super) macros: BTreeSet<String>,
    pub(super) macro_use: bool,
}

pub(super) struct Crate {
    /// The package name; for a program beside the crates, its root file (which no path
    /// can name as a crate).
    pub(super) name: String,
    pub(super) src: String,
    pub(super) root_file: String,
    /// For a program beside the crates (a bench, an example, a fuzz target), what its
    /// root is called; none for a crate of the workspace.
    pub(super) program: Option<&'static str>,
    pub(super) modules: Vec<Module>,
    /// The parsed file of each module whose body is a whole file.
    pub(super) files: BTreeMap<usize, syn::File>,
    pub(super) rulesets: BTreeSet<String>,
}

pub(super) struct Workspace {
    pub(super) crates: Vec<Crate>,
}

pub(super) fn lib_name(package: &str) -> String {
    package.replace('-', "_")
}

pub(super) fn line(span: Span) -> usize {
    span.start().line
}

pub(super) fn attr_value(attrs: &[syn::Attribute], name: &str) -> Option<String> {
    attrs.iter().find(|a| a.path().is_ident(name)).and_then(|a| match &a.meta {
        syn::Meta::NameValue(nv) => match &nv.value {
            syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Str(s), .. }) => Some(s.value()),
            _ => None,
        },
        _ => None,
    })
}

pub(super) fn has_attr(attrs: &[syn::Attribute], name: &str) -> bool {
    attrs.iter().any(|a| a.path().is_ident(name))
}

/// The leaves of a use tree: (name brought in or none for a glob, full path, ident span).
pub(super) fn use_leaves(
    tree: &syn::UseTree,
    prefix: &mut Vec<String>,
    out: &mut Vec<(Option<String>, Vec<String>, Span)>,
) {
    match tree {
        syn::UseTree::Path(p) => {
            prefix.push(p.ident.to_string());
            use_leaves(&p.tree, prefix, out);
            prefix.pop();
        }
        syn::UseTree::Name(n) => {
            let name = n.ident.to_string();
            if name == "self" {
                out.push((prefix.last().cloned(), prefix.clone(), n.ident.span()));
            } else {
                let mut path = prefix.clone();
                path.push(name.clone());
                out.push((Some(name), path, n.ident.span()));
            }
        }
        syn::UseTree::Rename(r) => {
            let mut path = prefix.clone();
            if r.ident != "self" {
                path.push(r.ident.to_string());
            }
            out.push((Some(r.rename.to_string()), path, r.ident.span()));
        }
        syn::UseTree::Glob(g) => out.push((None, prefix.clone(), g.star_token.spans[0])),
        syn::UseTree::Group(g) => {
            for t in &g.items {
                use_leaves(t, prefix, out);
            }
        }
    }
}

/// The Rust files under `dir`, leaving out `target` folders (build output).
pub(super) fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), String> {
    let entries = fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    for entry in entries {
        let entry = entry.map_err(|e| format!("{}: {e}", dir.display()))?;
        let path = entry.path();
        let kind = entry.file_type().map_err(|e| format!("{}: {e}", path.display()))?;
        if kind.is_dir() {
            if entry.file_name() != "target" {
                rust_files(&path, out)?;
            }
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
    Ok(())
}

impl Workspace {
    pub(super) fn load(root: &Path) -> Result<Workspace, String> {
        let mut crates = Vec::new();
        for &(name, src, root_file) in CRATES {
            let mut krate = Crate::new(name.to_string(), src.to_string(), root_file.to_string(), None);
            let dir = root.join(src);
            krate.load_file(None, String::new(), dir.join(root_file), dir, false)?;
            crates.push(krate);
        }
        for &(folder, called) in PROGRAMS {
            crates.extend(Self::programs(root, folder, called)?);
        }
        Ok(Workspace { crates })
    }

    /// The programs in `folder`: each Rust file in it is read as a root, following its
    /// `mod` declarations, unless a root declares it as a module (it is read there, in its
    /// place in that root's tree). Which files are roots is settled by reading them all as
    /// roots, then only those no root declares, until that no longer changes (a module
    /// read as a root may declare a file beside it that it never reaches from its parent).
    fn programs(root: &Path, folder: &str, called: &'static str) -> Result<Vec<Crate>, String> {
        let dir = root.join(folder);
        if !dir.is_dir() {
            return Ok(Vec::new());
        }
        let mut files = Vec::new();
        rust_files(&dir, &mut files)?;
        files.sort();
        let mut roots = files.clone();
        for _ in 0..8 {
            let read: Vec<(PathBuf, Result<Crate, String>)> =
                roots.iter().map(|f| (f.clone(), Self::program(root, f, called))).collect();
            let modules: BTreeSet<&PathBuf> = read
                .iter()
                .filter_map(|(_, r)| r.as_ref().ok())
                .flat_map(|p| p.modules[1..].iter().filter(|m| m.from_file).map(|m| &m.file))
                .collect();
            let next: Vec<PathBuf> = files.iter().filter(|f| !modules.contains(f)).cloned().collect();
            if next == roots {
                return read.into_iter().map(|(_, r)| r).collect();
            }
            roots = next;
        }
        Err(format!("{folder}/: which of its files are roots does not settle (modules declaring each other?)"))
    }

    /// One program: its root file and the modules it declares.
    fn program(root: &Path, file: &Path, called: &'static str) -> Result<Crate, String> {
        let rel = file.strip_prefix(root).unwrap_or(file).display().to_string();
        let (src, root_file) = rel.rsplit_once('/').unwrap_or(("", &rel));
        let mut krate = Crate::new(rel.clone(), src.to_string(), root_file.to_string(), Some(called));
        krate.load_file(None, String::new(), file.to_path_buf(), file.parent().unwrap().to_path_buf(), false)?;
        Ok(krate)
    }
}

impl Crate {
    fn new(name: String, src: String, root_file: String, program: Option<&'static str>) -> Crate {
        Crate { name, src, root_file, program, modules: Vec::new(), files: BTreeMap::new(), rulesets: BTreeSet::new() }
    }

    fn add(
        &mut self,
        parent: Option<usize>,
        name: String,
        file: PathBuf,
        dir: PathBuf,
        from_file: bool,
        macro_use: bool,
    ) -> usize {
        let mut path = parent.map(|p| self.modules[p].path.clone()).unwrap_or_default();
        if parent.is_some() {
            path.push(name.clone());
        }
        let idx = self.modules.len();
        self.modules.push(Module {
            path,
            parent,
            file,
            dir,
            from_file,
            children: BTreeMap::new(),
            order: Vec::new(),
            defined: BTreeSet::new(),
            uses: Vec::new(),
            macros: BTreeSet::new(),
            macro_use,
        });
        if let Some(p) = parent {
            self.modules[p].children.insert(name.clone(), idx);
            self.modules[p].order.push(name);
        }
        idx
    }

    fn load_file(
        &mut self,
        parent: Option<usize>,
        name: String,
        file: PathBuf,
        dir: PathBuf,
        macro_use: bool,
    ) -> Result<(), String> {
        let text = fs::read_to_string(&file).map_err(|e| format!("{}: {e}", file.display()))?;
        let parsed = syn::parse_file(&text).map_err(|e| format!("{}:{}: {e}", file.display(), line(e.span())))?;
        let idx = self.add(parent, name, file, dir, true, macro_use);
        self.load_items(idx, &parsed.items)?;
        self.files.insert(idx, parsed);
        Ok(())
    }

    /// The file and child folder of `mod name;` declared in module `idx`.
    fn child_file(&self, idx: usize, name: &str, attrs: &[syn::Attribute]) -> (PathBuf, PathBuf) {
        let m = &self.modules[idx];
        if let Some(p) = attr_value(attrs, "path") {
            let base = if m.from_file { m.file.parent().unwrap().to_path_buf() } else { m.dir.clone() };
            let file = base.join(p);
            let dir = file.parent().unwrap().to_path_buf();
            return (file, dir);
        }
        let flat = m.dir.join(format!("{name}.rs"));
        if flat.is_file() { (flat, m.dir.join(name)) } else { (m.dir.join(name).join("mod.rs"), m.dir.join(name)) }
    }

    fn load_items(&mut self, idx: usize, items: &[syn::Item]) -> Result<(), String> {
        let mut registry_body = None;
        for item in items {
            let defined = match item {
                syn::Item::Mod(m) => {
                    let name = m.ident.to_string();
                    let macro_use = has_attr(&m.attrs, "macro_use");
                    if let Some((_, content)) = &m.content {
                        let file = self.modules[idx].file.clone();
                        let dir = self.modules[idx].dir.join(&name);
                        let child = self.add(Some(idx), name, file, dir, false, macro_use);
                        self.load_items(child, content)?;
                    } else {
                        let (file, dir) = self.child_file(idx, &name, &m.attrs);
                        self.load_file(Some(idx), name, file, dir, macro_use)?;
                    }
                    None
                }
                syn::Item::Use(u) => {
                    let mut leaves = Vec::new();
                    use_leaves(&u.tree, &mut Vec::new(), &mut leaves);
                    for (name, target, _) in leaves {
                        self.modules[idx].uses.push(Use { name, target, lead: u.leading_colon.is_some() });
                    }
                    None
                }
                syn::Item::Macro(m) => {
                    if let Some(ident) = &m.ident {
                        self.modules[idx].macros.insert(ident.to_string());
                        if idx == 0 && ident == REGISTRY_MACRO {
                            registry_body = Some(m.mac.tokens.clone());
                        }
                    } else if idx == 0 && self.name == RULES && m.mac.path.is_ident(REGISTRY_MACRO) {
                        self.registry_line(&m.mac, registry_body.take())?;
                    }
                    None
                }
                syn::Item::Const(c) => Some(c.ident.to_string()),
                syn::Item::Static(s) => Some(s.ident.to_string()),
                syn::Item::Fn(f) => Some(f.sig.ident.to_string()),
                syn::Item::Struct(s) => Some(s.ident.to_string()),
                syn::Item::Enum(e) => Some(e.ident.to_string()),
                syn::Item::Union(u) => Some(u.ident.to_string()),
                syn::Item::Trait(t) => Some(t.ident.to_string()),
                syn::Item::TraitAlias(t) => Some(t.ident.to_string()),
                syn::Item::Type(t) => Some(t.ident.to_string()),
                syn::Item::ExternCrate(e) => Some(e.rename.as_ref().map_or(&e.ident, |r| &r.1).to_string()),
                _ => None,
            };
            if let Some(name) = defined {
                self.modules[idx].defined.insert(name);
            }
        }
        Ok(())
    }

    /// The `rulesets! { module::Type, ... }` line: each entry declares `pub mod module;`,
    /// and the macro's body defines the registry's items (its `const`s) in the root.
    fn registry_line(&mut self, mac: &syn::Macro, body: Option<TokenStream>) -> Result<(), String> {
        let root_file = self.modules[0].file.display().to_string();
        let entries = mac.parse_body_with(Punctuated::<syn::Path, syn::Token![,]>::parse_terminated).map_err(|e| {
            format!("{root_file}:{}: the {REGISTRY_MACRO}! line is not `module::Type, ...`: {e}", line(e.span()))
        })?;
        let body = body.ok_or_else(|| format!("{root_file}: {REGISTRY_MACRO}! is called before it is defined"))?;
        let tokens: Vec<TokenTree> = body.into_iter().collect();
        for group in &tokens {
            if let TokenTree::Group(g) = group {
                let inner: Vec<TokenTree> = g.stream().into_iter().collect();
                for w in inner.windows(2) {
                    if let (TokenTree::Ident(k), TokenTree::Ident(name)) = (&w[0], &w[1])
                        && (k == "const" || k == "static" || k == "fn")
                    {
                        self.modules[0].defined.insert(name.to_string());
                    }
                }
            }
        }
        for entry in entries {
            if entry.segments.len() != 2 {
                return Err(format!(
                    "{root_file}:{}: a {REGISTRY_MACRO}! entry is `module::Type`",
                    line(entry.segments[0].ident.span())
                ));
            }
            let name = entry.segments[0].ident.to_string();
            let (file, dir) = self.child_file(0, &name, &[]);
            self.load_file(Some(0), name.clone(), file, dir, false)?;
            self.rulesets.insert(name);
        }
        Ok(())
    }

    /// The top-level module a module is in (none for the root).
    pub(super) fn top(&self, m: usize) -> Option<&str> {
        self.modules[m].path.first().map(String::as_str)
    }
}
