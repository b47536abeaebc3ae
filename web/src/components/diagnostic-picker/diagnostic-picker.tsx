/**
 * A diagnostic chosen by its name or code from the caller's own list — the admin's every
 * diagnostic, a coordinator's those of their school — searched on the server, never by typing an
 * id. The chosen one keeps its label (an admin's link may name it by id: its card is read).
 */
import { call } from '../../lib/call';
import { useBundleT, type Bundle } from '../data-table/use-bundle-t';
import { ServerSelect, type ServerSelectProps } from '../server-select/server-select';

export type DiagnosticPickerRole = 'admin' | 'coordinator';

const PICK_SIZE = 50;
const quiet = { suppressRedirect: true } as const;
const labelOf = (d: { code: string; name: string }) => `${d.name} (${d.code})`;
const byText = (text: string) => (text ? { filter: { search: text } } : {});
const newestFirst = { field: 'startsAt', dir: 'desc' } as const;

async function search(role: DiagnosticPickerRole, text: string, signal?: AbortSignal) {
  const body = { page: 1, pageSize: PICK_SIZE, sort: newestFirst, ...byText(text) };
  const options = { ...quiet, signal };
  const { items } =
    role === 'admin'
      ? await call('POST /api/admin/diagnostics/list', { body }, options)
      : await call('POST /api/coordinator/diagnostic/list', { body }, options);
  return items.map((d) => ({ value: String(d.id), label: labelOf(d) }));
}

/** The label of one diagnostic: the admin reads its card; a coordinator's list has no id filter. */
async function labelById(role: DiagnosticPickerRole, id: number, signal?: AbortSignal) {
  if (role === 'admin') {
    const d = await call('GET /api/admin/diagnostics/{id}', { params: { id } }, { ...quiet, signal });
    return labelOf(d);
  }
  const list = await call(
    'POST /api/coordinator/diagnostic/list',
    { body: { page: 1, pageSize: 500, sort: newestFirst } },
    { ...quiet, signal },
  );
  const d = list.items.find((item) => item.id === id);
  return d ? labelOf(d) : null;
}

export function DiagnosticPicker({
  role,
  onChange,
  ...rest
}: Omit<ServerSelectProps, 'queryKey' | 'search' | 'labelOf' | 'onChange'> & {
  role: DiagnosticPickerRole;
  onChange: (id: number | null) => void;
}) {
  const { t } = useBundleT(pickerBundle);
  return (
    <ServerSelect
      loadingMessage={t('diagnosticPicker.loading')}
      notFoundMessage={t('diagnosticPicker.notFound')}
      label={t('diagnosticPicker.label')}
      placeholder={t('diagnosticPicker.placeholder')}
      {...rest}
      onChange={(id) => onChange(id)}
      queryKey={['diagnostic-picker', role]}
      search={(text, signal) => search(role, text, signal)}
      labelOf={(id, signal) => labelById(role, id, signal)}
    />
  );
}

export const pickerBundle: Bundle = {
  ru: {
    diagnosticPicker: {
      label: 'Диагностика',
      placeholder: 'Начните вводить название или код',
      notFound: 'Ничего не найдено',
      loading: 'Загрузка…',
    },
  },
  en: {
    diagnosticPicker: {
      label: 'Diagnostic',
      placeholder: 'Start typing its name or code',
      notFound: 'Nothing found',
      loading: 'Loading…',
    },
  },
};
