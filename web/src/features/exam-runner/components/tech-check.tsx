import { TECH_REQUIREMENTS, type TechSpecResult } from '@attesta/contract';
import {
  Alert,
  Button,
  Group,
  List,
  Loader,
  Paper,
  Stack,
  Text,
  ThemeIcon,
  Title,
} from '../../../components/lite/core';
import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { ExamApi } from '../api/exam-api';

/** What this browser can tell about itself (GET /api/user/checkTechSpec query). */
export function measureDevice(): Record<string, string | number | boolean> {
  const localStorageOk = (() => {
    try {
      localStorage.setItem('attesta.probe', '1');
      localStorage.removeItem('attesta.probe');
      return true;
    } catch {
      return false;
    }
  })();
  return {
    screenWidth: Math.round(window.screen?.width ?? window.innerWidth),
    screenHeight: Math.round(window.screen?.height ?? window.innerHeight),
    cookies: navigator.cookieEnabled,
    localStorage: localStorageOk,
    indexedDb: typeof indexedDB !== 'undefined',
    clientTime: new Date().toISOString(),
  };
}

/** Measures, times the download of the server's probe, then asks for the verdict with the timing. */
export async function runTechCheck(api: ExamApi): Promise<TechSpecResult> {
  const measured = measureDevice();
  const first = await api.techSpec(measured);
  try {
    const started = performance.now();
    const response = await fetch(first.probe.url, { cache: 'no-store', credentials: 'same-origin' });
    const bytes = (await response.arrayBuffer()).byteLength || first.probe.bytes;
    const downloadMs = Math.max(1, Math.round(performance.now() - started));
    return await api.techSpec({ ...measureDevice(), downloadMs, bytes });
  } catch {
    return first;
  }
}

/** The device check of this page, run once; «Проверить снова» refetches it. */
export function useTechCheck(api: ExamApi, enabled: boolean) {
  return useQuery({
    queryKey: ['exam', 'tech-check'],
    queryFn: () => runTechCheck(api),
    staleTime: Infinity,
    enabled,
  });
}

export type TechCheckQuery = UseQueryResult<TechSpecResult>;

/**
 * Why the start waits for the device, or null when the check passed: still running, the check
 * itself failed, or the checks that failed, by name.
 */
export function useTechBlocker(check: TechCheckQuery): string | null {
  const { t } = useTranslation();
  if (check.isPending) return t('start.tech.blockRunning');
  if (check.isError) return t('start.tech.blockFailed');
  if (check.data.ok) return null;
  const failed = check.data.checks.filter((c) => !c.ok).map((c) => t(`start.tech.ids.${c.id}`));
  return t('start.tech.blockNotOk', { checks: failed.join(', ') });
}

export function TechCheck({ check }: { check: TechCheckQuery }) {
  const { t } = useTranslation();
  return (
    <Paper withBorder radius="md" p="lg" data-testid="tech-check">
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={2} fz="lg">
            {t('start.tech.title')}
          </Title>
          <Button
            variant="default"
            size="xs"
            onClick={() => void check.refetch()}
            loading={check.isFetching}
            data-testid="tech-again"
          >
            {t('start.tech.again')}
          </Button>
        </Group>
        {check.isPending && (
          <Group gap="sm" role="status">
            <Loader size="xs" />
            <Text size="sm">{t('start.tech.running')}</Text>
          </Group>
        )}
        {check.isError && (
          <Alert color="red" variant="light" data-testid="tech-check-failed">
            {t('start.tech.failed')}
          </Alert>
        )}
        {check.data && (
          <>
            <List spacing="xs" listStyleType="none" p={0}>
              {check.data.checks.map((c) => {
                const state = !c.ok ? 'fail' : c.warning ? 'warn' : 'ok';
                return (
                  <List.Item
                    key={c.id}
                    data-testid={`tech-${c.id}`}
                    data-state={state}
                    icon={
                      <ThemeIcon
                        size="sm"
                        radius="xl"
                        color={state === 'ok' ? 'teal.8' : state === 'warn' ? 'orange.8' : 'red.8'}
                        aria-hidden="true"
                      >
                        {state === 'ok' ? '✓' : '!'}
                      </ThemeIcon>
                    }
                  >
                    <Text size="sm" fw={500} component="span">
                      {t(`start.tech.ids.${c.id}`)}:{' '}
                    </Text>
                    <Text size="sm" component="span">
                      {t(`start.tech.outcomes.${c.id}.${c.outcome}`, {
                        value: c.value,
                        ...OUTCOME_PARAMS,
                        defaultValue: t(`start.tech.state.${state}`),
                      })}
                    </Text>
                    <VisuallyHiddenState state={state} />
                  </List.Item>
                );
              })}
            </List>
            {check.data.ok ? (
              <Text size="sm" c="teal.9">
                {t('start.tech.allOk')}
              </Text>
            ) : (
              <Alert color="red" variant="light" data-testid="tech-warning">
                {t('start.tech.notOk')}
              </Alert>
            )}
          </>
        )}
      </Stack>
    </Paper>
  );
}

/** The requirements the texts name, from the contract the server checks against. */
const OUTCOME_PARAMS = {
  chrome: TECH_REQUIREMENTS.browsers.chrome,
  safari: TECH_REQUIREMENTS.browsers.safari,
  minWidth: TECH_REQUIREMENTS.screen.minWidth,
  minHeight: TECH_REQUIREMENTS.screen.minHeight,
  phoneMinSide: TECH_REQUIREMENTS.screen.phoneMinSide,
  minutes: TECH_REQUIREMENTS.maxClockSkewMinutes,
  mbit: TECH_REQUIREMENTS.minBandwidthMbit,
};

function VisuallyHiddenState({ state }: { state: 'ok' | 'warn' | 'fail' }) {
  const { t } = useTranslation();
  return <span className="visually-hidden"> ({t(`start.tech.state.${state}`)})</span>;
}
