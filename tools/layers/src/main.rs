//! The layers of the workspace, checked on the real module tree (run as `scripts/layers`).
//!
//! Each crate is read from its `lib.rs` or `main.rs`, following `mod` declarations
//! (inline `mod x { }`, `#[path]`, and the modules the rules crate's `rulesets!` line
//! declares), and every path in it (use trees, expression, type and pattern paths, macro
//! paths, and the paths inside macro bodies and calls, `$crate` included) is resolved,
//! through re-exports and glob imports, to the modules it reaches. So is every Rust file
//! under `benches/`, `examples/` and `fuzz/` (not in a `target/` folder), each a root of
//! its own (see "Benches, examples and fuzz targets" below). It prints, for each crate,
//! its top-level modules in their declared order (lowest first, as the crate root lists
//! them) with the modules each one names, then the benches, examples and fuzz targets
//! read, and fails (exit 1), one line per violation (file:line: what: why), on:
//!   - an upward import: a module naming one declared after it in its crate;
//!   - a module naming an item defined in its crate root (see "The crate root" below);
//!   - a cycle between modules of one folder (top-level or inside a module's folder);
//!   - one ruleset naming another (the rulesets are peers), or anything outside the
//!     registry naming a ruleset's module: any module or crate root, in any crate, and
//!     any bench, example or fuzz target (see "Rulesets" below);
//!   - a crate depending on a crate above it, core or rules depending on polars,
//!     plotters, clap or tokio, or report or web depending on clap (from `cargo tree`);
//!   - a flag name (`--word` in a string) or an exit code in a crate other than the
//!     binary (src/); the benches, examples and fuzz targets are programs of their own
//!     and may take flags and exit with codes.
//!
//! # The crate root
//! The crate root declares the modules, so it is above all of them: a module that names
//! an item defined in the root (not one re-exported there, which resolves to its module)
//! imports upward, and the fix is to move the item into a module of its own, declared
//! below its users. One root item is allowed, deliberately: the rules crate's `builtin`,
//! the list of shipped rulesets which the `rulesets!` line generates beside the `mod`
//! declarations it writes, and which only the `registry` module reads. It has to be generated where the modules are declared
//! for "one folder and one registry line" to hold, and it is the registry's own list.
//!
//! # Rulesets
//! The registry is the `rulesets!` line in `crates/rules/src/lib.rs`: the only place
//! that names a ruleset's module. Everything else asks the registry through the
//! `Ruleset` trait, with no exception: a ruleset's own answers and views are offered
//! through the trait (issue 34).
//!
//! The crate roots are held to it too (issue 42): a root is above its modules, so it is
//! not checked for upward imports or for naming its own items, but it is not the registry,
//! and a `use combat_odds_rules::chain_of_command::...` in `crates/web/src/lib.rs` or
//! `src/main.rs` leaks a ruleset as surely as one in a module. The rules crate's root is
//! held to it outside the registry line itself (which the walker leaves unread).
//!
//! # Benches, examples and fuzz targets
//! They are compiled against the crates like any user of them, and a bench that names a
//! ruleset's module to reach what the trait does not offer leaks it past the registry
//! as much as the binary would (issue 42). Each Rust file under `benches/`, `examples/`
//! and `fuzz/` is read as a root of its own, following its `mod` declarations (a file
//! that a root declares as a module is read there, not as a root), and `target/` folders
//! (build output) are left out. Only the ruleset rule applies to them: they are apart
//! from the layers (no crate here imports them, so none is above or below them), and,
//! being programs, they may take flags and exit with codes.
//!
//! Usage: `layers [--no-cargo] [ROOT]` (ROOT: the workspace, the current directory
//! unless told; `--no-cargo` skips the `cargo tree` checks).

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

use proc_macro2::{Spacing, Span, TokenStream, TokenTree};
use syn::punctuated::Punctuated;
use syn::visit::{self, Visit};

