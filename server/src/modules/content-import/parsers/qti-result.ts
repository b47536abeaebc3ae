import type { QtiScoring, QtiSlot } from '@attesta/contract';
import { answerFromQti } from '../../scoring/index.js';
import type { QtiItemResult } from './qti-item.js';
import { renameValue } from './qti-rp.js';
import { attr, descendants, kid, kids, readQtiXml, textOf } from './qti-xml.js';

/*
 * QTI results as a source of responses: an assessmentResult (QTI 2.1/2.2/3.0) lists each item's
 * candidate responses; `answerFromResponses` turns those of one item into the value a participant
 * of the imported task saves (the choices' identifiers renamed as the import renamed them), so a
 * response recorded by another delivery engine can be scored by ours.
 */

/** Item identifier → response identifier → the candidate's values as written. */
export type QtiResponses = Map<string, Map<string, string[]>>;

/** The candidate responses of every item of an assessmentResult file. */
export function readQtiResult(data: Buffer | string, where: string): QtiResponses {
  const { root } = readQtiXml(data, where);
  const out: QtiResponses = new Map();
  if (root.name !== 'assessmentResult') return out;
  for (const item of kids(root, 'itemResult')) {
    const responses = new Map<string, string[]>();
    for (const variable of kids(item, 'responseVariable')) {
      const candidate = kid(variable, 'candidateResponse');
      if (!candidate) continue;
      responses.set(
        attr(variable, 'identifier') ?? '',
        descendants(candidate, ['value']).map((v) => textOf(v).trim()),
      );
    }
    out.set(attr(item, 'identifier') ?? '', responses);
  }
  return out;
}

/**
 * The saved value of an imported task that stands for these QTI responses (QTI identifiers, as in
 * the source), or null when the task is not scored by its response processing.
 */
export function answerFromResponses(
  parsed: QtiItemResult,
  responses: ReadonlyMap<string, readonly string[]>,
): unknown {
  const task = parsed.item.task;
  const scoring = task?.scoring as QtiScoring | undefined;
  if (!task || scoring?.method !== 'qti') return null;
  const declared = new Map(scoring.responses.map((r) => [r.id, r]));
  const rename = (id: string) => parsed.ids.get(id) ?? id;
  const valueOf = (slot: QtiSlot, responseId: string) => {
    const decl = declared.get(responseId);
    const raw = responses.get(responseId);
    if (!decl || !raw) return undefined;
    const values = raw.map((v) => renameValue(decl.baseType, v, rename));
    const answer = answerFromQti(slot, decl, values);
    return answer === null ? undefined : answer;
  };
  if ('response' in scoring.bind) return valueOf(task.answerType as QtiSlot, scoring.bind.response) ?? null;
  const content = task.content as {
    blanks?: { id: string; kind: string }[];
    parts?: { id: string; answerType: string }[];
  };
  const slots = new Map<string, QtiSlot>(
    task.answerType === 'cloze'
      ? (content.blanks ?? []).map((b) => [b.id, `gap_${b.kind}` as QtiSlot])
      : (content.parts ?? []).map((p) => [p.id, p.answerType as QtiSlot]),
  );
  const out: Record<string, unknown> = {};
  for (const [id, responseId] of Object.entries(scoring.bind.parts)) {
    const slot = slots.get(id);
    const v = slot ? valueOf(slot, responseId) : undefined;
    if (v !== undefined) out[id] = v;
  }
  return out;
}
