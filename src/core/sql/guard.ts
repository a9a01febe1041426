/**
 * What a query given to `trace-inspector sql` may be, checked on its text before SQLite sees it (the first of
 * the read-only layers of ./query.ts; docs/sql.md "Safety rules"): one statement, a SELECT, WITH or VALUES
 * (optionally under EXPLAIN), that writes nothing, attaches nothing, runs no PRAGMA statement and loads no
 * extension. The text is tokenised as SQLite does (strings, quoted identifiers, comments), so a keyword inside
 * a string or a comment is not mistaken for one.
 */

/** A query refused before it runs; `message` says why and what to do instead. */
export class SqlRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SqlRefusedError';
  }
}

/** A token of a query: a word (keyword or bare identifier, upper-cased in `upper`), a quoted name, or punctuation. */
export interface SqlToken {
  kind: 'word' | 'string' | 'quoted' | 'number' | 'punct' | 'param';
  text: string;
  /** `text` upper-cased (words only; '' for the others). */
  upper: string;
}

const WORD_START = /[A-Za-z_\u0080-\uffff]/;
const WORD_PART = /[A-Za-z0-9_$\u0080-\uffff]/;

/**
 * The tokens of `sql` without whitespace and comments. An unterminated string, quoted name or comment runs to
 * the end (SQLite then reports its own syntax error).
 */
export function tokenizeSql(sql: string): SqlToken[] {
  const out: SqlToken[] = [];
  let i = 0;
  const n = sql.length;
  const until = (close: string, from: number, doubled: boolean): number => {
    let j = from;
    for (;;) {
      const k = sql.indexOf(close, j);
      if (k < 0) return n;
      if (doubled && sql[k + 1] === close) {
        j = k + 2;
        continue;
      }
      return k + 1;
    }
  };
  while (i < n) {
    const ch = sql[i];
    if (/\s/.test(ch)) {
      i++;
    } else if (ch === '-' && sql[i + 1] === '-') {
      const k = sql.indexOf('\n', i);
      i = k < 0 ? n : k + 1;
    } else if (ch === '/' && sql[i + 1] === '*') {
      const k = sql.indexOf('*/', i + 2);
      i = k < 0 ? n : k + 2;
    } else if (ch === "'") {
      const j = until("'", i + 1, true);
      out.push({ kind: 'string', text: sql.slice(i, j), upper: '' });
      i = j;
    } else if (ch === '"' || ch === '`') {
      const j = until(ch, i + 1, true);
      out.push({ kind: 'quoted', text: sql.slice(i, j), upper: '' });
      i = j;
    } else if (ch === '[') {
      const j = until(']', i + 1, false);
      out.push({ kind: 'quoted', text: sql.slice(i, j), upper: '' });
      i = j;
    } else if (WORD_START.test(ch)) {
      let j = i + 1;
      while (j < n && WORD_PART.test(sql[j])) j++;
      const text = sql.slice(i, j);
      out.push({ kind: 'word', text, upper: text.toUpperCase() });
      i = j;
    } else if (/[0-9.]/.test(ch) && (ch !== '.' || /[0-9]/.test(sql[i + 1] ?? ''))) {
      let j = i + 1;
      while (j < n && /[0-9A-Za-z_.]/.test(sql[j])) {
        // an exponent's sign: 1e-5
        if (/[eE]/.test(sql[j]) && /[+-]/.test(sql[j + 1] ?? '')) j++;
        j++;
      }
      out.push({ kind: 'number', text: sql.slice(i, j), upper: '' });
      i = j;
    } else if (ch === '?' || ch === ':' || ch === '@' || ch === '$') {
      let j = i + 1;
      while (j < n && WORD_PART.test(sql[j])) j++;
      if (j === i + 1 && ch !== '?') {
        out.push({ kind: 'punct', text: ch, upper: '' });
      } else out.push({ kind: 'param', text: sql.slice(i, j), upper: '' });
      i = j;
    } else {
      out.push({ kind: 'punct', text: ch, upper: '' });
      i++;
    }
  }
  return out;
}