/// The crates, lowest first: package name, source folder and root file.
const CRATES: &[(&str, &str, &str)] = &[
    ("combat-odds-core", "crates/core/src", "lib.rs"),
    ("combat-odds-rules", "crates/rules/src", "lib.rs"),
    ("combat-odds-report", "crates/report/src", "lib.rs"),
    // The engine in the browser: over report, beside the server (neither imports the other).
    ("combat-odds-wasm", "crates/wasm/src", "lib.rs"),
    ("combat-odds-web", "crates/web/src", "lib.rs"),
    ("combat-odds", "src", "main.rs"),
];
/// The programs beside the crates, each of their Rust files read as a root of its own
/// (folder, what a root there is called): see "Benches, examples and fuzz targets" above.
const PROGRAMS: &[(&str, &str)] = &[("benches", "the bench"), ("examples", "the example"), ("fuzz", "the fuzz target")];
/// The crate holding the rulesets and the macro whose line registers them.
const RULES: &str = "combat-odds-rules";
const REGISTRY_MACRO: &str = "rulesets";
/// What the engine, the rules and the browser's engine must build without.
const HEAVY: &[&str] = &["polars", "plotters", "clap", "tokio"];

/// Root items a module may name: (crate, item, the module that may name it). Why: see
/// "The crate root" above.
const ROOT_ITEMS_ALLOWED: &[(&str, &str, &str)] = &[(RULES, "builtin", "registry")];

fn main() -> ExitCode {
    let mut cargo = true;
    let mut root = std::env::current_dir().expect("the current directory");
    for arg in std::env::args().skip(1) {
        match arg.as_str() {
            "--no-cargo" => cargo = false,
            _ => root = PathBuf::from(arg),
        }
    }
    let mut check = Check { root, failures: Vec::new(), seen: BTreeSet::new() };
    let workspace = match Workspace::load(&check.root) {
        Ok(w) => w,
        Err(e) => {
            println!("the layers could not be read: {e}");
            return ExitCode::FAILURE;
        }
    };
    check.modules(&workspace);
    if cargo {
        check.dependencies();
    }
    if check.failures.is_empty() {
        println!(
            "\nno cycle, no upward import, no ruleset named past the registry, no flag name or exit code outside the binary"
        );
        ExitCode::SUCCESS
    } else {
        println!("\nthe layers are broken:");
        for f in &check.failures {
            println!("  {f}");
        }
        ExitCode::FAILURE
    }
}

/// One `use` leaf: the name it brings in (none for a glob) and the path it names.
struct Use {
    name: Option<String>,
    target: Vec<String>,
    lead: bool,
}

struct Module {
    /// From the crate root; empty for the root.
    path: Vec<String>,
    parent: Option<usize>,
    /// The file its items are in.
    file: PathBuf,
    /// Where its `mod x;` children are looked for.
    dir: PathBuf,
    /// Whether its body is a whole file (not an inline `mod x { }`).
    from_file: bool,
    children: BTreeMap<String, usize>,
    /// Children in declaration order (the root's give the layers).
    order: Vec<String>,
    /// Items defined here, other than modules and imports.
    defined: BTreeSet<String>,
    uses: Vec<Use>,
    /// `macro_rules!` names defined here.
    macros: BTreeSet<String>,
    macro_use: bool,
}

struct Crate {
    /// The package name; for a program beside the crates, its root file (which no path
    /// can name as a crate).
    name: String,
    src: String,
    root_file: String,
    /// For a program beside the crates (a bench, an example, a fuzz target), what its
    /// root is called; none for a crate of the workspace.
    program: Option<&'static str>,
    modules: Vec<Module>,
    /// The parsed file of each module whose body is a whole file.
    files: BTreeMap<usize, syn::File>,
    rulesets: BTreeSet<String>,
}

struct Workspace {
    crates: Vec<Crate>,
}

fn lib_name(package: &str) -> String {
    package.replace('-', "_")
}

fn line(span: Span) -> usize {
    span.start().line
}

fn attr_value(attrs: &[syn::Attribute], name: &str) -> Option<String> {
    attrs.iter().find(|a| a.path().is_ident(name)).and_then(|a| match &a.meta {
        syn::Meta::NameValue(nv) => match &nv.value {
            syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Str(s), .. }) => Some(s.value()),
            _ => None,
        },
        _ => None,
    })
}

fn has_attr(attrs: &[syn::Attribute], name: &str) -> bool {
    attrs.iter().any(|a| a.path().is_ident(name))
}

