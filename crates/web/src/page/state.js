// What the page's tabs share: which one is shown, how each writes its settings into
// the address, and the rulesets' words.
import { toHash } from "./url.js";

export const PAGES = ["fire", "run", "compare", "balance", "tables"];

export const shared = {
  // The tab shown.
  current: "fire",
  // Per tab, its settings as the address holds them.
  savers: {},
  // Every ruleset's real-world words (GET /api/words).
  words: [],
};

// Writes the shown tab's settings into the address.
export function saveState() {
  const saver = shared.savers[shared.current];
  history.replaceState(null, "", toHash(shared.current, saver ? saver() : {}));
}
