import * as path from 'node:path';
import Mocha from 'mocha';

/** Entry point that VS Code calls inside the extension host: runs every *.vscode-test.js beside it. */
export function run(): Promise<void> {
  const mocha = new Mocha({ ui: 'bdd', timeout: 60_000, color: true });
  mocha.addFile(path.join(__dirname, 'extension.vscode-test.js'));
  return new Promise((resolve, reject) => {
    mocha.run((failures) => (failures ? reject(new Error(`${failures} tests failed`)) : resolve()));
  });
}
