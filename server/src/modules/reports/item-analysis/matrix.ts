/*
 * The response matrix of an item analysis, in typed arrays: one row per participant, holding the
 * scores of the tasks of the participant's own variant in position order (a variant's tasks are
 * columns of the analysis through `VariantLayout.columns`). 300,000 participants × 20 tasks take
 * 24 MB of scores (Float32: halves and the scoring engine's fractions are kept to 1e-7) and, when
 * the test has choice tasks, 24 MB of chosen options.
 */

/** A task of the analysis (a column). */
export interface ItemColumn {
  taskId: number;
  answerType: string;
  maxScore: number;
  /**
   * Choice tasks: the option ids in order, whether each is (part of) the key and its text (plain,
   * shortened; tests may leave it out); null otherwise.
   */
  options: { id: string; key: boolean; text?: string }[] | null;
  /** multiple_choice: the choice code is a bit mask of options (at most 31 counted). */
  multiple: boolean;
}

/** A variant: the column of each of its positions. */
export interface VariantLayout {
  variantId: number;
  number: number;
  columns: number[];
}

export interface ResponseMatrix {
  items: ItemColumn[];
  variants: VariantLayout[];
  persons: number;
  /** Positions per row: the longest variant. */
  width: number;
  /** The variant (index into `variants`) of each participant. */
  variantOf: Uint16Array;
  /** persons × width scores; a row's positions past its variant's length are unused. */
  scores: Float32Array;
  /**
   * persons × width chosen options of choice tasks: single choice the option's index, multiple
   * choice a bit mask of options; −1 no answer (or not a choice task). Null when no task is a choice.
   */
  choices: Int32Array | null;
  /** The work of each row, when read from the database (the DIF checks look up its groups). */
  workIds?: Float64Array;
}

export const NO_CHOICE = -1;

/** The code of a saved answer value of a choice task (see ResponseMatrix.choices). */
export function choiceCode(item: ItemColumn, value: unknown): number {
  const options = item.options;
  if (!options) return NO_CHOICE;
  if (item.multiple) {
    if (!Array.isArray(value)) return NO_CHOICE;
    let mask = 0;
    for (const v of value) {
      const at = options.findIndex((o) => o.id === v);
      if (at >= 0 && at < 31) mask |= 1 << at;
    }
    return mask === 0 ? NO_CHOICE : mask;
  }
  if (typeof value !== 'string') return NO_CHOICE;
  const at = options.findIndex((o) => o.id === value);
  return at >= 0 ? at : NO_CHOICE;
}

/** Builds a ResponseMatrix row by row, growing its arrays by doubling. */
export class MatrixBuilder {
  readonly width: number;
  private rows = 0;
  private capacity: number;
  private variantOf: Uint16Array;
  private scores: Float32Array;
  private choices: Int32Array | null;

  constructor(
    readonly items: ItemColumn[],
    readonly variants: VariantLayout[],
    expectedRows = 1024,
  ) {
    if (variants.length > 65_535) throw new Error('too many variants');
    this.width = Math.max(1, ...variants.map((v) => v.columns.length));
    this.capacity = Math.max(16, expectedRows);
    this.variantOf = new Uint16Array(this.capacity);
    this.scores = new Float32Array(this.capacity * this.width);
    this.choices = items.some((i) => i.options) ? new Int32Array(this.capacity * this.width) : null;
  }

  /** Rows added so far. */
  get persons() {
    return this.rows;
  }

  /** The row of the next participant: fill `scores` (and `choices`) at `offset + position`. */
  addRow(variant: number): { offset: number; scores: Float32Array; choices: Int32Array | null } {
    if (this.rows === this.capacity) this.grow();
    const offset = this.rows * this.width;
    this.variantOf[this.rows] = variant;
    this.choices?.fill(NO_CHOICE, offset, offset + this.width);
    this.rows++;
    return { offset, scores: this.scores, choices: this.choices };
  }

  /** A whole row at once: scores (and choice codes) in the variant's position order. */
  add(variant: number, scores: ArrayLike<number>, choices?: ArrayLike<number>) {
    const row = this.addRow(variant);
    for (let j = 0; j < scores.length; j++) row.scores[row.offset + j] = scores[j]!;
    if (choices && row.choices)
      for (let j = 0; j < choices.length; j++) row.choices[row.offset + j] = choices[j]!;
  }

  private grow() {
    this.capacity *= 2;
    const v = new Uint16Array(this.capacity);
    v.set(this.variantOf);
    this.variantOf = v;
    const s = new Float32Array(this.capacity * this.width);
    s.set(this.scores);
    this.scores = s;
    if (this.choices) {
      const c = new Int32Array(this.capacity * this.width);
      c.set(this.choices);
      this.choices = c;
    }
  }

  build(): ResponseMatrix {
    const n = this.rows;
    return {
      items: this.items,
      variants: this.variants,
      persons: n,
      width: this.width,
      variantOf: this.variantOf.subarray(0, n),
      scores: this.scores.subarray(0, n * this.width),
      choices: this.choices ? this.choices.subarray(0, n * this.width) : null,
    };
  }
}
