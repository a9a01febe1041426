import { codePoints } from '../text/strings';
import type { Database } from './sqlite';

/**
 * Versioned schema migrations for the trace index. `migrations[i]` upgrades a database at
 * `user_version = i` to `i + 1`; each runs in its own transaction, so a crash mid-upgrade leaves
 * the previous version intact.
 *
 * Keys that must survive re-indexing are strings, not row ids:
 * - `models.key`   = `run \x1f name \x1f revision`
 * - `problems.key` = `dataset \x1f problemId`
 * Annotations reference those keys (plus sample index and content hash), never row ids, so that
 * re-indexing, or deleting the index and restoring from the JSONL mirror, re-attaches them exactly.
 */
export const migrations: readonly (string | ((db: Database) => void))[] = [
  // 0 -> 1
  `
  CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
  CREATE TABLE files (
    id INTEGER PRIMARY KEY,
    path TEXT NOT NULL UNIQUE,
    size INTEGER NOT NULL,
    mtime_ms REAL NOT NULL,
    hash TEXT NOT NULL,
    format TEXT,
    status TEXT NOT NULL DEFAULT 'ready',          -- 'ready' | 'partial' (interrupted while indexing)
    samples INTEGER NOT NULL DEFAULT 0,
    indexed_at TEXT NOT NULL
  );
  CREATE TABLE models (
    id INTEGER PRIMARY KEY,
    key TEXT NOT NULL UNIQUE,
    run TEXT NOT NULL,
    name TEXT NOT NULL,
    revision TEXT,
    name_source TEXT NOT NULL,
    label TEXT NOT NULL DEFAULT ''
  );
  CREATE TABLE problems (
    id INTEGER PRIMARY KEY,
    key TEXT NOT NULL UNIQUE,
    dataset TEXT NOT NULL,
    problem_id TEXT NOT NULL,
    question TEXT,
    reference_answer TEXT,
    level TEXT
  );
  CREATE TABLE samples (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    file_id INTEGER NOT NULL,
    line INTEGER NOT NULL,
    model_id INTEGER NOT NULL,
    problem_id INTEGER NOT NULL,
    sample_index INTEGER NOT NULL,
    correct INTEGER,
    extracted_answer TEXT,
    reward_score REAL,
    finish_reason TEXT,
    token_count INTEGER,
    content_hash TEXT NOT NULL,
    text TEXT NOT NULL
  );
  CREATE INDEX samples_by_model_problem ON samples (model_id, problem_id, sample_index);
  CREATE INDEX samples_by_file ON samples (file_id);
  CREATE TABLE stats (
    model_id INTEGER NOT NULL,
    problem_id INTEGER NOT NULL,
    n INTEGER NOT NULL,
    c INTEGER NOT NULL,
    graded INTEGER NOT NULL,
    scored INTEGER NOT NULL,
    PRIMARY KEY (model_id, problem_id)
  ) WITHOUT ROWID;
  CREATE INDEX stats_by_problem ON stats (problem_id, model_id);
  CREATE TABLE diagnostics (
    file TEXT NOT NULL,
    line INTEGER NOT NULL,
    severity TEXT NOT NULL,
    message TEXT NOT NULL
  );
  CREATE INDEX diagnostics_by_file ON diagnostics (file);
  CREATE TABLE annotations (
    problem_key TEXT NOT NULL,
    model_key TEXT NOT NULL,
    sample_index INTEGER NOT NULL,
    content_hash TEXT NOT NULL,
    labels TEXT NOT NULL DEFAULT '[]',
    note TEXT NOT NULL DEFAULT '',
    updated_at TEXT NOT NULL,
    deleted INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (problem_key, model_key, sample_index, content_hash)
  ) WITHOUT ROWID;
  CREATE VIRTUAL TABLE samples_fts USING fts5 (text, content='', contentless_delete=1, tokenize='unicode61');
  CREATE TABLE similarity_cache (
    problem_id INTEGER NOT NULL,
    base_model_id INTEGER NOT NULL,
    model_id INTEGER NOT NULL,
    params TEXT NOT NULL,
    result TEXT NOT NULL,
    PRIMARY KEY (problem_id, base_model_id, model_id, params)
  ) WITHOUT ROWID;
  `,
  // 1 -> 2: the full-text index also stores each sample's problem (UNINDEXED, retrievable from the
  // contentless table), so "problems whose samples match" needs no lookup in samples per match.
  // It is rebuilt from the samples by the next indexing pass.
  `
  DROP TABLE samples_fts;
  CREATE VIRTUAL TABLE samples_fts USING fts5 (text, problem_id UNINDEXED, content='', contentless_delete=1,
    contentless_unindexed=1, tokenize='unicode61');
  DELETE FROM meta WHERE key = 'fts_max_id';
  `,
  // 2 -> 3: best-of-k reads every scored sample's reward score and verdict; a covering partial index
  // serves that scan without reading the sample rows (and their text) from the table.
  `
  CREATE INDEX samples_scored ON samples (model_id, problem_id, reward_score, correct)
    WHERE reward_score IS NOT NULL AND correct IS NOT NULL;
  `,
  // 3 -> 4: the full-text index keeps which samples hold each word, not where (detail=none): queries
  // are words joined by AND (ftsQuery), which need no positions; at a million samples it is a third of
  // the size (76 MB instead of 250 MB) and builds in a third of the time. Rebuilt by the next pass.
  `
  DROP TABLE samples_fts;
  -- FTS5 leaves the shadow table of contentless_unindexed columns behind when the table is dropped,
  -- and a shadow table can be dropped only outside defensive mode (see migrate)
  DROP TABLE IF EXISTS samples_fts_content;
  CREATE VIRTUAL TABLE samples_fts USING fts5 (text, problem_id UNINDEXED, content='', contentless_delete=1,
    contentless_unindexed=1, detail=none, tokenize='unicode61');
  DELETE FROM meta WHERE key = 'fts_max_id';
  `,
  // 4 -> 5: a diagnostic is shown on one file (`file`) but given by reading another (`origin`): reading
  // x.json through a mapping file reports "this path matched nothing" on the mapping file. Re-reading
  // or removing a file replaces the diagnostics it gave, wherever they are shown.
  // The table is rebuilt rather than altered, so that the step also applies to a database that
  // already has the column (one whose user_version was set back by hand).
  `
  CREATE TABLE diagnostics_v5 (
    file TEXT NOT NULL,
    line INTEGER NOT NULL,
    severity TEXT NOT NULL,
    message TEXT NOT NULL,
    origin TEXT NOT NULL
  );
  INSERT INTO diagnostics_v5 (file, line, severity, message, origin)
    SELECT file, line, severity, message, file FROM diagnostics;
  DROP TABLE diagnostics;
  ALTER TABLE diagnostics_v5 RENAME TO diagnostics;
  CREATE INDEX diagnostics_by_file ON diagnostics (file);
  CREATE INDEX diagnostics_by_origin ON diagnostics (origin);
  `,
  // 5 -> 6: a record of a problem with no samples (`code: []`, every sample unreadable) still makes the
  // problem one of the model's problems: the figures count it in `missing` instead of dropping it. Its
  // stats row has n = 0; this table ties it to the file and line it came from (dropped with the file).
  `
  CREATE TABLE IF NOT EXISTS empty_records (
    file_id INTEGER NOT NULL,
    line INTEGER NOT NULL,
    model_id INTEGER NOT NULL,
    problem_id INTEGER NOT NULL
  );
  CREATE INDEX IF NOT EXISTS empty_records_by_file ON empty_records (file_id);
  CREATE INDEX IF NOT EXISTS empty_records_by_pair ON empty_records (model_id, problem_id);
  -- files indexed before this version lack their empty records (and read partial rewards as verdicts):
  -- the next pass reads every file again
  UPDATE files SET status = 'partial';
  `,
  // 6 -> 7: a sample carries any number of named scores (reward models, judges; a scorer per file),
  // and problem lists give facts about problems (level, subject) that other files have samples of.
  // Both are keyed by strings (problem key, model key or name, sample index), not by row ids: scores in
  // one file attach to samples another file defines, whichever is read first or re-read later; the
  // attachment is made when they are read together (TraceIndex.resolveScores). A subject given by a
  // samples file is a problem_info row of that file too. Written to apply again to a database whose
  // user_version was set back.
  `
  CREATE TABLE IF NOT EXISTS scores (
    file_id INTEGER NOT NULL,
    line INTEGER NOT NULL,
    record INTEGER,                      -- position of the record in a JSON document (messages)
    problem_key TEXT NOT NULL,           -- dataset \x1f problem id
    model_key TEXT,                      -- the exact model, when the record also defines the samples
    model_name TEXT,                     -- else the model name the file gives; NULL: the one model with this problem
    sample_index INTEGER NOT NULL,
    scorer TEXT NOT NULL,
    value REAL NOT NULL,
    steps TEXT,                          -- JSON list of a process reward model's step scores
    rule TEXT,                           -- how steps became value: min, last, product
    defines INTEGER NOT NULL DEFAULT 0   -- the record defines these samples too (same layout in every file)
  );
  CREATE INDEX IF NOT EXISTS scores_by_key ON scores (problem_key, sample_index);
  CREATE INDEX IF NOT EXISTS scores_by_file ON scores (file_id);
  CREATE TABLE IF NOT EXISTS problem_info (
    file_id INTEGER NOT NULL,
    line INTEGER NOT NULL,
    record INTEGER,
    problem_key TEXT NOT NULL,
    question TEXT,
    reference_answer TEXT,
    level TEXT,
    subject TEXT
  );
  CREATE INDEX IF NOT EXISTS problem_info_by_key ON problem_info (problem_key);
  CREATE INDEX IF NOT EXISTS problem_info_by_file ON problem_info (file_id);
  `,
  // 7 -> 8: search every script (src/core/index/search.ts). The full-text index is given each sample's text
  // as searchText() prepares it (NFKC; Chinese, Japanese, Korean, Thai, ... runs as character bigrams)
  // while the indexer writes the sample, no longer copied from the samples table afterwards (so it no
  // longer needs the text stored there). Marks are word characters (categories 'L* N* Co M*'): the
  // default tokenizer cut Devanagari or Thai words at every vowel sign, and a query for such a word was
  // an FTS5 phrase, refused with detail=none. The problem is no longer kept in the full-text index: the
  // search filter finds it through the sample (traceIndex.ts). Every file is read again by the next pass.
  `
  DROP TABLE samples_fts;
  DROP TABLE IF EXISTS samples_fts_content;
  CREATE VIRTUAL TABLE samples_fts USING fts5 (text, content='', contentless_delete=1, detail=none,
    tokenize="unicode61 remove_diacritics 2 categories 'L* N* Co M*'");
  DELETE FROM meta WHERE key = 'fts_max_id';
  UPDATE files SET status = 'partial';
  `,
  // 8 -> 9: an index, not a copy (issue 12). Each sample of a line-based file (JSONL) records where its
  // text is read again from (src/core/index/sampleText.ts): the record's first byte and length in its
  // file, and the sample's position among the record's samples; other formats have no row here. A table
  // of its own (keyed by the sample's row id) rather than columns of samples, so that the step also
  // applies to a database that already has it (one whose user_version was set back by hand). Every file
  // is read again by the next pass, which fills it.
  `
  CREATE TABLE IF NOT EXISTS sample_spans (
    sample_id INTEGER PRIMARY KEY,
    rec_offset INTEGER NOT NULL,
    rec_bytes INTEGER NOT NULL,
    rec_pos INTEGER NOT NULL
  );
  UPDATE files SET status = 'partial';
  `,
  // 9 -> 10: what gave a model's verdicts (\`scorer "match"\` for an Inspect log), so that a comparison of
  // two models graded by different scorers says so (a table of its own rather than a column, so that the
  // step also applies to a database whose user_version was set back by hand). Files read under older rules are read again: Inspect
  // logs (the default scorer is now chosen from every sample, not the first one) and files whose
  // one-sample records were skipped as duplicates of another file's problem (per-sample records of one
  // model and problem spread over files, seed shards, are now one problem's samples). An unknown hash
  // and mtime make the next pass see them as changed; their samples stay until then.
  `
  CREATE TABLE IF NOT EXISTS model_graders (model_id INTEGER PRIMARY KEY, grader TEXT NOT NULL);
  UPDATE files SET hash = '', mtime_ms = -1
   WHERE format = 'inspect'
      OR path IN (SELECT origin FROM diagnostics WHERE message LIKE 'duplicate problem id % already indexed from %');
  `,
  // 10 -> 11: an index, not a copy (issue 12, step 3). A sample with a span (sample_spans: line-based
  // JSONL formats) no longer keeps its text in the index: `samples.text` is '' and the text is read
  // from the results file (sampleText.ts); whole-document .json and Inspect .eval samples keep the copy.
  // The text's length (Unicode code points, what SQLite's length() counted for the tree's labels and
  // sorting) is stored in `text_length`. Existing copies are emptied here (no file is read again);
  // the space is given back to the file system by {@link reclaimSpace} at the end of the next indexing
  // pass (in the extension, on the indexing thread rather than the one that opened the index). A function
  // rather than SQL so that a database that already has the column (user_version set back by hand)
  // is not altered twice; it runs in one transaction like the others, so an interrupted run is redone.
  (db: Database) => {
    const cols = db.pragma('table_info(samples)') as { name: string }[];
    if (!cols.some((c) => c.name === 'text_length')) db.exec('ALTER TABLE samples ADD COLUMN text_length INTEGER');
    // length() stops at a NUL character: such texts are measured in JavaScript (code points, as length())
    db.exec('UPDATE samples SET text_length = length(text) WHERE text_length IS NULL AND instr(text, char(0)) = 0');
    const withNul = db.prepare('SELECT id, text FROM samples WHERE text_length IS NULL').all() as {
      id: number;
      text: string;
    }[];
    const setLength = db.prepare('UPDATE samples SET text_length = ? WHERE id = ?');
    for (const r of withNul) setLength.run(codePoints(r.text), r.id);
    db.exec(`UPDATE samples SET text = '' WHERE text <> '' AND id IN (SELECT sample_id FROM sample_spans)`);
    db.prepare(`INSERT OR REPLACE INTO meta (key, value) VALUES ('${RECLAIM_KEY}', '1')`).run();
  },
  // 11 -> 12: the tree's search filter without a row lookup per match (issue 12). `sample_runs` holds
  // runs of consecutive sample row ids (the full-text index's rowids) of one file and problem: one row
  // per per-problem record, or per problem for a file of one-sample records. The indexer writes a run
  // with the samples (SampleWriter.noteRun) and deletes a file's runs with its samples; the filter
  // (TraceIndex.searchProblemIds) maps each full-text match to its problem by walking the runs in row id
  // order, and uses the join through \`samples\` when the runs do not cover the samples exactly. Filled
  // here from the samples already indexed (consecutive ids of one file and problem); no file is read again.
  `
  CREATE TABLE IF NOT EXISTS sample_runs (
    first_id INTEGER PRIMARY KEY,
    last_id INTEGER NOT NULL,
    problem_id INTEGER NOT NULL,
    file_id INTEGER NOT NULL
  );
  CREATE INDEX IF NOT EXISTS sample_runs_by_file ON sample_runs (file_id);
  DELETE FROM sample_runs;
  INSERT INTO sample_runs (first_id, last_id, problem_id, file_id)
    SELECT min(id), max(id), problem_id, file_id FROM (
      SELECT id, problem_id, file_id, sum(brk) OVER (ORDER BY id) AS run FROM (
        SELECT id, problem_id, file_id,
               CASE WHEN lag(id) OVER w = id - 1 AND lag(problem_id) OVER w = problem_id
                         AND lag(file_id) OVER w = file_id THEN 0 ELSE 1 END AS brk
          FROM samples WINDOW w AS (ORDER BY id)))
     GROUP BY run;
  `,
  // 12 -> 13: the tree's search filter for words in most samples without visiting every match (issue 12).
  // `witness_fts` is a second, small full-text index (the tokenizer of samples_fts, contentless,
  // detail=none) of a few samples of each run: a *part* is the consecutive samples of one run
  // (sample_runs) the indexer writes to samples_fts in one go, and its first samples (at most 16,
  // `search_parts.witnesses`) are its witnesses, rowid = the sample's row id. A witness holding every
  // word of a query puts its problem in the filter's result at once; only the problems no witness
  // proves are looked for in samples_fts (TraceIndex.searchProblemIds). Written by the indexer with the
  // samples; the files are read again by the next pass to fill it (annotations are kept), and until
  // then the filter looks for every problem in samples_fts as before (the same problems).
  `
  CREATE VIRTUAL TABLE IF NOT EXISTS witness_fts USING fts5 (text, content='', contentless_delete=1, detail=none,
    tokenize="unicode61 remove_diacritics 2 categories 'L* N* Co M*'");
  CREATE TABLE IF NOT EXISTS search_parts (
    first_id INTEGER PRIMARY KEY,
    last_id INTEGER NOT NULL,
    witnesses INTEGER NOT NULL,
    file_id INTEGER NOT NULL
  );
  CREATE INDEX IF NOT EXISTS search_parts_by_file ON search_parts (file_id);
  UPDATE files SET status = 'partial';
  `,
  // 13 -> 14: a diagnostic may name an entry of an archive instead of a line (`samples/3_epoch_2.json` of an
  // Inspect `.eval` zip: trial 12 finding 24), in `entry` (NULL for line-based places). A function so that a
  // database that already has the column (user_version set back by hand) is not altered twice.
  (db: Database) => {
    const cols = db.pragma('table_info(diagnostics)') as { name: string }[];
    if (!cols.some((c) => c.name === 'entry')) db.exec('ALTER TABLE diagnostics ADD COLUMN entry TEXT');
  },
  // 14 -> 15: the samples of a file by line, so that an annotated sample's rank among the equal texts of its line
  // (annotationFates.ts annotatedSamples, every pass) reads that line's samples, not every earlier sample of its file
  // (O(file) per annotation). The new index also serves every query by file alone.
  `
  CREATE INDEX IF NOT EXISTS samples_by_file_line ON samples (file_id, line);
  DROP INDEX IF EXISTS samples_by_file;
  `,
  // 15 -> 16: cheap measures of each sample's text made while it is indexed (issue 36; src/core/text/markers.ts),
  // no copy of the text: `piece_count` (pieces by PIECE_RULE, the token approximation) and `markers` (the
  // reasoning-marker counts, comma-separated in the order of the lexicon stored in meta `markers_lexicon`).
  // NULL until the file is read again: every file is read again by the next pass (annotations are kept). A
  // function so that a database that already has the columns (user_version set back by hand) is not altered twice.
  (db: Database) => {
    const cols = db.pragma('table_info(samples)') as { name: string }[];
    if (!cols.some((c) => c.name === 'piece_count')) db.exec('ALTER TABLE samples ADD COLUMN piece_count INTEGER');
    if (!cols.some((c) => c.name === 'markers')) db.exec('ALTER TABLE samples ADD COLUMN markers TEXT');
    db.exec(`UPDATE files SET status = 'partial'`);
  },
];

