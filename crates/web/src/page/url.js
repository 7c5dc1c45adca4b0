// The page's whole state lives in its address, so a link reproduces the same numbers.
// Pure: no DOM, so `node --test` checks it.

// A file's text as URL-safe base64 of its UTF-8.
export function encode(text) {
  const bytes = new TextEncoder().encode(text);
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

// The text `encode` wrote.
export function decode(b64) {
  const s = atob(b64.replace(/-/g, "+").replace(/_/g, "/"));
  return new TextDecoder().decode(Uint8Array.from(s, (c) => c.charCodeAt(0)));
}

// The address's fragment for `page` and its settings.
export const toHash = (page, settings) => "#" + new URLSearchParams({ page, ...settings }).toString();

// The settings a fragment (`#page=...`) holds.
export const fromHash = (hash) => new URLSearchParams(hash.replace(/^#/, ""));
