import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  DEFAULT_LEXICON,
  MARKERS_FILE,
  MarkerCounter,
  type MarkerLexicon,
  lexiconKey,
  loadMarkerLexicon,
  mergeLexicon,
  phraseWords,
} from '../../src/core/text/markers';

const lex: MarkerLexicon = {
  behaviours: [
    { id: 'verification', label: 'V', description: '', phrases: ['let me verify', 'verify', 'let me check', 'check'] },
    { id: 'backtracking', label: 'B', description: '', phrases: ['wait', 'actually', 'wait actually', "let's redo"] },
    { id: 'cjk', label: 'C', description: '', phrases: ['等等', 'check'] },
  ],
};
const counter = new MarkerCounter(lex);
const counts = (t: string) => counter.measure(t).markers;

describe('marker counts', () => {
  test('case-insensitive, whole words only, punctuation between words ignored', () => {
    assert.deepEqual(counts('WAIT. Actually, wait!'), [0, 2, 0]);
    assert.deepEqual(counts('awaiting waits await wait2 actuallyy'), [0, 0, 0]);
    assert.deepEqual(counts('Wait, actually no.'), [0, 1, 0], '"wait actually" is one (longest) marker');
    assert.deepEqual(counts('Wait... actually... wait'), [0, 2, 0], 'after the longest match, the next "wait" counts');
  });
  test('non-overlapping within a behaviour: the longest phrase at a word wins, its words are not counted again', () => {
    assert.deepEqual(counts('Let me verify this. Verify again.'), [2, 0, 0]);
    assert.deepEqual(counts('let me check check'), [2, 0, 2], 'cjk counts its own "check" twice');
  });
  test('behaviours are counted independently: a phrase in two behaviours counts in both', () => {
    assert.deepEqual(counts('Wait, let me check.'), [1, 1, 1]);
  });
  test('Unicode: NFKC (fullwidth, ligatures), curly apostrophes, letters of other scripts as word characters', () => {
    assert.deepEqual(counts('ＷＡＩＴ'), [0, 1, 0], 'fullwidth letters are their ASCII forms after NFKC');
    assert.deepEqual(counts('Let’s redo it'), [0, 1, 0], 'a curly apostrophe is punctuation like the straight one');
    assert.deepEqual(counts('waité waitβ βwait'), [0, 0, 0], 'a letter of any script continues the word');
    assert.deepEqual(counts('wait\u0301'), [0, 0, 0], 'a combining mark continues the word');
    assert.deepEqual(counts('ok 等等，我算错了 等等'), [0, 0, 2], 'Han characters are one piece each');
    assert.deepEqual(counts('ＶＥＲＩＦＹ\u00a0it'), [1, 0, 0]);
  });
  test('lengths: code points and pieces by the stated rule', () => {
    const m = counter.measure('Wait, 12 + x = 3.5! 等等 😀');
    // pieces: wait , 12 + x = 3 . 5 ! 等 等 😀
    assert.equal(m.pieces, 13);
    assert.equal(m.chars, [...'Wait, 12 + x = 3.5! 等等 😀'].length);
    assert.deepEqual(counter.measure(''), { chars: 0, pieces: 0, markers: [0, 0, 0] });
  });
  test('matches give the phrase and the offsets of the marker', () => {
    const t = 'So 2+2=4. Wait, let me check: yes.';
    const ms = counter.matches(t);
    assert.deepEqual(
      ms.map((m) => [m.behaviour, m.phrase, t.slice(m.start, m.end)]),
      [
        ['backtracking', 'wait', 'Wait'],
        ['verification', 'let me check', 'let me check'],
        ['cjk', 'check', 'check'],
      ],
    );
    assert.equal(counter.matches(t, 1).length, 1);
  });
  test('a 300,000-character sample is measured in linear time (well under a second)', () => {
    const big = new MarkerCounter(DEFAULT_LEXICON);
    const para = 'Wait, let me check the sum: 12 + 30 = 42. Actually we need to find x first. Hmm, verify. ';
    const text = para.repeat(Math.ceil(300_000 / para.length));
    const t0 = performance.now();
    const m = big.measure(text);
    const ms = performance.now() - t0;
    const reps = Math.ceil(300_000 / para.length);
    const ids = big.behaviours;
    assert.equal(m.markers[ids.indexOf('backtracking')], 3 * reps, 'wait, actually, hmm');
    assert.equal(m.markers[ids.indexOf('verification')], 2 * reps, 'let me check, verify');
    assert.ok(ms < 1000, `took ${ms} ms`);
  });
});

