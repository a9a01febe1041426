/**
 * A results file edited after indexing, in a real VS Code (code-server) in Chromium (issue 12: the index
 * keeps no copy of a JSONL sample's text, so the text is read from the file and checked against the
 * content hash stored when it was indexed). With automatic re-indexing off, the folder is indexed, one
 * sample's text is opened (it shows), then the file is edited in place (that sample's text changed,
 * same length, so the line offsets stay): opening the sample again shows which file changed instead of
 * a text, never the edited text, and a warning names the file and offers Index Folder. Running it
 * re-indexes, and the sample shows its new text.
 * Screenshots: test-output/e2e/screenshots/changedFile-*.png.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  activeEditorText,
  activeEditorTitle,
  clickTreeRow,
  defaultVsixPath,
  expandTreeRow,
  outputRoot,
  runCommand,
  screenshot,
  showTreeView,
  startSession,
  waitForNotification,
  waitUntil,
  type Session,
} from './harness';

const CONTAINER = 'Trace Inspector';
const VIEW = 'Problems';
const ORIGINAL = 'the original reasoning ORIGINAL-7f3a';
const EDITED = 'the original reasoning EDITED---7f3a';

describe('a results file edited after indexing, in a real VS Code', { timeout: 900_000 }, () => {
  let s: Session;
  let file = '';

  before(async () => {
    const folder = path.join(outputRoot, 'workspace', 'changed-file');
    fs.rmSync(folder, { recursive: true, force: true });
    fs.mkdirSync(folder, { recursive: true });
    file = path.join(folder, 'rollouts.jsonl');
    const record = {
      qid: 'q0',
      question: 'What is 2 + 2?',
      gold: '4',
      model_name: 'changed/model',
      rollouts: [
        { correct: true, text: `${ORIGINAL} so the answer is 4` },
        { correct: true, text: 'another sample, answer 4' },
      ],
    };
    fs.writeFileSync(file, `${JSON.stringify(record)}\n`);
    const vsix = defaultVsixPath();
    assert.ok(vsix, 'a VSIX (npm run package) is needed');
    s = await startSession({
      name: 'changedFile',
      vsix,
      folder,
      // no automatic re-index on the edit: the user is the one told about it
      settings: { 'traceInspector.autoIndex': false },
    });
  });

  after(async () => {
    await s?.close();
  });

  /** Opens sample 0's text tab from the tree and returns the document's text. */
  const openSample0 = async (): Promise<string> => {
    await clickTreeRow(s.page, VIEW, 'sample 1');
    await clickTreeRow(s.page, VIEW, 'sample 0');
    await waitUntil(s.page, async () => ((await activeEditorTitle(s.page)) ?? '').endsWith('sample 0.md'), {
      what: 'the text tab of sample 0',
    });
    return activeEditorText(s.page);
  };

  test('the changed file is named, its new text is not shown, and Index Folder brings the sample back', async () => {
    try {
      await showTreeView(s.page, CONTAINER, VIEW);
      // automatic indexing is off: the user indexes the folder
      await runCommand(s.page, 'Trace Inspector: Index Folder');
      await expandTreeRow(s.page, VIEW, 'q0', { timeoutMs: 120_000 });
      await expandTreeRow(s.page, VIEW, 'model');
      await expandTreeRow(s.page, VIEW, 'correct');
      assert.ok((await openSample0()).includes(ORIGINAL), 'the sample text is shown before the edit');
      await runCommand(s.page, 'View: Close All Editors');

      // the same bytes but one word: offsets unchanged, content hash not
      fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace(ORIGINAL, EDITED));
      const doc = await openSample0();
      await screenshot(s.page, 'changedFile-1-sample');
      assert.match(doc, /rollouts\.jsonl changed since it was indexed/);
      assert.ok(!doc.includes(EDITED), `the edited text must not be shown: ${doc}`);
      assert.ok(!doc.includes(ORIGINAL), `the indexed text is not in the file any more: ${doc}`);
      // Harness regression: with the text scrolled up past its top (as a re-opened tab keeps it),
      // reading the editor must still focus the text, not click the tab strip above it.
      const editorBox = await s.page
        .locator('.part.editor .editor-group-container.active .monaco-editor')
        .last()
        .boundingBox();
      assert.ok(editorBox, 'the text editor is on screen');
      await s.page.mouse.move(editorBox.x + editorBox.width / 2, editorBox.y + editorBox.height / 2);
      await s.page.mouse.wheel(0, 2000);
      assert.equal(await activeEditorText(s.page), doc, 'the same text read with the editor scrolled');
      const note = await waitForNotification(s.page, /rollouts\.jsonl changed since it was indexed/, {
        timeoutMs: 30_000,
      });
      // automatic indexing is off: no re-index is due, so the warning is raised; it never says "kept" (trial 14)
      assert.match(note, /not shown until the folder is indexed again/);
      assert.ok(!/kept/.test(note), note);
      await screenshot(s.page, 'changedFile-2-warning');

      // re-indexing reads the file again: the sample shows the text now in the file
      await runCommand(s.page, 'View: Close All Editors');
      await runCommand(s.page, 'Trace Inspector: Index Folder');
      await expandTreeRow(s.page, VIEW, 'q0', { timeoutMs: 120_000 });
      await expandTreeRow(s.page, VIEW, 'model');
      await expandTreeRow(s.page, VIEW, 'correct');
      await waitUntil(s.page, async () => (await openSample0()).includes(EDITED), {
        what: 'the edited text after Index Folder',
        timeoutMs: 60_000,
      });
      await screenshot(s.page, 'changedFile-3-reindexed');
    } catch (e) {
      await screenshot(s.page, 'changedFile-failure');
      throw e;
    }
  });
});
