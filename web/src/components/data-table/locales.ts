import type { Bundle } from './use-bundle-t';

export const dataTableBundle: Bundle = {
  ru: {
    dataTable: {
      loading: 'Загрузка…',
      empty: 'Ничего не найдено',
      total: 'Всего: {{count}}',
      exportCsv: 'Выгрузить в CSV',
      forbidden: 'Нет доступа к этим данным.',
      failed: 'Не удалось загрузить список: {{message}}',
      retry: 'Повторить',
      sortAsc: 'по возрастанию',
      sortDesc: 'по убыванию',
      downloadFailed: 'Не удалось скачать файл: {{message}}',
      pageSize: 'Строк на странице',
      pagination: 'Страницы',
      sortBy: 'Сортировать по «{{column}}»',
      from: 'С даты',
      till: 'По дату',
    },
  },
  en: {
    dataTable: {
      loading: 'Loading…',
      empty: 'Nothing found',
      total: 'Total: {{count}}',
      exportCsv: 'Export to CSV',
      forbidden: 'You have no access to this data.',
      failed: 'Could not load the list: {{message}}',
      retry: 'Retry',
      sortAsc: 'ascending',
      sortDesc: 'descending',
      downloadFailed: 'Could not download the file: {{message}}',
      pageSize: 'Rows per page',
      pagination: 'Pages',
      sortBy: 'Sort by “{{column}}”',
      from: 'From',
      till: 'Till',
    },
  },
};
