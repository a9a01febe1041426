/**
 * Which score of an Inspect AI sample is its verdict. A sample carries `scores: { <scorer>: { value,
 * answer, ... } }`, one entry per scorer of the task, in the task's order; a value is a string, a number,
 * a boolean, a list, or a dict of several metrics (inspect_ai `Value`, src/inspect_ai/scorer/_metric.py).
 *
 * Policy (docs/formats.md "Inspect AI logs"):
 * - A verdict is `C` (correct), `I` (incorrect), `N` (no answer: incorrect), `P` (partial credit),
 *   a boolean, the number 0 or 1 (or a string of it: `"1.0"`), or yes/no, true/false, correct/incorrect.
 *   Any other number (0.7, 4) is a score, not a verdict: kept as the reward score, the sample ungraded.
 * - Partial credit `P` is not correct for pass@k (correct = false); inspect_ai's numeric value for it,
 *   0.5 (`value_to_float`, src/inspect_ai/scorer/_metric.py), is returned as `reward` but the reader
 *   keeps no reward score for a graded sample (inspect.ts: the value restates the verdict).
 * - The scorer: the one named by the user (`--scorer name`, setting `traceInspector.scorer`), or one
 *   metric of a dict-valued scorer (`--scorer name.key`); by default the first scorer, in the log's
 *   order, whose values are verdicts in **every** sample that has it ({@link ScorerRule.survey} looks at
 *   every sample of the log before any is read): one 1.0 of a continuous metric (an F1 score that
 *   happens to be 1.0 in the first sample) does not make it the verdict scorer. The log's order is the
 *   order of the sample with the most scorers, then any scorer only other samples have, in order of
 *   first appearance, so a first sample that lacks one scorer does not reorder them. A sample without
 *   the chosen scorer is ungraded and counted.
 * - A scorer whose value is a dict, and no key is named: not a verdict; the log says which keys it has.
 * Everything skipped is counted and reported once per log ({@link ScorerRule.summary}).
 *
 * Pure; no `vscode` import.
 */
import { clip, isObject, scoreNumber, toStr } from './util';

/**
 * Correctness and reward of one Inspect score value (see the module policy): `C`, yes, true, correct,
 * `true`, 1 -> correct, reward 1; `I`, `N`, no, false, incorrect, `false`, 0 -> incorrect, reward 0;
 * `P` -> incorrect, reward 0.5; another number (or numeric string; `-Infinity`, `-inf`: the lowest score,
 * util.ts `scoreNumber`) -> ungraded, reward = the number; NaN (inspect_ai's unscored) -> ungraded, no reward; anything else (dicts, lists, other strings, null) -> ungraded, no reward. Strings are
 * trimmed and compared case-insensitively.
 */
export function inspectScore(value: unknown): { correct: boolean | null; reward: number | null } {
  if (typeof value === 'boolean') return { correct: value, reward: value ? 1 : 0 };
  if (typeof value === 'number') {
    // NaN: Inspect's `Score.unscored()`, no value; -Infinity / Infinity: the lowest / highest score (scoreNumber)
    if (Number.isNaN(value)) return { correct: null, reward: null };
    return { correct: value === 1 ? true : value === 0 ? false : null, reward: value };
  }
  if (typeof value === 'string') {
    switch (value.trim().toLowerCase()) {
      case 'c':
      case 'yes':
      case 'true':
      case 'correct':
        return { correct: true, reward: 1 };
      case 'i':
      case 'n':
      case 'no':
      case 'false':
      case 'incorrect':
        return { correct: false, reward: 0 };
      case 'p':
        return { correct: false, reward: 0.5 };
    }
    const n = scoreNumber(value);
    if (n !== null) return inspectScore(n);
  }
  return { correct: null, reward: null };
}

/** A short description of a score value that is not a verdict: `a dict (keys: accuracy, f1)`, `0.7`. */
function describeScore(value: unknown): string {
  if (isObject(value)) {
    const keys = Object.keys(value);
    return `a dict (keys: ${keys.slice(0, 8).join(', ')}${keys.length > 8 ? ', ...' : ''})`;
  }
  if (Array.isArray(value)) return `a list of ${value.length}`;
  if (value === null || value === undefined) return 'no value';
  return clip(JSON.stringify(value) ?? String(value), 40);
}

/** The verdict of one sample under a {@link ScorerRule}. */
export interface ScoreReading {
  correct: boolean | null;
  reward: number | null;
  answer: string | null;
}

