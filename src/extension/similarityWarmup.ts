/**
 * A small synthetic similarity job the similarity worker runs while the user is idle (after the tree is
 * first shown or an indexing pass ends), so that the first real job, after the click on a problem's chart
 * icon, finds the worker's bundle parsed and its hot functions compiled by the JIT (a fresh worker pays
 * ~0.3 s of CPU more on its first 1024 x 1024 job than on a later one: docs/performance-log.md).
 * The texts are math-like solutions written from a few templates by a fixed generator: no data of the
 * user's folders, so the warm-up reads no file and its result is thrown away.
 */
import type { SimilarityJob } from './panelData';

const OPENINGS = [
  "Let's think step by step.",
  'We start by writing down what we know.',
  'To find the answer, we first set up the relevant equation.',
  'First, let us restate the problem in mathematical terms.',
];
const FILLERS = [
  'This simplifies the expression considerably.',
  'Now we can substitute this value back into the original equation.',
  'Next, we combine like terms.',
  'Recall that the sum of an arithmetic series is $\\frac{n(a_1 + a_n)}{2}$.',
  'Since the discriminant is positive, there are two real roots.',
  'By the Pythagorean theorem, $a^2 + b^2 = c^2$.',
  'Thus the condition $x \\geq 0$ is satisfied.',
];

/** A 32-bit linear congruential generator in [0, 1): the same texts on every run. */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** One math-like solution of about `chars` characters: equations with numeric results, fractions, a boxed answer. */
function warmText(r: () => number, chars: number): string {
  const a = 2 + Math.floor(r() * 40);
  const b = 3 + Math.floor(r() * 80);
  const parts = [OPENINGS[Math.floor(r() * OPENINGS.length)]];
  let len = parts[0].length;
  for (let i = 0; len < chars; i++) {
    const x = Math.floor(r() * 100);
    const y = 1 + Math.floor(r() * 30);
    let p: string;
    switch (i % 5) {
      case 0:
        p = `The first quantity is $${a} \\times ${b} = ${a * b}$.`;
        break;
      case 1:
        p = `Substituting $x = ${x}$ gives:\n\\[\n${a}(${x})^2 + ${b}(${x}) - ${y} = ${a * x * x + b * x - y}\n\\]`;
        break;
      case 2:
        p = `Dividing by ${y}, we get $\\frac{${a * y + x}}{${y}} = ${a} + \\frac{${x}}{${y}}$.`;
        break;
      case 3:
        p = `So $x_1 + x_2 = -\\frac{${b}}{${a}}$, which is approximately ${(-b / a).toFixed(3)}.`;
        break;
      default:
        p =
          r() < 0.5
            ? FILLERS[Math.floor(r() * FILLERS.length)]
            : `Therefore ${a + x} − ${y} = ${a + x - y}, and ${a + x - y} ≤ ${a * b * 10}.`;
    }
    parts.push(p);
    len += p.length + 2;
  }
  parts.push(`Therefore, the final answer is $\\boxed{${r() < 0.5 ? a * b : Math.floor(r() * 1000)}}$.`);
  return parts.join('\n\n');
}

/**
 * The warm-up job: `samples` base and `samples` model texts of about `chars` characters each (defaults
 * 48 and 1,500). Deterministic. Half the samples are marked correct so the path counts run too.
 */
export function warmUpJob(samples = 48, chars = 1500): SimilarityJob {
  const r = lcg(0x5eed);
  const make = (offset: number) =>
    Array.from({ length: samples }, (_, i) => ({
      id: offset + i,
      sampleIndex: i,
      correct: i % 2 === 0,
      text: warmText(r, chars),
    }));
  return { kind: 'problem', base: make(1), model: make(1 + samples) };
}
