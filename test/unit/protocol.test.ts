import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import {
  MAX_PAGE,
  PROTOCOL_VERSION,
  reply,
  validateFilter,
  validateHostMessage,
  validatePanelState,
  validateWebviewMessage,
} from '../../src/shared/protocol';
import { GLYPH_COUNT } from '../../src/shared/glyphWidths';

const glyphs = { normal: new Array(GLYPH_COUNT).fill(55.5), bold: new Array(GLYPH_COUNT).fill(60) };
const layoutMsg = { id: 1, kind: 'chartLayout', layout: { width: 612, glyphs } };

describe('validateWebviewMessage', () => {
  test('accepts each well-formed request and returns it unchanged', () => {
    const ok = [
      { id: 1, kind: 'ready', view: 'problem' },
      { id: 2, kind: 'log', level: 'warn', message: 'x' },
      { id: 3, kind: 'getProblem', problemId: 7 },
      { id: 4, kind: 'getSamples', problemId: 7, modelId: 2, offset: 0, limit: MAX_PAGE },
      { id: 5, kind: 'getSample', sampleId: 9 },
      { id: 6, kind: 'getSimilarity', problemId: 7, modelId: 2 },
      { id: 7, kind: 'getNovelty', sampleId: 9 },
      { id: 8, kind: 'getPpl', problemId: 7 },
      { id: 9, kind: 'getOverview' },
      { id: 10, kind: 'setAnnotation', sampleId: 9, labels: ['lucky guess'], note: '' },
      { id: 11, kind: 'filterProblems', filter: { kind: 'accuracyBin', model: 2, bin: 11 } },
      { id: 12, kind: 'openSample', sampleId: 9 },
      { id: 13, kind: 'openProblem', problemId: 7 },
      { id: 14, kind: 'ready', view: 'preview' },
      { id: 15, kind: 'getSamplePreview', sampleId: 9 },
      { id: 16, kind: 'previewAction', action: 'nextSample', sampleId: 9 },
      { id: 17, kind: 'openLink', url: 'https://example.com/a?b=1#c' },
      { id: 18, kind: 'getSimilarity', problemId: 7, modelId: 2, stage: 'list' },
      { ...layoutMsg, id: 19 },
      { ...layoutMsg, id: 20, layout: { width: 1, glyphs } },
    ];
    for (const m of ok) assert.deepEqual(validateWebviewMessage(m), m, JSON.stringify(m));
  });

  test('refuses malformed messages with a reason', () => {
    const cases: [unknown, string][] = [
      [null, 'message must be an object'],
      [[1], 'message must be an object'],
      [{ kind: 'getProblem', problemId: 1 }, 'message id must be a positive integer'],
      [{ id: 0, kind: 'getProblem', problemId: 1 }, 'message id must be a positive integer'],
      [{ id: 1.5, kind: 'getProblem', problemId: 1 }, 'message id must be a positive integer'],
      [{ id: 1, kind: 'eval', code: 'x' }, 'unknown message kind "eval"'],
      [{ id: 1, kind: '__proto__' }, 'unknown message kind "__proto__"'],
      [{ id: 1, kind: 'getProblem', problemId: '1' }, 'getProblem: problemId must be a positive integer'],
      [{ id: 1, kind: 'getProblem', problemId: 1, sql: 'DROP' }, 'getProblem: unexpected field "sql"'],
      [
        { id: 1, kind: 'getSamples', problemId: 1, modelId: 1, offset: -1, limit: 10 },
        'getSamples: offset must be a non-negative integer',
      ],
      [
        { id: 1, kind: 'getSamples', problemId: 1, modelId: 1, offset: 0, limit: MAX_PAGE + 1 },
        `getSamples: limit must be an integer in 1..${MAX_PAGE}`,
      ],
      [
        { id: 1, kind: 'getSamples', problemId: 1, modelId: 1, offset: 0, limit: 0 },
        `getSamples: limit must be an integer in 1..${MAX_PAGE}`,
      ],
      [
        { id: 1, kind: 'setAnnotation', sampleId: 1, labels: [1], note: '' },
        'setAnnotation: labels must be a list of at most 50 strings of at most 200 characters',
      ],
      [
        { id: 1, kind: 'setAnnotation', sampleId: 1, labels: [], note: 'x'.repeat(20_001) },
        'setAnnotation: note must be a string of at most 20000 characters',
      ],
      [{ id: 1, kind: 'ready', view: 'settings' }, 'ready: view must be problem, overview or preview'],
      [
        { id: 1, kind: 'getSimilarity', problemId: 1, modelId: 2, stage: 'paths' },
        "getSimilarity: stage must be 'list' or absent",
      ],
      [
        { id: 1, kind: 'previewAction', action: 'runCommand', sampleId: 9 },
        'previewAction: action must be one of nextSample, previousSample, nextProblem, previousProblem, nextUnannotated, annotate, openText, openProblemView',
      ],
      [
        { id: 1, kind: 'previewAction', action: 'annotate', sampleId: 0 },
        'previewAction: sampleId must be a positive integer',
      ],
      [{ id: 1, kind: 'getSamplePreview', sampleId: '9' }, 'getSamplePreview: sampleId must be a positive integer'],
      ...[
        'javascript:alert(1)',
        'file:///etc/passwd',
        'command:workbench.action.quit',
        'https://a b',
        `https://${'x'.repeat(2000)}`,
      ].map((url): [unknown, string] => [
        { id: 1, kind: 'openLink', url },
        'openLink: url must be an http(s) URL of at most 2000 characters without spaces',
      ]),
      [{ id: 1, kind: 'log', level: 'debug', message: '' }, 'log: level must be info, warn or error'],
      [{ ...layoutMsg, extra: 1 }, 'chartLayout: unexpected field "extra"'],
      ...[
        { width: 0, glyphs },
        { width: 612.5, glyphs },
        { width: 10001, glyphs },
        { width: 612, glyphs, theme: {} },
        { width: 612, glyphs: { normal: glyphs.normal, bold: glyphs.bold.slice(1) } },
        { width: 612, glyphs: { normal: glyphs.normal, bold: [...glyphs.bold.slice(1), -1] } },
        { width: 612, glyphs: { normal: glyphs.normal, bold: [...glyphs.bold.slice(1), 1e9] } },
        { width: 612, glyphs: { ...glyphs, italic: glyphs.bold } },
        { width: 612 },
        null,
      ].map((layout): [unknown, string] => [
        { ...layoutMsg, layout },
        'chartLayout: layout must be { width: integer in 1..10000, glyphs: { normal, bold }: 95 widths in 0..1000 each }',
      ]),
      [
        { id: 1, kind: 'filterProblems', filter: { kind: 'search', query: 'x' } },
        'filterProblems: unknown filter kind "search"',
      ],
    ];
    for (const [m, why] of cases) assert.equal(validateWebviewMessage(m), why, JSON.stringify(m));
  });
});

