/** Small inputs the type forms share: a number field that may be empty, row buttons, a list's rows. */
import {
  ActionIcon,
  Button,
  Group,
  NumberInput,
  Paper,
  Stack,
  Text,
  TextInput,
  type NumberInputProps,
} from '@mantine/core';
import type { ReactNode } from 'react';
import { RichHtml } from '../../../../../components/answers/rich-html';
import { nextId, type Labelled } from '../../model/draft';
import type { Problems } from '../../model/fields';
import { useTaskEditorT } from '../../locales';

type NumFieldProps = Omit<NumberInputProps, 'value' | 'onChange'> & {
  value: number | undefined;
  onChange: (value: number | undefined) => void;
};

/** A number that may be left empty (then `undefined`, which validation names); comma or point. */
export function NumField({ value, onChange, ...rest }: NumFieldProps) {
  const { i18n } = useTaskEditorT();
  return (
    <NumberInput
      {...rest}
      value={value ?? ''}
      decimalSeparator={i18n.language === 'en' ? '.' : ','}
      onChange={(v) =>
        onChange(v === '' || v === undefined ? undefined : typeof v === 'number' ? v : Number(v))
      }
    />
  );
}

interface RowButtonsProps {
  index: number;
  count: number;
  name: string;
  onMove: (from: number, to: number) => void;
  onRemove?: () => void;
  removeDisabled?: boolean;
}

/** Up, down and remove for a row of a list, each named for screen readers. */
export function RowButtons({ index, count, name, onMove, onRemove, removeDisabled }: RowButtonsProps) {
  const { t } = useTaskEditorT();
  return (
    <Group gap={4} wrap="nowrap">
      <ActionIcon
        variant="subtle"
        aria-label={t('taskEditor.list.up', { name })}
        disabled={index === 0}
        onClick={() => onMove(index, index - 1)}
      >
        ↑
      </ActionIcon>
      <ActionIcon
        variant="subtle"
        aria-label={t('taskEditor.list.down', { name })}
        disabled={index === count - 1}
        onClick={() => onMove(index, index + 1)}
      >
        ↓
      </ActionIcon>
      {onRemove && (
        <ActionIcon
          variant="subtle"
          color="red"
          aria-label={t('taskEditor.list.remove', { name })}
          disabled={removeDisabled}
          onClick={onRemove}
        >
          ✕
        </ActionIcon>
      )}
    </Group>
  );
}

export function moved<T>(list: readonly T[], from: number, to: number): T[] {
  const next = [...list];
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item as T);
  return next;
}

const hasMarkup = (html: string) => /<|\\\(|\\\[|\$\$|&/.test(html);

interface LabelledListProps {
  title: string;
  /** The name of one row: `Вариант 3`. */
  itemName: (n: number) => string;
  items: Labelled[];
  onChange: (items: Labelled[]) => void;
  idPrefix: string;
  min: number;
  max: number;
  problems: Problems;
  /** Path of the list in the task model: `content.options`. */
  path: string;
  /** Controls before the text of a row (the key: a radio, a checkbox, points). */
  before?: (item: Labelled, index: number) => ReactNode;
  after?: (item: Labelled, index: number) => ReactNode;
  addLabel: string;
  testId?: string;
}

/**
 * Rows of labelled pieces (options, items, sides): the html of each (text, formulas as \( … \),
 * simple tags), added, removed and moved; a row with markup shows how it will look.
 */
export function LabelledList(props: LabelledListProps) {
  const { t } = useTaskEditorT();
  const { items, onChange, problems, path } = props;
  const listError = problems.at(path);
  return (
    <Stack gap="xs" data-testid={props.testId}>
      <Text fw={500} size="sm">
        {props.title}
      </Text>
      {items.map((item, i) => {
        const name = props.itemName(i + 1);
        const error = problems.at(`${path}.${i}.html`) ?? problems.at(`${path}.${i}`);
        return (
          <Paper key={item.id} withBorder p="xs" radius="sm">
            <Group align="flex-start" wrap="nowrap" gap="xs">
              {props.before?.(item, i)}
              <Stack gap={4} style={{ flex: 1 }}>
                <TextInput
                  aria-label={name}
                  placeholder={name}
                  value={item.html}
                  error={error}
                  onChange={(e) => {
                    const html = e.currentTarget.value;
                    onChange(items.map((x) => (x.id === item.id ? { ...x, html } : x)));
                  }}
                />
                {hasMarkup(item.html) && <RichHtml html={item.html} className="task-editor-inline-preview" />}
              </Stack>
              {props.after?.(item, i)}
              <RowButtons
                index={i}
                count={items.length}
                name={name}
                onMove={(from, to) => onChange(moved(items, from, to))}
                onRemove={() => onChange(items.filter((x) => x.id !== item.id))}
                removeDisabled={items.length <= props.min}
              />
            </Group>
          </Paper>
        );
      })}
      {listError && (
        <Text size="sm" c="red" role="alert">
          {listError}
        </Text>
      )}
      <Group>
        <Button
          variant="light"
          size="xs"
          disabled={items.length >= props.max}
          onClick={() =>
            onChange([
              ...items,
              {
                id: nextId(
                  props.idPrefix,
                  items.map((x) => x.id),
                ),
                html: '',
              },
            ])
          }
        >
          {props.addLabel}
        </Button>
        <Text size="xs" c="dimmed">
          {t('taskEditor.list.htmlHint')}
        </Text>
      </Group>
    </Stack>
  );
}

interface TextListProps {
  title: string;
  itemName: (n: number) => string;
  values: string[];
  onChange: (values: string[]) => void;
  problems: Problems;
  path: string;
  addLabel: string;
  min?: number;
  testId?: string;
}

/** A list of plain strings (accepted answers). */
export function TextList({
  title,
  itemName,
  values,
  onChange,
  problems,
  path,
  addLabel,
  min = 1,
  testId,
}: TextListProps) {
  const listError = problems.at(path);
  return (
    <Stack gap="xs" data-testid={testId}>
      <Text fw={500} size="sm">
        {title}
      </Text>
      {values.map((value, i) => (
        <Group key={i} wrap="nowrap" gap="xs" align="flex-start">
          <TextInput
            style={{ flex: 1 }}
            aria-label={itemName(i + 1)}
            placeholder={itemName(i + 1)}
            value={value}
            error={problems.at(`${path}.${i}`)}
            onChange={(e) => {
              const v = e.currentTarget.value;
              onChange(values.map((x, j) => (j === i ? v : x)));
            }}
          />
          <RowButtons
            index={i}
            count={values.length}
            name={itemName(i + 1)}
            onMove={(from, to) => onChange(moved(values, from, to))}
            onRemove={() => onChange(values.filter((_, j) => j !== i))}
            removeDisabled={values.length <= min}
          />
        </Group>
      ))}
      {listError && (
        <Text size="sm" c="red" role="alert">
          {listError}
        </Text>
      )}
      <Group>
        <Button variant="light" size="xs" onClick={() => onChange([...values, ''])}>
          {addLabel}
        </Button>
      </Group>
    </Stack>
  );
}
