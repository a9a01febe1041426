import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

test('the demo window hides the AI chat panel and the secondary side bar (scripts/demo-settings.json, copied by demo.sh)', () => {
  const settings = JSON.parse(readFileSync('scripts/demo-settings.json', 'utf8')) as Record<string, unknown>;
  assert.equal(settings['chat.disableAIFeatures'], true);
  assert.equal(settings['workbench.secondarySideBar.defaultVisibility'], 'hidden');
  assert.match(
    readFileSync('scripts/demo.sh', 'utf8'),
    /cp scripts\/demo-settings\.json "\$DEMO_DIR\/user\/User\/settings\.json"/,
  );
});
