import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { json, renderApp } from '../../../test/test-app';
import { contentServer, pick } from '../test/fixtures';

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
  vi.spyOn(console, 'warn').mockImplementation(() => {});
});
afterEach(() => vi.unstubAllGlobals());

const at = '2026-03-01T10:00:00.000Z';
const version = (n: number, entry = 'index.html', fileCount = 4) => ({
  version: n,
  entry,
  fileCount,
  totalBytes: 2048,
  createdAt: at,
});
const container = (id: number, name: string, extra = {}) => ({
  id,
  name,
  currentVersion: 1,
  entry: 'index.html',
  createdAt: at,
  taskCount: 0,
  versions: [version(1)],
  ...extra,
});
const lamps = container(5, 'Двоичные лампочки', {
  currentVersion: 2,
  entry: 'start.html',
  taskCount: 3,
  versions: [version(2, 'start.html', 2), version(1)],
});
const link = (id: number, n: number, entry = 'index.html') => ({
  containerId: id,
  name: 'Двоичные лампочки',
  version: n,
  entry,
  resources: [entry, 'bundles/app.js'],
  url: `/api/kim/htmlContainer/${id}/${n}/index?sig=1.0.99.sig${n}`,
  urlExpiresAt: at,
});

const zip = (name = 'lamps.zip') =>
  new File([new Uint8Array([0x50, 0x4b, 3, 4])], name, { type: 'application/zip' });
const fileInput = (scope: HTMLElement) => scope.querySelector<HTMLInputElement>('input[type="file"]')!;

