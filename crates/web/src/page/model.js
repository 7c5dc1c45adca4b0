// The form's model over a scenario file's text: values read and written in place, by
// the byte offsets the server gives. Pure: no DOM, so `node --test` checks it.

const utf8 = new TextEncoder();
const text8 = new TextDecoder();

// `text` with bytes `start..end` (offsets in its UTF-8, as the server counts them)
// replaced by `literal`.
export function splice(text, start, end, literal) {
  const bytes = utf8.encode(text);
  return text8.decode(bytes.slice(0, start)) + literal + text8.decode(bytes.slice(end));
}

// The string value at bytes `start..end` of `text`, quoted either way in TOML.
export function stringAt(text, start, end) {
  return JSON.parse(text8.decode(utf8.encode(text).slice(start, end)).replace(/^'|'$/g, '"'));
}

// `text` with `key = value` under its [settings] table, which is added if missing.
export function withSetting(text, key, value) {
  const line = `${key} = ${JSON.stringify(value)}\n`;
  const header = text.match(/^\[settings\][ \t]*(#.*)?\r?\n/m);
  if (header) {
    const at = header.index + header[0].length;
    return text.slice(0, at) + line + text.slice(at);
  }
  return text.replace(/\n*$/, "\n") + "\n[settings]\n" + line;
}
