import type { StepRule } from '../model';

/**
 * JSON Schema (draft-07, checked with ajv) of a mapping file `trace-inspector.mapping.json`: the
 * user's description of a JSON/JSONL results format no built-in reader knows. See docs/mapping.md.
 */

/** Name of the mapping file looked up in a file's folder and its parents up to the results folder. */
export const MAPPING_FILE_NAME = 'trace-inspector.mapping.json';

/** One mapping: which files it applies to and where each field lives. */
export interface MappingSpec {
  /** Globs relative to the mapping file's folder (see glob.ts): `*.jsonl`, `runs/**` + `/*.json`. */
  files: string[];
  /** `per-sample`: each record is one sample; `per-problem`: each record is one problem with its samples. */
  records: 'per-sample' | 'per-problem';
  /**
   * Per-problem only: path of the list of samples (objects, or tuples such as `[code, result]`; `$` when
   * the record itself is that list); the sample fields are then paths inside each element. Without it,
   * per-problem sample fields name parallel lists on the record.
   */
  samples?: string;
  /**
   * `.json` files only: path of the records. A path selecting one list: its elements (`results.items`);
   * a path selecting several values: those values (`$.*`: the values of a top-level object keyed by
   * problem id, whose keys `@key` names). Default: the top-level list (a top-level object is one record).
   */
  recordsPath?: string;
  /**
   * Paths (mappingPath.ts): JSONPath (RFC 9535) starting with `$` (`$.infos[*].r`), a dotted path
   * (`a.b.0.c`; a numeric segment indexes a list, `-1` is the last element), or `@key` (record-level
   * fields: the record's key in a keyed object).
   */
  fields: {
    /** Required unless `question` is given: problems without an id are keyed by their text. */
    problemId?: string;
    /** Required unless the mapping gives `scores` (scores for samples other files define) or is `problemInfo`. */
    text?: string;
    correct?: string;
    model?: string;
    revision?: string;
    dataset?: string;
    level?: string;
    subject?: string;
    question?: string;
    referenceAnswer?: string;
    extractedAnswer?: string;
    rewardScore?: string;
    finishReason?: string;
    tokenCount?: string;
    sampleIndex?: string;
  };
  /** Model name when `fields.model` is absent or missing in a record (default: the file stem). */
  model?: string;
  /** Dataset name when `fields.dataset` is absent or missing in a record (default `default`). */
  dataset?: string;
  /** When set, numeric correctness values (numbers or numeric strings) >= this threshold are correct. */
  correctThreshold?: number;
  /**
   * Values of `fields.correct` that mean correct (`["passed"]`); any other string, number or boolean
   * means incorrect. Compared as JSON values (`1` is not `"1"`).
   */
  correctValues?: (string | number | boolean)[];
  /**
   * A regular expression (JavaScript syntax, Unicode mode) that a correct value matches as a whole
   * (`"pass(ed)?"`, `"1(\\.0+)?"`); numbers and booleans are matched as their JSON text; any other
   * string, number or boolean means incorrect.
   */
  correctPattern?: string;
  /**
   * Named scores of several scorers on each sample (reward models, judges): each entry reads one
   * sample-level path (a number, or a list of step scores reduced by the step rule) under a scorer name
   * given as is (`scorer`) or taken from the file name (`scorerFromFile`, a regular expression whose
   * first group is the name: `"(.+)_reward\\.json"`). Without `fields.text` the records define no
   * samples: their scores attach to samples other files define (see docs/mapping.md "Scores").
   */
  scores?: ScoreSpec[];
  /** Step rule per scorer name, over the entries' `stepRule`: `{"Math_Shepherd": "product"}`. */
  stepRules?: Record<string, StepRule>;
  /**
   * The records are problems without samples: they give the level, subject, question or reference answer
   * of problems that other files have samples of (a problem list such as MATH-500's `test500.jsonl`).
   */
  problemInfo?: boolean;
}

/** One entry of a mapping's `scores`. */
export interface ScoreSpec {
  /** Sample-level path of the score (parallel list, element of `samples`, or per-sample record field). */
  path: string;
  /** The scorer's name. */
  scorer?: string;
  /** A regular expression matched against the file name (not its folder); its first group is the scorer name. */
  scorerFromFile?: string;
  /** How a list of step scores becomes one number (default `min`). */
  stepRule?: StepRule;
}

const stepRule = { enum: ['min', 'last', 'product'] } as const;

/** A path: its syntax is checked by `compilePath` (mappingPath.ts) after the schema, naming the field. */
const path = { type: 'string', minLength: 1 } as const;

const mappingObject = {
  type: 'object',
  additionalProperties: false,
  required: ['files', 'records', 'fields'],
  properties: {
    $schema: { type: 'string' },
    description: { type: 'string' },
    files: { type: 'array', minItems: 1, items: { type: 'string', minLength: 1 } },
    records: { enum: ['per-sample', 'per-problem'] },
    samples: path,
    recordsPath: path,
    fields: {
      type: 'object',
      additionalProperties: false,
      required: ['problemId', 'text'],
      properties: {
        problemId: path,
        text: path,
        subject: path,
        correct: path,
        model: path,
        revision: path,
        dataset: path,
        level: path,
        question: path,
        referenceAnswer: path,
        extractedAnswer: path,
        rewardScore: path,
        finishReason: path,
        tokenCount: path,
        sampleIndex: path,
      },
    },
    model: { type: 'string', minLength: 1 },
    dataset: { type: 'string', minLength: 1 },
    correctThreshold: { type: 'number' },
    correctValues: { type: 'array', minItems: 1, items: { type: ['string', 'number', 'boolean'] } },
    correctPattern: { type: 'string', minLength: 1 },
    scores: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['path'],
        properties: {
          path,
          scorer: { type: 'string', minLength: 1 },
          scorerFromFile: { type: 'string', minLength: 1 },
          stepRule,
        },
      },
    },
    stepRules: { type: 'object', additionalProperties: stepRule },
    problemInfo: { type: 'boolean' },
  },
} as const;

/** The schema: one mapping object, or a non-empty list of them (the first whose `files` match a file applies). */
export const MAPPING_SCHEMA = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  title: 'Reasoning Trace Inspector mapping file',
  oneOf: [mappingObject, { type: 'array', minItems: 1, items: mappingObject }],
} as const;