/**
 * Reads the verdicts of one log's samples under the user's scorer choice (`choice`: undefined for the
 * default rule, `name` or `name.key`); see the module policy. One instance per log file.
 */
export class ScorerRule {
  /** Default rule: the scorer chosen by {@link survey} (null: none of them is a verdict; undefined: not surveyed yet). */
  private chosen: string | null | undefined = undefined;
  /** Default rule: scorers passed over, with what their value was, in order. */
  private readonly passedOver = new Map<string, string>();
  private samples = 0;
  private readonly counts = { missing: 0, dictWithoutKey: 0, keyMissing: 0, notDict: 0, notVerdict: 0, partial: 0 };
  private example: { notVerdict?: string; dictKeys?: string; notDict?: string } = {};
  private readonly scorerNames = new Set<string>();

  constructor(private readonly choice?: string) {}

  /**
   * Default rule: looks at the `scores` of every sample of the log (in the log's order) and chooses the
   * scorer (see the module policy). Called once, before {@link read}; a no-op when the user named a
   * scorer. Each scorer passed over is remembered with why: a dict, or values that are not verdicts
   * (`0.5 in 6 of 9 samples`).
   */
  survey(allScores: Iterable<unknown>): void {
    if (this.choice !== undefined) return;
    const stats = new Map<string, { present: number; verdicts: number; other: number; example: unknown }>();
    let widest: string[] = [];
    const appearance: string[] = [];
    let scored = 0;
    for (const scores of allScores) {
      if (!isObject(scores)) continue;
      const names = Object.keys(scores);
      if (names.length > widest.length) widest = names;
      let any = false;
      for (const k of names) {
        let st = stats.get(k);
        if (!st) {
          stats.set(k, (st = { present: 0, verdicts: 0, other: 0, example: undefined }));
          appearance.push(k);
        }
        const sc = scores[k];
        const v = isObject(sc) ? sc.value : undefined;
        if (v === null || v === undefined) continue;
        any = true;
        st.present++;
        if (!isObject(v) && inspectScore(v).correct !== null) st.verdicts++;
        else {
          st.other++;
          if (st.example === undefined) st.example = v;
        }
      }
      if (any) scored++;
    }
    if (scored === 0) return;
    const order = [...widest, ...appearance.filter((k) => !widest.includes(k))];
    this.chosen = null;
    for (const k of order) {
      const st = stats.get(k)!;
      if (st.present > 0 && st.other === 0) {
        this.chosen = k;
        break;
      }
      if (st.present === 0) continue;
      this.passedOver.set(
        k,
        isObject(st.example)
          ? describeScore(st.example)
          : `values that are not verdicts in ${st.other} of ${st.present} samples, for example ${describeScore(st.example)}`,
      );
    }
  }

  /** Whether {@link survey} is still to be called (the default rule, not surveyed yet). */
  needsSurvey(): boolean {
    return this.choice === undefined && this.chosen === undefined;
  }

  /** The verdict of a sample from its `scores` object. */
  read(scores: unknown): ScoreReading {
    this.samples++;
    const none: ScoreReading = { correct: null, reward: null, answer: null };
    if (!isObject(scores)) {
      if (this.choice !== undefined) this.counts.missing++;
      return none;
    }
    for (const k of Object.keys(scores)) this.scorerNames.add(k);
    let name: string | null;
    let key: string | null = null;
    if (this.choice === undefined) {
      // not surveyed (a caller that reads one sample at a time): this sample's own scores decide
      if (this.chosen === undefined && Object.values(scores).some((s) => isObject(s) && s.value != null))
        this.survey([scores]);
      name = this.chosen ?? null;
      if (name === null) return none;
    } else if (Object.hasOwn(scores, this.choice)) {
      name = this.choice;
    } else {
      const dot = this.choice.lastIndexOf('.');
      name = dot > 0 ? this.choice.slice(0, dot) : this.choice;
      key = dot > 0 ? this.choice.slice(dot + 1) : null;
    }
    const sc = scores[name];
    if (!isObject(sc)) {
      this.counts.missing++;
      return none;
    }
    let value = sc.value;
    if (key !== null) {
      if (!isObject(value)) {
        this.counts.notDict++;
        this.example.notDict ??= describeScore(value);
        return none;
      }
      if (!Object.hasOwn(value, key)) {
        this.counts.keyMissing++;
        this.example.dictKeys ??= describeScore(value);
        return none;
      }
      value = value[key];
    } else if (isObject(value)) {
      this.counts.dictWithoutKey++;
      this.example.dictKeys ??= describeScore(value);
      return { ...none, answer: toStr(sc.answer) };
    }
    const { correct, reward } = inspectScore(value);
    if (correct === null) {
      this.counts.notVerdict++;
      this.example.notVerdict ??= describeScore(value);
    } else if (typeof value === 'string' && value.trim().toUpperCase() === 'P') {
      this.counts.partial++;
    }
    return { correct, reward, answer: toStr(sc.answer) };
  }

