/**
 * The CAS step of answer equivalence: LaTeX parsed and evaluated by the Cortex Compute Engine
 * (@cortex-js/compute-engine, MIT; LaTeX to MathJSON, canonical forms, arbitrary-precision numeric
 * evaluation). Loaded on first use (its bundle is ~3.4 MB and takes ~0.5 s to start), so a report
 * whose answers are all plain numbers never loads it.
 *
 * Model output is untrusted: a final answer such as `9^{9^{9^{9}}}` makes the engine compute a
 * BigInt for half a minute, uninterruptibly. So before anything is evaluated the parse is checked
 * ({@link MAX_NODES} nodes, no power towers, exponents and factorial arguments bounded), evaluation
 * runs under the engine's own time limit ({@link TIME_LIMIT_MS}), and anything refused or failing
 * falls back to a structural key (the same spelling after the surface step), never a crash or a hang.
 */

import { exactFromMathJson, type Rational } from './exact';

/** The part of a Compute Engine boxed expression this module uses. */
interface Boxed {
  readonly json: unknown;
  readonly isValid: boolean;
  readonly unknowns: readonly string[];
  readonly re: number;
  readonly im: number;
  readonly isRational: boolean | undefined;
  N(): Boxed;
  evaluate(): Boxed;
  subs(sub: Record<string, number>): Boxed;
}

interface Engine {
  parse(latex: string, options?: { canonical?: boolean }): Boxed;
  withTimeLimit<T>(ms: number, fn: () => T): T;
  pushScope(): void;
  popScope(): void;
}

/** Most nodes a parsed answer may have to be evaluated (a final answer is short; model output may not be). */
export const MAX_NODES = 200;
/** Largest |exponent| of a power that is evaluated, and largest argument of a factorial. */
export const MAX_EXPONENT = 10000;
export const MAX_FACTORIAL = 1000;
/**
 * Wall-clock guard around one parse and one evaluation, against a hang the structural checks miss.
 * Generous on purpose: an answer that passes the checks evaluates in milliseconds, and a limit that
 * fired on a busy machine would make a key depend on timing.
 */
export const TIME_LIMIT_MS = 2000;
/** Longest answer (in characters, after the surface step) given to the CAS; longer ones are compared as text. */
export const MAX_CAS_LENGTH = 300;

let engine: Engine | null | undefined;
let loadError: string | undefined;

/**
 * The engine, created on first use; `null` when the package cannot be loaded (then every answer
 * that is not a plain number is compared by its surface form, and {@link casStatus} says why).
 */
function getEngine(): Engine | null {
  if (engine !== undefined) return engine;
  try {
    // Loaded lazily on purpose (size and start-up time); bundles keep it external (scripts/build.mjs).
    const mod = require('@cortex-js/compute-engine') as { ComputeEngine: new () => Engine };
    const ce = new mod.ComputeEngine();
    // warm up (the first parse and evaluation load the engine's libraries), outside any time limit
    ce.pushScope();
    try {
      ce.parse('\\frac{x+1}{2}').subs({ x: 1 }).N();
    } finally {
      ce.popScope();
    }
    engine = ce;
  } catch (e) {
    engine = null;
    loadError = (e as Error).message;
  }
  return engine;
}

/** Whether the CAS has been loaded in this process (without loading it). */
export function casLoaded(): boolean {
  return !!engine;
}

/** Whether the CAS is available (it is loaded by this call if it was not yet), and why not. */
export function casStatus(): { available: boolean; error?: string } {
  return getEngine() ? { available: true } : { available: false, error: loadError };
}

/** What the CAS made of one answer. */
export type CasValue =
  | { kind: 'number'; re: number; im: number; exact?: Rational }
  | { kind: 'function'; unknowns: string[]; values: number[] }
  | { kind: 'structure'; json: string }
  | { kind: 'unparsed' };

type Json = unknown;

function head(j: Json): string | undefined {
  return Array.isArray(j) && typeof j[0] === 'string' ? j[0] : undefined;
}

function literal(j: Json): number | undefined {
  if (typeof j === 'number') return j;
  if (j && typeof j === 'object' && !Array.isArray(j) && typeof (j as { num?: unknown }).num === 'string')
    return Number((j as { num: string }).num);
  return undefined;
}

/**
 * Structural check of a (raw or canonical) MathJSON tree before evaluation: node count, depth, no
 * power of a power, exponents and factorial arguments bounded, no calculus (sums, integrals,
 * limits, derivatives: their evaluation is open-ended). Returns why it is refused, or null.
 */
