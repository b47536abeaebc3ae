/**
 * One task of a result as the participant saw it: the text sanitized with its markup (super- and
 * subscripts, MathML, TeX), the answers in their places (a cloze's gaps, a gap match's words, the
 * chosen spans of a hottext) or beside the options, and — once the keys are shown — each piece
 * marked right or wrong by an icon and a word (never by colour alone) with the correct answer
 * beside a wrong one; then the experts' criteria marks and comments.
 */
import { Badge, List, Stack, Table, Text } from '@mantine/core';
import type { ResultVariant } from '@attesta/contract';
import type { ReactNode } from 'react';
import { FilledHtml } from '../../../components/answers/filled-html';
import { RichHtml } from '../../../components/answers/rich-html';
import type { LooseT } from '../../../components/data-table/use-bundle-t';
import type { useDownload } from '../../../components/data-table/use-download';
import { LoadingButton } from '../../../components/ui/loading-button';
import type { Language } from '../../../lib/format';
import { useFileInfos } from '../../../components/answers/file-infos';
import { filePath } from '../api/files-api';
import { answerFileIds, answerLines, blankLabel, numberText, referenceLines } from '../lib/answer-text';
import './results.css';

type Detail = ResultVariant['tasks'][number];
type Content = Record<string, unknown>;
interface Labelled {
  id: string;
  html: string;
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function labelled(content: Content, key: string): Labelled[] {
  const list = content[key];
  return Array.isArray(list)
    ? list.filter((x): x is Labelled => isRecord(x) && typeof x.id === 'string' && typeof x.html === 'string')
    : [];
}
const idsOf = (content: Content, key: string): string[] =>
  Array.isArray(content[key])
    ? (content[key] as unknown[]).flatMap((x) => (isRecord(x) && typeof x.id === 'string' ? [x.id] : []))
    : [];
const strings = (v: unknown): string[] =>
  Array.isArray(v) ? v.map(String) : typeof v === 'string' ? [v] : [];

/** Right or wrong, by an icon and a word. */
export function Verdict({ ok, t }: { ok: boolean; t: LooseT }) {
  return (
    <span className="result-verdict" data-verdict={ok ? 'right' : 'wrong'} data-testid="result-verdict">
      <span aria-hidden="true">{ok ? '✓' : '✗'}</span>{' '}
      {t(ok ? 'results.review.right' : 'results.review.wrong')}
    </span>
  );
}

/** A word beside a piece («ваш выбор», «правильный вариант»), in brackets. */
const Note = ({ children }: { children: ReactNode }) => <span className="result-note">({children})</span>;

/** An html label shown inline (an option, a word, a span of the text): its markup kept. */
const Inline = ({ html }: { html: string }) => <RichHtml as="span" html={html} className="result-inline" />;

function labelNode(items: Labelled[], id: unknown): ReactNode {
  const item = items.find((x) => x.id === id);
  return item ? <Inline html={item.html} /> : String(id);
}

interface Ctx {
  t: LooseT;
  lang: Language;
  /** The keys are shown: references, solutions, marks. */
  keys: boolean;
}

/** A piece of the answer in its place: what was given, its mark, and the correct answer beside a wrong one. */
function Piece({
  testId,
  given,
  ok,
  correct,
  ctx,
}: {
  testId: string;
  given: ReactNode | null;
  ok: boolean | undefined;
  correct: ReactNode | null;
  ctx: Ctx;
}) {
  const { t, keys } = ctx;
  return (
    <span
      className="result-piece"
      data-testid={testId}
      data-verdict={ok === undefined ? undefined : ok ? 'right' : 'wrong'}
    >
      <span className="result-piece-given">
        {given ?? <span className="result-piece-empty">{t('results.review.empty')}</span>}
      </span>
      {keys && ok !== undefined && <Verdict ok={ok} t={t} />}
      {keys && ok !== true && correct !== null && (
        <span className="result-piece-correct" data-testid={`${testId}-correct`}>
          {t('results.review.correctIs')} {correct}
        </span>
      )}
    </span>
  );
}

function ClozeReview({ detail, ctx }: { detail: Detail; ctx: Ctx }) {
  const content = detail.content as Content;
  const value = isRecord(detail.answer?.value) ? detail.answer.value : {};
  const key = isRecord(detail.reference) && isRecord(detail.reference.blanks) ? detail.reference.blanks : {};
  const checks = detail.checks ?? null;
  return (
    <FilledHtml
      html={detail.html}
      ids={idsOf(content, 'blanks')}
      className="result-filled"
      fill={(id) => {
        const raw = typeof value[id] === 'string' ? (value[id] as string).trim() : '';
        const accepted = strings(key[id]);
        return (
          <Piece
            testId={`result-gap-${id}`}
            given={raw ? blankLabel(content, id, raw, ctx.lang) : null}
            ok={checks?.[id] ?? (raw ? undefined : false)}
            correct={
              accepted.length ? accepted.map((v) => blankLabel(content, id, v, ctx.lang)).join(' / ') : null
            }
            ctx={ctx}
          />
        );
      }}
    />
  );
}

function GapMatchReview({ detail, ctx }: { detail: Detail; ctx: Ctx }) {
  const content = detail.content as Content;
  const value = isRecord(detail.answer?.value) ? detail.answer.value : {};
  const pairs = isRecord(detail.reference) && isRecord(detail.reference.pairs) ? detail.reference.pairs : {};
  const words = labelled(content, 'words');
  return (
    <FilledHtml
      html={detail.html}
      ids={idsOf(content, 'gaps')}
      className="result-filled"
      fill={(id) => {
        const given = value[id];
        const expected = pairs[id];
        return (
          <Piece
            testId={`result-gap-${id}`}
            given={typeof given === 'string' ? labelNode(words, given) : null}
            ok={detail.checks?.[id] ?? (ctx.keys ? (given ?? null) === (expected ?? null) : undefined)}
            correct={typeof expected === 'string' ? labelNode(words, expected) : null}
            ctx={ctx}
          />
        );
      }}
    />
  );
}

function HottextReview({ detail, ctx }: { detail: Detail; ctx: Ctx }) {
  const { t, keys } = ctx;
  const content = detail.content as Content;
  const chosen = strings(detail.answer?.value);
  const correct = isRecord(detail.reference) ? strings(detail.reference.correct) : [];
  const choices = labelled(content, 'choices');
  return (
    <FilledHtml
      html={detail.html}
      ids={choices.map((c) => c.id)}
      className="result-filled"
      fill={(id) => {
        const picked = chosen.includes(id);
        const right = correct.includes(id);
        return (
          <span
            className="result-hottext"
            data-chosen={picked || undefined}
            data-testid={`result-choice-${id}`}
          >
            {labelNode(choices, id)}
            {picked && !keys && <Note>{t('results.review.chosen')}</Note>}
            {picked && keys && <Verdict ok={right} t={t} />}
            {!picked && keys && right && <Note>{t('results.review.missed')}</Note>}
          </span>
        );
      }}
    />
  );
}

function ChoiceReview({ detail, ctx }: { detail: Detail; ctx: Ctx }) {
  const { t, keys } = ctx;
  const options = labelled(detail.content as Content, 'options');
  const chosen = strings(detail.answer?.value);
  const correct = isRecord(detail.reference) ? strings(detail.reference.correct) : [];
  return (
    <List listStyleType="none" spacing={4} className="result-options">
      {options.map((o) => {
        const picked = chosen.includes(o.id);
        const right = correct.includes(o.id);
        return (
          <List.Item key={o.id} data-testid={`result-option-${o.id}`} data-chosen={picked || undefined}>
            <span className="result-option">
              <span aria-hidden="true" className="result-mark">
                {picked ? '●' : '○'}
              </span>
              <Inline html={o.html} />
              {picked && <Note>{t('results.review.chosen')}</Note>}
              {picked && keys && <Verdict ok={right} t={t} />}
              {!picked && keys && right && <Note>{t('results.review.isCorrect')}</Note>}
            </span>
          </List.Item>
        );
      })}
    </List>
  );
}

function OrderingReview({ detail, ctx }: { detail: Detail; ctx: Ctx }) {
  const items = labelled(detail.content as Content, 'items');
  const given = strings(detail.answer?.value);
  const order = isRecord(detail.reference) ? strings(detail.reference.order) : [];
  if (!given.length) return <Text c="dimmed">{ctx.t('results.page.noAnswer')}</Text>;
  return (
    <List type="ordered" spacing={4}>
      {given.map((id, i) => (
        <List.Item key={`${id}-${i}`} data-testid="result-order-item">
          <Piece
            testId={`result-position-${i + 1}`}
            given={labelNode(items, id)}
            ok={ctx.keys && order.length ? order[i] === id : undefined}
            correct={order[i] !== undefined ? labelNode(items, order[i]) : null}
            ctx={ctx}
          />
        </List.Item>
      ))}
    </List>
  );
}

function MatchingReview({ detail, ctx }: { detail: Detail; ctx: Ctx }) {
  const content = detail.content as Content;
  const left = labelled(content, 'left');
  const right = labelled(content, 'right');
  const value = isRecord(detail.answer?.value) ? detail.answer.value : {};
  const pairs = isRecord(detail.reference) && isRecord(detail.reference.pairs) ? detail.reference.pairs : {};
  return (
    <List listStyleType="none" spacing={4}>
      {left.map((l) => {
        const given = value[l.id];
        const expected = pairs[l.id];
        return (
          <List.Item key={l.id} data-testid={`result-pair-${l.id}`}>
            <Inline html={l.html} /> →{' '}
            <Piece
              testId={`result-match-${l.id}`}
              given={typeof given === 'string' ? labelNode(right, given) : null}
              ok={
                detail.checks?.[l.id] ?? (ctx.keys && expected !== undefined ? given === expected : undefined)
              }
              correct={typeof expected === 'string' ? labelNode(right, expected) : null}
              ctx={ctx}
            />
          </List.Item>
        );
      })}
    </List>
  );
}

/** One typed value (short text, number, digits): the answer, its mark by the points, the key. */
function ValueReview({ detail, ctx }: { detail: Detail; ctx: Ctx }) {
  const lines = answerLines(
    detail.answerType,
    detail.content as Content,
    detail.answer?.value,
    ctx.t,
    ctx.lang,
  );
  const key = ctx.keys
    ? referenceLines(detail.answerType, detail.content as Content, detail.reference, ctx.t, ctx.lang)
    : [];
  const ok = ctx.keys && detail.score !== null && key.length ? detail.score >= detail.maxScore : undefined;
  return (
    <Piece
      testId="result-value"
      given={lines.length ? lines.join('; ') : null}
      ok={ok}
      correct={key.length ? key.join('; ') : null}
      ctx={ctx}
    />
  );
}

/** Everything else (associate, hotspot, composite parts, written answers): readable lines. */
function LinesReview({ detail, ctx }: { detail: Detail; ctx: Ctx }) {
  const { t, lang, keys } = ctx;
  const content = detail.content as Content;
  const lines = answerLines(detail.answerType, content, detail.answer?.value, t, lang);
  const key = keys ? referenceLines(detail.answerType, content, detail.reference, t, lang) : [];
  return (
    <Stack gap={4}>
      {lines.map((line, i) => (
        <Text key={i} style={{ whiteSpace: 'pre-wrap' }} data-testid="result-answer-line">
          {line}
        </Text>
      ))}
      {key.length > 0 && (
        <div>
          <Text fw={600} size="sm">
            {t('results.page.reference')}
          </Text>
          {key.map((line, i) => (
            <Text key={i} data-testid="result-reference-line">
              {line}
            </Text>
          ))}
        </div>
      )}
    </Stack>
  );
}

/** The experts' final mark: each criterion's mark out of its maximum, and their comments as plain text. */
function GradingReview({ grading, ctx }: { grading: NonNullable<Detail['grading']>; ctx: Ctx }) {
  const { t, lang } = ctx;
  return (
    <div data-testid="result-grading">
      <Text fw={600} size="sm">
        {t('results.review.grading')}
      </Text>
      {grading.criteria.length > 0 && (
        <Table withTableBorder mt={4} data-testid="result-criteria">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('results.review.criterion')}</Table.Th>
              <Table.Th>{t('results.review.criterionMark')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {grading.criteria.map((c) => (
              <Table.Tr key={c.code} data-testid={`result-criterion-${c.code}`}>
                <Table.Td>
                  {c.code} — {c.text}
                </Table.Td>
                <Table.Td>
                  {t('results.review.markOf', {
                    score: numberText(c.score, lang),
                    max: numberText(c.maxScore, lang),
                  })}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {grading.comments.length > 0 && (
        <Stack gap={4} mt="xs">
          <Text fw={600} size="sm">
            {t('results.review.comments')}
          </Text>
          {grading.comments.map((c, i) => (
            <Text key={i} className="result-comment" data-testid="result-comment">
              {c}
            </Text>
          ))}
        </Stack>
      )}
    </div>
  );
}

function AnswerReview({ detail, ctx }: { detail: Detail; ctx: Ctx }) {
  switch (detail.answerType) {
    case 'cloze':
      return <ClozeReview detail={detail} ctx={ctx} />;
    case 'gap_match':
      return <GapMatchReview detail={detail} ctx={ctx} />;
    case 'hottext':
      return <HottextReview detail={detail} ctx={ctx} />;
    case 'single_choice':
    case 'multiple_choice':
      return <ChoiceReview detail={detail} ctx={ctx} />;
    case 'ordering':
      return <OrderingReview detail={detail} ctx={ctx} />;
    case 'matching':
      return <MatchingReview detail={detail} ctx={ctx} />;
    case 'short_text':
    case 'number':
    case 'digit_sequence':
      return <ValueReview detail={detail} ctx={ctx} />;
    default:
      return <LinesReview detail={detail} ctx={ctx} />;
  }
}

/** Types whose answers stand in the task text itself. */
const IN_TEXT = ['cloze', 'gap_match', 'hottext'];
/** Types whose review shows an empty answer itself, with the key beside it. */
const SHOWS_EMPTY = [
  'single_choice',
  'multiple_choice',
  'matching',
  'short_text',
  'number',
  'digit_sequence',
];

export function TaskReview({
  detail,
  keys,
  t,
  lang,
  download,
}: {
  detail: Detail;
  keys: boolean;
  t: LooseT;
  lang: Language;
  download: ReturnType<typeof useDownload>;
}) {
  const ctx: Ctx = { t, lang, keys };
  const files = detail.answer ? answerFileIds(detail.answer.value, detail.answer.fileIds) : [];
  const fileInfos = useFileInfos(files);
  const inText = IN_TEXT.includes(detail.answerType);
  const composite = detail.answerType === 'composite';
  const answered = detail.answer !== null && (detail.answer.value !== null || files.length > 0);
  return (
    <Stack gap="sm">
      {inText ? (
        <AnswerReview detail={detail} ctx={ctx} />
      ) : composite ? (
        // The parts' places are marked in the text; their answers follow, part by part.
        <FilledHtml
          html={detail.html}
          ids={idsOf(detail.content as Content, 'parts')}
          className="result-filled"
          fill={(id) => (
            <Badge variant="outline" tt="none" component="span">
              {t('results.answer.part', { n: idsOf(detail.content as Content, 'parts').indexOf(id) + 1 })}
            </Badge>
          )}
        />
      ) : (
        <RichHtml html={detail.html} className="task-html" />
      )}
      {!inText && (
        <div>
          <Text fw={600} size="sm">
            {t('results.page.yourAnswer')}
          </Text>
          {!answered && !SHOWS_EMPTY.includes(detail.answerType) ? (
            <>
              <Text c="dimmed">{t('results.page.noAnswer')}</Text>
              {keys && <AnswerKeyOnly detail={detail} ctx={ctx} />}
            </>
          ) : (
            <AnswerReview detail={detail} ctx={ctx} />
          )}
          {files.length > 0 && (
            <Stack gap={4} mt={4} align="flex-start">
              {files.map((id, i) => {
                // Under the name it was attached with; by its place while that is not known.
                const name = fileInfos.get(id)?.name;
                return (
                  <LoadingButton
                    key={id}
                    size="xs"
                    variant="default"
                    onClick={() => download(filePath(id), undefined, name ?? `file-${i + 1}`)}
                    data-testid={`result-file-${id}`}
                  >
                    {name ?? t('results.page.file', { n: i + 1 })}
                  </LoadingButton>
                );
              })}
            </Stack>
          )}
        </div>
      )}
      {detail.solutionHtml && (
        <div>
          <Text fw={600} size="sm">
            {t('results.page.solution')}
          </Text>
          <RichHtml html={detail.solutionHtml} className="task-html" />
        </div>
      )}
      {detail.grading && <GradingReview grading={detail.grading} ctx={ctx} />}
    </Stack>
  );
}

/** No answer was given: the key alone, where the task has one. */
function AnswerKeyOnly({ detail, ctx }: { detail: Detail; ctx: Ctx }) {
  const key = referenceLines(detail.answerType, detail.content as Content, detail.reference, ctx.t, ctx.lang);
  if (!key.length) return null;
  return (
    <div>
      <Text fw={600} size="sm">
        {ctx.t('results.page.reference')}
      </Text>
      {key.map((line, i) => (
        <Text key={i} data-testid="result-reference-line">
          {line}
        </Text>
      ))}
    </div>
  );
}
