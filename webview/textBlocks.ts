/**
 * Long plain text cut into blocks for the views, and the height a piece of a long sample is given before it is
 * rendered (pure: no DOM, unit-tested in test/unit/render.test.ts).
 */

/** One run of text and how to show it (`wrap`: e.g. a function that makes a `<mark>`; none: plain text). */
export interface Piece<W> {
  text: string;
  wrap?: W;
}

/**
 * Cuts consecutive pieces of text into blocks of about `blockChars` characters: a block ends at the
 * first line break at or after `blockChars` characters (so a block holds whole lines; a single line
 * longer than that stays whole), and a piece that spans a cut is split, each half keeping its `wrap`.
 * The blocks' texts joined equal the pieces' texts joined; empty pieces are dropped. Pure (no DOM).
 */
export function splitIntoBlocks<W>(pieces: Iterable<Piece<W>>, blockChars = 4000): Piece<W>[][] {
  const blocks: Piece<W>[][] = [[]];
  let size = 0;
  for (const { text, wrap } of pieces) {
    let rest = text;
    while (rest) {
      const cut = size + rest.length > blockChars ? rest.indexOf('\n', Math.max(0, blockChars - size - 1)) : -1;
      const head = cut < 0 ? rest : rest.slice(0, cut + 1);
      blocks[blocks.length - 1].push(wrap ? { text: head, wrap } : { text: head });
      size += head.length;
      if (cut < 0) break;
      rest = rest.slice(cut + 1);
      blocks.push([]);
      size = 0;
    }
  }
  if (blocks.length > 1 && blocks[blocks.length - 1].length === 0) blocks.pop();
  return blocks;
}

/**
 * The height (px) an unrendered piece of `chars` characters is given: lines of about `width` / 7.2 px
 * characters (600 px when the width is not known: a hidden tab), one line at least, 40 px each: a line of
 * the views' 13 px font is 20 px, and paragraph margins and display math made rendered reasoning about
 * twice as tall as its characters on full lines (a 1,000-character piece of the perf e2e's sample took
 * 500-640 px at 600 px wide). Pure: the slot's height before its piece is rendered (then it takes its own).
 */
export function estimatedHeight(chars: number, width: number): number {
  const perLine = Math.max(20, Math.floor((width > 0 ? width : 600) / 7.2));
  return Math.max(1, Math.ceil(chars / perLine)) * 40;
}
