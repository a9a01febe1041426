// sqlite-parity: skip — reads package.json, no storage
/**
 * The CLI's version (src/cli/version.ts) is package.json's, read at run time: a JSON import of package.json made
 * the TypeScript build copy it into out/, where the e2e harness (and anything else looking for the project's root
 * by its package.json) took out/ for the root and looked for code-server under out/.tools.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { toolVersion } from '../../src/cli/version';

const root = resolve(__dirname, '..', '..', '..');

test("the CLI's version is package.json's", () => {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
  assert.equal(toolVersion(), pkg.version);
});

test('the compiled tree holds no package.json (out/ is never taken for the project root)', () => {
  assert.equal(existsSync(join(root, 'out', 'package.json')), false);
});
