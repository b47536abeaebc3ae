import { DEVICE_HEADER } from '@attesta/contract';
import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiError, fakeServer, json, renderApp, users, type Handler } from '../../../test/test-app';
import { DEVICE_ID_KEY } from '../../../lib/device-id';
import { currentTest, variant, workState } from '../test-fixtures';

// The runner's first render loads KaTeX and Mantine: give slow CI machines time.
configure({ asyncUtilTimeout: 5000 });
vi.setConfig({ testTimeout: 20_000 });

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
  localStorage.clear();
});
afterEach(() => vi.unstubAllGlobals());

const techSpec = (ok: boolean) => ({
  ok,
  serverTime: new Date().toISOString(),
  checks: [
    {
      id: 'browser',
      outcome: 'ok',
      ok: true,
      warning: false,
      value: 'Chrome 120',
      requirement: 'Chrome 90+',
      message: 'server wording, never shown',
    },
    {
      id: 'screen',
      outcome: ok ? 'ok' : 'small',
      ok,
      warning: false,
      value: '300×200',
      requirement: '1024×600',
      message: 'server wording, never shown',
    },
  ],
  probe: { url: '/api/user/checkTechSpec?probe=1&bytes=1024', bytes: 1024 },
});

/** The device check's verdict the fake server gives; a test may change it between checks. */
let deviceOk = true;
beforeEach(() => {
  deviceOk = true;
});

function participant(extra: Record<string, Handler>) {
  return fakeServer({
    'GET /api/user': () => json(200, users.participant),
    'GET /api/user/sessionTime': () => json(200, '2030-01-01T12:00:00.000Z'),
    'GET /api/exam/test/description/11': () =>
      json(200, { subjectTestId: 11, html: '<p>Работа по математике</p>' }),
    'GET /api/test/procedure/11': () =>
      json(200, { subjectTestId: 11, html: '<p>Правила <img src=x onerror="alert(1)"></p>' }),
    'GET /api/user/checkTechSpec': ({ url }) =>
      url.includes('probe=1') ? new Response(new Uint8Array(1024)) : json(200, techSpec(deviceOk)),
    'GET /api/exam/test/examwork/timeBefore': () =>
      json(200, {
        seconds: 0,
        startsAt: '2030-01-01T06:00:00.000Z',
        endsAt: '2099-01-01T15:00:00.000Z',
        serverTime: new Date().toISOString(),
      }),
    ...extra,
  });
}