/** Meta key set by a migration that freed much of the file ({@link reclaimSpace} gives it back, then clears it). */
export const RECLAIM_KEY = 'reclaim_space';

/**
 * Gives the space of emptied sample texts back to the file system (VACUUM, outside any transaction)
 * when a migration asked for it ({@link RECLAIM_KEY}) and at least a quarter of the file's pages are
 * free; clears the request (kept while files are still to be read again). VACUUM rewrites the file (about as long as reading it; it needs as much
 * free disk as the index while it runs); interrupted or refused (another connection reading, disk
 * full), it leaves the file as it was and the request set, so it runs again at the next open or at the
 * end of the next indexing pass. Never throws for VACUUM's sake.
 */
export function reclaimSpace(db: Database): void {
  const asked = db.prepare('SELECT value FROM meta WHERE key = ?').pluck().get(RECLAIM_KEY);
  if (asked === undefined) return;
  const free = db.pragma('freelist_count', { simple: true }) as number;
  const pages = db.pragma('page_count', { simple: true }) as number;
  if (free * 4 >= pages) {
    try {
      db.exec('VACUUM');
    } catch {
      // another connection is reading (SQLITE_BUSY) or the disk is full: the file stays as it was and
      // the request stays, for the next open or the end of the next indexing pass
      return;
    }
  }
  // Files still to be read again (an index older than migration 9 has no spans yet: its copies go when
  // the next pass rewrites its samples) keep the request for the end of that pass.
  else if (db.prepare(`SELECT 1 FROM files WHERE status = 'partial' LIMIT 1`).get() !== undefined) return;
  db.prepare('DELETE FROM meta WHERE key = ?').run(RECLAIM_KEY);
}

/** Current schema version (the number of migrations). */
export const SCHEMA_VERSION = migrations.length;

/**
 * Brings `db` to {@link SCHEMA_VERSION}. Throws when the database was written by a newer version
 * of the extension (downgrades are refused rather than guessed).
 */
export function migrate(db: Database): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > SCHEMA_VERSION) {
    throw new Error(
      `index schema version ${current} is newer than this version supports (${SCHEMA_VERSION}); ` +
        'update the extension or delete the index to rebuild it',
    );
  }
  if (current === SCHEMA_VERSION) return;
  // Outside SQLite's defensive mode while migrating: migration 4 drops a shadow table FTS5 left behind.
  db.unsafeMode(true);
  try {
    for (let v = current; v < SCHEMA_VERSION; v++) {
      db.transaction(() => {
        const m = migrations[v];
        if (typeof m === 'string') db.exec(m);
        else m(db);
        db.pragma(`user_version = ${v + 1}`);
      })();
    }
  } finally {
    db.unsafeMode(false);
  }
}