const WRITES = new Set(['INSERT', 'UPDATE', 'DELETE', 'REPLACE', 'CREATE', 'DROP', 'ALTER', 'REINDEX', 'VACUUM']);
const TRANSACTIONS = new Set(['BEGIN', 'COMMIT', 'END', 'ROLLBACK', 'SAVEPOINT', 'RELEASE']);

const READ_ONLY_HINT =
  'the SQL interface is read-only: it reads the views of the index (save results with --format csv or json)';

/** Why a statement that does not start as a query is refused, by its first word. */
function refusal(first: SqlToken | undefined): string {
  const w = first?.kind === 'word' ? first.upper : '';
  if (WRITES.has(w) || w === 'ANALYZE') return `${w} is refused: ${READ_ONLY_HINT}`;
  if (w === 'ATTACH' || w === 'DETACH') return `${w} is refused: a query reads this folder's index and nothing else`;
  if (w === 'PRAGMA')
    return "PRAGMA statements are refused (some change the connection's state); read-only pragmas are table-valued functions: SELECT * FROM pragma_table_info('samples')";
  if (TRANSACTIONS.has(w)) return `${w} is refused: every query runs alone, in its own read transaction`;
  return `only a SELECT, WITH or VALUES query is accepted (this one starts with ${first ? JSON.stringify(first.text) : 'nothing'})`;
}

/**
 * Checks that `sql` is one read-only query the SQL interface runs; returns its tokens.
 * @throws SqlRefusedError naming the reason: an empty query, more than one statement, a statement other than
 *   SELECT / WITH / VALUES (or EXPLAIN [QUERY PLAN] of one): a write (INSERT, UPDATE, DELETE, REPLACE, CREATE,
 *   DROP, ALTER, ...), ATTACH / DETACH, PRAGMA, a transaction statement; a WITH whose main statement writes;
 *   a call of load_extension; a parameter (`?`, `:name`: nothing binds it).
 */
export function checkQuery(sql: string): SqlToken[] {
  const tokens = tokenizeSql(sql);
  // statements: split at `;` (the last may be empty)
  const statements: SqlToken[][] = [[]];
  for (const t of tokens) {
    if (t.kind === 'punct' && t.text === ';') statements.push([]);
    else statements[statements.length - 1].push(t);
  }
  const nonEmpty = statements.filter((s) => s.length > 0);
  if (nonEmpty.length === 0) throw new SqlRefusedError('the query is empty');
  if (nonEmpty.length > 1)
    throw new SqlRefusedError(`one statement at a time: this query holds ${nonEmpty.length} (separated by ;)`);
  let st = nonEmpty[0];
  if (st[0].kind === 'word' && st[0].upper === 'EXPLAIN') {
    st = st.slice(1);
    if (st[0]?.upper === 'QUERY' && st[1]?.upper === 'PLAN') st = st.slice(2);
  }
  const first = st[0];
  if (first?.kind !== 'word' || !['SELECT', 'WITH', 'VALUES'].includes(first.upper))
    throw new SqlRefusedError(refusal(first));
  const param = st.find((t) => t.kind === 'param');
  if (param)
    throw new SqlRefusedError(
      `the query has a parameter (${param.text}), and nothing binds it: write the value in the query ('text', 42)`,
    );
  let depth = 0;
  for (let i = 0; i < st.length; i++) {
    const t = st[i];
    if (t.kind === 'punct' && t.text === '(') depth++;
    else if (t.kind === 'punct' && t.text === ')') depth--;
    else if (t.kind !== 'word') continue;
    else if (t.upper === 'LOAD_EXTENSION')
      throw new SqlRefusedError('load_extension is refused: a query runs with SQLite as it is built');
    // WITH ... INSERT / UPDATE / DELETE / REPLACE INTO: the main statement after the common table expressions
    // (`replace(` is the string function)
    else if (
      depth === 0 &&
      (t.upper === 'INSERT' || t.upper === 'UPDATE' || t.upper === 'DELETE' || t.upper === 'REPLACE') &&
      st[i + 1]?.text !== '('
    )
      throw new SqlRefusedError(`${t.upper} is refused: ${READ_ONLY_HINT}`);
  }
  return tokens;
}
