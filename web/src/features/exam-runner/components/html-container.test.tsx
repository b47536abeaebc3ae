import 'fake-indexeddb/auto';
import { act, configure, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeServer, json, renderApp, users } from '../../../test/test-app';
import { CONTAINER_HEIGHT } from '../../../components/html-container/container-protocol';
import { currentTest, saved, variant, workState } from '../test-fixtures';
import {
  HtmlContainerFrame,
  type HtmlContainerFrameProps,
} from '../../../components/html-container/html-container-frame';

configure({ asyncUtilTimeout: 5000 });
vi.setConfig({ testTimeout: 20_000 });

beforeEach(() => {
  sessionStorage.clear();
  localStorage.clear();
});
afterEach(() => vi.unstubAllGlobals());

const SRC = '/api/kim/htmlContainer/7/1/index?sig=1.2.3.abc';

function renderFrame(overrides: Partial<HtmlContainerFrameProps> = {}) {
  const onChange = vi.fn();
  const props: HtmlContainerFrameProps = {
    src: SRC,
    title: 'Интерактивное задание 4',
    answerType: 'digit_sequence',
    content: { length: 8 },
    value: '00000001',
    readOnly: false,
    onChange,
    ...overrides,
  };
  const view = render(<HtmlContainerFrame {...props} />);
  const frame = screen.getByTestId('html-container-frame') as HTMLIFrameElement;
  return { ...view, frame, onChange, props };
}

/** A message as the browser delivers it: from `source`, with the sender's origin. */
function post(data: unknown, source: MessageEventSource | null, origin = 'null') {
  act(() => {
    window.dispatchEvent(new MessageEvent('message', { data, origin, source }));
  });
}

describe('the html container frame', () => {
  it('is a scripts-only sandbox with an accessible name, reachable by keyboard', () => {
    const { frame } = renderFrame();
    expect(frame.tagName).toBe('IFRAME');
    expect(frame.getAttribute('sandbox')).toBe('allow-scripts');
    expect(frame.getAttribute('src')).toBe(SRC);
    expect(frame).toHaveAccessibleName('Интерактивное задание 4');
    expect(frame.tabIndex).not.toBe(-1);
    frame.focus();
    expect(frame).toHaveFocus();
    expect(frame.style.height).toBe(`${CONTAINER_HEIGHT.initial}px`);
  });

  it('takes answers only from its own frame, sandboxed, in the shape of the answer type', () => {
    const { frame, onChange } = renderFrame();
    const answer = { type: 'attesta:answer', value: '00101010' };
    // Another window (the page itself, another frame) and a non-sandboxed origin are ignored.
    post(answer, window);
    const stranger = document.createElement('iframe');
    document.body.append(stranger);
    post(answer, stranger.contentWindow);
    post(answer, null);
    post(answer, frame.contentWindow, window.location.origin);
    expect(onChange).not.toHaveBeenCalled();
    // Wrong shapes for a digit sequence, and things that are not protocol messages.
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    post({ type: 'attesta:answer', value: 42 }, frame.contentWindow);
    post({ type: 'attesta:answer', value: 'abc' }, frame.contentWindow);
    post({ type: 'attesta:answer' }, frame.contentWindow);
    post('attesta:answer', frame.contentWindow);
    expect(onChange).not.toHaveBeenCalled();
    expect(warn).toHaveBeenCalledTimes(2);

    post(answer, frame.contentWindow);
    expect(onChange).toHaveBeenCalledTimes(1);
    expect(onChange).toHaveBeenCalledWith('00101010');
    stranger.remove();
  });

  it('grows to the height the container asks for, within bounds', () => {
    const { frame } = renderFrame();
    post({ type: 'attesta:resize', height: 512.4 }, frame.contentWindow);
    expect(frame.style.height).toBe('512px');
    post({ type: 'attesta:resize', height: 1e9 }, frame.contentWindow);
    expect(frame.style.height).toBe(`${CONTAINER_HEIGHT.max}px`);
    post({ type: 'attesta:resize', height: 800 }, window);
    expect(frame.style.height).toBe(`${CONTAINER_HEIGHT.max}px`);
  });

  it('sends init with the saved value after loading and on ready; read-only ignores answers', () => {
    const { frame, onChange, rerender, props } = renderFrame();
    const send = vi.spyOn(frame.contentWindow!, 'postMessage');
    fireEvent.load(frame);
    expect(send).toHaveBeenLastCalledWith(
      {
        type: 'attesta:init',
        protocol: 1,
        answerType: 'digit_sequence',
        content: { length: 8 },
        value: '00000001',
        readOnly: false,
      },
      '*',
    );
    post({ type: 'attesta:ready' }, frame.contentWindow);
    expect(send).toHaveBeenCalledTimes(2);

    // Its own answer coming back as the value is not echoed; a change from outside is.
    post({ type: 'attesta:answer', value: '11' }, frame.contentWindow);
    rerender(<HtmlContainerFrame {...props} value="11" />);
    expect(send).toHaveBeenCalledTimes(2);
    rerender(<HtmlContainerFrame {...props} value="111" />);
    expect(send).toHaveBeenCalledTimes(3);

    rerender(<HtmlContainerFrame {...props} value="111" readOnly />);
    expect(send).toHaveBeenLastCalledWith(expect.objectContaining({ readOnly: true, value: '111' }), '*');
    onChange.mockClear();
    post({ type: 'attesta:answer', value: '0' }, frame.contentWindow);
    expect(onChange).not.toHaveBeenCalled();
  });
});

