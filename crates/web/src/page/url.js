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
export const toHash = (page, settings) => `#${new URLSearchParams({ page, ...settings }).toString()}`;

// The settings a fragment (`#page=...`) holds.
export const fromHash = (hash) => new URLSearchParams(hash.replace(/^#/, ""));

// A player's own tables as a link carries them: their JSON deflated (the browser's
// own CompressionStream, raw deflate) and written as URL-safe base64, so a whole
// catalogue fits an address.
export async function pack(value) {
  const deflated = new Response(new Blob([JSON.stringify(value)]).stream().pipeThrough(new CompressionStream("deflate-raw")));
  const bytes = new Uint8Array(await deflated.arrayBuffer());
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

// The value `pack` wrote; null where the text is not one (a link cut short).
export async function unpack(b64) {
  try {
    const s = atob(b64.replace(/-/g, "+").replace(/_/g, "/"));
    const bytes = Uint8Array.from(s, (c) => c.charCodeAt(0));
    const inflated = new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate-raw")));
    return JSON.parse(await inflated.text());
  } catch {
    return null;
  }
}
