/** The Training tab's specs: pure functions in src/shared/trainingChartSpecs.ts (node tests import them from there). */
export * from '../src/shared/trainingChartSpecs';
