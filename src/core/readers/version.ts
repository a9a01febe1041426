/**
 * The version of what the readers put in the index: model, base model and dataset names, problem ids,
 * sample indices, verdicts, scores. **Bump it whenever a reader, a naming rule (readers/util.ts,
 * index/labels.ts, datasets.ts, seeds.ts, ...) or a mapping rule changes what a file's samples become
 * in the index**: an index stores the version it was built with (meta `reader_version`), and the next
 * indexing pass over an index of another version (or of none: built before this constant) reads every
 * file again, unchanged ones too (a file whose size and mtime did not change is otherwise never read
 * again, and would keep the names an older version gave). Annotations follow their samples
 * (annotationFates.ts `reattachAnnotations`). A change that only adds a schema table or column is a schema
 * migration (index/schema.ts), not this.
 *
 * History: 1 — first stamped version (trial 9 naming rules: lm-eval `org__name` model folders,
 * dataset versions and spellings, Hydra output folders). 2 — trial 9 findings 3, 5, 7, 12-15 (fine-tuned
 * bases by name ancestry, logging-tool and replicate folders, `greedy` = t0.0, unknown dataset folders
 * beside a model's own files, step labels under dataset folders) and an info diagnostic for every file
 * no reader takes; lm-eval `samples_<task>_<date>` files give the task whole as the dataset. 3 — trial 12: logging-tool folders below the logging folder
 * (MLflow run folders, wandb media, TensorBoard events), temperature spellings `T=`, `t=`, `tmp` and sampling
 * folders, step folders above a temperature folder; the mapping reader's dataset from the file path; broken
 * links and unreadable folders named in diagnostics; lost verdicts of samples without text named; links back to
 * a parent folder not followed; JSONL in a `.json` file read as JSONL (a flat `run.json` names model `run`);
 * findings 16 and 14: Qwen-math results roots (`eval_results/`, ...) out of model names; verl step files
 * (`val_generations/100.jsonl`) through a mapping without `model` named by the model folder, the step a revision.
 * 4 — trial 12 finding 2: flat and rollouts files in a model folder that a Qwen-math file (or a file named by a
 * dataset) names take that model's run and name (`Qwen2.5-7B/humaneval/` beside `Qwen2.5-7B/math_eval/gsm8k/`: one
 * model `Qwen2.5-7B`, was two or three); a `.json` file that is one pretty-printed JSON object is read as one record
 * (was one `malformed JSON` error per line); finding 24: diagnostics of an Inspect `.eval` sample name its archive
 * entry (`Diagnostic.entry`), not line 1; finding 6: a number strictly between 0 and 1 among verdicts (booleans,
 * words, 0/1) is partial credit, graded not correct (was: a score, the sample ungraded, and with it every 0/1
 * number of the file); finding 11: a benchmark folder above model folders beside a known dataset folder is a
 * dataset (`my_hard_set/`); the repeated-sample info no longer advises removing repeats (trial 13 finding 10).
 * 5 — issue 32: a reference answer that is a list of accepted answers (Inspect `target` lists, a JSON array as
 * `gt`/`gold`/`answer` or through a mapping) is stored as a JSON array of strings, which answer equivalence reads
 * as "any of these" (was joined with ` | ` by the Inspect reader and dropped by the others).
 *     also: `-Infinity` / `Infinity` reward scores are scores (were missing); several JSON records on one line
 * are each read (were one malformed line); a problem id that names another problem (question or reference answer
 * differs) is skipped as such, also among per-sample records (were merged); errored Inspect samples.
 * 6 — per-sample mapping records with named scores: every sample of a problem is indexed, each with its own
 * scores (was the first sample of each problem only, the others counted as repeated scores).
 * 7 — the Qwen2.5-Math reader reads a problem's `subject` (else `type`), the Inspect reader its metadata's
 * `subject` (else `type`): subject splits were empty for those files.
 * 8 — an errored Inspect sample's diagnostics say it is left out of maj@k's votes too (they said maj@k credited it 0).
 * 9 — issue 37: `.parquet` files are read (TRL's completions files, trl.ts; were `not a results file`).
 * 10 — an Inspect sample's text has its reasoning blocks (was `output.completion` alone, the answer's text, when
 * present); a redacted reasoning block is left out.
 */
export const READER_VERSION = 10;
