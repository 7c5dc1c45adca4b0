// The JavaScript check itself (`scripts/fmt --check js`: Biome, as biome.jsonc sets
// it), on a copy of the checked files: the copy as it is passes, and a planted unused
// variable, or a line in another style, fails it, naming the file and the rule. Needs
// the pinned Biome in node_modules/ (`scripts/fmt` or `npm ci` installs it; CI runs
// `scripts/fmt --check js` before these tests).
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { appendFileSync, cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../../", import.meta.url));

// A copy of what the check reads: the script, the pin, the config and the checked
// folders, with the repository's node_modules/ (never installed into the copy).
function copy() {
  const pinned = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).devDependencies["@biomejs/biome"];
  const biome = join(root, "node_modules/@biomejs/biome/package.json");
  assert.ok(
    existsSync(biome) && JSON.parse(readFileSync(biome, "utf8")).version === pinned,
    `Biome ${pinned} is not in node_modules/: run scripts/fmt (or npm ci) first`,
  );
  const dir = mkdtempSync(join(tmpdir(), "combat-odds-lint-"));
  for (const file of ["scripts/fmt", "package.json", "package-lock.json", "biome.jsonc", ".gitignore"]) {
    cpSync(join(root, file), join(dir, file));
  }
  for (const folder of ["crates/web/src/page", "crates/wasm/page", "tests/page", "tests/site"]) {
    for (const name of readdirSync(join(root, folder))) {
      if (/\.m?js$/.test(name)) cpSync(join(root, folder, name), join(dir, folder, name));
    }
  }
  symlinkSync(join(root, "node_modules"), join(dir, "node_modules"), "dir");
  return dir;
}

const check = (dir) => spawnSync("bash", [join(dir, "scripts/fmt"), "--check", "js"], { cwd: dir, encoding: "utf8" });

test("the JavaScript check passes the files as they are, and fails on a planted unused variable", (t) => {
  const dir = copy();
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const clean = check(dir);
  assert.equal(clean.status, 0, clean.stdout + clean.stderr);
  appendFileSync(join(dir, "crates/web/src/page/editor.js"), "\nfunction planted() {\n  const unused = 1;\n}\n");
  const planted = check(dir);
  assert.notEqual(planted.status, 0, "an unused variable passed the check");
  const said = planted.stdout + planted.stderr;
  assert.match(said, /crates\/web\/src\/page\/editor\.js/);
  assert.match(said, /lint\/correctness\/noUnusedVariables/);
  assert.match(said, /This variable unused is unused/);
});

test("the JavaScript check fails on a line in another style than the files'", (t) => {
  const dir = copy();
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  appendFileSync(join(dir, "tests/page/url.test.mjs"), "\nexport const planted = 'single quotes'\n");
  const planted = check(dir);
  assert.notEqual(planted.status, 0, "a mis-formatted line passed the check");
  assert.match(planted.stdout + planted.stderr, /tests\/page\/url\.test\.mjs format/);
});
