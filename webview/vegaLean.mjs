// What dist/charts-vendor.js bundles in place of the package \`vega\` (scripts/build.mjs \`alias\`): vega's own
// index (vega 6.x, node_modules/vega/index.js), exports unchanged, with only the transforms the views'
// charts use registered: the dataflow, general, view and encoding transforms. Left out: geo, force,
// hierarchy, label, regression, voronoi, wordcloud and crossfilter (their packages and d3-force,
// d3-hierarchy, d3-delaunay are not parsed when a chart view opens). The specs (src/shared/chartSpecs.ts)
// use no projection, no regression / loess, no nearest selection; a spec that did would fail with
// "Unrecognized transform type" (test/unit/webview-bundles.test.ts compiles every kind of chart and
// checks that its transforms are registered here).

// -- Transforms -----

import { extend } from 'vega-util';
import { transforms } from 'vega-dataflow';
import * as tx from 'vega-transforms';
import * as vtx from 'vega-view-transforms';
import * as encode from 'vega-encode';
extend(transforms, tx, vtx, encode);

// -- Exports -----

import pkg from '../node_modules/vega/package.json' with { type: 'json' };
export const version = pkg.version;

export * from 'vega-statistics';

export * from 'vega-time';

export * from 'vega-util';

export * from 'vega-loader';

export * from 'vega-scenegraph';

export {
  Dataflow,
  EventStream,
  Parameters,
  Pulse,
  MultiPulse,
  Operator,
  Transform,
  changeset,
  ingest,
  isTuple,
  definition,
  transform,
  transforms,
  tupleid,
} from 'vega-dataflow';

export {
  scale,
  scheme,
  interpolate,
  interpolateColors,
  interpolateRange,
  quantizeInterpolator,
} from 'vega-scale';

export { projection } from 'vega-projection';

export { View } from 'vega-view';

export {
  numberFormatDefaultLocale as formatLocale,
  timeFormatDefaultLocale as timeFormatLocale,
  locale,
  defaultLocale,
  resetDefaultLocale,
} from 'vega-format';

export { expressionFunction } from 'vega-functions';

export { parse } from 'vega-parser';

export { context as runtimeContext } from 'vega-runtime';

export {
  codegenExpression,
  parseExpression,
} from 'vega-expression';

export { parseSelector } from 'vega-event-selector';
