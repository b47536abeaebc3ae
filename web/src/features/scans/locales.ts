/** Texts of the scanned answer sheets' screens (ru default, en), registered next to the shared locales. */
import type { SCAN_BATCH_STATUSES, SCAN_PAGE_STATUSES, ScanReviewKind } from '@attesta/contract';
import { useBundleT, type Bundle, type LooseT } from '../../components/data-table/use-bundle-t';

type Texts = {
  nav: { upload: string; review: string };
  upload: {
    title: string;
    intro: string;
    drop: string;
    pick: string;
    chosenCaption: string;
    remove: string;
    removeLabel: string;
    send: string;
    sending: string;
    tooMany: string;
    wrongType: string;
    tooLarge: string;
    none: string;
  };
  batch: {
    title: string;
    status: Record<(typeof SCAN_BATCH_STATUSES)[number], string>;
    reading: string;
    pagesRead: string;
    summary: string;
    caption: string;
    file: string;
    page: string;
    pageStatus: string;
    code: string;
    formPage: string;
    tasks: string;
    noCode: string;
    none: string;
    pageStatuses: Record<(typeof SCAN_PAGE_STATUSES)[number], string>;
    toReview: string;
    reviewHint: string;
    another: string;
    retry: string;
  };
  mine: {
    title: string;
    empty: string;
    caption: string;
    uploaded: string;
    files: string;
    status: string;
    pages: string;
    openReview: string;
    actions: string;
    open: string;
    openLabel: string;
    paging: string;
  };
  review: {
    title: string;
    intro: string;
    classLabel: string;
    allClasses: string;
    noClass: string;
    classOption: string;
    kindLabel: string;
    allKinds: string;
    kinds: Record<ScanReviewKind, string>;
    kindHints: Record<ScanReviewKind, string>;
    open: string;
    empty: string;
    emptyFiltered: string;
    toUpload: string;
    itemLabel: string;
    task: string;
    noTask: string;
    participant: string;
    noParticipant: string;
    place: string;
    source: string;
    code: string;
    codeLabel: string;
    cropAlt: string;
    cropPageAlt: string;
    read: string;
    readNothing: string;
    saved: string;
    confidence: string;
    doubleMark: string;
    choice: string;
    choiceHint: string;
    digits: string;
    digitsHint: string;
    digitsInvalid: string;
    keyText: string;
    formPage: string;
    codeRequired: string;
    formPageInvalid: string;
    noForm: string;
    noPage: string;
    cropMissing: string;
    /** The page's pixels could not be decoded: no crop, the file to download instead. */
    undecoded: string;
    downloadFile: string;
    /** Why a page was not read, by the page's problem code. */
    problems: Record<string, string>;
    legend: {
      title: string;
      rows: string;
      columns: string;
      positions: string;
    };
    accept: string;
    setChoice: string;
    save: string;
    identify: string;
    dismiss: string;
    replace: string;
    keepSaved: string;
    skip: string;
    done: Record<'accepted' | 'set' | 'keyed' | 'identified' | 'dismissed', string>;
    queue: string;
    queueItem: string;
    current: string;
    paging: string;
    pageOf: string;
    pageLabel: string;
    nextPage: string;
    previousPage: string;
    shortcuts: string;
    keys: { enter: Record<ScanReviewKind, string>; skip: string; digit: string };
  };
  errors: {
    forbidden: string;
    gone: string;
    resolved: string;
    invalid: string;
    work_not_finished: string;
    payload_too_large: string;
    no_file: string;
    unsupported_file_type: string;
    invalid_image: string;
    invalid_pdf: string;
    image_too_large: string;
    too_many_pages: string;
  };
};

