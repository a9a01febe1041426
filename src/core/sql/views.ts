/**
 * The public SQL views over the trace index (issue 37): short, stable, documented names for what the index
 * holds, whatever its internal tables become (docs/sql.md).
 *
 * Design: the views are TEMP views, created on each read-only connection that serves a query
 * ({@link installViews}), never stored in the index file. SQLite looks an unqualified name up in `temp` first,
 * then `main`, so the public names (`models`, `samples`, ...) stay short even where an internal table of the
 * same name exists (`main.models`, `main.samples`): the view shadows it, and its body names the internal
 * tables as `main.<table>`. Nothing is written to the index (no schema migration, no second copy), the
 * definitions change with the code that knows the internal tables, and {@link SQL_VIEWS_VERSION} says which
 * contract a query was written against.
 *
 * Rows are identified by stable keys, never by internal row ids (they change when a folder is indexed again):
 * a model by its id `run:name@revision` (the report's JSON `model`; {@link modelDisplayId}), a problem by
 * `(dataset, problem_id)`, a sample by model, problem and `sample_index`.
 */
import type { Database } from '../index/sqlite';

/**
 * Version of the views' contract. Adding a view or a column keeps the version; renaming or removing one, or
 * changing what a column means, raises it (and docs/sql.md says what changed).
 */
export const SQL_VIEWS_VERSION = 1;

/** One public column: its name and what it holds. */
export interface ViewColumn {
  name: string;
  description: string;
}

/** One public view: its name, what a row is, its columns in order, and its SELECT over the internal tables. */
export interface ViewSpec {
  name: string;
  description: string;
  columns: readonly ViewColumn[];
  /** The view's body, naming internal tables as `main.<table>` (the public names shadow them in `temp`). */
  select: string;
}

const col = (name: string, description: string): ViewColumn => ({ name, description });

/** A model's id (`run:name@revision`, empty parts left out) from the internal `models` row aliased `m`. */
const MODEL_ID_SQL = `(CASE WHEN m.run <> '' THEN m.run || ':' ELSE '' END || m.name ||
  CASE WHEN coalesce(m.revision, '') <> '' THEN '@' || m.revision ELSE '' END)`;

/** A value of `problem_info` for the problem aliased `p`: the first file in path order that gives one. */
const problemInfo = (
  field: string,
) => `(SELECT i.${field} FROM main.problem_info i JOIN main.files fi ON fi.id = i.file_id
  WHERE i.problem_key = p.key AND i.${field} IS NOT NULL ORDER BY fi.path, i.line LIMIT 1)`;

