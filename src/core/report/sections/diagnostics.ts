import { type Diagnostic } from '../../model';
import { notAuditedDiagnostics } from '../../analyses/summaryAudit';
import { toolVerdict } from '../../analyses/graderAudit';
import type { TraceIndex } from '../../index/traceIndex';
import type { ReportContext } from '../context';
import type { ReportSection } from '../section';
import { type Report } from '../types';
import { formatDiagnostics } from '../render';

/** The index's diagnostics (under --tool-grading, worded as they then stand) and the audit's "not audited" infos. */
function computeDiagnostics(ctx: ReportContext): Pick<Report, 'diagnostics'> {
  const { index, options, tool } = ctx;
  return {
    diagnostics: withNotAudited(
      tool ? toolGradedDiagnostics(index, index.diagnostics()) : index.diagnostics(),
      notAuditedDiagnostics(options.auditChecked?.notChecked ?? []),
    ),
  };
}

/** The index's diagnostics with the audit's "not audited" infos among them, by file and line (unchanged without any). */
function withNotAudited(diagnostics: Diagnostic[], notAudited: Diagnostic[]): Diagnostic[] {
  if (notAudited.length === 0) return diagnostics;
  return [...diagnostics, ...notAudited].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line));
}

/**
 * The indexer's infos on samples without a verdict, as they stand under --tool-grading (trial 5 finding
 * 11c: "no graded sample … count in missing of every figure" stayed while the table counted those
 * samples): where the tool graded some of them, the info says how many of them are now in the figures.
 * Matched by the file, model and problem the info names (a file's own samples, so that math500 #0 and
 * aime24 #0 are not mixed); other diagnostics are returned as they are.
 */
export function toolGradedDiagnostics(index: TraceIndex, diagnostics: readonly Diagnostic[]): Diagnostic[] {
  // samples the tool grades (no verdict, an answer and a reference), by file, model name and problem id: the names the infos use
  const rows = index.db
    .prepare(
      `SELECT f.path AS file, m.name AS model, pr.problem_id AS problem, s.extracted_answer AS a, pr.reference_answer AS ref
         FROM samples s JOIN files f ON f.id = s.file_id JOIN models m ON m.id = s.model_id JOIN problems pr ON pr.id = s.problem_id
        WHERE s.correct IS NULL AND s.extracted_answer IS NOT NULL AND pr.reference_answer IS NOT NULL`,
    )
    .all() as { file: string; model: string; problem: string; a: string; ref: string }[];
  const count = new Map<string, number>();
  const add = (key: string) => count.set(key, (count.get(key) ?? 0) + 1);
  for (const r of rows) {
    if (toolVerdict(r.a, r.ref) === null) continue;
    add(JSON.stringify([r.file, r.model]));
    add(JSON.stringify([r.file, r.model, r.problem]));
  }
  const note = (n: number) =>
    ` — under --tool-grading, ${n} of them ${n === 1 ? 'is' : 'are'} graded by the tool (answer equivalent to the reference answer) and in the figures`;
  return diagnostics.map((d) => {
    const problem =
      /^problem ("(?:[^"\\]|\\.)*") of model (.+?)(?: has no graded sample \(|: \d+ of its \d+ samples (?:has|have) no verdict)/.exec(
        d.message,
      );
    const file = /^model (.+?) has no graded sample in this file/.exec(d.message);
    const key = problem
      ? JSON.stringify([d.file, problem[2], JSON.parse(problem[1]) as string])
      : file
        ? JSON.stringify([d.file, file[1]])
        : undefined;
    const n = key === undefined ? 0 : (count.get(key) ?? 0);
    return n > 0 ? { ...d, message: d.message + note(n) } : d;
  });
}

export const diagnosticsSection: ReportSection = {
  name: 'diagnostics',
  compute: computeDiagnostics,
  table: (r: Report) =>
    r.diagnostics.length ? ['', `${r.diagnostics.length} diagnostics:`, formatDiagnostics(r.diagnostics)] : [],
};