describe('html containers', { timeout: 30_000 }, () => {
  it('lists the containers and uploads a new one: the fields first, then the zip', async () => {
    let list = [lamps];
    const api = contentServer({
      'GET /api/admin/content/containers': () => json(200, list),
      'POST /api/admin/content/containers': () => {
        const created = container(6, 'Весы');
        list = [lamps, created];
        return json(200, created);
      },
    });
    renderApp('/admin/content/containers');
    const table = await screen.findByTestId('containers-table');
    await within(table).findByText('Двоичные лампочки');
    expect(within(table).getByTestId('container-version-5')).toHaveTextContent('2');
    expect(within(table).getByText('start.html')).toBeInTheDocument();
    expect(screen.getByTestId('content-nav-containers')).toHaveAttribute('aria-current', 'page');

    const form = screen.getByTestId('container-upload');
    await userEvent.type(within(form).getByTestId('container-upload-name'), 'Весы');
    await userEvent.type(within(form).getByTestId('container-upload-entry'), 'index.html');
    await userEvent.upload(fileInput(form), zip());
    await userEvent.click(within(form).getByTestId('container-upload-submit'));

    expect(await screen.findByText('Контейнер «Весы» загружен.')).toBeInTheDocument();
    const body = api.callsTo('POST /api/admin/content/containers')[0]!.body as FormData;
    expect([...body.keys()]).toEqual(['name', 'entry', 'file']);
    expect(body.get('name')).toBe('Весы');
    expect((body.get('file') as File).name).toBe('lamps.zip');
    expect(await within(table).findByText('Весы')).toBeInTheDocument();
    // The form is empty again for the next one.
    expect(within(form).getByTestId('container-upload-name')).toHaveValue('');
  });

  it('checks the form before sending and says a refusal by its code, naming the refused file', async () => {
    const api = contentServer({
      'GET /api/admin/content/containers': () => json(200, []),
      'POST /api/admin/content/containers': () =>
        json(400, {
          status: 400,
          code: 'container_file_refused',
          message: 'A file of the zip cannot be served',
          errors: [{ path: 'file', message: 'x', code: 'folder', params: { name: 'css/a.css' } }],
        }),
    });
    renderApp('/admin/content/containers');
    expect(await screen.findByTestId('containers-empty')).toHaveTextContent('Контейнеров пока нет.');
    const form = screen.getByTestId('container-upload');
    await userEvent.click(within(form).getByTestId('container-upload-submit'));
    expect(await within(form).findByText('Укажите название.')).toBeInTheDocument();
    expect(within(form).getByText('Выберите zip-архив.')).toBeInTheDocument();
    await userEvent.type(within(form).getByTestId('container-upload-name'), 'Весы');
    await userEvent.upload(fileInput(form), zip('lamps.rar'));
    await userEvent.click(within(form).getByTestId('container-upload-submit'));
    expect(await within(form).findByText('Нужен файл .zip.')).toBeInTheDocument();
    expect(api.callsTo('POST /api/admin/content/containers')).toHaveLength(0);

    await userEvent.upload(fileInput(form), zip());
    await userEvent.click(within(form).getByTestId('container-upload-submit'));
    const error = await within(form).findByTestId('container-upload-error');
    expect(error).toHaveTextContent('вложенная папка');
    expect(error).toHaveTextContent('Файл: css/a.css');
    expect(error).not.toHaveTextContent('cannot be served');
  });

  it('uploads a new version of a container', async () => {
    let list = [container(5, 'Двоичные лампочки')];
    const api = contentServer({
      'GET /api/admin/content/containers': () => json(200, list),
      'POST /api/admin/content/containers/5/versions': () => {
        list = [lamps];
        return json(200, lamps);
      },
    });
    renderApp('/admin/content/containers');
    await userEvent.click(await screen.findByTestId('container-new-version-5'));
    const dialog = await screen.findByTestId('container-version');
    await userEvent.type(within(dialog).getByTestId('container-version-entry'), 'start.html');
    await userEvent.upload(fileInput(dialog), zip());
    await userEvent.click(within(dialog).getByTestId('container-version-submit'));
    expect(await screen.findByText('Загружена версия 2 контейнера «Двоичные лампочки».')).toBeInTheDocument();
    const body = api.callsTo('POST /api/admin/content/containers/5/versions')[0]!.body as FormData;
    expect([...body.keys()]).toEqual(['entry', 'file']);
    expect(body.get('entry')).toBe('start.html');
    await waitFor(() => expect(screen.queryByTestId('container-version')).not.toBeInTheDocument());
    expect(await screen.findByTestId('container-version-5')).toHaveTextContent('2');
  });

  it('previews a version in the runner’s sandboxed frame and shows the answer it gives', async () => {
    const api = contentServer({
      'GET /api/admin/content/containers': () => json(200, [lamps]),
      'GET /api/admin/content/containers/5/preview': ({ url }) =>
        json(200, url.includes('version=1') ? link(5, 1) : link(5, 2, 'start.html')),
    });
    renderApp('/admin/content/containers');
    await userEvent.click(await screen.findByTestId('container-preview-5'));
    const panel = await screen.findByTestId('container-preview');
    let frame = (await within(panel).findByTestId('html-container-frame')) as HTMLIFrameElement;
    expect(frame.getAttribute('sandbox')).toBe('allow-scripts');
    expect(frame.getAttribute('src')).toBe('/api/kim/htmlContainer/5/2/index?sig=1.0.99.sig2');
    expect(frame).toHaveAccessibleName('Интерактивный контейнер «Двоичные лампочки»');
    expect(api.callsTo('GET /api/admin/content/containers/5/preview')[0]!.url).toMatch(
      /\/preview\?version=2$/,
    );

    // What the container answers (a short text by default) is shown; another shape is not taken.
    act(() => {
      window.dispatchEvent(
        new MessageEvent('message', {
          data: { type: 'attesta:answer', value: 'сорок два' },
          origin: 'null',
          source: frame.contentWindow,
        }),
      );
    });
    expect(within(panel).getByTestId('container-preview-answer')).toHaveTextContent('"сорок два"');

    await pick(panel, 'Версия', 'Версия 1 (index.html, файлов: 4)');
    await waitFor(() =>
      expect(within(panel).getByTestId('html-container-frame')).toHaveAttribute(
        'src',
        '/api/kim/htmlContainer/5/1/index?sig=1.0.99.sig1',
      ),
    );
    expect(within(panel).getByTestId('container-preview-answer')).toHaveTextContent('Ответа пока нет.');

    await pick(panel, 'Вид ответа задания', 'Последовательность цифр');
    frame = within(panel).getByTestId('html-container-frame') as HTMLIFrameElement;
    act(() => {
      for (const value of ['не цифры', '0110'])
        window.dispatchEvent(
          new MessageEvent('message', {
            data: { type: 'attesta:answer', value },
            origin: 'null',
            source: frame.contentWindow,
          }),
        );
    });
    expect(within(panel).getByTestId('container-preview-answer')).toHaveTextContent('"0110"');
  });
});
