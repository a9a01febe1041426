import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';

/** Extension-host tests on the bundled example folder (examples/demo-results: 40 problems, 2 models x 16 samples). */
describe('Trace Inspector in VS Code desktop', () => {
  let api: any;

  before(async () => {
    const ext = vscode.extensions.all.find((e) => e.packageJSON.name === 'reasoning-trace-inspector');
    assert.ok(ext, 'extension installed');
    api = await ext.activate();
    await vscode.commands.executeCommand('traceInspector.index');
  });

  it('registers its commands under one category', async () => {
    const all = await vscode.commands.getCommands(true);
    for (const id of [
      'traceInspector.index',
      'traceInspector.filter',
      'traceInspector.annotate',
      'traceInspector.openProblemView',
    ]) {
      assert.ok(all.includes(id), id);
    }
  });

  it('the tree lists the 40 problems, each with both models', async () => {
    const tree = api.extension.tree;
    const roots = tree.getChildren();
    assert.equal(roots.filter((n: any) => n.type === 'problem').length, 40);
    const models = tree.getChildren(roots[0]);
    assert.equal(models.length, 2);
  });

  it('the failing filter shows exactly the problems the model in focus never solves', async () => {
    const tree = api.extension.tree;
    await vscode.commands.executeCommand('traceInspector.filterProblems', { kind: 'failing' });
    const session = api.extension.active();
    const focus = session.focusModel();
    const expected = session.index.modelStats(focus.id).filter((s: any) => s.c === 0).length;
    assert.equal(tree.getChildren().filter((n: any) => n.type === 'problem').length, expected);
    await vscode.commands.executeCommand('traceInspector.clearFilter');
  });

  it('opens a sample as a read-only document with its header', async () => {
    const session = api.extension.active();
    const p = session.index.listProblems({ kind: 'all' }, 0, 1)[0];
    const s = session.index.samples(p.id, session.focusModel().id, { limit: 1 })[0];
    await vscode.commands.executeCommand('traceInspector.openSample', { sampleId: s.id });
    const text = vscode.window.activeTextEditor?.document.getText() ?? '';
    assert.match(text, /^# Problem 0 /);
    assert.match(text, /\*\*Correctness:\*\*/);
  });
});
