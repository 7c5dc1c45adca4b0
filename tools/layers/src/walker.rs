//! Every path written in a module (use trees, expressions, types, patterns, macro
//! paths and the tokens of macro bodies and calls), and the flag names and exit codes
//! outside the binary.

use std::path::PathBuf;

use proc_macro2::{Spacing, Span, TokenStream, TokenTree};
use syn::visit::{self, Visit};

use crate::tree::{Crate, line, use_leaves};
use crate::{REGISTRY_MACRO, RULES};

/// A path as written somewhere in a module.
pub(super) struct Ref {
    pub(super) module: usize,
    pub(super) file: PathBuf,
    pub(super) line: usize,
    pub(super) segs: Vec<String>,
    pub(super) lead: bool,
    /// A macro called by its bare name (`name!`), found by textual scope.
    pub(super) bare_macro: bool,
}

/// Collects every path of a crate's modules, and the flag names and exit codes in them.
pub(super) struct Walker<'a> {
    pub(super) krate: &'a Crate,
    pub(super) module: usize,
    pub(super) file: PathBuf,
    pub(super) refs: Vec<Ref>,
    /// Whether flag names and exit codes are refused here (outside the binary).
    pub(super) terms: bool,
    pub(super) term_hits: Vec<(PathBuf, usize, String)>,
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