/** The public views, in the order the docs and error messages list them. */
export const PUBLIC_VIEWS: readonly ViewSpec[] = [
  {
    name: 'models',
    description: 'one row per model (a run folder × model name × revision), with its totals over its problems',
    columns: [
      col('model', 'the model id `run:name@revision` (as the report JSON names models); the key of the other views'),
      col('label', 'the short name the tree and the report tables show'),
      col('run', 'the run folder (relative to the results folder; empty at its root)'),
      col('name', 'the model name'),
      col('revision', 'the revision or checkpoint, NULL when none'),
      col('grader', 'what gave the verdicts where the format has a choice (an Inspect scorer), else NULL'),
      col('problems', 'problems the model has a record of (with or without samples)'),
      col('samples', 'samples, graded or not'),
      col('graded', 'samples with a verdict'),
      col('correct', 'samples graded correct'),
      col('scored', 'samples with a reward score'),
      col('pass_at_1', 'mean over its problems with a graded sample of correct / graded (the report pass@1)'),
      col('partial', '1 when some of its samples come from a file whose indexing did not finish, else 0'),
    ],
    select: `SELECT ${MODEL_ID_SQL} AS model, CASE WHEN m.label <> '' THEN m.label ELSE m.name END AS label,
        m.run, m.name, m.revision, g.grader,
        count(s.problem_id) AS problems, coalesce(sum(s.n), 0) AS samples, coalesce(sum(s.graded), 0) AS graded,
        coalesce(sum(s.c), 0) AS correct, coalesce(sum(s.scored), 0) AS scored,
        avg(CASE WHEN s.graded > 0 THEN CAST(s.c AS REAL) / s.graded END) AS pass_at_1,
        m.id IN (SELECT model_id FROM main.samples WHERE file_id IN (SELECT id FROM main.files WHERE status = 'partial')
                 UNION SELECT model_id FROM main.empty_records
                        WHERE file_id IN (SELECT id FROM main.files WHERE status = 'partial')) AS partial
      FROM main.models m LEFT JOIN main.stats s ON s.model_id = m.id
        LEFT JOIN main.model_graders g ON g.model_id = m.id
     GROUP BY m.id`,
  },
  {
    name: 'problems',
    description: 'one row per problem of any model',
    columns: [
      col('dataset', 'the dataset (a benchmark, a task, or the file name where the records name none)'),
      col('problem_id', 'the problem id within its dataset (text)'),
      col('question', 'the problem statement, NULL when the records give none'),
      col('reference_answer', 'the reference (gold) answer, NULL when none is given'),
      col('level', 'the difficulty level (from the records, else a problem list), NULL when unknown'),
      col('subject', 'the subject (from the records or a problem list), NULL when unknown'),
    ],
    select: `SELECT p.dataset, p.problem_id, p.question,
        coalesce(p.reference_answer, ${problemInfo('reference_answer')}) AS reference_answer,
        coalesce(p.level, ${problemInfo('level')}) AS level, ${problemInfo('subject')} AS subject
      FROM main.problems p`,
  },
  {
    name: 'samples',
    description:
      'one row per sample, without its text (the index keeps no copy of it: `file` and `line` say where it is)',
    columns: [
      col('model', 'the model id (models.model)'),
      col('dataset', 'the dataset of its problem'),
      col('problem_id', 'its problem id'),
      col('sample_index', 'its position among the samples of the model on the problem (0-based)'),
      col('verdict', "'correct', 'incorrect', or NULL for an ungraded sample"),
      col('correct', '1, 0, or NULL (the verdict as a number: avg(correct) is the graded samples accuracy)'),
      col('extracted_answer', 'the final answer the folder extracted, NULL when none'),
      col('reward_score', 'the reward-model score stored with the sample, NULL when none'),
      col('finish_reason', 'why generation stopped (stop, length, ...), NULL when not recorded'),
      col('token_count', 'tokens of the sample when recorded, else NULL'),
      col('text_length', 'the length of its text in characters (Unicode code points)'),
      col('content_hash', 'a hash of its text: equal hashes, equal texts'),
      col('file', 'the results file it was read from (relative to the results folder)'),
      col('line', 'the line of its record in that file (1-based)'),
    ],
    select: `SELECT ${MODEL_ID_SQL} AS model, p.dataset, p.problem_id, s.sample_index,
        CASE s.correct WHEN 1 THEN 'correct' WHEN 0 THEN 'incorrect' END AS verdict, s.correct,
        s.extracted_answer, s.reward_score, s.finish_reason, s.token_count, s.text_length, s.content_hash,
        f.path AS file, s.line
      FROM main.samples s JOIN main.models m ON m.id = s.model_id JOIN main.problems p ON p.id = s.problem_id
        JOIN main.files f ON f.id = s.file_id`,
  },
  {
    name: 'scores',
    description:
      'one row per named score attached to a sample (reward models, judges: several scorers on the same samples, read from their own files)',
    columns: [
      col('model', 'the model id of the scored sample (models.model)'),
      col('dataset', 'the dataset of its problem'),
      col('problem_id', 'its problem id'),
      col('sample_index', 'its sample index'),
      col('scorer', 'the scorer (a reward model, a judge; by default the name of its file)'),
      col('value', 'the score'),
      col('steps', "a process reward model's step scores (a JSON list), NULL for other scorers"),
      col('rule', 'how the steps became `value`: min, last or product; NULL without steps'),
      col('file', 'the file the score was read from'),
      col('line', 'its line in that file (1-based)'),
    ],
    // TraceIndex.resolveScores' rule: a score attaches to the one sample with its problem key and sample index
    // of the model it names (its exact model, else a model name, else any model); a score matching several
    // samples attaches to none, and of one scorer's scores of one sample the first in (file, line) order is used
    select: `WITH cand AS (
        SELECT sc.rowid AS sid, f.path AS file, sc.line, sc.scorer, sc.value, sc.steps, sc.rule, s.id AS sample_id,
               s.model_id AS mid, s.problem_id AS pid, s.sample_index,
               count(*) OVER (PARTITION BY sc.rowid) AS candidates
          FROM main.scores sc JOIN main.files f ON f.id = sc.file_id
          JOIN main.problems p ON p.key = sc.problem_key
          JOIN main.samples s ON s.problem_id = p.id AND s.sample_index = sc.sample_index
          JOIN main.models m ON m.id = s.model_id
         WHERE CASE WHEN sc.model_key IS NOT NULL THEN m.key = sc.model_key
                    ELSE sc.model_name IS NULL OR m.name = sc.model_name END
      ), one AS (
        SELECT cand.*, row_number() OVER (PARTITION BY sample_id, scorer ORDER BY file, line, sid) AS nth
          FROM cand WHERE candidates = 1
      )
      SELECT ${MODEL_ID_SQL} AS model, p.dataset, p.problem_id, one.sample_index, one.scorer, one.value, one.steps,
             one.rule, one.file, one.line
        FROM one JOIN main.models m ON m.id = one.mid JOIN main.problems p ON p.id = one.pid
       WHERE one.nth = 1`,
  },
  {
    name: 'problem_stats',
    description: 'one row per model and problem it has a record of (n = 0: a record without samples)',
    columns: [
      col('model', 'the model id (models.model)'),
      col('dataset', 'the dataset of the problem'),
      col('problem_id', 'the problem id'),
      col('n', 'samples, graded or not'),
      col('c', 'samples graded correct'),
      col('graded', 'samples with a verdict (the denominator of pass@1; ungraded ones are in no figure)'),
      col('scored', 'samples with a reward score'),
      col('pass_at_1', 'c / graded, NULL when no sample is graded'),
    ],
    select: `SELECT ${MODEL_ID_SQL} AS model, p.dataset, p.problem_id, s.n, s.c, s.graded, s.scored,
        CASE WHEN s.graded > 0 THEN CAST(s.c AS REAL) / s.graded END AS pass_at_1
      FROM main.stats s JOIN main.models m ON m.id = s.model_id JOIN main.problems p ON p.id = s.problem_id`,
  },
  {
    name: 'annotations',
    description: 'one row per annotated sample (labels and notes written in the extension)',
    columns: [
      col('model', 'the model id (models.model)'),
      col('dataset', 'the dataset of the problem'),
      col('problem_id', 'the problem id'),
      col('sample_index', 'the sample index'),
      col('labels', 'the labels, a JSON list of strings (`json_each(labels)` gives one row per label)'),
      col('note', "the note, '' when none"),
      col('updated_at', 'when it was last changed (ISO 8601, UTC)'),
      col('attached', '1 when a sample of the index has these keys and the annotated text (content hash), else 0'),
    ],
    // keys are `run \x1f name \x1f revision` and `dataset \x1f problem id` (schema.ts)
    select: `WITH k1 AS (
        SELECT a.*, instr(a.model_key, char(31)) AS mi, instr(a.problem_key, char(31)) AS pi
          FROM main.annotations a WHERE a.deleted = 0
      ), k2 AS (
        SELECT k1.*, substr(model_key, 1, mi - 1) AS run, substr(model_key, mi + 1) AS rest FROM k1
      ), k3 AS (
        SELECT k2.*, substr(rest, 1, instr(rest, char(31)) - 1) AS mname, substr(rest, instr(rest, char(31)) + 1) AS rev
          FROM k2
      )
      SELECT (CASE WHEN run <> '' THEN run || ':' ELSE '' END) || mname || (CASE WHEN rev <> '' THEN '@' || rev ELSE '' END)
               AS model,
             substr(problem_key, 1, pi - 1) AS dataset, substr(problem_key, pi + 1) AS problem_id, sample_index,
             labels, note, updated_at,
             EXISTS (SELECT 1 FROM main.samples s JOIN main.models m ON m.id = s.model_id
                       JOIN main.problems p ON p.id = s.problem_id
                      WHERE m.key = k3.model_key AND p.key = k3.problem_key AND s.sample_index = k3.sample_index
                        AND s.content_hash = k3.content_hash) AS attached
        FROM k3`,
  },
  {
    name: 'diagnostics',
    description: 'one row per diagnostic of the indexed files (what could not be read, and why)',
    columns: [
      col('file', 'the file it is shown on (relative to the results folder)'),
      col('line', 'its line (1-based), 0 for the file as a whole'),
      col('entry', 'the archive entry it names (an Inspect .eval sample), else NULL'),
      col('severity', "'error', 'warning' or 'info'"),
      col('message', 'what happened'),
      col('origin', 'the file whose reading gave it (a mapping file reports on the files it names)'),
    ],
    select: `SELECT file, line, entry, severity, message,
        CASE WHEN instr(origin, char(31)) > 0 THEN substr(origin, 1, instr(origin, char(31)) - 1) ELSE origin END
          AS origin
      FROM main.diagnostics`,
  },
];