  /** The scorer the verdicts came from, as the user would name it (`match`, `rubric.accuracy`); null when none. */
  source(): string | null {
    return this.choice ?? this.chosen ?? null;
  }

  /**
   * What was skipped or decided, as warnings (error when no sample could be graded by the user's
   * choice), once per log: scorers passed over by the default rule and why, a named scorer missing
   * from samples, dict values without a key, values that are not verdicts, partial credit.
   */
  summary(): { message: string; severity: 'error' | 'warning' }[] {
    const out: { message: string; severity: 'error' | 'warning' }[] = [];
    const n = this.samples;
    const of = (c: number) => (c === n ? `all ${n} samples` : `${c} of ${n} samples`);
    const scorers = [...this.scorerNames].map((s) => JSON.stringify(s)).join(', ') || 'none';
    if (this.choice === undefined) {
      const passed = [...this.passedOver].map(([k, v]) => `"${k}" (${v})`);
      if (this.chosen === null) {
        const dict = [...this.passedOver].find(([, v]) => v.startsWith('a dict'));
        out.push({
          severity: 'warning',
          message: `no scorer of this log gives verdicts (${passed.join(', ')}); samples ungraded${dict ? `: to read one metric of "${dict[0]}" use --scorer ${dict[0]}.<key> (setting traceInspector.scorer)` : ''}`,
        });
      } else if (this.chosen !== undefined && passed.length > 0) {
        out.push({
          severity: 'warning',
          message: `verdicts from scorer "${this.chosen}"; passed over ${passed.join(', ')}: not verdicts (choose a scorer with --scorer <name> or <name>.<key>, setting traceInspector.scorer)`,
        });
      }
      if (this.chosen && this.counts.missing > 0) {
        out.push({
          severity: 'warning',
          message: `scorer "${this.chosen}" is missing in ${of(this.counts.missing)} of this log (its scorers: ${scorers}); those samples are ungraded`,
        });
      }
    } else if (this.counts.missing > 0) {
      out.push({
        severity: this.counts.missing === n ? 'error' : 'warning',
        message: `scorer "${this.choice}" (--scorer, setting traceInspector.scorer) is missing in ${of(this.counts.missing)} of this log (its scorers: ${scorers}); those samples are ungraded`,
      });
    }
    const src = this.source();
    if (this.counts.dictWithoutKey > 0) {
      out.push({
        severity: this.counts.dictWithoutKey === n ? 'error' : 'warning',
        message: `scorer "${src}" has ${this.example.dictKeys} values, not verdicts, in ${of(this.counts.dictWithoutKey)}; those are ungraded (name one metric: --scorer ${src}.<key>)`,
      });
    }
    if (this.counts.keyMissing > 0) {
      out.push({
        severity: this.counts.keyMissing === n ? 'error' : 'warning',
        message: `scorer "${src}": the key is missing from the value in ${of(this.counts.keyMissing)} (for example ${this.example.dictKeys}); those are ungraded`,
      });
    }
    if (this.counts.notDict > 0) {
      out.push({
        severity: this.counts.notDict === n ? 'error' : 'warning',
        message: `--scorer ${src} names a key, but the scorer's value is not a dict in ${of(this.counts.notDict)} (for example ${this.example.notDict}); those are ungraded`,
      });
    }
    if (this.counts.notVerdict > 0) {
      out.push({
        severity: 'warning',
        message: `scorer "${src}" gives values that are not verdicts in ${of(this.counts.notVerdict)} (for example ${this.example.notVerdict}; verdicts are C/I/P/N, booleans, 0/1); those are ungraded, a number is kept as the reward score`,
      });
    }
    if (this.counts.partial > 0) {
      out.push({
        severity: 'warning',
        message: `${of(this.counts.partial)} have partial credit "P" (scorer "${src}"): counted as not correct for pass@k; its value 0.5 restates the verdict and is no reward score`,
      });
    }
    return out;
  }
}
