/**
 * Parquet files as records for the readers (trl.ts, and mapping.ts for a mapping whose `files` name Parquet
 * files): hyparquet (pure JavaScript) over the open file, reading only the byte ranges it asks for, one row group at
 * a time, so memory holds one row group. Pure: no database.
 */
import { type FileHandle, open } from 'node:fs/promises';
import {
  type AsyncBuffer,
  type FileMetaData,
  parquetMetadataAsync,
  parquetReadObjects,
  parquetSchema,
} from 'hyparquet';
import type { ReadEvent } from '../model';
import type { ReaderContext } from './types';
import { diag } from './util';

/** A Parquet file as hyparquet's AsyncBuffer over an open file. */
function fileBuffer(fh: FileHandle, size: number): AsyncBuffer {
  return {
    byteLength: size,
    async slice(start: number, end = size) {
      const buf = Buffer.alloc(end - start);
      for (let got = 0; got < buf.length; ) {
        const { bytesRead } = await fh.read(buf, got, buf.length - got, start + got);
        if (bytesRead === 0) throw new Error(`the file ends at byte ${start + got}, before byte ${end}`);
        got += bytesRead;
      }
      return buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.length) as ArrayBuffer;
    },
  };
}

/**
 * A value as the JSON readers would see it: a 64-bit integer (bigint) as a number when it is a safe integer, else
 * as its decimal string (as exactIds keeps large JSON ids); lists and structs recursively; other values as they are.
 */
export function jsonLike(v: unknown): unknown {
  if (typeof v === 'bigint') return Number.isSafeInteger(Number(v)) ? Number(v) : v.toString();
  if (Array.isArray(v)) return v.map(jsonLike);
  if (v && typeof v === 'object' && !(v instanceof Date) && !(v instanceof Uint8Array))
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, jsonLike(x)]));
  return v;
}

/** An open Parquet file: its top-level column names, one column's values, and its rows one row group at a time. */
export interface ParquetSource {
  columns: string[];
  /** Every value of column `name`, in row order (for a reader that must see a whole column first). */
  column(name: string): Promise<unknown[]>;
  /** The rows as objects keyed by column ({@link jsonLike} values), with their 1-based row numbers. */
  rows(): AsyncGenerator<{ row: Record<string, unknown>; line: number }>;
  close(): Promise<void>;
}

/**
 * The events `body` gives for the Parquet file of `ctx`, opened for it and closed after; a file that is no Parquet
 * file is one error diagnostic instead (`not a readable Parquet file (<why>); not read`).
 */
export async function* readParquet(
  ctx: Pick<ReaderContext, 'absPath' | 'relPath'>,
  body: (src: ParquetSource) => AsyncGenerator<ReadEvent>,
): AsyncGenerator<ReadEvent> {
  let src: ParquetSource;
  try {
    src = await openSource(ctx.absPath);
  } catch (e) {
    yield diag(ctx, 0, `not a readable Parquet file (${(e as Error).message}); not read`);
    return;
  }
  try {
    yield* body(src);
  } finally {
    await src.close();
  }
}

/** Opens the Parquet file at `absPath` and reads its footer. @throws Error (hyparquet's) for no Parquet file. */
async function openSource(absPath: string): Promise<ParquetSource> {
  const fh = await open(absPath, 'r');
  let meta: FileMetaData;
  let file: AsyncBuffer;
  try {
    file = fileBuffer(fh, (await fh.stat()).size);
    meta = await parquetMetadataAsync(file);
  } catch (e) {
    await fh.close();
    throw e;
  }
  return {
    columns: parquetSchema(meta).children.map((c) => c.element.name),
    async column(name) {
      const rows = (await parquetReadObjects({ file, metadata: meta, columns: [name] })) as Record<string, unknown>[];
      return rows.map((r) => jsonLike(r[name]));
    },
    async *rows() {
      let rowStart = 0;
      for (const rg of meta.row_groups) {
        const rowEnd = rowStart + Number(rg.num_rows);
        const rows = (await parquetReadObjects({ file, metadata: meta, rowStart, rowEnd })) as Record<
          string,
          unknown
        >[];
        for (let i = 0; i < rows.length; i++)
          yield { row: jsonLike(rows[i]) as Record<string, unknown>, line: rowStart + i + 1 };
        rowStart = rowEnd;
      }
    },
    close: () => fh.close(),
  };
}
