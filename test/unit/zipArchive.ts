/**
 * Zip archives for tests (Inspect `.eval` logs), written with fflate, a maintained zip writer, and read
 * back by the reader's yauzl. Zstandard entries are compressed by node:zlib and stored with zip method
 * 93, as newer inspect_ai versions write them.
 */
import { crc32, zstdCompressSync } from 'node:zlib';
import { Zip, ZipDeflate, type ZipInputFile, ZipPassThrough } from 'fflate';

export interface Entry {
  name: string;
  data: string | Buffer;
  /** zip compression: deflate (default), store, zstd (method 93, as newer inspect_ai writes), or another method number written raw */
  method?: 'deflate' | 'store' | 'zstd' | number;
  /** uncompressed size written in the headers (default: the real one); a lie makes a zip bomb */
  declaredSize?: number;
}

/** A zip archive written by fflate; Zstandard entries are compressed by node:zlib and added with method 93. */
export function archive(entries: Entry[]): Buffer {
  const out: Uint8Array[] = [];
  const zip = new Zip((err, chunk) => {
    if (err) throw err;
    out.push(chunk);
  });
  for (const e of entries) {
    const data = typeof e.data === 'string' ? Buffer.from(e.data) : e.data;
    if (e.method === 'zstd' || typeof e.method === 'number') {
      const file: ZipInputFile = {
        filename: e.name,
        size: e.declaredSize ?? data.length,
        crc: crc32(data),
        compression: e.method === 'zstd' ? 93 : e.method,
      };
      zip.add(file);
      file.ondata!(null, new Uint8Array(e.method === 'zstd' ? zstdCompressSync(data) : data), true);
    } else if (e.method === 'store') {
      const f = new ZipPassThrough(e.name);
      zip.add(f);
      f.push(data, true);
    } else {
      const f = new ZipDeflate(e.name, { level: 6 });
      zip.add(f);
      f.push(data, true);
    }
  }
  zip.end();
  return Buffer.concat(out);
}
