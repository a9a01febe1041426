/**
 * Runs the extension-host suite in VS Code desktop through @vscode/test-electron
 * (`npm run test:vscode` after `npm run build && npm run compile-tests`). It downloads VS Code, so it
 * runs on machines with internet access; CI here runs the code-server end-to-end suite instead.
 */
import * as path from 'node:path';
import { runTests } from '@vscode/test-electron';

async function main(): Promise<void> {
  const repo = path.resolve(__dirname, '../../..');
  await runTests({
    version: process.env.VSCODE_VERSION ?? 'stable',
    extensionDevelopmentPath: repo,
    extensionTestsPath: path.resolve(__dirname, 'suite', 'index'),
    launchArgs: [path.join(repo, 'examples', 'demo-results'), '--disable-extensions', '--disable-workspace-trust'],
  });
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
