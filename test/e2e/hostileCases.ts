/**
 * Hostile model outputs that both the problem view's rendering test (hostile.e2e.ts) and the sample
 * preview's (preview.e2e.ts) check: `text` is the sample, `visible` what must show as plain text.
 * Nothing in them may run (`window.__pwned` stays unset).
 */
export const SHARED_HOSTILE_CASES: { name: string; text: string; visible: string[] }[] = [
  {
    name: 'mxss',
    text: '<math><mtext><table><mglyph><style><img src=x onerror=window.__pwned=1>',
    visible: ['<math><mtext><table><mglyph><style><img src=x onerror=window.__pwned=1>'],
  },
  {
    name: 'think',
    text: '<think>secret <img src=x onerror=window.__pwned=1> plan</think>**Answer**: $\\frac{1}{2}$ costs $3',
    visible: ['Thinking', 'Answer'],
  },
  {
    name: 'entities',
    text: '&lt;script&gt;window.__pwned=1&lt;/script&gt; &#x3C;img src=x onerror=window.__pwned=1&#x3E;',
    visible: ['<script>window.__pwned=1</script>'],
  },
];
