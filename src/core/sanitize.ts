/**
 * The one sanitiser for text that came from outside (a checkpoint,
 * ORCHESTRATION.yaml, a bridge record, a transcript, a directory name) on its
 * way to the model or a terminal. Whatever goes in, what comes out holds no
 * control, bidi or invisible characters and nothing that can open or close a
 * tag of ours.
 */

export type SanitizeOptions = {
  /** Keep line breaks (as \n); otherwise the result is one line. */
  multiline?: boolean;
};

/** C0 (but \n, handled apart), DEL, C1, and the line and paragraph separators: shown as a space, so words stay apart. */
const CONTROLS = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029]/g;

/**
 * Removed outright: bidi embeddings, overrides and isolates (they reorder
 * what a reader sees), zero-width and other invisible format characters,
 * variation selectors, and Unicode tag characters (invisible ASCII).
 */
const INVISIBLE =
  // biome-ignore lint/suspicious/noMisleadingCharacterClass: every code point here is listed on purpose, combining ones included
  /[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff9-\ufffb]|\udb40[\udc00-\udc7f]/g;

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** `<` and its lookalikes (full-width, small, mathematical, CJK) become `‹`: none can open or close a tag. */
const OPENERS = /[<\u02c2\u2039\u2329\u27e8\u276c\u276e\u3008\u300a\ufe64\uff1c]/g;
/** Lookalikes of `>` become `›`; a plain `>` alone cannot make a tag once every `<` is gone. */
const CLOSERS = /[\u02c3\u203a\u232a\u27e9\u276d\u276f\u3009\u300b\ufe65\uff1e]/g;

/** Our own tag names right after a bracket lose their hyphen, so `‹/resumption-context›` reads as no tag at all. */
const OUR_TAGS = /\u2039(\s*\/?\s*)(context|compaction|resumption)-(monitor|alert|context)/gi;

/**
 * Printable ASCII but `<` (`/^[\x20-\x3b\x3d-\x7e]*$/`): nothing above applies to such a text, only the spacing. Most
 * of what a hook shows is this (paths, ids, skill names). Spelt out: a regular expression's first use compiles it, and
 * its second compiles it again to machine code (~40 K and ~80 K instructions, measured), where the monitor asks this of
 * a few short texts on every prompt.
 */
export function isPlain(text: string): boolean {
  for (let at = 0; at < text.length; at++) {
    const c = text.charCodeAt(at);
    if (c < 0x20 || c > 0x7e || c === 0x3c) return false;
  }
  return true;
}

export function sanitizeText(text: string, options: SanitizeOptions = {}): string {
  if (isPlain(text)) {
    // The only whitespace in it is the space: runs of it become one, and the ends are trimmed as below.
    const spaced = text.includes('  ') ? text.replace(/ {2,}/g, ' ') : text;
    return options.multiline ? spaced.trimEnd() : spaced.trim();
  }
  const clean = text
    .replace(LONE_SURROGATE, '\ufffd')
    .replace(/\r\n?/g, '\n')
    .replace(INVISIBLE, '')
    .replace(CONTROLS, ' ')
    .replace(OPENERS, '‹')
    .replace(CLOSERS, '›')
    .replace(OUR_TAGS, '‹$1$2 $3');
  if (!options.multiline) return clean.replace(/\s+/g, ' ').trim();
  return clean
    .split('\n')
    .map((line) => line.replace(/\s+/g, ' ').trimEnd())
    .join('\n')
    .replace(/^\n+|\n+$/g, '');
}
