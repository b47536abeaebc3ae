/** Texts of the html containers screen (`/admin/content/containers`), Russian and English. */
import { useMemo } from 'react';
import { useBundleT, type Bundle } from '../../../components/data-table/use-bundle-t';

const ru = {
  contentContainers: {
    title: 'Интерактивные контейнеры',
    hint:
      'Контейнер — интерактивное задание в формате HTML5: zip-архив со входной страницей, скриптами, стилями и картинками. ' +
      'Файлы лежат рядом со входной страницей или в папке bundles/. Контейнер работает в изолированной рамке и ' +
      'передаёт ответ в виде, принятом для вида ответа задания; прикрепите его к заданию в редакторе задания.',
    uploadTitle: 'Загрузить контейнер',
    name: 'Название',
    entry: 'Входная страница',
    entryHint: 'html-файл в корне архива; если не указано — index.html',
    file: 'Zip-архив',
    filePlaceholder: 'Выберите .zip',
    upload: 'Загрузить',
    uploaded: 'Контейнер «{{name}}» загружен.',
    versionUploaded: 'Загружена версия {{n}} контейнера «{{name}}».',
    noFile: 'Выберите zip-архив.',
    notZip: 'Нужен файл .zip.',
    tooLarge: 'Архив больше {{mb}} МБ.',
    noName: 'Укажите название.',
    refusedFile: 'Файл: {{name}}',
    list: 'Контейнеры',
    empty: 'Контейнеров пока нет.',
    version: 'Версия',
    versions: 'Версии',
    tasks: 'Заданий',
    created: 'Загружен',
    preview: 'Предпросмотр',
    newVersion: 'Новая версия',
    newVersionTitle: 'Новая версия контейнера «{{name}}»',
    newVersionHint:
      'Новая версия достанется работам, начатым после загрузки; начатые работы продолжат с прежней версией.',
    rename: 'Новое название (необязательно)',
    cancel: 'Отмена',
    close: 'Закрыть',
    previewTitle: 'Предпросмотр: {{name}}',
    previewHint:
      'Контейнер открыт так же, как у участника: в изолированной рамке. Ниже — ответ, который он передал бы.',
    versionOption: 'Версия {{n}} ({{entry}}, файлов: {{count}})',
    answerType: 'Вид ответа задания',
    answerTypeHint: 'Контейнер получает вид ответа при запуске; ответ другого вида не принимается.',
    answer: 'Ответ контейнера',
    noAnswer: 'Ответа пока нет.',
    frameTitle: 'Интерактивный контейнер «{{name}}»',
    loading: 'Загружаем…',
  },
};

const en: typeof ru = {
  contentContainers: {
    title: 'Interactive containers',
    hint:
      'A container is an interactive HTML5 task: a zip with an entry page, scripts, styles and pictures. ' +
      'Files lie beside the entry page or in a bundles/ folder. The container runs in an isolated frame and ' +
      'gives its answer in the shape of the task’s answer type; attach it to a task in the task editor.',
    uploadTitle: 'Upload a container',
    name: 'Name',
    entry: 'Entry page',
    entryHint: 'an html file at the root of the zip; index.html when left empty',
    file: 'Zip file',
    filePlaceholder: 'Choose a .zip',
    upload: 'Upload',
    uploaded: 'Container “{{name}}” uploaded.',
    versionUploaded: 'Version {{n}} of container “{{name}}” uploaded.',
    noFile: 'Choose a zip file.',
    notZip: 'A .zip file is needed.',
    tooLarge: 'The zip is larger than {{mb}} MB.',
    noName: 'Enter a name.',
    refusedFile: 'File: {{name}}',
    list: 'Containers',
    empty: 'No containers yet.',
    version: 'Version',
    versions: 'Versions',
    tasks: 'Tasks',
    created: 'Uploaded',
    preview: 'Preview',
    newVersion: 'New version',
    newVersionTitle: 'New version of container “{{name}}”',
    newVersionHint:
      'Works started after the upload get the new version; works already started keep the previous one.',
    rename: 'New name (optional)',
    cancel: 'Cancel',
    close: 'Close',
    previewTitle: 'Preview: {{name}}',
    previewHint:
      'The container opens as a participant sees it: in an isolated frame. Below is the answer it would give.',
    versionOption: 'Version {{n}} ({{entry}}, {{count}} files)',
    answerType: 'Answer type of the task',
    answerTypeHint:
      'The container is told the answer type when it starts; an answer of another shape is not taken.',
    answer: 'The container’s answer',
    noAnswer: 'No answer yet.',
    frameTitle: 'Interactive container “{{name}}”',
    loading: 'Loading…',
  },
};

export const containersBundle: Bundle = { ru, en };

type Leaves<T, P extends string = ''> = {
  [K in keyof T & string]: T[K] extends string ? `${P}${K}` : Leaves<T[K], `${P}${K}.`>;
}[keyof T & string];
export type ContainersKey = Leaves<(typeof ru)['contentContainers']>;

/** `t` for the containers screen: keys checked against the texts above. */
export function useContainersT() {
  const { t } = useBundleT(containersBundle);
  return useMemo(
    () => (key: ContainersKey, options?: Record<string, unknown>) => t(`contentContainers.${key}`, options),
    [t],
  );
}
