import { MAX_JSON_DEPTH } from "@lrg/spec";

// The deepest nesting a JSON request body may have is the spec's (`x-lrg-json-body-limits`). No operation's schema
// nests deeper than a few levels; a body far deeper is refused (400-02) before it is parsed or validated, so that no
// parser or validator recursion is spent on it (5,000 levels in 10 KB once exhausted the stack).
export { MAX_JSON_DEPTH };

/**
 * How deep `text`'s arrays and objects nest, counted no further than `limit + 1`: brackets inside strings do not
 * count. One pass over the text, before any parsing.
 */
export function jsonDepth(text: string, limit = MAX_JSON_DEPTH): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let index = 0; index < text.length; index += 1) {
    const char = text.charCodeAt(index);
    if (inString) {
      if (char === BACKSLASH) index += 1;
      else if (char === QUOTE) inString = false;
    } else if (char === QUOTE) inString = true;
    else if (char === OPEN_BRACE || char === OPEN_BRACKET) {
      depth += 1;
      if (depth > deepest) deepest = depth;
      if (deepest > limit) return deepest;
    } else if (char === CLOSE_BRACE || char === CLOSE_BRACKET) depth -= 1;
  }
  return deepest;
}

const BACKSLASH = 0x5c;
const QUOTE = 0x22;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
