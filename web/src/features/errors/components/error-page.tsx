import { Button, Group, Stack, Text } from '../../../components/lite/core';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Code } from '../../../components/lite/kbd';
import { Table } from '../../../components/lite/table';
import { PageTitle } from '../../../components/ui/page-title';
import { isKnownErrorCode } from '../../../lib/form-errors';

const MAX_SHOWN = 500;

/**
 * What the error page shows: the status and the code (identifiers a helper can look up) and the
 * text chosen by the code in the user's language. The server's `message` is English and for
 * developers: it is never shown, even under the details.
 */
export interface ErrorDetails {
  status?: string;
  code?: string;
  /** A failure while sending: the error the browser reported. */
  sendError?: { name: string; message: string };
}

/** Reads what the api client put into the query; tolerant of hand-edited or truncated links. */
export function readErrorDetails(params: URLSearchParams): ErrorDetails {
  const clip = (value: string | null) => (value ? value.slice(0, MAX_SHOWN) : undefined);
  const details: ErrorDetails = {
    status: clip(params.get('status')),
    code: clip(params.get('code')),
  };
  const raw = params.get('error');
  if (raw) {
    try {
      const parsed: unknown = JSON.parse(raw);
      if (parsed && typeof parsed === 'object') {
        const { name, message } = parsed as Record<string, unknown>;
        details.sendError = { name: clip(String(name ?? 'Error'))!, message: clip(String(message ?? ''))! };
      }
    } catch {
      details.sendError = { name: 'Error', message: clip(raw)! };
    }
  }
  return details;
}

interface ErrorViewProps {
  details: ErrorDetails;
  /** The page itself failed (the router's error boundary), not a call. */
  crashed?: boolean;
}

/** Body of the general error page; also used by the router's error boundary. */
export function ErrorView({ details, crashed = false }: ErrorViewProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const rows: [string, string][] = [];
  if (details.status) rows.push([t('pages.error.status'), details.status]);
  if (details.code) rows.push([t('pages.error.code'), details.code]);
  if (details.sendError) rows.push([details.sendError.name, details.sendError.message]);

  return (
    <Stack gap="lg">
      <PageTitle data-testid="error-title">{t('pages.error.title')}</PageTitle>
      <Text data-testid="error-text">
        {details.sendError
          ? t('pages.error.sendFailed')
          : crashed
            ? t('pages.error.crashed')
            : t('pages.error.text')}
      </Text>
      {details.code && isKnownErrorCode(details.code) && (
        <Text fw={500} data-testid="error-explained">
          {t(`apiErrors.codes.${details.code}`)}
        </Text>
      )}
      {rows.length > 0 && (
        // For whoever helps the user: the raw details, folded away.
        <details data-testid="error-support">
          <summary>{t('pages.error.details')}</summary>
          <Table variant="vertical" fixed bordered data-testid="error-details">
            <tbody>
              {rows.map(([label, value]) => (
                <tr key={label}>
                  <th scope="row">{label}</th>
                  <td>
                    <Code>{value}</Code>
                  </td>
                </tr>
              ))}
            </tbody>
          </Table>
        </details>
      )}
      <Group>
        <Button variant="default" onClick={() => void navigate(-1)}>
          {t('pages.error.back')}
        </Button>
        <Button component={Link} to="/">
          {t('pages.error.home')}
        </Button>
      </Group>
    </Stack>
  );
}

/** `/error`: where failed calls land (spec §2). Works without a session. */
export function ErrorPage() {
  const [params] = useSearchParams();
  return <ErrorView details={readErrorDetails(params)} />;
}