describe('validateFilter', () => {
  test('each filter kind, and refusals', () => {
    assert.deepEqual(validateFilter({ kind: 'problems', problemIds: [1, 2] }), {
      kind: 'problems',
      problemIds: [1, 2],
    });
    assert.deepEqual(validateFilter({ kind: 'coverageCell', base: 1, model: 2, cell: 'baseOnly' }), {
      kind: 'coverageCell',
      base: 1,
      model: 2,
      cell: 'baseOnly',
    });
    assert.deepEqual(validateFilter({ kind: 'lost', base: 1, model: 2 }), { kind: 'lost', base: 1, model: 2 });
    assert.deepEqual(validateFilter({ kind: 'level', level: '3' }), { kind: 'level', level: '3' });
    assert.equal(
      validateFilter({ kind: 'problems', problemIds: [1, 0] }),
      'filter problems: problemIds must be a list of at most 100000 ids',
    );
    assert.equal(
      validateFilter({ kind: 'accuracyBin', model: 2, bin: 12 }),
      'filter accuracyBin: model must be an id and bin in 0..11',
    );
    assert.equal(
      validateFilter({ kind: 'coverageCell', base: 1, model: 2, cell: 'all' }),
      'filter coverageCell: base and model must be ids, cell one of baseOnly, modelOnly, both, neither',
    );
    assert.equal(validateFilter({ kind: 'label', label: '  ' }), 'filter label: label must be a non-empty string');
    assert.equal(validateFilter({ kind: 'all', extra: 1 }), 'filter all: unexpected field "extra"');
  });
});

