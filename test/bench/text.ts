// Deterministic model-like output for the stream benchmark: English words with the odd non-ASCII character (quotes,
// accents, a dash, CJK, an emoji) as real answers have, so the decoder's multi-byte paths are exercised too.

const WORDS = (
  'the model returns a stream of tokens and each token is decoded as soon as it arrives so that the user sees ' +
  'the answer grow while it is written caching retries parsing scheduling indexing sampling batching function ' +
  'return value number string object array request response client server budget sequential parallel'
).split(' ');
const SPECIAL = ['café', 'naïve', '“quoted”', '—', '简体', '🚀', 'façade', '✅'];

/** A block of about `chars` characters; the same for the same arguments. */
export function modelText(chars: number, seed = 1): string {
  let x = seed >>> 0 || 1;
  const next = () => {
    // xorshift32
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x;
  };
  const parts: string[] = [];
  let length = 0;
  let sentence = 0;
  while (length < chars) {
    const r = next();
    let word = r % 40 === 0 ? SPECIAL[(r >>> 8) % SPECIAL.length]! : WORDS[(r >>> 8) % WORDS.length]!;
    if (sentence === 0) word = word.charAt(0).toUpperCase() + word.slice(1);
    sentence++;
    let piece = (parts.length ? ' ' : '') + word;
    if (sentence > 8 && r % 7 === 0) {
      piece += r % 3 === 0 ? '.\n\n' : '.';
      sentence = 0;
    }
    parts.push(piece);
    length += piece.length;
  }
  return parts.join('');
}

/** `block` repeated until the result has `chars` characters (cut so no surrogate pair is split). */
export function repeatTo(block: string, chars: number): string {
  let text = block.repeat(Math.max(1, Math.floor(chars / block.length)));
  const rest = chars - text.length;
  if (rest > 0) {
    let cut = rest;
    const c = block.charCodeAt(cut - 1);
    if (c >= 0xd800 && c <= 0xdbff) cut--;
    text += block.slice(0, cut);
  }
  return text;
}