describe('the lexicon', () => {
  test('the shipped lexicon has the four behaviours, each phrase with words', () => {
    assert.deepEqual(
      DEFAULT_LEXICON.behaviours.map((b) => b.id),
      ['verification', 'backtracking', 'subgoal', 'backward'],
    );
    for (const b of DEFAULT_LEXICON.behaviours) for (const p of b.phrases) assert.ok(phraseWords(p).length > 0, p);
  });
  test('a folder adds and removes phrases, adds behaviours; bad parts are named and left out', () => {
    const { lexicon, problems } = mergeLexicon(DEFAULT_LEXICON, {
      behaviours: {
        verification: { phrases: ['Cross-check'], remove: ['CONFIRM'] },
        hedging: { label: 'Hedging', phrases: ['maybe', 'perhaps'] },
        bad: { phrases: 'maybe' },
        empty: { phrases: ['...'] },
        chars: { phrases: ['the'] },
        tokens: { label: 'Tok', phrases: ['answer'] },
        backtracking: { remove: ['not a phrase of it'] },
      },
    });
    const v = lexicon.behaviours.find((b) => b.id === 'verification');
    assert.ok(v?.phrases.includes('Cross-check'));
    assert.ok(!v?.phrases.includes('confirm'));
    assert.deepEqual(lexicon.behaviours.find((b) => b.id === 'hedging')?.phrases, ['maybe', 'perhaps']);
    assert.deepEqual(problems, [
      '.trace-inspector/markers.json: bad.phrases must be a list of strings; left out',
      '.trace-inspector/markers.json: new behaviour "bad" has no phrase; left out',
      '.trace-inspector/markers.json: phrase "..." of empty has no word',
      '.trace-inspector/markers.json: behaviour "chars" has the name of a length measure (chars, tokens); left out: give it another name',
      '.trace-inspector/markers.json: behaviour "tokens" has the name of a length measure (chars, tokens); left out: give it another name',
      '.trace-inspector/markers.json: backtracking.remove: "not a phrase of it" is not a phrase of backtracking; nothing removed',
    ]);
    assert.ok(!lexicon.behaviours.some((b) => b.id === 'chars' || b.id === 'tokens'));
    const c = new MarkerCounter(lexicon);
    const m = c.measure('Maybe we cross check; confirm.').markers;
    assert.equal(m[c.behaviours.indexOf('verification')], 1);
    assert.equal(m[c.behaviours.indexOf('hedging')], 1);
    assert.notEqual(lexiconKey(lexicon), lexiconKey(DEFAULT_LEXICON));
    assert.equal(lexiconKey(DEFAULT_LEXICON), lexiconKey(mergeLexicon(DEFAULT_LEXICON, { behaviours: {} }).lexicon));
  });
  test('loadMarkerLexicon reads the folder file; missing is the shipped lexicon, malformed is named', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'markers-'));
    assert.deepEqual(await loadMarkerLexicon(dir), { lexicon: DEFAULT_LEXICON, problems: [] });
    mkdirSync(join(dir, '.trace-inspector'));
    writeFileSync(join(dir, MARKERS_FILE), '{"behaviours": {"backtracking": {"phrases": ["oops"]}}}');
    const ok = await loadMarkerLexicon(dir);
    assert.deepEqual(ok.problems, []);
    assert.ok(ok.lexicon.behaviours[1].phrases.includes('oops'));
    writeFileSync(join(dir, MARKERS_FILE), '{"behaviours": ');
    const bad = await loadMarkerLexicon(dir);
    assert.equal(bad.lexicon, DEFAULT_LEXICON);
    assert.match(bad.problems[0], /malformed JSON/);
  });
});