describe('validateHostMessage and state', () => {
  test('accepts init, reply, error, changed; refuses the rest', () => {
    const init = { id: 0, kind: 'init', protocol: PROTOCOL_VERSION, state: { view: 'problem', problemId: 3 } };
    assert.deepEqual(validateHostMessage(init), init);
    const r = reply(5, { id: 4, kind: 'openSample' }, { ok: true });
    assert.deepEqual(r, { id: 5, kind: 'reply', replyTo: 4, request: 'openSample', result: { ok: true } });
    assert.deepEqual(validateHostMessage(r), r);
    assert.deepEqual(validateHostMessage({ id: 6, kind: 'changed' }), { id: 6, kind: 'changed' });
    assert.equal(
      validateHostMessage({ id: 1, kind: 'init', protocol: 2, state: { view: 'problem' } }),
      'protocol 2 is not 1',
    );
    assert.equal(
      validateHostMessage({ id: 1, kind: 'init', protocol: 1, state: { view: 'problem', problemId: '<x>' } }),
      'init: state.problemId must be a positive integer',
    );
    assert.equal(
      validateHostMessage({ id: 1, kind: 'reply', replyTo: 2, request: 'getProblem', result: '<img>' }),
      'reply: result must be an object',
    );
    assert.equal(
      validateHostMessage({ id: 1, kind: 'reply', replyTo: 2, request: 'runScript', result: {} }),
      'reply: unknown request kind',
    );
    assert.equal(validateHostMessage({ id: 1, kind: 'html', html: '<script>' }), 'unknown message kind "html"');
    assert.equal(validateHostMessage('x'), 'message must be an object');
  });
  test("init may carry the view's first data (prefetched getProblem or getSamplePreview); a malformed one is refused", () => {
    const state = { view: 'problem', problemId: 3 };
    const ok = {
      id: 0,
      kind: 'init',
      protocol: PROTOCOL_VERSION,
      state,
      prefetched: { request: 'getProblem', problemId: 3, result: { problem: {} } },
    };
    assert.deepEqual(validateHostMessage(ok), ok);
    const preview = {
      ...ok,
      state: { view: 'preview', sampleId: 9 },
      prefetched: { request: 'getSamplePreview', sampleId: 9, result: {} },
    };
    assert.deepEqual(validateHostMessage(preview), preview);
    const refused =
      'init: prefetched must be { request: "getProblem", problemId: integer, result: object } or { request: "getSamplePreview", sampleId: integer, result: object }';
    for (const prefetched of [
      '<img src=x>',
      { request: 'getSample', problemId: 3, result: {} },
      { request: 'getProblem', problemId: '3', result: {} },
      { request: 'getProblem', problemId: 3.5, result: {} },
      { request: 'getProblem', problemId: 3, result: '<script>' },
      { request: 'getProblem', problemId: 3, result: [] },
      { request: 'getProblem', problemId: 3 },
      { request: 'getSamplePreview', sampleId: '9', result: {} },
      { request: 'getSamplePreview', sampleId: 9, result: '<b>x</b>' },
      { request: 'getSamplePreview', problemId: 9, result: {} },
    ])
      assert.equal(
        validateHostMessage({ id: 0, kind: 'init', protocol: PROTOCOL_VERSION, state, prefetched }),
        refused,
        JSON.stringify(prefetched),
      );
  });
  test('validatePanelState keeps only known fields', () => {
    assert.deepEqual(
      validatePanelState({ view: 'problem', problemId: 4, problemKey: 'd\x1f4', modelId: 2, sampleId: 9, junk: 1 }),
      { view: 'problem', problemId: 4, problemKey: 'd\x1f4', modelId: 2, sampleId: 9 },
    );
    assert.equal(validatePanelState(undefined), 'state must be an object');
    // The preview's sample, by row id and by its stable keys.
    assert.deepEqual(
      validatePanelState({ view: 'preview', sampleId: 9, problemKey: 'd\x1f4', modelKey: 'm', sampleIndex: 0 }),
      { view: 'preview', sampleId: 9, problemKey: 'd\x1f4', modelKey: 'm', sampleIndex: 0 },
    );
    assert.equal(
      validatePanelState({ view: 'preview', sampleIndex: -1 }),
      'state.sampleIndex must be a non-negative integer',
    );
    assert.equal(validatePanelState({ view: 'editor' }), 'state.view must be problem, overview or preview');
    assert.equal(validatePanelState({ view: 'overview', sampleId: -1 }), 'state.sampleId must be a positive integer');
    // The overview's saved model choice and band toggle.
    assert.deepEqual(
      validatePanelState({ view: 'overview', shownModels: ['a:b@c'], knownModels: ['a:b@c', 'x'], bands: false }),
      {
        view: 'overview',
        shownModels: ['a:b@c'],
        knownModels: ['a:b@c', 'x'],
        bands: false,
      },
    );
    assert.equal(
      validatePanelState({ view: 'overview', shownModels: [1] }),
      'state.shownModels must be at most 1000 strings',
    );
    assert.equal(
      validatePanelState({ view: 'overview', knownModels: Array(1001).fill('m') }),
      'state.knownModels must be at most 1000 strings',
    );
    assert.equal(validatePanelState({ view: 'overview', bands: 'yes' }), 'state.bands must be a boolean');
  });
});
