/**
 * The tool's version, read once from the project's package.json: the nearest one above this file whose `name` is
 * the project's (the CLI bundle's `dist/cli.js` finds the extension's own; the compiled `out/src/cli/*.js` finds the
 * repository's). Read at run time rather than imported: a JSON import makes the TypeScript build copy package.json
 * into `out/`, where it is taken for the project's root. `0.0.0` when none is found.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const PROJECT_NAME = 'reasoning-trace-inspector';

let cached: string | undefined;

/** The version of package.json (`0.1.0`); `0.0.0` when no package.json of the project is above this file. */
export function toolVersion(): string {
  if (cached !== undefined) return cached;
  cached = '0.0.0';
  for (let dir = __dirname; ; dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      try {
        const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
        if (pkg.name === PROJECT_NAME && typeof pkg.version === 'string') {
          cached = pkg.version;
          break;
        }
      } catch {
        /* not readable: look further up */
      }
    }
    if (dirname(dir) === dir) break;
  }
  return cached;
}