/// The leaves of a use tree: (name brought in or none for a glob, full path, ident span).
fn use_leaves(tree: &syn::UseTree, prefix: &mut Vec<String>, out: &mut Vec<(Option<String>, Vec<String>, Span)>) {
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
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), String> {
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
    fn load(root: &Path) -> Result<Workspace, String> {
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
    fn top(&self, m: usize) -> Option<&str> {
        self.modules[m].path.first().map(String::as_str)
    }
}

/// A path as written somewhere in a module.
struct Ref {
    module: usize,
    file: PathBuf,
    line: usize,
    segs: Vec<String>,
    lead: bool,
    /// A macro called by its bare name (`name!`), found by textual scope.
    bare_macro: bool,
}

/// Collects every path of a crate's modules, and the flag names and exit codes in them.
struct Walker<'a> {
    krate: &'a Crate,
    module: usize,
    file: PathBuf,
    refs: Vec<Ref>,
    /// Whether flag names and exit codes are refused here (outside the binary).
    terms: bool,
    term_hits: Vec<(PathBuf, usize, String)>,
}

impl Walker<'_> {
    fn push(&mut self, segs: Vec<String>, lead: bool, span: Span, bare_macro: bool) {
        let line = line(span);
        if self.terms && segs.windows(2).any(|w| w[0] == "process" && w[1] == "exit") {
            self.term_hits.push((self.file.clone(), line, "exit code outside the binary".into()));
        }
        self.refs.push(Ref { module: self.module, file: self.file.clone(), line, segs, lead, bare_macro });
    }

    fn string(&mut self, value: &str, span: Span) {
        if !self.terms {
            return;
        }
        let bytes = value.as_bytes();
        for i in 0..bytes.len().saturating_sub(2) {
            let before_ok =
                i == 0 || !(bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_' || bytes[i - 1] == b'-');
            if before_ok && bytes[i] == b'-' && bytes[i + 1] == b'-' && bytes[i + 2].is_ascii_lowercase() {
                let end = (i + 2..bytes.len())
                    .find(|&j| !(bytes[j].is_ascii_lowercase() || bytes[j] == b'-'))
                    .unwrap_or(bytes.len());
                let flag = &value[i..end];
                self.term_hits.push((self.file.clone(), line(span), format!("flag name `{flag}` outside the binary")));
                return;
            }
        }
    }

    /// Paths and string literals in tokens the parser leaves unread: macro bodies and
    /// calls, and attribute arguments.
    fn tokens(&mut self, stream: TokenStream) {
        let toks: Vec<TokenTree> = stream.into_iter().collect();
        let colons = |i: usize| {
            matches!((toks.get(i), toks.get(i + 1)), (Some(TokenTree::Punct(a)), Some(TokenTree::Punct(b)))
                if a.as_char() == ':' && a.spacing() == Spacing::Joint && b.as_char() == ':')
        };
        let ident = |i: usize| match toks.get(i) {
            Some(TokenTree::Ident(id)) => Some(id.clone()),
            _ => None,
        };
        let mut i = 0;
        while i < toks.len() {
            match &toks[i] {
                TokenTree::Group(g) => {
                    self.tokens(g.stream());
                    i += 1;
                    continue;
                }
                TokenTree::Literal(l) => {
                    if let syn::Lit::Str(s) = syn::Lit::new(l.clone()) {
                        self.string(&s.value(), l.span());
                    }
                    i += 1;
                    continue;
                }
                _ => {}
            }
            let (lead, mut segs, span, mut j, metavariable) = match (&toks[i], ident(i + 1)) {
                (TokenTree::Punct(p), Some(id)) if p.as_char() == '$' => {
                    let name = id.to_string();
                    (
                        false,
                        vec![if name == "crate" { "crate".to_string() } else { name }],
                        id.span(),
                        i + 2,
                        id != "crate",
                    )
                }
                _ if colons(i) && ident(i + 2).is_some() => {
                    let id = ident(i + 2).unwrap();
                    (true, vec![id.to_string()], id.span(), i + 3, false)
                }
                (TokenTree::Ident(id), _) => (false, vec![id.to_string()], id.span(), i + 1, false),
                _ => {
                    i += 1;
                    continue;
                }
            };
            while colons(j) && ident(j + 2).is_some() {
                segs.push(ident(j + 2).unwrap().to_string());
                j += 3;
            }
            let called = matches!(toks.get(j), Some(TokenTree::Punct(p)) if p.as_char() == '!')
                && matches!(toks.get(j + 1), Some(TokenTree::Group(_)));
            if !metavariable && (segs.len() > 1 || lead) {
                self.push(segs, lead, span, false);
            } else if !metavariable && called {
                self.push(segs, false, span, true);
            } else if !metavariable && segs[0] == "exit_code" && self.terms {
                self.term_hits.push((self.file.clone(), line(span), "exit code outside the binary".into()));
            }
            i = j;
        }
    }
}

