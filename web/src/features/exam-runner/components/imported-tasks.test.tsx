import 'fake-indexeddb/auto';
import { answerValueSchemaFor, type ParticipantVariant } from '@attesta/contract';
import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeServer, json, renderApp, users } from '../../../test/test-app';
import { currentTest, workState } from '../test-fixtures';

configure({ asyncUtilTimeout: 5000 });
vi.setConfig({ testTimeout: 20_000 });

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
  sessionStorage.clear();
  localStorage.clear();
});
afterEach(() => vi.unstubAllGlobals());

/** A variant of imported tasks as the server serves them (presenter: public content only). */
const variant: ParticipantVariant = {
  id: 4,
  number: 1,
  subjectTestId: 11,
  subjectTestName: 'География',
  instructionHtml: null,
  tasks: [
    {
      variantTaskId: 201,
      position: 1,
      answerType: 'gap_match',
      html: '<p>Столица России — {{g1}}.</p>',
      content: {
        words: [
          { id: 'w1', html: 'Москва', matchMax: 1 },
          { id: 'w2', html: 'Тверь', matchMax: 1 },
        ],
        gaps: [{ id: 'g1' }],
        shuffle: false,
      },
      maxScore: 1,
      files: [],
      htmlContainerId: null,
    },
    {
      variantTaskId: 202,
      position: 2,
      answerType: 'hotspot',
      html: '<p>Отметьте Москву на карте.</p>',
      content: {
        image: { fileId: 31, width: 400, height: 300, alt: 'Карта' },
        areas: [
          { id: 'a1', shape: 'circle', coords: [100, 100, 20] },
          { id: 'a2', shape: 'rect', coords: [200, 50, 260, 90] },
        ],
        select: 'areas',
      },
      maxScore: 1,
      files: [
        { id: 31, name: 'map.png', mime: 'image/png' },
        { id: 32, name: 'legend.png', mime: 'image/png' },
      ],
      htmlContainerId: null,
    },
    {
      variantTaskId: 203,
      position: 3,
      answerType: 'composite',
      html: '<p>Река {{p1}} длиной {{p2}} км.</p>',
      content: {
        parts: [
          { id: 'p1', answerType: 'short_text', content: { maxLength: 50 } },
          { id: 'p2', answerType: 'number', content: {} },
        ],
      },
      maxScore: 2,
      files: [],
      htmlContainerId: null,
    },
  ],
};

function runningWork() {
  const id = 900;
  const work = workState(id);
  const saves: { variantTaskId: number; value: unknown; seq: number }[] = [];
  const server = fakeServer({
    'GET /api/user': () => json(200, users.participant),
    'GET /api/user/sessionTime': () => json(200, '2030-01-01T12:00:00.000Z'),
    'GET /api/exam/test/currentParticipantTest': () => json(200, currentTest(work)),
    'GET /api/exam/test/variant/current': () => json(200, variant),
    [`GET /api/exam/test/examwork/${id}`]: () => json(200, { ...work, serverTime: new Date().toISOString() }),
    [`GET /api/exam/test/examwork/left/${id}`]: () =>
      json(200, {
        examWorkId: id,
        secondsLeft: 3600,
        deadlineAt: work.deadlineAt,
        status: 'in_progress',
        paused: false,
        serverTime: new Date().toISOString(),
      }),
    'PUT /api/exam/test/saveanswer': ({ body }) => {
      const b = body as { variantTaskId: number; value: unknown; seq: number };
      saves.push(b);
      return json(200, { seq: b.seq, savedAt: new Date().toISOString() });
    },
  });
  return { server, saves };
}

describe('the runner with imported answer types', () => {
  it('shows each task once with its own input and saves the contract value shapes', async () => {
    const { saves } = runningWork();
    renderApp('/participant/work');
    const first = await screen.findByTestId('task-1', {}, { timeout: 5000 });
    // The gap-match input shows the text itself: once, with the gap in place.
    expect(within(first).getAllByText(/Столица России/)).toHaveLength(1);
    expect(within(first).queryByText(/\{\{g1\}\}/)).toBeNull();
    await userEvent.selectOptions(within(first).getByRole('combobox', { name: 'Пропуск 1' }), 'w1');
    await waitFor(() => expect(saves).toHaveLength(1), { timeout: 3000 });
    expect(saves[0]).toMatchObject({ variantTaskId: 201, value: { g1: 'w1' } });
    await waitFor(() => expect(screen.getByTestId('task-nav-1')).toHaveAttribute('data-answered'));

    await userEvent.click(screen.getByTestId('next-task'));
    const second = await screen.findByTestId('task-2');
    // The hotspot picture is drawn under its areas, not listed again; other pictures still are.
    expect(second.querySelectorAll('img.task-image')).toHaveLength(1);
    expect(within(second).getByRole('img', { name: 'legend.png' })).toBeInTheDocument();
    expect(second.querySelector('svg image')).toHaveAttribute('href', '/api/files/31');
    await userEvent.click(within(second).getByRole('button', { name: 'Область 2' }));
    await waitFor(() => expect(saves).toHaveLength(2), { timeout: 3000 });
    expect(saves[1]).toMatchObject({ variantTaskId: 202, value: ['a2'] });

    await userEvent.click(screen.getByTestId('next-task'));
    const third = await screen.findByTestId('task-3');
    expect(within(third).getAllByText(/Река/)).toHaveLength(1);
    await userEvent.type(within(third).getByRole('textbox', { name: 'Пропуск 1' }), 'Волга');
    await userEvent.type(within(third).getByRole('textbox', { name: 'Пропуск 2 (число)' }), '3530');
    await userEvent.click(screen.getByTestId('prev-task'));
    await waitFor(() => expect(saves.at(-1)).toMatchObject({ variantTaskId: 203 }), { timeout: 3000 });
    expect(saves.at(-1)!.value).toEqual({ p1: 'Волга', p2: '3530' });

    for (const save of saves) {
      const type = variant.tasks.find((x) => x.variantTaskId === save.variantTaskId)!.answerType;
      expect(answerValueSchemaFor(type).safeParse(save.value).success).toBe(true);
    }
  });
});
