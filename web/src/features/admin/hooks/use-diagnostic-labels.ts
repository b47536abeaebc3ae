import { ADMIN_DIAGNOSTIC_KINDS, ROLE_LABELS, type AdminDiagnostic } from '@attesta/contract';
import { useTranslation } from 'react-i18next';
import { useAdminT } from '../i18n';

/** Labels of a diagnostic's kind, state, creator and publication, shared by the list and its page. */
export function useDiagnosticLabels() {
  const t = useAdminT();
  const { i18n } = useTranslation();
  return {
    kind: (kind: string) =>
      (ADMIN_DIAGNOSTIC_KINDS as readonly string[]).includes(kind)
        ? t(`diagnostics.kinds.${kind as (typeof ADMIN_DIAGNOSTIC_KINDS)[number]}`)
        : kind,
    creator: (role: string | null) =>
      role && role in ROLE_LABELS
        ? ROLE_LABELS[role as keyof typeof ROLE_LABELS][i18n.language === 'en' ? 'en' : 'ru']
        : '—',
    status: (d: AdminDiagnostic) => t(`diagnostics.statuses.${d.status}`),
  };
}
