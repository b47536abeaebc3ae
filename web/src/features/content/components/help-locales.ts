/** Texts of the help and pages screens (`/admin/content/help`, `/admin/content/pages`), Russian and English. */
import { useMemo } from 'react';
import { useBundleT, type Bundle } from '../../../components/data-table/use-bundle-t';

const ru = {
  contentHelp: {
    helpTitle: 'Справка',
    helpHint:
      'Разделы справки открываются кнопкой «Справка» на каждой странице, и в ходе работы тоже. Раздел видят роли, ' +
      'которые в нём отмечены (если ни одна не отмечена — все, и ещё не вошедшие). Раздел о странице показывается ' +
      'первым на страницах, адрес которых начинается с указанного; раздел без страниц — общая справка.',
    pagesTitle: 'Страницы',
    pagesHint:
      'Страницы с правилами, соглашениями и другими текстами. Страница открывается по своему коду — например, rules или privacy.',
    create: 'Создать',
    createSection: 'Новый раздел справки',
    editSection: 'Раздел «{{title}}»',
    createPage: 'Новая страница',
    editPage: 'Страница «{{title}}»',
    title: 'Заголовок',
    text: 'Текст',
    roles: 'Для ролей',
    rolesHint: 'Если ни одна не выбрана — для всех',
    everyone: 'Все',
    pages: 'Страницы приложения',
    pagesFieldHint: 'Начало адреса страницы, например /coordinator/reports. Пусто — общая справка.',
    general: 'Общая справка',
    order: 'Порядок',
    published: 'Опубликован',
    publishedPage: 'Опубликована',
    draft: 'Черновик',
    code: 'Код',
    codeHint: 'Латинские строчные буквы, цифры, - и _',
    codeTaken: 'Этот код уже у другой страницы.',
    edit: 'Изменить',
    delete: 'Удалить',
    deleteTitle: 'Удалить раздел справки?',
    deleteQuestion: 'Раздел «{{title}}» будет удалён.',
    cancel: 'Отмена',
    actions: 'Действия',
    updated: 'Изменён',
    noSections: 'Разделов справки пока нет.',
    noPages: 'Страниц пока нет.',
    titleRequired: 'Укажите заголовок.',
    badPage: 'Адрес страницы начинается с «/» и состоит из латинских строчных букв, цифр, «-», «_» и «/».',
  },
};
type Texts = typeof ru;
const en: Texts = {
  contentHelp: {
    helpTitle: 'Help',
    helpHint:
      'Help sections open from the Help button on every page, during a test too. A section is shown to the roles ' +
      'ticked in it (none ticked: everyone, visitors too). A section about pages comes first on the pages whose ' +
      'address starts with one given; a section without pages is general help.',
    pagesTitle: 'Pages',
    pagesHint:
      'Pages with rules, agreements and other texts. A page opens by its code, e.g. rules or privacy.',
    create: 'Create',
    createSection: 'New help section',
    editSection: 'Section “{{title}}”',
    createPage: 'New page',
    editPage: 'Page “{{title}}”',
    title: 'Title',
    text: 'Text',
    roles: 'For roles',
    rolesHint: 'None: for everyone',
    everyone: 'Everyone',
    pages: 'Pages of the app',
    pagesFieldHint: 'The start of a page address, e.g. /coordinator/reports. Empty: general help.',
    general: 'General help',
    order: 'Order',
    published: 'Published',
    publishedPage: 'Published',
    draft: 'Draft',
    code: 'Code',
    codeHint: 'Lower-case Latin letters, digits, - and _',
    codeTaken: 'Another page has this code.',
    edit: 'Edit',
    delete: 'Delete',
    deleteTitle: 'Delete the help section?',
    deleteQuestion: 'The section “{{title}}” will be deleted.',
    cancel: 'Cancel',
    actions: 'Actions',
    updated: 'Changed',
    noSections: 'No help sections yet.',
    noPages: 'No pages yet.',
    titleRequired: 'Give a title.',
    badPage: 'A page address starts with “/” and holds lower-case Latin letters, digits, “-”, “_” and “/”.',
  },
};

export const helpBundle: Bundle = { ru, en };
export type HelpKey = keyof Texts['contentHelp'];

/** `t` for the help and pages screens; `role` names a role in the reader's language. */
export function useHelpT() {
  const { t } = useBundleT(helpBundle);
  return useMemo(
    () => ({
      t: (key: HelpKey, options?: Record<string, unknown>) => t(`contentHelp.${key}`, options),
      role: (role: string) => t(`roles.${role}`),
    }),
    [t],
  );
}
