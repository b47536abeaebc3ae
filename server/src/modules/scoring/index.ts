/*
 * Owns: the pure auto-scoring engine (normalisation, partial credit, marks); no database, no I/O.
 * Calls: no other module.
 *
 * See score.ts and normalize.ts for the rules.
 */
export {
  scoreAnswer,
  isAutoScored,
  InvalidTaskError,
  type ScoreTask,
  type ScoreResult,
  type ScoredResult,
  type ManualResult,
  type EmptyResult,
  type InvalidResult,
  type ScoreDetails,
  type ChoiceDetail,
  type PositionDetail,
  type PairDetail,
  type BlankDetail,
  type AssociationDetail,
  type PartDetail,
} from './score.js';
export { insideShape, parsePoint, type AreaShape, type Point } from './geometry.js';
export {
  bindResponses,
  responseValue,
  answerFromQti,
  qtiCorrectAnswer,
  referenceFromAnswer,
} from './qti/bind.js';
export { compileQti, runQti, roundDecimal, type CompiledQti, type QtiRun } from './qti/evaluate.js';
export { toJson as qtiValueToJson, type Value as QtiRuntimeValue } from './qti/values.js';
export {
  normalizeText,
  normalizeSpaces,
  isBlank,
  normalizeDigits,
  parseNumber,
  withinTolerance,
  withinRelative,
  wildcardMatches,
  inRange,
  textMatches,
  prepareAccepted,
  type TextRules,
  type AcceptedVariant,
} from './normalize.js';
export { markFor, percent, type MarkStep, type MarkResult } from './mark.js';