export function refuseEvaluation(json: Json): string | null {
  let nodes = 0;
  const walk = (j: Json, depth: number, inExponent: boolean): string | null => {
    if (++nodes > MAX_NODES) return 'too large';
    if (depth > 40) return 'too deep';
    const h = head(j);
    if (h === undefined) return null;
    const args = (j as Json[]).slice(1);
    if (/^(Sum|Product|Integrate|Limit|D|Derivative|Block|Function|Loop|Assign|Declare)$/.test(h))
      return `${h} is not evaluated`;
    if (h === 'Power' || h === 'Root' || h === 'Exp') {
      if (inExponent && h !== 'Root') return 'power tower';
      const exp = h === 'Exp' ? args[0] : args[1];
      const e = literal(exp);
      if (e !== undefined && Math.abs(e) > MAX_EXPONENT) return 'exponent too large';
      const base = h === 'Exp' ? undefined : walk(args[0], depth + 1, inExponent);
      if (base) return base;
      return exp === undefined ? null : walk(exp, depth + 1, true);
    }
    if (h === 'Factorial' || h === 'Factorial2' || h === 'Gamma' || h === 'Binomial') {
      for (const a of args) {
        const v = literal(a);
        if (v === undefined || Math.abs(v) > MAX_FACTORIAL) return `${h} of a large or symbolic argument`;
      }
    }
    for (const a of args) {
      const r = walk(a, depth + 1, inExponent);
      if (r) return r;
    }
    return null;
  };
  return walk(json, 0, false);
}

/** Heads whose expressions are compared by structure, not evaluated to one number. */
const STRUCTURES =
  /^(Equal|Less|Greater|LessEqual|GreaterEqual|NotEqual|Set|List|Tuple|Interval|Matrix|Union|Intersection|Element|Sequence|Delimiter|Error)$/;

/** Substitution values for unknowns (fixed, irrational-looking, away from poles and branch cuts). */
const POINTS: readonly (readonly number[])[] = [
  [0.5772156649, 1.2020569032, 0.9159655942, 1.6180339887, 0.7182818285],
  [1.3247179572, 0.7390851332, 1.4513692348, 0.8862269255, 1.0986122887],
];

function evaluate(ce: Engine, e: Boxed): { re: number; im: number } | null {
  const n = ce.withTimeLimit(TIME_LIMIT_MS, () => e.N());
  if (!n.isValid) return null;
  const re = Number(n.re);
  const im = Number(n.im ?? 0);
  if (Number.isNaN(re) || Number.isNaN(im)) return null;
  return { re, im: Number.isFinite(im) ? im : 0 };
}

/**
 * Parses and evaluates one answer (its surface form, see `./surface.ts`):
 * - no unknowns: its numeric value (`number`, real and imaginary parts; ±Infinity for `\infty`), and
 *   `exact` when the value is known to be rational (literals and field operations, integer powers, or
 *   the engine's exact evaluation says so);
 * - unknowns (at most 5, e.g. `4a-2`, `\frac{x+2}{7}`): its values at two fixed points of the
 *   unknowns (`function`), so `x^2+2x+1` and `(x+1)^2` have the same fingerprint;
 * - anything else it can parse (equations, sets, matrices, refused or failed evaluation): its
 *   canonical MathJSON (`structure`); what it cannot parse: `unparsed`.
 * @returns `null` when the CAS is not available.
 */
export function casValue(latex: string): CasValue | null {
  const ce = getEngine();
  if (!ce) return null;
  if (latex.length > MAX_CAS_LENGTH) return { kind: 'unparsed' };
  // Each answer in a scope of its own: the engine declares the symbols it meets (with inferred types),
  // and a key must not depend on which answers came before.
  ce.pushScope();
  try {
    const raw = ce.parse(latex, { canonical: false });
    // unparseable, or too big or dangerous to canonicalise (canonical forms already evaluate powers)
    if (!raw.isValid || refuseEvaluation(raw.json)) return { kind: 'unparsed' };
    const e = ce.withTimeLimit(TIME_LIMIT_MS, () => ce.parse(latex));
    if (!e.isValid) return { kind: 'unparsed' };
    const structure: CasValue = { kind: 'structure', json: JSON.stringify(e.json) };
    if (refuseEvaluation(e.json)) return structure;
    // a MathJSON string ('...': text) or a structure is not evaluated; a symbol (Pi, ExponentialE) is
    const h = head(e.json);
    if ((typeof e.json === 'string' && e.json.startsWith("'")) || (h !== undefined && STRUCTURES.test(h)))
      return structure;
    const unknowns = [...e.unknowns].sort();
    if (unknowns.length === 0) {
      const v = evaluate(ce, e);
      if (!v) return structure;
      // exact when the value is rational: arithmetic of literals (computed here with BigInt), or what the
      // engine's exact evaluation proves rational (`\log_2 8`, `\sqrt{4}`, `e^{i\pi}`); else a float
      let exact = exactFromMathJson(e.json);
      if (!exact) {
        const x = ce.withTimeLimit(TIME_LIMIT_MS, () => e.evaluate());
        if (x.isValid && x.isRational === true) exact = exactFromMathJson(x.json);
      }
      return exact ? { kind: 'number', ...v, exact } : { kind: 'number', ...v };
    }
    if (unknowns.length > POINTS[0].length) return structure;
    const values: number[] = [];
    for (const point of POINTS) {
      const sub: Record<string, number> = {};
      unknowns.forEach((u, i) => {
        sub[u] = point[i];
      });
      const v = evaluate(ce, e.subs(sub));
      if (!v || !Number.isFinite(v.re)) return structure;
      values.push(v.re, v.im);
    }
    return { kind: 'function', unknowns, values };
  } catch {
    // CancellationError (time limit) or an engine error on odd input: compared by its spelling
    return { kind: 'unparsed' };
  } finally {
    ce.popScope();
  }
}