describe('the test start page', () => {
  it('shows the test, the sanitized procedure before the start and the device check; a failed check blocks the start until it passes', async () => {
    deviceOk = false;
    const work = workState(900);
    let started: typeof work | null = null;
    const server = participant({
      'GET /api/exam/test/currentParticipantTest': () => json(200, currentTest(started)),
      'POST /api/exam/test/examwork/new': () => {
        started = work;
        return json(200, work);
      },
      'GET /api/exam/test/variant/current': () => json(200, variant),
      'GET /api/exam/test/examwork/900': () => json(200, work),
    });
    const { router } = renderApp('/participant');
    expect(await screen.findByTestId('role-home-participant')).toBeInTheDocument();
    expect(await screen.findByTestId('participant-test')).toHaveTextContent('Математика, 7 класс');
    const procedure = await screen.findByText('Правила');
    expect(procedure.innerHTML).not.toContain('onerror');
    // The procedure is read first: it comes before «Начать работу» in the page.
    expect(
      procedure.compareDocumentPosition(screen.getByTestId('start-work')) & Node.DOCUMENT_POSITION_FOLLOWING,
    ).toBeTruthy();
    expect(
      screen.getByTestId('tech-check').compareDocumentPosition(screen.getByTestId('start-work')) &
        Node.DOCUMENT_POSITION_FOLLOWING,
    ).toBeTruthy();
    expect(await screen.findByTestId('tech-warning')).toBeInTheDocument();
    expect(screen.getByTestId('tech-screen')).toHaveAttribute('data-state', 'fail');
    // Worded by the client from the outcome code, not the server's text.
    expect(screen.getByTestId('tech-screen')).toHaveTextContent(
      'Экран слишком мал для прохождения теста: его меньшая сторона должна быть не менее 320 пикселей (удобнее всего — от 1024×600)',
    );
    expect(screen.getByTestId('tech-browser')).toHaveTextContent('Браузер подходит');
    expect(screen.queryByText(/server wording/)).toBeNull();
    const first = server.callsTo('GET /api/user/checkTechSpec')[0]!.url;
    expect(first).toMatch(/screenWidth=\d+/);
    expect(first).toMatch(/indexedDb=(true|false)/);
    expect(first).toMatch(/clientTime=/);
    await waitFor(() =>
      expect(server.callsTo('GET /api/user/checkTechSpec').some((c) => c.url.includes('downloadMs='))).toBe(
        true,
      ),
    );

    // A failed check blocks the start, says why, and offers to check again.
    expect(screen.getByTestId('start-work')).toBeDisabled();
    expect(screen.getByTestId('start-blockers')).toHaveTextContent(
      'Компьютер не прошёл проверку (Экран): исправьте и проверьте снова.',
    );
    await userEvent.click(screen.getByTestId('start-work'));
    expect(server.callsTo('POST /api/exam/test/examwork/new')).toHaveLength(0);

    // Fixed (a bigger screen): checked again, it passes and the start opens.
    deviceOk = true;
    await userEvent.click(screen.getByTestId('tech-retry'));
    await waitFor(() => expect(screen.getByTestId('start-work')).toBeEnabled());
    expect(screen.queryByTestId('start-blockers')).toBeNull();
    expect(screen.queryByTestId('tech-retry')).toBeNull();
    expect(screen.getByTestId('tech-screen')).toHaveAttribute('data-state', 'ok');

    await userEvent.click(screen.getByTestId('start-work'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/participant/work'));
    const call = server.callsTo('POST /api/exam/test/examwork/new')[0]!;
    expect(call.body).toEqual({});
    const deviceId = localStorage.getItem(DEVICE_ID_KEY);
    expect(deviceId).toBeTruthy();
    expect(call.headers[DEVICE_HEADER]).toBe(deviceId);
    expect(await screen.findByTestId('task-1', {}, { timeout: 5000 })).toBeInTheDocument();
  });

  it('asks for the participant card first and saves it', async () => {
    let complete = false;
    const server = participant({
      'GET /api/exam/test/currentParticipantTest': () =>
        json(
          200,
          currentTest(null, {
            participant: {
              displayName: 'Участник',
              className: null,
              schoolName: null,
              cardComplete: complete,
              accommodations: null,
            },
          }),
        ),
      'PUT /api/user/saveParticipant': () => {
        complete = true;
        return json(200, {
          participantTestId: 77,
          studentId: 5,
          schoolId: 1,
          surname: 'Петров',
          name: 'Пётр',
          patronymic: null,
          birthDate: '2012-05-04',
          classId: 3,
          className: '7 «А»',
        });
      },
    });
    renderApp('/participant');
    const form = await screen.findByTestId('participant-card');
    expect(screen.getByTestId('start-work')).toBeDisabled();
    await userEvent.type(within(form).getByLabelText(/Фамилия/), 'Петров');
    await userEvent.type(within(form).getByLabelText(/^Имя/), 'Пётр');
    await userEvent.type(within(form).getByLabelText(/Дата рождения/), '2012-05-04');
    await userEvent.click(screen.getByTestId('save-card'));
    await waitFor(() =>
      expect(server.callsTo('PUT /api/user/saveParticipant')[0]?.body).toEqual({
        surname: 'Петров',
        name: 'Пётр',
        birthDate: '2012-05-04',
      }),
    );
    await waitFor(() => expect(screen.queryByTestId('participant-card')).toBeNull());
    expect(screen.getByTestId('start-work')).toBeEnabled();
  });

  it('blocks the start while the device check cannot run, until it runs', async () => {
    let reachable = false;
    participant({
      'GET /api/exam/test/currentParticipantTest': () => json(200, currentTest(null)),
      'GET /api/user/checkTechSpec': ({ url }) =>
        !reachable
          ? apiError(503, 'unavailable')
          : url.includes('probe=1')
            ? new Response(new Uint8Array(1024))
            : json(200, techSpec(true)),
    });
    renderApp('/participant');
    expect(await screen.findByTestId('tech-check-failed')).toBeInTheDocument();
    expect(screen.getByTestId('start-work')).toBeDisabled();
    expect(screen.getByTestId('start-blockers')).toHaveTextContent('Проверка компьютера не выполнена');
    reachable = true;
    await userEvent.click(screen.getByTestId('tech-retry'));
    await waitFor(() => expect(screen.getByTestId('start-work')).toBeEnabled());
  });

  it('counts down to the start window', async () => {
    participant({
      'GET /api/exam/test/currentParticipantTest': () => json(200, currentTest(null)),
      'GET /api/exam/test/examwork/timeBefore': () =>
        json(200, {
          seconds: 125,
          startsAt: '2030-01-01T06:00:00.000Z',
          endsAt: '2099-01-01T15:00:00.000Z',
          serverTime: new Date().toISOString(),
        }),
    });
    renderApp('/participant');
    expect(await screen.findByTestId('time-before')).toHaveTextContent('02:05');
    expect(screen.getByTestId('start-work')).toBeDisabled();
  });

  it('the late starter: the results are published, so the start is closed and says why', async () => {
    const server = participant({
      'GET /api/exam/test/currentParticipantTest': () =>
        json(
          200,
          currentTest(null, {
            status: 'absent',
            diagnostic: {
              ...currentTest(null).diagnostic,
              resultsPublished: true,
              closedByPublication: true,
            },
          }),
        ),
    });
    renderApp('/participant');
    expect(await screen.findByTestId('start-blockers')).toHaveTextContent(
      'Результаты этой диагностики уже опубликованы, поэтому начать работу нельзя.',
    );
    expect(screen.getByTestId('start-work')).toBeDisabled();
    expect(server.callsTo('POST /api/exam/test/examwork/new')).toHaveLength(0);
  });

  it('offers «Продолжить работу» when a work exists', async () => {
    participant({
      'GET /api/exam/test/currentParticipantTest': () => json(200, currentTest(workState(901))),
    });
    renderApp('/participant');
    expect(await screen.findByTestId('continue-work')).toHaveTextContent('Продолжить работу');
    expect(screen.queryByTestId('start-work')).toBeNull();
  });

  // Issue 23, item 6: the start page shows the candidate's own time and says what a state means.
  it('shows the duration with the extra time of the accommodations before the start', async () => {
    const accommodations = {
      extraTimePercent: 50,
      largeText: false,
      theme: 'default' as const,
      lineReader: false,
      textToSpeech: false,
      restBreakMinutes: 0,
    };
    participant({
      'GET /api/exam/test/currentParticipantTest': () =>
        json(
          200,
          currentTest(null, {
            participant: { ...currentTest(null).participant, accommodations },
          }),
        ),
    });
    renderApp('/participant');
    // 45 minutes and half of it again: 22 min 30 s.
    expect(await screen.findByTestId('test-duration')).toHaveTextContent(
      '1 ч 7 мин 30 с (45 мин и 22 мин 30 с дополнительного времени)',
    );
    expect(screen.getByTestId('start-hint')).toHaveTextContent(
      'На работу отводится 1 ч 7 мин 30 с с учётом дополнительного времени.',
    );
  });

  it('takes a started work’s own time (staff may have added some)', async () => {
    participant({
      'GET /api/exam/test/currentParticipantTest': () =>
        json(200, currentTest(workState(903, { timeLimitSeconds: 2700, extraSeconds: 600 }))),
    });
    renderApp('/participant');
    expect(await screen.findByTestId('test-duration')).toHaveTextContent(
      '55 мин (45 мин и 10 мин дополнительного времени)',
    );
  });

  it('without extra time keeps the plain minutes', async () => {
    participant({ 'GET /api/exam/test/currentParticipantTest': () => json(200, currentTest(null)) });
    renderApp('/participant');
    expect(await screen.findByTestId('test-duration')).toHaveTextContent(/^45 минут$/);
  });

  it('says a finished work waits for publication, and what to do meanwhile', async () => {
    participant({
      'GET /api/exam/test/currentParticipantTest': () =>
        json(200, currentTest(workState(904, { status: 'finished', finishReason: 'manual' }))),
    });
    renderApp('/participant');
    const state = await screen.findByTestId('work-already-finished');
    expect(state).toHaveAttribute('data-state', 'finished');
    expect(state).toHaveTextContent('Работа завершена');
    expect(state).toHaveTextContent('Результаты появятся в разделе «Мои результаты», когда их опубликуют');
    expect(within(state).queryByTestId('open-result')).toBeNull();
  });

  it('says the results are published and leads to them', async () => {
    const base = currentTest(workState(905, { status: 'finished', finishReason: 'manual' }));
    participant({
      'GET /api/exam/test/currentParticipantTest': () =>
        json(200, { ...base, diagnostic: { ...base.diagnostic, resultsPublished: true } }),
      'GET /api/examresults/my': () => json(200, []),
    });
    const { router } = renderApp('/participant');
    const state = await screen.findByTestId('work-already-finished');
    expect(state).toHaveAttribute('data-state', 'published');
    expect(state).toHaveTextContent('Результаты опубликованы');
    await userEvent.click(within(state).getByTestId('open-result'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/participant/result'));
  });

  it('keeps the «not yet» message while the server has no runner', async () => {
    participant({ 'GET /api/exam/test/currentParticipantTest': () => apiError(501, 'not_implemented') });
    renderApp('/participant');
    expect(await screen.findByTestId('test-coming-soon')).toBeInTheDocument();
  });

  it('tells a second device the work is open elsewhere, before any runner opens', async () => {
    participant({
      'GET /api/exam/test/currentParticipantTest': () =>
        json(200, { ...currentTest(workState(902)), openElsewhere: true }),
    });
    renderApp('/participant');
    expect(await screen.findByTestId('open-elsewhere')).toHaveTextContent('попросите организатора');
    expect(screen.queryByTestId('continue-work')).toBeNull();
    expect(screen.queryByTestId('start-work')).toBeNull();
  });
});
