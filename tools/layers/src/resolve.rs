//! A path as written resolved, through re-exports and glob imports, to the modules it
//! reaches and the crate-root item it names, if any.

use crate::RULES;
use crate::tree::{Workspace, lib_name};

/// What a path reaches: modules entered (crate, module), and an item of its own crate's
/// root, if it names one.
#[derive(Default)]
pub(super) struct Reach {
    pub(super) modules: Vec<(usize, usize)>,
    pub(super) root_item: Option<String>,
}

impl Workspace {
    /// The ruleset module `m` of crate `k` is in, if it is in one.
    pub(super) fn ruleset(&self, k: usize, m: usize) -> Option<&str> {
        let krate = &self.crates[k];
        let top = krate.top(m)?;
        (krate.name == RULES && krate.rulesets.contains(top)).then_some(top)
    }

    /// Resolves `segs` as written in module `from` of crate `k`.
    pub(super) fn resolve(&self, k: usize, from: usize, lead: bool, segs: &[String], out: &mut Reach, depth: usize) {
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