const ru: Texts = {
  nav: { upload: 'Сканы бланков', review: 'Проверка сканов' },
  upload: {
    title: 'Сканы бланков ответов',
    intro:
      'Загрузите сканы или фотографии заполненных бланков: PDF, TIFF, JPEG или PNG, до 20 файлов за раз, ' +
      'каждый до 200 МБ. Страницы читаются в фоне; что не удалось прочитать уверенно, попадёт на проверку.',
    drop: 'Перетащите файлы сюда или',
    pick: 'выберите файлы',
    chosenCaption: 'Выбранные файлы',
    remove: 'Убрать',
    removeLabel: 'Убрать файл «{{file}}»',
    send: 'Загрузить',
    sending: 'Загружаем файлы… Не закрывайте страницу.',
    tooMany: 'За один раз можно загрузить не больше 20 файлов.',
    wrongType: 'Файл «{{file}}» не PDF, TIFF, JPEG или PNG.',
    tooLarge: 'Файл «{{file}}» больше 200 МБ.',
    none: 'Выберите хотя бы один файл.',
  },
  batch: {
    title: 'Чтение загруженных сканов',
    status: {
      queued: 'Ждёт очереди',
      running: 'Читается',
      done: 'Прочитано',
      failed: 'Не удалось прочитать',
    },
    reading: 'Страницы читаются, таблица пополняется сама.',
    pagesRead: 'Прочитано страниц: {{count}}',
    summary:
      'Распознано: {{recognized}}, на проверку: {{needs_review}}, не опознано: {{unidentified}}, повторов: {{duplicate}}',
    caption: 'Страницы загруженных файлов',
    file: 'Файл',
    page: 'Страница',
    pageStatus: 'Результат',
    code: 'Регистрационный код',
    formPage: 'Лист бланка',
    tasks: 'Заданий прочитано',
    noCode: 'не прочитан',
    none: '—',
    pageStatuses: {
      recognized: 'Распознана',
      needs_review: 'Нужна проверка',
      unidentified: 'Не опознана',
      duplicate: 'Уже загружалась',
    },
    toReview: 'Перейти к проверке',
    reviewHint: 'Сомнительные отметки, поля с текстом и неопознанные страницы ждут на экране проверки.',
    another: 'Загрузить ещё',
    retry: 'Спросить снова',
  },
  mine: {
    title: 'Мои загрузки',
    empty: 'Вы ещё не загружали сканы.',
    caption: 'Загруженные вами сканы, сначала новые',
    uploaded: 'Загружено',
    files: 'Файлы',
    status: 'Состояние',
    pages: 'Страницы',
    openReview: 'Ждёт проверки',
    actions: 'Действия',
    open: 'Открыть',
    openLabel: 'Открыть загрузку от {{when}}',
    paging: 'Страницы списка загрузок',
  },
  review: {
    title: 'Проверка сканов',
    intro:
      'Здесь то, что при чтении сканов не удалось решить уверенно. Пока вы не решите, ответ не сохраняется.',
    classLabel: 'Класс',
    allClasses: 'Все классы ({{count}})',
    noClass: 'Без класса — неопознанные страницы ({{count}})',
    classOption: '{{className}}, {{schoolName}} ({{count}})',
    kindLabel: 'Что проверить',
    allKinds: 'Всё',
    kinds: {
      doubtful: 'Сомнительная отметка',
      key_text: 'Ввести текст',
      unidentified: 'Страница не опознана',
      unreadable: 'Страница не прочитана',
      replace: 'Повторный скан',
    },
    kindHints: {
      doubtful: 'Отметка слабая или их две там, где допустима одна. Примите прочитанное или выберите верное.',
      key_text: 'Перепечатайте ответ с фрагмента скана.',
      unidentified:
        'Код страницы не прочитан или относится к бланку вне вашего доступа. Введите регистрационный код и лист бланка.',
      unreadable:
        'Страница опознана, но не прочитана: бланк другой версии или не найдены угловые метки. Введите ответы вручную в комнате и отложите страницу.',
      replace: 'По заданию уже сохранён ответ с прежнего скана. Замените его новым или оставьте прежний.',
    },
    open: 'Открыто: {{count}}',
    empty: 'Проверять нечего: все сканы разобраны.',
    emptyFiltered: 'По этому отбору проверять нечего.',
    toUpload: 'Загрузить сканы',
    itemLabel: 'Проверяемый фрагмент',
    task: 'Задание {{number}}',
    noTask: 'Вся страница',
    participant: 'Участник',
    noParticipant: 'не определён',
    place: 'Класс',
    source: 'Файл «{{file}}», страница {{page}}',
    code: 'Регистрационный код: {{code}}',
    codeLabel: 'Регистрационный код',
    cropAlt: 'Фрагмент скана: задание {{number}}',
    cropPageAlt: 'Скан страницы из файла «{{file}}», страница {{page}}',
    read: 'Прочитано',
    readNothing: 'ничего не отмечено',
    saved: 'Сохранено раньше',
    confidence: 'Уверенность чтения: {{percent}} %',
    doubleMark: 'Две отметки там, где допустима одна',
    choice: 'Верный ответ',
    choiceHint: 'Нажмите на кружки или цифры 1–9 на клавиатуре.',
    digits: 'Число на бланке',
    digitsHint: 'Как написано в клетках: знак «-» и запятая, если отмечены.',
    digitsInvalid: 'Такое число не помещается в сетку этого задания.',
    keyText: 'Текст ответа',
    formPage: 'Лист бланка',
    codeRequired: 'Введите регистрационный код с бланка.',
    formPageInvalid: 'Номер листа — целое число от 1.',
    noForm: 'Бланка с таким регистрационным кодом в вашем доступе нет.',
    noPage: 'В этом бланке нет листа с таким номером.',
    cropMissing: 'Изображение скана не сохранилось или не загрузилось.',
    undecoded:
      'Эту страницу не удалось прочитать из файла: он повреждён или оборван, изображения нет. Скачайте файл и посмотрите его сами, при необходимости отсканируйте лист заново.',
    downloadFile: 'Скачать файл «{{file}}»',
    problems: {
      no_code: 'Код страницы (QR) не прочитан.',
      unknown_form: 'Код страницы не называет бланк в вашем доступе.',
      layout_changed: 'Лист напечатан с другой разметкой бланка.',
      marks_not_found: 'Не найдены все четыре угловые метки.',
      invalid_image: 'Изображение в файле повреждено.',
      invalid_pdf: 'PDF-файл повреждён.',
      image_too_large: 'Страница слишком большая (более 40 млн пикселей).',
    },
    legend: {
      title: 'Что означают строки и столбцы сетки',
      rows: 'Строки',
      columns: 'Столбцы',
      positions: 'места с 1 по {{count}}',
    },
    accept: 'Принять прочитанное',
    setChoice: 'Сохранить выбор',
    save: 'Сохранить',
    identify: 'Опознать',
    dismiss: 'Отложить страницу',
    replace: 'Заменить новым',
    keepSaved: 'Оставить прежний',
    skip: 'Пропустить',
    done: {
      accepted: 'Принято.',
      set: 'Ответ сохранён.',
      keyed: 'Текст сохранён.',
      identified: 'Страница опознана и прочитана заново.',
      dismissed: 'Отложено.',
    },
    queue: 'Очередь проверки',
    queueItem: '{{kind}}: {{what}}',
    current: 'сейчас',
    paging: 'Страницы списка',
    pageOf: 'Пункты {{from}}–{{to}} из {{total}}',
    pageLabel: 'Страница {{page}}',
    nextPage: 'Следующая страница',
    previousPage: 'Предыдущая страница',
    shortcuts: 'Клавиши',
    keys: {
      enter: {
        doubtful: 'принять прочитанное (или сохранить выбранное)',
        key_text: 'сохранить текст',
        unidentified: 'опознать',
        unreadable: 'отложить страницу',
        replace: 'заменить новым',
      },
      skip: 'пропустить, к следующему',
      digit: 'отметить или снять кружок N',
    },
  },
  errors: {
    forbidden: 'Этот скан вне вашего доступа.',
    gone: 'Этого элемента больше нет: список обновлён.',
    resolved: 'Элемент уже решён другим пользователем: список обновлён.',
    invalid: 'Значение не подходит к этому заданию. Проверьте ввод.',
    work_not_finished:
      'Участник ещё пишет эту работу онлайн: ответ с бланка можно сохранить, когда работа будет завершена.',
    payload_too_large: 'Файл слишком большой: не больше 200 МБ.',
    no_file: 'Файл пустой или не выбран.',
    unsupported_file_type: 'Принимаются только PDF, TIFF, JPEG и PNG.',
    invalid_image: 'Изображение не читается: файл повреждён или неполон.',
    invalid_pdf: 'PDF не читается: файл повреждён или это не PDF.',
    image_too_large: 'Страница слишком большая: сканируйте с разрешением не выше 600 dpi.',
    too_many_pages: 'В файле слишком много страниц: разделите его на несколько.',
  },
};