/** The view listing every public view's columns (`SELECT * FROM view_columns`). */
export const VIEW_COLUMNS_VIEW: ViewSpec = {
  name: 'view_columns',
  description: 'one row per column of the public views: what each holds',
  columns: [
    col('view_name', 'the view'),
    col('position', 'the position of the column in the view (1-based)'),
    col('column_name', 'the column'),
    col('description', 'what it holds'),
  ],
  select: '',
};

/** Every view a query can read: the data views and {@link VIEW_COLUMNS_VIEW}. */
export const ALL_VIEWS: readonly ViewSpec[] = [...PUBLIC_VIEWS, VIEW_COLUMNS_VIEW];

const quote = (s: string) => `'${s.replace(/'/g, "''")}'`;

/** The body of {@link VIEW_COLUMNS_VIEW}: a VALUES list of every public view's columns. */
function viewColumnsSelect(): string {
  const rows = ALL_VIEWS.flatMap((v) =>
    v.columns.map((c, i) => `(${quote(v.name)}, ${i + 1}, ${quote(c.name)}, ${quote(c.description)})`),
  );
  return `SELECT column1 AS view_name, column2 AS position, column3 AS column_name, column4 AS description
    FROM (VALUES ${rows.join(',\n')})`;
}

/**
 * Creates the public views ({@link ALL_VIEWS}) as TEMP views on `db`, a connection to an index at the current
 * schema version (the views read its internal tables, which older versions lack). The connection may be
 * read-only: the `temp` schema is the connection's own. Run it once per connection, before any query.
 * @throws the SQLite error when a view already exists on this connection or the index lacks a table.
 */
export function installViews(db: Database): void {
  const sql = ALL_VIEWS.map(
    (v) => `CREATE TEMP VIEW ${v.name} AS ${v === VIEW_COLUMNS_VIEW ? viewColumnsSelect() : v.select};`,
  );
  db.exec(sql.join('\n'));
}

/**
 * The views and their columns in one line each, for error messages: `models (model, label, ...); problems (...)`.
 * `only`: just these views (names as written in a query, any case); every view when none of them is one.
 */
export function describeViews(only: readonly string[] = []): string {
  const wanted = new Set(only.map((n) => n.toLowerCase()));
  const some = ALL_VIEWS.filter((v) => wanted.has(v.name));
  return (some.length > 0 ? some : ALL_VIEWS)
    .map((v) => `${v.name} (${v.columns.map((c) => c.name).join(', ')})`)
    .join('; ');
}