describe('an interactive task in the runner', () => {
  const containerTask = {
    variantTaskId: 104,
    position: 4,
    answerType: 'digit_sequence' as const,
    html: '<p>Включите лампочки так, чтобы получилось число 42.</p>',
    content: { length: 8 },
    maxScore: 1,
    files: [],
    htmlContainerId: 7,
  };
  const withContainer = { ...variant, tasks: [...variant.tasks, containerTask] };

  function running(containerResponse: () => Response) {
    const work = workState(900 + Math.floor(Math.random() * 1000), {
      answers: [saved(104, '00000001', 2)],
    });
    sessionStorage.setItem(`attesta.task.${work.id}`, '3');
    const saves: { variantTaskId: number; value: unknown; seq: number }[] = [];
    const server = fakeServer({
      'GET /api/user': () => json(200, users.participant),
      'GET /api/user/sessionTime': () => json(200, '2030-01-01T12:00:00.000Z'),
      'GET /api/exam/test/currentParticipantTest': () => json(200, currentTest(work)),
      'GET /api/exam/test/variant/current': () => json(200, withContainer),
      [`GET /api/exam/test/examwork/${work.id}`]: () => json(200, work),
      [`GET /api/exam/test/examwork/left/${work.id}`]: () =>
        json(200, {
          examWorkId: work.id,
          secondsLeft: 2700,
          deadlineAt: work.deadlineAt,
          status: 'in_progress',
          paused: false,
          serverTime: new Date().toISOString(),
        }),
      'GET /api/KimHtmlContainer/7': containerResponse,
      'PUT /api/exam/test/saveanswer': ({ body }) => {
        const b = body as { variantTaskId: number; value: unknown; seq: number };
        saves.push(b);
        return json(200, { seq: b.seq, savedAt: new Date().toISOString() });
      },
    });
    return { saves, server };
  }

  it("shows the container's signed page and saves its answer through the autosave", async () => {
    const { saves } = running(() =>
      json(200, {
        id: 7,
        name: 'Лампочки',
        version: 1,
        entry: 'index.html',
        resources: ['index.html'],
        url: SRC,
        urlExpiresAt: new Date(Date.now() + 1_800_000).toISOString(),
      }),
    );
    renderApp('/participant/work');
    const frame = (await screen.findByTestId(
      'html-container-frame',
      {},
      { timeout: 8000 },
    )) as HTMLIFrameElement;
    expect(frame.getAttribute('src')).toBe(SRC);
    expect(frame).toHaveAccessibleName('Интерактивное задание 4');
    expect(screen.getByText(/число 42/)).toBeInTheDocument();

    post({ type: 'attesta:answer', value: '00101010' }, window);
    post({ type: 'attesta:answer', value: '00101010' }, frame.contentWindow);
    await waitFor(() =>
      expect(saves).toEqual([
        { examWorkId: expect.any(Number), variantTaskId: 104, value: '00101010', seq: 3 },
      ]),
    );
    expect(screen.getByTestId('task-nav-4')).toHaveAttribute('data-answered');
  });

  it('falls back to the ordinary input when the container cannot be loaded', async () => {
    running(() => json(403, { status: 403, code: 'forbidden', message: 'no' }));
    renderApp('/participant/work');
    expect(await screen.findByTestId('container-failed', {}, { timeout: 8000 })).toBeInTheDocument();
    expect(screen.queryByTestId('html-container-frame')).not.toBeInTheDocument();
    expect(screen.getByTestId('digit-0')).toBeInTheDocument();
  });
});