const en: Texts = {
  nav: { upload: 'Answer sheet scans', review: 'Scan review' },
  upload: {
    title: 'Scans of answer sheets',
    intro:
      'Upload scans or photos of filled-in answer sheets: PDF, TIFF, JPEG or PNG, up to 20 files at a time, ' +
      'each up to 200 MB. Pages are read in the background; what cannot be read with certainty goes to review.',
    drop: 'Drop files here or',
    pick: 'choose files',
    chosenCaption: 'Chosen files',
    remove: 'Remove',
    removeLabel: 'Remove the file “{{file}}”',
    send: 'Upload',
    sending: 'Uploading the files… Keep this page open.',
    tooMany: 'At most 20 files can be uploaded at a time.',
    wrongType: 'The file “{{file}}” is not a PDF, TIFF, JPEG or PNG.',
    tooLarge: 'The file “{{file}}” is larger than 200 MB.',
    none: 'Choose at least one file.',
  },
  batch: {
    title: 'Reading the uploaded scans',
    status: { queued: 'Waiting in line', running: 'Being read', done: 'Read', failed: 'Could not be read' },
    reading: 'The pages are being read; the table fills in by itself.',
    pagesRead: 'Pages read: {{count}}',
    summary:
      'Recognized: {{recognized}}, to review: {{needs_review}}, unidentified: {{unidentified}}, duplicates: {{duplicate}}',
    caption: 'Pages of the uploaded files',
    file: 'File',
    page: 'Page',
    pageStatus: 'Result',
    code: 'Registration code',
    formPage: 'Form sheet',
    tasks: 'Tasks read',
    noCode: 'not read',
    none: '—',
    pageStatuses: {
      recognized: 'Recognized',
      needs_review: 'Needs review',
      unidentified: 'Unidentified',
      duplicate: 'Uploaded before',
    },
    toReview: 'Go to review',
    reviewHint: 'Doubtful marks, text boxes and unidentified pages wait on the review screen.',
    another: 'Upload more',
    retry: 'Ask again',
  },
  mine: {
    title: 'My uploads',
    empty: 'You have not uploaded any scans yet.',
    caption: 'Scans you uploaded, newest first',
    uploaded: 'Uploaded',
    files: 'Files',
    status: 'State',
    pages: 'Pages',
    openReview: 'Waiting for review',
    actions: 'Actions',
    open: 'Open',
    openLabel: 'Open the upload of {{when}}',
    paging: 'Pages of the uploads list',
  },
  review: {
    title: 'Scan review',
    intro:
      'What reading the scans could not settle with certainty. Nothing is saved as an answer until you decide.',
    classLabel: 'Class',
    allClasses: 'All classes ({{count}})',
    noClass: 'No class — unidentified pages ({{count}})',
    classOption: '{{className}}, {{schoolName}} ({{count}})',
    kindLabel: 'What to review',
    allKinds: 'Everything',
    kinds: {
      doubtful: 'Doubtful mark',
      key_text: 'Key in text',
      unidentified: 'Page not identified',
      unreadable: 'Page not read',
      replace: 'Newer scan',
    },
    kindHints: {
      doubtful: 'A faint mark, or two where one is allowed. Accept what was read or choose the right answer.',
      key_text: 'Type the answer shown in the scan.',
      unidentified:
        "The page's code could not be read or names a form outside your reach. Enter the registration code and the form sheet.",
      unreadable:
        'The page was identified but not read: a form of another version, or corner marks not found. Key the answers in the room by hand and set the page aside.',
      replace:
        'An answer from an earlier scan is already saved for this task. Replace it with the new one or keep it.',
    },
    open: 'Open: {{count}}',
    empty: 'Nothing to review: every scan is settled.',
    emptyFiltered: 'Nothing to review under this filter.',
    toUpload: 'Upload scans',
    itemLabel: 'Item under review',
    task: 'Task {{number}}',
    noTask: 'Whole page',
    participant: 'Participant',
    noParticipant: 'not known',
    place: 'Class',
    source: 'File “{{file}}”, page {{page}}',
    code: 'Registration code: {{code}}',
    codeLabel: 'Registration code',
    cropAlt: 'Part of the scan: task {{number}}',
    cropPageAlt: 'Scan of the page from the file “{{file}}”, page {{page}}',
    read: 'Read',
    readNothing: 'nothing marked',
    saved: 'Saved before',
    confidence: 'Reading confidence: {{percent}} %',
    doubleMark: 'Two marks where one is allowed',
    choice: 'Right answer',
    choiceHint: 'Click the bubbles or press 1–9 on the keyboard.',
    digits: 'Number on the sheet',
    digitsHint: 'As written in the cells: a “-” sign and a comma if marked.',
    digitsInvalid: "This number does not fit this task's grid.",
    keyText: 'Answer text',
    formPage: 'Form sheet',
    codeRequired: 'Enter the registration code printed on the sheet.',
    formPageInvalid: 'The sheet number is a whole number from 1.',
    noForm: 'No form within your reach has this registration code.',
    noPage: 'This form has no sheet with this number.',
    cropMissing: 'The scan image is not kept or could not be loaded.',
    undecoded:
      'This page could not be read from its file: the file is damaged or cut short, so there is no image. Download the file and look at it yourself; scan the sheet again if need be.',
    downloadFile: 'Download the file “{{file}}”',
    problems: {
      no_code: 'The page code (QR) was not read.',
      unknown_form: 'The page code names no form within your reach.',
      layout_changed: 'The sheet was printed with another layout of the form.',
      marks_not_found: 'Not all four corner marks were found.',
      invalid_image: 'The image in the file is damaged.',
      invalid_pdf: 'The PDF file is damaged.',
      image_too_large: 'The page is too large (over 40 million pixels).',
    },
    legend: {
      title: 'What the rows and columns of the grid are',
      rows: 'Rows',
      columns: 'Columns',
      positions: 'places 1 to {{count}}',
    },
    accept: 'Accept what was read',
    setChoice: 'Save the choice',
    save: 'Save',
    identify: 'Identify',
    dismiss: 'Set the page aside',
    replace: 'Replace with the new one',
    keepSaved: 'Keep the earlier one',
    skip: 'Skip',
    done: {
      accepted: 'Accepted.',
      set: 'Answer saved.',
      keyed: 'Text saved.',
      identified: 'Page identified and read again.',
      dismissed: 'Set aside.',
    },
    queue: 'Review queue',
    queueItem: '{{kind}}: {{what}}',
    current: 'now',
    paging: 'Pages of the list',
    pageOf: 'Items {{from}}–{{to}} of {{total}}',
    pageLabel: 'Page {{page}}',
    nextPage: 'Next page',
    previousPage: 'Previous page',
    shortcuts: 'Keys',
    keys: {
      enter: {
        doubtful: 'accept what was read (or save the choice)',
        key_text: 'save the text',
        unidentified: 'identify',
        unreadable: 'set the page aside',
        replace: 'replace with the new one',
      },
      skip: 'skip to the next one',
      digit: 'mark or unmark bubble N',
    },
  },
  errors: {
    forbidden: 'This scan is outside your reach.',
    gone: 'This item no longer exists: the list has been refreshed.',
    resolved: 'Another user already settled this item: the list has been refreshed.',
    invalid: 'The value does not fit this task. Check what you entered.',
    work_not_finished:
      'The participant is still writing this work online: the answer from the sheet can be saved once the work is finished.',
    payload_too_large: 'The file is too large: at most 200 MB.',
    no_file: 'The file is empty or none was chosen.',
    unsupported_file_type: 'Only PDF, TIFF, JPEG and PNG files are accepted.',
    invalid_image: 'The image cannot be read: the file is damaged or incomplete.',
    invalid_pdf: 'The PDF cannot be read: the file is damaged or not a PDF.',
    image_too_large: 'The page is too large: scan at 600 dpi or less.',
    too_many_pages: 'The file has too many pages: split it into several.',
  },
};

export const scansBundle: Bundle = { ru: { scans: ru }, en: { scans: en } };

/** `t` over the scans texts (keys below `scans.`). */
export function useScansT(): LooseT {
  const { t } = useBundleT(scansBundle);
  return (key, options) => t(`scans.${key}`, options);
}
