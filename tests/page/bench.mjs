// How fast the page answers, in headless Chromium (not a test: figures to read).
//
//   node tests/page/bench.mjs [runs]
//   COMBAT_ODDS_SITE=<dir> node tests/page/bench.mjs [runs]
//
// Needs the release binary (cargo build --release), Debian's chromium and
// chromedriver. With COMBAT_ODDS_SITE, the static site scripts/build-site wrote is
// opened instead, served by `python3 -m http.server` on loopback (its engine in the
// tab's worker), and every request it served is checked: none went to /api.
// Prints, over `runs` openings (5 unless told): the time from the start of navigation
// to the first complete answer (exact and Monte Carlo, 100,000 trials) of the default
// duel, and the time from a changed range to its new answer.
import { spawn } from "node:child_process";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";
import path from "node:path";

const repository = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const runs = Number(process.argv[2] || 5);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const freePort = () =>
  new Promise((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
async function until(check, what) {
  for (let i = 0; i < 300; i++) {
    try {
      if (await check()) return;
    } catch {
      /* not yet */
    }
    await sleep(100);
  }
  throw new Error(`${what} never came`);
}

const serverPort = await freePort(),
  driverPort = await freePort();
const site = process.env.COMBAT_ODDS_SITE;
const served = [];
const server = site
  ? spawn("python3", ["-m", "http.server", "--bind", "127.0.0.1", "--directory", site, String(serverPort)], {
      stdio: ["ignore", "ignore", "pipe"],
    })
  : spawn(path.join(repository, "target/release/combat-odds"), ["serve", "--port", String(serverPort)], { stdio: "ignore" });
// http.server logs each request it answers on stderr: `"GET /path HTTP/1.1" 200`.
server.stderr?.on("data", (d) =>
  served.push(
    ...String(d)
      .split("\n")
      .filter((l) => l.includes('"GET ')),
  ),
);
const driver = spawn("chromedriver", [`--port=${driverPort}`], { stdio: "ignore" });
const base = `http://127.0.0.1:${driverPort}`;
const call = async (method, url, body) => {
  const r = await fetch(base + url, {
    method,
    headers: { "content-type": "application/json" },
    body: body && JSON.stringify(body),
  });
  return (await r.json()).value;
};
try {
  await until(async () => (await fetch(`http://127.0.0.1:${serverPort}/page/main.js`)).ok, "the server");
  await until(async () => (await fetch(`${base}/status`)).ok, "chromedriver");
  const args = ["--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1280,1600"];
  const { sessionId } = await call("POST", "/session", { capabilities: { alwaysMatch: { "goog:chromeOptions": { args } } } });
  const run = (script, ...a) => call("POST", `/session/${sessionId}/execute/sync`, { script, args: a });
  const answered = "const k = document.getElementById('p-kill'); return Boolean(k && /Monte Carlo \\d/.test(k.textContent));";
  const first = [],
    changed = [];
  for (let i = 0; i < runs; i++) {
    await call("POST", `/session/${sessionId}/url`, { url: "about:blank" });
    await call("POST", `/session/${sessionId}/url`, { url: `http://127.0.0.1:${serverPort}/` });
    // The page marks each answer on screen, on its clock from the start of navigation.
    await until(() => run(answered), "the first answer");
    first.push(await run("return performance.getEntriesByName('fire-answer')[0].startTime;"));
    await until(() => run("return Boolean(document.querySelector('[data-key=\"range\"]'));"), "the form");
    for (const range of ["30", "16"]) {
      const ms = await call("POST", `/session/${sessionId}/execute/async`, {
        script: `
        const [range, done] = arguments;
        const k = document.getElementById('p-kill'), before = k.textContent;
        const started = performance.now();
        new MutationObserver((_, o) => {
          const now = document.getElementById('p-kill');
          if (now && now.textContent !== before && /Monte Carlo \\d/.test(now.textContent)) { o.disconnect(); done(performance.now() - started); }
        }).observe(document.getElementById('fire-result'), { subtree: true, childList: true, characterData: true });
        const e = document.querySelector('[data-key="range"]'); e.value = range; e.dispatchEvent(new Event('change'));`,
        args: [range],
      });
      changed.push(ms);
    }
  }
  await call("DELETE", `/session/${sessionId}`);
  const median = (xs) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const show = (xs) => `median ${median(xs).toFixed(0)} ms (${xs.map((x) => x.toFixed(0)).join(", ")})`;
  console.log(`first answer after opening: ${show(first)}`);
  if (changed.length) console.log(`a changed range's answer:   ${show(changed)}`);
  if (site) {
    const api = served.filter((l) => l.includes("/api"));
    console.log(`the static site served ${served.length} requests, ${api.length} of them to /api`);
    if (api.length) throw new Error(`requests to /api:\n${api.join("\n")}`);
  }
} finally {
  server.kill();
  driver.kill();
}
