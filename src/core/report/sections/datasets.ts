import { datasetCounts, problemsInDatasets } from '../../grouping/datasets';
import type { ReportContext } from '../context';
import { safe } from '../render';
import type { ReportSection } from '../section';
import type { Report } from '../types';
import { ALL_DATASETS } from '../render';

/** The folder's datasets with their problem counts (left in the context for the models section). */
function computeDatasets(ctx: ReportContext): Pick<Report, 'datasets'> {
  ctx.datasets = datasetCounts(ctx.index);
  return { datasets: ctx.datasets };
}

/** With several datasets, the line above the model table saying how its rows pool them. */
function datasetsTable(r: Report): string[] {
  const out: string[] = [];
  const several = r.datasets.length > 1;
  if (several)
    out.push(
      `datasets: ${safe(problemsInDatasets(r.datasets))}: the table gives each dataset's figures, then "${ALL_DATASETS}" (a model with problems of several datasets) pooled over every problem of the model (each problem counts once: a dataset weighs by its problem count); every other figure below (comparisons, best-of-k, maj@k, training, grader audit) pools the ${r.datasets.length} datasets`,
    );
  return out;
}

export const datasetsSection: ReportSection = { name: 'datasets', compute: computeDatasets, table: datasetsTable };
