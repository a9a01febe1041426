/**
 * The walkthrough's copy of the bundled example results folder (see ./walkthrough.ts), kept in step
 * with the extension: no `vscode` import, so unit tests run it on real folders.
 *
 * A *stamp* (`<name>.version` beside the copy, outside the results folder) holds a SHA-256 over the
 * bundled example's relative paths and contents. When the shipped example differs from the one the copy
 * was made from (a new extension version changed it), or the copy has no stamp (made by a version before
 * stamps), the copy is replaced by a fresh one; the user's annotations of the example are kept: the copy's
 * `.trace-inspector/` folder (the annotations mirror, `.trace-inspector/annotations.jsonl`) moves into the
 * new copy, and the index restores annotations from it (annotations of samples the new example no longer
 * has stay in the mirror but attach to nothing).
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

/** The folder inside a results folder that holds the user's own data (annotations mirror). */
const USER_DATA = '.trace-inspector';

/** SHA-256 (hex) over every file under `dir` (sorted POSIX relative paths and contents); `.trace-inspector/` skipped. */
export async function folderFingerprint(dir: string): Promise<string> {
  const files: string[] = [];
  const walk = async (rel: string): Promise<void> => {
    const entries = await fs.promises.readdir(path.join(dir, rel), { withFileTypes: true });
    for (const e of entries) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) {
        if (r !== USER_DATA) await walk(r);
      } else if (e.isFile()) files.push(r);
    }
  };
  await walk('');
  files.sort();
  const h = createHash('sha256');
  for (const f of files) {
    h.update(`${f}\0`);
    h.update(await fs.promises.readFile(path.join(dir, ...f.split('/'))));
    h.update('\0');
  }
  return h.digest('hex');
}

/**
 * Makes `<storage>/<name>` a copy of `source` and returns its path: copied when absent, replaced when the
 * stamp differs from `source`'s fingerprint (or is missing), with the old copy's `.trace-inspector/`
 * carried over; untouched when up to date. The new copy is built under a temporary name and swapped in
 * by renames, so a copy cut short is never taken for the example.
 * @returns the copy's path and what was done (`copied`, `refreshed`, `current`).
 * @throws the file system's errors (no space, no permission).
 */
export async function syncExampleCopy(
  source: string,
  storage: string,
  name: string,
): Promise<{ folder: string; action: 'copied' | 'refreshed' | 'current' }> {
  const target = path.join(storage, name);
  const stampFile = path.join(storage, `${name}.version`);
  const want = await folderFingerprint(source);
  const exists = fs.existsSync(target);
  const have = fs.existsSync(stampFile) ? (await fs.promises.readFile(stampFile, 'utf8')).trim() : null;
  if (exists && have === want) return { folder: target, action: 'current' };
  await fs.promises.mkdir(storage, { recursive: true });
  const partial = `${target}.partial-${process.pid}`;
  await fs.promises.rm(partial, { recursive: true, force: true });
  await fs.promises.cp(source, partial, { recursive: true });
  if (exists) {
    const userData = path.join(target, USER_DATA);
    if (fs.existsSync(userData)) await fs.promises.cp(userData, path.join(partial, USER_DATA), { recursive: true });
    const old = `${target}.old-${process.pid}`;
    await fs.promises.rename(target, old);
    await fs.promises.rename(partial, target);
    await fs.promises.rm(old, { recursive: true, force: true });
  } else {
    await fs.promises.rename(partial, target);
  }
  await fs.promises.writeFile(stampFile, `${want}\n`);
  return { folder: target, action: exists ? 'refreshed' : 'copied' };
}