impl<'ast> Visit<'ast> for Walker<'_> {
    fn visit_item_macro(&mut self, m: &'ast syn::ItemMacro) {
        // The registry line: the one place that names the rulesets' modules, and only
        // that (`registry_line` reads it as `module::Type, ...`).
        if self.module == 0 && self.krate.name == RULES && m.ident.is_none() && m.mac.path.is_ident(REGISTRY_MACRO) {
            return;
        }
        visit::visit_item_macro(self, m);
    }

    fn visit_item_mod(&mut self, m: &'ast syn::ItemMod) {
        for a in &m.attrs {
            self.visit_attribute(a);
        }
        if let Some((_, items)) = &m.content {
            let outer = self.module;
            self.module = self.krate.modules[outer].children[&m.ident.to_string()];
            for item in items {
                self.visit_item(item);
            }
            self.module = outer;
        }
    }

    fn visit_item_use(&mut self, u: &'ast syn::ItemUse) {
        for a in &u.attrs {
            self.visit_attribute(a);
        }
        let mut leaves = Vec::new();
        use_leaves(&u.tree, &mut Vec::new(), &mut leaves);
        for (name, mut path, span) in leaves {
            if name.is_none() {
                path.push("*".into()); // a glob: from the root, every root item
            }
            if !path.is_empty() {
                self.push(path, u.leading_colon.is_some(), span, false);
            }
        }
    }

    fn visit_path(&mut self, p: &'ast syn::Path) {
        let segs: Vec<String> = p.segments.iter().map(|s| s.ident.to_string()).collect();
        let span = p.leading_colon.as_ref().map_or_else(|| p.segments[0].ident.span(), |c| c.spans[0]);
        self.push(segs, p.leading_colon.is_some(), span, false);
        visit::visit_path(self, p);
    }

    fn visit_macro(&mut self, m: &'ast syn::Macro) {
        if let Some(id) = m.path.get_ident() {
            self.push(vec![id.to_string()], false, id.span(), true);
        } else {
            self.visit_path(&m.path);
        }
        self.tokens(m.tokens.clone());
    }

    fn visit_attribute(&mut self, a: &'ast syn::Attribute) {
        if a.path().is_ident("doc") {
            return;
        }
        match &a.meta {
            syn::Meta::List(l) => self.tokens(l.tokens.clone()),
            _ => visit::visit_attribute(self, a),
        }
    }

    fn visit_lit_str(&mut self, s: &'ast syn::LitStr) {
        self.string(&s.value(), s.span());
    }

    fn visit_ident(&mut self, id: &'ast proc_macro2::Ident) {
        if self.terms && id == "exit_code" {
            self.term_hits.push((self.file.clone(), line(id.span()), "exit code outside the binary".into()));
        }
    }
}

/// What a path reaches: modules entered (crate, module), and an item of its own crate's
/// root, if it names one.
#[derive(Default)]
struct Reach {
    modules: Vec<(usize, usize)>,
    root_item: Option<String>,
}

impl Workspace {
    /// The ruleset module `m` of crate `k` is in, if it is in one.
    fn ruleset(&self, k: usize, m: usize) -> Option<&str> {
        let krate = &self.crates[k];
        let top = krate.top(m)?;
        (krate.name == RULES && krate.rulesets.contains(top)).then_some(top)
    }

    /// Resolves `segs` as written in module `from` of crate `k`.
    fn resolve(&self, k: usize, from: usize, lead: bool, segs: &[String], out: &mut Reach, depth: usize) {
        if depth > 16 || segs.is_empty() {
            return;
        }
        let krate = &self.crates[k];
        if lead {
            return self.external(segs, out, depth);
        }
        match segs[0].as_str() {
            "crate" => self.walk(k, 0, &segs[1..], out, depth),
            "self" => self.walk(k, from, &segs[1..], out, depth),
            "super" => {
                let mut m = from;
                let mut i = 0;
                while segs.get(i).is_some_and(|s| s == "super") {
                    match krate.modules[m].parent {
                        Some(p) => m = p,
                        None => return,
                    }
                    i += 1;
                }
                self.walk(k, m, &segs[i..], out, depth)
            }
            first => {
                let module = &krate.modules[from];
                let local = module.children.contains_key(first)
                    || module.defined.contains(first)
                    || module.uses.iter().any(|u| u.name.as_deref() == Some(first));
                if local {
                    return self.walk(k, from, segs, out, depth);
                }
                // A name a glob brings in, when it leads to more (a glob of the crate root
                // is itself refused, so a lone name needs no search); if no glob brings it
                // in, an extern crate's name (`use wasm_bindgen::prelude::*;` beside
                // `combat_odds_rules::x::Y` in an expression).
                if segs.len() > 1 && module.uses.iter().any(|u| u.name.is_none()) {
                    let mut through = Reach::default();
                    self.walk(k, from, segs, &mut through, depth);
                    if through.root_item.is_some() || through.modules.iter().any(|&km| km != (k, from)) {
                        out.modules.extend(through.modules);
                        out.root_item = out.root_item.take().or(through.root_item);
                        return;
                    }
                }
                self.external(segs, out, depth)
            }
        }
    }

    /// A path through another crate of the workspace (nothing if it names none).
    fn external(&self, segs: &[String], out: &mut Reach, depth: usize) {
        if let Some(k) = self.crates.iter().position(|c| c.program.is_none() && lib_name(&c.name) == segs[0]) {
            let mut other = Reach::default();
            self.walk(k, 0, &segs[1..], &mut other, depth);
            out.modules.extend(other.modules);
        }
    }

    /// Follows `segs` down from module `m` of crate `k`: child modules, imports (and so
    /// re-exports), glob imports, and the item it ends on.
    fn walk(&self, k: usize, mut m: usize, segs: &[String], out: &mut Reach, depth: usize) {
        let krate = &self.crates[k];
        if m != 0 {
            out.modules.push((k, m));
        }
        for (i, seg) in segs.iter().enumerate() {
            let module = &krate.modules[m];
            if seg == "*" {
                if m == 0 {
                    out.root_item = Some(seg.clone());
                }
                return;
            }
            if let Some(&c) = module.children.get(seg) {
                m = c;
                out.modules.push((k, m));
                continue;
            }
            if let Some(u) = module.uses.iter().find(|u| u.name.as_deref() == Some(seg.as_str())) {
                let mut target = u.target.clone();
                target.extend_from_slice(&segs[i + 1..]);
                return self.resolve(k, m, u.lead, &target, out, depth + 1);
            }
            if module.defined.contains(seg) {
                if m == 0 && out.root_item.is_none() {
                    out.root_item = Some(seg.clone());
                }
                return;
            }
            for glob in module.uses.iter().filter(|u| u.name.is_none() && depth < 4) {
                let mut through = Reach::default();
                self.resolve(k, m, glob.lead, &glob.target, &mut through, depth + 1);
                if let Some(&(gk, gm)) = through.modules.last() {
                    let g = &self.crates[gk].modules[gm];
                    let has = g.children.contains_key(seg)
                        || g.defined.contains(seg)
                        || g.uses.iter().any(|u| u.name.as_deref() == Some(seg.as_str()));
                    if has {
                        out.modules.extend(through.modules);
                        return self.walk(gk, gm, &segs[i..], out, depth + 1);
                    }
                }
            }
            return;
        }
    }
}

struct Check {
    root: PathBuf,
    failures: Vec<String>,
    /// (file, what) already reported.
    seen: BTreeSet<(String, String)>,
}

fn cycles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
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

    fn modules(&mut self, ws: &Workspace) {
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

    fn dependencies(&mut self) {
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
